/* read_pprof.c: pprof profiles, the protobuf `Profile` of google/pprof's
 * profile.proto (Apache-2.0): what Go's runtime/pprof, `go tool pprof
 * -proto`, Pyroscope, Parca, Cloud Profiler and simpleperf's
 * pprof_proto_generator.py write, usually gzip'd (read.c inflates it).
 *
 * Profile fields: sample_type 1 (ValueType: type 2... as string indices,
 * type 1, unit 2), sample 2 (location_id 1 and value 2, packed or not,
 * label 3: key 1, str 2, num 3), mapping 3 (id 1, memory_start 2,
 * memory_limit 3, file_offset 4, filename 5), location 4 (id 1, mapping_id
 * 2, address 3, line 4: function_id 1, line 2), function 5 (id 1, name 2),
 * string_table 6 (its first entry ""), time_nanos 9, duration_nanos 10,
 * period_type 11, period 12, default_sample_type 14.
 *
 * The string table comes after what refers to it, so one walk reads the
 * tables (checking every string index against the table at the end) and a
 * second folds the samples. A sample lists its leaf first; a location's
 * lines list the innermost inlined function first, so both are folded from
 * their end: the caller an inlined function was inlined into is its
 * parent. A location with no function is named by its mapping's file and
 * the offset in it, "libc.so+0x1a2b". One sample type is drawn: --event
 * picks it by name; by default the one default_sample_type names, else the
 * last, as pprof does. Samples with pid/tid/thread labels (and
 * process_id/thread_id/thread_name) are drawn under process > thread roots
 * as the other readers draw them. */
#include "proto.h"
#include "read.h"
#include "core/idmap.h"
#include "core/names.h"
#include "core/profile.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum {
	P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4, P_FUNCTION = 5, P_STRINGS = 6,
	P_TIME = 9, P_DURATION = 10, P_PERIOD_TYPE = 11, P_PERIOD = 12, P_DEFAULT_TYPE = 14,
};
#define NO_STRING UINT64_MAX
#define MULTI 0x80000000u       /* a struct lf of a location of several frames */
#define RESERVE_DIV 14          /* the tree's tables: a node per 14 bytes of samples
				 * (bench/gen_pprof's: 15.2); less, a rehash and a copy */
#define RESERVE_MAX (1u << 22) /* at most (128 MiB of nodes, 128 of path slots): more grow */
#define MAX_FRAMES 65536u       /* frames of one sample (Go stops at 512) */

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

/* a frame of the sample being folded: its name, path key (tree.h), node */
struct frame { uint64_t key; uint32_t name, node; };

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
	uint64_t *line_fns; size_t nline_fns, cap_line_fns;
	struct lf *frames; size_t nframes, cap_frames;
	uint64_t *stack; size_t cap_stack;          /* a sample's location ids, then indices */
	uint64_t *values; size_t cap_values;        /* a sample's values */
	struct lf *refs; size_t cap_refs;           /* a sample's locations, leaf first */
	struct lf *names; size_t cap_names;         /* a sample's frames, root first */
	struct frame *path; size_t cap_path, depth; /* the frames of the last sample folded */
	uint32_t path_root;                         /* the node they are below */
	struct pthread_ *threads; size_t nthreads, cap_threads;
	struct proc *procs; size_t nprocs, cap_procs;
	struct af_idmap thread_keys, proc_keys;
	uint64_t key_pid[2], key_tid[2], key_thread[2];   /* string indices of the label keys */
	uint64_t default_type, period, time, duration;
	struct vtype period_type;
	size_t drawn;                               /* the sample type drawn */
	uint64_t samples, folded, zero, negative, weight, frames_total, sample_bytes;
	struct af_buf scratch;
};

static int malformed(struct pp *f, const struct af_proto *m)
{
	return af_diag_offset(f->d, m->error_offset, "malformed pprof profile: %s", m->error);
}

static int bad(struct pp *f, uint64_t at, const char *why)
{
	return af_diag_offset(f->d, at, "malformed pprof profile: %s", why);
}

/* a field of the wire type pprof writes, else an error at it */
static bool wire_is(struct pp *f, const struct af_proto_field *x, enum af_wire w, int *rc)
{
	if (x->wire == w)
		return true;
	*rc = bad(f, x->offset, "a field has another wire type than profile.proto gives it");
	return false;
}

/* ---- the tables ---- */

/* Put id -> the next index in ids: ids are not 0 and not repeated (pprof
 * refuses both). */
static int new_id(struct pp *f, struct ids *ids, uint64_t id, uint64_t at, const char *what)
{
	if (!ids->sparse && id == ids->n + 1) {
		ids->n++;
		return 0;
	}
	for (size_t i = 0; !ids->sparse && i < ids->n; i++)
		af_idmap_put(&ids->map, i + 1, (uint32_t)i);
	ids->sparse = true;
	bool found;
	uint32_t *slot = af_idmap_slot(&ids->map, id, &found);
	if (id == 0 || found)
		return af_diag_offset(f->d, at, "malformed pprof profile: %s %s %" PRIu64, id ? "a second" : "a",
				      what, id);
	*slot = (uint32_t)ids->n++;
	return 0;
}

