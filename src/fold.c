/* fold.c: method entries and exits to self times in the call tree. */
#include "fold.h"

#include <stdlib.h>

void af_fold_thread_init(struct af_fold_thread *th, uint32_t root)
{
	*th = (struct af_fold_thread){ .root = root, .last_call = AF_NONE };
}

void af_fold_release(struct af_fold *f)
{
	free(f->after);
	free(f->first);
	f->after = f->first = NULL;
	f->cap_hints = 0;
}

static void grow_hints(struct af_fold *f, size_t need)
{
	size_t old = f->cap_hints, cap = old;
	af_grow(&f->after, &cap, need, sizeof *f->after);
	af_grow(&f->first, &f->cap_hints, need, sizeof *f->first);
	for (size_t i = old; i < f->cap_hints; i++)
		f->after[i] = f->first[i] = AF_NONE;
}

/* The child of parent named name: the hinted node if it fits, else a probe;
 * prev is the sibling that returned last (AF_NONE: first call below parent). */
static uint32_t callee(struct af_fold *f, uint32_t parent, uint32_t prev, uint32_t name)
{
	struct af_tree *t = f->tree;
	uint32_t *hint = prev != AF_NONE ? &f->after[prev] : &f->first[parent];
	uint32_t n = *hint;
	if (n != AF_NONE && t->nodes[n].name == name && t->nodes[n].parent == parent)
		return n;
	n = af_tree_child(t, parent, name);
	if (t->nnodes > f->cap_hints) {
		size_t slot = (size_t)(hint - (prev != AF_NONE ? f->after : f->first));
		grow_hints(f, t->nnodes);
		hint = (prev != AF_NONE ? f->after : f->first) + slot;
	}
	*hint = n;
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

void af_fold_enter(struct af_fold *f, struct af_fold_thread *th,
		   uint32_t method, uint32_t name, uint64_t t)
{
	t = observe(f, th, t);
	struct af_open_frame *top = th->depth ? &th->stack[th->depth - 1] : NULL;
	uint32_t parent = top ? top->node : th->root;
	uint32_t node;
	if (f->timeline) {
		node = af_tree_add_child(f->tree, parent, name);
		af_tree_set_start(f->tree, node, t - th->first);
	} else {
		if (parent >= f->cap_hints)
			grow_hints(f, f->tree->nnodes);
		node = callee(f, parent, top ? top->last_call : th->last_call, name);
	}
	af_grow(&th->stack, &th->cap, th->depth + 1, sizeof *th->stack);
	th->stack[th->depth++] = (struct af_open_frame){ node, method, AF_NONE, t, 0 };
}

/* Close the top frame at time t and credit its self time. */
static void pop(struct af_fold *f, struct af_fold_thread *th, uint64_t t)
{
	struct af_open_frame *fr = &th->stack[--th->depth];
	uint64_t inclusive = t - fr->enter;
	uint64_t self = inclusive >= fr->callees ? inclusive - fr->callees : 0;
	f->tree->nodes[fr->node].self += self;
	if (th->depth) {
		th->stack[th->depth - 1].callees += inclusive;
		th->stack[th->depth - 1].last_call = fr->node;
	} else {
		th->top_closed += inclusive;
		th->last_call = fr->node;
	}
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
}
