/* render_svg.c: the interactive SVG back end.
 *
 * The picture is complete without script (a browser showing the file through
 * <img> sees every frame and the labels of wide frames). Frames are rectangle
 * subpaths of one <path> per colour (see frames() for why), the blended runs
 * of frames under a pixel one embedded PNG image (blend.h); what the script
 * needs beyond pixels (names, exact weights, depths) travels once, compactly,
 * in a data block inside its CDATA section, names and frames deflated (pack.h).
 *
 * Everything taken from a trace goes through one of two escapers: af_escape_xml()
 * for markup and af_escape_json() for the data block. Both repair invalid UTF-8
 * and control characters to U+FFFD, so the file is always well-formed XML and
 * no frame name can end the CDATA section, a string, or the script. */
#include "blend.h"
#include "legend.h"
#include "nameattr.h"
#include "pack.h"
#include "render.h"
#include "svg_bulk.h"
#include "svg_script.h"
#include "core/escape.h"
#include "core/idmap.h"
#include "core/util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- pieces of the document ---- */

struct svg {
	const struct af_layout *l;
	const struct af_render_opts *o;
	struct af_sink *out;
	char id[11];           /* "af" + 8 hex digits: class prefix, unique ids */
	double char_px;        /* estimated advance of one character */
	uint32_t ngroups;      /* colour groups, see colour_groups() */
	uint32_t *group;       /* frame -> its colour group */
	uint32_t *colour;      /* group -> its colour */
	uint32_t *na;          /* frames with --nameattr attributes */
	size_t nna;
	bool per_frame;        /* colours are not a function of the name
				  (differential graphs): groups go per frame */
	struct af_svg_bulk bulk;   /* D.z, made while the rest is written */
};

/* flamegraph.pl's annotations ("_[k]" ...) choose the colour and are not
 * shown */
#define shown_len af_label_shown_len

/* One step of make_id's hash: v mixed into h (a multiply carries every bit
 * of v upward, the shift brings the high ones back down). */
static uint64_t mix(uint64_t h, uint64_t v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ULL;
	return h ^ h >> 29;
}

static uint64_t mix_bytes(uint64_t h, const char *s, size_t n)
{
	uint64_t v;
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&v, s, 8);
		h = mix(h, v);
	}
	v = 0;   /* the tail, and its length: "a" and "a\0" differ */
	memcpy(&v, s, n);
	return mix(h, v ^ (uint64_t)n << 59);
}

/* A short name for this graph, the same for the same layout and options, so
 * two different graphs in one HTML page don't share ids or CSS rules. The
 * frames are hashed a word at a time (byte-wise FNV of every frame and its
 * name was 30M instructions, 6 ms, on the pprof bench's 58k frames). */
static void make_id(struct svg *g)
{
	const struct af_layout *l = g->l;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < l->nframes; i++) {
		const struct af_frame *f = &l->frames[i];
		h = mix(h, f->start);
		h = mix(h, f->width);
		h = mix(h, f->depth);
		/* the name's text: its id depends on the reader, the tree's hash
		 * is seeded per process */
		h = mix_bytes(h, af_tree_name(l->tree, f->name), af_tree_name_len(l->tree, f->name));
	}
	const char *strs[] = { g->o->title, g->o->subtitle, g->o->count_name, g->o->font_family };
	for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
		h = strs[i] ? mix_bytes(h, strs[i], strlen(strs[i])) : mix(h, 0);
	uint64_t w, ht;
	memcpy(&w, &l->width, sizeof w);
	memcpy(&ht, &l->height, sizeof ht);
	h = mix(mix(mix(mix(h, l->nframes), l->total), w), ht);
	static const char hex[] = "0123456789abcdef";
	g->id[0] = 'a';
	g->id[1] = 'f';
	for (int i = 0; i < 8; i++)
		g->id[2 + i] = hex[h >> (60 - 4 * i) & 15];
	g->id[10] = 0;
}

static void put_num(struct af_sink *out, const char *before, double v)
{
	af_sink_puts(out, before);
	af_sink_fixed(out, v, 1);
	af_sink_putc(out, '"');
}

static void put_colour(struct af_sink *out, uint32_t rgb)
{
	static const char hex[] = "0123456789abcdef";
	char b[7] = { '#' };
	for (int i = 0; i < 6; i++)
		b[1 + i] = hex[rgb >> (20 - 4 * i) & 15];
	af_sink_write(out, b, 7);
}

/* --notes: an XML comment, which must not hold "--" */
static void notes(struct af_sink *out, const char *s)
{
	af_sink_puts(out, "<!-- NOTES: ");
	for (; *s; s++) {
		af_sink_putc(out, *s);
		if (*s == '-' && (s[1] == '-' || s[1] == 0))
			af_sink_putc(out, ' ');
	}
	af_sink_puts(out, " -->\n");
}

