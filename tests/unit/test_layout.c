/* test_layout.c: frame geometry like flamegraph.pl's defaults, name order,
 * merging, narrow frames left out, pre-order subtree ranges, exclusion. */
#include "harness.h"
#include "core/layout.h"
#include "render/render.h"
#include "render/legend.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t add(struct af_tree *t, uint32_t parent, const char *name, uint64_t self)
{
	uint32_t n = af_tree_child(t, parent, af_tree_intern_str(t, name));
	t->nodes[n].self += self;
	return n;
}

static const char *fname(const struct af_layout *l, size_t i)
{
	return af_tree_name(l->tree, l->frames[i].name);
}

void test_layout_geometry(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t m = add(&t, AF_ROOT, "main", 10);
	add(&t, m, "zeta", 30);
	add(&t, m, "alpha", 60);
	struct af_layout_opts o;
	af_layout_opts_default(&o);
	struct af_layout l;
	struct af_diag d;
	af_diag_init(&d, "x");
	INT_EQ(af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d), 0);
	INT_EQ(l.nframes, 4);
	INT_EQ(l.total, 100);
	STR_EQ(fname(&l, 0), "all");
	STR_EQ(fname(&l, 1), "main");
	STR_EQ(fname(&l, 2), "alpha");   /* children in name order */
	STR_EQ(fname(&l, 3), "zeta");
	/* own weight first, then children: alpha starts after main's 10 */
	INT_EQ(l.frames[2].start, 10);
	INT_EQ(l.frames[3].start, 70);
	/* 1200 px wide, 10 px margins: 11.8 px per unit */
	OK(fabs(l.frames[2].x - (10 + 10 * 11.8)) < 1e-9);
	OK(fabs(l.frames[3].w - 30 * 11.8) < 1e-9);
	/* height: 3 levels of 16 px + 36 px title band + 34 px bottom band */
	OK(fabs(l.height - (3 * 16 + 36 + 34)) < 1e-9);
	OK(fabs(l.frames[0].y - (l.height - 34 - 16 + 1)) < 1e-9);
	OK(fabs(l.frames[2].y - (l.height - 34 - 48 + 1)) < 1e-9);
	INT_EQ(l.frames[0].end, 4);
	INT_EQ(l.frames[1].end, 4);
	INT_EQ(l.frames[2].end, 3);
	INT_EQ(l.frames[2].depth, 2);
	af_layout_release(&l);
	o.inverted = true;
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	OK(fabs(l.frames[0].y - 36) < 1e-9);
	OK(fabs(l.frames[2].y - (36 + 32)) < 1e-9);
	af_layout_release(&l);
	af_tree_release(&t);
}

void test_layout_min_width(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t a = add(&t, AF_ROOT, "a", 0);
	add(&t, a, "wide", 100000);
	uint32_t n = add(&t, a, "narrow", 5);    /* 5/100005 of 1180 px = 0.06 px */
	add(&t, n, "above-narrow", 1);
	add(&t, a, "zero", 0);
	add(&t, a, "zz-after", 10);              /* positions still count the narrow one */
	struct af_layout_opts o;
	af_layout_opts_default(&o);
	struct af_layout l;
	struct af_diag d;
	af_diag_init(&d, "x");
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.nframes, 4);
	STR_EQ(fname(&l, 2), "wide");
	STR_EQ(fname(&l, 3), "zz-after");
	INT_EQ(l.frames[3].start, 6 + 100000);
	INT_EQ(l.max_depth, 2);
	af_layout_release(&l);
	o.min_width_pct = 0.0009;  /* 0.9 units of 100016: keeps 1-unit frames */
	o.min_width = 0;
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.nframes, 6);
	af_layout_release(&l);
	o.min_width_pct = 0.001;   /* 1.00016 units: the 1-unit frame goes */
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.nframes, 5);
	af_layout_release(&l);
	af_tree_release(&t);
}

/* Frames too narrow to draw still take their place: with most siblings
 * narrow (only the wide ones are sorted, the narrow ones bisected into the
 * gaps between them), every drawn frame starts where it does when all are
 * drawn; names that are prefixes of each other ("f" with its own weight
 * sorts as "f ", before "f0"; without, as "f;") included. */
