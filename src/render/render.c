/* render.c: defaults shared by the back ends, the table of output formats
 * and the choice of a back end for one. */
#include "render.h"
#include "legend.h"
#include "core/escape.h"
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

/* ---- output formats ---- */

static const struct {
	const char *name, *ext;
	enum af_out_format f;
	bool cairo;
} formats[] = {
	{ "svg", "svg", AF_OUT_SVG, false },
	{ "svg-static", "svg", AF_OUT_SVG_STATIC, true },
	{ "png", "png", AF_OUT_PNG, true },
	{ "pdf", "pdf", AF_OUT_PDF, true },
	{ "folded", "folded", AF_OUT_FOLDED, false },
	{ "tree", "txt", AF_OUT_TREE, false },
	{ "frames", "frames", AF_OUT_FRAMES, false },   /* one text line per drawn frame */
};

enum af_out_format af_out_format_named(const char *name)
{
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		if (strcmp(name, formats[i].name) == 0)
			return formats[i].f;
	return AF_OUT_AUTO;
}

enum af_out_format af_out_format_from_path(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (!dot || strchr(dot, '/'))
		return AF_OUT_AUTO;
	if (strcmp(dot, ".txt") == 0)
		return AF_OUT_FOLDED;
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		if (strcmp(dot + 1, formats[i].ext) == 0)
			return formats[i].f;  /* .svg: the interactive one, listed first */
	return AF_OUT_AUTO;
}

const char *af_out_format_names(void)
{
	static char names[256];
	size_t n = 0, count = sizeof formats / sizeof *formats;
	if (names[0])
		return names;
	for (size_t i = 0; i < count && n < sizeof names; i++)
		n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
				      i == 0 ? "" : i + 1 == count ? " or " : ", ", formats[i].name);
	return names;
}

const char *af_out_format_extensions(void)
{
	static char exts[256];
	size_t n = 0;
	if (exts[0])
		return exts;
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
		bool seen = false;
		for (size_t k = 0; k < i; k++)
			seen |= strcmp(formats[k].ext, formats[i].ext) == 0;
		if (!seen)
			n += (size_t)snprintf(exts + n, sizeof exts - n, "%s%s", n ? " " : "",
					      formats[i].ext);
	}
	return exts;
}

const char *af_out_format_ext(enum af_out_format f)
{
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		if (formats[i].f == f)
			return formats[i].ext;
	return "svg";
}

bool af_out_format_cairo(enum af_out_format f)
{
	for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
		if (formats[i].f == f)
			return formats[i].cairo;
	return false;
}

/* ---- one graph ---- */

int af_render_to(enum af_out_format f, struct af_tree *t, uint32_t root,
		 const uint8_t *excluded, const struct af_layout_opts *lo,
		 const struct af_render_opts *ro, struct af_sink *out, struct af_diag *d)
{
	if (f == AF_OUT_FOLDED)
		return af_write_folded(t, root, excluded, ro->decimals, out);
	if (f == AF_OUT_TREE)
		return af_write_tree(t, root, excluded, ro->decimals, out);
	struct af_layout l;
	if (af_layout_build(&l, t, root, excluded, lo, d) < 0)
		return -1;
	int rc;
	switch (f) {
	case AF_OUT_PNG: rc = af_render_cairo(&l, ro, AF_CAIRO_PNG, out, d); break;
	case AF_OUT_PDF: rc = af_render_cairo(&l, ro, AF_CAIRO_PDF, out, d); break;
	case AF_OUT_SVG_STATIC: rc = af_render_cairo(&l, ro, AF_CAIRO_SVG, out, d); break;
	case AF_OUT_FRAMES: rc = af_render_frames(&l, ro, out, d); break;
	case AF_OUT_SVG:
	default: rc = af_render_svg(&l, ro, out, d); break;
	}
	af_layout_release(&l);
	return rc;
}