static void header(struct svg *g)
{
	const struct af_layout *l = g->l;
	struct af_sink *out = g->out;
	af_sink_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		     "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" class=\"");
	af_sink_puts(out, g->id);
	put_num(out, "\" width=\"", l->width);
	put_num(out, " height=\"", l->height);
	af_sink_puts(out, " viewBox=\"0 0 ");
	af_sink_fixed(out, l->width, 1);
	af_sink_putc(out, ' ');
	af_sink_fixed(out, l->height, 1);
	af_sink_puts(out, "\">\n");
	if (g->o->notes)
		notes(out, g->o->notes);
	af_sink_printf(out, "<defs><linearGradient id=\"%s-bg\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\">"
		       "<stop offset=\"5%%\" stop-color=\"", g->id);
	put_colour(out, g->o->bg_top);
	af_sink_puts(out, "\"/><stop offset=\"95%\" stop-color=\"");
	put_colour(out, g->o->bg_bottom);
	af_sink_puts(out, "\"/></linearGradient></defs>\n");
}

/* Every rule is scoped by the graph's class: a <style> inside an SVG that is
 * inlined in HTML applies to the whole page. */
static void style(struct svg *g)
{
	struct af_sink *out = g->out;
	const char *p = g->id;
	static const char *const fallback[] = { "Verdana", "DejaVu Sans", "Bitstream Vera Sans" };
	const char *family = g->o->font_family;
	af_sink_printf(out, "<style type=\"text/css\">\n.%s text{font-family:", p);
	if (family && *family) {
		af_escape_css(out, family);
		af_sink_putc(out, ',');
	}
	for (size_t i = 0; i < sizeof fallback / sizeof *fallback; i++) {
		if (family && strcmp(family, fallback[i]) == 0)
			continue;
		af_escape_css(out, fallback[i]);
		af_sink_putc(out, ',');
	}
	af_sink_puts(out, "sans-serif;font-size:");
	af_sink_fixed(out, g->l->font_size, 2);
	af_sink_printf(out, "px;fill:#000}\n"
		       ".%s .ti{font-size:", p);
	af_sink_fixed(out, g->l->font_size + 5, 2);
	/* as the page itself (or in a frame narrower than it), the image
	 * shrinks to the window's width rather than being cut at its right
	 * edge, where Search and the match line are */
	af_sink_printf(out, "px;text-anchor:middle}\n"
		       ".%s:root{max-width:100%%;height:auto}\n"
		       ".%s .st{text-anchor:middle;fill:#505050}\n"
		       ".%s .r{text-anchor:end}\n"
		       ".%s .h{display:none}\n"
		       ".%s .lw{fill:#fff}\n"
		       ".%s .lb,.%s .tt,.%s .hv,.%s .hl{pointer-events:none}\n"
		       ".%s .bt{cursor:pointer}\n"
		       ".%s .hl{fill:rgb(230,0,230)}\n"
		       ".%s .hv{fill:none;stroke:#000;stroke-width:1}\n"
		       ".%s .tt rect{fill:#ffffe8;stroke:#808080;stroke-width:0.5}\n", p, p, p, p, p, p, p, p, p, p, p, p, p);
	/* frames are clicked to zoom when the script is there. A rule of its
	 * own, not one on a class the script adds to the root (.js .fr): the
	 * cursor is inherited, so adding that class restyled every frame path
	 * (5 ms of CPU at 202k frames, after the picture was laid out) */
	if (!g->o->no_js)
		af_sink_printf(out, ".%s .fr{cursor:pointer}\n", p);
	af_sink_puts(out, "</style>\n");
}

static void bands(struct svg *g)
{
	const struct af_layout *l = g->l;
	struct af_sink *out = g->out;
	const struct af_render_opts *o = g->o;
	double fs = l->font_size, bottom = l->height - (fs + 5);
	af_sink_printf(out, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"url(#%s-bg)\"/>\n", g->id);
	put_num(out, "<text class=\"ti\" x=\"", l->width / 2);
	put_num(out, " y=\"", fs * 2);
	af_sink_putc(out, '>');
	af_escape_xml(out, o->title ? o->title : "Flame Graph");
	af_sink_puts(out, "</text>\n");
	if (o->subtitle && *o->subtitle) {
		put_num(out, "<text class=\"st\" x=\"", l->width / 2);
		put_num(out, " y=\"", fs * 4);
		af_sink_putc(out, '>');
		af_escape_xml(out, o->subtitle);
		af_sink_puts(out, "</text>\n");
	}
	put_num(out, "<text class=\"bt rz h\" x=\"", l->xpad);
	put_num(out, " y=\"", fs * 2);
	af_sink_puts(out, ">Reset Zoom</text>\n");
	put_num(out, "<text class=\"bt r sr\" x=\"", l->width - l->xpad);
	put_num(out, " y=\"", fs * 2);
	af_sink_puts(out, ">Search</text>\n");
	put_num(out, "<text class=\"dt\" x=\"", l->xpad);
	put_num(out, " y=\"", bottom);
	af_sink_puts(out, "> </text>\n");
	put_num(out, "<text class=\"r mt\" x=\"", l->width - l->xpad);
	put_num(out, " y=\"", bottom);
	af_sink_puts(out, "> </text>\n");
}

