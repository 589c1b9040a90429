/* legend.h: the legend (layout.h) as drawn, and weights as text. Both
 * back ends that draw a graph (render_svg.c, render_cairo.c) take the
 * legend's items from here, so it is the same in every format. */
#ifndef AF_LEGEND_H
#define AF_LEGEND_H

#include <stddef.h>
#include <stdint.h>
#include "render.h"
#include "core/buf.h"
#include "core/layout.h"

/* A weight as people read it, plain text (not escaped): "1.23 s", "4.5 ms",
 * "12 \xc2\xb5s" when unit is µs, else the number and the unit. Weights are
 * fixed point with `decimals` digits, shown times factor (if > 0). */
void af_weight_text(struct af_sink *out, uint64_t w, unsigned decimals, double factor,
		    const char *unit);

/* The legend (layout.h) as drawn, the same in every back end: swatches, the
 * scale's bar and texts at positions estimated with the SVG's average
 * character advance (font_size * font_width), left to right, centred in
 * the row; when the row is wider than the image, the entries from the first
 * one that would cross the right margin on are left out. */
enum af_legend_item_type {
	AF_LEGEND_SWATCH,        /* a w x h rectangle of colour at (x, y) */
	AF_LEGEND_BAR,           /* the scale: legend.stops left to right */
	AF_LEGEND_TEXT,          /* text from x, baseline at y */
};

struct af_legend_item {
	enum af_legend_item_type type;
	double x, y, w, h;
	uint32_t colour;         /* swatch */
	size_t text, len;        /* text: bytes [text, text + len) of the
				    items' text buffer, UTF-8 not yet escaped */
	unsigned entry;          /* items of one entry (a swatch and its label)
				    are drawn together or not at all */
};

struct af_legend_items {
	struct af_legend_item *item;
	size_t n, cap;
	struct af_buf text;      /* every item's text */
};

/* Lay out l's legend for o (weights in o's unit, decimals and factor); an
 * empty list when there is none. Release with af_legend_items_release(). */
void af_legend_items_build(struct af_legend_items *it, const struct af_layout *l,
			   const struct af_render_opts *o);
void af_legend_items_release(struct af_legend_items *it);

#endif
