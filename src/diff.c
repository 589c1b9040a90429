/* diff.c: merge the first run's call tree into the second's (diff.h).
 *
 * One walk over the first run's selected subtree, paired with the second
 * run's nodes: thread and process nodes are paired by name (occurrence by
 * occurrence), every other node by name below its paired parent, created in
 * the second tree when missing. Then one walk over the merged subtree finds
 * the outermost nodes with before weight but no after weight and copies
 * each, below copies of its callers, into the removed band. No recursion:
 * real stacks are thousands of frames deep.
 *
 * Below that, the run of --diff: both inputs read and selected with the
 * steps a single graph uses (run.h), merged, then written as one output. */
#include "diff.h"
#include "buf.h"
#include "input.h"
#include "layout.h"
#include "output.h"
#include "read.h"
#include "render.h"
#include "report.h"
#include "run.h"
#include "util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- decimals ---- */

static int scale_tree(struct af_tree *t, unsigned by, struct af_diag *d)
{
	uint64_t f = 1;
	for (unsigned i = 0; i < by; i++)
		f *= 10;
	for (size_t i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].self > UINT64_MAX / f)
			return af_diag_error(d, "weights too large to compare with the other run's decimals");
		t->nodes[i].self *= f;
	}
	return 0;
}

int af_diff_match_decimals(struct af_profile *before, struct af_profile *after,
			   struct af_diag *d)
{
	if (before->decimals < after->decimals) {
		if (scale_tree(&before->tree, after->decimals - before->decimals, d) < 0)
			return -1;
		before->decimals = after->decimals;
	} else if (after->decimals < before->decimals) {
		if (scale_tree(&after->tree, before->decimals - after->decimals, d) < 0)
			return -1;
		after->decimals = before->decimals;
	}
	return 0;
}

/* ---- pairing threads and processes by name ---- */

#define UNMATCHED (AF_NONE - 1)

static const char *process_name(const struct af_profile *p, uint32_t node)
{
	for (size_t i = 0; i < p->nprocesses; i++)
		if (p->processes[i].node == node)
			return p->processes[i].name;
	return "";
}

/* The key a thread or process node is paired by: "p" name for a process,
 * "t" process-name \1 thread-name for a thread. Interned in `keys`. Calls
 * fn(ctx, node, key) for each such node of p that is drawn. */
typedef void key_fn(void *ctx, uint32_t node, uint32_t key);

static void each_key(const struct af_profile *p, const uint8_t *excl, struct af_tree *keys,
		     key_fn *fn, void *ctx)
{
	struct af_buf b;
	af_buf_init(&b);
	for (size_t i = 0; i < p->nprocesses; i++) {
		uint32_t n = p->processes[i].node;
		if (n == AF_NONE || (excl && excl[n]))
			continue;
		b.len = 0;
		af_buf_putc(&b, 'p');
		af_buf_puts(&b, p->processes[i].name);
		fn(ctx, n, af_tree_intern(keys, b.data, b.len));
	}
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct af_thread *th = &p->threads[i];
		if (th->node == AF_NONE || (excl && excl[th->node]))
			continue;
		b.len = 0;
		af_buf_putc(&b, 't');
		if (th->process_node != AF_NONE)
			af_buf_puts(&b, process_name(p, th->process_node));
		af_buf_putc(&b, '\1');
		af_buf_puts(&b, th->name);
		fn(ctx, th->node, af_tree_intern(keys, b.data, b.len));
	}
	af_buf_release(&b);
}

struct pairing {
	uint32_t *map;             /* first-run node -> second-run node, UNMATCHED,
				      or AF_NONE (not a thread or process) */
	struct { uint32_t node, key; } *second;   /* second run's nodes in order */
	size_t nsecond, cap_second;
	size_t *used;              /* key -> second-run nodes of it paired so far */
	size_t cap_used;
};

