/* test_transform.c: each transform on small trees, their order, before
 * weights, thread roots, and a stack too deep for recursion. */
#include "harness.h"
#include "support.h"
#include "core/transform.h"

#include <stdlib.h>
#include <string.h>

/* Read folded text, apply the transforms, return the folded result. */
static char *run(const char *text, struct af_transforms *t)
{
	struct read_result r;
	read_input(&r, text, strlen(text), "t.folded", NULL, NULL);
	OK(r.rc == 0);
	uint8_t *excluded = NULL;
	uint32_t root = AF_ROOT;
	af_transforms_apply(t, &r.p, &excluded, &root);
	char *out = folded_skipping(&r.p.tree, root, excluded);
	free(excluded);
	read_result_release(&r);
	af_transforms_release(t);
	return out;
}

static char *run_re(const char *text, enum af_tx_re which, const char *re)
{
	struct af_transforms t;
	char err[128];
	af_transforms_init(&t);
	OK(af_transforms_set(&t, which, re, err, sizeof err) == 0);
	return run(text, &t);
}

#define EXPECT(got_expr, want) do { \
	char *got_ = (got_expr); \
	STR_EQ(got_, want); \
	free(got_); \
} while (0)

void test_transform_root(void)
{
	EXPECT(run_re("main;a;b;c 3\nmain;y;b;c 5\n", AF_TX_ROOT, "^b$"), "b;c 8\n");
	/* the outermost match; stacks without one are dropped */
	EXPECT(run_re("m;b;x;b;c 2\nm;z 9\n", AF_TX_ROOT, "^b$"), "b;x;b;c 2\n");
}

void test_transform_hide(void)
{
	EXPECT(run_re("main;a;b;c 1\n", AF_TX_HIDE, "^a$"), "main;b;c 1\n");
	/* a hidden leaf's weight goes to its caller; the total is kept */
	EXPECT(run_re("main;a 4\nmain;b;a 1\n", AF_TX_HIDE, "^a$"), "main 4\nmain;b 1\n");
}

void test_transform_collapse(void)
{
	struct af_transforms t;
	af_transforms_init(&t);
	t.collapse = true;
	EXPECT(run("r;r;r;z 1\nr;x;r 2\n", &t), "r;x;r 2\nr;z 1\n");
}

void test_transform_include_exclude(void)
{
	const char *in = "m;a;b 1\nm;c 2\nm;a 4\n";
	EXPECT(run_re(in, AF_TX_INCLUDE, "^a$"), "m;a 4\nm;a;b 1\n");
	EXPECT(run_re(in, AF_TX_EXCLUDE, "^b$"), "m;a 4\nm;c 2\n");
	/* a regex matching nothing: include keeps nothing, exclude everything */
	EXPECT(run_re(in, AF_TX_INCLUDE, "^nothing$"), "");
	EXPECT(run_re(in, AF_TX_EXCLUDE, "^nothing$"), "m;a 4\nm;a;b 1\nm;c 2\n");
}

void test_transform_idle(void)
{
	struct af_transforms t;
	af_transforms_init(&t);
	af_transforms_set_idle(&t);
	EXPECT(run("m;l;android.os.MessageQueue.nativePollOnce 5\nm;w;java.lang.Object.wait 3\n"
		   "m;k;epoll_wait 2\nm;work 1\nm;Object.waitFor 6\nm;epoll_wait;work 7\n", &t),
	       "m;Object.waitFor 6\nm;epoll_wait;work 7\nm;work 1\n");
}

/* Every transform at once: the documented order decides the result. */
void test_transform_order(void)
{
	struct af_transforms t;
	char err[128];
	af_transforms_init(&t);
	OK(af_transforms_set(&t, AF_TX_EXCLUDE, "^skip$", err, sizeof err) == 0);
	OK(af_transforms_set(&t, AF_TX_ROOT, "^r$", err, sizeof err) == 0);
	OK(af_transforms_set(&t, AF_TX_HIDE, "^h$", err, sizeof err) == 0);
	t.collapse = true;
	/* hiding h makes r;r adjacent, which collapse then merges; the root
	 * frame itself matched before hide ran */
	EXPECT(run("m;r;h;r;x 2\nm;r;skip;x 5\nm;q 1\n", &t), "r;x 2\n");
	struct af_buf b;
	af_buf_init(&b);
	af_transforms_init(&t);
	af_transforms_set(&t, AF_TX_HIDE, "h", err, sizeof err);
	af_transforms_set(&t, AF_TX_INCLUDE, "i", err, sizeof err);
	t.merge_threads = t.collapse = true;
	af_transforms_describe(&t, &b);
	af_buf_putc(&b, 0);
	STR_EQ(b.data, "merge-threads, include 'i', hide 'h', collapse-recursion");
	af_buf_release(&b);
	af_transforms_release(&t);
}