/* The index of id in ids, or AF_NONE. */
static uint32_t id_index(const struct ids *ids, uint64_t id)
{
	if (!ids->sparse)
		return id >= 1 && id <= ids->n ? (uint32_t)(id - 1) : AF_NONE;
	return af_idmap_get(&ids->map, id);
}

/* ValueType: type 1, unit 2 (string indices). */
static int read_vtype(struct pp *f, struct af_proto *m, struct vtype *v)
{
	struct af_proto_field x;
	int rc;
	*v = (struct vtype){ 0, 0, m->base };
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && wire_is(f, &x, AF_WIRE_VARINT, &rc))
			v->type = x.u;
		else if (x.num == 2 && wire_is(f, &x, AF_WIRE_VARINT, &rc))
			v->unit = x.u;
		if (rc < 0)
			return -1;
	}
	return rc < 0 ? malformed(f, m) : 0;
}

/* Mapping: id 1, memory_start 2, memory_limit 3, file_offset 4, filename 5. */
static int read_mapping(struct pp *f, struct af_proto *m)
{
	struct af_proto_field x;
	struct mapping mp = { .at = m->base, .name = AF_NONE };
	uint64_t id = 0;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num < 1 || x.num > 5)
			continue;
		if (!wire_is(f, &x, AF_WIRE_VARINT, &rc))
			return -1;
		uint64_t *field[] = { &id, &mp.start, &mp.limit, &mp.offset, &mp.file };
		*field[x.num - 1] = x.u;
	}
	if (rc < 0)
		return malformed(f, m);
	if (new_id(f, &f->map_ids, id, mp.at, "mapping with id") < 0)
		return -1;
	af_grow(&f->maps, &f->cap_maps, f->nmaps + 1, sizeof *f->maps);
	f->maps[f->nmaps++] = mp;
	return 0;
}

/* Function: id 1, name 2 (system_name, filename, start_line unused). */
static int read_function(struct pp *f, struct af_proto *m)
{
	struct af_proto_field x;
	struct func fn = { .at = m->base, .frame = AF_NONE };
	uint64_t id = 0;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && wire_is(f, &x, AF_WIRE_VARINT, &rc))
			id = x.u;
		else if (x.num == 2 && wire_is(f, &x, AF_WIRE_VARINT, &rc))
			fn.name = x.u;
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return malformed(f, m);
	if (new_id(f, &f->fn_ids, id, fn.at, "function with id") < 0)
		return -1;
	af_grow(&f->fns, &f->cap_fns, f->nfns + 1, sizeof *f->fns);
	f->fns[f->nfns++] = fn;
	return 0;
}

/* Line: function_id 1 (line 2, column 3 unused). */
static int read_line(struct pp *f, struct af_proto *m)
{
	struct af_proto_field x;
	uint64_t fn = 0;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && wire_is(f, &x, AF_WIRE_VARINT, &rc))
			fn = x.u;
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return malformed(f, m);
	af_grow(&f->line_fns, &f->cap_line_fns, f->nline_fns + 1, sizeof *f->line_fns);
	f->line_fns[f->nline_fns++] = fn;
	return 0;
}

/* Location: id 1, mapping_id 2, address 3, line 4 (repeated). */
static int read_location(struct pp *f, struct af_proto *m)
{
	struct af_proto_field x;
	struct loc l = { .line = (uint32_t)f->nline_fns, .at = m->base };
	uint64_t id = 0;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && wire_is(f, &x, AF_WIRE_VARINT, &rc)) {
			id = x.u;
		} else if (x.num == 2 && wire_is(f, &x, AF_WIRE_VARINT, &rc)) {
			l.mapping = x.u;
		} else if (x.num == 3 && wire_is(f, &x, AF_WIRE_VARINT, &rc)) {
			l.address = x.u;
		} else if (x.num == 4 && wire_is(f, &x, AF_WIRE_LEN, &rc)) {
			struct af_proto line;
			af_proto_sub(m, &x, &line);
			rc = read_line(f, &line);
		}
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return malformed(f, m);
	/* frames (a line or a location's address each) stay below MULTI */
	if (f->nline_fns - l.line > UINT32_MAX / 2 || f->nline_fns + f->nlocs >= UINT32_MAX / 2)
		return bad(f, m->base, "too many locations or lines");
	l.nlines = (uint32_t)(f->nline_fns - l.line);
	if (new_id(f, &f->loc_ids, l.id = id, m->base, "location with id") < 0)
		return -1;
	af_grow(&f->locs, &f->cap_locs, f->nlocs + 1, sizeof *f->locs);
	f->locs[f->nlocs++] = l;
	return 0;
}

