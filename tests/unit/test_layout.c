/* test_layout.c: frame geometry like flamegraph.pl's defaults, name order,
 * merging, narrow frames left out, pre-order subtree ranges, exclusion. */
#include "harness.h"
#include "layout.h"

#include <math.h>

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
	af_layout_build(&l, &t, AF_ROOT, NULL, &o, &d);
	INT_EQ(l.total, 230);
	INT_EQ(l.frames[1].start, 5);
	INT_EQ(l.frames[2].start, 100);
	INT_EQ(l.frames[3].start, 200);
	af_layout_release(&l);
	af_tree_release(&t);
}
