/* cairo_module.h: the cairo back end (render_cairo.c, fonts.c) lives in a
 * module (module.h), aflame-render-cairo.so, opened the first time a PNG,
 * PDF or static SVG is drawn. cairo, pango, glib, harfbuzz and fontconfig
 * are some 35 shared libraries: loading them cost every run 10-20 ms of
 * CPU, most of what a small SVG or folded output costs (issue 19), as git
 * keeps libcurl out of git itself.
 *
 * cairo_load.c defines af_text_new, af_text_free and af_render_cairo in the
 * program (fonts.h, render.h) and forwards them to the module's entry. */
#ifndef AF_CAIRO_MODULE_H
#define AF_CAIRO_MODULE_H

#include "render.h"
#include "core/diag.h"
#include "core/module.h"

#define AF_CAIRO_MODULE "aflame-render-cairo.so"
#define AF_CAIRO_ENTRY "af_cairo_entry"
/* bumped when struct af_cairo_entry or anything it passes changes, so a
 * module from another build is refused instead of called wrongly */
#define AF_CAIRO_ABI 2

struct af_text;

struct af_cairo_entry {
	struct af_module_head head;    /* AF_CAIRO_ABI */
	struct af_text *(*text_new)(struct af_diag *d);
	void (*text_free)(struct af_text *t);
	int (*render)(const struct af_layout *l, const struct af_render_opts *o,
		      enum af_cairo_format fmt, struct af_sink *out, struct af_diag *d);
};

#endif
