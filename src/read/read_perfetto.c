/* read_perfetto.c: Perfetto traces (protobuf), as Android 10+ writes them
 * (Android Studio's System Trace, adb shell perfetto, Traceur). A trace is a
 * sequence of TracePacket messages (field 1); reference: the protos in
 * google/perfetto protos/perfetto/trace/ and docs/perfetto.md.
 *
 * Three kinds of graph come out of one pass over the packets:
 *   slices       ftrace print events (the atrace B|pid|name marks) and
 *                track_event SLICE_BEGIN/END, folded by the slice
 *                builder (slices.h) into process > thread > slice trees;
 *   CPU samples  perf_sample and streaming_profile_packet callstacks, by
 *                thread, weighted by samples (timebase_count when set);
 *   heap         heapprofd's profile_packet dumps, by process and heap:
 *                unreleased, allocated or freed bytes, or the counts. A
 *                dump's numbers for a callstack are totals since profiling
 *                began, so each callstack weighs what its last dump said
 *                (as Perfetto's trace processor counts them).
 * Slices are the default when the trace has them, else samples, else heap.
 *
 * Interned data (names, frames, callstacks, mappings) belongs to a packet
 * sequence and is dropped when the sequence clears its incremental state;
 * entries are kept as the bytes of their message and resolved when used, so
 * an entry may name one that comes later in the same InternedData.
 *
 * Slice events must reach the slice builder in time order (equal times in
 * file order), but ftrace bundles are per CPU and overlap in time. They are
 * folded while the packets are read: each source (a sequence's CPU, or a
 * sequence's track events) comes in time order, so once every source has
 * passed a time (the watermark) no event before it can follow, and the
 * events up to it are folded; memory follows the open slices and the
 * tree, not the trace. A streaming walk reads a large file a window at a
 * time (af_window), so a print event's mark is read as it is gathered (a
 * B|pid|name keeps an index into the names seen, a bare E is an end) and
 * any other text kept is copied. Names reach the slice builder as they
 * come; only a thread's process must be known at its first slice. An
 * event earlier than one already folded (a source that starts late, a
 * bundle far out of order), a name that moves a thread already folded to
 * another process, or compressed packets make the reader gather every
 * event and fold them at the end instead, as if it had never streamed:
 * the builder sees the same calls either way.
 * Every length is checked by the protobuf walker. */
#include "slices.h"
#include "demangle.h"
#include "inflate.h"
#include "proto.h"
#include "radix.h"
#include "core/idmap.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

struct span { const uint8_t *p; size_t n; uint64_t off; };

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

static int fail(struct pf *f, const struct af_proto *m)
{
	return af_diag_offset(f->d, m->error_offset, "malformed protobuf: %s", m->error);
}

/* ---- sequences and interning ---- */

static struct seq *seq_of(struct pf *f, uint64_t id)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->seq_ids, id, &found);
	if (!found) {
		af_grow(&f->seqs, &f->cap_seqs, f->nseqs + 1, sizeof *f->seqs);
		struct seq *s = &f->seqs[f->nseqs];
		memset(s, 0, sizeof *s);
		s->pid = s->tid = -1;
		*slot = (uint32_t)f->nseqs++;
		f->sequences++;
	}
	return &f->seqs[*slot];
}

static void clear_seq(struct pf *f, struct seq *s)
{
	s->generation++;
	for (int k = 0; k < I_KINDS; k++)
		af_idmap_release(&s->interned[k]);
	f->cleared++;
}

/* Bytes that last as long as the reader: s itself, or when it is in a
 * window's buffer, a copy. */
static const uint8_t *keep_bytes(struct pf *f, const uint8_t *s, size_t n)
{
	if (!f->copy)
		return s;
	struct kept *k = f->kept;
	if (!k || k->cap - k->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		k = af_xmalloc(sizeof *k + cap);
		*k = (struct kept){ .next = f->kept, .cap = cap };
		f->kept = k;
	}
	uint8_t *at = k->data + k->used;
	if (n)
		memcpy(at, s, n);
	k->used += n;
	return at;
}

/* Keep an interned entry (its message bytes) under iid. */
static void intern(struct pf *f, struct seq *s, enum intern kind, const struct af_proto *m,
		   const struct af_proto_field *fl)
{
	struct af_proto e;
	struct af_proto_field x;
	af_proto_sub(m, fl, &e);
	uint64_t iid = 0;
	while (af_proto_next(&e, &x) > 0)
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			iid = x.u;
	af_grow(&f->spans, &f->cap_spans, f->nspans + 1, sizeof *f->spans);
	f->spans[f->nspans] = (struct span){ keep_bytes(f, fl->data, fl->len), fl->len, e.base };
	af_idmap_put(&s->interned[kind], iid, (uint32_t)f->nspans++);
}

static int interned_data(struct pf *f, struct seq *s, const struct af_proto *pkt,
			 const struct af_proto_field *fl)
{
	static const struct { uint32_t field; enum intern kind; } kinds[] = {
		{ ID_EVENT_NAMES, I_EVENT_NAME }, { ID_FUNCTION_NAMES, I_FUNCTION_NAME },
		{ ID_FRAMES, I_FRAME }, { ID_CALLSTACKS, I_CALLSTACK },
		{ ID_MAPPING_PATHS, I_MAPPING_PATH }, { ID_MAPPINGS, I_MAPPING },
	};
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0)
		for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
			if (x.num == kinds[i].field && x.wire == AF_WIRE_LEN)
				intern(f, s, kinds[i].kind, &m, &x);
	return rc < 0 ? fail(f, &m) : 0;
}

/* The entry iid of a kind, or NULL. */
static const struct span *lookup(struct pf *f, const struct seq *s, enum intern kind, uint64_t iid)
{
	if (iid == 0)   /* not set */
		return NULL;
	uint32_t i = af_idmap_get(&s->interned[kind], iid);
	if (i == AF_NONE) {
		f->unknown_iids++;
		return NULL;
	}
	return &f->spans[i];
}

/* Field `num` (length-delimited) of an interned message: its string. */
static bool span_string(const struct span *e, uint32_t num, const uint8_t **str, size_t *n)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_init(&m, e->p, e->n, e->off);
	while (af_proto_next(&m, &x) > 0) {
		if (x.num == num && x.wire == AF_WIRE_LEN) {
			*str = x.data;
			*n = x.len;
			return true;
		}
	}
	return false;
}

static uint64_t span_varint(const struct span *e, uint32_t num)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_init(&m, e->p, e->n, e->off);
	uint64_t v = 0;
	while (af_proto_next(&m, &x) > 0)
		if (x.num == num && x.wire == AF_WIRE_VARINT)
			v = x.u;
	return v;
}

/* ---- slices ---- */

/* The index of (tid, pid) in actors[]; the last one is checked first, as
 * an ftrace bundle holds runs of one thread's events. */
static uint32_t actor_of(struct pf *f, uint64_t tid, int64_t pid)
{
	if (f->nactors && f->actors[f->last_actor].tid == tid && f->actors[f->last_actor].pid == pid)
		return f->last_actor;
	uint64_t key[2] = { tid, (uint64_t)pid };
	bool found;
	uint32_t *slot = af_idmap_slot(&f->actor_ids, af_hash_keyed_bytes(key, sizeof key), &found);
	if (!found) {
		af_grow(&f->actors, &f->cap_actors, f->nactors + 1, sizeof *f->actors);
		f->actors[f->nactors] = (struct actor){ tid, pid };
		*slot = (uint32_t)f->nactors++;
	}
	return f->last_actor = *slot;
}

/* The events read next come from sequence s's ftrace CPU cpu (UINT32_MAX:
 * its track events). */
static void set_source(struct pf *f, const struct seq *s, uint32_t cpu)
{
	f->source_key = (uint64_t)(s - f->seqs) << 32 | cpu;
	f->source = AF_NONE;
}

/* The current source has come to time ts. */
static inline void source_at(struct pf *f, uint64_t ts)
{
	if (!f->stream)
		return;
	if (f->source == AF_NONE) {
		bool found;
		uint32_t *slot = af_idmap_slot(&f->source_ids, f->source_key, &found);
		if (!found) {
			af_grow(&f->sources, &f->cap_sources, f->nsources + 1, sizeof *f->sources);
			*slot = (uint32_t)f->nsources++;
		}
		f->source = *slot;
	}
	f->sources[f->source] = (struct source){ ts, f->flushes };
}

static bool has_text(uint32_t kind)
{
	return kind == EV_PRINT || kind == EV_BEGIN;
}

/* A slice event, gathered for the fold (slice walks only); s[0..n) its
 * text if it has one. */
static inline struct pev *add_event(struct pf *f, uint32_t kind, uint64_t ts, uint64_t tid,
				    int64_t pid, const uint8_t *s, size_t n)
{
	if (f->stream && f->folded_any && ts < f->folded)
		f->broken = true;   /* too late: it should have been folded already */
	f->events++;
	uint32_t actor = actor_of(f, tid, pid);
	if (f->nev == f->cap_ev)
		af_grow(&f->ev, &f->cap_ev, f->nev + 1, sizeof *f->ev);
	uint32_t len = n > (UINT32_MAX >> 2) ? UINT32_MAX >> 2 : (uint32_t)n;   /* a mark's text, never this long */
	struct pev *e = &f->ev[f->nev++];
	*e = (struct pev){ .ts = ts, .n_kind = (has_text(kind) ? len << 2 : 0) | kind, .actor = actor };
	if (has_text(kind) && f->copy) {
		e->u.at = f->texts.len;
		af_buf_add(&f->texts, s, len);
	} else if (has_text(kind)) {
		e->u.s = s;
	}
	return e;
}

/* Slots of pf.mark_cache: a trace repeats a few thousand names millions
 * of times, and the keyed hash and probe of mark_ids cost more than the
 * rest of reading a mark. A slot is found by a cheap hash and checked by
 * comparing the name, so a collision (chosen by a hostile file or not)
 * only sends the name on to mark_ids. */