void test_layout_narrow_gaps(void)
{
	static const char *names[] = { "f", "f0", "f00", "fa", "g", "f;", "e", "fz", "f 1", "zz" };
	struct af_tree t;
	af_tree_init(&t);
	uint32_t p = add(&t, AF_ROOT, "p", 0);
	uint32_t seed = 7;
	for (int i = 0; i < 400; i++) {
		seed = seed * 1103515245u + 12345u;
		char name[32];
		snprintf(name, sizeof name, "%s%u", names[seed >> 16 & 7], seed >> 20 & 31);
		bool wide = (seed >> 8 & 15) == 0;
		uint32_t c = add(&t, p, name, wide ? 5000 : seed >> 24 & 3);
		if (seed >> 12 & 1)
			add(&t, c, names[seed >> 4 & 7], 1 + (seed >> 13 & 3));
	}
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		add(&t, p, names[i], i % 3 ? 2 : 0), add(&t, af_tree_child(&t, p, af_tree_intern_str(&t, names[i])), "x", 1);
	struct af_layout_opts o;
	af_layout_opts_default(&o);
	struct af_layout all, drawn;
	struct af_diag d;
	af_diag_init(&d, "x");
	o.min_width = 0;
	INT_EQ(af_layout_build(&all, &t, AF_ROOT, NULL, &o, &d), 0);
	o.min_width = 0.1;
	INT_EQ(af_layout_build(&drawn, &t, AF_ROOT, NULL, &o, &d), 0);
	OK(drawn.nframes > 10 && drawn.nframes * 4 < all.nframes);
	uint64_t *start = calloc(t.nnodes, sizeof *start);
	for (size_t i = 0; i < all.nframes; i++)
		start[all.frames[i].node] = all.frames[i].start;
	size_t differ = 0;
	for (size_t i = 0; i < drawn.nframes; i++)
		differ += start[drawn.frames[i].node] != drawn.frames[i].start;
	INT_EQ(differ, 0);
	/* and in the same order: drawn is all without the narrow ones */
	size_t j = 0;
	for (size_t i = 0; i < all.nframes && j < drawn.nframes; i++)
		j += all.frames[i].node == drawn.frames[j].node;
	INT_EQ(j, drawn.nframes);
	free(start);
	af_layout_release(&all);
	af_layout_release(&drawn);
	af_tree_release(&t);
}

void test_layout_excluded_and_root(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t t1 = af_tree_add_child(&t, AF_ROOT, af_tree_intern_str(&t, "main (1)"));
	uint32_t t2 = af_tree_add_child(&t, AF_ROOT, af_tree_intern_str(&t, "bg (2)"));
	add(&t, t1, "f", 30);
	add(&t, t2, "g", 70);
	uint8_t excluded[16] = { 0 };
	excluded[t2] = 1;
	struct af_layout_opts o;
	af_layout_opts_default(&o);
	struct af_layout l;
	struct af_diag d;
	af_diag_init(&d, "x");
	af_layout_build(&l, &t, AF_ROOT, excluded, &o, &d);
	INT_EQ(l.total, 30);
	INT_EQ(l.nframes, 3);
	STR_EQ(fname(&l, 1), "main (1)");
	af_layout_release(&l);
	/* one thread: its methods stand directly on "all" */
	af_layout_build(&l, &t, t2, NULL, &o, &d);
	INT_EQ(l.total, 70);
	INT_EQ(l.nframes, 2);
	STR_EQ(fname(&l, 1), "g");
	INT_EQ(l.frames[1].depth, 1);
	af_layout_release(&l);
	af_tree_release(&t);
}

void test_layout_colours_deterministic(void)
{
	struct af_palette_opts p = { .palette = AF_PAL_HOT };
	uint32_t a = af_palette_colour(&p, "android.os.Looper.loop", 22);
	OK(a == af_palette_colour(&p, "android.os.Looper.loop", 22));
	OK(a != af_palette_colour(&p, "android.os.Looper.lop", 21));
	/* hot: red-dominant */
	OK((a >> 16) >= 205);
	/* java: dotted Android names are Java (green), not native red */
	p.palette = AF_PAL_JAVA;
	uint32_t j = af_palette_colour(&p, "android.os.Looper.loop", 22);
	OK(((j >> 8) & 0xff) > (j >> 16));
	/* many distinct names get many distinct colours */
	int distinct = 0;
	static uint8_t seen[1 << 24];
	char buf[32];
	p.palette = AF_PAL_HOT;
	for (int i = 0; i < 20000; i++) {
		int n = snprintf(buf, sizeof buf, "com.app.C%d.m", i);
		uint32_t c = af_palette_colour(&p, buf, (size_t)n);
		distinct += !seen[c];
		seen[c] = 1;
	}
	OK(distinct > 15000);
}