static void collect_second(void *ctx, uint32_t node, uint32_t key)
{
	struct pairing *pr = ctx;
	af_grow(&pr->second, &pr->cap_second, pr->nsecond + 1, sizeof *pr->second);
	pr->second[pr->nsecond].node = node;
	pr->second[pr->nsecond++].key = key;
}

/* The k-th first-run node of a key goes with the k-th second-run node of it
 * (a linear scan per node: threads with events number at most thousands). */
static void pair_first(void *ctx, uint32_t node, uint32_t key)
{
	struct pairing *pr = ctx;
	if (key >= pr->cap_used) {
		size_t old = pr->cap_used;
		af_grow(&pr->used, &pr->cap_used, (size_t)key + 1, sizeof *pr->used);
		memset(pr->used + old, 0, (pr->cap_used - old) * sizeof *pr->used);
	}
	size_t k = pr->used[key]++;
	pr->map[node] = UNMATCHED;
	for (size_t i = 0; i < pr->nsecond; i++) {
		if (pr->second[i].key == key && k-- == 0) {
			pr->map[node] = pr->second[i].node;
			return;
		}
	}
}

static uint32_t *pair_contexts(const struct af_profile *before, const uint8_t *excl1,
			       const struct af_profile *after, const uint8_t *excl2)
{
	struct af_tree keys;
	af_tree_init(&keys);
	struct pairing pr = { .map = af_xmalloc(before->tree.nnodes * sizeof *pr.map) };
	memset(pr.map, 0xff, before->tree.nnodes * sizeof *pr.map);
	each_key(after, excl2, &keys, collect_second, &pr);
	each_key(before, excl1, &keys, pair_first, &pr);
	free(pr.second);
	free(pr.used);
	af_tree_release(&keys);
	return pr.map;
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
				    : map[c] == UNMATCHED ? af_tree_add_child(t2, p.second, name) : map[c];
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
 * context; returns the copy of r's parent. */
static uint32_t copy_callers(struct af_diff *df, struct af_tree *t, uint32_t root, uint32_t r)
{
	uint32_t *path = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t a = t->nodes[r].parent; a != root; a = t->nodes[a].parent) {
		af_grow(&path, &cap, n + 1, sizeof *path);
		path[n++] = a;
	}
	uint32_t copy = df->band;
	while (n--) {
		copy = af_tree_child(t, copy, t->nodes[path[n]].name);
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

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;
	return s ? s + 1 : path ? path : "the first run";
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
		af_buf_printf(&label, "removed: only in %s", base_name(before_name));
		df->band = af_tree_add_child(t, root, af_tree_intern(t, label.data, label.len));
		af_buf_release(&label);
		set_kind(df, df->band, AF_FRAME_BAND);
	}
	uint64_t largest = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t at = copy_callers(df, t, root, removed[i]);
		uint32_t top = copy_removed(df, t, w, removed[i], at);
		df->removed_total += w->before[removed[i]];
		if (w->before[removed[i]] > largest) {
			largest = w->before[removed[i]];
			df->largest_removed = top;
		}
	}
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
	uint32_t *map = pair_contexts(before, excl1, after, excl2);
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

/* ---- the run: --diff BEFORE AFTER, in one graph or report ---- */

struct run {
	struct af_mapped in;
	struct af_profile p;
	struct af_selection sel;
	bool loaded;
};

static int read_run(struct af_cli *o, struct run *r, const char *path, struct af_diag *d)
{
	af_diag_init(d, path);
	if (af_input_load(&r->in, path, o->read.max_input, d) < 0)
		return -1;
	r->loaded = true;
	if (af_read(&r->p, &r->in.in, o->reader, &o->read, d) < 0)
		return -1;
	af_run_print_warnings(&r->p, path);
	if (r->p.tree.before)
		return af_diag_error(d, "two counts per line make a comparison already: "
				     "--diff needs one run in each input");
	return af_run_select(o, &r->p, &r->sel, d);
}