enum { MARK_CACHE_BITS = 12, MARK_CACHE = 1 << MARK_CACHE_BITS };

static inline size_t mark_slot(const char *s, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t h = (uint64_t)n * k, w;
	size_t i = 0;
	for (; n - i >= 8; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * k;
	}
	if (n >= 8 && i < n) {   /* the last 8 bytes, overlapping */
		memcpy(&w, s + n - 8, 8);
		h = (h ^ w) * k;
	} else if (i < n) {
		for (w = 0; i < n; i++)
			w = w << 8 | (unsigned char)s[i];
		h = (h ^ w) * k;
	}
	return (size_t)(h >> (64 - MARK_CACHE_BITS));
}

/* The index in marks[] of a mark's name s[0..n), or AF_NONE when another
 * name has its hash. */
static uint32_t mark_name(struct pf *f, const char *s, size_t n)
{
	if (!f->mark_cache) {
		f->mark_cache = af_xmalloc(MARK_CACHE * sizeof *f->mark_cache);
		memset(f->mark_cache, 0xff, MARK_CACHE * sizeof *f->mark_cache);   /* AF_NONE */
	}
	uint32_t *c = &f->mark_cache[mark_slot(s, n)];
	if (*c != AF_NONE && f->marks[*c].n == n && memcmp(f->marks[*c].s, s, n) == 0)
		return *c;
	bool found;
	uint32_t *slot = af_idmap_slot(&f->mark_ids, af_hash_keyed_bytes(s, n), &found);
	if (found) {
		const struct mark_name *m = &f->marks[*slot];
		return m->n == n && memcmp(m->s, s, n) == 0 ? (*c = *slot) : AF_NONE;
	}
	af_grow(&f->marks, &f->cap_marks, f->nmarks + 1, sizeof *f->marks);
	f->marks[f->nmarks] = (struct mark_name){ keep_bytes(f, (const uint8_t *)s, n), (uint32_t)n, AF_NONE };
	return *c = *slot = (uint32_t)f->nmarks++;
}

/* A print event: a trace mark of thread tid. Its text is read here, once:
 * a "B|pid|name" mark keeps its name's index in marks[] (a name seen
 * before costs a hash probe and no copy), a bare end is an end; any other
 * text is kept for the slice builder to read as atrace text. */
static void print_event(struct pf *f, uint64_t ts, uint64_t tid, const uint8_t *s, size_t n)
{
	if (f->draw != DRAW_SLICES)
		return;
	struct af_mark m;
	int kind = af_mark_parse((const char *)s, n, &m);
	uint32_t name;
	if (kind == 'E' && m.n == 0) {
		add_event(f, EV_END, ts, tid, -1, NULL, 0);
	} else if (kind == 'B' && m.pid >= 0 && m.pid <= INT32_MAX && m.n <= AF_NAME_MAX &&
		   (name = mark_name(f, m.text, m.n)) != AF_NONE) {
		add_event(f, EV_MARK_BEGIN, ts, tid, -1, NULL, 0)->u.mark.name = name;
		f->ev[f->nev - 1].u.mark.pid = (int32_t)m.pid;
	} else {
		add_event(f, EV_PRINT, ts, tid, -1, s, n);
	}
}

/* A name for a thread or process, kept for the slice builder (made at the
 * first fold, with every name so far), or given to it at once when it is
 * there already (streaming). A name that moves a thread whose slices were
 * already folded under another process makes the reader start again
 * without streaming: a fold at the end knows every name first. */
static void add_name(struct pf *f, bool thread, uint64_t id, int64_t pid, const uint8_t *s, size_t n)
{
	af_grow(&f->names, &f->cap_names, f->nnames + 1, sizeof *f->names);
	uint32_t len = n > 4096 ? 4096 : (uint32_t)n;
	struct name *nm = &f->names[f->nnames++];
	*nm = (struct name){ id, pid, keep_bytes(f, s, len), len, thread };
	if (!f->slices || f->draw != DRAW_SLICES)
		return;
	if (thread)
		f->broken |= af_slices_name_thread(f->slices, id, pid, (const char *)nm->s, len);
	else
		af_slices_name_process(f->slices, (int64_t)id, (const char *)nm->s, len);
}

/* ---- a fast path for the fields of ftrace events ---- */

/* An FtraceEvent's fields that matter, as the walk below reads them. */
struct fev { uint64_t ts, tid; const uint8_t *buf; size_t n; };

/* The 7-bit groups of the first 8 bytes of a varint (continuation bits
 * and bytes past its end already zero), joined pairwise: 8 groups of 7
 * bits, then 4 of 14, then 2 of 28. */
static inline uint64_t pack7(uint64_t w)
{
	w = (w & 0x007f007f007f007full) | (w & 0x7f007f007f007f00ull) >> 1;
	w = (w & 0x00003fff00003fffull) | (w & 0x3fff00003fff0000ull) >> 2;
	return (w & 0x000000000fffffffull) | (w & 0x0fffffff00000000ull) >> 4;
}

/* A varint of more than two bytes at *q (see fast_varint). */
static bool long_varint(const uint8_t **q, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *q;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - p >= 16) {
		uint64_t w, w2;
		memcpy(&w, p, sizeof w);
		uint64_t stop = ~w & 0x8080808080808080ull;
		if (stop) {   /* ends in these 8 bytes: at the first clear top bit */
			unsigned bits = (unsigned)__builtin_ctzll(stop) + 1;
			*v = pack7(bits < 64 ? w & ((1ull << bits) - 1) : w);
			*q = p + bits / 8;
			return true;
		}
		memcpy(&w2, p + 8, sizeof w2);
		if (!(w2 & 0x80)) {
			*v = pack7(w) | (w2 & 0x7f) << 56;
			*q = p + 9;
			return true;
		}
		if (!(w2 & 0x8000)) {
			*v = pack7(w) | (w2 & 0x7f) << 56 | (w2 >> 8 & 1) << 63;
			*q = p + 10;
			return true;
		}
		return false;
	}
#endif
	uint64_t x = 0;
	for (unsigned i = 0; i < 10 && p < end; i++) {
		uint8_t b = *p++;
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*v = x;
			*q = p;
			return true;
		}
	}
	return false;
}

/* A varint at *q, as af_cursor_uleb reads it (at most 10 bytes, bits past
 * the 64th dropped), 8 bytes at a time where 16 are left; *q moves past
 * it. Most are one byte (tags, lengths, small numbers), two (thread ids,
 * short lengths) or at most eight (timestamps): those are read here,
 * longer ones by long_varint. */
static inline bool fast_varint(const uint8_t **q, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *q;
	if (p < end && p[0] < 0x80) {
		*v = p[0];
		*q = p + 1;
		return true;
	}
	if (end - p >= 2 && p[1] < 0x80) {
		*v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		*q = p + 2;
		return true;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - p >= 16) {
		uint64_t w;
		memcpy(&w, p, sizeof w);
		uint64_t stop = ~w & 0x8080808080808080ull;
		if (stop) {   /* ends in these 8 bytes: at the first clear top bit */
			unsigned bits = (unsigned)__builtin_ctzll(stop) + 1;
			*v = pack7(bits < 64 ? w & ((1ull << bits) - 1) : w);
			*q = p + bits / 8;
			return true;
		}
	}
#endif
	return long_varint(q, end, v);
}

/* Past a field of wire type `wire` whose tag was just read (its value not
 * wanted), or NULL when it is no well-formed field. */
