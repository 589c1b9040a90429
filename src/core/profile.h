/* profile.h: what a front end produces: the call tree, the threads it found,
 * and what it learned about the file (header keys and warnings) for --info.
 *
 * Each thread with events has a node directly below the root (or below its
 * process node, for atrace) named "name (tid)". Selecting threads marks the
 * other top-level nodes excluded; the layout skips excluded subtrees. */
#ifndef AF_PROFILE_H
#define AF_PROFILE_H

#include <stdint.h>
#include <stdbool.h>
#include "diag.h"
#include "tree.h"

struct af_thread {
	uint64_t tid;
	uint64_t pid;          /* process id, 0 when unknown */
	char *name;            /* thread name as the trace gives it */
	uint32_t node;         /* its node in the tree */
	uint32_t process_node; /* AF_NONE unless the reader groups by process */
	uint64_t events;       /* records/events seen for this thread */
	uint64_t first_time, last_time; /* on the chosen clock, in the unit */
};

/* A process that groups threads (atrace): its node is directly below the
 * root and holds one node per thread. */
struct af_process {
	uint64_t pid;
	char *name;            /* process name as the trace gives it */
	uint32_t node;         /* its node in the tree */
};

struct af_info_item { char *key, *value; };
/* A warning of one kind (its format string): counted ("12 slices still
 * open at the end") or, for a note, a sentence of its own that may have
 * happened several times (then the first one's text is kept). */
struct af_warning {
	char *text;
	uint64_t count;
	const char *kind;
	bool note;
};

struct af_profile {
	struct af_tree tree;
	struct af_thread *threads;         /* in order of first event */
	size_t nthreads, cap_threads;
	struct af_info_item *items;        /* header facts, in reading order */
	size_t nitems, cap_items;
	struct af_warning *warnings;
	size_t nwarnings, cap_warnings;
	struct af_process *processes;      /* atrace: in order of first slice */
	size_t nprocesses, cap_processes;
	const char *format;   /* "art", "folded", "atrace": static string */
	const char *clock;    /* "wall", "thread-cpu", or NULL (no clock) */
	const char *unit;     /* "µs" or "samples": static string */
	const char *measure;  /* with no clock, what weights measure for the
				 subtitle ("unreleased bytes"), or NULL */
	unsigned decimals;    /* weights are fixed point with this many decimals */
	char *event;          /* the event type drawn (perf.data, simpleperf:
				 "cpu-clock"), for the subtitle; owned, or NULL */
	unsigned captures;    /* inputs read as this one profile (merge.h); 0: one */
	bool averaged;        /* their weights divided by captures (--average) */
};

/* Event types of a sampling profile (perf.data, report-sample): a name as
 * the file gives it (not NUL-terminated). */
struct af_event_name { const char *s; size_t n; };

/* The index of the event type named want (--event) among a file's n event
 * types; want NULL: 0, the first. A name without its modifier picks the one
 * event type with it (cpu-clock: cpu-clock:u). No such name, or several
 * with modifiers: -1 with d set to a message listing the file's types. */
int af_event_pick(const char *want, const struct af_event_name *names, size_t n, struct af_diag *d);
/* What an event's periods count: "ns" for the clocks (cpu-clock,
 * task-clock, with any ":u"-like modifier), else "events". */
const char *af_event_unit(struct af_event_name name);

void af_profile_init(struct af_profile *p);
void af_profile_release(struct af_profile *p);

/* Add a thread (its name is copied); returns its index in p->threads. */
size_t af_profile_add_thread(struct af_profile *p, uint64_t tid, const char *name, size_t name_len);

/* Add a process (its name is copied) drawn at node; returns its index. */
size_t af_profile_add_process(struct af_profile *p, uint64_t pid, const char *name, size_t name_len,
			      uint32_t node);

/* Record a header fact for --info ("version", "3"). Value is printf-style. */
/* An --info line "key: TOTAL (source: name N, name N)" of the nonzero
 * counts[1..n] (counts[0] is no failure; counts[n] is named "other"), the
 * counts of kinds named names[0..n-1]. Nothing when every count is 0. */
void af_profile_info_kinds(struct af_profile *p, const char *key, const char *source,
			   const char *const *names, size_t n, const uint64_t *counts);
void af_profile_info(struct af_profile *p, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Look up a fact; NULL if absent. */
const char *af_profile_get_info(const struct af_profile *p, const char *key);
/* Record a warning that happened count times (nothing if count is 0): the
 * text follows the count ("frames still open at the end"). Warnings of one
 * kind (the same fmt) are one line whose counts add up, so a file cannot
 * make a million lines. */
void af_profile_warn(struct af_profile *p, uint64_t count, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Record a note: a warning that reads as a sentence of its own ("the file
 * ends inside an item at offset ..."); notes of one kind are one line. */
void af_profile_note(struct af_profile *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A warning as one line of text, without "warning: ": "12 frames still
 * open ..." or "the file ends ... (3 times; the first shown)". Caller frees
 * with free(). */
char *af_warning_line(const struct af_warning *w);

/* Thread selection. Each spec is a thread name or a decimal tid. Fills
 * excluded[node] = 1 for every top-level node not selected (excluded must
 * have tree.nnodes bytes, zeroed). Returns the number of threads selected,
 * or -1 with diag set when a spec matches no thread. */
int af_profile_select(const struct af_profile *p, char *const *specs, size_t nspecs,
		      uint8_t *excluded, size_t *only_thread, struct af_diag *d);

/* Process selection (atrace -p). Each spec is a process name or a decimal
 * pid. Sets excluded[node] = 1 for every process node not selected (on top
 * of what af_profile_select excluded). Returns the number of processes
 * selected (*only_process is one of them), or -1 with diag set when a spec
 * matches no process. */
int af_profile_select_processes(const struct af_profile *p, char *const *specs, size_t nspecs,
				uint8_t *excluded, size_t *only_process, struct af_diag *d);

#endif
