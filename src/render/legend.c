/* legend.c: the legend (layout.h) as the back ends draw it, and weights
 * as people read them. Below render_svg.c and render_cairo.c, which draw
 * the same list of items, and render.c (af_sink_weight). */
#include "legend.h"
#include "core/escape.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static double unscaled(uint64_t w, unsigned decimals)
{
	double v = (double)w;
	for (unsigned i = 0; i < decimals; i++)
		v /= 10;
	return v;
}

void af_weight_text(struct af_sink *out, uint64_t w, unsigned decimals, double factor,
		    const char *unit)
{
	double v = unscaled(w, decimals) * (factor > 0 ? factor : 1);
	if (strcmp(unit, "\xc2\xb5s") == 0) {
		if (v >= 1e6)
			af_sink_printf(out, "%.2f s", v / 1e6);
		else if (v >= 1e3)
			af_sink_printf(out, "%.1f ms", v / 1e3);
		else
			af_sink_printf(out, "%.0f \xc2\xb5s", v);
		return;
	}
	af_sink_fixed(out, v, (int)(decimals > 6 ? 6 : decimals));
	af_sink_putc(out, ' ');
	af_sink_puts(out, unit);
}

static int to_buf(void *ctx, const void *data, size_t len)
{
	af_buf_add(ctx, data, len);
	return 0;
}

/* ---- the legend as drawn ---- */

#define LEGEND_DETAIL_MAX 40    /* code points of a detail shown (a package) */

struct legend_row {
	struct af_legend_items *it;
	struct af_sink text;
	const struct af_layout *l;
	double char_px, x, baseline, swatch_y, size;
	unsigned entry;         /* of the items added now */
};

static struct af_legend_item *add_item(struct legend_row *r, enum af_legend_item_type type)
{
	struct af_legend_items *it = r->it;
	af_grow(&it->item, &it->cap, it->n + 1, sizeof *it->item);
	struct af_legend_item *i = &it->item[it->n++];
	*i = (struct af_legend_item){ .type = type, .entry = r->entry };
	return i;
}

/* Bytes of s up to its max_cp-th code point (all of s if it has fewer). */
static size_t cp_prefix(const char *s, size_t len, size_t max_cp)
{
	size_t at = 0;
	for (size_t n = 0; at < len && n < max_cp; n++) {
		uint32_t cp;
		at += af_utf8_next((const unsigned char *)s + at, len - at, &cp);
	}
	return at;
}

/* Text items: start a text, then write it to r->text; end_text() measures. */
static struct af_legend_item *begin_text(struct legend_row *r)
{
	struct af_legend_item *i = add_item(r, AF_LEGEND_TEXT);
	i->text = (size_t)r->text.written + r->text.buf.len;
	return i;
}

/* The row's text (under a kilobyte) stays in the sink's buffer until
 * af_sink_finish(), so it can be measured there. */
static double end_text(struct legend_row *r, struct af_legend_item *i)
{
	const char *all = r->text.buf.data;
	size_t start = i->text - (size_t)r->text.written;
	i->len = r->text.buf.len - start;
	i->x = r->x;
	i->y = r->baseline;
	i->w = (double)af_utf8_count(all + start, i->len) * r->char_px;
	i->h = r->l->font_size;
	return i->w;
}

/* Swatch and label of each kind; returns the row's width. */
static double kinds_row(struct legend_row *r)
{
	const struct af_legend *g = &r->l->legend;
	double gap = r->l->font_size * 1.5, start = r->x;
	for (size_t k = 0; k < g->nentries; k++) {
		const struct af_legend_entry *e = &g->entries[k];
		r->entry = (unsigned)k;
		struct af_legend_item *sw = add_item(r, AF_LEGEND_SWATCH);
		sw->x = r->x;
		sw->y = r->swatch_y;
		sw->w = sw->h = r->size;
		sw->colour = e->colour;
		r->x += r->size + 4;
		struct af_legend_item *t = begin_text(r);
		af_sink_puts(&r->text, e->label);
		if (e->detail) {
			size_t len = strlen(e->detail), keep = cp_prefix(e->detail, len, LEGEND_DETAIL_MAX);
			af_sink_puts(&r->text, " (");
			af_sink_write(&r->text, e->detail, keep);
			af_sink_puts(&r->text, keep < len ? "\xe2\x80\xa6)" : ")");
		}
		r->x += end_text(r, t) + gap;
	}
	return r->x - gap - start;
}

/* Caption, "shrank by X", the bar, "grew by X"; returns the row's width. */
static double scale_row(struct legend_row *r, const struct af_render_opts *o)
{
	const struct af_layout *l = r->l;
	const struct af_legend *g = &l->legend;
	const char *unit = o->count_name ? o->count_name : "samples";
	double start = r->x, gap = l->font_size * 0.5;
	struct af_legend_item *t = begin_text(r);
	af_sink_puts(&r->text, g->caption);
	af_sink_putc(&r->text, ':');
	r->x += end_text(r, t) + l->font_size;
	r->entry = 1;           /* the scale itself: whole or not at all */
	for (int side = 0; side < 2; side++) {
		t = begin_text(r);
		af_sink_puts(&r->text, side ? g->high : g->low);
		af_sink_puts(&r->text, " by ");
		af_weight_text(&r->text, l->max_delta, o->decimals, o->factor, unit);
		r->x += end_text(r, t) + gap;
		if (side)
			break;
		struct af_legend_item *bar = add_item(r, AF_LEGEND_BAR);
		bar->x = r->x;
		bar->y = r->swatch_y;
		bar->w = l->font_size * 10;
		bar->h = r->size;
		r->x += bar->w + gap;
	}
	return r->x - gap - start;
}

/* Move the row's items right by dx; from the first entry with an item
 * that would end past right, leave them out. */
static void settle(struct af_legend_items *it, double dx, double right)
{
	size_t kept = it->n;
	for (size_t i = 0; i < it->n; i++) {
		it->item[i].x += dx;
		if (it->item[i].x + it->item[i].w > right + 1e-9) {
			kept = i;
			break;
		}
	}
	while (kept > 0 && kept < it->n && it->item[kept - 1].entry == it->item[kept].entry)
		kept--;
	it->n = kept;
}

void af_legend_items_build(struct af_legend_items *it, const struct af_layout *l,
			   const struct af_render_opts *o)
{
	memset(it, 0, sizeof *it);
	af_buf_init(&it->text);
	const struct af_legend *g = &l->legend;
	if (g->kind == AF_LEGEND_NONE)
		return;
	double fs = l->font_size;
	struct legend_row r = {
		.it = it, .l = l, .x = 0,
		.char_px = fs * (o->font_width > 0 ? o->font_width : 0.59),
		.size = fs * 5 / 6, .swatch_y = g->y + (g->height - fs * 5 / 6) / 2,
		.baseline = g->y + g->height / 2 + fs * 0.35,
	};
	af_sink_init(&r.text, to_buf, &it->text);
	double width = g->kind == AF_LEGEND_SCALE ? scale_row(&r, o) : kinds_row(&r);
	af_sink_finish(&r.text);
	double room = l->width - 2 * l->xpad;
	settle(it, l->xpad + (width < room ? (room - width) / 2 : 0), l->width - l->xpad);
}

void af_legend_items_release(struct af_legend_items *it)
{
	free(it->item);
	af_buf_release(&it->text);
	memset(it, 0, sizeof *it);
}