static inline const uint8_t *skip_value(const uint8_t *p, const uint8_t *end, unsigned wire)
{
	uint64_t v;
	switch (wire) {
	case AF_WIRE_VARINT:   /* its end: the first byte below 0x80, of at most 10 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (end - p >= 16) {
			uint64_t w;
			memcpy(&w, p, sizeof w);
			uint64_t stop = ~w & 0x8080808080808080ull;
			if (stop)
				return p + ((unsigned)__builtin_ctzll(stop) + 1) / 8;
			return p[8] < 0x80 ? p + 9 : p[9] < 0x80 ? p + 10 : NULL;
		}
#endif
		return fast_varint(&p, end, &v) ? p : NULL;
	case AF_WIRE_I64:
		return end - p >= 8 ? p + 8 : NULL;
	case AF_WIRE_I32:
		return end - p >= 4 ? p + 4 : NULL;
	case AF_WIRE_LEN:
		return fast_varint(&p, end, &v) && v <= (uint64_t)(end - p) ? p + v : NULL;
	default:
		return NULL;
	}
}

/* A length-delimited value at p: its bytes [*data, return), or NULL. */
static inline const uint8_t *len_value(const uint8_t *p, const uint8_t *end, const uint8_t **data)
{
	uint64_t n;
	if (!fast_varint(&p, end, &n) || n > (uint64_t)(end - p))
		return NULL;
	*data = p;
	return p + n;
}

/* A one-byte length at *r of a value that runs exactly to end; *r moves
 * past the length. */
static inline bool len_to_end(const uint8_t **r, const uint8_t *end)
{
	const uint8_t *p = *r;
	if (p < end && *p < 0x80 && (size_t)(end - p) == 1u + *p) {
		*r = p + 1;
		return true;
	}
	return false;
}

/* The event's timestamp (1), pid (2) and print (3) text (its field 2),
 * the last of each as the walk keeps them; false when the bytes need the
 * walker (a tag of more than one byte, anything malformed). Most of a
 * large trace is these. */
static bool ftrace_event_fast(const uint8_t *p, const uint8_t *end, struct fev *e)
{
	/* First the layout traced_probes writes for a print: timestamp,
	 * pid, print { ip, buf }, each once, in that order (lengths of one
	 * byte: a mark of up to 127 bytes). */
	const uint8_t *r = p;
	if (r < end && *r++ == (1 << 3 | AF_WIRE_VARINT) && fast_varint(&r, end, &e->ts) &&
	    r < end && *r++ == (2 << 3 | AF_WIRE_VARINT) && fast_varint(&r, end, &e->tid) &&
	    r < end && *r++ == (3 << 3 | AF_WIRE_LEN) && len_to_end(&r, end) &&
	    r < end && *r++ == (1 << 3 | AF_WIRE_VARINT) && (r = skip_value(r, end, AF_WIRE_VARINT)) &&
	    r < end && *r++ == (2 << 3 | AF_WIRE_LEN) && len_to_end(&r, end)) {
		e->buf = r;
		e->n = (size_t)(end - r);
		return true;
	}
	/* Any other order or fields: */
	*e = (struct fev){ 0 };
	while (p && p < end) {
		unsigned tag = *p++;
		if (tag >= 0x80 || tag < 8)
			return false;
		if (tag == (1 << 3 | AF_WIRE_VARINT)) {
			p = fast_varint(&p, end, &e->ts) ? p : NULL;
		} else if (tag == (2 << 3 | AF_WIRE_VARINT)) {
			p = fast_varint(&p, end, &e->tid) ? p : NULL;
		} else if (tag == (3 << 3 | AF_WIRE_LEN)) {
			const uint8_t *q = NULL, *qend = len_value(p, end, &q);
			if (!qend)
				return false;
			for (p = qend; q && q < qend;) {
				unsigned t = *q++;
				if (t >= 0x80 || t < 8)
					return false;
				if (t == (2 << 3 | AF_WIRE_LEN)) {
					const uint8_t *d, *dend = len_value(q, qend, &d);
					if (dend) {
						e->buf = d;
						e->n = (size_t)(dend - d);
					}
					q = dend;
				} else {
					q = skip_value(q, qend, t & 7);
				}
			}
			if (!q)
				return false;
		} else {
			p = skip_value(p, end, tag & 7);
		}
	}
	return p != NULL;
}

/* The same fields by the protobuf walker, which reports malformed bytes. */
static int ftrace_event_walk(struct pf *f, const struct af_proto *bundle, const struct af_proto_field *fl,
			     struct fev *e)
{
	struct af_proto m, pr;
	struct af_proto_field x, y;
	af_proto_sub(bundle, fl, &m);
	*e = (struct fev){ 0 };
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			e->ts = x.u;
		else if (x.num == 2 && x.wire == AF_WIRE_VARINT)
			e->tid = x.u;
		else if (x.num == 3 && x.wire == AF_WIRE_LEN) {
			af_proto_sub(&m, &x, &pr);
			while ((rc = af_proto_next(&pr, &y)) > 0)
				if (y.num == 2 && y.wire == AF_WIRE_LEN) {
					e->buf = y.data;
					e->n = y.len;
				}
			if (rc < 0)
				return fail(f, &pr);
		}
	}
	return rc < 0 ? fail(f, &m) : 0;
}

/* One FtraceEvent read: print events are trace marks; the rest are counted. */
static void take_event(struct pf *f, const struct fev *e)
{
	f->ftrace++;
	if (e->buf) {
		f->prints++;
		print_event(f, e->ts, e->tid, e->buf, e->n);
	} else {
		f->other_events++;
	}
}

/* The events at m's position that ftrace_event_fast reads, taken in place
 * without the walker's field records: true if there were any, *ts the last
 * one's time. The first one it cannot read is left for the walker. */
static bool fast_events(struct pf *f, struct af_proto *m, uint64_t *ts)
{
	const uint8_t *p = m->c.data + m->c.pos, *end = m->c.data + m->c.len, *start = p, *d, *dend;
	struct fev e;
	while (p < end && *p == (2 << 3 | AF_WIRE_LEN) && (dend = len_value(p + 1, end, &d)) &&
	       ftrace_event_fast(d, dend, &e)) {
		take_event(f, &e);
		*ts = e.ts;
		p = dend;
	}
	m->c.pos = (size_t)(p - m->c.data);
	return p != start;
}

/* FtraceEventBundle: cpu 1, events 2 (one CPU's, in time order). */
static int ftrace_bundle(struct pf *f, const struct seq *s, const struct af_proto *pkt,
			 const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	set_source(f, s, UINT32_MAX - 1);   /* until the bundle says its CPU */
	/* The source's time is what its latest event says when the walk
	 * next looks (after the packet): set once per run of its events. */
	uint64_t ts = 0;
	bool any = false;
	int rc;
	while (((any |= fast_events(f, &m, &ts)), rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT) {
			if (any)
				source_at(f, ts);
			any = false;
			set_source(f, s, x.u < UINT32_MAX - 1 ? (uint32_t)x.u : UINT32_MAX - 2);
		} else if (x.num == 2 && x.wire == AF_WIRE_LEN) {   /* one fast_events left */
			struct fev e;
			if (ftrace_event_walk(f, &m, &x, &e) < 0)
				return -1;
			take_event(f, &e);
			ts = e.ts;
			any = true;
		}
	}
	if (any)
		source_at(f, ts);
	return rc < 0 ? fail(f, &m) : 0;
}

/* ThreadDescriptor / ProcessDescriptor: pid 1, tid 2, names 5 (thread) or
 * 6 (process_name), else the first cmdline (2). */
static int descriptor(struct pf *f, const struct af_proto *pkt, const struct af_proto_field *fl,
		      bool thread, int64_t *pid_out, int64_t *tid_out)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	int64_t pid = -1, tid = -1;
	const uint8_t *name = NULL, *cmd = NULL;
	size_t nn = 0, nc = 0;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			pid = (int32_t)x.u;
		else if (thread && x.num == 2 && x.wire == AF_WIRE_VARINT)
			tid = af_proto_int64(x.u);
		else if (x.wire == AF_WIRE_LEN && x.num == (thread ? 5u : 6u))
			name = x.data, nn = x.len;
		else if (!thread && x.num == 2 && x.wire == AF_WIRE_LEN && !cmd)
			cmd = x.data, nc = x.len;
	}
	if (rc < 0)
		return fail(f, &m);
	if (!name && cmd) {
		name = cmd;
		nn = nc;
	}
	if (thread && tid > 0 && name)
		add_name(f, true, (uint64_t)tid, pid, name, nn);
	if (!thread && pid > 0 && name)
		add_name(f, false, (uint64_t)pid, pid, name, nn);
	if (pid_out)
		*pid_out = pid;
	if (tid_out)
		*tid_out = tid;
	return 0;
}

/* A track-event slice begun or ended on track t, or, on a track not
 * described, on its sequence's thread (pid, tid); a global track's are
 * not drawn (docs/semantics.md). */
static void track_slice(struct pf *f, const struct track *t, int64_t pid, int64_t tid, uint32_t kind,
			uint64_t ts, const uint8_t *s, size_t n)
{
	if (t && t->pid < 0 && t->tid < 0) {
		f->global_slices += kind == EV_BEGIN;
		return;
	}
	if (t) {
		pid = t->pid;
		tid = t->tid;
	}
	if (tid < 0 && pid >= 0)
		tid = pid;   /* a process-scoped track: drawn on the process's main thread */
	if (tid < 0) {
		f->other_events++;
		return;
	}
	f->track_slices += kind == EV_BEGIN;
	if (f->draw == DRAW_SLICES)
		add_event(f, kind, ts, (uint64_t)tid, pid, s, n);
}

/* A slice event on the track uuid, not described yet: held (see struct
 * held). */
static void hold(struct pf *f, uint64_t uuid, uint32_t kind, uint64_t ts, const struct seq *s,
		 const uint8_t *name, size_t n)
{
	af_grow(&f->held, &f->cap_held, f->nheld + 1, sizeof *f->held);
	uint32_t i = (uint32_t)f->nheld++;
	f->held[i] = (struct held){ ts, keep_bytes(f, name, n), n, kind, s->pid, s->tid, AF_NONE, i };
	f->held_events++;
	bool found;
	uint32_t *first = af_idmap_slot(&f->held_ids, uuid, &found);
	if (!found) {
		*first = i;
		return;
	}
	struct held *h = &f->held[*first];
	f->held[h->last].next = i;
	h->last = i;
}

/* The events held for track uuid, now that it is described as t (NULL:
 * never, at the end of the walk). */
static void release_held(struct pf *f, uint64_t uuid, const struct track *t)
{
	uint32_t i = af_idmap_get(&f->held_ids, uuid);
	if (i == AF_NONE)
		return;
	af_idmap_del(&f->held_ids, uuid);
	for (; i != AF_NONE; i = f->held[i].next) {
		struct held *h = &f->held[i];
		track_slice(f, t, h->pid, h->tid, h->kind, h->ts, h->s, h->n);
		h->kind = EV_PRINT;
	}
}

/* At the end of a walk: the events whose track was never described, in
 * file order. */
static void release_undescribed(struct pf *f)
{
	for (size_t i = 0; i < f->nheld; i++) {
		struct held *h = &f->held[i];
		if (h->kind == EV_PRINT)
			continue;
		f->undescribed++;
		track_slice(f, NULL, h->pid, h->tid, h->kind, h->ts, h->s, h->n);
		h->kind = EV_PRINT;
	}
	af_idmap_release(&f->held_ids);
}

/* TrackDescriptor: uuid 1, process 3, thread 4; slices on it go to that
 * thread (or, for a process track, to the process's pseudo-thread). */
static int track_descriptor(struct pf *f, const struct af_proto *pkt, const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	uint64_t uuid = 0, parent = 0;
	struct track t = { -1, -1 };
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			uuid = x.u;
		else if (x.num == 5 && x.wire == AF_WIRE_VARINT)
			parent = x.u;
		else if (x.num == 3 && x.wire == AF_WIRE_LEN && descriptor(f, &m, &x, false, &t.pid, NULL) < 0)
			return -1;
		else if (x.num == 4 && x.wire == AF_WIRE_LEN && descriptor(f, &m, &x, true, &t.pid, &t.tid) < 0)
			return -1;
	}
	if (rc < 0)
		return fail(f, &m);
	uint32_t pi = parent && t.pid < 0 && t.tid < 0 ? af_idmap_get(&f->track_ids, parent) : AF_NONE;
	if (pi != AF_NONE)   /* a child track (async, named) of a process: its process */
		t.pid = f->tracks[pi].pid;
	bool found;
	uint32_t *slot = af_idmap_slot(&f->track_ids, uuid, &found);
	if (!found) {
		af_grow(&f->tracks, &f->cap_tracks, f->ntracks + 1, sizeof *f->tracks);
		*slot = (uint32_t)f->ntracks++;
	}
	f->tracks[*slot] = t;
	release_held(f, uuid, &t);
	return 0;
}

