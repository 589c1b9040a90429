/* layout.c: call tree to frame rectangles.
 *
 * Geometry follows flamegraph.pl's defaults so graphs look familiar and can
 * be compared frame by frame: a node's own weight comes first (left), its
 * children follow in the order of sorted folded lines (cmp_sibling); frames
 * narrower than min_width are left out with everything above them; 1 px gap
 * between levels. */
#include "layout.h"
#include "escape.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void af_layout_opts_default(struct af_layout_opts *o)
{
	memset(o, 0, sizeof *o);
	o->width = 1200;
	o->frame_height = 16;
	o->min_width = 0.1;
	o->font_size = 12;
	o->palette.palette = AF_PAL_HOT;
}

/* Inclusive totals that leave excluded subtrees out. */
static uint64_t *included_totals(const struct af_tree *t, const uint8_t *excluded)
{
	uint64_t *tot = af_tree_totals(t);
	if (!excluded)
		return tot;
	/* Exclusion only marks whole subtrees near the root (threads and
	 * processes): subtract each excluded node's total from its ancestors,
	 * outermost exclusion only. */
	for (size_t i = 0; i < t->nnodes; i++) {
		if (!excluded[i])
			continue;
		bool under_excluded = false;
		for (uint32_t p = t->nodes[i].parent; p != AF_NONE; p = t->nodes[p].parent)
			if (excluded[p])
				under_excluded = true;
		if (under_excluded)
			continue;
		for (uint32_t p = t->nodes[i].parent; p != AF_NONE; p = t->nodes[p].parent)
			tot[p] -= tot[i];
	}
	return tot;
}

/* Frames reserved before the walk, at most (more grow as needed). */
enum { FRAMES_RESERVED = 1 << 20 };

struct pending {
	uint32_t node, depth;
	uint64_t start, width;  /* on the time axis (charts) or by weight */
	uint32_t rank;          /* of the name in byte order */
	uint32_t len;           /* of the name */
	const char *name;
	unsigned char term;     /* what follows the name in its first folded line */
	bool last;              /* the removed band: after every sibling */
};

/* Siblings in the order of their sorted folded lines ("a;b 5" before
 * "a;b$1;c 2" before "a;b;c 1"): by name, where a frame with its own weight
 * counts as its name followed by ' ', one without by ';'. Names that are no
 * prefix of each other compare by rank. */
static int cmp_sibling(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;
	if (x->last != y->last)
		return x->last ? 1 : -1;
	size_t n = x->len < y->len ? x->len : y->len;
	if (x->len != y->len && memcmp(x->name, y->name, n) == 0) {
		unsigned cx = x->len > n ? (unsigned char)x->name[n] : x->term;
		unsigned cy = y->len > n ? (unsigned char)y->name[n] : y->term;
		if (cx != cy)
			return (cx > cy) - (cx < cy);
	}
	return (x->rank > y->rank) - (x->rank < y->rank);
}

struct walk {
	struct af_tree *tree;
	const uint8_t *excluded;
	const uint64_t *tot;
	const uint32_t *rank;
	bool chart;
	const uint64_t *pos, *len;  /* charts with times: chart_extents() */
	uint64_t origin;          /* the time at the left edge (pos[root]) */
	const uint8_t *kinds;     /* comparisons: node kinds, nkinds of them */
	size_t nkinds;
	uint64_t threshold;       /* narrowest weight still drawn */
	struct pending *stack;
	size_t depth, cap;
	uint64_t *gap;            /* place_wide(): narrow widths before each wide one */
	size_t cap_gap;
};

static void reverse(struct pending *p, size_t n)
{
	for (size_t i = 0, j = n; i + 1 < j; i++, j--) {
		struct pending tmp = p[i];
		p[i] = p[j - 1];
		p[j - 1] = tmp;
	}
}

/* Push the children of e that are to be drawn (not excluded, weight not 0),
 * their names not yet looked up; returns how many are drawn wide enough. */