/* The legend (layout.h): plain elements, no script, in the header row the
 * layout keeps for it. The scale's gradient has the same stops in every
 * graph, so copies of it in one page may share its id. */
static void legend(struct svg *g)
{
	struct af_sink *out = g->out;
	struct af_legend_items it;
	af_legend_items_build(&it, g->l, g->o);
	if (it.n)
		af_sink_puts(out, "<g class=\"lg\">\n");
	for (size_t i = 0; i < it.n; i++) {
		const struct af_legend_item *e = &it.item[i];
		if (e->type == AF_LEGEND_BAR) {
			static const char *const at[4] = { "0%", "50%", "50%", "100%" };
			af_sink_printf(out, "<defs><linearGradient id=\"%s-lg\">", g->id);
			for (int k = 0; k < 4; k++) {
				af_sink_printf(out, "<stop offset=\"%s\" stop-color=\"", at[k]);
				put_colour(out, g->l->legend.stops[k]);
				af_sink_puts(out, "\"/>");
			}
			af_sink_puts(out, "</linearGradient></defs>\n");
		}
		if (e->type == AF_LEGEND_TEXT) {
			put_num(out, "<text x=\"", e->x);
			put_num(out, " y=\"", e->y);
			af_sink_putc(out, '>');
			af_escape_xml_n(out, it.text.data + e->text, e->len, SIZE_MAX);
			af_sink_puts(out, "</text>\n");
			continue;
		}
		put_num(out, "<rect x=\"", e->x);
		put_num(out, " y=\"", e->y);
		put_num(out, " width=\"", e->w);
		put_num(out, " height=\"", e->h);
		if (e->type == AF_LEGEND_BAR) {
			af_sink_printf(out, " fill=\"url(#%s-lg)\"/>\n", g->id);
		} else {
			af_sink_puts(out, " fill=\"");
			put_colour(out, e->colour);
			af_sink_puts(out, "\"/>\n");
		}
	}
	if (it.n)
		af_sink_puts(out, "</g>\n");
	af_legend_items_release(&it);
}

/* Frames are drawn as one <path> per colour, a rectangle subpath per frame:
 * a browser builds a DOM element in tens of microseconds, so 200k <rect>s
 * take seconds to load while a few thousand paths take milliseconds (and a
 * subpath is a third of a <rect>'s bytes). The script finds frames from the
 * pointer position and redraws the paths when zooming.
 *
 * Colour groups: group[i] is the path of frame i's colour, colour[k] the
 * colour of path k. Returns the number of groups; *per_frame says whether
 * two frames of one name differ in colour (a differential graph), else the
 * script gets one group per name. Caller frees both arrays with free(). */
static uint32_t colour_groups(const struct af_layout *l, uint32_t **group_out,
			      uint32_t **colour_out, bool *per_frame)
{
	size_t nf = l->nframes ? l->nframes : 1;
	size_t nslots = 16;
	while (nslots < 2 * nf)
		nslots *= 2;
	uint32_t *group = af_xmalloc(nf * sizeof *group);
	uint32_t *slot = af_xmalloc(nslots * sizeof *slot);      /* -> group */
	uint32_t *colour = af_xmalloc(nf * sizeof *colour);      /* group -> colour */
	size_t nnames = l->tree->nnames ? l->tree->nnames : 1;
	uint32_t *by_name = af_xmalloc(nnames * sizeof *by_name);
	uint32_t ngroups = 0;
	memset(slot, 0xff, nslots * sizeof *slot);
	memset(by_name, 0xff, nnames * sizeof *by_name);
	*per_frame = false;
	for (size_t i = 0; i < l->nframes; i++) {
		const struct af_frame *f = &l->frames[i];
		if (by_name[f->name] != AF_NONE && colour[by_name[f->name]] == f->colour) {
			group[i] = by_name[f->name];
			continue;
		}
		size_t h = (f->colour * 0x9e3779b1u) & (nslots - 1);
		while (slot[h] != AF_NONE && colour[slot[h]] != f->colour)
			h = (h + 1) & (nslots - 1);
		if (slot[h] == AF_NONE) {
			colour[ngroups] = f->colour;
			slot[h] = ngroups++;
		}
		group[i] = slot[h];
		if (by_name[f->name] != AF_NONE)
			*per_frame = true;
		else
			by_name[f->name] = slot[h];
	}
	free(slot);
	free(by_name);
	*group_out = group;
	*colour_out = colour;
	return ngroups;
}

