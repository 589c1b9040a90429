/* layout.h: frame rectangles and colours, a pure function of the tree and the
 * options. Back ends only read the result; they never touch the tree again.
 *
 * Frames are in depth-first pre-order: a frame's descendants are the frames
 * after it up to frames[i].end, which lets the interactive SVG zoom into a
 * subtree by touching only that range. Siblings are in byte-wise name order
 * as sorted folded lines have them (a name followed by ' ' if the frame has
 * its own weight, else by ';'), so one function never splits into two sibling frames (flame charts keep
 * time order instead). Frame 0 is "all". */
#ifndef AF_LAYOUT_H
#define AF_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "diag.h"
#include "palette.h"
#include "tree.h"

/* Comparisons of two runs (--diff, diff.h): what a node is. */
enum af_frame_kind {
	AF_FRAME_PLAIN,         /* of the second run (and maybe the first) */
	AF_FRAME_REMOVED,       /* only in the first run: in the removed band,
				   at its before weight */
	AF_FRAME_CONTEXT,       /* in the band: a caller of removed work */
	AF_FRAME_BAND,          /* the band's base, "removed: only in FILE";
				   drawn after its siblings */
};

struct af_frame {
	uint64_t start, width;  /* position and size in weight units (exact) */
	double x, y, w;         /* pixel rectangle; height is layout->frame_height - 1 */
	uint32_t name;          /* interned name id */
	uint32_t node;          /* tree node */
	uint32_t depth;         /* 0 = the "all" frame */
	uint32_t end;           /* one past the last descendant in frames[] */
	uint32_t colour;        /* 0xRRGGBB */
	int64_t delta;          /* differential graphs: change of the frame's own
				   weight (after - before; negated with
				   negate), or with diff_total of its inclusive
				   weight; else 0 */
	uint64_t before, after; /* comparisons: inclusive weight in each run (a
				   band frame: before = width, after = 0) */
	uint8_t kind;           /* enum af_frame_kind */
};

/* A tick of a flame chart's time axis. */
struct af_tick {
	double x;               /* px */
	char label[32];         /* "1.5 ms" */
	int anchor;             /* the label: -1 starts at x, 0 is centred on
				   it, 1 ends at it (kept inside the image) */
};

struct af_layout_opts {
	double width;           /* image width in px (1200) */
	double frame_height;    /* px per level (16) */
	double min_width;       /* frames narrower than this are left out (px; 0.1) */
	double min_width_pct;   /* if > 0: min width as % of the total instead */
	double font_size;       /* px, for the title and detail bands (12) */
	bool has_subtitle;      /* reserve a band for it */
	bool inverted;          /* icicle: root at the top */
	bool chart;             /* flame chart: siblings in time (insertion) order,
				   at their af_tree_start() when they have one */
	uint64_t total;         /* if more than the graph's weight: the full width
				   stands for this much (flamegraph.pl --total) */
	bool negate;            /* differential graphs: swap the hues */
	bool diff_total;        /* differential graphs: colour by the change of
				   inclusive weight, not own weight */
	const uint8_t *kinds;   /* comparisons (--diff): enum af_frame_kind per
				   node (diff.h); NULL otherwise */
	size_t nkinds;
	struct af_palette_opts palette;
	/* flame charts */
	const char *axis_unit;  /* draw a time axis: weights in "ns", "µs", "ms"
				   or "s" (labels in s, ms, µs or ns, as the
				   span needs) or another unit (plain numbers);
				   NULL: none */
	uint64_t axis_origin;   /* axis value at the left edge */
	bool has_origin;        /* the time at the left edge is origin: with a
				   window 0 (--from), else the earliest first
				   event of the threads drawn (all threads'
				   times share one axis); without: the earliest
				   frame drawn. Never after a frame's start */
	uint64_t origin;
	bool bands;             /* the root's children (threads) one above the
				   other, each on the whole time axis */
	bool no_legend;         /* no legend, even where colours mean something */
	bool normalized;        /* differential graphs: the first run was scaled
				   to the second's total (--normalize; legend) */
};

/* The legend: what the colours mean, where they mean something. A palette
 * with kinds (af_palette_kinds) lists those of its kinds that frames drawn
 * in the graph have, each as a swatch and a label; a differential graph
 * shows its red/blue scale from -max_delta to +max_delta. It takes a row of
 * the header under the titles, above every frame, so it never covers one;
 * the back ends draw it through af_legend_items_build() (legend.h). */
enum af_legend_kind { AF_LEGEND_NONE, AF_LEGEND_KINDS, AF_LEGEND_SCALE };

struct af_legend_entry {
	uint32_t colour;        /* swatch, 0xRRGGBB */
	const char *label;      /* static text: "platform" */
	const char *detail;     /* or NULL: shown in parentheses after the label
				   (the app's package, from the options: the
				   caller's, untrusted) */
};

struct af_legend {
	enum af_legend_kind kind;
	struct af_legend_entry entries[AF_PALETTE_KINDS_MAX];
	size_t nentries;        /* kinds */
	uint32_t stops[4];      /* scale: af_palette_change_scale() */
	const char *caption;    /* scale: "change of self weight", static */
	const char *low, *high; /* scale: what the blue and red ends mean:
				   "shrank" and "grew", swapped by --negate */
	double y, height;       /* the row's top and height in px */
};

struct af_layout {
	const struct af_tree *tree;
	struct af_frame *frames;
	size_t nframes;
	uint64_t total;         /* weight of frame 0 */
	uint32_t max_depth;     /* deepest frame drawn */
	double width, height;   /* image size in px */
	double frame_height, font_size;
	double xpad;            /* left and right margin */
	double graph_top;       /* y of the top of the frame area */
	bool inverted;
	bool has_subtitle;
	struct af_tick *ticks;  /* time axis (flame charts), left to right */
	size_t nticks, cap_ticks;
	double axis_y;          /* top of the axis band (tick marks start here) */
	const char *axis_unit;  /* the options' (static or the caller's), NULL
				   without an axis: the interactive SVG redraws
				   the axis at every zoom */
	uint64_t axis_origin;   /* axis value at the left edge */
	/* bands: the k-th band is frames band_start[k] .. band_end[k] - 1, a
	 * subtree or (a process over its threads) a chain of only children;
	 * its rows are band_row[k] .. band_row[k] + band_rows[k] - 1 (row 0:
	 * "all"), its first frame on the first */
	uint32_t *band_start, *band_end, *band_row, *band_rows;
	size_t nbands;
	bool differential;      /* the tree has before weights: frames are
				   coloured by their delta (af_palette_change) */
	uint64_t max_delta;     /* largest |delta| of any node, at least 1 */
	bool compare;           /* two runs compared (kinds given): frames carry
				   before and after weights */
	bool diff_total;        /* delta is the change of inclusive weight */
	bool negate;            /* delta is negated (--negate) */
	struct af_legend legend;
};

void af_layout_opts_default(struct af_layout_opts *o);

/* Lay out the subtree at root (its frames start above "all"), skipping nodes
 * with excluded[node] != 0 (excluded may be NULL). Returns 0, or -1 with
 * diag set (nothing to draw never fails: it gives a lone "all" frame). */
int af_layout_build(struct af_layout *l, struct af_tree *t, uint32_t root,
		    const uint8_t *excluded, const struct af_layout_opts *o,
		    struct af_diag *d);
void af_layout_release(struct af_layout *l);

#endif
