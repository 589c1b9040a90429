/* report.c: per-method exclusive and inclusive time, calls and callers from
 * the call tree (see report.h for the definitions). One pre-order walk over
 * the tree with an on-path count per name gives every number; the caller and
 * callee lists are the tree's edges grouped by method and sorted. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* One tree edge into a method node, before grouping. */
struct raw_edge {
	uint32_t parent, child;          /* method indices; parent AF_NONE = toplevel */
	uint8_t child_rec, parent_rec;
	uint64_t calls, time;
};

struct builder {
	struct af_report *r;
	const struct af_tree *t;
	const uint8_t *context;
	const uint64_t *tot;
	uint32_t *on_path;     /* name -> how many nodes of that name are on the path */
	uint8_t *recursive;    /* node -> an ancestor in its thread has its name */
	uint32_t *index;       /* name -> method index, AF_NONE if none yet */
	size_t cap_methods;
	struct raw_edge *raw;
	size_t nraw, cap_raw;
};

static uint32_t method_of(struct builder *b, uint32_t name)
{
	struct af_report *r = b->r;
	if (b->index[name] != AF_NONE)
		return b->index[name];
	af_grow(&r->methods, &b->cap_methods, r->nmethods + 1, sizeof *r->methods);
	memset(&r->methods[r->nmethods], 0, sizeof *r->methods);
	r->methods[r->nmethods].name = name;
	b->index[name] = (uint32_t)r->nmethods;
	return (uint32_t)r->nmethods++;
}

static void enter(struct builder *b, uint32_t node)
{
	if (b->context[node])
		return;
	const struct af_node *nd = &b->t->nodes[node];
	bool rec = b->on_path[nd->name] > 0;
	b->recursive[node] = rec;
	b->on_path[nd->name]++;
	uint32_t m = method_of(b, nd->name);
	struct af_report_method *rm = &b->r->methods[m];
	uint64_t calls = af_tree_calls(b->t, node);
	rm->exclusive += nd->self;
	if (rec) {
		rm->recursive_calls += calls;
	} else {
		rm->inclusive += b->tot[node];
		rm->calls += calls;
	}
	uint32_t p = nd->parent;
	bool top = b->context[p];
	af_grow(&b->raw, &b->cap_raw, b->nraw + 1, sizeof *b->raw);
	b->raw[b->nraw++] = (struct raw_edge){
		.parent = top ? AF_NONE : method_of(b, b->t->nodes[p].name),
		.child = m, .child_rec = rec, .parent_rec = !top && b->recursive[p],
		.calls = calls, .time = b->tot[node],
	};
}

static void leave(struct builder *b, uint32_t node)
{
	if (!b->context[node])
		b->on_path[b->t->nodes[node].name]--;
}

static uint32_t included(const uint8_t *excluded, const struct af_tree *t, uint32_t n)
{
	while (n != AF_NONE && excluded && excluded[n])
		n = t->nodes[n].next_sibling;
	return n;
}

/* Pre-order walk below root: enter on the way down, leave on the way up. */
static void walk(struct builder *b, uint32_t root, const uint8_t *excluded)
{
	const struct af_tree *t = b->t;
	uint32_t n = root;
	for (;;) {
		uint32_t c = included(excluded, t, t->nodes[n].first_child);
		if (c != AF_NONE) {
			n = c;
			enter(b, n);
			continue;
		}
		for (;;) {
			if (n == root)
				return;
			leave(b, n);
			uint32_t s = included(excluded, t, t->nodes[n].next_sibling);
			if (s != AF_NONE) {
				n = s;
				enter(b, n);
				break;
			}
			n = t->nodes[n].parent;
		}
	}
}

/* ---- ordering ---- */

struct method_key {
	uint64_t exclusive;
	const char *name;
	uint32_t len, index;
};

static int by_exclusive(const void *a, const void *b)
{
	const struct method_key *x = a, *y = b;
	if (x->exclusive != y->exclusive)
		return x->exclusive < y->exclusive ? 1 : -1;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);
	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

/* Sort the methods and renumber the raw edges to match. */
static void order_methods(struct builder *b)
{
	struct af_report *r = b->r;
	size_t n = r->nmethods;
	struct method_key *keys = af_xmalloc((n ? n : 1) * sizeof *keys);
	for (size_t i = 0; i < n; i++) {
		uint32_t name = r->methods[i].name;
		keys[i] = (struct method_key){ r->methods[i].exclusive, af_tree_name(b->t, name),
					       (uint32_t)af_tree_name_len(b->t, name), (uint32_t)i };
	}
	qsort(keys, n, sizeof *keys, by_exclusive);
	uint32_t *rank = af_xmalloc((n ? n : 1) * sizeof *rank);
	struct af_report_method *sorted = af_xmalloc((n ? n : 1) * sizeof *sorted);
	for (size_t i = 0; i < n; i++) {
		rank[keys[i].index] = (uint32_t)i;
		sorted[i] = r->methods[keys[i].index];
	}
	free(r->methods);
	r->methods = sorted;
	for (size_t i = 0; i < b->nraw; i++) {
		struct raw_edge *e = &b->raw[i];
		e->child = rank[e->child];
		if (e->parent != AF_NONE)
			e->parent = rank[e->parent];
	}
	free(rank);
	free(keys);
}