/* The rectangles of the static picture (issue 19). At 200k frames most
 * frames are a fraction of a pixel wide, and parsing a subpath for each was
 * most of a browser's load time, for pixels that antialiasing blends
 * anyway. So a frame at least a pixel wide is a rectangle of its own, and
 * frames narrower than that, side by side on one row, are drawn as one
 * rectangle while together they span at most a pixel: from the first one's
 * left edge to the rightmost right edge, in the mean of their colours
 * weighted by width (what antialiasing shows for the pixel), each channel
 * rounded to a multiple of 17 so that few paths hold them all. No frame
 * moves and no row's extent changes by more than that pixel. A lone narrow
 * frame is drawn where it is, its colour rounded alike: otherwise a zoom
 * that leaves frames just under a pixel wide (a quarter of the 200k-frame
 * benchmark) draws each alone in its own colour, one <path> per name, and
 * making those thousands of paths doubled the zoom's time; no eye tells
 * 8/255 of a channel apart on a frame under a pixel wide.
 * merge() in draw.js applies the same rule after a
 * zoom, with the page's own arithmetic: so that both decide alike where
 * the rule meets a tie (frames of exactly half a pixel, a channel's mean
 * at .5), every comparison allows MERGE_EPS. */
#define MERGE_EPS 1e-6
struct box {
	double x, y, w;
	uint32_t group;        /* colour group, or ngroups + a blend's index */
	uint32_t row;          /* from the top */
};

/* a run being gathered on one row: the box it will fill, its extent and
 * its colour channels summed weighted by width */
struct run {
	size_t box;
	double x, end, sum[3], weight;
	uint32_t frames;
};

/* the blended colours, each a path after the colour groups' */
struct blends {
	uint32_t index[4096];  /* 4-bit channels -> blend + 1 (0: none yet) */
	uint32_t colour[4096];
	uint32_t n;
};

static void run_add(struct run *r, const struct af_frame *f)
{
	for (int c = 0; c < 3; c++)
		r->sum[c] += f->w * (f->colour >> (16 - 8 * c) & 255);
	r->weight += f->w;
	r->end = f->x + f->w > r->end ? f->x + f->w : r->end;
	r->frames++;
}

static void run_close(const struct svg *g, struct run *r, struct box *b, struct blends *bl)
{
	if (!r->frames)
		return;
	uint32_t q = 0;
	for (int c = 0; c < 3; c++) {
		uint32_t v = r->weight > 0 ? (uint32_t)(r->sum[c] / r->weight + 0.5 + MERGE_EPS) : 0;
		q = q << 4 | (v + 8) / 17;
	}
	if (!bl->index[q]) {
		bl->colour[bl->n] = (q >> 8) * 17 << 16 | (q >> 4 & 15) * 17 << 8 | (q & 15) * 17;
		bl->index[q] = ++bl->n;
	}
	b[r->box].x = r->x;
	b[r->box].w = r->end - r->x;
	b[r->box].group = g->ngroups + bl->index[q] - 1;
	r->frames = 0;
}

/* Fills *out (caller frees) with the boxes, in pre-order of their first
 * frames, bl with the blends and *rows with the rows; returns how many
 * boxes. */
static size_t boxes(const struct svg *g, struct box **out, struct blends *bl, size_t *rows)
{
	const struct af_layout *l = g->l;
	double top = l->frames[0].y, bottom = top, fh = l->frame_height;
	for (size_t i = 1; i < l->nframes; i++) {
		top = l->frames[i].y < top ? l->frames[i].y : top;
		bottom = l->frames[i].y > bottom ? l->frames[i].y : bottom;
	}
	size_t nrows = (size_t)((bottom - top) / fh + 0.5) + 1, nb = 0;
	struct run *runs = af_xcalloc(nrows, sizeof *runs);
	struct box *b = af_xmalloc(l->nframes * sizeof *b);
	for (size_t i = 0; i < l->nframes; i++) {
		const struct af_frame *f = &l->frames[i];
		uint32_t row = (uint32_t)((f->y - top) / fh + 0.5);
		struct run *r = &runs[row];
		bool narrow = f->w < 1 - MERGE_EPS;
		if (r->frames && (!narrow || f->x + f->w > r->x + 1 + MERGE_EPS))
			run_close(g, r, b, bl);
		if (!narrow) {
			b[nb++] = (struct box){ f->x, f->y, f->w, g->group[i], row };
			continue;
		}
		if (!r->frames) {
			*r = (struct run){ .box = nb, .x = f->x, .end = f->x };
			b[nb++] = (struct box){ .y = f->y, .row = row };
		}
		run_add(r, f);
	}
	for (size_t k = 0; k < nrows; k++)
		run_close(g, &runs[k], b, bl);
	free(runs);
	*out = b;
	*rows = nrows;
	return nb;
}

/* v in units of 1/scale, rounded as af_sink_fixed() rounds v >= 0 */
static int64_t scaled(double v, double scale)
{
	return (int64_t)floor(v * scale + 0.5);
}

