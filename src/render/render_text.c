/* render_text.c: folded stacks and the indented tree dump, straight from the
 * tree (every frame, however narrow), in depth-first order with siblings in
 * byte-wise name order, without recursion. */
#include "render.h"
#include "core/dumpsize.h"

#include <inttypes.h>

#include <stdlib.h>
#include <string.h>

struct visit {
	uint32_t rank;    /* sort key among siblings */
	uint32_t node;
	uint32_t depth;   /* 1 = a child of the root */
	size_t path_len;  /* folded: length of the path before this frame */
};

struct walker {
	struct af_tree *t;
	const uint8_t *excluded;
	const uint32_t *rank;
	struct visit *stack;
	size_t n, cap;
};

static int by_rank(const void *a, const void *b)
{
	const struct visit *x = a, *y = b;
	return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Push node's children so that they pop in name order. */
static void push_children(struct walker *w, uint32_t node, uint32_t depth, size_t path_len)
{
	size_t base = w->n;
	for (uint32_t c = w->t->nodes[node].first_child; c != AF_NONE; c = w->t->nodes[c].next_sibling) {
		if (w->excluded && w->excluded[c])
			continue;
		af_grow(&w->stack, &w->cap, w->n + 1, sizeof *w->stack);
		w->stack[w->n++] = (struct visit){ w->rank[w->t->nodes[c].name], c, depth, path_len };
	}
	size_t k = w->n - base;
	if (k > 1)   /* none: the stack may still be NULL */
		qsort(w->stack + base, k, sizeof *w->stack, by_rank);
	for (size_t i = base, j = w->n; i + 1 < j; i++, j--) {
		struct visit tmp = w->stack[i];
		w->stack[i] = w->stack[j - 1];
		w->stack[j - 1] = tmp;
	}
}

static void walker_init(struct walker *w, struct af_tree *t, const uint8_t *excluded)
{
	memset(w, 0, sizeof *w);
	w->t = t;
	w->excluded = excluded;
	w->rank = af_tree_name_ranks(t);
}


int af_write_folded(struct af_tree *t, uint32_t root, const uint8_t *excluded,
		    unsigned decimals, struct af_sink *out)
{
	struct walker w;
	walker_init(&w, t, excluded);
	struct af_buf path;
	af_buf_init(&path);
	push_children(&w, root, 1, 0);
	while (w.n) {
		struct visit v = w.stack[--w.n];
		const struct af_node *nd = &t->nodes[v.node];
		path.len = v.path_len;
		if (v.path_len)
			af_buf_putc(&path, ';');
		af_buf_add(&path, af_tree_name(t, nd->name), af_tree_name_len(t, nd->name));
		if (nd->self || nd->first_child == AF_NONE) {
			af_sink_write(out, path.data, path.len);
			af_sink_putc(out, ' ');
			af_sink_fixed_point(out, nd->self, decimals);
			af_sink_putc(out, '\n');
		}
		push_children(&w, v.node, v.depth + 1, path.len);
	}
	af_buf_release(&path);
	free(w.stack);
	return out->error ? -1 : 0;
}

int af_write_tree(struct af_tree *t, uint32_t root, const uint8_t *excluded,
		  unsigned decimals, struct af_sink *out)
{
	uint64_t *tot = af_tree_totals(t);
	struct walker w;
	walker_init(&w, t, excluded);
	push_children(&w, root, 1, 0);
	while (w.n) {
		struct visit v = w.stack[--w.n];
		const struct af_node *nd = &t->nodes[v.node];
		for (uint32_t i = 1; i < v.depth; i++)
			af_sink_write(out, "  ", 2);
		af_sink_write(out, af_tree_name(t, nd->name), af_tree_name_len(t, nd->name));
		af_sink_puts(out, " [");
		af_sink_fixed_point(out, tot[v.node], decimals);
		af_sink_puts(out, " total, ");
		af_sink_fixed_point(out, nd->self, decimals);
		af_sink_puts(out, " self]\n");
		push_children(&w, v.node, v.depth + 1, 0);
	}
	free(w.stack);
	free(tot);
	return out->error ? -1 : 0;
}

/* ---- their entries in the output table (render.h) ---- */

int af_output_too_large(struct af_diag *d, const char *what, uint64_t size, uint64_t max)
{
	bool tree = strcmp(what, "tree") == 0;
	return af_diag_error(d, "the %s output would take %" PRIu64 " bytes, more than --max-output-size "
			     "(%" PRIu64 "): each line %s; draw it as an SVG, or raise the limit", what, size, max,
			     tree ? "is indented by its depth" : "repeats its frame's callers");
}

static int write_folded(struct af_tree *t, uint32_t root, const uint8_t *excluded,
			const struct af_render_opts *o, struct af_sink *out, struct af_diag *d)
{
	uint64_t size = o->max_output ? af_folded_size(t, root, excluded, AF_NONE, o->decimals, false) : 0;
	if (size > o->max_output)
		return af_output_too_large(d, "folded", size, o->max_output);
	return af_write_folded(t, root, excluded, o->decimals, out);
}

static int write_tree(struct af_tree *t, uint32_t root, const uint8_t *excluded,
		      const struct af_render_opts *o, struct af_sink *out, struct af_diag *d)
{
	if (o->max_output) {
		uint64_t *tot = af_tree_totals(t);
		uint64_t size = af_tree_dump_size(t, root, excluded, tot, o->decimals);
		free(tot);
		if (size > o->max_output)
			return af_output_too_large(d, "tree", size, o->max_output);
	}
	return af_write_tree(t, root, excluded, o->decimals, out);
}

const struct af_backend af_backend_folded = {
	.format = AF_OUT_FOLDED, .name = "folded",
	.exts = (const char *const[]){ "folded", "txt", NULL }, .label = "folded",
	.diff = true, .write = write_folded,
};

/* .txt is folded's (listed first); a batch writes trees as .txt */
const struct af_backend af_backend_tree = {
	.format = AF_OUT_TREE, .name = "tree",
	.exts = (const char *const[]){ "txt", NULL }, .label = "tree",
	.write = write_tree,
};
