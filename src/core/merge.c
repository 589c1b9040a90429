/* merge.c: several captures as one profile (merge.h): one walk over the
 * added capture's tree, paired with the profile's nodes (threads and
 * processes by name, occurrence by occurrence; frames by name below their
 * paired parent, made when missing), summing self weights and calls; then
 * the capture's threads and processes that found no partner join the
 * profile's lists. No recursion: real stacks are thousands of frames deep.
 */
#include "merge.h"
#include "buf.h"
#include "idmap.h"
#include "util.h"

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

int af_profile_match_decimals(struct af_profile *before, struct af_profile *after,
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


/* The key a thread or process node is paired by: "p" name for a process,
 * "t" process-name \1 thread-name for a thread. Interned in `keys`. Calls
 * fn(ctx, node, key) for each such node of p that is drawn. */
typedef void key_fn(void *ctx, uint32_t node, uint32_t key);

static void each_key(const struct af_profile *p, const uint8_t *excl, struct af_tree *keys,
		     key_fn *fn, void *ctx)
{
	struct af_buf b;
	af_buf_init(&b);
	struct af_idmap procs;   /* process node -> its index: no scan per thread */
	af_idmap_init(&procs);
	for (size_t i = 0; i < p->nprocesses; i++)
		if (p->processes[i].node != AF_NONE)
			af_idmap_put(&procs, p->processes[i].node, (uint32_t)i);
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
		uint32_t k = th->process_node != AF_NONE ? af_idmap_get(&procs, th->process_node) : AF_NONE;
		if (k != AF_NONE)
			af_buf_puts(&b, p->processes[k].name);
		af_buf_putc(&b, '\1');
		af_buf_puts(&b, th->name);
		fn(ctx, th->node, af_tree_intern(keys, b.data, b.len));
	}
	af_idmap_release(&procs);
	af_buf_release(&b);
}

struct pairing {
	uint32_t *map;             /* first-run node -> second-run node, AF_PAIR_UNMATCHED,
				      or AF_NONE (not a thread or process) */
	struct { uint32_t node, key; } *second;   /* second run's nodes in order */
	size_t nsecond, cap_second;
	/* the second run's nodes grouped by key, in order: those of key k are
	 * by_key[start[k] .. start[k + 1]) */
	uint32_t *by_key;
	size_t *start, nkeys;
	size_t *used;              /* key -> second-run nodes of it paired so far */
};

static void collect_second(void *ctx, uint32_t node, uint32_t key)
{
	struct pairing *pr = ctx;
	af_grow(&pr->second, &pr->cap_second, pr->nsecond + 1, sizeof *pr->second);
	pr->second[pr->nsecond].node = node;
	pr->second[pr->nsecond++].key = key;
}

/* Group the second run's nodes by key (a counting sort, keeping their
 * order): pairing is then a lookup per node, where a scan of every
 * second-run node for each first-run one took 17 s at 256k threads. */
static void group_second(struct pairing *pr, size_t nkeys)
{
	pr->nkeys = nkeys;
	pr->start = af_xcalloc(nkeys + 1, sizeof *pr->start);
	pr->used = af_xcalloc(nkeys + 1, sizeof *pr->used);
	pr->by_key = af_xmalloc((pr->nsecond + 1) * sizeof *pr->by_key);
	for (size_t i = 0; i < pr->nsecond; i++)
		pr->start[pr->second[i].key + 1]++;
	for (size_t k = 0; k < nkeys; k++)
		pr->start[k + 1] += pr->start[k];
	for (size_t i = 0; i < pr->nsecond; i++) {
		uint32_t k = pr->second[i].key;
		pr->by_key[pr->start[k] + pr->used[k]++] = pr->second[i].node;
	}
	memset(pr->used, 0, (nkeys + 1) * sizeof *pr->used);
}

/* The k-th first-run node of a key goes with the k-th second-run node of it. */
static void pair_first(void *ctx, uint32_t node, uint32_t key)
{
	struct pairing *pr = ctx;
	pr->map[node] = AF_PAIR_UNMATCHED;
	if (key >= pr->nkeys)   /* a key the second run does not have */
		return;
	size_t k = pr->used[key]++;
	if (pr->start[key] + k < pr->start[key + 1])
		pr->map[node] = pr->by_key[pr->start[key] + k];
}

uint32_t *af_profile_pair(const struct af_profile *before, const uint8_t *excl1,
			  const struct af_profile *after, const uint8_t *excl2)
{
	struct af_tree keys;
	af_tree_init(&keys);
	struct pairing pr = { .map = af_xmalloc(before->tree.nnodes * sizeof *pr.map) };
	memset(pr.map, 0xff, before->tree.nnodes * sizeof *pr.map);
	each_key(after, excl2, &keys, collect_second, &pr);
	group_second(&pr, keys.nnames);
	each_key(before, excl1, &keys, pair_first, &pr);
	free(pr.second);
	free(pr.by_key);
	free(pr.start);
	free(pr.used);
	af_tree_release(&keys);
	return pr.map;
}

/* ---- adding a capture ---- */

struct pair { uint32_t src, dst; };