/* TrackEvent: type 9, name_iid 10 / name 23, track_uuid 11, legacy_event 6
 * (phase 2: 'B', 'E'). */
static int track_event(struct pf *f, struct seq *s, uint64_t ts, const struct af_proto *pkt,
		       const struct af_proto_field *fl)
{
	struct af_proto m, lg;
	struct af_proto_field x, y;
	af_proto_sub(pkt, fl, &m);
	uint64_t type = 0, name_iid = 0, track = s->default_track;
	const uint8_t *name = NULL;
	size_t n = 0;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 9 && x.wire == AF_WIRE_VARINT)
			type = x.u;
		else if (x.num == 10 && x.wire == AF_WIRE_VARINT)
			name_iid = x.u;
		else if (x.num == 23 && x.wire == AF_WIRE_LEN)
			name = x.data, n = x.len;
		else if (x.num == 11 && x.wire == AF_WIRE_VARINT && x.u)
			track = x.u;
		else if (x.num == 6 && x.wire == AF_WIRE_LEN) {
			af_proto_sub(&m, &x, &lg);
			while ((rc = af_proto_next(&lg, &y)) > 0)
				if (y.num == 2 && y.wire == AF_WIRE_VARINT)
					type = y.u == 'B' ? 1 : y.u == 'E' ? 2 : type;
			if (rc < 0)
				return fail(f, &lg);
		}
	}
	if (rc < 0)
		return fail(f, &m);
	set_source(f, s, UINT32_MAX);
	source_at(f, ts);
	if (type != 1 && type != 2) {
		f->other_events++;
		return 0;
	}
	if (!name && name_iid) {
		const struct span *e = lookup(f, s, I_EVENT_NAME, name_iid);
		if (e)
			span_string(e, 2, &name, &n);
	}
	uint32_t kind = type == 1 ? EV_BEGIN : EV_END;
	uint32_t ti = track ? af_idmap_get(&f->track_ids, track) : AF_NONE;
	if (track && ti == AF_NONE)
		hold(f, track, kind, ts, s, name ? name : (const uint8_t *)"", n);
	else
		track_slice(f, ti != AF_NONE ? &f->tracks[ti] : NULL, s->pid, s->tid, kind, ts, name, n);
	return 0;
}

/* ProcessTree: processes 1 (pid 1, cmdline 3), threads 2 (tid 1, name 2,
 * tgid 3). */
static int process_tree(struct pf *f, const struct af_proto *pkt, const struct af_proto_field *fl)
{
	struct af_proto m, e;
	struct af_proto_field x, y;
	af_proto_sub(pkt, fl, &m);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.wire != AF_WIRE_LEN || (x.num != 1 && x.num != 2))
			continue;
		af_proto_sub(&m, &x, &e);
		int64_t id = -1, tgid = -1;
		const uint8_t *name = NULL;
		size_t n = 0;
		while ((rc = af_proto_next(&e, &y)) > 0) {
			if (y.num == 1 && y.wire == AF_WIRE_VARINT)
				id = (int32_t)y.u;
			else if (x.num == 2 && y.num == 3 && y.wire == AF_WIRE_VARINT)
				tgid = (int32_t)y.u;
			else if (y.wire == AF_WIRE_LEN && y.num == (x.num == 1 ? 3u : 2u) && !name)
				name = y.data, n = y.len;
		}
		if (rc < 0)
			return fail(f, &e);
		if (id > 0 && name)
			add_name(f, x.num == 2, (uint64_t)id, x.num == 2 ? tgid : id, name, n);
	}
	return rc < 0 ? fail(f, &m) : 0;
}

/* ---- CPU samples ---- */

/* A frame as people read it: its function (demangled), else its mapping's
 * file name and the offset in it. */
static uint32_t frame_name(struct pf *f, const struct seq *s, uint64_t frame_iid)
{
	struct af_buf *b = &f->frame;
	b->len = 0;
	const struct span *fr = lookup(f, s, I_FRAME, frame_iid);
	const uint8_t *str;
	size_t n;
	if (fr) {
		const struct span *fn = lookup(f, s, I_FUNCTION_NAME, span_varint(fr, 2));
		if (fn && span_string(fn, 2, &str, &n) && n) {
			f->scratch.len = 0;
			if (!af_demangle((const char *)str, n, &f->scratch))
				af_buf_add(&f->scratch, str, n);
			af_name_append(b, f->scratch.data, f->scratch.len);
		} else {
			const struct span *mp = lookup(f, s, I_MAPPING, span_varint(fr, 3));
			const struct span *last = NULL;
			if (mp) {   /* path_string_ids (7), packed or not: the last is the file */
				struct af_proto m;
				struct af_proto_field x;
				af_proto_init(&m, mp->p, mp->n, mp->off);
				while (af_proto_next(&m, &x) > 0)
					if (x.num == 7 && x.wire == AF_WIRE_VARINT)
						last = lookup(f, s, I_MAPPING_PATH, x.u);
			}
			if (last && span_string(last, 2, &str, &n))
				af_name_append(b, (const char *)str, n);
			else
				af_buf_puts(b, "[unknown]");
			af_buf_printf(b, "+0x%" PRIx64, span_varint(fr, 4));
		}
	} else {
		af_buf_printf(b, "[frame %" PRIu64 "]", frame_iid);
	}
	af_name_finish(b, 0);
	return af_tree_intern(&f->p->tree, b->data, b->len);
}

/* The graph node of process pid (named at the end), made on first use. */
static uint32_t process_node(struct pf *f, int64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->sproc_nodes, (uint64_t)pid, &found);
	if (!found) {
		struct af_tree *t = &f->p->tree;
		*slot = af_tree_add_child(t, AF_ROOT, af_tree_intern_str(t, ""));
		af_profile_add_process(f->p, (uint64_t)(pid > 0 ? pid : 0), "", 0, *slot);
	}
	return *slot;
}

/* The graph node of thread tid, made on its first sample; counts it. */
static uint32_t sample_thread(struct pf *f, uint64_t tid, int64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->sthread_ids, tid, &found);
	if (found) {
		f->p->threads[f->sthreads[*slot].index].events++;
		return f->sthreads[*slot].node;
	}
	struct af_tree *t = &f->p->tree;
	uint32_t empty = af_tree_intern_str(t, "");
	uint32_t pnode = process_node(f, pid);
	af_grow(&f->sthreads, &f->cap_sthreads, f->nsthreads + 1, sizeof *f->sthreads);
	uint32_t node = af_tree_add_child(t, pnode, empty);
	size_t ti = af_profile_add_thread(f->p, tid, "", 0);
	f->sthreads[f->nsthreads] = (struct sample_thread){ tid, pid, node, ti };
	*af_idmap_slot(&f->sthread_ids, tid, &found) = (uint32_t)f->nsthreads++;
	f->p->threads[ti].events = 1;
	f->p->threads[ti].node = node;
	f->p->threads[ti].pid = (uint64_t)(pid > 0 ? pid : 0);
	f->p->threads[ti].process_node = pnode;
	return node;
}

/* The frames of callstack iid under node, root first: the leaf's node. */
static uint32_t fold_callstack(struct pf *f, const struct seq *s, uint32_t node, uint64_t iid)
{
	struct af_tree *t = &f->p->tree;
	const struct span *cs = lookup(f, s, I_CALLSTACK, iid);
	if (!cs) {
		f->no_callstack++;
		node = af_tree_child(t, node, af_tree_intern_str(t, "[no callstack]"));
	} else {
		struct af_proto m;
		struct af_proto_field x;
		af_proto_init(&m, cs->p, cs->n, cs->off);
		while (af_proto_next(&m, &x) > 0) {
			if (x.num == 2 && x.wire == AF_WIRE_VARINT) {
				node = af_tree_child(t, node, frame_name(f, s, x.u));
			} else if (x.num == 2 && x.wire == AF_WIRE_LEN) {   /* packed */
				struct af_cursor c = { x.data, x.len, 0 };
				uint64_t v;
				bool bad = false;
				while (af_proto_packed_next(&c, &v, &bad))
					node = af_tree_child(t, node, frame_name(f, s, v));
			}
		}
	}
	return node;
}

/* One sample of callstack iid on thread tid, weighing w. */
static void fold_sample(struct pf *f, const struct seq *s, uint64_t tid, int64_t pid, uint64_t iid,
			uint64_t w)
{
	f->cpu_samples++;
	f->sample_weight = f->sample_weight > UINT64_MAX - w ? UINT64_MAX : f->sample_weight + w;
	if (f->draw != DRAW_CPU)
		return;
	af_tree_add_self(&f->p->tree, fold_callstack(f, s, sample_thread(f, tid, pid), iid), w);
}

/* PerfSample: pid 2, tid 3, callstack_iid 4, timebase_count 6. */
static int perf_sample(struct pf *f, const struct seq *s, const struct af_proto *pkt,
		       const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	uint64_t pid = 0, tid = 0, iid = 0, count = 0;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.wire != AF_WIRE_VARINT)
			continue;
		if (x.num == 2)
			pid = x.u;
		else if (x.num == 3)
			tid = x.u;
		else if (x.num == 4)
			iid = x.u;
		else if (x.num == 6)
			count = x.u;
	}
	if (rc < 0)
		return fail(f, &m);
	if (iid)   /* a sample without a callstack is a skipped one, or a counter */
		fold_sample(f, s, tid, (int64_t)pid, iid, count ? count : 1);
	return 0;
}

