/* diff.c: merge the first run's call tree into the second's (diff.h).
 *
 * One walk over the first run's selected subtree, paired with the second
 * run's nodes: thread and process nodes are paired by name (occurrence by
 * occurrence, merge.h), every other node by name below its paired parent, created in
 * the second tree when missing. Then one walk over the merged subtree finds
 * the outermost nodes with before weight but no after weight and copies
 * each, below copies of its callers, into the removed band. No recursion:
 * real stacks are thousands of frames deep.
 */
#include "diff.h"
#include "buf.h"
#include "layout.h"
#include "merge.h"
#include "output.h"
#include "report.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int af_diff_match_decimals(struct af_profile *before, struct af_profile *after,
			   struct af_diag *d)
{
	return af_profile_match_decimals(before, after, d);
}

/* ---- merging ---- */

struct pair { uint32_t first, second; };

static int merge(struct af_tree *t2, uint32_t root2, const struct af_tree *t1, uint32_t root1,
		 const uint8_t *excl1, const uint32_t *map)
{
	struct pair *stack = NULL;
	size_t n = 0, cap = 0;
	af_tree_add_before(t2, root2, t1->nodes[root1].self);
	af_grow(&stack, &cap, 1, sizeof *stack);
	stack[n++] = (struct pair){ root1, root2 };
	while (n) {
		struct pair p = stack[--n];
		for (uint32_t c = t1->nodes[p.first].first_child; c != AF_NONE; c = t1->nodes[c].next_sibling) {
			if (excl1 && excl1[c])
				continue;
			const struct af_node *nd = &t1->nodes[c];
			uint32_t name = af_tree_intern(t2, af_tree_name(t1, nd->name),
						       af_tree_name_len(t1, nd->name));
			uint32_t c2 = map[c] == AF_NONE ? af_tree_child(t2, p.second, name)
				    : map[c] == AF_PAIR_UNMATCHED ? af_tree_add_child(t2, p.second, name) : map[c];
			if (af_tree_before(t2, c2) > UINT64_MAX - nd->self) {
				free(stack);
				return -1;
			}
			af_tree_add_before(t2, c2, nd->self);
			af_grow(&stack, &cap, n + 1, sizeof *stack);
			stack[n++] = (struct pair){ c, c2 };
		}
	}
	free(stack);
	return 0;
}

/* ---- the merged subtree: order, totals ---- */

struct walk {
	uint32_t *order;          /* pre-order from the root, drawn nodes only */
	size_t n;
	uint64_t *after, *before; /* inclusive, per node (nodes not drawn: 0) */
};

static void walk_build(struct walk *w, const struct af_tree *t, uint32_t root, const uint8_t *excl)
{
	size_t cap = 0, nstack = 0, cap_stack = 0;
	uint32_t *stack = NULL;
	w->order = NULL;
	w->n = 0;
	w->after = af_xcalloc(t->nnodes, sizeof *w->after);
	w->before = af_xcalloc(t->nnodes, sizeof *w->before);
	af_grow(&stack, &cap_stack, 1, sizeof *stack);
	stack[nstack++] = root;
	while (nstack) {
		uint32_t v = stack[--nstack];
		af_grow(&w->order, &cap, w->n + 1, sizeof *w->order);
		w->order[w->n++] = v;
		w->after[v] = t->nodes[v].self;
		w->before[v] = af_tree_before(t, v);
		for (uint32_t c = t->nodes[v].first_child; c != AF_NONE; c = t->nodes[c].next_sibling) {
			if (excl && excl[c])
				continue;
			af_grow(&stack, &cap_stack, nstack + 1, sizeof *stack);
			stack[nstack++] = c;
		}
	}
	free(stack);
	/* children follow their parent in pre-order: sum back to front */
	for (size_t i = w->n; i-- > 1;) {
		uint32_t v = w->order[i], p = t->nodes[v].parent;
		w->after[p] += w->after[v];
		w->before[p] += w->before[v];
	}
}

static void walk_release(struct walk *w)
{
	free(w->order);
	free(w->after);
	free(w->before);
}

/* difffolded.pl -n: before weights times after/before, rounded down per
 * stack (exact integers, where difffolded.pl uses floating point). */
static void normalize(struct af_tree *t, const struct walk *w, uint64_t from, uint64_t to)
{
	for (size_t i = 0; i < w->n; i++) {
		uint32_t v = w->order[i];
		uint64_t b = af_tree_before(t, v);
		if (b)
			t->before[v] = (uint64_t)((unsigned __int128)b * to / from);
	}
}