/* src's tree into dst's, paired by map; to[src node] is its dst node. */
static void add_tree(struct af_tree *dst, const struct af_tree *src, const uint32_t *map,
		     uint32_t *to)
{
	struct pair *stack = NULL;
	size_t n = 0, cap = 0;
	af_tree_add_self(dst, AF_ROOT, src->nodes[AF_ROOT].self);
	to[AF_ROOT] = AF_ROOT;
	af_grow(&stack, &cap, 1, sizeof *stack);
	stack[n++] = (struct pair){ AF_ROOT, AF_ROOT };
	while (n) {
		struct pair p = stack[--n];
		for (uint32_t c = src->nodes[p.src].first_child; c != AF_NONE; c = src->nodes[c].next_sibling) {
			const struct af_node *nd = &src->nodes[c];
			uint32_t name = af_tree_intern(dst, af_tree_name(src, nd->name),
						       af_tree_name_len(src, nd->name));
			uint32_t c2 = map[c] == AF_NONE ? af_tree_child(dst, p.dst, name)
				    : map[c] == AF_PAIR_UNMATCHED ? af_tree_add_child(dst, p.dst, name)
				    : map[c];
			to[c] = c2;
			af_tree_add_self(dst, c2, nd->self);
			if (nd->calls)
				af_tree_add_calls(dst, c2, nd->calls);
			af_grow(&stack, &cap, n + 1, sizeof *stack);
			stack[n++] = (struct pair){ c, c2 };
		}
	}
	free(stack);
}

/* src's processes and threads whose nodes are new in dst join dst's lists;
 * those paired add their events. to: src node -> dst node. */
static void add_lists(struct af_profile *dst, const struct af_profile *src, const uint32_t *to)
{
	size_t *thread_at = af_xmalloc(dst->tree.nnodes * sizeof *thread_at);
	bool *process_at = af_xcalloc(dst->tree.nnodes, 1);
	memset(thread_at, 0xff, dst->tree.nnodes * sizeof *thread_at);
	for (size_t i = 0; i < dst->nthreads; i++)
		if (dst->threads[i].node != AF_NONE)
			thread_at[dst->threads[i].node] = i;
	for (size_t i = 0; i < dst->nprocesses; i++)
		if (dst->processes[i].node != AF_NONE)
			process_at[dst->processes[i].node] = true;
	for (size_t i = 0; i < src->nprocesses; i++) {
		const struct af_process *pr = &src->processes[i];
		if (pr->node != AF_NONE && !process_at[to[pr->node]])
			af_profile_add_process(dst, pr->pid, pr->name, strlen(pr->name), to[pr->node]);
	}
	for (size_t i = 0; i < src->nthreads; i++) {
		const struct af_thread *th = &src->threads[i];
		if (th->node == AF_NONE)
			continue;
		size_t k = thread_at[to[th->node]];
		if (k == (size_t)-1) {
			k = af_profile_add_thread(dst, th->tid, th->name, strlen(th->name));
			struct af_thread *t = &dst->threads[k];
			t->pid = th->pid;
			t->node = to[th->node];
			t->process_node = th->process_node == AF_NONE ? AF_NONE : to[th->process_node];
			t->first_time = th->first_time;
			t->last_time = th->last_time;
		}
		dst->threads[k].events += th->events;
	}
	free(thread_at);
	free(process_at);
}

int af_profile_merge(struct af_profile *dst, struct af_profile *src, struct af_diag *d)
{
	if (dst->tree.starts || src->tree.starts)
		return af_diag_error(d, "several captures cannot make one flame chart (each has "
				     "its own time axis)");
	if (dst->tree.before || src->tree.before)
		return af_diag_error(d, "an input with two counts per line is a comparison: it is "
				     "not summed with other captures");
	if (strcmp(dst->unit, src->unit) != 0 || (dst->clock != src->clock &&
	    (!dst->clock || !src->clock || strcmp(dst->clock, src->clock) != 0)))
		return af_diag_error(d, "this capture's weights are %s%s%s, the first's %s%s%s: "
				     "captures of one kind only make one graph",
				     src->clock ? src->clock : "", src->clock ? " clock " : "", src->unit,
				     dst->clock ? dst->clock : "", dst->clock ? " clock " : "", dst->unit);
	if (af_profile_match_decimals(src, dst, d) < 0)
		return -1;
	uint32_t *map = af_profile_pair(src, NULL, dst, NULL);
	uint32_t *to = af_xmalloc(src->tree.nnodes * sizeof *to);
	add_tree(&dst->tree, &src->tree, map, to);
	add_lists(dst, src, to);
	free(map);
	free(to);
	dst->captures = (dst->captures ? dst->captures : 1) + (src->captures ? src->captures : 1);
	if (!af_tree_sums_fit(&dst->tree))
		return af_diag_error(d, "the weights of the captures add up past 2^64 - 2");
	return 0;
}

/* ---- --average ---- */

int af_profile_average(struct af_profile *p, unsigned n, struct af_diag *d)
{
	struct af_tree *t = &p->tree;
	bool exact = true;
	for (size_t i = 0; i < t->nnodes && exact; i++)
		exact = t->nodes[i].self % n == 0;
	if (!exact) {   /* two more decimals, then rounded */
		for (size_t i = 0; i < t->nnodes; i++) {
			if (t->nodes[i].self > UINT64_MAX / 100)
				return af_diag_error(d, "weights too large to average");
			t->nodes[i].self *= 100;
		}
		p->decimals += 2;
	}
	for (size_t i = 0; i < t->nnodes; i++) {
		t->nodes[i].self = t->nodes[i].self / n + (t->nodes[i].self % n >= (n + 1) / 2);
		t->nodes[i].calls = t->nodes[i].calls / n + (t->nodes[i].calls % n >= (n + 1) / 2);
	}
	p->averaged = n > 1;
	return 0;
}