/* StreamingProfilePacket: callstack_iid 1 (repeated, maybe packed), on the
 * sequence's thread. */
static int streaming_profile(struct pf *f, const struct seq *s, const struct af_proto *pkt,
			     const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	uint64_t tid = s->tid > 0 ? (uint64_t)s->tid : 0;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT) {
			fold_sample(f, s, tid, s->pid, x.u, 1);
		} else if (x.num == 1 && x.wire == AF_WIRE_LEN) {
			struct af_cursor c = { x.data, x.len, 0 };
			uint64_t v;
			bool bad = false;
			while (af_proto_packed_next(&c, &v, &bad))
				fold_sample(f, s, tid, s->pid, v, 1);
			if (bad)
				return af_diag_offset(f->d, x.offset, "malformed protobuf: packed callstack ids cut short");
		}
	}
	return rc < 0 ? fail(f, &m) : 0;
}

/* ---- heap profiles ---- */

/* The graph of heap `name` of process pid: process > heap, the heap drawn
 * as a thread of the process. Keyed by a keyed 64-bit hash of both: two
 * heaps share one only by a collision no file can aim for. */
static struct heap *heap_of(struct pf *f, int64_t pid, const uint8_t *name, size_t n)
{
	struct af_buf *b = &f->scratch;
	b->len = 0;
	af_buf_add(b, &pid, sizeof pid);
	af_buf_add(b, name, n);
	bool found;
	uint32_t *slot = af_idmap_slot(&f->heap_ids, af_hash_keyed_bytes(b->data, b->len), &found);
	if (found)
		return &f->heaps[*slot];
	*slot = (uint32_t)f->nheaps;
	b->len = 0;
	if (n)
		af_name_append(b, (const char *)name, n > 4096 ? 4096 : n);
	else
		af_buf_puts(b, "unknown");   /* as trace processor names it */
	af_name_finish(b, 0);
	struct af_tree *t = &f->p->tree;
	uint32_t pnode = process_node(f, pid);
	uint32_t node = af_tree_add_child(t, pnode, af_tree_intern(t, b->data, b->len));
	uint64_t upid = (uint64_t)(pid > 0 ? pid : 0);
	size_t ti = af_profile_add_thread(f->p, upid, b->data, b->len);
	f->p->threads[ti].node = node;
	f->p->threads[ti].pid = upid;
	f->p->threads[ti].process_node = pnode;
	af_grow(&f->heaps, &f->cap_heaps, f->nheaps + 1, sizeof *f->heaps);
	f->heaps[f->nheaps] = (struct heap){ pid, node, ti };
	return &f->heaps[f->nheaps++];
}

/* What a heap graph's weights count: the unit, and what the subtitle and
 * messages say. */
static const struct { const char *unit, *measure; } heap_values[] = {
	[AF_HEAP_NONE] = { "bytes", "unreleased bytes" },
	[AF_HEAP_UNRELEASED] = { "bytes", "unreleased bytes" },
	[AF_HEAP_ALLOCATED] = { "bytes", "allocated bytes" },
	[AF_HEAP_FREED] = { "bytes", "freed bytes" },
	[AF_HEAP_UNRELEASED_COUNT] = { "allocations", "unreleased allocations" },
	[AF_HEAP_ALLOCATED_COUNT] = { "allocations", "allocations" },
	[AF_HEAP_FREED_COUNT] = { "allocations", "freed allocations" },
};

struct heap_sample { uint64_t callstack, allocated, freed, max, max_count, allocs, frees; bool at_max; };

/* What a sample weighs under the chosen value. Without dump_at_max the
 * unreleased part is allocated - freed; a sample freeing more than it
 * allocated (a damaged dump) counts as 0. */
static uint64_t heap_weight(struct pf *f, const struct heap_sample *hs)
{
	uint64_t a = hs->allocated, fr = hs->freed;
	switch (f->o->heap) {
	case AF_HEAP_ALLOCATED: return hs->allocated;
	case AF_HEAP_FREED: return hs->freed;
	case AF_HEAP_ALLOCATED_COUNT: return hs->allocs;
	case AF_HEAP_FREED_COUNT: return hs->frees;
	case AF_HEAP_UNRELEASED_COUNT:
		if (hs->at_max)
			return hs->max_count;
		a = hs->allocs;
		fr = hs->frees;
		break;
	default:
		if (hs->at_max)
			return hs->max;
	}
	if (fr > a) {
		f->heap_inconsistent++;
		return 0;
	}
	return a - fr;
}

/* HeapSample: callstack_id 1, self_allocated 2, self_freed 3, alloc_count
 * 5, free_count 6, self_max 8, self_max_count 9. */
static int heap_sample(struct pf *f, const struct af_proto *dump, const struct af_proto_field *fl,
		       struct heap_sample *hs)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(dump, fl, &m);
	*hs = (struct heap_sample){ 0 };
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.wire != AF_WIRE_VARINT)
			continue;
		switch (x.num) {
		case 1: hs->callstack = x.u; break;
		case 2: hs->allocated = x.u; break;
		case 3: hs->freed = x.u; break;
		case 5: hs->allocs = x.u; break;
		case 6: hs->frees = x.u; break;
		case 8: hs->max = x.u; hs->at_max = true; break;
		case 9: hs->max_count = x.u; hs->at_max = true; break;
		}
	}
	return rc < 0 ? fail(f, &m) : 0;
}

/* A sample of callstack iid in the heap whose key is hkey: the scan keeps
 * its weight as the callstack's latest; the fold draws it if it is the
 * last and weighs something. */
static void heap_stack(struct pf *f, const struct seq *s, uint64_t hkey, int64_t pid,
		       const uint8_t *name, size_t n, uint64_t iid, uint64_t w)
{
	uint64_t key[4] = { hkey, (uint64_t)(s - f->seqs), s->generation, iid };
	uint64_t ordinal = ++f->heap_ordinal;
	bool found;
	uint32_t *slot = af_idmap_slot(&f->hstack_ids, af_hash_keyed_bytes(key, sizeof key), &found);
	if (f->draw == DRAW_HEAP_SCAN) {
		if (!found) {
			*slot = (uint32_t)f->nhstacks;
			af_grow(&f->hstacks, &f->cap_hstacks, f->nhstacks + 1, sizeof *f->hstacks);
			f->nhstacks++;
		}
		f->hstacks[*slot] = (struct heap_stack){ ordinal, w };
		return;
	}
	if (!found || f->hstacks[*slot].last != ordinal || w == 0)
		return;
	f->heap_weight = f->heap_weight > UINT64_MAX - w ? UINT64_MAX : f->heap_weight + w;
	const struct heap *h = heap_of(f, pid, name, n);
	f->p->threads[h->thread].events++;   /* callstacks drawn */
	f->heap_drawn++;
	af_tree_add_self(&f->p->tree, fold_callstack(f, s, h->node, iid), w);
}

/* ProcessHeapSamples: pid 1, samples 2, heap_name 11; the flags saying the
 * profile is incomplete (4 rejected, 6 disconnected, 7 buffer overran,
 * 8 buffer corrupted, 10 guardrail) are counted. */
static int heap_dump(struct pf *f, const struct seq *s, const struct af_proto *pkt,
		     const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	int64_t pid = 0;
	const uint8_t *name = NULL;
	size_t n = 0;
	bool lost = false;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			pid = (int32_t)x.u;
		else if (x.num == 11 && x.wire == AF_WIRE_LEN)
			name = x.data, n = x.len;
		else if (x.wire == AF_WIRE_VARINT && x.u && (x.num == 4 || (x.num >= 6 && x.num <= 8) || x.num == 10))
			lost = true;
	}
	if (rc < 0)
		return fail(f, &m);
	f->heap_dumps++;
	f->heap_lost += lost;
	if (f->draw != DRAW_HEAP_SCAN && f->draw != DRAW_HEAP)
		return 0;
	struct af_buf *b = &f->scratch;   /* the heap's key */
	b->len = 0;
	af_buf_add(b, &pid, sizeof pid);
	af_buf_add(b, name, n);
	uint64_t hkey = af_hash_keyed_bytes(b->data, b->len);
	af_proto_sub(pkt, fl, &m);
	struct heap_sample hs;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num != 2 || x.wire != AF_WIRE_LEN)
			continue;
		if (heap_sample(f, &m, &x, &hs) < 0)
			return -1;
		f->heap_samples++;
		heap_stack(f, s, hkey, pid, name, n, hs.callstack, heap_weight(f, &hs));
	}
	return rc < 0 ? fail(f, &m) : 0;
}

/* ProfilePacket: Android 10 carries its own strings (function names and
 * paths both), frames, callstacks and mappings, kept as the sequence's
 * interned data; later versions intern them in InternedData. */
static int profile_packet(struct pf *f, struct seq *s, const struct af_proto *pkt,
			  const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.wire != AF_WIRE_LEN)
			continue;
		if (x.num == PROF_STRINGS) {
			intern(f, s, I_FUNCTION_NAME, &m, &x);
			intern(f, s, I_MAPPING_PATH, &m, &x);
		} else if (x.num == PROF_FRAMES)
			intern(f, s, I_FRAME, &m, &x);
		else if (x.num == PROF_CALLSTACKS)
			intern(f, s, I_CALLSTACK, &m, &x);
		else if (x.num == PROF_MAPPINGS)
			intern(f, s, I_MAPPING, &m, &x);
	}
	if (rc < 0)
		return fail(f, &m);
	f->heap_packets++;
	af_proto_sub(pkt, fl, &m);
	while ((rc = af_proto_next(&m, &x)) > 0)
		if (x.num == PROF_DUMPS && x.wire == AF_WIRE_LEN && heap_dump(f, s, &m, &x) < 0)
			return -1;
	return rc < 0 ? fail(f, &m) : 0;
}

/* ---- packets ---- */

static int packets(struct pf *f, const uint8_t *data, size_t len, uint64_t base, int depth);
static int packets_end(struct pf *f, struct af_proto *m, int rc);
static int stream_step(struct pf *f, size_t at);

