/* perfetto_int.h: what the files of the Perfetto reader share, and no
 * other file: the reader's state (struct pf), the trace's field numbers,
 * and the functions one section of the reader offers the others.
 *
 *   read_perfetto.c     packets and sequences, the walks, --info, the reader
 *   perfetto_intern.c   sequences' interned data, kept as message bytes
 *   perfetto_ftrace.c   ftrace events; slice events and names gathered
 *   perfetto_track.c    track events and descriptors, the process tree
 *   perfetto_samples.c  CPU samples (perf_sample, streaming_profile)
 *   perfetto_heap.c     heapprofd's profile packets
 *   perfetto_fold.c     gathered slice events merged into time order and
 *                       folded by the slice builder (slices.h), streaming
 *
 * Each file uses only those listed above it (the no-cycle rule of
 * tests/suites/modules.sh); read_perfetto.c's opening says how the whole
 * reads a trace. */
#ifndef AF_PERFETTO_INT_H
#define AF_PERFETTO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "input.h"
#include "proto.h"
#include "read.h"
#include "slices.h"
#include "core/buf.h"
#include "core/idmap.h"
#include "core/profile.h"
#include "core/util.h"

/* field numbers (perfetto_trace.proto) */
enum {
	TRACE_PACKET = 1,
	PKT_FTRACE = 1, PKT_PROCESS_TREE = 2, PKT_TIMESTAMP = 8, PKT_SEQ_ID = 10, PKT_TRACK_EVENT = 11,
	PKT_INTERNED = 12, PKT_SEQ_FLAGS = 13, PKT_PROFILE = 37, PKT_CLEARED = 41, PKT_DROPPED = 42,
	PKT_PROCESS_DESC = 43, PKT_THREAD_DESC = 44, PKT_COMPRESSED = 50, PKT_STREAMING_PROFILE = 54,
	PKT_DEFAULTS = 59, PKT_TRACK_DESC = 60, PKT_PERF_SAMPLE = 66, PKT_ZSTD = 133,
	PROF_STRINGS = 1, PROF_FRAMES = 2, PROF_CALLSTACKS = 3, PROF_MAPPINGS = 4, PROF_DUMPS = 5,

	SEQ_CLEARED = 1,
	ID_EVENT_NAMES = 2, ID_FUNCTION_NAMES = 5, ID_FRAMES = 6, ID_CALLSTACKS = 7,
	ID_MAPPING_PATHS = 17, ID_MAPPINGS = 19,
};

enum intern { I_EVENT_NAME, I_FUNCTION_NAME, I_FRAME, I_CALLSTACK, I_MAPPING_PATH, I_MAPPING, I_KINDS };

struct seq {
	struct af_idmap interned[I_KINDS];   /* iid -> spans[] */
	uint64_t default_track;               /* trace_packet_defaults */
	int64_t pid, tid;                     /* thread_descriptor (legacy), -1 */
	uint64_t generation;                  /* incremental state clears so far */
};

/* An interned entry: the bytes of its message, parsed at its first use;
 * what that use found is kept with it, so an entry is parsed once however
 * often it is used (issue 36: each use parsed it again). What an entry
 * resolves to at its first use stands for the rest of its sequence's
 * generation, as a writer never redefines an iid within one. */
enum { SPAN_UNREAD, SPAN_FOUND, SPAN_NONE };
struct span {
	const uint8_t *p;
	size_t n;
	uint64_t off;
	const uint8_t *str;                   /* its name (field 2); a mapping's: its file's path */
	uint32_t strn;
	uint8_t str_state;                    /* SPAN_*: str read yet, and found */
	uint32_t name;                        /* a frame's name in the tree, AF_NONE until made */
	uint32_t misses;                      /* references to entries the sequence lacks
						 that resolving str or name made */
};

/* A callstack folded under a node: the leaf it reached (pf.folds). */
struct fold { uint32_t node, span, leaf, misses; };

struct track { int64_t pid, tid; };      /* tid -1: a process track; both -1: global */

