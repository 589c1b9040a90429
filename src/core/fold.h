/* fold.h: turns a thread's method entries and exits into call-tree weights,
 * by the rules in docs/semantics.md (shared by every ART variant):
 *   - an exit pops the matching frame; frames above it are closed at that time
 *   - an exit whose method is not on the stack (orphan exit) makes that method
 *     the caller of every earlier top-level call of the thread, from its first
 *     event (open frames are closed first)
 *   - af_fold_finish closes frames still open at the thread's last event.
 * Weights are self times: a frame's duration minus its callees' durations.
 * Each call entered counts one call on its node (af_tree_calls); an orphan
 * exit counts one call of the method it makes the caller.
 * A time window (--from/--to) keeps only the time inside it: frames are
 * clipped to it, frames wholly outside it get no node (a frame becomes a
 * node only once it is known to overlap the window, with its callers).
 * Nothing is allocated per event once the stack has grown to its depth. */
#ifndef AF_FOLD_H
#define AF_FOLD_H

#include <stdint.h>
#include <stdbool.h>
#include "tree.h"

struct af_open_frame {
	uint32_t node;     /* tree node of this call; AF_NONE while it is not
			      known to overlap the time window */
	uint32_t name;     /* frame name, to make the node late */
	uint32_t method;   /* reader's method key, to match exits */
	uint32_t last_call; /* node of the callee that returned last, or AF_NONE */
	uint64_t enter;    /* entry time */
	uint64_t callees;  /* inclusive time of callees closed so far */
};

struct af_fold_thread {
	uint32_t root;                 /* the thread's node */
	uint32_t last_call;            /* like af_open_frame.last_call, at top level */
	struct af_open_frame *stack;
	size_t depth, cap;
	size_t nmat;                   /* stack[0..nmat) have nodes */
	bool started;
	uint64_t first, last;          /* first and latest event time */
	uint64_t top_closed;           /* time covered by closed top-level calls */
};

struct af_fold_stats {
	uint64_t orphan_exits;     /* exit with the method nowhere on the stack */
	uint64_t mismatched_exits; /* exit of a method deeper than the top */
	uint64_t closed_at_end;    /* frames still open at the end */
	uint64_t time_backwards;   /* an event earlier than the one before it */
};

struct af_fold {
	struct af_tree *tree;
	struct af_fold_stats stats;
	/* Code runs the same callees in the same order again and again, so the
	 * nodes entered after a call returned (hints[c].after) or first below
	 * a node (hints[n].first) are the likely next ones: the two met last
	 * (a loop body, then what follows the loop) are checked before the
	 * hash probe. A hint keeps its node's name, so checking it reads no
	 * node: a hint only ever names a child of its parent (after: a sibling
	 * of c), and nodes keep their names. Indexed by node; grown on demand.
	 * Freed by af_fold_release. */
	struct af_fold_hints {
		struct af_fold_hint { uint32_t node, name; } after[2], first[2];   /* latest first */
	} *hints;
	size_t cap_hints;
	bool timeline;   /* every call its own node, placed at its entry time
			    (without a window: its time, from the thread's
			    first event with window_per_thread; with one:
			    from `from`): a flame chart */
	/* Time window [from, to): only time inside it counts. Positions are
	 * the thread's times (wall: since the trace start), or with
	 * window_per_thread times since the thread's first event (cpu). */
	bool window, window_per_thread;
	uint64_t from, to;
};

void af_fold_thread_init(struct af_fold_thread *th, uint32_t root);

/* An event at time t (already unwrapped to 64 bits; never earlier than the
 * thread's previous event: such times are clamped and counted). */
void af_fold_enter(struct af_fold *f, struct af_fold_thread *th,
		   uint32_t method, uint32_t name, uint64_t t);
void af_fold_exit(struct af_fold *f, struct af_fold_thread *th,
		  uint32_t method, uint32_t name, uint64_t t);

/* Close the frames still open at the thread's last event; frees the stack. */
void af_fold_finish(struct af_fold *f, struct af_fold_thread *th);

/* Free the hints (after every thread is finished). */
void af_fold_release(struct af_fold *f);

#endif