/* Edges grouped by `own` method, merged per (other method, recursive). */
struct edge_key {
	uint32_t own, other;
	uint8_t rec;
	uint64_t calls, time;
};

static int by_group(const void *a, const void *b)
{
	const struct edge_key *x = a, *y = b;
	if (x->own != y->own)
		return x->own < y->own ? -1 : 1;
	if (x->rec != y->rec)
		return x->rec < y->rec ? -1 : 1;
	if (x->other != y->other)
		return x->other < y->other ? -1 : 1;
	return 0;
}

/* Display order inside a group: plain calls first, then by time, then rank. */
static int by_display(const void *a, const void *b)
{
	const struct edge_key *x = a, *y = b;
	if (x->own != y->own)
		return x->own < y->own ? -1 : 1;
	if (x->rec != y->rec)
		return x->rec < y->rec ? -1 : 1;
	if (x->time != y->time)
		return x->time > y->time ? -1 : 1;
	if (x->other != y->other)
		return x->other < y->other ? -1 : 1;
	return 0;
}

/* Merge keys[0..n) into r->edges from *at; set each method's list. */
static void place_edges(struct af_report *r, struct edge_key *keys, size_t n, bool parents)
{
	qsort(keys, n, sizeof *keys, by_group);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && by_group(&keys[m - 1], &keys[i]) == 0) {
			keys[m - 1].calls += keys[i].calls;
			keys[m - 1].time += keys[i].time;
		} else {
			keys[m++] = keys[i];
		}
	}
	qsort(keys, m, sizeof *keys, by_display);
	for (size_t i = 0; i < m; i++) {
		struct af_report_edge *e = &r->edges[r->nedges++];
		*e = (struct af_report_edge){ keys[i].other, keys[i].rec, keys[i].calls, keys[i].time };
		struct af_report_method *rm = &r->methods[keys[i].own];
		if (parents) {
			if (!rm->nparents++)
				rm->parents = e;
		} else if (!rm->nchildren++) {
			rm->children = e;
		}
	}
}

static void group_edges(struct builder *b)
{
	struct af_report *r = b->r;
	size_t n = b->nraw;
	struct edge_key *keys = af_xmalloc((n ? n : 1) * sizeof *keys);
	r->edges = af_xmalloc((n ? 2 * n : 1) * sizeof *r->edges);
	for (size_t i = 0; i < n; i++) {
		const struct raw_edge *e = &b->raw[i];
		keys[i] = (struct edge_key){ e->child, e->parent, e->child_rec, e->calls, e->time };
	}
	place_edges(r, keys, n, true);
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct raw_edge *e = &b->raw[i];
		if (e->parent != AF_NONE)
			keys[k++] = (struct edge_key){ e->parent, e->child, e->parent_rec, e->calls, e->time };
	}
	place_edges(r, keys, k, false);
	free(keys);
}

void af_report_build(struct af_report *r, const struct af_profile *p, uint32_t root,
		     const uint8_t *excluded)
{
	const struct af_tree *t = &p->tree;
	memset(r, 0, sizeof *r);
	r->tree = t;
	r->has_calls = af_tree_has_calls(t);
	uint8_t *context = af_xcalloc(t->nnodes, 1);
	context[AF_ROOT] = context[root] = 1;
	for (size_t i = 0; i < p->nthreads; i++) {
		if (p->threads[i].node != AF_NONE)
			context[p->threads[i].node] = 1;
		if (p->threads[i].process_node != AF_NONE)
			context[p->threads[i].process_node] = 1;
	}
	uint64_t *tot = af_tree_totals(t);
	struct builder b = {
		.r = r, .t = t, .context = context, .tot = tot,
		.on_path = af_xcalloc(t->nnames ? t->nnames : 1, sizeof *b.on_path),
		.recursive = af_xcalloc(t->nnodes, 1),
		.index = af_xmalloc((t->nnames ? t->nnames : 1) * sizeof *b.index),
	};
	memset(b.index, 0xff, (t->nnames ? t->nnames : 1) * sizeof *b.index);
	walk(&b, root, excluded);
	for (size_t i = 0; i < r->nmethods; i++)
		r->total += r->methods[i].exclusive;
	order_methods(&b);
	group_edges(&b);
	free(b.raw);
	free(b.index);
	free(b.recursive);
	free(b.on_path);
	free(tot);
	free(context);
}

void af_report_release(struct af_report *r)
{
	free(r->methods);
	free(r->edges);
	memset(r, 0, sizeof *r);
}

/* ---- comparing two runs ---- */