static void release_run(struct run *r)
{
	if (r->loaded)
		af_input_release(&r->in);
	af_profile_release(&r->p);
	free(r->sel.excluded);
}

/* One line on stderr when work of the first run has no place in the
 * second's graph: how much, where it is drawn, the largest piece (p: the
 * merged profile, which holds the band). */
static void removed_summary(const struct af_cli *o, const struct af_profile *p,
			    const struct af_diff *df)
{
	if (!df->removed_total)
		return;
	const struct af_tree *t = &p->tree;
	uint32_t *up = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t v = df->largest_removed; v != AF_NONE && v != df->band; v = t->nodes[v].parent) {
		af_grow(&up, &cap, n + 1, sizeof *up);
		up[n++] = v;
	}
	struct af_buf path;
	af_buf_init(&path);
	while (n--) {
		af_buf_puts(&path, af_tree_name(t, t->nodes[up[n]].name));
		if (n)
			af_buf_putc(&path, ';');
	}
	free(up);
	uint64_t *tot = af_tree_totals(t);
	char all[AF_FIXED_POINT_MAX], big[AF_FIXED_POINT_MAX], pct[32];
	af_fixed_point(all, df->removed_total, p->decimals);
	af_fixed_point(big, tot[df->largest_removed], p->decimals);
	snprintf(pct, sizeof pct, "%.2f", df->before_total ?
		 100.0 * (double)df->removed_total / (double)df->before_total : 0.0);
	fprintf(stderr, AF_PROG ": %s: %" PRIu64 " stack%s only in this run, %s %s (%s%% of its time), "
		"drawn in the band '%s' at the right; the largest: %s (%s %s)\n",
		o->inputs[0], df->removed_stacks, df->removed_stacks == 1 ? "" : "s", all, p->unit, pct,
		af_tree_name(t, t->nodes[df->band].name), path.data, big, p->unit);
	free(tot);
	af_buf_release(&path);
}

/* "before → after · clock · unit · what the colours show" */
static void diff_subtitle(const struct af_cli *o, const struct af_profile *p, struct af_buf *b)
{
	af_buf_printf(b, "%s \xe2\x86\x92 %s", base_name(o->inputs[0]), base_name(o->inputs[1]));
	if (p->clock)
		af_buf_printf(b, " \xc2\xb7 %s clock \xc2\xb7 %s", p->clock, p->unit);
	af_buf_printf(b, " \xc2\xb7 %s time: red more, blue less%s",
		      o->layout.diff_total ? "inclusive" : "self",
		      o->layout.negate ? " (negated)" : "");
}

static void diff_titles(struct af_cli *o, const struct run *r, struct af_buf *subtitle)
{
	const struct af_selection *s = &r[1].sel;
	bool one_thread = s->nsel == 1 && s->root == r[1].p.threads[s->only].node;
	struct af_buf none;
	af_buf_init(&none);
	af_run_titles(o, &r[1].p, one_thread ? 1 : 0, s->only, NULL, subtitle, &none);
	if (s->nproc == 1 && !one_thread && s->root != AF_ROOT && !o->title)
		o->render.title = r[1].p.processes[s->only_proc].name;
	if (!o->subtitle) {
		subtitle->len = 0;
		diff_subtitle(o, &r[1].p, subtitle);
		o->render.subtitle = subtitle->data;
		o->layout.has_subtitle = true;
	}
}

