/* test_merge.c: several captures as one profile (core/merge.c): threads
 * matched by name whatever their ids, frames below them by name, weights
 * and calls summed, unmatched threads added; the average exact when it
 * divides, else with two more decimals; what is refused. */
#include "harness.h"
#include "support.h"
#include "core/merge.h"

#include <stdlib.h>
#include <string.h>

/* A thread "name (tid)" below the root with one frame of weight w. */
static uint32_t thread(struct af_profile *p, uint64_t tid, const char *name,
		   const char *frame, uint64_t w)
{
	char label[64];
	snprintf(label, sizeof label, "%s (%llu)", name, (unsigned long long)tid);
	size_t k = af_profile_add_thread(p, tid, name, strlen(name));
	uint32_t n = af_tree_add_child(&p->tree, AF_ROOT, af_tree_intern_str(&p->tree, label));
	p->threads[k].node = n;
	p->threads[k].events = 1;
	uint32_t f = af_tree_child(&p->tree, n, af_tree_intern_str(&p->tree, frame));
	af_tree_add_self(&p->tree, f, w);
	af_tree_add_calls(&p->tree, f, 2);
	return n;
}

void test_merge_threads_by_name(void)
{
	struct af_profile a, b;
	struct af_diag d;
	af_profile_init(&a);
	af_profile_init(&b);
	af_diag_init(&d, "b");
	thread(&a, 1, "main", "f", 10);
	thread(&a, 2, "bg", "f", 4);
	uint32_t m = thread(&b, 7, "main", "f", 5);   /* another run: another tid */
	af_tree_add_self(&b.tree, af_tree_child(&b.tree, m, af_tree_intern_str(&b.tree, "g")), 3);
	thread(&b, 9, "new", "h", 1);
	INT_EQ(af_profile_merge(&a, &b, &d), 0);
	char *got = folded_below(&a.tree, AF_ROOT);
	STR_EQ(got, "bg (2);f 4\nmain (1);f 15\nmain (1);g 3\nnew (9);h 1\n");
	free(got);
	INT_EQ(a.nthreads, 3);
	STR_EQ(a.threads[2].name, "new");
	INT_EQ(a.threads[0].events, 2);   /* main: one event in each */
	INT_EQ(a.captures, 2);
	uint32_t f = af_tree_child(&a.tree, a.threads[0].node, af_tree_intern_str(&a.tree, "f"));
	INT_EQ(af_tree_calls(&a.tree, f), 4);
	/* averaged over 2: 15 does not divide, so two more decimals */
	INT_EQ(af_profile_average(&a, 2, &d), 0);
	INT_EQ(a.decimals, 2);
	got = folded_below(&a.tree, AF_ROOT);
	STR_EQ(got, "bg (2);f 200\nmain (1);f 750\nmain (1);g 150\nnew (9);h 50\n");
	free(got);
	OK(a.averaged);
	af_profile_release(&a);
	af_profile_release(&b);
}

void test_merge_average_exact_and_refusals(void)
{
	struct af_profile a, b;
	struct af_diag d;
	af_profile_init(&a);
	af_profile_init(&b);
	af_diag_init(&d, "b");
	thread(&a, 1, "main", "f", 10);
	thread(&b, 1, "main", "f", 10);
	INT_EQ(af_profile_merge(&a, &b, &d), 0);
	INT_EQ(af_profile_average(&a, 2, &d), 0);
	INT_EQ(a.decimals, 0);            /* 20 / 2: exact, no decimals added */
	char *got = folded_below(&a.tree, AF_ROOT);
	STR_EQ(got, "main (1);f 10\n");
	free(got);
	b.unit = "bytes";                 /* captures of another kind */
	OK(af_profile_merge(&a, &b, &d) < 0);
	b.unit = a.unit;
	af_tree_set_start(&b.tree, AF_ROOT, 0);   /* a flame chart */
	OK(af_profile_merge(&a, &b, &d) < 0);
	af_profile_release(&a);
	af_profile_release(&b);
}