static size_t gather(struct walk *w, const struct pending *e)
{
	const struct af_tree *t = w->tree;
	size_t wide = 0;
	for (uint32_t c = t->nodes[e->node].first_child; c != AF_NONE; c = t->nodes[c].next_sibling) {
		if ((w->excluded && w->excluded[c]) || w->tot[c] == 0)
			continue;
		af_grow(&w->stack, &w->cap, w->depth + 1, sizeof *w->stack);
		uint64_t width = w->len ? w->len[c] : w->tot[c];
		wide += width >= w->threshold;
		w->stack[w->depth++] = (struct pending){ .node = c, .depth = e->depth + 1, .width = width };
	}
	return wide;
}

/* What cmp_sibling compares, for p[0..n) */
static void name_them(const struct walk *w, struct pending *p, size_t n)
{
	const struct af_tree *t = w->tree;
	for (size_t i = 0; i < n; i++) {
		uint32_t c = p[i].node, name = t->nodes[c].name;
		p[i].rank = w->rank[name];
		p[i].len = t->names[name].len;
		p[i].name = t->names[name].str;
		p[i].term = t->nodes[c].self ? ' ' : ';';
		p[i].last = c < w->nkinds && w->kinds[c] == AF_FRAME_BAND;
	}
}

/* p[0..n), in drawing order, placed after e's own weight: each where the
 * ones before it end, or at its own start when it has one; those wide
 * enough are kept, at the top of the stack (in reverse, to pop in order). */
static void place_all(struct walk *w, const struct pending *e, size_t base, size_t n)
{
	const struct af_tree *t = w->tree;
	uint64_t next = e->start + t->nodes[e->node].self;
	size_t kept = base;
	for (size_t i = base; i < base + n; i++) {
		struct pending p = w->stack[i];
		uint64_t at = w->pos ? w->pos[p.node] : af_tree_start(t, p.node);
		p.start = at != AF_NO_START ? at - w->origin : next;
		next = p.start + p.width;
		if (p.width >= w->threshold)
			w->stack[kept++] = p;
	}
	w->depth = kept;
	reverse(w->stack + base, kept - base);
}

/* The same when only `wide` of the n are kept and none has a start of its
 * own: only those are sorted; each narrow one adds its width to the gap
 * before the first wide one that sorts after it (found by bisection). Most
 * of a big profile's drawn frames have many children too narrow to draw
 * and few or none wide enough: sorting them all was most of the layout. */
static void place_wide(struct walk *w, const struct pending *e, size_t base, size_t n, size_t wide)
{
	struct pending *p = w->stack + base;
	for (size_t i = 0, k = 0; i < n; i++)   /* the wide ones first */
		if (p[i].width >= w->threshold) {
			struct pending tmp = p[k];
			p[k++] = p[i];
			p[i] = tmp;
		}
	qsort(p, wide, sizeof *p, cmp_sibling);
	af_grow(&w->gap, &w->cap_gap, wide + 1, sizeof *w->gap);
	memset(w->gap, 0, (wide + 1) * sizeof *w->gap);
	for (size_t i = wide; i < n; i++) {
		size_t lo = 0, hi = wide;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (cmp_sibling(&p[mid], &p[i]) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		w->gap[lo] += p[i].width;
	}
	uint64_t next = e->start + w->tree->nodes[e->node].self;
	for (size_t i = 0; i < wide; i++) {
		p[i].start = next + w->gap[i];
		next = p[i].start + p[i].width;
	}
	w->depth = base + wide;
	reverse(p, wide);
}

/* Push the drawable children of e so that they pop in drawing order: by name,
 * or for charts in the order they were added (the list is newest first). */
static void push_children(struct walk *w, const struct pending *e)
{
	size_t base = w->depth;
	size_t wide = gather(w, e);
	size_t n = w->depth - base;
	bool timed = w->pos || w->tree->starts;
	if (w->chart) {
		reverse(w->stack + base, n);
		place_all(w, e, base, n);
	} else if (wide == 0 && !timed) {
		w->depth = base;   /* none drawn: no names to look up */
	} else {
		name_them(w, w->stack + base, n);
		if (wide == n || timed) {
			qsort(w->stack + base, n, sizeof *w->stack, cmp_sibling);
			place_all(w, e, base, n);
		} else {
			place_wide(w, e, base, n, wide);
		}
	}
}

static void emit(struct af_layout *l, size_t *cap, const struct pending *e, uint32_t name)
{
	uint64_t width = e->width;
	af_grow(&l->frames, cap, l->nframes + 1, sizeof *l->frames);
	l->frames[l->nframes++] = (struct af_frame){
		.start = e->start, .width = width, .name = name, .node = e->node,
		.depth = e->depth, .end = 0,
	};
	if (e->depth > l->max_depth)
		l->max_depth = e->depth;
}

/* end = one past the last descendant: close every frame at least as deep
 * as the next one. */
static void set_ends(struct af_layout *l)
{
	uint32_t *open = af_xmalloc((l->max_depth + 1) * sizeof *open);
	size_t n = 0;
	for (size_t i = 0; i < l->nframes; i++) {
		while (n && l->frames[open[n - 1]].depth >= l->frames[i].depth)
			l->frames[open[--n]].end = (uint32_t)i;
		open[n++] = (uint32_t)i;
	}
	while (n)
		l->frames[open[--n]].end = (uint32_t)l->nframes;
	free(open);
}

/* ---- differential graphs ---- */

/* What the colours of a differential graph are computed from. */
struct change {
	const struct af_tree *t;
	const uint64_t *tot;      /* inclusive weight (after), drawn nodes */
	uint64_t *btot;           /* inclusive before weight */
	const uint8_t *kinds;     /* comparisons; NULL otherwise */
	size_t nkinds;
	uint32_t root, band;      /* band: AF_NONE if none */
	bool total;               /* change of inclusive weight */
};

static int64_t clamp_diff(uint64_t a, uint64_t b)
{
	uint64_t m = a > b ? a - b : b - a;
	int64_t d = m > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)m;
	return a >= b ? d : -d;
}