/* compressed_packets: a zlib stream of more packets (bounded like atrace). */
static int compressed(struct pf *f, const struct af_proto_field *fl, int depth)
{
	if (depth > 0)
		return af_diag_offset(f->d, fl->offset, "compressed packets inside compressed packets");
	af_grow(&f->inflated, &f->cap_inflated, f->ninflated + 1, sizeof *f->inflated);
	struct af_buf *b = &f->inflated[f->ninflated++];
	af_buf_init(b);
	size_t used;
	uint64_t limit = af_inflate_limit(fl->len, f->o->max_input);
	if (af_inflate(fl->data, fl->len, limit < f->inflate_left ? limit : f->inflate_left, b,
		       &used, f->d) < 0)
		return -1;
	f->inflate_left -= b->len;
	f->compressed++;
	/* offsets inside are offsets in the inflated data: say so by the packet */
	return packets(f, (const uint8_t *)b->data, b->len, fl->offset, depth + 1);
}

struct packet {
	uint64_t ts, seq_id;
	bool has_seq, cleared;
	struct af_proto_field interned, payload[8];
	size_t npayload;
};

static int packet(struct pf *f, const struct af_proto *outer, const struct af_proto_field *fl, int depth)
{
	struct af_proto m;
	struct af_proto_field x;
	struct packet pk = { 0 };
	af_proto_sub(outer, fl, &m);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		switch (x.num) {
		case PKT_TIMESTAMP: pk.ts = x.u; break;
		case PKT_SEQ_ID: pk.seq_id = x.u; pk.has_seq = true; break;
		case PKT_SEQ_FLAGS: pk.cleared |= (x.u & SEQ_CLEARED) != 0; break;
		case PKT_CLEARED: pk.cleared |= x.u != 0; break;
		case PKT_DROPPED: f->dropped += x.u != 0; break;
		case PKT_INTERNED: pk.interned = x; break;
		case PKT_COMPRESSED:
			if (f->stream)   /* inflated groups stay until the end: no streaming */
				f->broken = true;
			else if (compressed(f, &x, depth) < 0)
				return -1;
			break;
		case PKT_ZSTD: f->zstd++; break;
		default:
			if (x.wire == AF_WIRE_LEN && pk.npayload < 8)
				pk.payload[pk.npayload++] = x;
		}
	}
	if (rc < 0)
		return fail(f, &m);
	f->packets++;
	struct seq *s = seq_of(f, pk.has_seq ? pk.seq_id : 0);
	if (pk.cleared)
		clear_seq(f, s);
	if (pk.interned.data && interned_data(f, s, &m, &pk.interned) < 0)
		return -1;
	for (size_t i = 0; i < pk.npayload; i++) {
		const struct af_proto_field *p = &pk.payload[i];
		switch (p->num) {
		case PKT_FTRACE: rc = ftrace_bundle(f, s, &m, p); break;
		case PKT_PROCESS_TREE: rc = process_tree(f, &m, p); break;
		case PKT_TRACK_EVENT: rc = track_event(f, s, pk.ts, &m, p); break;
		case PKT_TRACK_DESC: rc = track_descriptor(f, &m, p); break;
		case PKT_PROCESS_DESC: rc = descriptor(f, &m, p, false, NULL, NULL); break;
		case PKT_THREAD_DESC: rc = descriptor(f, &m, p, true, &s->pid, &s->tid); break;
		case PKT_PERF_SAMPLE: rc = perf_sample(f, s, &m, p); break;
		case PKT_STREAMING_PROFILE: rc = streaming_profile(f, s, &m, p); break;
		case PKT_PROFILE: rc = profile_packet(f, s, &m, p); break;
		case PKT_DEFAULTS: {
			struct af_proto d, te;
			struct af_proto_field y, z;
			af_proto_sub(&m, p, &d);
			while ((rc = af_proto_next(&d, &y)) > 0)
				if (y.num == 11 && y.wire == AF_WIRE_LEN) {
					af_proto_sub(&d, &y, &te);
					while (af_proto_next(&te, &z) > 0)
						if (z.num == 11 && z.wire == AF_WIRE_VARINT)
							s->default_track = z.u;
				}
			rc = rc < 0 ? fail(f, &d) : 0;
			break;
		}
		default: rc = 0;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int packets(struct pf *f, const uint8_t *data, size_t len, uint64_t base, int depth)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_init(&m, data, len, depth ? base : 0);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == TRACE_PACKET && x.wire == AF_WIRE_LEN && packet(f, &m, &x, depth) < 0)
			return -1;
		if (!depth && stream_step(f, (size_t)x.offset) < 0)
			return 0;   /* out of order: read_perfetto starts again */
	}
	return depth ? (rc < 0 ? fail(f, &m) : 0) : packets_end(f, &m, rc);
}

/* The end of the top-level walk m, whose last af_proto_next returned rc: a
 * file cut inside a packet is read up to it. */
static int packets_end(struct pf *f, struct af_proto *m, int rc)
{
	if (rc < 0 && m->error && strcmp(m->error, "length runs past the end of its message") == 0) {
		af_profile_note(f->p, "the file ends inside a packet at offset 0x%" PRIx64 ": the packets before it are used",
				m->error_offset);
		return 0;
	}
	return rc < 0 ? fail(f, m) : 0;
}

/* Room for a top-level field's tag and length (varints of at most 10
 * bytes each): with this much in the window, a field that does not parse
 * is malformed, not cut by the window's end. */
enum { HEADER_MAX = 20 };

/* Whether w's bytes end where the input does. */
static bool window_at_end(const struct af_window *w)
{
	return w->at + w->len >= w->in->len;
}

/* A top-level field of the whole input at file offset at (a packet larger
 * than half the window, already found well-formed), read where the input
 * is mapped; x is its field. */
static int big_packet(struct pf *f, const struct af_input *in, uint64_t at, struct af_proto_field *x,
		      uint64_t *end)
{
	struct af_proto m;
	af_proto_init(&m, in->data, in->len, 0);
	m.c.pos = (size_t)at;
	if (af_proto_next(&m, x) <= 0)
		return fail(f, &m);   /* (cannot be: the window read its header) */
	*end = m.c.pos;
	return x->num == TRACE_PACKET && x->wire == AF_WIRE_LEN ? packet(f, &m, x, 0) : 0;
}

/* packets() for the top level of a whole input, a window at a time: each
 * packet is read in the window when it fits in half of it, else where the
 * input is mapped (big_packet), with the offsets, messages and end of a
 * walk over the whole input. */
static int windowed_packets(struct pf *f, const struct af_input *in)
{
	struct af_window w;
	af_window_init(&w, in);
	f->copy = w.buffered;   /* (a small or unmapped input is one window) */
	size_t pos = 0;
	int rc = 0;
	for (;;) {
		if (w.len - pos < HEADER_MAX && !window_at_end(&w)) {
			if ((rc = af_window_more(&w, pos, f->d)) < 0)
				break;
			pos = 0;
		}
		struct af_proto m;
		struct af_proto_field x;
		af_proto_init(&m, w.data, w.len, w.at);
		m.c.pos = pos;
		rc = af_proto_next(&m, &x);
		uint64_t next = w.at + m.c.pos;
		if (rc < 0 && !window_at_end(&w) && strcmp(m.error, "length runs past the end of its message") == 0) {
			if (w.len - pos <= w.cap / 2) {   /* the rest of it, then again */
				rc = af_window_more(&w, pos, f->d);
				pos = 0;
				if (rc < 0)
					break;
				continue;
			}
			if (big_packet(f, in, w.at + pos, &x, &next) < 0 || af_window_seek(&w, next, f->d) < 0) {
				rc = -1;
				break;
			}
			pos = 0;
		} else if (rc <= 0) {
			rc = packets_end(f, &m, rc);
			break;
		} else {
			if (x.num == TRACE_PACKET && x.wire == AF_WIRE_LEN && packet(f, &m, &x, 0) < 0) {
				rc = -1;
				break;
			}
			pos = m.c.pos;
		}
		if (stream_step(f, (size_t)x.offset) < 0) {
			rc = 0;   /* out of order: read_perfetto starts again */
			break;
		}
	}
	af_window_release(&w);
	return rc;
}

/* ---- the graph ---- */

/* Events in time order, equal times in file order, without sorting them
 * all: they come as runs already in order (an ftrace bundle is one CPU's
 * events; only bundles overlap), so a merge of the runs with a heap holds
 * just the runs open at one time. A run joins the heap when the merge
 * reaches its first time; runs are ordered by that time once. */
struct run { uint64_t ts; size_t at, end; };   /* ts: ev[at].ts, the next event's */

/* A run in the heap, with the key of its next event kept beside it (a
 * comparison reads no run). */
struct head { uint64_t ts; size_t at, run; };

struct merge {
	const struct pev *ev;
	struct run *runs;                     /* by first time, then file order */
	size_t nruns, next;                   /* runs[next] is the next to join */
	struct head *heap;                    /* least first */
	size_t nheap;
};

/* a's next event comes before b's (equal times: file order). */
static inline bool head_before(const struct head *a, const struct head *b)
{
	return a->ts != b->ts ? a->ts < b->ts : a->at < b->at;
}

static void heap_push(struct merge *g, size_t r)
{
	struct head h = { g->runs[r].ts, g->runs[r].at, r };
	size_t i = g->nheap++;
	for (; i > 0 && head_before(&h, &g->heap[(i - 1) / 2]); i = (i - 1) / 2)
		g->heap[i] = g->heap[(i - 1) / 2];
	g->heap[i] = h;
}

/* Put h in heap[0]'s place and move it down to where it belongs. h comes
 * by value: written into heap[0] field by field and read back whole, it
 * would stall on the stores. */
static inline void heap_sift_down(struct merge *g, struct head h)
{
	size_t i = 0, n = g->nheap;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && head_before(&g->heap[c + 1], &g->heap[c]))
			c++;
		if (!head_before(&g->heap[c], &h))
			break;
		g->heap[i] = g->heap[c];
		i = c;
	}
	g->heap[i] = h;
}

