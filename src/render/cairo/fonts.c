/* fonts.c: the pinned font through a private fontconfig configuration.
 *
 * FcConfigCreate() reads no fonts.conf, so the configuration holds exactly
 * the one file we add: whatever family a pattern asks for, fontconfig can
 * only answer DejaVu Sans, and no system rule (hinting, antialiasing,
 * substitutions) reaches the output. */
#include "core/util.h"
#include "render/fonts.h"

#include <fontconfig/fontconfig.h>
#include <pango/pangofc-fontmap.h>
#include <limits.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef AF_FONT_DIR
#define AF_FONT_DIR "fonts"
#endif

static pthread_once_t dir_once = PTHREAD_ONCE_INIT;
static char font_dir[PATH_MAX];
static char dir_error[200];

static int has_font(const char *dir)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/%s", dir, AF_FONT_FILE);
	return access(path, R_OK) == 0;
}

/* <dir of /proc/self/exe>/../share/aflame-render/fonts, or "" */
static void installed_dir(char *out, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	out[0] = 0;
	if (n <= 0)
		return;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return;
	*slash = 0;
	if ((size_t)snprintf(out, size, "%.*s/../share/aflame-render/fonts", PATH_MAX - 64, exe) >= size)
		out[0] = 0;
}

static void find_dir(void)
{
	const char *env = getenv("AFLAME_FONT_DIR");
	if (env && *env) {
		if (has_font(env) && strlen(env) < sizeof font_dir)
			snprintf(font_dir, sizeof font_dir, "%s", env);
		else
			snprintf(dir_error, sizeof dir_error,
				 "AFLAME_FONT_DIR '%.120s' has no readable " AF_FONT_FILE, env);
		return;
	}
	char inst[sizeof font_dir];   /* "" when the path would not fit */
	installed_dir(inst, sizeof inst);
	if (inst[0] && has_font(inst)) {
		snprintf(font_dir, sizeof font_dir, "%s", inst);
		return;
	}
	if (has_font(AF_FONT_DIR)) {
		snprintf(font_dir, sizeof font_dir, "%s", AF_FONT_DIR);
		return;
	}
	snprintf(dir_error, sizeof dir_error, "cannot find the font " AF_FONT_FILE
		 " (looked in %.100s); set AFLAME_FONT_DIR", AF_FONT_DIR);
}

const char *af_font_dir(struct af_diag *d)
{
	pthread_once(&dir_once, find_dir);
	if (!font_dir[0]) {
		af_diag_error(d, "%s", dir_error);
		return NULL;
	}
	return font_dir;
}

/* pango 1.50 calls FcInit() once per process (in a thread, waited for
 * before the first text), which loads the system's fonts.conf and scans
 * every installed font: 24M instructions, more than a small PNG costs, for
 * a configuration nothing here uses. With a current configuration in place
 * FcInit() has nothing to do, so the first private one becomes current;
 * that also keeps system rules out of anything fontconfig does with the
 * current configuration. It holds its own reference, so it lives as long
 * as the process whichever af_text goes first. */
static pthread_mutex_t current_lock = PTHREAD_MUTEX_INITIALIZER;
static bool current_set;

static void set_current(FcConfig *cfg)
{
	pthread_mutex_lock(&current_lock);
	if (!current_set)
		current_set = FcConfigSetCurrent(cfg);
	pthread_mutex_unlock(&current_lock);
}

static void set_font_options(PangoContext *ctx)
{
	cairo_font_options_t *fo = cairo_font_options_create();
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_subpixel_order(fo, CAIRO_SUBPIXEL_ORDER_DEFAULT);
	pango_cairo_context_set_font_options(ctx, fo);
	cairo_font_options_destroy(fo);
	pango_context_set_round_glyph_positions(ctx, FALSE);
	/* the default language comes from $LANG and steers font choice */
	pango_context_set_language(ctx, pango_language_from_string("en"));
	pango_context_set_base_dir(ctx, PANGO_DIRECTION_LTR);
}

struct af_text *af_text_new(struct af_diag *d)
{
	const char *dir = af_font_dir(d);
	if (!dir)
		return NULL;
	char path[PATH_MAX + 32];
	snprintf(path, sizeof path, "%s/%s", dir, AF_FONT_FILE);
	FcConfig *cfg = FcConfigCreate();
	if (!cfg || !FcConfigAppFontAddFile(cfg, (const FcChar8 *)path)) {
		if (cfg)
			FcConfigDestroy(cfg);
		af_diag_error(d, "cannot load the font '%s'", path);
		return NULL;
	}
	set_current(cfg);
	struct af_text *t = af_xcalloc(1, sizeof *t);
	t->config = cfg;
	t->fontmap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
	if (!t->fontmap || !PANGO_IS_FC_FONT_MAP(t->fontmap)) {
		af_text_free(t);
		af_diag_error(d, "pango has no fontconfig font map");
		return NULL;
	}
	pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(t->fontmap), cfg);
	t->context = pango_font_map_create_context(t->fontmap);
	set_font_options(t->context);
	return t;
}

void af_text_free(struct af_text *t)
{
	if (!t)
		return;
	if (t->context)
		g_object_unref(t->context);
	if (t->fontmap)
		g_object_unref(t->fontmap);
	if (t->config)
		FcConfigDestroy(t->config);
	free(t);
}