/* One top-level field of the first walk: every table but the samples. */
static int table_field(struct pp *f, struct af_proto *top, const struct af_proto_field *x)
{
	struct af_proto m;
	int rc = 0;
	bool len = x->num >= P_SAMPLE_TYPE && x->num <= P_STRINGS;
	if (len ? !wire_is(f, x, AF_WIRE_LEN, &rc) : x->num == P_PERIOD_TYPE && !wire_is(f, x, AF_WIRE_LEN, &rc))
		return -1;
	if (x->wire == AF_WIRE_LEN)
		af_proto_sub(top, x, &m);
	switch (x->num) {
	case P_SAMPLE_TYPE:
		af_grow(&f->types, &f->cap_types, f->ntypes + 1, sizeof *f->types);
		return read_vtype(f, &m, &f->types[f->ntypes++]);
	case P_MAPPING: return read_mapping(f, &m);
	case P_LOCATION: return read_location(f, &m);
	case P_FUNCTION: return read_function(f, &m);
	case P_STRINGS:
		af_grow(&f->strs, &f->cap_strs, f->nstrs + 1, sizeof *f->strs);
		f->strs[f->nstrs++] = (struct span){ (size_t)(x->data - f->data), x->len };
		return 0;
	case P_PERIOD_TYPE: return read_vtype(f, &m, &f->period_type);
	}
	if (x->wire == AF_WIRE_VARINT) {
		if (x->num == P_TIME)
			f->time = x->u;
		else if (x->num == P_DURATION)
			f->duration = x->u;
		else if (x->num == P_PERIOD)
			f->period = x->u;
		else if (x->num == P_DEFAULT_TYPE)
			f->default_type = x->u;
	}
	return 0;
}

static int check_string(struct pp *f, uint64_t i, uint64_t at)
{
	if (i < f->nstrs)
		return 0;
	return af_diag_offset(f->d, at, "malformed pprof profile: string index %" PRIu64
			      " past the string table (%zu strings)", i, f->nstrs);
}

/* Every string index the tables hold is in the table, whose first entry
 * is "" (profile.proto's rule). */
static int check_strings(struct pp *f)
{
	if (f->nstrs == 0 || f->strs[0].n != 0)
		return bad(f, f->nstrs ? f->strs[0].off : 0, "the string table does not start with an empty string");
	int rc = check_string(f, f->default_type, 0) | check_string(f, f->period_type.type, f->period_type.at) |
		 check_string(f, f->period_type.unit, f->period_type.at);
	for (size_t i = 0; i < f->ntypes && rc == 0; i++)
		rc = check_string(f, f->types[i].type, f->types[i].at) | check_string(f, f->types[i].unit, f->types[i].at);
	for (size_t i = 0; i < f->nfns && rc == 0; i++)
		rc = check_string(f, f->fns[i].name, f->fns[i].at);
	for (size_t i = 0; i < f->nmaps && rc == 0; i++)
		rc = check_string(f, f->maps[i].file, f->maps[i].at);
	return rc < 0 ? -1 : 0;
}

/* Every line names a function the profile has (pprof refuses a line with
 * none), whose index in fns then replaces its id. */
static int check_lines(struct pp *f)
{
	for (size_t i = 0; i < f->nlocs; i++)
		for (uint32_t j = 0; j < f->locs[i].nlines; j++) {
			uint64_t *fn = &f->line_fns[f->locs[i].line + j];
			uint32_t k = id_index(&f->fn_ids, *fn);
			if (k == AF_NONE)
				return af_diag_offset(f->d, f->locs[i].at, "malformed pprof profile: a line of a "
						      "location names function %" PRIu64 ", which the profile does not have", *fn);
			*fn = k;
		}
	return 0;
}

static bool str_is(const struct pp *f, uint64_t i, const char *s)
{
	size_t n = strlen(s);
	return f->strs[i].n == n && memcmp(f->data + f->strs[i].off, s, n) == 0;
}

/* The label keys that say where a sample ran, and a direct table of the
 * location ids when they are dense (Go numbers them 1..n). */
static void index_tables(struct pp *f)
{
	for (int k = 0; k < 2; k++)
		f->key_pid[k] = f->key_tid[k] = f->key_thread[k] = NO_STRING;
	for (size_t i = 1; i < f->nstrs; i++) {
		if (str_is(f, i, "pid") || str_is(f, i, "process_id"))
			f->key_pid[str_is(f, i, "process_id")] = i;
		else if (str_is(f, i, "tid") || str_is(f, i, "thread_id"))
			f->key_tid[str_is(f, i, "thread_id")] = i;
		else if (str_is(f, i, "thread") || str_is(f, i, "thread_name"))
			f->key_thread[str_is(f, i, "thread_name")] = i;
	}
	f->nloc_by_id = (uint64_t)f->nlocs * 2 + 16;
	f->loc_by_id = af_xcalloc((size_t)f->nloc_by_id, sizeof *f->loc_by_id);
}

/* ---- frames ---- */

static const uint8_t *str_of(const struct pp *f, uint64_t i, size_t *n)
{
	*n = f->strs[i].n;
	return f->data + f->strs[i].off;
}

/* A location with no function name: its mapping's file (base name) and
 * the offset in the file, as pprof's unsymbolized frames are located. */