static int by_first(const void *a, const void *b)
{
	const struct run *x = a, *y = b;   /* not yet begun: at is the start */
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

static void merge_init(struct merge *g, const struct pev *ev, size_t n)
{
	*g = (struct merge){ .ev = ev };
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || ev[i].ts < ev[i - 1].ts) {
			af_grow(&g->runs, &cap, g->nruns + 1, sizeof *g->runs);
			g->runs[g->nruns++] = (struct run){ ev[i].ts, i, i };
		}
		g->runs[g->nruns - 1].end = i + 1;
	}
	if (g->nruns > 1)
		qsort(g->runs, g->nruns, sizeof *g->runs, by_first);
	g->heap = af_xcalloc(g->nruns ? g->nruns : 1, sizeof *g->heap);
}

/* The next event in time order, or NULL when none is left at or before
 * time upto. */
static const struct pev *merge_next(struct merge *g, uint64_t upto)
{
	while (g->next < g->nruns) {   /* runs whose first event comes now join */
		const struct run *r = &g->runs[g->next];
		struct head h = { r->ts, r->at, g->next };
		if (g->nheap && !head_before(&h, &g->heap[0]))
			break;
		heap_push(g, g->next++);
	}
	if (g->nheap == 0 || g->heap[0].ts > upto)
		return NULL;
	struct head h = g->heap[0];
	const struct pev *e = &g->ev[h.at];
	if (++h.at < g->runs[h.run].end) {
		h.ts = g->ev[h.at].ts;
		heap_sift_down(g, h);
	} else if (--g->nheap) {
		heap_sift_down(g, g->heap[g->nheap]);
	}
	return e;
}

static void merge_release(struct merge *g)
{
	free(g->runs);
	free(g->heap);
}

/* ns to the µs the slice builder counts in, rounded */
static uint64_t us(uint64_t ns)
{
	return ns <= UINT64_MAX - 500 ? (ns + 500) / 1000 : ns / 1000 + (ns % 1000 >= 500);   /* one division */
}

/* The slice builder, made with every name on first use: the same calls
 * whether the events are folded as they stream or at the end. */
static struct af_slices *slices_of(struct pf *f)
{
	if (f->slices)
		return f->slices;
	struct af_slices *r = f->slices = af_slices_new(f->p, f->o, f->d);
	for (size_t i = 0; i < f->nnames; i++) {
		const struct name *n = &f->names[i];
		if (n->thread)
			af_slices_name_thread(r, n->id, n->pid, (const char *)n->s, n->n);
		else
			af_slices_name_process(r, (int64_t)n->id, (const char *)n->s, n->n);
	}
	return r;
}

/* The text of a gathered event. */
static const char *ev_text(const struct pf *f, const struct pev *e)
{
	if (!f->copy)
		return (const char *)e->u.s;
	return f->texts.data ? f->texts.data + e->u.at : "";
}

static void fold_event(struct pf *f, struct af_slices *r, const struct pev *e)
{
	const struct actor *a = &f->actors[e->actor];
	uint32_t kind = e->n_kind & 3, n = e->n_kind >> 2;
	if (kind == EV_PRINT) {
		struct af_ftrace_event ae = { .tid = a->tid, .tgid = -1, .ts = us(e->ts),
			.event = "tracing_mark_write", .event_len = 18,
			.payload = ev_text(f, e), .payload_len = n };
		af_slices_ftrace(r, &ae);
	} else if (kind == EV_BEGIN) {
		af_slices_begin(r, a->tid, a->pid, us(e->ts), ev_text(f, e), n);
	} else if (kind == EV_MARK_BEGIN) {
		struct mark_name *m = &f->marks[e->u.mark.name];
		if (m->name == AF_NONE)
			m->name = af_slices_name(r, (const char *)m->s, m->n);
		af_slices_mark_begin(r, a->tid, e->u.mark.pid, us(e->ts), m->name);
	} else {
		af_slices_end(r, a->tid, us(e->ts));
	}
}

/* Sorting costs 16 bytes an event: batches up to this many (every batch of
 * a streaming walk, in practice, and small traces read at once). */
enum { SORT_MAX = 1 << 20 };

/* Fold the gathered events at or before time upto in time order (equal
 * times in file order) by sorting them on their time since the earliest:
 * false, with nothing folded, when that does not fit 32 bits (they span
 * 4.3 s or more) or they are too many. */
static bool fold_sorted(struct pf *f, struct af_slices *r, uint64_t upto)
{
	size_t m = 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < f->nev; i++) {
		uint64_t ts = f->ev[i].ts;
		if (ts <= upto) {
			m++;
			lo = ts < lo ? ts : lo;
			hi = ts > hi ? ts : hi;
		}
	}
	if (m == 0)
		return true;
	if (m > SORT_MAX || hi - lo > UINT32_MAX || f->nev > UINT32_MAX)
		return false;
	af_grow(&f->order, &f->cap_order, 2 * m, sizeof *f->order);
	for (size_t i = 0, j = 0; i < f->nev; i++)
		if (f->ev[i].ts <= upto)
			f->order[j++] = (f->ev[i].ts - lo) << 32 | i;
	const uint64_t *order = af_radix_sort_high(f->order, f->order + m, m, (uint32_t)(hi - lo));
	for (size_t j = 0; j < m; j++)
		fold_event(f, r, &f->ev[(uint32_t)order[j]]);
	f->folded = hi;
	f->folded_any = true;
	return true;
}

/* The same by merging the runs the events came in (memory for a run, not
 * an event). */
static void fold_merged(struct pf *f, struct af_slices *r, uint64_t upto)
{
	struct merge g;
	merge_init(&g, f->ev, f->nev);
	for (const struct pev *e; (e = merge_next(&g, upto));) {
		fold_event(f, r, e);
		f->folded = e->ts;
		f->folded_any = true;
	}
	merge_release(&g);
}

/* Fold the gathered events at or before time upto, in time order (equal
 * times in file order), and keep the rest in file order. */
static void fold_upto(struct pf *f, uint64_t upto)
{
	if (f->nev == 0)
		return;
	struct af_slices *r = slices_of(f);
	if (!fold_sorted(f, r, upto))
		fold_merged(f, r, upto);
	size_t kept = 0;
	f->texts_next.len = 0;
	for (size_t i = 0; i < f->nev; i++) {
		struct pev e = f->ev[i];
		if (e.ts <= upto)
			continue;
		if (f->copy && has_text(e.n_kind & 3)) {   /* the texts of the events kept move to the front */
			size_t at = f->texts_next.len;
			af_buf_add(&f->texts_next, ev_text(f, &e), e.n_kind >> 2);
			e.u.at = at;
		}
		f->ev[kept++] = e;
	}
	f->nev = kept;
	if (f->copy) {
		struct af_buf t = f->texts;
		f->texts = f->texts_next;
		f->texts_next = t;
	}
}

/* Streaming: fold once this many events are gathered (or as many again as
 * the last fold kept, or as there are sources: each fold is paid for by
 * the events read since, so the whole stays linear). */
enum { STREAM_FOLD_MIN = 4096 };
/* Past this many kept events a source that has been quiet since the last
 * fold no longer holds the watermark back (an idle CPU would keep every
 * event in memory). If it comes back with an old event, the reader starts
 * again without streaming. */
enum { STREAM_QUIET_AFTER = 1 << 19 };
/* Mapped input is let go of in steps of this, one step behind the walk. */
#define STREAM_CONSUME_STEP ((size_t)4 << 20)

/* The time every source has passed: no event can come before it unless a
 * source starts late or goes back, which add_event catches. */
static uint64_t watermark(const struct pf *f)
{
	bool crowded = f->nev > STREAM_QUIET_AFTER;
	uint64_t w = UINT64_MAX;
	bool any = false;
	for (size_t i = 0; i < f->nsources; i++) {
		const struct source *src = &f->sources[i];
		if (crowded && src->flush != f->flushes)
			continue;
		w = src->last < w ? src->last : w;
		any = true;
	}
	return any ? w : 0;
}

/* After each packet of a streaming walk (at: its offset): fold what the
 * watermark has passed, let go of the input read long ago. -1 when the
 * walk cannot stream on (an event too late, a name too late, compressed
 * packets). */
static int stream_step(struct pf *f, size_t at)
{
	if (!f->stream)
		return 0;
	if (f->broken)
		return -1;
	if (f->nev >= f->flush_at) {
		fold_upto(f, watermark(f));
		f->flushes++;
		size_t more = f->nev > f->nsources ? f->nev : f->nsources;
		f->flush_at = f->nev + (more > STREAM_FOLD_MIN ? more : STREAM_FOLD_MIN);
	}
	if (at - f->consumed >= 2 * STREAM_CONSUME_STEP) {
		f->consumed = at - STREAM_CONSUME_STEP;
		af_input_consumed(f->in, f->consumed);
	}
	return 0;
}

static int fold_slices(struct pf *f)
{
	fold_upto(f, UINT64_MAX);
	return af_slices_finish(slices_of(f), "events but no slices (no atrace B|pid|name marks in ftrace print events, no track-event slices); try --cpu-samples");
}

/* Name the sample graphs' threads and processes from what the trace said;
 * a heap's graph is named after its heap already. */
