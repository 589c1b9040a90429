/* fold.c: method entries and exits to self times in the call tree. */
#include "fold.h"

#include <stdlib.h>
#include <string.h>

void af_fold_thread_init(struct af_fold_thread *th, uint32_t root)
{
	*th = (struct af_fold_thread){ .root = root, .last_call = AF_NONE };
}

void af_fold_release(struct af_fold *f)
{
	free(f->hints);
	f->hints = NULL;
	f->cap_hints = 0;
}

/* Room for hints of need nodes, doubling: in memory of af_xmalloc_huge's
 * once large (the hints are read at random, like the nodes). A hint that
 * is not set is all ones (AF_NONE, AF_NONE). */
static void grow_hints(struct af_fold *f, size_t need)
{
	size_t cap = f->cap_hints ? f->cap_hints : 256;
	while (cap < need)
		cap *= 2;
	struct af_fold_hints *h = af_xmalloc_huge(cap * sizeof *h);
	if (f->cap_hints)
		memcpy(h, f->hints, f->cap_hints * sizeof *h);
	memset(h + f->cap_hints, 0xff, (cap - f->cap_hints) * sizeof *h);
	free(f->hints);
	f->hints = h;
	f->cap_hints = cap;
}

static struct af_fold_hint *hints_of(struct af_fold *f, uint32_t parent, uint32_t prev)
{
	return prev != AF_NONE ? f->hints[prev].after : f->hints[parent].first;
}

/* The child of parent named name: a hinted node if one fits, else a probe;
 * prev is the sibling that returned last (AF_NONE: first call below parent).
 * Both are below cap_hints. */
static uint32_t callee(struct af_fold *f, uint32_t parent, uint32_t prev, uint32_t name)
{
	struct af_fold_hint *h = hints_of(f, parent, prev);
	if (h[0].name == name)   /* (a hint's name is AF_NONE until it is set) */
		return h[0].node;
	if (h[1].name == name) {
		struct af_fold_hint x = h[1];
		h[1] = h[0];
		h[0] = x;
		return x.node;
	}
	uint32_t n = af_tree_child(f->tree, parent, name);
	if (f->tree->nnodes > f->cap_hints) {
		grow_hints(f, f->tree->nnodes);
		h = hints_of(f, parent, prev);
	}
	h[1] = h[0];
	h[0] = (struct af_fold_hint){ n, name };
	return n;
}

/* Times never run backwards within a thread: a late event is clamped to the
 * latest time seen, so durations cannot go negative. */
static uint64_t observe(struct af_fold *f, struct af_fold_thread *th, uint64_t t)
{
	if (!th->started) {
		th->started = true;
		th->first = th->last = t;
		return t;
	}
	if (t < th->last) {
		f->stats.time_backwards++;
		return th->last;
	}
	th->last = t;
	return t;
}

/* Where time t lies in window coordinates. */
static uint64_t wpos(const struct af_fold *f, const struct af_fold_thread *th, uint64_t t)
{
	return f->window_per_thread ? t - th->first : t;
}

/* The length of [a, b] inside the window (all of it without a window). */
static uint64_t clipped(const struct af_fold *f, const struct af_fold_thread *th,
			uint64_t a, uint64_t b)
{
	if (!f->window)
		return b - a;
	uint64_t lo = wpos(f, th, a), hi = wpos(f, th, b);
	if (lo < f->from)
		lo = f->from;
	if (hi > f->to)
		hi = f->to;
	return hi > lo ? hi - lo : 0;
}

/* Flame-chart position of a frame entered at t. Without a window it is the
 * time itself, on the axis all threads share (with window_per_thread, cpu
 * clocks: since the thread's first event): the chart is measured from the
 * earliest first event of the threads it draws (cli/run.c chart_origin), as
 * a thread measured from its own first event would lose its offset from
 * the others, and the threads drawn are chosen after reading. */
static uint64_t chart_start(const struct af_fold *f, const struct af_fold_thread *th, uint64_t t)
{
	uint64_t p = wpos(f, th, t);
	if (!f->window)
		return p;
	return p > f->from ? p - f->from : 0;
}

/* Give stack[nmat..upto] their nodes, outermost first. Their calls are
 * counted when they close (pop), with their self time: one touch of the
 * node (every frame with a node closes, at the latest in af_fold_finish). */