static uint32_t address_name(struct pp *f, const struct loc *l)
{
	struct af_buf *b = &f->scratch;
	uint32_t k = l->mapping ? id_index(&f->map_ids, l->mapping) : AF_NONE;
	b->len = 0;
	uint64_t at = l->address;
	if (k != AF_NONE) {
		const struct mapping *m = &f->maps[k];
		size_t n;
		const uint8_t *s = str_of(f, m->file, &n);
		for (size_t i = n; i-- > 0;)   /* the file's base name */
			if (s[i] == '/') {
				s += i + 1;
				n -= i + 1;
				break;
			}
		if (n)
			af_name_append(b, (const char *)s, n);
		else
			af_buf_puts(b, "[unknown]");
		if (at >= m->start && (m->limit == 0 || at < m->limit))
			at = at - m->start + m->offset;
	} else {
		af_buf_puts(b, "[unknown]");
	}
	af_buf_printf(b, "+0x%" PRIx64, at);
	af_name_finish(b, 0);
	return af_tree_intern(&f->p->tree, b->data, b->len);
}

/* The frame of the function of index k, or AF_NONE if its name is empty. */
static uint32_t function_frame(struct pp *f, uint64_t k)
{
	struct func *x = &f->fns[k];   /* check_lines: an index */
	if (x->frame == AF_NONE && x->name) {
		size_t n;
		const uint8_t *s = str_of(f, x->name, &n);
		struct af_buf *b = &f->scratch;
		b->len = 0;
		af_name_append(b, (const char *)s, n);
		af_name_finish(b, 0);
		x->frame = af_tree_intern(&f->p->tree, b->data, b->len);
	}
	return x->frame;
}

/* The frames of location l, made on its first use: its lines from the
 * last (the outermost caller) to the first (innermost); a line whose
 * function has no name, or a location with no lines, by its address. */
static void location_frames(struct pp *f, struct loc *l)
{
	size_t n = l->nlines ? l->nlines : 1;
	af_grow(&f->frames, &f->cap_frames, f->nframes + n, sizeof *f->frames);
	l->frame = (uint32_t)f->nframes;
	for (size_t i = l->nlines; i-- > 0;) {
		uint32_t name = function_frame(f, f->line_fns[l->line + i]);
		f->frames[f->nframes++].name = name != AF_NONE ? name : address_name(f, l);
	}
	if (!l->nlines)
		f->frames[f->nframes++].name = address_name(f, l);
	l->nframes = (uint32_t)(f->nframes - l->frame);
	for (uint32_t i = l->frame; i < f->nframes; i++)
		f->frames[i].hash = (uint32_t)af_tree_name_key(&f->p->tree, f->frames[i].name);
}

/* What location index k is to a sample (struct lf) */
static struct lf location_ref(const struct pp *f, uint32_t k)
{
	const struct loc *l = &f->locs[k];
	return l->nframes == 1 ? f->frames[l->frame] : (struct lf){ MULTI | l->frame, l->nframes };
}

/* Every location's frames, and the direct table of location ids filled
 * with what location() answers: a location costs one load of a small table,
 * not its record, its frames and their names (cache misses at every frame). */
static void locate_all(struct pp *f)
{
	for (uint64_t id = 0; id < f->nloc_by_id; id++)
		f->loc_by_id[id] = (struct lf){ AF_NONE, 0 };
	for (size_t k = 0; k < f->nlocs; k++) {
		location_frames(f, &f->locs[k]);
		if (f->locs[k].id < f->nloc_by_id)
			f->loc_by_id[f->locs[k].id] = location_ref(f, (uint32_t)k);
	}
}

/* ---- where a sample ran ---- */

static uint32_t process_node(struct pp *f, uint64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->proc_keys, pid, &found);
	if (!found) {   /* named at the end, when its main thread's name is known */
		struct af_tree *t = &f->p->tree;
		af_grow(&f->procs, &f->cap_procs, f->nprocs + 1, sizeof *f->procs);
		uint32_t node = af_tree_add_child(t, AF_ROOT, af_tree_intern_str(t, ""));
		f->procs[f->nprocs++] = (struct proc){ pid, node };
		af_profile_add_process(f->p, pid, "", 0, node);
		*slot = node;
	}
	return *slot;
}

/* The node of the thread a sample's labels name: "name (tid)" below
 * "process (pid)"; made on its first sample, named by it. */
