/* dumpsize.c: the length of folded and tree dumps before they are written
 * (dumpsize.h). A pre-order walk with an explicit stack, each frame's line
 * length from its parent's path length (folded) or its depth (tree). */
#include "dumpsize.h"
#include "buf.h"
#include "util.h"

#include <stdlib.h>

struct at { uint32_t node; uint64_t len; };   /* len: path bytes, or depth */

static uint64_t add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t number_len(uint64_t v, unsigned decimals)
{
	char b[AF_FIXED_POINT_MAX];
	return af_fixed_point(b, v, decimals);
}

/* Visit every drawn node below root with fn(ctx, node, len), len being the
 * parent's len passed through step(). */
typedef uint64_t line_fn(void *ctx, uint32_t node, uint64_t len, uint64_t *next);

static uint64_t walk(const struct af_tree *t, uint32_t root, const uint8_t *excluded, uint32_t skip,
		     line_fn *fn, void *ctx)
{
	struct at *stack = NULL;
	size_t n = 0, cap = 0;
	uint64_t sum = 0;
	af_grow(&stack, &cap, 1, sizeof *stack);
	stack[n++] = (struct at){ root, 0 };
	while (n) {
		struct at a = stack[--n];
		uint64_t next = a.len;
		if (a.node != root)
			sum = add(sum, fn(ctx, a.node, a.len, &next));
		for (uint32_t c = t->nodes[a.node].first_child; c != AF_NONE; c = t->nodes[c].next_sibling) {
			if (c == skip || (excluded && excluded[c]))
				continue;
			af_grow(&stack, &cap, n + 1, sizeof *stack);
			stack[n++] = (struct at){ c, next };
		}
	}
	free(stack);
	return sum;
}

struct folded_ctx { const struct af_tree *t; unsigned decimals; bool two; };

static uint64_t folded_line(void *ctx, uint32_t v, uint64_t parent_len, uint64_t *next)
{
	const struct folded_ctx *c = ctx;
	const struct af_node *nd = &c->t->nodes[v];
	uint64_t path = add(parent_len + (parent_len != 0), af_tree_name_len(c->t, nd->name));
	*next = path;
	uint64_t before = c->two ? af_tree_before(c->t, v) : 0;
	bool line = c->two ? before || nd->self : nd->self || nd->first_child == AF_NONE;
	if (!line)
		return 0;
	uint64_t n = add(path, 2 + number_len(nd->self, c->decimals));
	return c->two ? add(n, 1 + number_len(before, c->decimals)) : n;
}

uint64_t af_folded_size(const struct af_tree *t, uint32_t root, const uint8_t *excluded, uint32_t skip,
			unsigned decimals, bool two_counts)
{
	struct folded_ctx c = { t, decimals, two_counts };
	return walk(t, root, excluded, skip, folded_line, &c);
}

struct tree_ctx { const struct af_tree *t; const uint64_t *tot; unsigned decimals; };

static uint64_t tree_line(void *ctx, uint32_t v, uint64_t depth, uint64_t *next)
{
	const struct tree_ctx *c = ctx;
	const struct af_node *nd = &c->t->nodes[v];
	*next = depth + 1;
	/* "  " * depth, name, " [", total, " total, ", self, " self]\n" */
	uint64_t n = add(2 * depth, af_tree_name_len(c->t, nd->name));
	return add(n, 2 + number_len(c->tot[v], c->decimals) + 8 + number_len(nd->self, c->decimals) + 7);
}

uint64_t af_tree_dump_size(const struct af_tree *t, uint32_t root, const uint8_t *excluded,
			   const uint64_t *tot, unsigned decimals)
{
	struct tree_ctx c = { t, tot, decimals };
	return walk(t, root, excluded, AF_NONE, tree_line, &c);
}