static enum af_frame_kind kind_of(const struct change *c, uint32_t n)
{
	return c->kinds && n < c->nkinds ? (enum af_frame_kind)c->kinds[n] : AF_FRAME_PLAIN;
}

/* Inclusive after weight; the root's leaves out the removed band. */
static uint64_t after_total(const struct change *c, uint32_t n)
{
	return c->tot[n] - (n == c->root && c->band != AF_NONE ? c->tot[c->band] : 0);
}

/* after - before of a node's own weight (or inclusive weight), clamped. A
 * removed frame's weight is its before weight, so its change is minus it. */
static int64_t node_delta(const struct change *c, uint32_t n)
{
	switch (kind_of(c, n)) {
	case AF_FRAME_REMOVED:
		return clamp_diff(0, c->total ? c->tot[n] : c->t->nodes[n].self);
	case AF_FRAME_CONTEXT:
	case AF_FRAME_BAND:
		return 0;
	case AF_FRAME_PLAIN:
	default:
		if (c->total)
			return clamp_diff(after_total(c, n), c->btot[n]);
		return clamp_diff(c->t->nodes[n].self, af_tree_before(c->t, n));
	}
}

/* Inclusive before weights. */
static uint64_t *before_totals(const struct af_tree *t)
{
	uint64_t *tot = af_xmalloc(t->nnodes * sizeof *tot);
	for (size_t i = 0; i < t->nnodes; i++)
		tot[i] = af_tree_before(t, (uint32_t)i);
	af_tree_sum_up(t, tot);
	return tot;
}

/* The largest |change| of any node below the root that is not excluded,
 * drawn or too narrow to draw (flamegraph.pl scales to every input line),
 * at least 1. */
static uint64_t max_delta(const struct change *c, const uint8_t *excluded)
{
	const struct af_tree *t = c->t;
	uint64_t max = 1;
	uint32_t *stack = NULL;
	size_t n = 0, cap = 0;
	af_grow(&stack, &cap, 1, sizeof *stack);
	stack[n++] = c->root;
	while (n) {
		uint32_t v = stack[--n];
		if (v != c->root) {
			int64_t d = node_delta(c, v);
			uint64_t m = d < 0 ? (uint64_t)-(d + 1) + 1 : (uint64_t)d;
			if (m > max)
				max = m;
		}
		for (uint32_t k = t->nodes[v].first_child; k != AF_NONE; k = t->nodes[k].next_sibling) {
			if (excluded && excluded[k])
				continue;
			af_grow(&stack, &cap, n + 1, sizeof *stack);
			stack[n++] = k;
		}
	}
	free(stack);
	return max;
}

