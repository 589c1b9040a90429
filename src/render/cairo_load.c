/* cairo_load.c: af_text_new, af_text_free and af_render_cairo for the
 * program, forwarded to aflame-render-cairo.so, opened on first use
 * (cairo_module.h, module.h). Only PNG, PDF and static SVG get here, so
 * every other run never loads cairo, pango or their libraries. */
#include "cairo_module.h"
#include "fonts.h"
#include "core/module.h"

#include <limits.h>
#include <pthread.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const struct af_cairo_entry *entry;
static char load_error[PATH_MAX + 300];

static void load(void)
{
	entry = (const struct af_cairo_entry *)af_module_open(
		AF_CAIRO_MODULE, AF_CAIRO_ENTRY, AF_CAIRO_ABI, sizeof *entry,
		"PNG, PDF and static SVG need", load_error, sizeof load_error);
}

/* The module, or NULL with diag set */
static const struct af_cairo_entry *module(struct af_diag *d)
{
	pthread_once(&load_once, load);
	if (!entry)
		af_diag_error(d, "%s", load_error);
	return entry;
}

struct af_text *af_text_new(struct af_diag *d)
{
	const struct af_cairo_entry *e = module(d);
	return e ? e->text_new(d) : NULL;
}

void af_text_free(struct af_text *t)
{
	if (t)          /* made by the module, so it is loaded */
		entry->text_free(t);
}

int af_render_cairo(const struct af_layout *l, const struct af_render_opts *o,
		    enum af_cairo_format fmt, struct af_sink *out, struct af_diag *d)
{
	const struct af_cairo_entry *e = module(d);
	return e ? e->render(l, o, fmt, out, d) : -1;
}

/* ---- the module's formats in the output table (render.h) ---- */

static int draw_png(const struct af_layout *l, const struct af_render_opts *o,
		    struct af_sink *out, struct af_diag *d)
{
	return af_render_cairo(l, o, AF_CAIRO_PNG, out, d);
}

static int draw_pdf(const struct af_layout *l, const struct af_render_opts *o,
		    struct af_sink *out, struct af_diag *d)
{
	return af_render_cairo(l, o, AF_CAIRO_PDF, out, d);
}

static int draw_svg(const struct af_layout *l, const struct af_render_opts *o,
		    struct af_sink *out, struct af_diag *d)
{
	return af_render_cairo(l, o, AF_CAIRO_SVG, out, d);
}

/* .svg is the interactive SVG's (listed before); --static or a batch writes
 * this one as .svg */
const struct af_backend af_backend_svg_static = {
	.format = AF_OUT_SVG_STATIC, .name = "svg-static",
	.exts = (const char *const[]){ "svg", NULL }, .label = "static SVG",
	.cairo = true, .image = true, .diff = true, .draw = draw_svg,
};

const struct af_backend af_backend_png = {
	.format = AF_OUT_PNG, .name = "png",
	.exts = (const char *const[]){ "png", NULL }, .label = "PNG",
	.cairo = true, .image = true, .diff = true, .draw = draw_png,
};

const struct af_backend af_backend_pdf = {
	.format = AF_OUT_PDF, .name = "pdf",
	.exts = (const char *const[]){ "pdf", NULL }, .label = "PDF",
	.cairo = true, .diff = true, .draw = draw_pdf,
};
