/* render.c: defaults shared by the back ends, the table of output formats
 * and the choice of a back end for one. */
#include "render.h"
#include "core/dumpsize.h"
#include "legend.h"
#include "core/escape.h"
#include "core/report.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void af_render_opts_default(struct af_render_opts *o)
{
	memset(o, 0, sizeof *o);
	o->count_name = "samples";
	o->font_family = "DejaVu Sans";
	o->font_width = 0.59;
	o->factor = 1;
	o->bg_top = 0xeeeeee;
	o->bg_bottom = 0xeeeeb0;
	o->scale = 1;
	o->max_output = AF_OUTPUT_MAX_DEFAULT;
}

static int to_buf(void *ctx, const void *data, size_t len)
{
	af_buf_add(ctx, data, len);
	return 0;
}

void af_sink_weight(struct af_sink *out, uint64_t w, unsigned decimals, const char *unit)
{
	struct af_buf b;
	struct af_sink s;
	af_buf_init(&b);
	af_sink_init(&s, to_buf, &b);
	af_weight_text(&s, w, decimals, 1, unit);
	af_sink_finish(&s);
	af_escape_xml(out, b.data ? b.data : "");
	af_buf_release(&b);
}

/* ---- the output table ---- */

const struct af_backend *const af_backends[] = {
	&af_backend_svg, &af_backend_svg_static, &af_backend_png, &af_backend_pdf,
	&af_backend_folded, &af_backend_tree, &af_backend_frames, &af_backend_pprof, &af_backend_pprof_pb,
	NULL,
};

const struct af_backend *af_backend_of(enum af_out_format f)
{
	for (const struct af_backend *const *b = af_backends; *b; b++)
		if ((*b)->format == f)
			return *b;
	return af_backends[0];
}

enum af_out_format af_out_format_named(const char *name)
{
	for (const struct af_backend *const *b = af_backends; *b; b++)
		if (strcmp(name, (*b)->name) == 0)
			return (*b)->format;
	return AF_OUT_AUTO;
}

/* Is ext (without its dot) one of exts (NULL-ended)? */
static bool listed(const char *const *exts, const char *ext)
{
	for (; *exts; exts++)
		if (strcmp(*exts, ext) == 0)
			return true;
	return false;
}

/* The extension of path without its dot, or NULL if it has none. */
static const char *extension(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	return dot && !strchr(dot, '/') ? dot + 1 : NULL;
}

/* Does path end in "." ext (ext may hold a dot itself: "pb.gz")? */
static bool has_ext(const char *path, const char *ext)
{
	size_t n = strlen(path), e = strlen(ext);
	return n > e + 1 && path[n - e - 1] == '.' && strcmp(path + n - e, ext) == 0 &&
	       !memchr(path + n - e - 1, '/', e + 1);
}

enum af_out_format af_out_format_from_path(const char *path)
{
	for (const struct af_backend *const *b = af_backends; path && *b; b++)
		for (const char *const *e = (*b)->exts; *e; e++)
			if (has_ext(path, *e))
				return (*b)->format;  /* .svg: the interactive one, listed first */
	return AF_OUT_AUTO;
}

/* "a, b or c" from the table's names (only those that can write a
 * comparison if diff_only) into buf. */
static const char *join_names(char *buf, size_t size, bool diff_only)
{
	size_t count = 0, i = 0, n = 0;
	for (const struct af_backend *const *b = af_backends; *b; b++)
		count += !diff_only || (*b)->diff;
	for (const struct af_backend *const *b = af_backends; *b && n < size; b++) {
		if (diff_only && !(*b)->diff)
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      i == 0 ? "" : i + 1 == count ? " or " : ", ", (*b)->name);
		i++;
	}
	return buf;
}

const char *af_out_format_names(void)
{
	static char names[256];
	return names[0] ? names : join_names(names, sizeof names, false);
}

const char *af_out_format_diff_names(void)
{
	static char names[256];
	return names[0] ? names : join_names(names, sizeof names, true);
}

/* Has an entry before b (or b before ext) listed ext already? */
static bool seen_before(const struct af_backend *const *b, const char *const *ext)
{
	for (const struct af_backend *const *p = af_backends; p <= b; p++)
		for (const char *const *e = (*p)->exts; *e && e != ext; e++)
			if (strcmp(*e, *ext) == 0)
				return true;
	return false;
}

/* Every extension of the table once, in its order: dot + each, sep between. */
static const char *join_extensions(char *buf, size_t size, const char *sep, const char *dot)
{
	size_t n = 0;
	for (const struct af_backend *const *b = af_backends; *b; b++)
		for (const char *const *e = (*b)->exts; *e && n < size; e++)
			if (!seen_before(b, e))
				n += (size_t)snprintf(buf + n, size - n, "%s%s%s", n ? sep : "", dot, *e);
	return buf;
}

const char *af_out_format_extensions(void)
{
	static char exts[256];
	return exts[0] ? exts : join_extensions(exts, sizeof exts, " ", "");
}

const char *af_out_format_extensions_shown(void)
{
	static char exts[256];
	return exts[0] ? exts : join_extensions(exts, sizeof exts, ", ", ".");
}

const char *af_out_format_ext(enum af_out_format f)
{
	return af_backend_of(f)->exts[0];
}

bool af_out_format_cairo(enum af_out_format f)
{
	return af_backend_of(f)->cairo;
}

/* ---- the report's formats (render_report.c) ---- */

static const struct {
	const char *const *exts;  /* as in struct af_backend */
	enum af_report_format f;
} reports[] = {
	{ (const char *const[]){ "txt", NULL }, AF_REPORT_TEXT },
	{ (const char *const[]){ "csv", NULL }, AF_REPORT_CSV },
	{ (const char *const[]){ "json", NULL }, AF_REPORT_JSON },
	{ (const char *const[]){ "html", "htm", NULL }, AF_REPORT_HTML },
};
#define NREPORTS (sizeof reports / sizeof *reports)

int af_report_format_from_path(const char *path)
{
	const char *ext = extension(path);
	for (size_t i = 0; ext && i < NREPORTS; i++)
		if (listed(reports[i].exts, ext))
			return (int)reports[i].f;
	return -1;
}

const char *af_report_extensions(void)
{
	static char exts[128];
	size_t n = 0;
	if (exts[0])
		return exts;
	for (size_t i = 0; i < NREPORTS; i++)
		for (const char *const *e = reports[i].exts; *e && n < sizeof exts; e++)
			n += (size_t)snprintf(exts + n, sizeof exts - n, "%s%s", n ? " " : "", *e);
	return exts;
}

const char *af_report_extensions_shown(void)
{
	static char exts[128];
	size_t n = 0;
	if (exts[0])
		return exts;
	for (size_t i = 0; i < NREPORTS && n < sizeof exts; i++)
		n += (size_t)snprintf(exts + n, sizeof exts - n, "%s.%s",
				      i == 0 ? "" : i + 1 == NREPORTS ? " or " : ", ", reports[i].exts[0]);
	return exts;
}

/* ---- one graph ---- */

int af_render_to(enum af_out_format f, struct af_tree *t, uint32_t root,
		 const uint8_t *excluded, const struct af_layout_opts *lo,
		 const struct af_render_opts *ro, struct af_sink *out, struct af_diag *d)
{
	const struct af_backend *b = af_backend_of(f);
	if (b->write)
		return b->write(t, root, excluded, ro, out, d);
	struct af_layout l;
	if (af_layout_build(&l, t, root, excluded, lo, d) < 0)
		return -1;
	int rc = b->draw(&l, ro, out, d);
	af_layout_release(&l);
	return rc;
}