static uint32_t thread_node(struct pp *f, const struct where *w)
{
	uint64_t key = w->has_tid ? w->tid : af_hash_keyed_bytes(f->data + w->name.off, w->name.n) | 1ull << 63;
	uint32_t parent = w->has_pid ? process_node(f, w->pid) : AF_ROOT;
	if (!w->has_tid && !w->has_name)
		return parent;
	bool found;
	uint32_t *slot = af_idmap_slot(&f->thread_keys, key ^ (w->has_pid ? w->pid * 0x9e3779b97f4a7c15ull : 0), &found);
	if (found) {
		f->p->threads[f->threads[*slot].index].events++;
		return f->threads[*slot].node;
	}
	struct af_tree *t = &f->p->tree;
	struct af_buf *b = &f->scratch;
	b->len = 0;
	if (w->has_name)
		af_name_append(b, (const char *)f->data + w->name.off, w->name.n);
	else
		af_buf_printf(b, "thread-%" PRIu64, w->tid);
	af_name_finish(b, 0);
	size_t ti = af_profile_add_thread(f->p, w->has_tid ? w->tid : 0, b->data, b->len);
	if (w->has_tid)
		af_buf_printf(b, " (%" PRIu64 ")", w->tid);
	uint32_t node = af_tree_add_child(t, parent, af_tree_intern(t, b->data, b->len));
	struct af_thread *th = &f->p->threads[ti];
	th->events = 1;
	th->node = node;
	th->pid = w->has_pid ? w->pid : 0;
	th->process_node = w->has_pid ? parent : AF_NONE;
	af_grow(&f->threads, &f->cap_threads, f->nthreads + 1, sizeof *f->threads);
	*slot = (uint32_t)f->nthreads;
	f->threads[f->nthreads++] = (struct pthread_){ key, node, ti };
	return node;
}

/* A process is named as its main thread (tid = pid), else process-<pid>;
 * the main threads are found in one pass over the threads (a pass for each
 * process would make a file of many processes and threads quadratic). */
static void name_processes(struct pp *f)
{
	struct af_tree *t = &f->p->tree;
	struct af_buf *b = &f->scratch;
	struct af_idmap by_pid;
	af_idmap_init(&by_pid);
	for (size_t i = 0; i < f->nprocs; i++)
		af_idmap_put(&by_pid, f->procs[i].pid, (uint32_t)i);
	const char **main_name = af_xcalloc(f->nprocs ? f->nprocs : 1, sizeof *main_name);
	for (size_t j = 0; j < f->p->nthreads; j++) {
		const struct af_thread *th = &f->p->threads[j];
		uint32_t i = af_idmap_get(&by_pid, th->tid);
		if (i != AF_NONE && !main_name[i] && th->process_node == f->procs[i].node)
			main_name[i] = th->name;
	}
	for (size_t i = 0; i < f->nprocs; i++) {
		b->len = 0;
		if (main_name[i])
			af_buf_puts(b, main_name[i]);
		else
			af_buf_printf(b, "process-%" PRIu64, f->procs[i].pid);
		free(f->p->processes[i].name);
		f->p->processes[i].name = af_xstrndup(b->data, b->len);
		af_buf_printf(b, " (%" PRIu64 ")", f->procs[i].pid);
		af_tree_rename(t, f->procs[i].node, af_tree_intern(t, b->data, b->len));
	}
	free(main_name);
	af_idmap_release(&by_pid);
}

/* ---- samples ---- */

struct sample { size_t nlocs, nvalues; int64_t value; struct where w; };

/* A decimal label value ("1234"), for writers that give ids as strings. */
static bool decimal(const uint8_t *s, size_t n, uint64_t *v)
{
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || *v > UINT64_MAX / 10 - 1)
			return false;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return n > 0;
}

static bool key_is(uint64_t key, const uint64_t *keys)
{
	return key != NO_STRING && (key == keys[0] || key == keys[1]);
}

/* Label: key 1, str 2 (string indices), num 3. */
static int read_label(struct pp *f, struct af_proto *m, struct where *w)
{
	struct af_proto_field x;
	uint64_t key = 0, str = 0, num = 0;
	bool has_num = false;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num >= 1 && x.num <= 3 && !wire_is(f, &x, AF_WIRE_VARINT, &rc))
			return -1;
		if (x.num == 1)
			key = x.u;
		else if (x.num == 2)
			str = x.u;
		else if (x.num == 3)
			num = x.u, has_num = true;
	}
	if (rc < 0)
		return malformed(f, m);
	if (check_string(f, key, m->base) < 0 || check_string(f, str, m->base) < 0)
		return -1;
	size_t n;
	const uint8_t *s = str_of(f, str, &n);
	uint64_t v = num;
	bool id = has_num || decimal(s, n, &v);
	if (key_is(key, f->key_pid) && id)
		w->pid = v, w->has_pid = true;
	else if (key_is(key, f->key_tid) && id)
		w->tid = v, w->has_tid = true;
	else if (key_is(key, f->key_thread) && n)
		w->name = f->strs[str], w->has_name = true;
	return 0;
}

/* A repeated varint field, packed or not, appended to (*v)[*n...]. */
static int repeated(struct pp *f, const struct af_proto_field *x, uint64_t **v, size_t *cap, size_t *n)
{
	int rc = 0;
	if (x->wire == AF_WIRE_VARINT) {
		af_grow(v, cap, *n + 1, sizeof **v);
		(*v)[(*n)++] = x->u;
		return 0;
	}
	if (!wire_is(f, x, AF_WIRE_LEN, &rc))
		return -1;
	if (x->len == 0)   /* nothing packed: *v may be NULL still */
		return 0;
	af_grow(v, cap, *n + x->len, sizeof **v);
	size_t k = af_proto_unpack(x->data, x->len, *v + *n);
	if (k == SIZE_MAX)
		return bad(f, x->offset, "packed varints cut short");
	*n += k;
	return 0;
}