/* Grey shades of the removed band: its base and its context frames. */
#define BAND_COLOUR 0xa8a8a8u
#define CONTEXT_COLOUR 0xdcdcdcu

static void colour_change(struct af_layout *l, struct af_frame *f, const struct change *c,
			  const struct af_layout_opts *o)
{
	/* --negate: the graph of the other direction, signs too */
	f->delta = node_delta(c, f->node) * (o->negate ? -1 : 1);
	f->kind = (uint8_t)kind_of(c, f->node);
	if (l->compare) {
		f->before = f->kind == AF_FRAME_PLAIN ? c->btot[f->node] : f->width;
		f->after = f->kind == AF_FRAME_PLAIN ? after_total(c, f->node) : 0;
	}
	f->colour = f->kind == AF_FRAME_BAND ? BAND_COLOUR
		  : f->kind == AF_FRAME_CONTEXT ? CONTEXT_COLOUR
		  : af_palette_change(f->delta, l->max_delta, false);
}

/* ---- the legend ---- */

static const char *scale_caption(const struct af_layout_opts *o)
{
	if (o->normalized)
		return o->diff_total ? "change of total weight, first run normalized"
		     : "change of self weight, first run normalized";
	return o->diff_total ? "change of total weight" : "change of self weight";
}

/* Colour every frame: by its change in a differential graph, else from the
 * palette, noting in *seen (bit k: kind k) the palette's kinds that drawn
 * frames have when the legend lists them. */
static void colour_frames(struct af_layout *l, const struct af_layout_opts *o,
			  const struct change *c, unsigned *seen)
{
	const struct af_palette_kind *kinds;
	/* --cp: colours pinned by palette.map need not follow the kinds */
	bool want = !o->no_legend && !o->palette.map && af_palette_kinds(o->palette.palette, &kinds);
	/* a name's colour and kind are the palette's for its bytes: worked out
	 * once a name (a pprof profile's 58k frames have 24k names; each was
	 * hashed and matched against the kinds' patterns again). palette.map
	 * is read and written as names come: not kept here. */
	struct memo { uint32_t colour; int kind; } *memo = NULL;
	if (!l->differential && !o->palette.map)
		memo = af_xcalloc(l->tree->nnames ? l->tree->nnames : 1, sizeof *memo);
	*seen = 0;
	for (size_t i = 0; i < l->nframes; i++) {
		struct af_frame *f = &l->frames[i];
		int k = -1;
		if (l->differential) {
			colour_change(l, f, c, o);
		} else if (memo && memo[f->name].kind) {   /* kind + 2: 0 is none yet */
			f->colour = memo[f->name].colour;
			k = memo[f->name].kind - 2;
		} else {
			f->colour = af_palette_colour_kind(&o->palette, af_tree_name(l->tree, f->name),
							   af_tree_name_len(l->tree, f->name),
							   want ? &k : NULL);
			if (memo)
				memo[f->name] = (struct memo){ f->colour, k + 2 };
		}
		if (k >= 0 && i > 0)    /* not "all" */
			*seen |= 1u << k;
	}
	free(memo);
}

/* The palette's kinds in seen, in the palette's order. */
static void legend_kinds(struct af_layout *l, const struct af_layout_opts *o, unsigned seen)
{
	const struct af_palette_kind *kinds;
	size_t n = af_palette_kinds(o->palette.palette, &kinds);
	struct af_legend *g = &l->legend;
	for (size_t k = 0; k < n; k++) {
		if (!(seen & 1u << k))
			continue;
		struct af_legend_entry *e = &g->entries[g->nentries++];
		e->colour = af_palette_swatch(kinds[k].hue);
		e->label = kinds[k].label;
		/* the android palette's "app" names whose code it is */
		if (o->palette.palette == AF_PAL_ANDROID && kinds[k].hue == AF_PAL_GREEN &&
		    o->palette.app_package && *o->palette.app_package)
			e->detail = o->palette.app_package;
	}
	if (g->nentries)
		g->kind = AF_LEGEND_KINDS;
}