static uint64_t scaled(uint64_t v, uint64_t to, uint64_t from)
{
	return (uint64_t)((unsigned __int128)v * to / from);
}

static int64_t change_of(const struct af_report_change *c, bool inclusive)
{
	const uint64_t *v = inclusive ? c->inclusive : c->exclusive;
	uint64_t m = v[1] > v[0] ? v[1] - v[0] : v[0] - v[1];
	int64_t d = m > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)m;
	return v[1] >= v[0] ? d : -d;
}

static uint64_t magnitude(int64_t d)
{
	return d < 0 ? (uint64_t)-(d + 1) + 1 : (uint64_t)d;
}

/* Largest change either way first (for --top). */
static int by_magnitude(const void *a, const void *b)
{
	const struct af_report_change *x = a, *y = b;
	uint64_t mx = magnitude(x->key[0]), my = magnitude(y->key[0]);
	if (mx != my)
		return mx < my ? 1 : -1;
	if (x->key[0] != y->key[0])
		return x->key[0] < y->key[0] ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Largest increase first, largest decrease last; then the other measure. */
static int by_change(const void *a, const void *b)
{
	const struct af_report_change *x = a, *y = b;
	for (int k = 0; k < 2; k++)
		if (x->key[k] != y->key[k])
			return x->key[k] < y->key[k] ? 1 : -1;
	return strcmp(x->name, y->name);
}

static void add_run(struct af_report_diff *rd, struct af_tree *names, uint32_t **row_of,
		    size_t *cap_row_of, size_t *cap_rows, const struct af_report *r, int run)
{
	for (size_t i = 0; i < r->nmethods; i++) {
		const struct af_report_method *m = &r->methods[i];
		const char *name = af_tree_name(r->tree, m->name);
		size_t had = names->nnames;
		uint32_t id = af_tree_intern(names, name, af_tree_name_len(r->tree, m->name));
		if (names->nnames > had) {
			af_grow(row_of, cap_row_of, names->nnames, sizeof **row_of);
			(*row_of)[id] = AF_NONE;
		}
		uint32_t row = (*row_of)[id];
		if (row == AF_NONE) {
			af_grow(&rd->rows, cap_rows, rd->nmethods + 1, sizeof *rd->rows);
			row = (uint32_t)rd->nmethods++;
			memset(&rd->rows[row], 0, sizeof *rd->rows);
			rd->rows[row].name = name;
			(*row_of)[id] = row;
		}
		struct af_report_change *c = &rd->rows[row];
		c->exclusive[run] += m->exclusive;
		c->inclusive[run] += m->inclusive;
		c->calls[run] += m->calls + m->recursive_calls;
		c->in[run] = true;
	}
	rd->total[run] = r->total;
}

void af_report_diff_build(struct af_report_diff *rd, const struct af_report *before,
			  const struct af_report *after, bool by_inclusive, bool normalize,
			  size_t top)
{
	memset(rd, 0, sizeof *rd);
	rd->has_calls = before->has_calls || after->has_calls;
	rd->by_inclusive = by_inclusive;
	struct af_tree names;
	af_tree_init(&names);   /* only to match names: "all" is in it already */
	size_t cap_row_of = 0, cap_rows = 0;
	uint32_t *row_of = NULL;
	af_grow(&row_of, &cap_row_of, names.nnames, sizeof *row_of);
	for (size_t i = 0; i < names.nnames; i++)
		row_of[i] = AF_NONE;
	add_run(rd, &names, &row_of, &cap_row_of, &cap_rows, before, 0);
	add_run(rd, &names, &row_of, &cap_row_of, &cap_rows, after, 1);
	free(row_of);
	af_tree_release(&names);
	if (normalize && rd->total[0] && rd->total[0] != rd->total[1]) {
		for (size_t i = 0; i < rd->nmethods; i++) {
			rd->rows[i].exclusive[0] = scaled(rd->rows[i].exclusive[0], rd->total[1], rd->total[0]);
			rd->rows[i].inclusive[0] = scaled(rd->rows[i].inclusive[0], rd->total[1], rd->total[0]);
		}
		rd->total[0] = rd->total[1];
		rd->normalized = true;
	}
	for (size_t i = 0; i < rd->nmethods; i++) {
		struct af_report_change *c = &rd->rows[i];
		rd->only[0] += c->in[0] && !c->in[1];
		rd->only[1] += c->in[1] && !c->in[0];
		rd->changed += change_of(c, false) || change_of(c, true);
		c->key[0] = change_of(c, by_inclusive);
		c->key[1] = change_of(c, !by_inclusive);
	}
	rd->nrows = rd->nmethods;
	if (top && top < rd->nmethods) {
		qsort(rd->rows, rd->nmethods, sizeof *rd->rows, by_magnitude);
		rd->nrows = top;
	}
	qsort(rd->rows, rd->nrows, sizeof *rd->rows, by_change);
}

void af_report_diff_release(struct af_report_diff *rd)
{
	free(rd->rows);
	memset(rd, 0, sizeof *rd);
}
