/* ranges.c: address range sets as treaps in one pool (ranges.h). */
#include "ranges.h"
#include "core/idmap.h"
#include "core/util.h"

#include <stdlib.h>

void af_ranges_init(struct af_ranges *rs)
{
	*rs = (struct af_ranges){ 0 };
}

void af_ranges_release(struct af_ranges *rs)
{
	free(rs->r);
	af_ranges_init(rs);
}

static uint32_t new_range(struct af_ranges *rs, uint64_t start, uint64_t end, uint64_t pgoff, uint32_t value)
{
	af_grow(&rs->r, &rs->cap, rs->n + 1, sizeof *rs->r);
	/* a keyed hash of a counter: the file chooses no priority, so the
	 * tree is O(log n) deep in any insertion order */
	uint32_t prio = (uint32_t)af_hash64(rs->seq++);
	rs->r[rs->n] = (struct af_range){ start, end, pgoff, value, AF_NONE, AF_NONE, prio, AF_NONE };
	return (uint32_t)rs->n++;
}

/* t into the ranges starting before key (*l) and the others (*r). */
static void split(struct af_ranges *rs, uint32_t t, uint64_t key, uint32_t *l, uint32_t *r)
{
	while (t != AF_NONE) {
		if (rs->r[t].start < key) {
			*l = t;
			l = &rs->r[t].right;
			t = rs->r[t].right;
		} else {
			*r = t;
			r = &rs->r[t].left;
			t = rs->r[t].left;
		}
	}
	*l = *r = AF_NONE;
}

/* a and b (every range of a before every range of b) as one tree. */
static uint32_t merge(struct af_ranges *rs, uint32_t a, uint32_t b)
{
	uint32_t root = AF_NONE, *at = &root;
	while (a != AF_NONE && b != AF_NONE) {
		if (rs->r[a].prio > rs->r[b].prio) {
			*at = a;
			at = &rs->r[a].right;
			a = *at;
		} else {
			*at = b;
			at = &rs->r[b].left;
			b = *at;
		}
	}
	*at = a != AF_NONE ? a : b;
	return root;
}

static uint32_t last_of(const struct af_ranges *rs, uint32_t t)
{
	while (t != AF_NONE && rs->r[t].right != AF_NONE)
		t = rs->r[t].right;
	return t;
}

/* What is left of range k after end: a range of its own from end on. */
static uint32_t tail_of(struct af_ranges *rs, uint32_t k, uint64_t end)
{
	struct af_range old = rs->r[k];
	return new_range(rs, end, old.end, old.pgoff + (end - old.start), old.value);
}

void af_ranges_insert(struct af_ranges *rs, uint32_t *root, uint64_t start, uint64_t end, uint64_t pgoff,
		      uint32_t value)
{
	uint32_t l, mid, r, tail = AF_NONE;
	split(rs, *root, start, &l, &mid);
	split(rs, mid, end, &mid, &r);
	/* the last range before start may reach into the new one, even past it */
	uint32_t before = last_of(rs, l);
	if (before != AF_NONE && rs->r[before].end > start) {
		if (rs->r[before].end > end)
			tail = tail_of(rs, before, end);
		rs->r[before].end = start;
	}
	/* the ranges starting inside the new one go (their nodes stay in the
	 * pool, unused); the last of them may reach past its end */
	uint32_t inside = last_of(rs, mid);
	if (inside != AF_NONE && rs->r[inside].end > end)
		tail = tail_of(rs, inside, end);
	uint32_t k = new_range(rs, start, end, pgoff, value);
	*root = merge(rs, merge(rs, l, k), merge(rs, tail, r));
}

const struct af_range *af_ranges_find(const struct af_ranges *rs, uint32_t root, uint64_t addr)
{
	uint32_t best = AF_NONE;
	for (uint32_t t = root; t != AF_NONE;) {
		if (rs->r[t].start <= addr) {
			best = t;
			t = rs->r[t].right;
		} else {
			t = rs->r[t].left;
		}
	}
	return best != AF_NONE && addr < rs->r[best].end ? &rs->r[best] : NULL;
}

/* The set's nodes in address order, by an explicit stack; stops after
 * limit + 1 (then returns more than limit). */
static size_t in_order(const struct af_ranges *rs, uint32_t root, size_t limit, uint32_t **out, size_t *cap)
{
	uint32_t *stack = NULL;
	size_t sp = 0, cap_stack = 0, n = 0;
	uint32_t t = root;
	while ((t != AF_NONE || sp > 0) && n <= limit) {
		for (; t != AF_NONE; t = rs->r[t].left) {
			af_grow(&stack, &cap_stack, sp + 1, sizeof *stack);
			stack[sp++] = t;
		}
		t = stack[--sp];
		af_grow(out, cap, n + 1, sizeof **out);
		(*out)[n++] = t;
		t = rs->r[t].right;
	}
	free(stack);
	return n;
}

bool af_ranges_copy(struct af_ranges *rs, uint32_t root, size_t limit, uint32_t *copy, size_t *n)
{
	uint32_t *order = NULL;
	size_t cap = 0, k = in_order(rs, root, limit, &order, &cap), base = rs->n;
	if (k > limit) {
		free(order);
		*n = k;
		return false;
	}
	af_grow(&rs->r, &rs->cap, base + k, sizeof *rs->r);
	for (size_t j = 0; j < k; j++)
		rs->r[order[j]].copy = (uint32_t)(base + j);
	/* the same shape and priorities: the copy is a valid treap at once */
	for (size_t j = 0; j < k; j++) {
		struct af_range c = rs->r[order[j]];
		c.left = c.left != AF_NONE ? rs->r[c.left].copy : AF_NONE;
		c.right = c.right != AF_NONE ? rs->r[c.right].copy : AF_NONE;
		rs->r[base + j] = c;
	}
	rs->n = base + k;
	*copy = root != AF_NONE ? rs->r[root].copy : AF_NONE;
	*n = k;
	free(order);
	return true;
}

bool af_ranges_list(const struct af_ranges *rs, uint32_t root, size_t limit, struct af_range **out, size_t *cap,
		    size_t *n)
{
	uint32_t *order = NULL;
	size_t ocap = 0, k = in_order(rs, root, limit, &order, &ocap);
	if (k <= limit) {
		af_grow(out, cap, k ? k : 1, sizeof **out);
		for (size_t j = 0; j < k; j++)
			(*out)[j] = rs->r[order[j]];
	}
	*n = k;
	free(order);
	return k <= limit;
}
