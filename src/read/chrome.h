/* chrome.h: internals of the Chrome trace-event JSON reader, shared by its
 * parser (chrome_parse.c: yajl callbacks that keep what the graph needs)
 * and its folding (read_chrome.c), and seen by the unit tests.
 *
 * The parser keeps, in file order: B, E and X events (slices), async
 * b/e and S/F events, samples and their stackFrames, process and thread
 * names from metadata events; times in ns (the file's µs, fractions kept
 * until the fold rounds them). Everything else is counted for --info. */
#ifndef AF_CHROME_H
#define AF_CHROME_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "json.h"
#include "core/buf.h"
#include "core/idmap.h"
#include "core/fold.h"
#include "core/profile.h"

struct chrome_rec {            /* a slice event: B, E or X */
	int64_t ts, dur;       /* ns; dur for X */
	uint32_t thread;       /* index in threads[] */
	uint32_t name;         /* interned in the profile's tree; AF_NONE: an E without a name */
	uint32_t seq;          /* file order */
	char ph;
};

struct chrome_async {          /* an async begin or end (b/e, S/F) */
	int64_t ts;
	uint64_t key;          /* hash of pid, category, id and name */
	uint32_t proc, name, seq;
	bool begin;
};

struct chrome_sample {         /* a sample of the "samples" array */
	int64_t ts;
	uint64_t frame;        /* its "sf": a key of stackFrames */
	uint32_t thread, seq;
};

struct chrome_frame {          /* one entry of "stackFrames" */
	uint64_t key, parent;  /* parent: a key, or CHROME_NO_FRAME */
	uint32_t name;
};
#define CHROME_NO_FRAME UINT64_MAX

struct chrome_proc {
	int64_t pid;
	uint32_t name;         /* from process_name metadata, AF_NONE */
	uint32_t node;         /* AF_NONE until drawn */
	size_t pindex;
	size_t nthreads;
};

struct chrome_thread {
	int64_t pid, tid;
	uint32_t proc;         /* index in procs[] */
	uint32_t name;         /* from thread_name metadata, AF_NONE */
	uint32_t node;
	size_t pindex;
	uint64_t events;
	struct af_fold_thread fold;
};

struct chrome_stats {
	uint64_t events, slices_b, slices_e, slices_x, zero_x, metadata, async_begins, async_ends;
	uint64_t instants, counters, flows, samples_ph, other, no_ph, no_ts, unmatched_ends;
	uint64_t name_mismatches, async_orphans, async_dups, async_unfinished, instants_async;
	uint64_t samples, frames, unknown_frames, frame_loops, system_trace_events, bad_numbers, open_at_end;
};

/* What the current event holds, as its members come (in any order). */
struct chrome_event {
	char ph;
	bool has_ts, has_dur, has_tdur, has_id, has_pid, has_tid, has_sf;
	int64_t ts, dur, tdur, pid, tid;
	uint64_t id, sf;
	struct af_buf name, cat, arg_name;
};

enum { CHROME_MAX_ROLES = 8 };

struct chrome {
	struct af_json json;       /* first: yajl's context */
	struct af_profile *p;
	const struct af_read_opts *o;
	/* the parse: the role of each open container, the member coming */
	uint8_t role[CHROME_MAX_ROLES];
	int key;
	bool object_form;          /* {"traceEvents": ...}, not a bare array */
	struct chrome_event ev;
	uint64_t frame_key;        /* the stackFrames member being read */
	uint64_t seq;
	/* what was kept */
	struct chrome_rec *recs;
	size_t nrecs, cap_recs;
	struct chrome_async *async;
	size_t nasync, cap_async;
	struct chrome_sample *samples;
	size_t nsamples, cap_samples;
	struct chrome_frame *frames;
	size_t nframes, cap_frames;
	struct af_idmap frame_index;  /* key -> frames[] */
	struct chrome_proc *procs;
	size_t nprocs, cap_procs;
	struct af_idmap proc_index;
	struct chrome_thread *threads;
	size_t nthreads, cap_threads;
	struct af_idmap thread_index;
	struct af_idmap tid_index;    /* tid -> its latest thread (samples name no pid) */
	uint64_t last_key;            /* the thread found last, for runs of one thread */
	uint32_t last_thread;
	struct af_buf scratch;
	bool have_ts;
	int64_t min_ts, max_ts;
	struct chrome_stats st;
	struct af_fold_stats fold_stats;
};

void chrome_init(struct chrome *c, struct af_profile *p, const struct af_read_opts *o);
void chrome_release(struct chrome *c);
/* Parse in into c's tables: 0, or -1 with diag set (chrome_parse.c). */
int chrome_parse(struct chrome *c, const struct af_input *in, struct af_diag *d);
/* The process of pid and the thread (pid, tid), made on first use. */
uint32_t chrome_proc(struct chrome *c, int64_t pid);
uint32_t chrome_thread(struct chrome *c, int64_t pid, int64_t tid);
/* A stackFrames key or "sf" value (number or string) as a 64-bit key. */
uint64_t chrome_frame_key(const char *s, size_t n);

#endif