/* A track event on a track not described yet: writers may describe a
 * track after its first event. Held (names kept) until the descriptor
 * comes, chained per track in file order; at the end of the walk, on its
 * sequence's thread as an event on an unknown track always was. */
struct held {
	uint64_t ts;
	const uint8_t *s;
	size_t n;
	uint32_t kind;                        /* EV_BEGIN, EV_END; EV_PRINT: released */
	int64_t pid, tid;                     /* its sequence's */
	uint32_t next, last;                  /* the chain (last: in its first only) */
};

/* A trace mark's text (EV_PRINT), a track-event slice begun (EV_BEGIN,
 * its name as text) or ended (EV_END, also a bare "E" mark), a
 * "B|pid|name" mark (EV_MARK_BEGIN: its name in marks[]). */
enum { EV_PRINT, EV_BEGIN, EV_END, EV_MARK_BEGIN };

/* A slice event, folded in time order. Kept small (24 bytes): a large
 * trace holds millions, and writing them is most of reading it. A text is
 * in memory that lasts the walk, or, read through a window, copied to
 * pf.texts (u.at) until it is folded. */
struct pev {
	uint64_t ts;
	union {
		const uint8_t *s;
		size_t at;
		struct { uint32_t name; int32_t pid; } mark;
	} u;
	uint32_t n_kind;                      /* length << 2 | EV_* */
	uint32_t actor;                       /* actors[] */
};

struct actor { uint64_t tid; int64_t pid; };   /* who an event belongs to */

struct name { uint64_t id; int64_t pid; const uint8_t *s; uint32_t n; bool thread; };

/* The name of a "B|pid|name" mark: its bytes (kept), and the frame name
 * they make, found on its first fold (AF_NONE until then). */
struct mark_name { const uint8_t *s; uint32_t n; uint32_t name; };

struct sample_thread { uint64_t tid; int64_t pid; uint32_t node; size_t index; };

struct heap {                             /* one heap of one process */
	int64_t pid;
	uint32_t node;                        /* its graph */
	size_t thread;                        /* in the profile */
};

struct heap_stack {                       /* one callstack of one heap */
	uint64_t last;                        /* the ordinal of its last sample */
	uint64_t weight;                      /* what that sample said */
};

/* What a walk over the packets folds. Heaps take two walks: the scan finds
 * each callstack's last sample, the fold draws only those, so a stack that
 * ends at 0 draws nothing and each resolves with the interned data of its
 * own dump. */
enum draw { DRAW_SLICES, DRAW_CPU, DRAW_HEAP_SCAN, DRAW_HEAP };

/* Where slice events come from, each in time order: (sequence, ftrace
 * CPU) or a sequence's track events. */
struct source {
	uint64_t last;                        /* its latest event's time */
	uint64_t flush;                       /* the flush it was last seen before */
};

/* Copies of bytes that must outlive the window they were read from
 * (interned entries, names): blocks that never move. */
struct kept {
	struct kept *next;
	size_t used, cap;
	uint8_t data[];
};