/* Sample: location_id 1, value 2, label 3. */
static int parse_sample(struct pp *f, struct af_proto *m, struct sample *s)
{
	struct af_proto_field x;
	int rc;
	*s = (struct sample){ 0 };
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1) {
			rc = repeated(f, &x, &f->stack, &f->cap_stack, &s->nlocs);
		} else if (x.num == 2) {
			rc = repeated(f, &x, &f->values, &f->cap_values, &s->nvalues);
		} else if (x.num == 3 && wire_is(f, &x, AF_WIRE_LEN, &rc)) {
			struct af_proto label;
			af_proto_sub(m, &x, &label);
			rc = read_label(f, &label, &s->w);
		}
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return malformed(f, m);
	if (s->nvalues != f->ntypes)
		return af_diag_offset(f->d, m->base, "malformed pprof profile: a sample has %zu values for %zu sample types",
				      s->nvalues, f->ntypes);
	s->value = af_proto_int64(f->values[f->drawn]);
	return 0;
}

/* What location id is (struct lf), from the table locate_all made; name
 * AF_NONE if the profile has none. */
static struct lf location(const struct pp *f, uint64_t id)
{
	if (id < f->nloc_by_id)
		return f->loc_by_id[id];
	uint32_t k = id_index(&f->loc_ids, id);
	return k == AF_NONE ? (struct lf){ AF_NONE, 0 } : location_ref(f, k);
}

/* The key of the frames right below node (a root, a thread or a process
 * made by af_tree_add_child): keyed by the node, so no two threads share
 * their frames' keys. */
static uint64_t root_key(uint32_t node)
{
	return node == AF_ROOT ? AF_PATH_ROOT_KEY
			       : af_tree_path_key(AF_PATH_ROOT_KEY, af_hash_keyed_bytes(&node, sizeof node));
}

/* Fold n frames (root first) below root; returns the leaf's node. Frames
 * the sample folded before had from the same root keep their nodes; the
 * others' path keys are worked
 * out and their slots prefetched before the first is looked up, so one
 * stack's probes wait for memory together (the tree's table is far larger
 * than the caches). */
static uint32_t fold_frames(struct pp *f, uint32_t root, const struct lf *names, size_t n)
{
	struct af_tree *t = &f->p->tree;
	size_t same = 0;
	if (root == f->path_root)
		while (same < n && same < f->depth && f->path[same].name == names[same].name)
			same++;
	af_grow(&f->path, &f->cap_path, n, sizeof *f->path);
	uint64_t key = same ? f->path[same - 1].key : root_key(root);
	for (size_t i = same; i < n; i++) {
		f->path[i].name = names[i].name;
		f->path[i].key = key = af_tree_path_key(key, names[i].hash);
		af_tree_path_prefetch(t, key);
	}
	uint32_t node = same ? f->path[same - 1].node : root;
	for (size_t i = same; i < n; i++)
		f->path[i].node = node = af_tree_key_child(t, node, f->path[i].key, f->path[i].name);
	f->depth = n;
	f->path_root = root;
	return node;
}

/* Fold one sample: its locations from the last (the root) to the first,
 * each location's frames root-most first. */
static int fold_sample(struct pp *f, struct af_proto *m)
{
	struct sample s;
	uint64_t at = m->base;
	if (parse_sample(f, m, &s) < 0)
		return -1;
	f->samples++;
	size_t n = 0;
	af_grow(&f->refs, &f->cap_refs, s.nlocs, sizeof *f->refs);
	for (size_t i = 0; i < s.nlocs; i++) {   /* pprof refuses a sample naming no location */
		struct lf v = f->refs[i] = location(f, f->stack[i]);
		if (v.name == AF_NONE)
			return af_diag_offset(f->d, at, "malformed pprof profile: a sample names location %" PRIu64
					      ", which the profile does not have", f->stack[i]);
		n += v.name & MULTI ? v.hash : 1;
	}
	if (s.value <= 0) {
		f->zero += s.value == 0;
		f->negative += s.value < 0;
		return 0;
	}
	uint64_t w = (uint64_t)s.value;
	if (w > UINT64_MAX - f->weight)
		return af_diag_offset(f->d, at, "the sample values add up past 2^64");
	/* a few bytes of ids may name locations of many lines: bounded, so
	 * the work stays linear in the file */
	f->frames_total += n;
	if (n > MAX_FRAMES || f->frames_total > 64 * (uint64_t)f->len + (1u << 20))
		return af_diag_offset(f->d, at, "malformed pprof profile: a sample of %zu frames, or the samples' "
				      "stacks far larger than the file", n);
	f->weight += w;
	f->folded++;
	af_grow(&f->names, &f->cap_names, n, sizeof *f->names);
	n = 0;
	for (size_t i = s.nlocs; i-- > 0;) {
		struct lf v = f->refs[i];
		if (v.name & MULTI)
			memcpy(f->names + n, f->frames + (v.name & ~MULTI), v.hash * sizeof *f->names);
		else
			f->names[n] = v;
		n += v.name & MULTI ? v.hash : 1;
	}
	af_tree_add_self(&f->p->tree, fold_frames(f, thread_node(f, &s.w), f->names, n), w);
	return 0;
}