void test_transform_bad_regex(void)
{
	struct af_transforms t;
	char err[128] = "";
	af_transforms_init(&t);
	OK(af_transforms_set(&t, AF_TX_ROOT, "(", err, sizeof err) < 0);
	OK(err[0] != 0);
	OK(!af_transforms_any(&t));
	af_transforms_release(&t);
}

/* Before weights follow their frames; the before total is kept too. */
void test_transform_before_kept(void)
{
	struct af_transforms t;
	char err[128];
	struct read_result r;
	const char *text = "m;a;b 3 5\nm;a;a 4 1\nm;z 0 2\n";
	read_input(&r, text, strlen(text), "t.folded", NULL, NULL);
	af_transforms_init(&t);
	af_transforms_set(&t, AF_TX_HIDE, "^b$", err, sizeof err);
	t.collapse = true;
	uint8_t *excluded = NULL;
	uint32_t root = AF_ROOT;
	af_transforms_apply(&t, &r.p, &excluded, &root);
	uint64_t before = 0, after = 0;
	for (uint32_t i = 0; i < r.p.tree.nnodes; i++) {
		before += af_tree_before(&r.p.tree, i);
		after += r.p.tree.nodes[i].self;
	}
	INT_EQ(before, 7);
	INT_EQ(after, 8);
	uint32_t m = af_tree_child(&r.p.tree, AF_ROOT, af_tree_intern_str(&r.p.tree, "m"));
	uint32_t a = af_tree_child(&r.p.tree, m, af_tree_intern_str(&r.p.tree, "a"));
	INT_EQ(af_tree_before(&r.p.tree, a), 7);   /* b's 3 and the inner a's 4 */
	INT_EQ(r.p.tree.nodes[a].self, 6);
	free(excluded);
	read_result_release(&r);
	af_transforms_release(&t);
}

/* Two threads: kept apart, or merged into one graph with no thread roots. */
void test_transform_threads(void)
{
	struct af_profile p;
	af_profile_init(&p);
	struct af_tree *t = &p.tree;
	for (int i = 0; i < 2; i++) {
		size_t th = af_profile_add_thread(&p, (uint64_t)i + 1, i ? "two" : "one", 3);
		p.threads[th].node = af_tree_add_child(t, AF_ROOT, af_tree_intern_str(t, i ? "two (2)" : "one (1)"));
		uint32_t a = af_tree_child(t, p.threads[th].node, af_tree_intern_str(t, "a"));
		t->nodes[af_tree_child(t, a, af_tree_intern_str(t, "b"))].self = (uint64_t)i + 1;
	}
	struct af_transforms tx;
	af_transforms_init(&tx);
	tx.merge_threads = true;
	uint8_t *excluded = af_xcalloc(t->nnodes, 1);
	uint32_t root = p.threads[1].node;   /* as if -t two had been given */
	excluded[p.threads[0].node] = 1;
	af_transforms_apply(&tx, &p, &excluded, &root);
	INT_EQ(root, AF_ROOT);
	EXPECT(folded_skipping(&p.tree, root, excluded), "a;b 2\n");
	free(excluded);
	af_profile_release(&p);
	af_transforms_release(&tx);
}

/* A million frames deep: no recursion, exact total. */
void test_transform_deep(void)
{
	struct af_profile p;
	af_profile_init(&p);
	struct af_tree *t = &p.tree;
	uint32_t r = af_tree_intern_str(t, "r"), h = af_tree_intern_str(t, "h");
	uint32_t n = AF_ROOT;
	for (int i = 0; i < 1000000; i++)
		n = af_tree_child(t, n, i % 3 == 2 ? h : r);
	t->nodes[n].self = 7;
	struct af_transforms tx;
	char err[128];
	af_transforms_init(&tx);
	af_transforms_set(&tx, AF_TX_HIDE, "^h$", err, sizeof err);
	tx.collapse = true;
	uint8_t *excluded = NULL;
	uint32_t root = AF_ROOT;
	af_transforms_apply(&tx, &p, &excluded, &root);
	EXPECT(folded_skipping(&p.tree, root, excluded), "r 7\n");
	free(excluded);
	af_profile_release(&p);
	af_transforms_release(&tx);
}