void test_layout_chart_order_and_starts(void)
{
	/* flame chart: siblings stay in time order; consecutive calls merge */
	struct af_tree t;
	af_tree_init(&t);
	uint32_t z = af_tree_intern_str(&t, "z"), a = af_tree_intern_str(&t, "a");
	uint32_t n1 = af_tree_child_last(&t, AF_ROOT, z);
	INT_EQ(af_tree_child_last(&t, AF_ROOT, z), n1);
	uint32_t n2 = af_tree_child_last(&t, AF_ROOT, a);
	uint32_t n3 = af_tree_child_last(&t, AF_ROOT, z);
	OK(n3 != n1);
	t.nodes[n1].self = 10;
	t.nodes[n2].self = 20;
	t.nodes[n3].self = 30;
	struct af_layout_opts o;
	af_layout_opts_default(&o);
	o.chart = true;
	struct af_layout l;
	struct af_diag d;
	af_diag_init(&d, "x");
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.nframes, 4);
	STR_EQ(fname(&l, 1), "z");
	STR_EQ(fname(&l, 2), "a");
	STR_EQ(fname(&l, 3), "z");
	INT_EQ(l.frames[2].start, 10);
	INT_EQ(l.frames[3].start, 30);
	af_layout_release(&l);
	/* timeline: explicit starts leave gaps, and the axis spans them */
	af_tree_set_start(&t, n1, 5);
	af_tree_set_start(&t, n2, 100);
	af_tree_set_start(&t, n3, 200);
	/* without a window the chart begins at its earliest frame */
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.total, 225);
	INT_EQ(l.frames[1].start, 0);
	INT_EQ(l.frames[2].start, 95);
	INT_EQ(l.frames[3].start, 195);
	af_layout_release(&l);
	/* with one at time 0 (--from) */
	o.has_origin = true;   /* o.origin 0 */
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.total, 230);
	INT_EQ(l.frames[1].start, 5);
	INT_EQ(l.frames[2].start, 100);
	INT_EQ(l.frames[3].start, 200);
	af_layout_release(&l);
	af_tree_release(&t);
}

/* The legend: the android palette's kinds that drawn frames have, in the
 * palette's order, the app's package beside "app"; a header row of two font
 * sizes above every frame; none for hot, with --no-legend or --cp. */
void test_layout_legend_kinds(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t m = add(&t, AF_ROOT, "main", 0);
	uint32_t loop = add(&t, m, "android.os.Looper.loop", 10);
	add(&t, loop, "com.example.app.Main.onCreate", 90);
	struct af_layout_opts o;
	af_layout_opts_default(&o);
	struct af_layout l;
	struct af_diag d;
	af_diag_init(&d, "x");
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.legend.kind, AF_LEGEND_NONE);      /* hot: colours only separate */
	OK(fabs(l.height - (4 * 16 + 36 + 34)) < 1e-9);
	af_layout_release(&l);
	o.palette.palette = AF_PAL_ANDROID;
	o.palette.app_package = "com.example.app";
	o.inverted = true;
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.legend.kind, AF_LEGEND_KINDS);
	INT_EQ(l.legend.nentries, 3);               /* no third-party frame */
	STR_EQ(l.legend.entries[0].label, "platform");
	STR_EQ(l.legend.entries[1].label, "app");
	STR_EQ(l.legend.entries[1].detail, "com.example.app");
	STR_EQ(l.legend.entries[2].label, "native");   /* "main": no tid */
	OK(l.legend.entries[0].detail == NULL);
	INT_EQ(l.legend.entries[0].colour, af_palette_swatch(AF_PAL_ORANGE));
	/* the row under the title, frames below it */
	OK(fabs(l.legend.y - 36) < 1e-9);
	OK(fabs(l.legend.height - 24) < 1e-9);
	OK(fabs(l.frames[0].y - 60) < 1e-9);
	OK(fabs(l.height - (4 * 16 + 36 + 24 + 34)) < 1e-9);
	af_layout_release(&l);
	/* with a subtitle, under it; not inverted, every frame below the row */
	o.inverted = false;
	o.has_subtitle = true;
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	OK(fabs(l.legend.y - 60) < 1e-9);
	for (size_t i = 0; i < l.nframes; i++)
		OK(l.frames[i].y >= l.legend.y + l.legend.height);
	af_layout_release(&l);
	o.no_legend = true;
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.legend.kind, AF_LEGEND_NONE);
	OK(fabs(l.height - (4 * 16 + 60 + 34)) < 1e-9);
	af_layout_release(&l);
	o.no_legend = false;
	o.palette.map = af_palette_map_new();
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.legend.kind, AF_LEGEND_NONE);      /* pinned colours */
	af_layout_release(&l);
	af_palette_map_free(o.palette.map);
	af_tree_release(&t);
}

/* A differential graph's legend: the red/blue scale, what it measures and
 * which end is which; --negate swaps the ends, not the colours. */
