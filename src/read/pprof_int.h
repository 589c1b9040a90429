/* pprof_int.h: what the files of the pprof reader share, and no other
 * file: the reader's state (struct pp), the profile's field numbers, and
 * what one file offers the other.
 *
 *   read_pprof.c     the samples (their labels, threads and processes),
 *                    folded into the tree; the walks, sample types,
 *                    --info, detection, the reader
 *   pprof_fold.c     the samples' stacks into the tree, in an order that
 *                    keeps those that share callers together; the jobs
 *                    (core/job.h) that run beside the reader: the pages
 *                    of its room and the locations' frames
 *   pprof_order.c    the order in which a batch of samples is folded
 *   pprof_tables.c   the tables the samples refer to (strings, sample
 *                    types, mappings, functions, locations), checked, and
 *                    each location's frames; the error helpers
 *
 * Each file uses only those listed below it (the no-cycle rule of
 * tests/suites/modules.sh); read_pprof.c's opening describes the format. */
#ifndef AF_PPROF_INT_H
#define AF_PPROF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "proto.h"
#include "read.h"
#include "core/buf.h"
#include "core/idmap.h"
#include "core/job.h"
#include "core/profile.h"

enum {
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4, P_FUNCTION = 5, P_STRINGS = 6,
	P_TIME = 9, P_DURATION = 10, P_PERIOD_TYPE = 11, P_PERIOD = 12, P_DEFAULT_TYPE = 14,
};
#define NO_STRING UINT64_MAX
#define MULTI 0x80000000u       /* a struct lf of a location of several frames */
#define RESERVE_DIV 14          /* the tree's nodes: one per 14 bytes of samples
				 * (bench/gen_pprof's: 21.6); less, a copy */
#define RESERVE_MAX (1u << 22) /* at most (128 MiB of nodes): more grow */
#define MAX_FRAMES 65536u       /* frames of one sample (Go stops at 512) */
#define MAX_IDS_BYTES (10 * MAX_FRAMES)   /* more: an id too long or too many frames */

struct span { size_t off; size_t n; };
struct vtype { uint64_t type, unit, at; };
struct mapping { uint64_t start, limit, offset, file, at; uint32_t name; };
struct func { uint64_t name, at; uint32_t frame; };
/* lines: its functions (ids, then indices: check_lines), innermost first,
 * at line_fns[line..line + nlines); frames: their names once made, root-most
 * first, at frames[frame..frame + nframes) (nframes 0: not made yet) */
struct loc { uint64_t mapping, address, at, id; uint32_t line, nlines, frame, nframes; };
struct pthread_ { uint64_t key; uint32_t node; size_t index; };   /* a thread root */
/* A table's ids -> indices. While they come as 1, 2, 3... (Go's, as most
 * writers number them) an index is its id - 1 and the map stays empty:
 * no probe, no page of it made (84k entries were a fifth of the bench's
 * page faults); the first id out of that order puts them all in it. */
struct ids { struct af_idmap map; size_t n; bool sparse; };
struct proc { uint64_t pid; uint32_t node; };

/* A frame's name and its af_tree_name_key, side by side: a sample reads one
 * small table, not the tree's names. From location(): for a location of
 * several frames, MULTI | the index of its first in frames, and their count. */
struct lf { uint32_t name, hash; };

/* A sample to fold (pprof_fold.c), at offset at: its location ids, leaf
 * first, are the packed varints ids[0..len) (in the file, or packed again
 * in recoded); its weight goes below node root. */
struct pending { const uint8_t *ids; uint64_t weight, at; uint32_t len, root; };

/* the labels of one sample that say where it ran */
struct where { uint64_t pid, tid; struct span name; bool has_pid, has_tid, has_name; };

struct pp {
	struct af_profile *p;
	struct af_diag *d;
	const struct af_read_opts *o;
	const uint8_t *data;
	size_t len;
	struct span *strs; size_t nstrs, cap_strs;
	struct vtype *types; size_t ntypes, cap_types;
	struct mapping *maps; size_t nmaps, cap_maps;
	struct func *fns; size_t nfns, cap_fns;
	struct loc *locs; size_t nlocs, cap_locs;
	struct ids map_ids, fn_ids, loc_ids;
	struct lf *loc_by_id; uint64_t nloc_by_id;  /* ids 1..n dense: a direct table */
	uint8_t *frames_by_id;                      /* and their frames' count (255: 255 or more) */
	uint64_t *line_fns; size_t nline_fns, cap_line_fns;
	struct lf *frames; size_t nframes, cap_frames;
	uint64_t *stack; size_t cap_stack;          /* a sample's location ids, then indices */
	uint64_t *values; size_t cap_values;        /* a sample's values */
	struct pending *pending; size_t npending, cap_pending;   /* the samples to fold */
	uint8_t *recoded; size_t nrecoded, cap_recoded;  /* ids not in one packed field, packed */
	size_t *late; size_t nlate, cap_late;       /* pending[late[2i]].ids is recoded + late[2i + 1] */
	uint32_t batches;                           /* of samples folded so far */
	uint64_t batch_weight, batch_folded;        /* weight and folded before this batch */
	struct pthread_ *threads; size_t nthreads, cap_threads;
	struct proc *procs; size_t nprocs, cap_procs;
	struct af_idmap thread_keys, proc_keys;
	uint64_t key_pid[2], key_tid[2], key_thread[2];   /* string indices of the label keys */
	uint64_t default_type, period, time, duration;
	struct vtype period_type;
	size_t drawn;                               /* the sample type drawn */
	uint64_t samples, folded, zero, negative, weight, frames_total, sample_bytes;
	struct af_buf scratch;
	/* pp_locate_all on a second thread while the samples are read and
	 * sorted (pp_locate_start); until pp_tables_ready, only it touches
	 * the tree, the frames, the locations, functions and scratch */
	struct af_job locate;
	/* the room of a batch's fold (pprof_fold.c), made once for the
	 * largest: the sort's keys, then the samples' states, their order,
	 * their ids copied, the memos by name */
	uint8_t *room; size_t room_samples, room_ids, room_names;
	/* the pages of what the tables' walk, the samples' walk, sort,
	 * listing and fold will write, made by a job (pp_fold_reserve) while
	 * the tables are read */
	struct af_job prefault, reading;   /* (joined when never started: job.h) */
	struct { void *p; size_t n; } faults[6];
};

/* A field read in place (pp_fast_field) */
struct pp_field { unsigned num, wire; uint64_t u; const uint8_t *data; size_t len; };

/* A varint at *q, before end, as af_cursor_uleb reads it: one or two
 * bytes in line, else 8 bytes at a time where 8 are left (fields near a
 * message's end: af_proto_fast_varint wants 16), else a byte at a time;
 * *q moves past it. */
AF_PROTO_HOT bool pp_varint(const uint8_t **q, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *q;
	if (p < end && *p < 0x80) {
		*v = *p;
		*q = p + 1;
		return true;
	}
	if (end - p >= 2 && p[1] < 0x80) {   /* function ids, lengths of lines */
		*v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		*q = p + 2;
		return true;
	}
	if (end - p >= 8) {
		uint64_t w = af_le(p, 8), stop = ~w & 0x8080808080808080ull;
		if (stop) {
			unsigned bits = (unsigned)__builtin_ctzll(stop) + 1;
			*v = af_proto_pack7(bits < 64 ? w & ((1ull << bits) - 1) : w);
			*q = p + bits / 8;
			return true;
		}
	}
	return af_proto_long_varint(q, end, v);
}

/* The field at *q, before end, as af_proto_next reads it, when its tag is
 * one byte (field numbers 1 to 15, all of pprof's): *q moves past it.
 * False, with *q unmoved, for any other (a longer tag, a group, a value
 * cut short): the walker reads it then, and says what is wrong.
 * profile.proto's messages are read so in place, with no cursor, no field
 * record and no call a field. */
AF_PROTO_HOT bool pp_fast_field(const uint8_t **q, const uint8_t *end, struct pp_field *x)
{
	const uint8_t *p = *q;
	unsigned t = *p++;
	if (t >= 0x80 || t < 8)
		return false;
	x->num = t >> 3;
	x->wire = t & 7;
	x->data = NULL;   /* u and len: those of its wire type only */
	if (x->wire == AF_WIRE_VARINT) {
		if (!pp_varint(&p, end, &x->u))
			return false;
	} else if (x->wire == AF_WIRE_LEN) {
		uint64_t n;
		if (!pp_varint(&p, end, &n) || n > (uint64_t)(end - p))
			return false;
		x->data = p;
		x->len = (size_t)n;
		p += n;
	} else if (x->wire == AF_WIRE_I64 || x->wire == AF_WIRE_I32) {
		size_t n = x->wire == AF_WIRE_I64 ? 8 : 4;
		if ((size_t)(end - p) < n)
			return false;
		x->u = af_le(p, (unsigned)n);
		p += n;
	} else {
		return false;
	}
	*q = p;
	return true;
}

/* ---- pprof_fold.c ---- */

/* A sample at offset at of weight w below node root, to fold: its nlocs
 * location ids are the packed field ids[0..len) (len at most
 * MAX_IDS_BYTES), or, when ids is NULL, f->stack[0..nlocs) (nlocs at most
 * MAX_FRAMES). Its weight and count were checked; its locations and frames
 * are checked as it is folded (fold_sample's checks that come before
 * those of later samples: pp_fold_check). -1 if this or an earlier sample
 * is refused. */
int pp_fold_later(struct pp *f, uint32_t root, uint64_t w, const uint8_t *ids, size_t len, size_t nlocs,
		  uint64_t at);
/* Room for the samples to fold, of which the file has n at most, in
 * bytes bytes of sample fields; its pages, and those of the tables and the
 * tree's nodes (reserved before), made on a job while the tables are read
 * (core/job.h), the job then joined by pp_prefault_join. */
void pp_fold_reserve(struct pp *f, uint64_t n, uint64_t bytes);
void pp_prefault_join(struct pp *f);
/* The pages of a mapped input read in on a job while the reader first
 * looks at its fields (the prefault job joins it) */
void pp_read_ahead(struct pp *f);
void pp_read_ahead_join(struct pp *f);
/* pp_locate_all on a job (core/job.h): the samples' walk, their sort and
 * listing need none of what it makes, and go on meanwhile. Whatever reads
 * the locations' frames, the tree or scratch calls pp_tables_ready first,
 * which waits for the job (no-op if there is none or it was joined). */
void pp_locate_start(struct pp *f);
void pp_tables_ready(struct pp *f);
/* Fold every sample given so far (read_pprof.c frees their room); -1 if
 * one is refused. */
int pp_fold_all(struct pp *f);
/* The first error of the samples given to fold but not folded, in the
 * file's order, as fold_sample checks a sample: its locations, its weight,
 * its frames, its count; -1 then, else 0. */
int pp_fold_check(struct pp *f);
/* The same, when sample at offset at (as pp_fold_later's) is refused for
 * its weight or count or ids' length: that or an earlier error; -1. */
int pp_fold_refuse(struct pp *f, uint64_t w, const uint8_t *ids, size_t len, size_t nlocs, uint64_t at);
/* The frames (*n) of the locations whose ids are the packed varints
 * ids[0..len); 1 with *bad the first id the profile does not have; -1 if
 * a varint is cut short or longer than 10 bytes. */
int pp_frames_of(const struct pp *f, const uint8_t *ids, size_t len, size_t *n, uint64_t *bad);

/* Samples listed at least for a part of the fold to go to a second
 * thread; the unit tests lower it to fold small profiles so, and raise
 * it to fold them on one, to compare. */
extern size_t pp_apart_min;

/* ---- pprof_order.c ---- */

/* Room for the order of a batch of samples, bytes a sample */
#define PP_ORDER_ROOM 60
/* The batch's samples (f->pending) in the order they are folded, as
 * indices into order; room: PP_ORDER_ROOM bytes a sample, 8-aligned. */
void pp_sample_order(const struct pp *f, void *room, uint32_t *order);
/* Samples at least for their keys to be made distinct first; the unit
 * tests raise it to sort them all as samples, and lower it, to compare. */
extern size_t pp_distinct_min;

/* ---- pprof_tables.c ---- */

int pp_malformed(struct pp *f, const struct af_proto *m);
int pp_bad(struct pp *f, uint64_t at, const char *why);
/* a field of the wire type pprof writes, else an error at it (*rc -1) */
bool pp_wire_is(struct pp *f, const struct af_proto_field *x, enum af_wire w, int *rc);
/* Room for the tables of a profile of these many rows (their lines: two
 * a location, as a start) */
void pp_reserve_tables(struct pp *f, size_t strs, size_t maps, size_t fns, size_t locs);
/* One top-level field of the first walk: every table but the samples. */
int pp_table_field(struct pp *f, struct af_proto *top, const struct af_proto_field *x);
/* String index i is in the table, else an error at `at` */
int pp_check_string(struct pp *f, uint64_t i, uint64_t at);
int pp_check_strings(struct pp *f);
int pp_check_lines(struct pp *f);
void pp_index_tables(struct pp *f);
void pp_locate_all(struct pp *f);
/* What a location id out of the direct table is (pp_location) */
struct lf pp_location_sparse(const struct pp *f, uint64_t id);

static inline const uint8_t *pp_str_of(const struct pp *f, uint64_t i, size_t *n)
{
	*n = f->strs[i].n;
	return f->data + f->strs[i].off;
}

static inline bool pp_str_is(const struct pp *f, uint64_t i, const char *s)
{
	size_t n = strlen(s);
	return f->strs[i].n == n && memcmp(f->data + f->strs[i].off, s, n) == 0;
}

/* What location id is (struct lf), from the table pp_locate_all made;
 * name AF_NONE if the profile has none. */
static inline struct lf pp_location(const struct pp *f, uint64_t id)
{
	return id < f->nloc_by_id ? f->loc_by_id[id] : pp_location_sparse(f, id);
}

/* How many frames location id has; 0 if the profile has none. A byte
 * each for the dense ids: a table of a few pages, not the locations'. */
static inline size_t pp_location_frames(const struct pp *f, uint64_t id)
{
	if (id < f->nloc_by_id && f->frames_by_id[id] < 255)
		return f->frames_by_id[id];
	struct lf v = pp_location(f, id);
	return v.name == AF_NONE ? 0 : v.name & MULTI ? v.hash : 1;
}

#endif