/* The <path> of one colour: its boxes as filled rectangles, in one contour
 * a row that runs along the row's top edge from box to box (M x y, then
 * each box v h h w v -h, then h gap to the next; a new row m dx dy):
 * horizontal edges add nothing to a fill, so that is the boxes and nothing
 * else. Filled, not stroked: Chromium strokes a path again for each
 * 256-pixel tile it crosses, and rasterising the 202k-frame graph's
 * stroked lines took 240-320 ms of CPU, the fills 80-100 (issue 34).
 * Coordinates are relative to the last point, in the tenths (x, w) and
 * hundredths (y) the absolute values are rounded to, so no error adds up,
 * and "M305 757v15h73.8v-15" then "h2.1v15h1v-15" costs fewer bytes than
 * the stroked lines did. */
static void colour_path(struct af_sink *out, uint32_t rgb, const struct box *b,
			const size_t *order, size_t from, size_t to, double h)
{
	int64_t cx = 0, cy = 0;
	af_sink_write(out, "<path fill=\"", 12);
	put_colour(out, rgb);
	af_sink_write(out, "\" d=\"", 5);
	for (size_t j = from; j < to; j++) {
		const struct box *p = &b[order[j]];
		int64_t x = scaled(p->x, 10), y = scaled(p->y, 100), w = scaled(p->w, 10);
		if (j > from && (j - from) % 8 == 0)
			af_sink_putc(out, '\n');
		if (j == from || y != cy) {
			af_sink_putc(out, j == from ? 'M' : 'm');
			af_sink_fixed(out, (double)(j == from ? x : x - cx) / 10, 1);
			af_sink_putc(out, ' ');
			af_sink_fixed(out, (double)(j == from ? y : y - cy) / 100, 2);
		} else if (x != cx) {
			af_sink_putc(out, 'h');
			af_sink_fixed(out, (double)(x - cx) / 10, 1);
		}
		af_sink_putc(out, 'v');
		af_sink_fixed(out, h, 2);
		af_sink_putc(out, 'h');
		af_sink_fixed(out, (double)w / 10, 1);
		af_sink_write(out, "v-", 2);
		af_sink_fixed(out, h, 2);
		cx = x + w;
		cy = y;
	}
	af_sink_write(out, "\"/>\n", 4);
}

/* order[] the boxes by colour (groups, then blends; first[k] is where
 * colour k's start), each colour's by row, each row's left to right (as
 * pre-order has them): two stable counting sorts */
static size_t *box_order(const struct box *b, size_t nb, size_t nrows, size_t ng, size_t *first)
{
	size_t *byrow = af_xmalloc((nb ? nb : 1) * sizeof *byrow);
	size_t *order = af_xmalloc((nb ? nb : 1) * sizeof *order);
	size_t *at = af_xcalloc(nrows + 1, sizeof *at);
	for (size_t i = 0; i < nb; i++)
		at[b[i].row + 1]++;
	for (size_t r = 0; r < nrows; r++)
		at[r + 1] += at[r];
	for (size_t i = 0; i < nb; i++)
		byrow[at[b[i].row]++] = i;
	for (size_t i = 0; i < nb; i++)
		first[b[i].group + 1]++;
	for (size_t k = 0; k < ng; k++)
		first[k + 1] += first[k];
	at = af_xrealloc(at, (ng + 1) * sizeof *at);
	memcpy(at, first, (ng + 1) * sizeof *at);
	for (size_t j = 0; j < nb; j++)
		order[at[b[byrow[j]].group]++] = byrow[j];
	free(at);
	free(byrow);
	return order;
}

/* The blended boxes (first[ng0] to first[ng] of order) as one image
 * (blend.h); as paths, one a blend, when the image would be too large.
 * Returns 0, or -1 with an error on d. */
static int blend_boxes(struct svg *g, const struct box *b, const size_t *order,
		       const size_t *first, const struct blends *bl, struct af_diag *d)
{
	size_t ng0 = g->ngroups, n = first[ng0 + bl->n] - first[ng0];
	double h = g->l->frame_height - 1;
	struct af_blend_box *bb = af_xmalloc((n ? n : 1) * sizeof *bb);
	for (size_t j = 0; j < n; j++) {
		const struct box *p = &b[order[first[ng0] + j]];
		bb[j] = (struct af_blend_box){ p->x, p->y, p->w, bl->colour[p->group - ng0] };
	}
	int rc = af_blend_write(g->out, bb, n, h, d);
	free(bb);
	for (size_t k = 0; rc == 0 && k < bl->n; k++)
		colour_path(g->out, bl->colour[k], b, order, first[ng0 + k], first[ng0 + k + 1], h);
	return rc < 0 ? -1 : 0;
}

/* One <path> per colour group that has boxes, then (when runs were merged)
 * the blends in <g class="fm">, one image. A group whose every frame went
 * into blends has no path: at 200k frames nearly every name's frames do,
 * and thousands of empty <path> elements were most of a browser's load
 * time (the script finds paths by their colour, and D.gc gives each
 * group's). */