static void name_samples(struct pf *f)
{
	struct af_tree *t = &f->p->tree;
	for (size_t i = 0; i < f->nnames; i++) {
		const struct name *n = &f->names[i];
		uint32_t node = AF_NONE;
		if (n->thread && f->draw == DRAW_CPU) {
			uint32_t k = af_idmap_get(&f->sthread_ids, n->id);
			node = k != AF_NONE ? f->sthreads[k].node : AF_NONE;
		} else if (!n->thread) {
			node = af_idmap_get(&f->sproc_nodes, n->id);
		}
		if (node == AF_NONE)
			continue;
		for (size_t j = 0; j < f->p->nthreads && n->thread; j++)
			if (f->p->threads[j].node == node) {
				free(f->p->threads[j].name);
				f->p->threads[j].name = af_xstrndup((const char *)n->s, n->n);
			}
		for (size_t j = 0; j < f->p->nprocesses && !n->thread; j++)
			if (f->p->processes[j].node == node) {
				free(f->p->processes[j].name);
				f->p->processes[j].name = af_xstrndup((const char *)n->s, n->n);
			}
	}
	struct af_buf *b = &f->scratch;
	for (size_t j = 0; j < f->p->nthreads && f->draw == DRAW_CPU; j++) {
		struct af_thread *th = &f->p->threads[j];
		if (!th->name[0]) {
			b->len = 0;
			af_buf_printf(b, "thread-%" PRIu64, th->tid);
			free(th->name);
			th->name = af_xstrndup(b->data, b->len);
		}
		b->len = 0;
		af_name_append(b, th->name, strlen(th->name));
		af_name_finish(b, 0);
		af_buf_printf(b, " (%" PRIu64 ")", th->tid);
		af_tree_rename(t, th->node, af_tree_intern(t, b->data, b->len));
	}
	for (size_t j = 0; j < f->p->nprocesses; j++) {
		struct af_process *pr = &f->p->processes[j];
		b->len = 0;
		if (pr->name[0])
			af_name_append(b, pr->name, strlen(pr->name));
		else
			af_buf_printf(b, "process-%" PRIu64, pr->pid);
		af_name_finish(b, 0);
		af_buf_printf(b, " (%" PRIu64 ")", pr->pid);
		af_tree_rename(t, pr->node, af_tree_intern(t, b->data, b->len));
	}
}

static void info(struct pf *f)
{
	static const char *const drawn[] = { "slices", "CPU samples", "heap profiles", "heap profiles" };
	struct af_profile *p = f->p;
	af_profile_info(p, "packets", "%" PRIu64 " (%" PRIu64 " compressed groups)", f->packets, f->compressed);
	af_profile_info(p, "sequences", "%" PRIu64 " (incremental state cleared %" PRIu64 " times)", f->sequences, f->cleared);
	af_profile_info(p, "ftrace events", "%" PRIu64 " (%" PRIu64 " prints)", f->ftrace, f->prints);
	af_profile_info(p, "track-event slices", "%" PRIu64, f->track_slices);
	if (f->held_events)
		af_profile_info(p, "track events before their track's descriptor", "%" PRIu64 " (held until it came)",
				f->held_events - f->undescribed);
	if (f->global_slices)
		af_profile_info(p, "track-event slices on global tracks", "%" PRIu64 " (not drawn: no thread)", f->global_slices);
	af_profile_info(p, "cpu samples", "%" PRIu64 " (weight %" PRIu64 ")", f->cpu_samples, f->sample_weight);
	af_profile_info(p, "heap profiles", "%" PRIu64 " packets, %" PRIu64 " process dumps, %zu heaps",
			f->heap_packets, f->heap_dumps, f->nheaps);
	if (f->draw == DRAW_HEAP)
		af_profile_info(p, "heap callstacks drawn", "%" PRIu64 " of %zu (each as its last dump said; %" PRIu64 " %s)",
				f->heap_drawn, f->nhstacks, f->heap_weight, heap_values[f->o->heap].measure);
	af_profile_info(p, "drawn", "%s", drawn[f->draw]);
	af_profile_warn(p, f->dropped, "packets after which the tracing service dropped data");
	af_profile_warn(p, f->zstd, "zstd-compressed packet groups skipped (not supported)");
	af_profile_warn(p, f->unknown_iids, "references to interned data that the sequence does not hold");
	af_profile_warn(p, f->undescribed, "track events on a track the trace never describes (drawn on their sequence's thread, if it has one)");
	af_profile_warn(p, f->no_callstack, "samples whose callstack is not interned (drawn as [no callstack])");
	af_profile_warn(p, f->heap_lost, "heap dumps of a process that heapprofd profiled only in part (rejected, disconnected, overran or corrupted buffer, guardrail)");
	af_profile_warn(p, f->heap_inconsistent, "heap samples that freed more than they allocated (counted as 0 unreleased)");
}

static void pf_release(struct pf *f)
{
	for (size_t i = 0; i < f->nseqs; i++)
		for (int k = 0; k < I_KINDS; k++)
			af_idmap_release(&f->seqs[i].interned[k]);
	free(f->seqs);
	af_idmap_release(&f->seq_ids);
	free(f->spans);
	free(f->tracks);
	af_idmap_release(&f->track_ids);
	free(f->held);
	af_idmap_release(&f->held_ids);
	free(f->ev);
	free(f->order);
	af_slices_free(f->slices);
	free(f->sources);
	af_idmap_release(&f->source_ids);
	free(f->actors);
	af_idmap_release(&f->actor_ids);
	free(f->marks);
	af_idmap_release(&f->mark_ids);
	free(f->mark_cache);
	free(f->names);
	free(f->sthreads);
	af_idmap_release(&f->sthread_ids);
	af_idmap_release(&f->sproc_nodes);
	free(f->heaps);
	af_idmap_release(&f->heap_ids);
	free(f->hstacks);
	af_idmap_release(&f->hstack_ids);
	for (size_t i = 0; i < f->ninflated; i++)
		af_buf_release(&f->inflated[i]);
	free(f->inflated);
	af_buf_release(&f->scratch);
	af_buf_release(&f->frame);
	af_buf_release(&f->texts);
	af_buf_release(&f->texts_next);
	for (struct kept *k = f->kept, *next; k; k = next) {
		next = k->next;
		free(k);
	}
}

/* One walk over the packets, folding what `draw` says (slice events are
 * gathered in a slice walk and folded as they stream, or at the end). A
 * heap scan's findings stay for the fold that follows it. */
static int walk(struct pf *f, const struct af_input *in, enum draw draw, bool stream)
{
	struct pf keep = *f;
	f->hstacks = NULL;
	af_idmap_init(&f->hstack_ids);
	f->names = NULL;
	f->kept = NULL;
	pf_release(f);
	/* every group together is bounded as one compressed file would be */
	*f = (struct pf){ .p = keep.p, .o = keep.o, .d = keep.d, .draw = draw, .stream = stream,
			  .in = in, .flush_at = STREAM_FOLD_MIN,
			  .inflate_left = af_inflate_limit(in->len, keep.o->max_input) };
	f->kept = keep.kept;   /* the heap scan's may be there */
	free(keep.names);   /* every walk reads the names again */
	if (draw == DRAW_HEAP) {
		f->hstacks = keep.hstacks;
		f->nhstacks = keep.nhstacks;
		f->cap_hstacks = keep.cap_hstacks;
		f->hstack_ids = keep.hstack_ids;
	} else {
		free(keep.hstacks);
		af_idmap_release(&keep.hstack_ids);
	}
	int rc = stream ? windowed_packets(f, in) : packets(f, in->data, in->len, 0, 0);
	if (rc == 0)
		release_undescribed(f);
	return rc;
}

/* Slices when the trace has them, else CPU samples, else heap profiles;
 * --cpu-samples or --heap choose. The profile arrives empty (af_read). */
static int read_perfetto(struct af_profile *p, const struct af_input *in,
			 const struct af_read_opts *o, struct af_diag *d)
{
	struct pf f = { .p = p, .o = o, .d = d };
	enum draw first = o->heap != AF_HEAP_NONE ? DRAW_HEAP_SCAN : o->cpu_samples ? DRAW_CPU : DRAW_SLICES;
	int rc = walk(&f, in, first, first == DRAW_SLICES);
	if (rc == 0 && f.broken) {   /* too late to stream: gather them all */
		af_profile_release(p);
		af_profile_init(p);
		rc = walk(&f, in, DRAW_SLICES, false);
	}
	if (rc == 0 && first == DRAW_SLICES && f.events == 0 && f.cpu_samples)
		rc = walk(&f, in, DRAW_CPU, false);
	else if (rc == 0 && first == DRAW_SLICES && f.events == 0 && f.heap_dumps)
		rc = walk(&f, in, DRAW_HEAP_SCAN, false);
	if (rc == 0 && f.draw == DRAW_HEAP_SCAN)
		rc = walk(&f, in, DRAW_HEAP, false);
	if (rc == 0 && f.draw == DRAW_SLICES) {
		info(&f);
		rc = fold_slices(&f);
	} else if (rc == 0) {
		name_samples(&f);
		p->unit = f.draw == DRAW_CPU ? "samples" : heap_values[o->heap].unit;
		p->measure = f.draw == DRAW_CPU ? NULL : heap_values[o->heap].measure;
		p->clock = NULL;
		info(&f);
		if (f.draw == DRAW_HEAP && f.heap_weight == 0 && !o->info_only)
			rc = af_diag_error(d, "nothing to draw: the heap profiles hold no %s at their last dumps",
					   p->measure);
	}
	pf_release(&f);
	return rc;
}

/* A protobuf Trace is repeated field 1 (TracePacket): byte 0x0A, a varint
 * length, the packet; the next packet starts with 0x0A again. */
static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	struct af_cursor c = { data, len, 0 };
	uint8_t tag;
	uint64_t n;
	for (int packets = 0; packets < 4; packets++) {
		if (af_cursor_left(&c) == 0)
			return packets > 0 ? AF_SNIFF_YES : AF_SNIFF_NO;
		if (!af_cursor_u8(&c, &tag) || tag != 0x0a || !af_cursor_uleb(&c, &n))
			return AF_SNIFF_NO;
		if (n > af_cursor_left(&c))   /* a cut capture */
			return packets > 0 || af_cursor_left(&c) > 1024 ? AF_SNIFF_YES : AF_SNIFF_NO;
		c.pos += (size_t)n;
	}
	return AF_SNIFF_YES;
}

const struct af_reader af_reader_perfetto = {
	.name = "perfetto", .what = "a Perfetto trace", .sniff = sniff,
	.read = read_perfetto, .nothing = "no slices, CPU samples or heap profiles",
};