/* ---- the walks ---- */

/* pass 0: the tables; pass 1: the samples */
static int walk(struct pp *f, int pass)
{
	struct af_proto top;
	struct af_proto_field x;
	af_proto_init(&top, f->data, f->len, 0);
	int rc;
	while ((rc = af_proto_next(&top, &x)) > 0) {
		if (pass == 0 && x.num != P_SAMPLE) {
			rc = table_field(f, &top, &x);
		} else if (pass == 1 && x.num == P_SAMPLE) {
			struct af_proto m;
			af_proto_sub(&top, &x, &m);
			rc = fold_sample(f, &m);
		} else if (pass == 0) {   /* a sample: the tree is sized by their bytes */
			f->sample_bytes += x.len;
			wire_is(f, &x, AF_WIRE_LEN, &rc);
		}
		if (rc < 0)
			return -1;
	}
	return rc < 0 ? malformed(f, &top) : 0;
}

static struct af_event_name type_name(const struct pp *f, size_t i)
{
	size_t n;
	const uint8_t *s = str_of(f, f->types[i].type, &n);
	return (struct af_event_name){ (const char *)s, n };
}

/* --event by type name; else default_sample_type, else the last type. */
static int pick_type(struct pp *f)
{
	if (f->ntypes == 0)
		return af_diag_error(f->d, "nothing to draw: the profile has no sample types");
	f->drawn = f->ntypes - 1;
	if (!f->o->event) {
		for (size_t i = 0; f->default_type && i < f->ntypes; i++)
			if (f->types[i].type == f->default_type)
				f->drawn = i;
		return 0;
	}
	struct af_event_name *names = af_xcalloc(f->ntypes, sizeof *names);
	for (size_t i = 0; i < f->ntypes; i++)
		names[i] = type_name(f, i);
	int k = af_event_pick(f->o->event, names, f->ntypes, f->d);
	free(names);
	if (k < 0)
		return -1;
	f->drawn = (size_t)k;
	return 0;
}

/* profile.proto's units as this program names them (static strings) */
static const struct { const char *unit, *ours; } units[] = {
	{ "nanoseconds", "ns" }, { "microseconds", "\xc2\xb5s" }, { "milliseconds", "ms" }, { "seconds", "s" },
	{ "bytes", "bytes" }, { "count", "samples" },
};

/* what Go's and pprof's usual sample types measure, for the subtitle */
static const struct { const char *type, *measure; } measures[] = {
	{ "cpu", "CPU time" }, { "wall", "wall time" }, { "alloc_space", "allocated bytes" },
	{ "inuse_space", "in-use bytes" }, { "alloc_objects", "allocated objects" },
	{ "inuse_objects", "in-use objects" }, { "contentions", "contentions" }, { "delay", "delay" },
	{ "goroutine", "goroutines" },
};

static void set_unit(struct pp *f)
{
	const struct vtype *v = &f->types[f->drawn];
	f->p->unit = "events";
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if (str_is(f, v->unit, units[i].unit))
			f->p->unit = units[i].ours;
	if (str_is(f, v->unit, "count") && !str_is(f, v->type, "samples"))
		f->p->unit = "events";
	f->p->measure = NULL;
	for (size_t i = 0; i < sizeof measures / sizeof *measures; i++)
		if (str_is(f, v->type, measures[i].type))
			f->p->measure = measures[i].measure;
	f->p->clock = NULL;
}

/* "type/unit" of value type v into b */
static void put_vtype(const struct pp *f, const struct vtype *v, struct af_buf *b)
{
	size_t n, m;
	const uint8_t *t = str_of(f, v->type, &n), *u = str_of(f, v->unit, &m);
	size_t from = b->len;
	af_name_append(b, (const char *)t, n);
	af_buf_putc(b, '/');
	af_name_append(b, (const char *)u, m);
	af_name_finish(b, from);
}

static void info(struct pp *f)
{
	struct af_profile *p = f->p;
	struct af_buf *b = &f->scratch;
	b->len = 0;
	for (size_t i = 0; i < f->ntypes; i++) {
		af_buf_puts(b, i ? ", " : "");
		put_vtype(f, &f->types[i], b);
	}
	if (f->ntypes > 1) {
		af_buf_puts(b, " (");
		put_vtype(f, &f->types[f->drawn], b);
		af_buf_puts(b, " is drawn)");
	}
	af_profile_info(p, "sample types", "%s", b->data);
	af_profile_info(p, "samples", "%" PRIu64 " drawn, %" PRIu64 " with a value of 0", f->folded, f->zero);
	af_profile_info(p, "locations", "%zu (%zu functions, %zu mappings)", f->nlocs, f->nfns, f->nmaps);
	if (f->period_type.type) {
		b->len = 0;
		put_vtype(f, &f->period_type, b);
		af_profile_info(p, "period", "%" PRIu64 " %s", f->period, b->data);
	}
	if (f->duration)
		af_profile_info(p, "duration", "%" PRIu64 " ns", f->duration);
	if (f->time)
		af_profile_info(p, "time", "%" PRIu64 " ns since 1970", f->time);
	af_profile_warn(p, f->negative, "samples with a negative value left out (a difference of two profiles?)");
}