struct pf {
	struct af_profile *p;
	const struct af_read_opts *o;
	struct af_diag *d;
	struct seq *seqs;
	size_t nseqs, cap_seqs;
	struct af_idmap seq_ids;
	struct span *spans;
	struct fold *folds;                   /* callstacks folded, by (node, callstack) */
	size_t nfolds, cap_folds;
	struct af_idmap fold_ids;             /* keyed hash of (node, span) -> folds[] */
	size_t nspans, cap_spans;
	struct track *tracks;
	size_t ntracks, cap_tracks;
	struct af_idmap track_ids;            /* uuid -> tracks[] */
	struct held *held;
	size_t nheld, cap_held;
	struct af_idmap held_ids;             /* uuid -> its first held[] */
	struct pev *ev;                       /* gathered, not yet folded, in file order */
	size_t nev, cap_ev;
	uint64_t *order;                      /* fold_sorted's keys and their scratch */
	size_t cap_order;
	uint64_t events;                      /* slice events in all */
	/* streaming (see the top): */
	bool stream;                          /* fold as the watermark passes */
	bool broken;                          /* an event came before one folded */
	struct af_slices *slices;         /* the builder, from the first fold on */
	uint64_t folded;                      /* the latest time folded */
	bool folded_any;
	size_t flush_at;                      /* fold when nev reaches this */
	uint64_t flushes;
	struct source *sources;
	size_t nsources, cap_sources;
	struct af_idmap source_ids;           /* (sequence, cpu) -> sources[] */
	uint64_t source_key;                  /* the source of the events being read */
	uint32_t source;                      /* its index, AF_NONE until its first event */
	const struct af_input *in;
	size_t consumed;                      /* in->data before this is done with */
	/* A streaming walk reads a large mapped file through a
	 * window (af_window): faulting the mapping in costs more than the
	 * rest of the reading on a VM. Nothing may then point into the bytes
	 * of a packet once it is done: */
	bool copy;                            /* the window's bytes are reused */
	struct af_buf texts, texts_next;      /* the gathered events' texts */
	struct kept *kept;                    /* interned entries, names; kept
						 from walk to walk like names */
	struct mark_name *marks;
	size_t nmarks, cap_marks;
	struct af_idmap mark_ids;             /* keyed hash of a mark's name -> marks[] */
	uint32_t *mark_cache;                 /* MARK_CACHE slots: marks[] met lately */
	struct actor *actors;
	size_t nactors, cap_actors;
	struct af_idmap actor_ids;            /* keyed hash of (tid, pid) -> actors[] */
	uint32_t last_actor;                  /* consecutive events share one */
	struct name *names;
	size_t nnames, cap_names;
	struct sample_thread *sthreads;
	size_t nsthreads, cap_sthreads;
	struct af_idmap sthread_ids;          /* tid -> sthreads[] */
	struct af_idmap sproc_nodes;          /* pid -> process node */
	struct af_buf *inflated;              /* decompressed packet groups */
	size_t ninflated, cap_inflated;
	uint64_t inflate_left;                /* bytes all of them may still take */
	struct heap *heaps;
	size_t nheaps, cap_heaps;
	struct af_idmap heap_ids;             /* keyed hash of (pid, heap name) -> heaps[] */
	struct heap_stack *hstacks;           /* kept from the scan to the fold */
	size_t nhstacks, cap_hstacks;
	struct af_idmap hstack_ids;           /* keyed hash of (pid, heap name, sequence,
						 generation, callstack iid) -> hstacks[] */
	uint64_t heap_ordinal;                /* heap samples so far in this walk */
	struct af_buf scratch, frame;
	enum draw draw;                       /* what this pass folds */
	/* --info */
	uint64_t packets, dropped, sequences, cleared, ftrace, prints, track_slices, cpu_samples,
		 sample_weight, compressed, zstd, unknown_iids, no_callstack, other_events,
		 heap_packets, heap_dumps, heap_samples, heap_drawn, heap_weight, heap_lost, heap_inconsistent,
		 held_events, undescribed, global_slices;
};

static inline bool pf_has_text(uint32_t kind)
{
	return kind == EV_PRINT || kind == EV_BEGIN;
}

/* What a heap graph's weights count (perfetto_heap.c): the unit, and what
 * the subtitle and messages say, by --heap's choice. */
struct pf_heap_value { const char *unit, *measure; };
extern const struct pf_heap_value pf_heap_values[];

/* ---- sequences and interning (perfetto_intern.c) ---- */
int pf_fail(struct pf *f, const struct af_proto *m);
struct seq *pf_seq_of(struct pf *f, uint64_t id);
void pf_clear_seq(struct pf *f, struct seq *s);
const uint8_t *pf_keep_bytes(struct pf *f, const uint8_t *s, size_t n);
void pf_intern(struct pf *f, struct seq *s, enum intern kind, const struct af_proto *m,
		   const struct af_proto_field *fl);
int pf_interned_data(struct pf *f, struct seq *s, const struct af_proto *pkt,
		 const struct af_proto_field *fl);
struct span *pf_lookup(struct pf *f, const struct seq *s, enum intern kind, uint64_t iid);
bool pf_span_name(struct span *e, const uint8_t **str, size_t *n);
uint64_t pf_span_varint(const struct span *e, uint32_t num);

