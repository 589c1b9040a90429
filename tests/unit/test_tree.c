/* test_tree.c: interning, child lookup, adoption, totals, deep trees. */
#include "harness.h"
#include "support.h"
#include "core/idmap.h"
#include "core/names.h"
#include "core/tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	/* totals when a parent (n) comes after its children in the array */
	uint32_t z = child(&t, x, "z");
	t.nodes[x].self = 1;
	t.nodes[y].self = 2;
	t.nodes[m].self = 4;
	t.nodes[n].self = 8;
	t.nodes[z].self = 16;
	uint64_t *tot = af_tree_totals(&t);
	INT_EQ(tot[x], 17);
	INT_EQ(tot[n], 31);
	INT_EQ(tot[th], 31);
	INT_EQ(tot[AF_ROOT], 31);
	free(tot);
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

void test_tree_sums_fit(void)
{
	/* three weights of 2^63 - 1: each fits, their sum wraps (issue 21) */
	struct af_tree t;
	af_tree_init(&t);
	uint32_t a = child(&t, AF_ROOT, "a");
	uint32_t b = af_tree_child(&t, a, af_tree_intern_str(&t, "b"));
	uint32_t c = af_tree_child(&t, a, af_tree_intern_str(&t, "c"));
	af_tree_add_self(&t, b, UINT64_MAX / 2);
	af_tree_add_self(&t, c, UINT64_MAX / 2);
	OK(af_tree_sums_fit(&t));   /* 2^64 - 2: the largest sum allowed */
	af_tree_add_self(&t, a, 1);
	OK(!af_tree_sums_fit(&t));  /* 2^64 - 1 at a: refused */
	t.nodes[a].self = 0;
	af_tree_add_self(&t, c, UINT64_MAX);   /* saturates, never wraps */
	INT_EQ(t.nodes[c].self, UINT64_MAX);
	OK(!af_tree_sums_fit(&t));
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

/* Names whose keyed hash under secret (a, b) has bits 14..19 clear: in any
 * name table of 16k..1M slots they all start in the first 16k slots, one
 * cluster that makes linear probing quadratic, as a file crafted against a
 * fixed hash would. */
static char *colliding_names(size_t n, size_t *stride)
{
	enum { W = 16 };
	char *names = malloc(n * W);
	af_hash_fix_secret(0x0123456789abcdefULL, 0xfedcba9876543210ULL);
	size_t got = 0;
	for (uint64_t k = 0; got < n; k++) {
		char buf[W];
		int len = snprintf(buf, sizeof buf, "f%llx", (unsigned long long)k);
		if ((af_hash_keyed_bytes(buf, (size_t)len) >> 14 & 63) == 0)
			memcpy(names + got++ * W, buf, W);
	}
	*stride = W;
	return names;
}

/* The mean number of slots a lookup of each name in t probes: 1 + its
 * distance from its home slot. Linear probing at the table's load (at most
 * a half) averages 1.5; one cluster makes it grow with the names. Counted,
 * not timed: a timed ratio failed when the shared machine was busy. */
static double name_probes(const struct af_tree *t)
{
	size_t mask = t->nname_slots - 1, sum = 0, n = 0;
	for (size_t i = 0; i < t->nname_slots; i++) {
		const struct af_name_slot *s = &t->name_slots[i];
		if (s->id == AF_NONE)
			continue;
		sum += ((i - (s->hash & mask)) & mask) + 1;
		n++;
	}
	return n ? (double)sum / (double)n : 0;
}

static double intern_probes(const char *names, size_t n, size_t stride)
{
	struct af_tree t;
	af_tree_init(&t);
	for (size_t i = 0; i < n; i++)
		af_tree_intern_str(&t, names + i * stride);
	INT_EQ(t.nnames, n + 1);
	double probes = name_probes(&t);
	af_tree_release(&t);
	return probes;
}

/* issue 21 item 6: keys built to collide under one secret spread under
 * another, so a lookup costs what it costs for plain names, at any count. */
void test_tree_hostile_names_linear(void)
{
	size_t stride, n = under_sanitizers() ? 100000 : 400000;
	char *names = colliding_names(n, &stride);
	/* they do collide under the secret they were built for */
	size_t clustered = 0;
	for (size_t i = 0; i < 1000; i++) {
		const char *s = names + i * stride;
		clustered += (af_hash_keyed_bytes(s, strlen(s)) >> 14 & 63) == 0;
	}
	INT_EQ(clustered, 1000);
	/* a process draws its own secret; any other one spreads them */
	af_hash_fix_secret(0x9e3779b97f4a7c15ULL, 0x6a09e667f3bcc909ULL);
	clustered = 0;
	for (size_t i = 0; i < 1000; i++) {
		const char *s = names + i * stride;
		clustered += (af_hash_keyed_bytes(s, strlen(s)) >> 14 & 63) == 0;
	}
	OK(clustered < 100);
	/* the same number of plain names ("f0", "f1", ...) */
	char *plain = malloc(n * stride);
	for (size_t i = 0; i < n; i++)
		snprintf(plain + i * stride, stride, "f%zx", i);
	/* One cluster of the 400k would average about 100k probes a name. */
	double small = intern_probes(names, n / 4, stride);
	double large = intern_probes(names, n, stride);
	double base = intern_probes(plain, n, stride);
	if (small >= 3 || large >= 3 || base >= 3)
		fprintf(stderr, "    probes a name: %zu crafted %.2f, %zu %.2f, plain %.2f\n",
			n / 4, small, n, large, base);
	OK(small < 3);
	OK(large < 3);
	OK(base < 3);
	free(plain);
	free(names);
}

/* ---- children by path (folded stacks) ---- */

/* The child of parent named s, whose own key is *key (parent's on entry). */
static uint32_t path(struct af_tree *t, uint32_t parent, uint64_t *key, const char *s)
{
	size_t len = strlen(s);
	uint64_t h = af_tree_name_hash(s, len);
	*key = af_tree_path_key(*key, h);
	return af_tree_path_child(t, parent, *key, s, len, h);
}

void test_tree_path_children(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint64_t ka = AF_PATH_ROOT_KEY, kb, k;
	uint32_t a = path(&t, AF_ROOT, &ka, "a");
	kb = ka;
	uint32_t b = path(&t, a, &kb, "b");
	k = AF_PATH_ROOT_KEY;
	INT_EQ(path(&t, AF_ROOT, &k, "a"), a);
	INT_EQ(k, ka);
	INT_EQ(path(&t, a, &k, "b"), b);
	k = AF_PATH_ROOT_KEY;
	OK(path(&t, AF_ROOT, &k, "b") != b);     /* same name, other parent */
	k = ka;
	uint32_t ab2 = path(&t, a, &k, "b2");
	OK(ab2 != b);
	/* a thread root in between: nodes made by path on both sides of it */
	uint32_t th = af_tree_add_child(&t, AF_ROOT, af_tree_intern_str(&t, "a"));
	k = kb;
	uint32_t c = path(&t, b, &k, "c");
	OK(th != a && c != th);
	INT_EQ(af_tree_name(&t, t.nodes[c].name)[0], 'c');
	INT_EQ(t.nodes[c].parent, b);
	/* the name table knows every frame made by path */
	INT_EQ(af_tree_intern_str(&t, "b2"), t.nodes[ab2].name);
	/* (parent, name) lookups find the frames made by path, on both sides
	 * of the thread root, and make no copies of them */
	size_t before = t.nnodes;
	INT_EQ(child(&t, AF_ROOT, "a"), a);
	INT_EQ(child(&t, a, "b"), b);
	INT_EQ(child(&t, b, "c"), c);
	INT_EQ(t.nnodes, before);
	/* and path lookups after that go through the same table */
	k = kb;
	INT_EQ(path(&t, b, &k, "c"), c);
	k = kb;
	uint32_t d = path(&t, b, &k, "d");
	INT_EQ(child(&t, b, "d"), d);
	INT_EQ(af_tree_nchildren(&t, AF_ROOT), 3);
	af_tree_release(&t);
}

/* A large reservation moves the names interned before it (their records,
 * table and bytes) into room made at once: every name keeps its id and
 * bytes, and names past the guess, and longer than a whole string block's
 * default, still intern. */
void test_tree_path_reserve_names(void)
{
	struct af_tree t;
	af_tree_init(&t);
	uint32_t before = af_tree_intern_str(&t, "before");
	uint64_t k = AF_PATH_ROOT_KEY;
	uint32_t a = path(&t, AF_ROOT, &k, "a");
	af_tree_path_reserve(&t, 4 * 65536);
	OK(t.cap_names >= 65536);
	INT_EQ(af_tree_intern_str(&t, "all"), 0);
	INT_EQ(af_tree_intern_str(&t, "before"), before);
	k = AF_PATH_ROOT_KEY;
	INT_EQ(path(&t, AF_ROOT, &k, "a"), a);
	enum { N = 150000 };   /* past the reserved 65536: the tables grow again */
	char name[32];
	uint32_t first = (uint32_t)t.nnames;
	for (unsigned i = 0; i < N; i++) {
		snprintf(name, sizeof name, "frame.%u", i);
		INT_EQ(af_tree_intern_str(&t, name), first + i);
	}
	char *big = malloc(AF_NAME_MAX);   /* a name of a string block's size */
	memset(big, 'x', AF_NAME_MAX);
	uint32_t bid = af_tree_intern(&t, big, AF_NAME_MAX);
	for (unsigned i = 0; i < N; i += 997) {
		snprintf(name, sizeof name, "frame.%u", i);
		STR_EQ(af_tree_name(&t, first + i), name);
		INT_EQ(af_tree_intern_str(&t, name), first + i);
	}
	INT_EQ(af_tree_name_len(&t, bid), AF_NAME_MAX);
	INT_EQ(af_tree_intern(&t, big, AF_NAME_MAX), bid);
	STR_EQ(af_tree_name(&t, before), "before");
	free(big);
	af_tree_release(&t);
}

/* Keys that collide, as frames crafted against a known secret would:
 * frames are told apart by their parent and bytes, never by the key. */
void test_tree_path_same_keys(void)
{
	struct af_tree t;
	af_tree_init(&t);
	const char *names[] = { "x", "y", "x;", "", "xy" };
	uint32_t got[2][5];
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 5; i++) {
			size_t len = strlen(names[i]);
			uint64_t h = af_tree_name_hash(names[i], len);
			got[round][i] = af_tree_path_child(&t, AF_ROOT, 42, names[i], len, h);
		}
		uint32_t under = af_tree_path_child(&t, got[0][0], 42, "x", 1, af_tree_name_hash("x", 1));
		OK(under != got[0][0]);
		INT_EQ(t.nodes[under].parent, got[0][0]);
	}
	for (int i = 0; i < 5; i++) {
		INT_EQ(got[1][i], got[0][i]);
		for (int j = 0; j < i; j++)
			OK(got[0][i] != got[0][j]);
	}
	INT_EQ(t.nnodes, 7);
	/* many frames on one key still find their own node */
	char buf[16];
	uint32_t first = 0;
	for (int round = 0; round < 2; round++) {
		int wrong = 0;
		for (int i = 0; i < 3000; i++) {
			int len = snprintf(buf, sizeof buf, "n%d", i);
			uint32_t n = af_tree_path_child(&t, AF_ROOT, 7, buf, (size_t)len,
							af_tree_name_hash(buf, (size_t)len));
			if (round == 0 && i == 0)
				first = n;
			wrong += n != first + (uint32_t)i;
		}
		INT_EQ(wrong, 0);
	}
	af_tree_release(&t);
}

