/* fold.c: method entries and exits to self times in the call tree. */
#include "fold.h"

#include <stdlib.h>

void af_fold_thread_init(struct af_fold_thread *th, uint32_t root)
{
	*th = (struct af_fold_thread){ .root = root };
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

void af_fold_enter(struct af_fold *f, struct af_fold_thread *th,
		   uint32_t method, uint32_t name, uint64_t t)
{
	t = observe(f, th, t);
	uint32_t parent = th->depth ? th->stack[th->depth - 1].node : th->root;
	uint32_t node;
	if (f->timeline) {
		node = af_tree_add_child(f->tree, parent, name);
		af_tree_set_start(f->tree, node, t - th->first);
	} else {
		node = af_tree_child(f->tree, parent, name);
	}
	af_grow(&th->stack, &th->cap, th->depth + 1, sizeof *th->stack);
	th->stack[th->depth++] = (struct af_open_frame){ node, method, t, 0 };
}

/* Close the top frame at time t and credit its self time. */
static void pop(struct af_fold *f, struct af_fold_thread *th, uint64_t t)
{
	struct af_open_frame *fr = &th->stack[--th->depth];
	uint64_t inclusive = t - fr->enter;
	uint64_t self = inclusive >= fr->callees ? inclusive - fr->callees : 0;
	f->tree->nodes[fr->node].self += self;
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
	uint32_t node = af_tree_adopt(f->tree, th->root, name);
	if (f->timeline)
		af_tree_set_start(f->tree, node, 0);
	uint64_t inclusive = t - th->first;
	uint64_t self = inclusive >= th->top_closed ? inclusive - th->top_closed : 0;
	f->tree->nodes[node].self += self;
	th->top_closed = inclusive;
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
}
