/* cairo_entry.c: the one symbol aflame-render-cairo.so exports
 * (cairo_module.h). Built only into the module. */
#include "render/cairo_module.h"
#include "render/fonts.h"

extern __attribute__((visibility("default"))) const struct af_cairo_entry af_cairo_entry;

const struct af_cairo_entry af_cairo_entry = {
	.head = { AF_CAIRO_ABI, sizeof af_cairo_entry },
	.text_new = af_text_new,
	.text_free = af_text_free,
	.render = af_render_cairo,
};