static int compare_report(struct af_cli *o, struct run *r, struct af_diag *d)
{
	struct af_report rep[2];
	for (int i = 0; i < 2; i++)
		af_report_build(&rep[i], &r[i].p, r[i].sel.root, r[i].sel.excluded);
	struct af_report_diff rd;
	af_report_diff_build(&rd, &rep[0], &rep[1], o->layout.diff_total, o->normalize, o->top);
	struct af_buf subtitle;
	af_buf_init(&subtitle);
	diff_titles(o, r, &subtitle);
	struct af_report_opts ro = {
		.title = o->render.title, .source = o->inputs[1], .source_before = o->inputs[0],
		.clock = r[1].p.clock, .unit = r[1].p.unit, .decimals = r[1].p.decimals, .top = o->top,
	};
	struct af_output out;
	int rc = af_output_open(&out, o->output, d);
	if (rc == 0)
		rc = af_output_close(&out, af_render_report_diff(&rd, o->report_format, &ro, &out.sink));
	af_buf_release(&subtitle);
	af_report_diff_release(&rd);
	af_report_release(&rep[0]);
	af_report_release(&rep[1]);
	return rc;
}

static int compare_graph(struct af_cli *o, struct run *r, struct af_diag *d)
{
	struct af_profile *p = &r[1].p;
	uint32_t root = r[1].sel.root;
	struct af_diff df;
	struct af_diff_opts dopt = { .normalize = o->normalize, .before_name = o->inputs[0] };
	af_diag_init(d, o->inputs[1]);
	int rc = af_diff_merge(&df, p, root, r[1].sel.excluded, &r[0].p, r[0].sel.root,
			       r[0].sel.excluded, &dopt, d);
	char *app = NULL;
	struct af_buf subtitle;
	af_buf_init(&subtitle);
	if (rc == 0) {
		removed_summary(o, p, &df);
		o->layout.kinds = df.kinds;
		o->layout.nkinds = df.nkinds;
		diff_titles(o, r, &subtitle);
		rc = af_run_graph_begin(o, p, &app, d);
	}
	struct af_output out;
	if (rc == 0 && (rc = af_output_open(&out, o->output, d)) == 0) {
		if (o->format == AF_OUT_FOLDED)
			rc = af_diff_write_folded(&p->tree, root, &df, p->decimals, &out.sink);
		else
			rc = af_render_to(o->format, &p->tree, root, df.excluded, &o->layout,
					  &o->render, &out.sink, d);
		rc = af_output_close(&out, rc);
	}
	rc = af_run_graph_end(o, app, rc, d);
	af_buf_release(&subtitle);
	af_diff_release(&df);
	return rc;
}

/* Runs that measure different things can still be compared: say so. */
static void warn_units(const struct af_cli *o, const struct run *r)
{
	const struct af_profile *a = &r[0].p, *b = &r[1].p;
	if (strcmp(a->unit, b->unit) == 0 && (!a->clock || !b->clock || strcmp(a->clock, b->clock) == 0))
		return;
	fprintf(stderr, AF_PROG ": warning: comparing %s%s%s (%s) with %s%s%s (%s)\n",
		a->clock ? a->clock : "", a->clock ? " clock " : "", a->unit, o->inputs[0],
		b->clock ? b->clock : "", b->clock ? " clock " : "", b->unit, o->inputs[1]);
}

int af_diff_run(struct af_cli *o, struct af_diag *d)
{
	struct run r[2];
	memset(r, 0, sizeof r);
	af_profile_init(&r[0].p);
	af_profile_init(&r[1].p);
	int rc = read_run(o, &r[0], o->inputs[0], d);
	if (rc == 0)
		rc = read_run(o, &r[1], o->inputs[1], d);
	if (rc == 0) {
		/* one thread (or process) against one, else whole graphs */
		const struct af_selection *a = &r[0].sel, *b = &r[1].sel;
		if ((a->root == AF_ROOT) != (b->root == AF_ROOT) || (a->nsel == 1) != (b->nsel == 1))
			r[0].sel.root = r[1].sel.root = AF_ROOT;
		warn_units(o, r);
		af_diag_init(d, o->inputs[1]);
		rc = af_diff_match_decimals(&r[0].p, &r[1].p, d);
	}
	if (rc == 0)
		rc = o->report ? compare_report(o, r, d) : compare_graph(o, r, d);
	release_run(&r[0]);
	release_run(&r[1]);
	return rc;
}