/* ---- the removed band ---- */

static void set_kind(struct af_diff *df, uint32_t node, uint8_t kind)
{
	if (node >= df->nkinds) {
		size_t old = df->nkinds;
		af_grow(&df->kinds, &df->nkinds, (size_t)node + 1, 1);
		memset(df->kinds + old, 0, df->nkinds - old);
	}
	df->kinds[node] = kind;
}

/* Copy the callers of r (below root, outermost first) into the band as
 * context; returns the copy of r's parent. copy_of[v] is v's copy once
 * made: the walk up stops at the first caller already copied, so every
 * caller is walked and copied once however many removed calls it has (a
 * walk to the root for each was quadratic: 40k removed leaves below a 40k
 * deep stack took 73 s). */
static uint32_t copy_callers(struct af_diff *df, struct af_tree *t, uint32_t root, uint32_t r,
			     uint32_t *copy_of)
{
	uint32_t *path = NULL;
	size_t n = 0, cap = 0;
	uint32_t a = t->nodes[r].parent;
	for (; a != root && copy_of[a] == AF_NONE; a = t->nodes[a].parent) {
		af_grow(&path, &cap, n + 1, sizeof *path);
		path[n++] = a;
	}
	uint32_t copy = a == root ? df->band : copy_of[a];
	while (n--) {
		copy = af_tree_child(t, copy, t->nodes[path[n]].name);
		copy_of[path[n]] = copy;
		if (copy >= df->nkinds || df->kinds[copy] != AF_FRAME_REMOVED)
			set_kind(df, copy, AF_FRAME_CONTEXT);
	}
	free(path);
	return copy;
}

/* Copy r's subtree (its before weights as the copies' own weights) below
 * `at`; returns the copy of r. */
static uint32_t copy_removed(struct af_diff *df, struct af_tree *t, const struct walk *w,
			     uint32_t r, uint32_t at)
{
	struct pair *stack = NULL;
	size_t n = 0, cap = 0;
	uint32_t top = af_tree_child(t, at, t->nodes[r].name);
	af_grow(&stack, &cap, 1, sizeof *stack);
	stack[n++] = (struct pair){ r, top };
	while (n) {
		struct pair p = stack[--n];
		uint64_t b = af_tree_before(t, p.first);
		af_tree_add_self(t, p.second, b);
		set_kind(df, p.second, AF_FRAME_REMOVED);
		if (b)
			df->removed_stacks++;
		for (uint32_t c = t->nodes[p.first].first_child; c != AF_NONE; c = t->nodes[c].next_sibling) {
			if (!w->before[c])   /* w knows every node but the band's */
				continue;
			af_grow(&stack, &cap, n + 1, sizeof *stack);
			stack[n++] = (struct pair){ c, af_tree_child(t, p.second, t->nodes[c].name) };
		}
	}
	free(stack);
	return top;
}

static void make_band(struct af_diff *df, struct af_tree *t, uint32_t root, const struct walk *w,
		      const char *before_name)
{
	/* the outermost removed nodes, found before the band adds any */
	uint32_t *removed = NULL;
	size_t n = 0, cap = 0;
	for (size_t i = 1; i < w->n; i++) {
		uint32_t v = w->order[i];
		if (!w->after[v] && w->before[v] && w->after[t->nodes[v].parent]) {
			af_grow(&removed, &cap, n + 1, sizeof *removed);
			removed[n++] = v;
		}
	}
	df->band = AF_NONE;
	df->largest_removed = AF_NONE;
	if (n) {
		struct af_buf label;
		af_buf_init(&label);
		af_buf_printf(&label, "removed: only in %s", before_name ? af_base_name(before_name) : "the first run");
		df->band = af_tree_add_child(t, root, af_tree_intern(t, label.data, label.len));
		af_buf_release(&label);
		set_kind(df, df->band, AF_FRAME_BAND);
	}
	uint64_t largest = 0;
	size_t merged = t->nnodes;   /* copies are made after these */
	uint32_t *copy_of = n ? af_xmalloc(merged * sizeof *copy_of) : NULL;
	if (n)
		memset(copy_of, 0xff, merged * sizeof *copy_of);
	for (size_t i = 0; i < n; i++) {
		uint32_t at = copy_callers(df, t, root, removed[i], copy_of);
		uint32_t top = copy_removed(df, t, w, removed[i], at);
		df->removed_total += w->before[removed[i]];
		if (w->before[removed[i]] > largest) {
			largest = w->before[removed[i]];
			df->largest_removed = top;
		}
	}
	free(copy_of);
	free(removed);
}