/* Frames longer than AF_NAME_MAX are cut as af_tree_intern() cuts them:
 * two that agree up to the cut are one frame, by path as by name. */
void test_tree_path_long_names(void)
{
	struct af_tree t;
	af_tree_init(&t);
	static char big[2][10000];
	memset(big, 'q', sizeof big);
	big[1][9000] = 'r';
	uint64_t k0 = AF_PATH_ROOT_KEY, k1 = AF_PATH_ROOT_KEY;
	uint64_t h0 = af_tree_name_hash(big[0], sizeof big[0]), h1 = af_tree_name_hash(big[1], sizeof big[1]);
	INT_EQ(h0, h1);
	uint32_t a = af_tree_path_child(&t, AF_ROOT, k0 = af_tree_path_key(k0, h0), big[0], sizeof big[0], h0);
	uint32_t b = af_tree_path_child(&t, AF_ROOT, k1 = af_tree_path_key(k1, h1), big[1], sizeof big[1], h1);
	INT_EQ(a, b);
	INT_EQ(af_tree_name_len(&t, t.nodes[a].name), AF_NAME_MAX);
	INT_EQ(t.nodes[a].name, af_tree_intern(&t, big[1], sizeof big[1]));
	INT_EQ(child(&t, AF_ROOT, af_tree_name(&t, t.nodes[a].name)), a);
	af_tree_release(&t);
}

