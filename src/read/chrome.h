/* chrome.h: internals of the Chrome trace-event JSON reader, shared by its
 * parser (chrome_parse.c: JSON callbacks that keep what the graph needs)
 * and its folding (read_chrome.c), and seen by the unit tests.
 *
 * The parser keeps, in file order: B, E and X events (slices), async
 * b/e and S/F events, samples and their stackFrames, V8 CPU profiles'
 * nodes and samples (chrome_profile.c), process and thread
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

/* V8's CPU profiles inside a trace (Chrome's JS sampler): a "Profile"
 * event (ph P, on the sampled thread) whose "ProfileChunk" events (same pid
 * and id, from the profiler's thread) carry args.data.cpuProfile.nodes
 * (id, parent, callFrame), .samples (node ids) and args.data.timeDeltas
 * (µs, the first from the profile's startTime); or, before Chrome 69, one
 * "CpuProfile" event holding a whole profile (nodes with children). Nodes
 * become stackFrames entries of keys of their own; samples are kept with
 * their deltas until the parse ends (a chunk may come before its Profile),
 * then become samples of the profile's thread. */
struct chrome_pnode {          /* a node of the event being read */
	int64_t id, parent;    /* parent: -1 when the node names none */
	uint32_t name;         /* interned; AF_NONE for "(root)", no frame */
};

struct chrome_psample {        /* a profile's sample, resolved after the parse */
	uint64_t profile, frame;   /* the profile's key, the node's frame key */
	int64_t delta;             /* ns after the profile's sample before (the first: its start) */
};

struct chrome_vprofile {
	uint64_t key;              /* hash of pid and id */
	uint32_t thread;           /* the sampled thread: the Profile event's */
	int64_t elapsed, last;     /* ns: start plus the deltas so far; the last sample's time */
	uint64_t last_frame;       /* the last sample's frame (runs of one node are one sample) */
	bool sampled;
};

struct chrome_pending {        /* what a profile event's args hold, until the event ends */
	struct chrome_pnode *nodes;
	size_t nnodes, cap_nodes;
	int64_t *kids;             /* pairs: index in nodes, child id (CpuProfile's "children") */
	size_t nkids, cap_kids;
	int64_t *samples, *deltas, *cdeltas;   /* deltas: args.data's; cdeltas: the cpuProfile's */
	size_t nsamples, cap_samples, ndeltas, cap_deltas, ncdeltas, cap_cdeltas;
	int64_t start;             /* startTime, ns */
	bool has_start;
	int64_t line;              /* the node being read: its callFrame's lineNumber */
	struct af_buf fn, url;
};

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
	uint64_t profiles, profile_chunks, profile_samples, profile_orphans, profile_dups, profile_unpaired;
	uint64_t profile_backwards;
};

/* What the current event holds, as its members come (in any order). */
struct chrome_event {
	char ph;
	bool has_ts, has_dur, has_tdur, has_id, has_pid, has_tid, has_sf;
	int64_t ts, dur, tdur, pid, tid;
	uint64_t id, sf;
	struct af_buf name, cat, arg_name;
};

enum { CHROME_MAX_ROLES = 12 };

struct chrome {
	struct af_json json;       /* first: the JSON scanner's context */
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
	struct chrome_pending pend;
	struct chrome_psample *psamples;
	size_t npsamples, cap_psamples;
	struct chrome_vprofile *vprofs;
	size_t nvprofs, cap_vprofs;
	struct af_idmap vprof_index;  /* key -> vprofs[] */
	struct af_idmap frame_index;  /* key -> frames[] */
	struct chrome_proc *procs;
	size_t nprocs, cap_procs;
	struct af_idmap proc_index;
	struct chrome_thread *threads;
	size_t nthreads, cap_threads;
	struct af_idmap thread_index;
	struct af_idmap tid_index;    /* tid -> its latest thread (samples name no pid) */
	struct af_idmap string_ids;   /* a pid/tid string's hash -> its number, in order seen */
	uint32_t *string_names;       /* by that number: the string, interned */
	size_t cap_string_names;
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
enum chrome_pkind { CHROME_PROFILE, CHROME_PROFILE_CHUNK, CHROME_CPU_PROFILE };
/* The profile event e ends (chrome_profile.c): its nodes and samples kept;
 * thread: the event's (unused for a chunk). */
void chrome_profile_event(struct chrome *c, const struct chrome_event *e, enum chrome_pkind kind,
			  uint32_t thread);
/* After the parse: the profiles' samples as samples of their threads. */
void chrome_profiles_resolve(struct chrome *c);
void chrome_pending_release(struct chrome_pending *pd);
/* A stackFrames key or "sf" value (number or string) as a 64-bit key. */
uint64_t chrome_frame_key(const char *s, size_t n);

#endif