int af_diff_merge(struct af_diff *df, struct af_profile *after, uint32_t root2,
		  const uint8_t *excl2, const struct af_profile *before, uint32_t root1,
		  const uint8_t *excl1, const struct af_diff_opts *o, struct af_diag *d)
{
	struct af_tree *t2 = &after->tree;
	memset(df, 0, sizeof *df);
	df->band = df->largest_removed = AF_NONE;
	if (before->tree.before || t2->before)
		return af_diag_error(d, "--diff compares two runs: an input with two counts per line "
				     "is already a comparison");
	if (before->tree.starts || t2->starts)
		return af_diag_error(d, "--diff cannot draw flame charts");
	uint32_t *map = af_profile_pair(before, excl1, after, excl2);
	size_t n2 = t2->nnodes;
	int rc = merge(t2, root2, &before->tree, root1, excl1, map);
	free(map);
	if (rc < 0 || !af_tree_sums_fit(t2))
		return af_diag_error(d, "weights too large to add");
	df->excluded = af_xcalloc(t2->nnodes, 1);
	if (excl2)
		memcpy(df->excluded, excl2, n2);
	struct walk w;
	walk_build(&w, t2, root2, df->excluded);
	df->after_total = w.after[root2];
	df->before_raw = df->before_total = w.before[root2];
	if (o->normalize && df->before_raw && df->before_raw != df->after_total) {
		normalize(t2, &w, df->before_raw, df->after_total);
		walk_release(&w);
		walk_build(&w, t2, root2, df->excluded);
		df->before_total = w.before[root2];
	}
	size_t merged = t2->nnodes;
	make_band(df, t2, root2, &w, o->before_name);
	walk_release(&w);
	/* the band's nodes are drawn too */
	df->excluded = af_xrealloc(df->excluded, t2->nnodes);
	memset(df->excluded + merged, 0, t2->nnodes - merged);
	if (df->nkinds < t2->nnodes)
		set_kind(df, (uint32_t)t2->nnodes - 1, AF_FRAME_PLAIN);
	return 0;
}

void af_diff_release(struct af_diff *df)
{
	free(df->kinds);
	free(df->excluded);
	memset(df, 0, sizeof *df);
}

/* ---- two-count folded output ---- */

struct visit { uint32_t node, rank; size_t path_len; };

static int by_rank_desc(const void *a, const void *b)
{
	const struct visit *x = a, *y = b;
	return (x->rank < y->rank) - (x->rank > y->rank);
}


int af_diff_write_folded(struct af_tree *t, uint32_t root, const struct af_diff *df,
			 unsigned decimals, struct af_sink *out)
{
	const uint32_t *rank = af_tree_name_ranks(t);
	struct visit *stack = NULL;
	size_t n = 0, cap = 0;
	struct af_buf path;
	af_buf_init(&path);
	af_grow(&stack, &cap, 1, sizeof *stack);
	stack[n++] = (struct visit){ root, 0, 0 };
	while (n) {
		struct visit v = stack[--n];
		const struct af_node *nd = &t->nodes[v.node];
		path.len = v.path_len;
		if (v.node != root) {
			if (path.len)
				af_buf_putc(&path, ';');
			af_buf_add(&path, af_tree_name(t, nd->name), af_tree_name_len(t, nd->name));
			uint64_t b = af_tree_before(t, v.node);
			if (b || nd->self) {
				af_sink_write(out, path.data, path.len);
				af_sink_putc(out, ' ');
				af_sink_fixed_point(out, b, decimals);
				af_sink_putc(out, ' ');
				af_sink_fixed_point(out, nd->self, decimals);
				af_sink_putc(out, '\n');
			}
		}
		size_t base = n;
		for (uint32_t c = nd->first_child; c != AF_NONE; c = t->nodes[c].next_sibling) {
			if (c == df->band || (c < t->nnodes && df->excluded && df->excluded[c]))
				continue;
			af_grow(&stack, &cap, n + 1, sizeof *stack);
			stack[n++] = (struct visit){ c, rank[t->nodes[c].name], path.len };
		}
		qsort(stack + base, n - base, sizeof *stack, by_rank_desc);
	}
	af_buf_release(&path);
	free(stack);
	return out->error ? -1 : 0;
}
