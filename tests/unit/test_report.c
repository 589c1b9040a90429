/* test_report.c: the method profile model (report.h) and the time window
 * and flame-chart placement of the fold (fold.h). */
#include "core/fold.h"
#include "harness.h"
#include "core/layout.h"
#include "core/report.h"

#include <stdlib.h>

struct fx {
	struct af_profile p;
	struct af_fold f;
	struct af_fold_thread th;
};

static void fx_init(struct fx *x)
{
	af_profile_init(&x->p);
	x->f = (struct af_fold){ .tree = &x->p.tree };
	size_t ti = af_profile_add_thread(&x->p, 1, "T", 1);
	uint32_t root = af_tree_add_child(&x->p.tree, AF_ROOT, af_tree_intern_str(&x->p.tree, "T (1)"));
	x->p.threads[ti].node = root;
	af_fold_thread_init(&x->th, root);
}

static void ev(struct fx *x, char m, uint64_t t, bool in)
{
	uint32_t name = af_tree_intern(&x->p.tree, &m, 1);
	if (in)
		af_fold_enter(&x->f, &x->th, (uint32_t)m, name, t);
	else
		af_fold_exit(&x->f, &x->th, (uint32_t)m, name, t);
}

static const struct af_report_method *find(const struct af_report *r, char m)
{
	for (size_t i = 0; i < r->nmethods; i++)
		if (af_tree_name(r->tree, r->methods[i].name)[0] == m)
			return &r->methods[i];
	return NULL;
}

static void fx_done(struct fx *x)
{
	af_fold_release(&x->f);
	af_profile_release(&x->p);
}

void test_report_recursion_and_edges(void)
{
	/* a(0..100) calls b(10..60) which calls a(20..50) which calls b(30..40);
	 * then a calls c twice (70..75, 80..90) */
	struct fx x;
	fx_init(&x);
	ev(&x, 'a', 0, 1);
	ev(&x, 'b', 10, 1);
	ev(&x, 'a', 20, 1);
	ev(&x, 'b', 30, 1);
	ev(&x, 'b', 40, 0);
	ev(&x, 'a', 50, 0);
	ev(&x, 'b', 60, 0);
	ev(&x, 'c', 70, 1);
	ev(&x, 'c', 75, 0);
	ev(&x, 'c', 80, 1);
	ev(&x, 'c', 90, 0);
	ev(&x, 'a', 100, 0);
	af_fold_finish(&x.f, &x.th);
	struct af_report r;
	af_report_build(&r, &x.p, AF_ROOT, NULL);
	INT_EQ(r.total, 100);
	INT_EQ(r.nmethods, 3);
	const struct af_report_method *a = find(&r, 'a'), *b = find(&r, 'b'), *c = find(&r, 'c');
	OK(a && b && c);
	if (a && b && c) {
		INT_EQ(a->exclusive, 35 + 20);   /* 0-10, 60-70, 75-80, 90-100; 20-30, 40-50 */
		INT_EQ(a->inclusive, 100);            /* the inner a is inside the outer one */
		INT_EQ(a->calls, 1);
		INT_EQ(a->recursive_calls, 1);
		INT_EQ(b->exclusive, 20 + 10);
		INT_EQ(b->inclusive, 50);
		INT_EQ(b->calls, 1);
		INT_EQ(b->recursive_calls, 1);
		INT_EQ(c->exclusive, 15);
		INT_EQ(c->calls, 2);
		/* the methods are in exclusive order */
		OK(r.methods[0].exclusive >= r.methods[1].exclusive);
		/* a's callers: (toplevel) once, b once (recursive call) */
		INT_EQ(a->nparents, 2);
		INT_EQ(a->parents[0].method, AF_NONE);
		INT_EQ(a->parents[0].calls, 1);
		INT_EQ(a->parents[0].time, 100);
		OK(a->parents[1].recursive);
		INT_EQ(a->parents[1].time, 30);
		/* a's callees: c (2 calls, 15), b (50), b again from the inner a */
		INT_EQ(a->nchildren, 3);
		STR_EQ(af_tree_name(r.tree, r.methods[a->children[0].method].name), "b");
		INT_EQ(a->children[0].time, 50);
		INT_EQ(a->children[1].calls, 2);
		INT_EQ(a->children[1].time, 15);
		OK(a->children[2].recursive);
	}
	af_report_release(&r);
	fx_done(&x);
}

