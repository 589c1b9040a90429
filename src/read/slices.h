/* slices.h: the slice builder, shared by the atrace and Perfetto readers.
 *
 * Threads and processes, B/E and async (S/F, G/H) marks folded into the
 * profile's process > thread > slice trees (or, with --async, the async
 * graph: process > [track >] name), names resolved at the end, facts and
 * warnings for --info. Times are µs from any origin; they count from the
 * first event seen. Events of one thread must come in time order. The
 * rules are docs/semantics.md's; the mark syntax atrace-format.md §3.4.
 *
 * A reader gives it events (af_slices_ftrace for an ftrace event, or the
 * begin/end/mark calls for events it decoded itself) and names, then
 * calls af_slices_finish. */
#ifndef AF_SLICES_H
#define AF_SLICES_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "read.h"
#include "core/diag.h"
#include "core/profile.h"

/* One ftrace event (atrace-format.md §3.3): from a text line
 * (atrace_parse_line) or made by a reader from its own encoding. */
struct af_ftrace_event {
	const char *task;          /* comm, leading spaces removed */
	size_t task_len;
	uint64_t tid;
	int64_t tgid;              /* -1 when absent or "(-----)" */
	uint32_t cpu;
	uint64_t ts;               /* µs */
	const char *event;         /* "tracing_mark_write", "0", "sched_switch"... */
	size_t event_len;
	const char *payload;       /* the rest of the line, trimmed */
	size_t payload_len;
};

/* A trace mark's payload (after trace-cmd's "<ip>: " prefix) as the slice
 * builder reads it: "B|pid|name", "E", "E|pid[|name]", "S|pid|name|cookie"
 * and the other kinds of atrace-format.md §3.4, a trailing newline (or
 * escaped one) dropped. af_mark_parse() returns the kind letter ('B', 'E',
 * 'S'...; m filled when it has a pid, m->text NULL for a bare "E") or one
 * of these: */
enum { AF_MARK_BAD = -1, AF_MARK_OTHER = -2, AF_MARK_CLOCK_SYNC = -3 };
struct af_mark {
	int64_t pid;               /* -1: none */
	bool more;                 /* a '|' after the pid */
	const char *text, *end;    /* after "pid|", up to the end of the payload */
	size_t n;                  /* the name's length: end - text, 0 without more */
};
int af_mark_parse(const char *s, size_t len, struct af_mark *m);

/* What a text capture says of itself, reported among the builder's facts
 * and warnings (--info) and used to place a bad mark: the reader fills it
 * (af_slices_text) as it reads; a reader of no text leaves it zero. */
struct af_slices_text {
	uint64_t lines;            /* read so far: the current line's number */
	uint64_t skipped, first_skipped;             /* lines that are no event */
	uint64_t buffer_started;                     /* "##### CPU n buffer started" */
	uint64_t entries_in_buffer, entries_written; /* the header's counts */
	bool have_entries;
};

struct af_slices;
struct af_slices *af_slices_new(struct af_profile *p, const struct af_read_opts *o,
				struct af_diag *d);
struct af_slices_text *af_slices_text(struct af_slices *r);
/* One ftrace event: its task name, a trace mark, a sched event's names.
 * e->ts is changed to count from the first event. */
void af_slices_ftrace(struct af_slices *r, struct af_ftrace_event *e);
/* A slice begun on thread tid of process pid (-1: unknown), and the end of
 * the innermost open slice of tid (track events). */
void af_slices_begin(struct af_slices *r, uint64_t tid, int64_t pid, uint64_t ts,
		     const char *name, size_t n);
void af_slices_end(struct af_slices *r, uint64_t tid, uint64_t ts);
/* A trace mark parsed by the caller (af_mark_parse) and folded later: the
 * frame name a slice named s[0..n) gets (in the tree the slices are folded
 * into), and the "B|pid|name" mark of thread tid with that name, as
 * af_slices_ftrace() would fold it. A bare "E" or "E|pid" mark is
 * af_slices_end(). */
uint32_t af_slices_name(struct af_slices *r, const char *s, size_t n);
void af_slices_mark_begin(struct af_slices *r, uint64_t tid, int64_t pid, uint64_t ts, uint32_t name);
/* Names from a process listing (PROCESS DUMP, Perfetto's process tree and
 * descriptors); a name the thread gave itself in an event wins. True when
 * the thread's slices already went under another process (its first
 * slice came before this name): a fold with every name known first would
 * differ. */
bool af_slices_name_thread(struct af_slices *r, uint64_t tid, int64_t pid,
			   const char *name, size_t n);
void af_slices_name_process(struct af_slices *r, int64_t pid, const char *name, size_t n);
/* Events seen so far. */
uint64_t af_slices_events(const struct af_slices *r);
/* Record the facts and warnings of what was read, for --info (finish does;
 * a reader that fails before it may call this alone). */
void af_slices_report(struct af_slices *r);
/* Close open slices, name the nodes, record facts and warnings. Returns 0,
 * or -1 with diag set when there is nothing to draw (unless --info): "no
 * slices to draw: <events> <no_slices>". */
int af_slices_finish(struct af_slices *r, const char *no_slices);
void af_slices_free(struct af_slices *r);

#endif