static void materialize(struct af_fold *f, struct af_fold_thread *th, size_t upto)
{
	for (size_t k = th->nmat; k <= upto; k++) {
		struct af_open_frame *fr = &th->stack[k];
		struct af_open_frame *up = k ? &th->stack[k - 1] : NULL;
		uint32_t parent = up ? up->node : th->root;
		if (f->timeline) {
			fr->node = af_tree_add_child(f->tree, parent, fr->name);
			af_tree_set_start(f->tree, fr->node, chart_start(f, th, fr->enter));
		} else {
			uint32_t prev = up ? up->last_call : th->last_call;
			/* nodes made elsewhere (an orphan exit's caller) may lie
			 * beyond the hints */
			if (parent >= f->cap_hints || (prev != AF_NONE && prev >= f->cap_hints))
				grow_hints(f, f->tree->nnodes);
			fr->node = callee(f, parent, prev, fr->name);
			/* what this thread's next events want: the node (its close
			 * adds to it) and its first callee's hint, fetched while
			 * other threads' events are read */
			__builtin_prefetch(&f->tree->nodes[fr->node], 1);
			__builtin_prefetch(&f->hints[fr->node].first);
		}
	}
	th->nmat = upto + 1;
}

void af_fold_enter(struct af_fold *f, struct af_fold_thread *th,
		   uint32_t method, uint32_t name, uint64_t t)
{
	t = observe(f, th, t);
	if (th->depth == th->cap)
		af_grow(&th->stack, &th->cap, th->depth + 1, sizeof *th->stack);
	th->stack[th->depth++] = (struct af_open_frame){ AF_NONE, name, method, AF_NONE, t, 0 };
	uint64_t p = f->window ? wpos(f, th, t) : 0;
	if (!f->window || (p >= f->from && p < f->to))
		materialize(f, th, th->depth - 1);
}

/* Close the top frame at time t and credit its self time (the part inside
 * the window); a frame that overlaps the window gets its node now if it has
 * none yet. */
static void pop(struct af_fold *f, struct af_fold_thread *th, uint64_t t)
{
	struct af_open_frame *fr = &th->stack[--th->depth];
	uint64_t inclusive = clipped(f, th, fr->enter, t);
	if (fr->node == AF_NONE && inclusive > 0)
		materialize(f, th, th->depth);
	if (th->nmat > th->depth)
		th->nmat = th->depth;
	uint32_t *last = th->depth ? &th->stack[th->depth - 1].last_call : &th->last_call;
	if (fr->node != AF_NONE) {
		uint64_t self = inclusive >= fr->callees ? inclusive - fr->callees : 0;
		af_tree_add_self(f->tree, fr->node, self);
		af_tree_add_call(f->tree, fr->node);
		*last = fr->node;
		if (fr->node < f->cap_hints)   /* the hint of the call after it (callee) */
			__builtin_prefetch(&f->hints[fr->node].after);
	}
	if (th->depth)
		th->stack[th->depth - 1].callees += inclusive;
	else
		th->top_closed += inclusive;
}

/* The method was running before the thread's first event: it is the caller
 * of everything the thread did until now. */
static void orphan_exit(struct af_fold *f, struct af_fold_thread *th, uint32_t name, uint64_t t)
{
	f->stats.orphan_exits++;
	while (th->depth)
		pop(f, th, t);
	uint64_t inclusive = clipped(f, th, th->first, t);
	if (f->window && inclusive == 0)
		return;   /* wholly outside the window, like all it would adopt */
	uint32_t node = af_tree_adopt(f->tree, th->root, name);
	if (th->root < f->cap_hints)   /* its children are node's now */
		f->hints[th->root].first[0] = f->hints[th->root].first[1] = (struct af_fold_hint){ AF_NONE, AF_NONE };
	af_tree_add_call(f->tree, node);
	if (f->timeline)
		af_tree_set_start(f->tree, node, chart_start(f, th, th->first));
	uint64_t self = inclusive >= th->top_closed ? inclusive - th->top_closed : 0;
	af_tree_add_self(f->tree, node, self);
	th->top_closed = inclusive;
	th->last_call = node;
}

void af_fold_exit(struct af_fold *f, struct af_fold_thread *th,
		  uint32_t method, uint32_t name, uint64_t t)
{
	t = observe(f, th, t);
	if (th->depth && th->stack[th->depth - 1].method == method) {
		pop(f, th, t);
		return;
	}
	size_t i = th->depth;
	while (i > 0 && th->stack[i - 1].method != method)
		i--;
	if (i == 0) {
		orphan_exit(f, th, name, t);
		return;
	}
	f->stats.mismatched_exits++;
	while (th->depth >= i)
		pop(f, th, t);
}

void af_fold_finish(struct af_fold *f, struct af_fold_thread *th)
{
	f->stats.closed_at_end += th->depth;
	while (th->depth)
		pop(f, th, th->last);
	free(th->stack);
	th->stack = NULL;
	th->cap = 0;
	th->nmat = 0;
}