/* What the legend shows, before place() makes room for it. */
static void make_legend(struct af_layout *l, const struct af_layout_opts *o, unsigned seen)
{
	struct af_legend *g = &l->legend;
	if (o->no_legend)
		return;
	if (l->differential) {
		g->kind = AF_LEGEND_SCALE;
		af_palette_change_scale(g->stops);
		g->caption = scale_caption(o);
		/* deltas as shown: --negate swaps their sign and the hues */
		g->low = o->negate ? "grew" : "shrank";
		g->high = o->negate ? "shrank" : "grew";
	} else {
		legend_kinds(l, o, seen);
	}
}

static void place(struct af_layout *l, const struct af_layout_opts *o)
{
	double fh = o->frame_height;
	double ypad1 = o->font_size * 3 + (o->has_subtitle ? o->font_size * 2 : 0);
	if (l->legend.kind != AF_LEGEND_NONE) {
		l->legend.y = ypad1;
		l->legend.height = o->font_size * 2;
		ypad1 += l->legend.height;
	}
	double ypad2 = o->font_size * 2 + 10;
	l->xpad = 10;
	l->width = o->width;
	l->height = ypad1 + ypad2 + (l->max_depth + 1) * fh;
	l->graph_top = ypad1;
	double scale = l->total ? (o->width - 2 * l->xpad) / (double)l->total : 0;
	for (size_t i = 0; i < l->nframes; i++) {
		struct af_frame *f = &l->frames[i];
		/* both edges from weights, as flamegraph.pl computes them, so
		 * neighbours meet exactly */
		f->x = l->xpad + (double)f->start * scale;
		f->w = l->xpad + (double)(f->start + f->width) * scale - f->x;
		if (o->inverted)
			f->y = ypad1 + f->depth * fh;
		else
			f->y = l->height - ypad2 - (f->depth + 1) * fh + 1;
	}
}

/* ---- flame charts: where each frame lies in time ---- */

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Where a chart's frames lie: pos[n] the start (AF_NO_START: nothing in
 * its subtree has a time, it goes after its previous sibling), len[n] the
 * width. A frame reaches the end of its last descendant, whatever its
 * depth: a thread's total is the sum of its calls, short of the last one's
 * end when they have gaps. A node with no start of its own (a thread or a
 * process) lies over its descendants, earliest start to latest end, so its
 * children stay inside it and the threads of a process on their own times.
 * So does the root, unless it has an origin (has_origin): the chart begins
 * there, or at its earliest frame, every thread at its offset from it
 * (their times share an axis). */
struct extents {
	const struct af_tree *t;
	bool has_origin;
	uint64_t origin;
	const uint8_t *excluded;
	const uint64_t *tot;
	uint64_t *pos, *len;
	uint32_t *kids;           /* scratch: a node's drawn children */
	size_t cap;
};

/* n's extent from its children's (the root's starts at origin if any). */
static void node_extent(struct extents *x, uint32_t n, bool is_root)
{
	const struct af_tree *t = x->t;
	size_t k = 0;
	uint64_t own = is_root && x->has_origin ? x->origin : af_tree_start(t, n), lo = own;
	for (uint32_t c = t->nodes[n].first_child; c != AF_NONE; c = t->nodes[c].next_sibling) {
		if ((x->excluded && x->excluded[c]) || x->tot[c] == 0)
			continue;
		af_grow(&x->kids, &x->cap, k + 1, sizeof *x->kids);
		x->kids[k++] = c;
		if (x->pos[c] < lo)   /* AF_NO_START is the largest */
			lo = x->pos[c];
	}
	x->pos[n] = lo;
	x->len[n] = x->tot[n];
	if (lo == AF_NO_START)
		return;
	/* a call lasts its total at least; a thread or process (no start of
	 * its own) as long as its children, which may overlap */
	uint64_t next = add_sat(lo, t->nodes[n].self);
	uint64_t end = is_root || own == AF_NO_START ? next : add_sat(lo, x->tot[n]);
	while (k--) {   /* in the order they were added: the list is newest first */
		uint32_t c = x->kids[k];
		next = add_sat(x->pos[c] != AF_NO_START ? x->pos[c] : next, x->len[c]);
		if (next > end)
			end = next;
	}
	x->len[n] = end - lo;
}

/* Every node's extent under root, children before their parent (down
 * through first_child, up through parent: adoption makes parents after
 * their children). */