/* ---- ftrace events and gathered slice events (perfetto_ftrace.c) ---- */
/* The index of (tid, pid) in actors[] (see pf_add_event). */
uint32_t pf_actor_of(struct pf *f, uint64_t tid, int64_t pid);
void pf_set_source(struct pf *f, const struct seq *s, uint32_t cpu);
void pf_source_at(struct pf *f, uint64_t ts);
void pf_add_name(struct pf *f, bool thread, uint64_t id, int64_t pid, const uint8_t *s, size_t n);
int pf_ftrace_bundle(struct pf *f, const struct seq *s, const struct af_proto *pkt,
		 const struct af_proto_field *fl);

/* ---- track events (perfetto_track.c) ---- */
int pf_descriptor(struct pf *f, const struct af_proto *pkt, const struct af_proto_field *fl,
		      bool thread, int64_t *pid_out, int64_t *tid_out);
void pf_release_undescribed(struct pf *f);
int pf_track_descriptor(struct pf *f, const struct af_proto *pkt, const struct af_proto_field *fl);
int pf_track_event(struct pf *f, struct seq *s, uint64_t ts, const struct af_proto *pkt,
		       const struct af_proto_field *fl);
int pf_process_tree(struct pf *f, const struct af_proto *pkt, const struct af_proto_field *fl);

/* ---- CPU samples (perfetto_samples.c) ---- */
uint32_t pf_process_node(struct pf *f, int64_t pid);
uint32_t pf_fold_callstack(struct pf *f, const struct seq *s, uint32_t node, uint64_t iid);
int pf_perf_sample(struct pf *f, const struct seq *s, const struct af_proto *pkt,
		       const struct af_proto_field *fl);
int pf_streaming_profile(struct pf *f, const struct seq *s, const struct af_proto *pkt,
		     const struct af_proto_field *fl);
void pf_name_samples(struct pf *f);

/* ---- heap profiles (perfetto_heap.c) ---- */
int pf_profile_packet(struct pf *f, struct seq *s, const struct af_proto *pkt,
		  const struct af_proto_field *fl);

/* ---- the fold (perfetto_fold.c) ---- */
/* Streaming: fold once this many events are gathered (or as many again as
 * the last fold kept, or as there are sources: each fold is paid for by
 * the events read since, so the whole stays linear). */
enum { STREAM_FOLD_MIN = 4096 };
int pf_stream_step(struct pf *f, size_t at);
int pf_fold_slices(struct pf *f);

/* Inline: most of a large trace passes here. */
/* A slice event, gathered for the fold (slice walks only); s[0..n) its
 * text if it has one. */
static inline struct pev *pf_add_event(struct pf *f, uint32_t kind, uint64_t ts, uint64_t tid,
				    int64_t pid, const uint8_t *s, size_t n)
{
	if (f->stream && f->folded_any && ts < f->folded)
		f->broken = true;   /* too late: it should have been folded already */
	f->events++;
	/* the last actor first: an ftrace bundle holds runs of one thread's events */
	uint32_t actor = f->nactors && f->actors[f->last_actor].tid == tid && f->actors[f->last_actor].pid == pid
		? f->last_actor : pf_actor_of(f, tid, pid);
	if (f->nev == f->cap_ev)
		af_grow(&f->ev, &f->cap_ev, f->nev + 1, sizeof *f->ev);
	uint32_t len = n > (UINT32_MAX >> 2) ? UINT32_MAX >> 2 : (uint32_t)n;   /* a mark's text, never this long */
	struct pev *e = &f->ev[f->nev++];
	*e = (struct pev){ .ts = ts, .n_kind = (pf_has_text(kind) ? len << 2 : 0) | kind, .actor = actor };
	if (pf_has_text(kind) && f->copy) {
		e->u.at = f->texts.len;
		af_buf_add(&f->texts, s, len);
	} else if (pf_has_text(kind)) {
		e->u.s = s;
	}
	return e;
}

#endif