static int frames(struct svg *g, struct af_diag *d)
{
	const struct af_layout *l = g->l;
	struct af_sink *out = g->out;
	struct blends *bl = af_xcalloc(1, sizeof *bl);
	struct box *b;
	size_t nrows, nb = boxes(g, &b, bl, &nrows), ng = (size_t)g->ngroups + bl->n;
	size_t *first = af_xcalloc(ng + 1, sizeof *first);
	size_t *order = box_order(b, nb, nrows, ng, first);
	int rc = 0;
	af_sink_puts(out, "<g class=\"fr\">\n");
	for (size_t k = 0; k < g->ngroups; k++)
		if (first[k] != first[k + 1])
			colour_path(out, g->colour[k], b, order, first[k], first[k + 1], l->frame_height - 1);
	if (bl->n) {
		af_sink_puts(out, "<g class=\"fm\">\n");
		rc = blend_boxes(g, b, order, first, bl, d);
	}
	af_sink_puts(out, bl->n ? "</g>\n</g>\n" : "</g>\n");
	free(order);
	free(first);
	free(b);
	free(bl);
	return rc;
}

/* --nameattr: over each drawn frame whose name has attributes, a
 * transparent rectangle in an element carrying them: <a> when there is a
 * link (target _top unless given, as flamegraph.pl does), else <g>; a
 * "title" attribute becomes its <title>. Values are escaped for XML; the
 * file was checked for script when read (nameattr.c). The script moves the
 * rectangles on zoom (D.na lists their frames). */
static void attr_element(struct svg *g, const struct af_frame *f,
			 const struct af_nameattr_entry *e)
{
	struct af_sink *out = g->out;
	const char *href = af_nameattr_get(e, "href"), *title = NULL;
	af_sink_puts(out, href ? "<a" : "<g");
	if (href && !af_nameattr_get(e, "target"))
		af_sink_puts(out, " target=\"_top\"");
	for (size_t i = 0; i < e->nattrs; i++) {
		if (strcmp(e->attrs[i].key, "title") == 0) {
			title = e->attrs[i].value;
			continue;
		}
		af_sink_printf(out, " %s=\"", e->attrs[i].key);
		af_escape_xml(out, e->attrs[i].value);
		af_sink_putc(out, '"');
	}
	af_sink_putc(out, '>');
	if (title) {
		af_sink_puts(out, "<title>");
		af_escape_xml(out, title);
		af_sink_puts(out, "</title>");
	}
	put_num(out, "<rect x=\"", f->x);
	put_num(out, " y=\"", f->y);
	put_num(out, " width=\"", f->w);
	put_num(out, " height=\"", g->l->frame_height - 1);
	af_sink_puts(out, " fill-opacity=\"0\"/>");
	af_sink_puts(out, href ? "</a>\n" : "</g>\n");
}

static void name_attributes(struct svg *g)
{
	const struct af_layout *l = g->l;
	if (!g->o->nameattr)
		return;
	size_t cap = 0;
	af_sink_puts(g->out, "<g class=\"na\">\n");
	for (size_t i = 1; i < l->nframes; i++) {   /* not the root */
		const struct af_frame *f = &l->frames[i];
		const struct af_nameattr_entry *e = af_nameattr_find(g->o->nameattr,
			af_tree_name(l->tree, f->name), af_tree_name_len(l->tree, f->name));
		if (e) {
			attr_element(g, f, e);
			af_grow(&g->na, &cap, g->nna + 1, sizeof *g->na);
			g->na[g->nna++] = (uint32_t)i;
		}
	}
	af_sink_puts(g->out, "</g>\n");
}

/* Labels of the frames wide enough for three characters, cut to what fits
 * by core/label.h (the script's label.js after a zoom), in black or white
 * as the frame's colour needs. */
static void labels(struct svg *g)
{
	const struct af_layout *l = g->l;
	struct af_sink *out = g->out;
	double dy = (l->frame_height - 1) / 2 + l->font_size / 4;
	struct af_labeler lb;
	af_labeler_init(&lb, g->o->right_cut ? AF_LABEL_RIGHT : AF_LABEL_SMART);
	af_sink_puts(out, "<g class=\"lb\">\n");
	for (size_t i = 0; i < l->nframes; i++) {
		const struct af_frame *f = &l->frames[i];
		double fit = floor((f->w - 6) / g->char_px);
		if (!(fit >= 3)) {
			i = f->end - 1;       /* descendants are no wider */
			continue;
		}
		const char *name = af_tree_name(l->tree, f->name);
		size_t len = shown_len(name, af_tree_name_len(l->tree, f->name));
		if (!af_label(&lb, name, len, fit > 1e9 ? (size_t)1e9 : (size_t)fit))
			continue;
		put_num(out, "<text x=\"", f->x + 3);
		put_num(out, " y=\"", f->y + dy);
		if (af_label_ink(f->colour) != 0)
			af_sink_puts(out, " class=\"lw\"");
		af_sink_putc(out, '>');
		af_escape_xml_n(out, lb.text.data, lb.text.len, SIZE_MAX);
		af_sink_write(out, "</text>\n", 8);
	}
	af_sink_puts(out, "</g>\n");
	af_labeler_release(&lb);
}