static void chart_extents(struct extents *x, uint32_t root)
{
	const struct af_tree *t = x->t;
	x->pos = af_xmalloc_huge(t->nnodes * sizeof *x->pos);
	x->len = af_xmalloc_huge(t->nnodes * sizeof *x->len);
	uint32_t n = root;
	for (;;) {
		while (t->nodes[n].first_child != AF_NONE)
			n = t->nodes[n].first_child;
		for (;;) {
			node_extent(x, n, n == root);
			if (n == root) {
				free(x->kids);
				return;
			}
			if (t->nodes[n].next_sibling != AF_NONE)
				break;
			n = t->nodes[n].parent;
		}
		n = t->nodes[n].next_sibling;
	}
}

/* ---- flame charts: bands and the time axis ---- */

/* One frame's children after another's: frames[i + 1], then each's end. */
static uint32_t only_child(const struct af_layout *l, uint32_t i)
{
	uint32_t c = i + 1, end = l->frames[i].end;
	return c < end && l->frames[c].end == end ? c : AF_NONE;
}

/* Whether children of frame i share time (threads of a process do; the
 * calls of a thread follow each other). */
static bool children_overlap(const struct af_layout *l, uint32_t i)
{
	uint64_t reach = 0;
	for (uint32_t c = i + 1; c < l->frames[i].end; c = l->frames[c].end) {
		if (c > i + 1 && l->frames[c].start < reach)
			return true;
		if (l->frames[c].start + l->frames[c].width > reach)
			reach = l->frames[c].start + l->frames[c].width;
	}
	return false;
}

static void add_band(struct af_layout *l, size_t *cap, uint32_t first, uint32_t end)
{
	uint32_t top = l->frames[first].depth, deepest = top;
	for (uint32_t j = first; j < end; j++)
		if (l->frames[j].depth > deepest)
			deepest = l->frames[j].depth;
	size_t k = l->nbands;
	af_grow(&l->band_start, cap, k + 1, sizeof *l->band_start);
	l->band_end = af_xrealloc(l->band_end, *cap * sizeof *l->band_end);
	l->band_rows = af_xrealloc(l->band_rows, *cap * sizeof *l->band_rows);
	l->band_start[k] = first;
	l->band_end[k] = end;
	l->band_rows[k] = deepest - top + 1;
	l->nbands++;
}

/* The bands of frame i's subtree, in pre-order: all of it, or when below a
 * chain of only children a frame's children overlap in time (a process's
 * threads), the chain on rows of its own and each child's subtree split
 * alike (a stack, not recursion: nesting comes from the input). */
static void split_band(struct af_layout *l, size_t *cap, uint32_t i)
{
	uint32_t *todo = NULL;
	size_t n = 0, cap_todo = 0;
	af_grow(&todo, &cap_todo, 1, sizeof *todo);
	todo[n++] = i;
	while (n) {
		uint32_t b = todo[--n], s = b;
		for (uint32_t c; (c = only_child(l, s)) != AF_NONE;)
			s = c;
		if (!children_overlap(l, s)) {
			add_band(l, cap, b, l->frames[b].end);
			continue;
		}
		add_band(l, cap, b, s + 1);
		size_t first = n;
		for (uint32_t c = s + 1; c < l->frames[s].end; c = l->frames[c].end) {
			af_grow(&todo, &cap_todo, n + 1, sizeof *todo);
			todo[n++] = c;
		}
		for (size_t a = first, z = n; a + 1 < z; a++, z--) {   /* first child on top */
			uint32_t tmp = todo[a];
			todo[a] = todo[z - 1];
			todo[z - 1] = tmp;
		}
	}
	free(todo);
}

/* Rows for frames: "all" at row 0, then each band (a child of the root with
 * its subtree, or a thread of a process, see split_band) on its own rows,
 * the first band farthest from "all"'s side when not inverted (on top,
 * like Traceview's thread list). */