/* Frames of the root whose path key under secret (a, b) has bits 14..19
 * clear: one cluster in any path table of 16k..1M slots. */
static char *colliding_frames(size_t n, size_t *stride)
{
	enum { W = 16 };
	char *names = malloc(n * W);
	af_hash_fix_secret(0x0123456789abcdefULL, 0xfedcba9876543210ULL);
	size_t got = 0;
	for (uint64_t k = 0; got < n; k++) {
		char buf[W];
		int len = snprintf(buf, sizeof buf, "f%llx", (unsigned long long)k);
		uint64_t key = af_tree_path_key(AF_PATH_ROOT_KEY, af_tree_name_hash(buf, (size_t)len));
		if ((key >> 14 & 63) == 0)
			memcpy(names + got++ * W, buf, W);
	}
	*stride = W;
	return names;
}

/* As name_probes, for the path table (a slot's home is its key's low
 * bits). */
static double path_probes(const char *names, size_t n, size_t stride)
{
	struct af_tree t;
	af_tree_init(&t);
	for (size_t i = 0; i < n; i++) {
		uint64_t k = AF_PATH_ROOT_KEY;
		path(&t, AF_ROOT, &k, names + i * stride);
	}
	INT_EQ(t.nnodes, n + 1);
	size_t mask = t.npath_slots - 1, sum = 0, used = 0;
	for (size_t i = 0; i < t.npath_slots; i++) {
		const struct af_path_slot *c = &t.path_slots[i];
		if (c->node == 0)   /* the root is nobody's child: an empty slot */
			continue;
		sum += ((i - (c->key & mask)) & mask) + 1;
		used++;
	}
	INT_EQ(used, n);
	af_tree_release(&t);
	return (double)sum / (double)used;
}

/* issue 21 item 6 for folded frames: path keys built to collide under one
 * secret spread under another (as test_tree_hostile_names_linear). */
void test_tree_path_hostile_linear(void)
{
	size_t stride, n = under_sanitizers() ? 50000 : 200000;
	char *names = colliding_frames(n, &stride);
	af_hash_fix_secret(0x9e3779b97f4a7c15ULL, 0x6a09e667f3bcc909ULL);
	size_t clustered = 0;
	for (size_t i = 0; i < 1000; i++) {
		const char *s = names + i * stride;
		uint64_t key = af_tree_path_key(AF_PATH_ROOT_KEY, af_tree_name_hash(s, strlen(s)));
		clustered += (key >> 14 & 63) == 0;
	}
	OK(clustered < 100);
	double small = path_probes(names, n / 4, stride);
	double large = path_probes(names, n, stride);
	if (small >= 3 || large >= 3)
		fprintf(stderr, "    probes a frame: %zu %.2f, %zu %.2f\n", n / 4, small, n, large);
	OK(small < 3);
	OK(large < 3);
	free(names);
}