/* Flame charts: the time axis under the frames, a tick and a label per
 * layout tick (the script hides it while zoomed: its times are the whole
 * chart's). */
static void axis(struct svg *g)
{
	const struct af_layout *l = g->l;
	struct af_sink *out = g->out;
	if (!l->nticks)
		return;
	af_sink_puts(out, "<g class=\"ax\">\n<path fill=\"none\" stroke=\"#808080\" d=\"");
	af_sink_putc(out, 'M');
	af_sink_fixed(out, l->xpad, 1);
	af_sink_putc(out, ' ');
	af_sink_fixed(out, l->axis_y, 1);
	af_sink_putc(out, 'h');
	af_sink_fixed(out, l->width - 2 * l->xpad, 1);
	for (size_t i = 0; i < l->nticks; i++) {
		af_sink_putc(out, 'M');
		af_sink_fixed(out, l->ticks[i].x, 1);
		af_sink_putc(out, ' ');
		af_sink_fixed(out, l->axis_y, 1);
		af_sink_puts(out, "v4");
	}
	af_sink_puts(out, "\"/>\n");
	for (size_t i = 0; i < l->nticks; i++) {
		static const char *const anchor[] = { "start", "middle", "end" };
		af_sink_printf(out, "<text text-anchor=\"%s\"", anchor[l->ticks[i].anchor + 1]);
		put_num(out, " fill=\"#505050\" x=\"", l->ticks[i].x);
		put_num(out, " y=\"", l->axis_y + 4 + l->font_size);
		af_sink_putc(out, '>');
		af_escape_xml(out, l->ticks[i].label);
		af_sink_puts(out, "</text>\n");
	}
	af_sink_puts(out, "</g>\n");
}

/* ---- the script and its data ---- */

static void data_key(struct af_sink *out, const char *key, double v, int decimals)
{
	af_sink_puts(out, key);
	af_sink_fixed(out, v, decimals);
}

/* The geometry the script needs: image width, side margin, font size,
 * estimated character advance, frame height; y of depth d is y0 + d * dy. */
static void data_scalars(struct svg *g)
{
	const struct af_layout *l = g->l;
	struct af_sink *out = g->out;
	af_sink_printf(out, "var D={id:\"%s\"", g->id);
	data_key(out, ",w:", l->width, 3);
	data_key(out, ",xp:", l->xpad, 3);
	data_key(out, ",fs:", l->font_size, 3);
	data_key(out, ",cw:", g->char_px, 6);
	data_key(out, ",fh:", l->frame_height, 3);
	if (g->o->right_cut)
		af_sink_puts(out, ",lr:1");
	data_key(out, ",y0:", l->frames[0].y, 3);
	data_key(out, ",dy:", l->inverted ? l->frame_height : -l->frame_height, 3);
	const char *unit = g->o->count_name ? g->o->count_name : "samples";
	af_sink_puts(out, ",u:");
	af_escape_json(out, unit, strlen(unit));
	/* counts shown: weight / 10^dc, times k (--factor) */
	if (g->o->decimals)
		af_sink_printf(out, ",dc:%u", g->o->decimals);
	if (g->o->factor > 0 && g->o->factor != 1)
		af_sink_printf(out, ",k:%.17g", g->o->factor);
	if (g->o->name_type && *g->o->name_type) {
		af_sink_puts(out, ",nt:");
		af_escape_json(out, g->o->name_type, strlen(g->o->name_type));
	}
	/* flame charts: the time axis's unit and its value at the left edge */
	if (l->axis_unit) {
		af_sink_puts(out, ",au:");
		af_escape_json(out, l->axis_unit, strlen(l->axis_unit));
		af_sink_printf(out, ",ao:%" PRIu64, l->axis_origin);
	}
	/* flame-chart bands: first frame, one past the last, and the row a
	 * frame of depth 1 would be on (the page draws a frame of depth d on
	 * that row + d - 1, frames.js banded()): the band's first row less
	 * its first frame's depth beyond 1, so a process's thread, at depth
	 * 2, starts on its band's first row (0 or less when it is the lowest) */
	af_sink_puts(out, ",b:[");
	for (size_t k = 0; k < l->nbands; k++) {
		long long top = l->frames[l->band_start[k]].depth;
		af_sink_printf(out, "%s%u,%u,%lld", k ? "," : "", (unsigned)l->band_start[k],
			       (unsigned)l->band_end[k], (long long)l->band_row[k] + 1 - top);
	}
	af_sink_putc(out, ']');
}