static void make_bands(struct af_layout *l, const struct af_layout_opts *o)
{
	size_t cap = 0;
	for (uint32_t i = 1; i < l->nframes; i = l->frames[i].end)
		split_band(l, &cap, i);
	size_t n = l->nbands;
	if (n < 2) {   /* one band is the graph as it is */
		l->nbands = 0;
		return;
	}
	l->band_row = af_xmalloc(n * sizeof *l->band_row);
	uint32_t row = 1;
	for (size_t k = 0; k < n; k++) {
		size_t b = o->inverted ? k : n - 1 - k;
		l->band_row[b] = row;
		row += l->band_rows[b];
	}
	double fh = l->frame_height;
	double bottom = l->frames[0].y + fh - 1;   /* below "all" (not inverted) */
	double grow = ((double)row - (l->max_depth + 1)) * fh;
	l->height += grow;
	bottom += grow;
	if (!o->inverted)
		l->frames[0].y = bottom - fh + 1;
	for (size_t k = 0; k < n; k++) {
		uint32_t top = l->frames[l->band_start[k]].depth;
		for (uint32_t j = l->band_start[k]; j < l->band_end[k]; j++) {
			double r = l->band_row[k] + l->frames[j].depth - top;
			l->frames[j].y = o->inverted ? l->frames[0].y + r * fh : bottom - (r + 1) * fh + 1;
		}
	}
}

/* A round step (1, 2 or 5 times a power of ten) giving ticks about 100 px
 * apart. */
static uint64_t tick_step(uint64_t span, double px)
{
	double raw = (double)span / (px / 100 > 1 ? px / 100 : 1);
	uint64_t p = 1;
	while ((double)p * 10 <= raw && p < UINT64_MAX / 10)
		p *= 10;
	double m = raw / (double)p;
	return p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10);
}

/* Nanoseconds a unit of the profile's weights, 0 when it is no time. */
static uint64_t unit_ns(const char *unit)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "ns", 1 }, { "\xc2\xb5s", 1000 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (strcmp(unit, units[i].name) == 0)
			return units[i].ns;
	return 0;
}

/* The unit ticks are shown in: the largest of s, ms, µs, ns that the
 * axis's largest value reaches, one for the whole axis. */
static void tick_unit(double largest_ns, uint64_t *scale, const char **name)
{
	static const struct { const char *name; uint64_t ns; } units[] = {
		{ "s", 1000000000 }, { "ms", 1000000 }, { "\xc2\xb5s", 1000 }, { "ns", 1 },
	};
	for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
		if (largest_ns >= (double)units[i].ns || units[i].ns == 1) {
			*scale = units[i].ns;
			*name = units[i].name;
			return;
		}
	}
}

/* v ns in the unit scale ns, with the decimals the step needs. */
static void tick_text(char *s, size_t n, double v, double step, uint64_t scale, const char *unit)
{
	int decimals = 0;
	for (double q = (double)scale; q > step + 1e-9 && q > 1 && decimals < 9; q /= 10)
		decimals++;
	snprintf(s, n, "%.*f %s", decimals, v / (double)scale, unit);
}

/* Where a label goes against its tick: centred, unless that would put it
 * past the image's edge (the first and last, mostly). Widths are estimated
 * with the average advance, as the SVG's labels are. */
static void anchor_tick(struct af_tick *t, double width, double font_size)
{
	double w = (double)af_utf8_count(t->label, strlen(t->label)) * font_size * 0.59;
	t->anchor = t->x - w / 2 < 2 ? -1 : t->x + w / 2 > width - 2 ? 1 : 0;
}

static void make_axis(struct af_layout *l, const struct af_layout_opts *o)
{
	double fh = l->frame_height, lowest = 0;
	for (size_t i = 0; i < l->nframes; i++)
		if (l->frames[i].y + fh - 1 > lowest)
			lowest = l->frames[i].y + fh - 1;
	double band = o->font_size + 8;
	l->axis_y = lowest + 2;
	l->height += band;
	if (!l->total)
		return;
	double px = l->width - 2 * l->xpad, scale = px / (double)l->total;
	uint64_t step = tick_step(l->total, px), origin = o->axis_origin;
	uint64_t ns = unit_ns(o->axis_unit), shown = 1;
	const char *unit = NULL;
	if (ns)
		tick_unit(((double)origin + (double)l->total) * (double)ns, &shown, &unit);
	uint64_t first = (origin + step - 1) / step * step;
	for (uint64_t v = first; v - origin <= l->total; v += step) {
		af_grow(&l->ticks, &l->cap_ticks, l->nticks + 1, sizeof *l->ticks);
		struct af_tick *t = &l->ticks[l->nticks++];
		t->x = l->xpad + (double)(v - origin) * scale;
		if (ns)
			tick_text(t->label, sizeof t->label, (double)v * (double)ns, (double)step * (double)ns,
				  shown, unit);
		else
			snprintf(t->label, sizeof t->label, "%" PRIu64, v);
		anchor_tick(t, l->width, o->font_size);
		if (v > UINT64_MAX - step)
			break;
	}
}