static void pp_release(struct pp *f)
{
	free(f->strs);
	free(f->types);
	free(f->maps);
	free(f->fns);
	free(f->locs);
	free(f->loc_by_id);
	free(f->line_fns);
	free(f->frames);
	free(f->stack);
	free(f->values);
	free(f->names);
	free(f->refs);
	free(f->path);
	free(f->threads);
	free(f->procs);
	af_idmap_release(&f->map_ids.map);
	af_idmap_release(&f->fn_ids.map);
	af_idmap_release(&f->loc_ids.map);
	af_idmap_release(&f->thread_keys);
	af_idmap_release(&f->proc_keys);
	af_buf_release(&f->scratch);
}

static int read_pprof(struct af_profile *p, const struct af_input *in, const struct af_read_opts *o,
		      struct af_diag *d)
{
	struct pp f = { .p = p, .d = d, .o = o, .data = in->data, .len = in->len, .path_root = AF_NONE };
	if (o->window)
		return af_diag_error(d, "--from and --to need a method trace: a pprof profile's samples have no times");
	int rc = -1;
	if (walk(&f, 0) == 0 && check_strings(&f) == 0 && check_lines(&f) == 0 && pick_type(&f) == 0) {
		uint64_t guess = f.sample_bytes / RESERVE_DIV;
		af_tree_path_reserve(&p->tree, (size_t)(guess < RESERVE_MAX ? guess : RESERVE_MAX));
		index_tables(&f);
		locate_all(&f);
		if (walk(&f, 1) == 0) {
			name_processes(&f);
			set_unit(&f);
			info(&f);
			rc = 0;
		}
	}
	pp_release(&f);
	return rc;
}

/* ---- detection ---- */

/* A ValueType: at most two varint fields, numbers 1 and 2; *empty when
 * it has none. */
static bool vtype_like(const uint8_t *data, size_t len, bool *empty)
{
	struct af_proto m;
	struct af_proto_field x;
	int rc, n = 0;
	af_proto_init(&m, data, len, 0);
	while ((rc = af_proto_next(&m, &x)) > 0)
		if ((x.num != 1 && x.num != 2) || x.wire != AF_WIRE_VARINT || ++n > 2)
			return false;
	*empty = n == 0;
	return rc == 0;
}

/* The wire type profile.proto gives top-level field num (newer fields,
 * past 15, any). */
static bool profile_wire(uint32_t num, enum af_wire w)
{
	if (num <= P_STRINGS || num == P_PERIOD_TYPE || num == 15)
		return w == AF_WIRE_LEN;
	if (num <= 14)
		return w == AF_WIRE_VARINT || (num == 13 && w == AF_WIRE_LEN);
	return true;
}

/* A Profile: its top-level fields (the first 4096, or up to where a cut
 * file ends) have the numbers and wire types profile.proto gives them,
 * every sample type is a ValueType, and it has its string table (a
 * complete file must) or, when cut or long, a field other than a sample
 * type (the one cut short counts). A Perfetto trace (only field 1, packets that are rarely
 * ValueTypes) is none, nor is text (a wire type 3, 4, 6 or 7 soon). */
static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_init(&m, data, len, 0);
	bool strings = false, other = false, empty;
	int rc = 0, fields = 0;
	while (fields < 4096 && (rc = af_proto_next(&m, &x)) > 0) {
		if (!profile_wire(x.num, x.wire) || (x.num == P_SAMPLE_TYPE && !vtype_like(x.data, x.len, &empty)))
			return AF_SNIFF_NO;
		strings |= x.num == P_STRINGS;
		other |= x.num != P_SAMPLE_TYPE;
		fields++;
	}
	bool cut = rc < 0 && (strcmp(m.error, "length runs past the end of its message") == 0 ||
			      strncmp(m.error, "truncated", 9) == 0);
	if (rc < 0 && !cut)
		return AF_SNIFF_NO;
	if (cut && !other) {   /* the field cut short may be the telling one */
		struct af_cursor c = { data, len, (size_t)m.error_offset };
		uint64_t tag;
		other = af_cursor_uleb(&c, &tag) && tag >> 3 != P_SAMPLE_TYPE && tag >> 3 <= UINT32_MAX &&
			profile_wire((uint32_t)(tag >> 3), (enum af_wire)(tag & 7));
	}
	return strings || ((cut || rc > 0) && other) ? AF_SNIFF_YES : AF_SNIFF_NO;
}

const struct af_reader af_reader_pprof = {
	.name = "pprof", .what = "a pprof profile", .sniff = sniff,
	.read = read_pprof, .nothing = "no samples",
};
