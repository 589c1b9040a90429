/* test_fold.c: the stack rules of docs/semantics.md, one test per rule. */
#include "core/fold.h"
#include "harness.h"
#include "support.h"

#include <stdlib.h>

struct fx {
	struct af_tree t;
	struct af_fold f;
	struct af_fold_thread th;
};

static void fx_init(struct fx *x)
{
	af_tree_init(&x->t);
	x->f = (struct af_fold){ .tree = &x->t };
	uint32_t root = af_tree_add_child(&x->t, AF_ROOT, af_tree_intern_str(&x->t, "T"));
	af_fold_thread_init(&x->th, root);
}

/* Methods are single letters; their key is the letter. */
static void enter(struct fx *x, char m, uint64_t t)
{
	af_fold_enter(&x->f, &x->th, (uint32_t)m, af_tree_intern(&x->t, &m, 1), t);
}

static void leave(struct fx *x, char m, uint64_t t)
{
	af_fold_exit(&x->f, &x->th, (uint32_t)m, af_tree_intern(&x->t, &m, 1), t);
}

static void check(struct fx *x, const char *want)
{
	af_fold_finish(&x->f, &x->th);
	af_fold_release(&x->f);
	char *got = folded_below(&x->t, x->th.root);
	STR_EQ(got, want);
	free(got);
	af_tree_release(&x->t);
}

void test_fold_self_times(void)
{
	struct fx x;
	fx_init(&x);
	enter(&x, 'a', 0);
	enter(&x, 'b', 10);
	leave(&x, 'b', 30);
	enter(&x, 'b', 40);   /* a second call merges into the same frame */
	leave(&x, 'b', 45);
	leave(&x, 'a', 100);
	check(&x, "a 75\na;b 25\n");
}

void test_fold_zero_duration_kept(void)
{
	struct fx x;
	fx_init(&x);
	enter(&x, 'a', 5);
	enter(&x, 'z', 7);
	leave(&x, 'z', 7);
	leave(&x, 'a', 9);
	check(&x, "a 4\na;z 0\n");
}

void test_fold_orphan_exit_adopts_earlier_calls(void)
{
	/* b and c ran at top level, then m (entered before tracing) exits:
	 * m becomes their caller, from the thread's first event */
	struct fx x;
	fx_init(&x);
	enter(&x, 'b', 10);
	leave(&x, 'b', 20);
	enter(&x, 'c', 25);
	leave(&x, 'c', 30);
	leave(&x, 'm', 40);
	enter(&x, 'd', 50);
	leave(&x, 'd', 55);
	check(&x, "d 5\nm 15\nm;b 10\nm;c 5\n");
	INT_EQ(x.f.stats.orphan_exits, 1);
}

void test_fold_orphan_exits_nest(void)
{
	/* perflib basic.trace: two wrappers exit after their callee */
	struct fx x;
	fx_init(&x);
	enter(&x, 'v', 2);
	leave(&x, 'v', 3);
	leave(&x, 's', 5);
	leave(&x, 'S', 8);
	check(&x, "S 3\nS;s 2\nS;s;v 1\n");
	INT_EQ(x.f.stats.orphan_exits, 2);
}

void test_fold_orphan_exit_closes_open_frames(void)
{
	struct fx x;
	fx_init(&x);
	enter(&x, 'a', 0);
	enter(&x, 'b', 10);
	leave(&x, 'm', 20);   /* m is not on the stack: a and b close at 20 */
	check(&x, "m;a 10\nm;a;b 10\n");
}

void test_fold_mismatched_exit_closes_above(void)
{
	struct fx x;
	fx_init(&x);
	enter(&x, 'a', 0);
	enter(&x, 'b', 10);
	enter(&x, 'c', 20);
	leave(&x, 'a', 50);   /* a exits while b and c are open: both close at 50 */
	check(&x, "a 10\na;b 10\na;b;c 30\n");
	INT_EQ(x.f.stats.mismatched_exits, 1);
	INT_EQ(x.f.stats.orphan_exits, 0);
}

void test_fold_open_frames_closed_at_last_event(void)
{
	struct fx x;
	fx_init(&x);
	enter(&x, 'a', 0);
	enter(&x, 'b', 10);
	enter(&x, 'c', 20);
	leave(&x, 'c', 35);
	check(&x, "a 10\na;b 10\na;b;c 15\n");
	INT_EQ(x.f.stats.closed_at_end, 2);
}