void test_layout_legend_scale(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t m = add(&t, AF_ROOT, "main", 0);
	uint32_t a = add(&t, m, "a", 30);
	af_tree_add_before(&t, a, 10);
	uint32_t b = add(&t, m, "b", 5);
	af_tree_add_before(&t, b, 25);
	struct af_layout_opts o;
	af_layout_opts_default(&o);
	struct af_layout l;
	struct af_diag d;
	af_diag_init(&d, "x");
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.legend.kind, AF_LEGEND_SCALE);
	INT_EQ(l.max_delta, 20);
	STR_EQ(l.legend.caption, "change of self weight");
	STR_EQ(l.legend.low, "shrank");
	STR_EQ(l.legend.high, "grew");
	INT_EQ(l.legend.stops[0], 0x0000ff);
	INT_EQ(l.legend.stops[3], 0xff0000);
	af_layout_release(&l);
	o.negate = true;
	o.diff_total = true;
	o.normalized = true;
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	STR_EQ(l.legend.caption, "change of total weight, first run normalized");
	STR_EQ(l.legend.low, "grew");
	STR_EQ(l.legend.high, "shrank");
	INT_EQ(l.legend.stops[0], 0x0000ff);
	af_layout_release(&l);
	af_tree_release(&t);
}

static const char *item_text(const struct af_legend_items *it, size_t i, char *b, size_t n)
{
	snprintf(b, n, "%.*s", (int)it->item[i].len, it->text.data + it->item[i].text);
	return b;
}

/* What the back ends draw: swatch then label per kind, left to right,
 * inside the margins; a long package cut; the scale's ends in the unit. */
void test_legend_items(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t m = add(&t, AF_ROOT, "main", 0);
	char pkg[80];
	memset(pkg, 'p', 60);
	pkg[60] = 0;
	char name[100];
	snprintf(name, sizeof name, "%s.Main.run", pkg);
	uint32_t app = add(&t, m, name, 10);
	add(&t, m, "java.lang.Thread.run", 10);
	struct af_layout_opts o;
	af_layout_opts_default(&o);
	o.palette.palette = AF_PAL_ANDROID;
	o.palette.app_package = pkg;
	struct af_render_opts ro;
	af_render_opts_default(&ro);
	struct af_layout l;
	struct af_diag d;
	af_diag_init(&d, "x");
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	struct af_legend_items it;
	af_legend_items_build(&it, &l, &ro);
	INT_EQ(it.n, 6);
	char b[200], want[100];
	INT_EQ(it.item[0].type, AF_LEGEND_SWATCH);
	INT_EQ(it.item[0].colour, af_palette_swatch(AF_PAL_ORANGE));
	STR_EQ(item_text(&it, 1, b, sizeof b), "platform");
	/* 40 code points of the package, then an ellipsis */
	snprintf(want, sizeof want, "app (%.40s\xe2\x80\xa6)", pkg);
	STR_EQ(item_text(&it, 3, b, sizeof b), want);
	STR_EQ(item_text(&it, 5, b, sizeof b), "native");
	for (size_t i = 0; i < it.n; i++) {
		OK(it.item[i].x >= l.xpad);
		OK(it.item[i].x + it.item[i].w <= l.width - l.xpad);
		OK(it.item[i].y >= l.legend.y && it.item[i].y <= l.legend.y + l.legend.height);
		if (i)
			OK(it.item[i].x > it.item[i - 1].x);
	}
	/* centred: as much room on the left as on the right */
	const struct af_legend_item *last = &it.item[it.n - 1];
	OK(fabs((it.item[0].x - l.xpad) - (l.width - l.xpad - last->x - last->w)) < 1e-6);
	af_legend_items_release(&it);
	af_layout_release(&l);
	/* too narrow for everything: what does not fit is left out */
	o.width = 200;
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	af_legend_items_build(&it, &l, &ro);
	OK(it.n >= 2 && it.n < 6);
	for (size_t i = 0; i < it.n; i++)
		OK(it.item[i].x + it.item[i].w <= l.width - l.xpad);
	af_legend_items_release(&it);
	af_layout_release(&l);
	/* a differential graph in µs: 2500 µs shows as 2.5 ms */
	af_tree_add_before(&t, app, 2510);
	o.width = 1200;
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	ro.count_name = "\xc2\xb5s";
	af_legend_items_build(&it, &l, &ro);
	INT_EQ(it.n, 4);
	STR_EQ(item_text(&it, 0, b, sizeof b), "change of self weight:");
	STR_EQ(item_text(&it, 1, b, sizeof b), "shrank by 2.5 ms");
	INT_EQ(it.item[2].type, AF_LEGEND_BAR);
	STR_EQ(item_text(&it, 3, b, sizeof b), "grew by 2.5 ms");
	af_legend_items_release(&it);
	/* other units: fixed point with the input's decimals, times --factor */
	ro.count_name = "samples";
	ro.decimals = 1;
	ro.factor = 2;
	af_legend_items_build(&it, &l, &ro);
	STR_EQ(item_text(&it, 1, b, sizeof b), "shrank by 500 samples");
	af_legend_items_release(&it);
	af_layout_release(&l);
	o.no_legend = true;
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	af_legend_items_build(&it, &l, &ro);
	INT_EQ(it.n, 0);
	af_legend_items_release(&it);
	af_layout_release(&l);
	af_tree_release(&t);
}