/* Comparisons of two runs (--diff): D.bf and D.af each frame's inclusive
 * weight in the first and second run, D.dk the frames' kinds as a string of
 * digits (enum af_frame_kind), D.dt 1 when D.d is the change of inclusive
 * weight, D.ng 1 when it is negated (--negate). */
static void data_compare(struct svg *g)
{
	const struct af_layout *l = g->l;
	struct af_sink *out = g->out;
	af_sink_printf(out, ",dt:%d,ng:%d", l->diff_total, l->negate);
	af_list_begin(out, "bf");
	for (size_t i = 0; i < l->nframes; i++)
		af_list_u64(out, i, l->frames[i].before);
	af_sink_putc(out, '"');
	af_list_begin(out, "af");
	for (size_t i = 0; i < l->nframes; i++)
		af_list_u64(out, i, l->frames[i].after);
	af_sink_putc(out, '"');
	af_sink_puts(out, ",\ndk:\"");
	for (size_t i = 0; i < l->nframes; i++)
		af_sink_putc(out, (char)('0' + l->frames[i].kind));
	af_sink_putc(out, '"');
}

/* D.gc: each colour group's colour (0xRRGGBB); D.g: each frame's colour
 * group, when colours are not per name; D.d:
 * differential graphs, each frame's change of its own weight. */
static void data_per_frame(struct svg *g)
{
	const struct af_layout *l = g->l;
	struct af_sink *out = g->out;
	af_list_begin(out, "gc");
	for (uint32_t k = 0; k < g->ngroups; k++)
		af_list_u64(out, k, g->colour[k]);
	af_sink_putc(out, '"');
	if (g->per_frame) {
		af_list_begin(out, "g");
		for (size_t i = 0; i < l->nframes; i++)
			af_list_u64(out, i, g->group[i]);
		af_sink_putc(out, '"');
	}
	if (l->compare)
		data_compare(g);
	if (g->o->nameattr) {
		af_list_begin(out, "na");
		for (size_t i = 0; i < g->nna; i++)
			af_list_u64(out, i, g->na[i]);
		af_sink_putc(out, '"');
	}
	if (af_tree_has_calls(l->tree)) {   /* calls into each frame's node */
		af_list_begin(out, "cl");
		for (size_t i = 0; i < l->nframes; i++)
			af_list_u64(out, i, af_tree_calls(l->tree, l->frames[i].node));
		af_sink_putc(out, '"');
	}
	if (l->differential) {
		af_list_begin(out, "d");
		for (size_t i = 0; i < l->nframes; i++) {
			int64_t d = l->frames[i].delta;
			af_list_diff(out, i, d < 0 ? 0 : (uint64_t)d,
				  d < 0 ? (uint64_t)-(d + 1) + 1 : 0);
		}
		af_sink_putc(out, '"');
	}
}

/* D, then the page; D.z is the names and frames (svg_bulk.h). With out
 * NULL (the file failed before), only waits for them. */
static int script(struct svg *g, struct af_sink *out, struct af_diag *d)
{
	if (!out) {
		af_svg_bulk_cancel(&g->bulk);
		return 0;
	}
	af_sink_puts(out, "<script type=\"text/ecmascript\"><![CDATA[\n(function(){\"use strict\";\n");
	data_scalars(g);
	data_per_frame(g);
	int rc = af_svg_bulk_end(&g->bulk, out, d);
	af_sink_puts(out, "};\n");
	af_sink_write(out, af_svg_script, sizeof af_svg_script - 1);
	af_sink_puts(out, "})();\n]]></script>\n");
	return rc;
}

int af_render_svg(const struct af_layout *l, const struct af_render_opts *o,
		  struct af_sink *out, struct af_diag *d)
{
	struct svg g = { .l = l, .o = o, .out = out };
	if (!l->nframes)
		return af_diag_error(d, "nothing to draw");
	double fw = o->font_width > 0 ? o->font_width : 0.59;
	g.char_px = l->font_size * fw;
	if (!(g.char_px > 0))
		return af_diag_error(d, "font size must be positive");
	make_id(&g);
	g.ngroups = colour_groups(l, &g.group, &g.colour, &g.per_frame);
	if (!o->no_js)
		af_svg_bulk_begin(&g.bulk, l, g.group, g.per_frame);
	header(&g);
	style(&g);
	bands(&g);
	legend(&g);
	int rc = frames(&g, d);
	labels(&g);
	name_attributes(&g);
	axis(&g);
	if (!o->no_js) {
		int script_rc = script(&g, rc == 0 ? out : NULL, d);
		rc = rc == 0 ? script_rc : rc;
	}
	af_sink_puts(out, "</svg>\n");
	free(g.na);
	free(g.group);
	free(g.colour);
	return rc;
}

const struct af_backend af_backend_svg = {
	.format = AF_OUT_SVG, .name = "svg",
	.exts = (const char *const[]){ "svg", NULL }, .label = "SVG",
	.image = true, .live = true, .diff = true, .draw = af_render_svg,
};