void test_report_total_is_graph_total(void)
{
	/* orphan exit and an open frame: the report agrees with the graph */
	struct fx x;
	fx_init(&x);
	ev(&x, 'a', 3, 1);
	ev(&x, 'a', 5, 0);
	ev(&x, 'z', 9, 0);      /* orphan: z adopts a */
	ev(&x, 'b', 12, 1);
	ev(&x, 'c', 20, 1);     /* open at the end (25) */
	ev(&x, 'c', 25, 0);
	ev(&x, 'd', 25, 1);
	af_fold_finish(&x.f, &x.th);
	struct af_report r;
	af_report_build(&r, &x.p, AF_ROOT, NULL);
	struct af_layout_opts o;
	af_layout_opts_default(&o);
	struct af_layout l;
	struct af_diag d;
	af_diag_init(&d, "x");
	af_layout_build(&l, &x.p.tree, AF_ROOT, NULL, &o, &d);
	INT_EQ(r.total, l.total);
	INT_EQ(r.total, (9 - 3) + (25 - 12));
	const struct af_report_method *z = find(&r, 'z'), *d_ = find(&r, 'd');
	OK(z && d_);
	if (z && d_) {
		INT_EQ(z->calls, 1);
		INT_EQ(z->inclusive, 6);
		INT_EQ(d_->calls, 1);
		INT_EQ(d_->inclusive, 0);
	}
	af_layout_release(&l);
	af_report_release(&r);
	fx_done(&x);
}

void test_fold_window_clips(void)
{
	/* a(0..100) { b(10..30) c(40..60) { d(45..50) } e(70..90) }, window [20, 50) */
	struct fx x;
	fx_init(&x);
	x.f.window = true;
	x.f.from = 20;
	x.f.to = 50;
	x.f.timeline = true;
	ev(&x, 'a', 0, 1);
	ev(&x, 'b', 10, 1);
	ev(&x, 'b', 30, 0);
	ev(&x, 'c', 40, 1);
	ev(&x, 'd', 45, 1);
	ev(&x, 'd', 50, 0);
	ev(&x, 'c', 60, 0);
	ev(&x, 'e', 70, 1);
	ev(&x, 'e', 90, 0);
	ev(&x, 'a', 100, 0);
	af_fold_finish(&x.f, &x.th);
	struct af_report r;
	af_report_build(&r, &x.p, AF_ROOT, NULL);
	INT_EQ(r.total, 30);
	const struct af_report_method *a = find(&r, 'a'), *b = find(&r, 'b');
	const struct af_report_method *c = find(&r, 'c'), *d = find(&r, 'd');
	OK(a && b && c && d && !find(&r, 'e'));
	if (a && b && c && d) {
		INT_EQ(a->inclusive, 30);
		INT_EQ(a->exclusive, 10);   /* 30..40 */
		INT_EQ(b->inclusive, 10);   /* 20..30 */
		INT_EQ(c->inclusive, 10);   /* 40..50 */
		INT_EQ(d->inclusive, 5);
		INT_EQ(b->calls, 1);
	}
	/* chart positions are relative to the window's start */
	const struct af_tree *t = &x.p.tree;
	uint32_t an = t->nodes[x.th.root].first_child;
	INT_EQ(af_tree_start(t, an), 0);
	uint32_t cn = t->nodes[an].first_child, bn = t->nodes[cn].next_sibling;
	INT_EQ(af_tree_start(t, bn), 0);
	INT_EQ(af_tree_start(t, cn), 20);
	INT_EQ(af_tree_start(t, t->nodes[cn].first_child), 25);
	af_report_release(&r);
	fx_done(&x);
}

void test_fold_window_orphan_and_open(void)
{
	/* z exits at 60 with no entry (orphan: adopts a); b is still open at the
	 * end (80); window [50, 70) */
	struct fx x;
	fx_init(&x);
	x.f.window = true;
	x.f.from = 50;
	x.f.to = 70;
	ev(&x, 'a', 0, 1);
	ev(&x, 'a', 55, 0);
	ev(&x, 'z', 60, 0);
	ev(&x, 'b', 65, 1);
	ev(&x, 'q', 80, 1);
	af_fold_finish(&x.f, &x.th);
	struct af_report r;
	af_report_build(&r, &x.p, AF_ROOT, NULL);
	INT_EQ(r.total, 15);
	const struct af_report_method *a = find(&r, 'a'), *z = find(&r, 'z'), *b = find(&r, 'b');
	OK(a && z && b && !find(&r, 'q'));
	if (a && z && b) {
		INT_EQ(a->inclusive, 5);
		INT_EQ(z->inclusive, 10);
		INT_EQ(b->inclusive, 5);
	}
	af_report_release(&r);
	fx_done(&x);
}