int af_layout_build(struct af_layout *l, struct af_tree *t, uint32_t root,
		    const uint8_t *excluded, const struct af_layout_opts *o,
		    struct af_diag *d)
{
	(void)d;
	memset(l, 0, sizeof *l);
	l->tree = t;
	l->frame_height = o->frame_height;
	l->font_size = o->font_size;
	l->inverted = o->inverted;
	l->has_subtitle = o->has_subtitle;
	uint64_t *tot = included_totals(t, excluded);
	struct extents x = { .t = t, .has_origin = o->has_origin, .origin = o->origin, .excluded = excluded, .tot = tot };
	if (o->chart && t->starts)
		chart_extents(&x, root);
	l->total = x.len ? x.len[root] : tot[root];
	if (o->total > l->total)
		l->total = o->total;
	struct change c = {
		.t = t, .tot = tot, .kinds = o->kinds, .nkinds = o->nkinds, .root = root,
		.band = AF_NONE, .total = o->diff_total,
	};
	if (t->before) {
		l->differential = true;
		l->compare = o->kinds != NULL;
		l->diff_total = o->diff_total;
		l->negate = o->negate;
		for (size_t i = 0; i < o->nkinds && o->kinds; i++)
			if (o->kinds[i] == AF_FRAME_BAND)
				c.band = (uint32_t)i;
		if (o->diff_total || l->compare)
			c.btot = before_totals(t);
		l->max_delta = max_delta(&c, excluded);
	}
	double usable = o->width - 20;
	double threshold = o->min_width_pct > 0 ? (double)l->total * o->min_width_pct / 100
			 : l->total && usable > 0 ? o->min_width * (double)l->total / usable : 0;
	struct walk w = {
		.tree = t, .excluded = excluded, .tot = tot, .rank = af_tree_name_ranks(t),
		.chart = o->chart, .pos = x.pos, .len = x.len,
		.origin = x.pos && x.pos[root] != AF_NO_START ? x.pos[root] : 0, .kinds = o->kinds, .nkinds = o->kinds ? o->nkinds : 0,
		.threshold = threshold > 1 ? (uint64_t)ceil(threshold) : 1,
	};
	/* at most a frame a node: room for them up front, so the array is
	 * never copied as it grows (its pages are only made as written;
	 * growing copied 4 KiB pages that were each a page fault on a VM) */
	size_t cap = t->nnodes < FRAMES_RESERVED ? t->nnodes : FRAMES_RESERVED;
	l->frames = af_xmalloc_huge(cap * sizeof *l->frames);
	uint32_t all = 0;   /* af_tree_init interns "all" first */
	struct pending first = { root, 0, 0, l->total, 0, 0, NULL, ';', false };
	emit(l, &cap, &first, all);
	push_children(&w, &first);
	while (w.depth) {
		struct pending e = w.stack[--w.depth];
		emit(l, &cap, &e, t->nodes[e.node].name);
		push_children(&w, &e);
	}
	free(w.stack);
	free(w.gap);
	free(x.pos);
	free(x.len);
	set_ends(l);
	unsigned seen;
	colour_frames(l, o, &c, &seen);
	make_legend(l, o, seen);
	place(l, o);
	free(c.btot);
	free(tot);
	if (o->chart && o->bands)
		make_bands(l, o);
	if (o->chart && o->axis_unit) {
		l->axis_unit = o->axis_unit;
		l->axis_origin = o->axis_origin;
		make_axis(l, o);
	}
	return 0;
}

void af_layout_release(struct af_layout *l)
{
	free(l->frames);
	free(l->ticks);
	free(l->band_start);
	free(l->band_end);
	free(l->band_row);
	free(l->band_rows);
	memset(l, 0, sizeof *l);
}