void test_fold_time_backwards_clamped(void)
{
	struct fx x;
	fx_init(&x);
	enter(&x, 'a', 100);
	leave(&x, 'a', 90);
	check(&x, "a 0\n");
	INT_EQ(x.f.stats.time_backwards, 1);
}

void test_fold_recursion(void)
{
	struct fx x;
	fx_init(&x);
	enter(&x, 'a', 0);
	enter(&x, 'a', 10);
	leave(&x, 'a', 20);
	leave(&x, 'a', 40);
	check(&x, "a 30\na;a 10\n");
}

void test_fold_timeline_keeps_each_call(void)
{
	struct fx x;
	fx_init(&x);
	x.f.timeline = true;
	enter(&x, 'a', 100);
	leave(&x, 'a', 110);
	enter(&x, 'a', 150);
	leave(&x, 'a', 170);
	af_fold_finish(&x.f, &x.th);
	af_fold_release(&x.f);
	INT_EQ(af_tree_nchildren(&x.t, x.th.root), 2);
	uint32_t second = x.t.nodes[x.th.root].first_child;   /* newest first */
	uint32_t first = x.t.nodes[second].next_sibling;
	/* without a window a start is the call's time: the layout measures
	 * it from the chart's earliest frame, which may be another thread's */
	INT_EQ(af_tree_start(&x.t, first), 100);
	INT_EQ(af_tree_start(&x.t, second), 150);
	INT_EQ(x.t.nodes[first].self, 10);
	INT_EQ(x.t.nodes[second].self, 20);
	af_tree_release(&x.t);
}

void test_fold_calls_counted(void)
{
	struct fx x;
	fx_init(&x);
	OK(!af_tree_has_calls(&x.t));
	enter(&x, 'a', 0);
	enter(&x, 'b', 10);
	leave(&x, 'b', 20);
	enter(&x, 'b', 30);   /* the same node: two calls */
	leave(&x, 'b', 40);
	enter(&x, 'c', 50);   /* still open at the end: closed there, one call */
	af_fold_finish(&x.f, &x.th);
	af_fold_release(&x.f);
	OK(af_tree_has_calls(&x.t));
	uint32_t a = x.t.nodes[x.th.root].first_child;
	uint32_t c = x.t.nodes[a].first_child, b = x.t.nodes[c].next_sibling;   /* newest first */
	STR_EQ(af_tree_name(&x.t, x.t.nodes[b].name), "b");
	INT_EQ(af_tree_calls(&x.t, a), 1);
	INT_EQ(af_tree_calls(&x.t, b), 2);
	INT_EQ(af_tree_calls(&x.t, c), 1);
	INT_EQ(af_tree_calls(&x.t, x.th.root), 0);
	af_tree_release(&x.t);
}

/* The fold's hints (the callees met last after a call, or first below a
 * frame) must only ever pick the right child: callers p and q call x, y
 * and z in a scrambled order, each call 1 long, so each frame's self time
 * and calls are how often that (caller, callee) pair ran. */
void test_fold_hints_pick_the_right_child(void)
{
	struct fx x;
	fx_init(&x);
	uint64_t want[2][3] = { { 0 } }, t = 0, r = 12345;
	for (int i = 0; i < 400; i++) {
		int p = i % 7 < 4 ? 0 : 1;
		enter(&x, "pq"[p], t);
		for (int k = 0; k < 1 + i % 3; k++) {
			r = r * 6364136223846793005ULL + 1442695040888963407ULL;
			int c = (int)(r >> 61) % 3;
			enter(&x, "xyz"[c], t);
			leave(&x, "xyz"[c], ++t);
			want[p][c]++;
		}
		leave(&x, "pq"[p], t);
	}
	af_fold_finish(&x.f, &x.th);
	af_fold_release(&x.f);
	INT_EQ(af_tree_nchildren(&x.t, x.th.root), 2);
	for (uint32_t pn = x.t.nodes[x.th.root].first_child; pn != AF_NONE; pn = x.t.nodes[pn].next_sibling) {
		int p = af_tree_name(&x.t, x.t.nodes[pn].name)[0] == 'q';
		INT_EQ(af_tree_nchildren(&x.t, pn), 3);
		for (uint32_t cn = x.t.nodes[pn].first_child; cn != AF_NONE; cn = x.t.nodes[cn].next_sibling) {
			int c = af_tree_name(&x.t, x.t.nodes[cn].name)[0] - 'x';
			INT_EQ(x.t.nodes[cn].self, want[p][c]);
			INT_EQ(af_tree_calls(&x.t, cn), want[p][c]);
		}
	}
	af_tree_release(&x.t);
}
