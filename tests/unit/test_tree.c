/* test_tree.c: interning, child lookup, adoption, totals, deep trees. */
#include "harness.h"
#include "tree.h"

#include <stdlib.h>

static uint32_t child(struct af_tree *t, uint32_t parent, const char *name)
{
	return af_tree_child(t, parent, af_tree_intern_str(t, name));
}

void test_tree_intern(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t a = af_tree_intern_str(&t, "a.b.C.m");
	uint32_t b = af_tree_intern_str(&t, "a.b.C.n");
	INT_EQ(af_tree_intern(&t, "a.b.C.mX", 7), a);
	OK(a != b);
	STR_EQ(af_tree_name(&t, a), "a.b.C.m");
	INT_EQ(af_tree_intern_str(&t, "all"), 0);
	/* many names force the table to grow; every id stays stable */
	char buf[32];
	for (int i = 0; i < 20000; i++) {
		snprintf(buf, sizeof buf, "name%d", i);
		af_tree_intern_str(&t, buf);
	}
	INT_EQ(af_tree_intern_str(&t, "a.b.C.n"), b);
	STR_EQ(af_tree_name(&t, af_tree_intern_str(&t, "name19999")), "name19999");
	af_tree_release(&t);
}

void test_tree_children_merge(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t a = child(&t, AF_ROOT, "a");
	uint32_t b = child(&t, a, "b");
	INT_EQ(child(&t, AF_ROOT, "a"), a);
	INT_EQ(child(&t, a, "b"), b);
	OK(child(&t, AF_ROOT, "b") != b);       /* same name, other parent */
	uint32_t thread = af_tree_add_child(&t, AF_ROOT, af_tree_intern_str(&t, "a"));
	OK(thread != a);                         /* add_child is never merged */
	INT_EQ(child(&t, AF_ROOT, "a"), a);
	INT_EQ(af_tree_nchildren(&t, AF_ROOT), 3);
	af_tree_release(&t);
}

void test_tree_adopt(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t th = af_tree_add_child(&t, AF_ROOT, af_tree_intern_str(&t, "main (1)"));
	uint32_t x = child(&t, th, "x");
	uint32_t y = child(&t, th, "y");
	uint32_t m = child(&t, th, "m");
	uint32_t n = af_tree_adopt(&t, th, af_tree_intern_str(&t, "m"));
	INT_EQ(af_tree_nchildren(&t, th), 1);
	INT_EQ(af_tree_nchildren(&t, n), 3);
	INT_EQ(t.nodes[x].parent, n);
	INT_EQ(t.nodes[m].parent, n);
	/* lookups follow the move: th/m is now the new node, n/m the old one */
	INT_EQ(child(&t, th, "m"), n);
	INT_EQ(child(&t, n, "m"), m);
	INT_EQ(child(&t, n, "y"), y);
	INT_EQ(af_tree_nchildren(&t, th), 1);
	af_tree_release(&t);
}

void test_tree_totals_deep(void)
{
	/* a chain a million frames deep: totals and depth without recursion */
	struct af_tree t;
	af_tree_init(&t);
	uint32_t f = af_tree_intern_str(&t, "f");
	uint32_t n = AF_ROOT;
	for (int i = 0; i < 1000000; i++) {
		n = af_tree_child(&t, n, f);
		t.nodes[n].self = 1;
	}
	uint32_t g = child(&t, AF_ROOT, "g");
	t.nodes[g].self = 5;
	uint64_t *tot = af_tree_totals(&t);
	INT_EQ(tot[AF_ROOT], 1000005);
	INT_EQ(tot[1], 1000000);
	INT_EQ(tot[n], 1);
	INT_EQ(af_tree_max_depth(&t, AF_ROOT), 1000000);
	free(tot);
	af_tree_release(&t);
}

void test_tree_name_ranks(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t b = af_tree_intern_str(&t, "b");
	uint32_t a2 = af_tree_intern_str(&t, "a;");
	uint32_t a = af_tree_intern_str(&t, "a");
	uint32_t z = af_tree_intern_str(&t, "Z");
	const uint32_t *r = af_tree_name_ranks(&t);
	OK(r[z] < r[a]);      /* byte order: uppercase first */
	OK(r[a] < r[a2]);     /* a prefix sorts first */
	OK(r[a2] < r[b]);
	af_tree_release(&t);
}

void test_tree_long_names_cut(void)
{
	struct af_tree t;
	af_tree_init(&t);
	static char big[100000];
	memset(big, 'x', sizeof big);
	big[4092] = '\xc3';   /* a two-byte sequence straddling the cut at 4093 */
	big[4093] = '\xa9';
	uint32_t id = af_tree_intern(&t, big, sizeof big);
	INT_EQ(af_tree_name_len(&t, id), 4092 + 3);
	OK(memcmp(af_tree_name(&t, id) + 4092, "...", 3) == 0);
	/* the same long name interns to the same id */
	INT_EQ(af_tree_intern(&t, big, sizeof big), id);
	af_tree_release(&t);
}
