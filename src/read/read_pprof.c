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
#include "pprof_int.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>

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
	if (w->has_pid || w->has_tid || w->has_name)   /* the tree is pp_locate_all's till then */
		pp_tables_ready(f);
	uint32_t parent = w->has_pid ? process_node(f, w->pid) : AF_ROOT;
	if (!w->has_tid && !w->has_name)   /* (most samples: no name to hash) */
		return parent;
	uint64_t key = w->has_tid ? w->tid : af_hash_keyed_bytes(f->data + w->name.off, w->name.n) | 1ull << 63;
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

/* ids: its location ids when they are one packed field, ids_len bytes */
/* packed: the ids are not in f->stack (fast_sample); frames: of its
 * locations, unless unknown: then bad is the first id the profile does
 * not have */
struct sample {
	size_t nlocs, nvalues, loc_fields, ids_len, frames;
	const uint8_t *ids;
	int64_t value;
	uint64_t bad;
	struct where w;
	bool packed, unknown;
};

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
		if (x.num >= 1 && x.num <= 3 && !pp_wire_is(f, &x, AF_WIRE_VARINT, &rc))
			return -1;
		if (x.num == 1)
			key = x.u;
		else if (x.num == 2)
			str = x.u;
		else if (x.num == 3)
			num = x.u, has_num = true;
	}
	if (rc < 0)
		return pp_malformed(f, m);
	if (pp_check_string(f, key, m->base) < 0 || pp_check_string(f, str, m->base) < 0)
		return -1;
	size_t n;
	const uint8_t *s = pp_str_of(f, str, &n);
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
	if (!pp_wire_is(f, x, AF_WIRE_LEN, &rc))
		return -1;
	if (x->len == 0)   /* nothing packed: *v may be NULL still */
		return 0;
	af_grow(v, cap, *n + x->len, sizeof **v);
	size_t k = af_proto_unpack(x->data, x->len, *v + *n);
	if (k == SIZE_MAX)
		return pp_bad(f, x->offset, "packed varints cut short");
	*n += k;
	return 0;
}

/* The packed varints p[0..n) into (*v)[0...], their count; SIZE_MAX if
 * malformed */
static size_t unpack(const uint8_t *p, uint64_t n, uint64_t **v, size_t *cap)
{
	if (n == 0)
		return 0;
	if (n > *cap)
		af_grow(v, cap, (size_t)n, sizeof **v);
	return af_proto_unpack(p, (size_t)n, *v);
}

/* The commonest sample in place (Go's and most writers'): its location
 * ids packed, then its values packed, nothing else; false, with nothing
 * read, for any other (the walker reads it, and says what is wrong). The
 * ids are left packed: fold_sample reads them. */
static bool fast_sample(struct pp *f, const struct af_proto *m, struct sample *s)
{
	const uint8_t *p = m->c.data + m->c.pos, *end = m->c.data + m->c.len, *ids;
	uint64_t n, nv;
	if (p == end || *p++ != AF_PROTO_TAG(1, AF_WIRE_LEN) || !af_proto_fast_varint(&p, end, &n) ||
	    n > (uint64_t)(end - p) || (n && p[n - 1] >= 0x80))
		return false;
	ids = p;
	p += n;
	if (p == end || *p++ != AF_PROTO_TAG(2, AF_WIRE_LEN) || !af_proto_fast_varint(&p, end, &nv) ||
	    nv != (uint64_t)(end - p))
		return false;
	size_t kv = unpack(p, nv, &f->values, &f->cap_values);
	if (kv == SIZE_MAX)
		return false;
	*s = (struct sample){ .nvalues = kv, .loc_fields = 1, .ids = ids, .ids_len = (size_t)n, .packed = true };
	return true;
}

/* s->frames, the frames of a sample's locations, or s->unknown and s->bad
 * the first id that names none the profile has; -1 for packed ids of a
 * varint of more than 10 bytes. The ids are s->ids[0..ids_len) packed,
 * their last byte the end of one (fast_sample), else f->stack[0..nlocs). */
static int sample_frames(struct pp *f, struct sample *s)
{
	pp_tables_ready(f);
	if (s->packed) {
		int rc = pp_frames_of(f, s->ids, s->ids_len, &s->frames, &s->bad);
		s->unknown = rc > 0;
		return rc < 0 ? -1 : 0;
	}
	size_t total = 0, k;
	for (size_t i = 0; i < s->nlocs; i++) {
		if ((k = pp_location_frames(f, f->stack[i])) == 0) {
			s->unknown = true;
			s->bad = f->stack[i];
			return 0;
		}
		total += k;
	}
	s->frames = total;
	return 0;
}

/* Sample: location_id 1, value 2, label 3. */
static int parse_sample(struct pp *f, struct af_proto *m, struct sample *s)
{
	struct af_proto_field x;
	int rc = 0;
	if (fast_sample(f, m, s))
		goto counted;
	*s = (struct sample){ 0 };
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1) {
			rc = repeated(f, &x, &f->stack, &f->cap_stack, &s->nlocs);
			s->loc_fields++;
			s->ids = x.wire == AF_WIRE_LEN ? x.data : NULL;
			s->ids_len = x.len;
		} else if (x.num == 2) {
			rc = repeated(f, &x, &f->values, &f->cap_values, &s->nvalues);
		} else if (x.num == 3 && pp_wire_is(f, &x, AF_WIRE_LEN, &rc)) {
			struct af_proto label;
			af_proto_sub(m, &x, &label);
			rc = read_label(f, &label, &s->w);
		}
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return pp_malformed(f, m);
counted:
	if (s->nvalues != f->ntypes) {
		if (s->packed && sample_frames(f, s) < 0)   /* as the walker would: it reads the ids first */
			return pp_bad(f, m->base, "packed varints cut short");
		return af_diag_offset(f->d, m->base, "malformed pprof profile: a sample has %zu values for %zu sample types",
				      s->nvalues, f->ntypes);
	}
	s->value = af_proto_int64(f->values[f->drawn]);
	return 0;
}

/* An error at a sample of the second walk (in f->d): a sample kept
 * before it to fold may have one that comes first (pprof_fold.c checks
 * their locations and frames as it folds them). */
static int earlier_first(struct pp *f)
{
	struct af_diag d = *f->d;
	f->d->set = false;
	if (pp_fold_check(f) == 0)
		*f->d = d;
	return -1;
}

/* One sample: checked, counted, and kept for pprof_fold.c to fold, which
 * checks its locations and frames (those of a sample not folded here). */
static int fold_sample(struct pp *f, struct af_proto *m)
{
	struct sample s;
	uint64_t at = m->base;
	if (parse_sample(f, m, &s) < 0)
		return earlier_first(f);
	f->samples++;
	bool packed = s.loc_fields == 1 && s.ids;
	if (s.value <= 0) {   /* not folded: its locations checked here */
		int rc = sample_frames(f, &s);
		if (rc < 0)
			pp_bad(f, at, "packed varints cut short");
		else if (s.unknown)   /* pprof refuses a sample naming no location */
			af_diag_offset(f->d, at, "malformed pprof profile: a sample names location %" PRIu64
				       ", which the profile does not have", s.bad);
		if (rc < 0 || s.unknown)
			return earlier_first(f);
		f->zero += s.value == 0;
		f->negative += s.value < 0;
		return 0;
	}
	uint64_t w = (uint64_t)s.value;
	const uint8_t *ids = packed ? s.ids : NULL;
	size_t len = packed ? s.ids_len : 0;
	if (w > UINT64_MAX - f->weight || f->folded >= UINT32_MAX - 1 || len > MAX_IDS_BYTES || s.nlocs > MAX_FRAMES)
		return pp_fold_refuse(f, w, ids, len, s.nlocs, at);   /* and why, or an earlier sample's error */
	f->weight += w;
	f->folded++;
	return pp_fold_later(f, thread_node(f, &s.w), w, ids, len, s.nlocs, at);
}

/* ---- the walks ---- */

/* The next top-level field: in place when it can be (pp_fast_field), else
 * by the walker. */
AF_PROTO_HOT int next_top(struct af_proto *top, struct af_proto_field *x)
{
	const uint8_t *p = top->c.data + top->c.pos, *end = top->c.data + top->c.len;
	struct pp_field y;
	if (p < end && pp_fast_field(&p, end, &y)) {
		bool len = y.wire == AF_WIRE_LEN;
		*x = (struct af_proto_field){ y.num, (enum af_wire)y.wire, len ? 0 : y.u, y.data, len ? y.len : 0,
					      top->base + top->c.pos };
		top->c.pos = (size_t)(p - top->c.data);
		return 1;
	}
	return af_proto_next(top, x);
}

/* The tables' rows counted in a look at the top-level fields first, so
 * that each table is made once, at its size: grown by doubling, each size
 * it went through was fresh 4 KiB pages, a fault each (a third of the
 * bench's). A field the walk will refuse is left to it. The tree and the
 * samples' room are sized by the samples' bytes, and the room's pages
 * made on a job while the tables are read (pp_fold_reserve). */
static void reserve_tables(struct pp *f)
{
	struct af_proto top;
	struct af_proto_field x;
	size_t rows[P_STRINGS + 1] = { 0 };
	af_proto_init(&top, f->data, f->len, 0);
	while (next_top(&top, &x) > 0) {
		if (x.num <= P_STRINGS)
			rows[x.num]++;
		if (x.num == P_SAMPLE)   /* the tree is sized by their bytes */
			f->sample_bytes += x.len;
	}
	pp_reserve_tables(f, rows[P_STRINGS], rows[P_MAPPING], rows[P_FUNCTION], rows[P_LOCATION]);
	uint64_t guess = f->sample_bytes / RESERVE_DIV;
	af_tree_reserve(&f->p->tree, (size_t)(guess < RESERVE_MAX ? guess : RESERVE_MAX));
	pp_fold_reserve(f, rows[P_SAMPLE], f->sample_bytes);
}

/* pass 0: the tables; pass 1: the samples */
static int walk(struct pp *f, int pass)
{
	struct af_proto top;
	struct af_proto_field x;
	af_proto_init(&top, f->data, f->len, 0);
	int rc;
	while ((rc = next_top(&top, &x)) > 0) {
		if (pass == 0 && x.num != P_SAMPLE) {
			rc = pp_table_field(f, &top, &x);
		} else if (pass == 1 && x.num == P_SAMPLE) {
			struct af_proto m;
			af_proto_sub(&top, &x, &m);
			rc = fold_sample(f, &m);
		} else if (pass == 0) {   /* a sample */
			pp_wire_is(f, &x, AF_WIRE_LEN, &rc);
		}
		if (rc < 0)
			return -1;
	}
	return rc < 0 ? pp_malformed(f, &top) : 0;
}

static struct af_event_name type_name(const struct pp *f, size_t i)
{
	size_t n;
	const uint8_t *s = pp_str_of(f, f->types[i].type, &n);
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
		if (pp_str_is(f, v->unit, units[i].unit))
			f->p->unit = units[i].ours;
	if (pp_str_is(f, v->unit, "count") && !pp_str_is(f, v->type, "samples"))
		f->p->unit = "events";
	f->p->measure = NULL;
	for (size_t i = 0; i < sizeof measures / sizeof *measures; i++)
		if (pp_str_is(f, v->type, measures[i].type))
			f->p->measure = measures[i].measure;
	f->p->clock = NULL;
}

/* "type/unit" of value type v into b */
static void put_vtype(const struct pp *f, const struct vtype *v, struct af_buf *b)
{
	size_t n, m;
	const uint8_t *t = pp_str_of(f, v->type, &n), *u = pp_str_of(f, v->unit, &m);
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
	pp_tables_ready(f);
	pp_prefault_join(f);
	pp_read_ahead_join(f);
	free(f->room);
	free(f->strs);
	free(f->types);
	free(f->maps);
	free(f->fns);
	free(f->locs);
	free(f->loc_by_id);
	free(f->frames_by_id);
	free(f->line_fns);
	free(f->frames);
	free(f->stack);
	free(f->values);
	free(f->pending);
	free(f->recoded);
	free(f->late);
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
	struct pp f = { .p = p, .d = d, .o = o, .data = in->data, .len = in->len };
	if (o->window)
		return af_diag_error(d, "--from and --to need a method trace: a pprof profile's samples have no times");
	int rc = -1;
	if (in->mapped && in->len >= (1u << 20))   /* (in memory: made already) */
		pp_read_ahead(&f);
	reserve_tables(&f);
	if (walk(&f, 0) == 0 && pp_check_strings(&f) == 0 && pp_check_lines(&f) == 0 && pick_type(&f) == 0) {
		pp_index_tables(&f);
		pp_locate_start(&f);
		if (walk(&f, 1) == 0 && pp_fold_all(&f) == 0) {
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
 * type (the one cut short counts), once a field was whole. A Perfetto
 * trace (only field 1, packets that are rarely ValueTypes) is none, nor is
 * text (a wire type 3, 4, 6 or 7 soon, or a first field cut short). */
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
	/* a cut file has read whole at least its first field: text whose first
	 * bytes read as a long field ("ja" is field 13, 97 bytes) is no cut
	 * profile (a small "java;main 1" folded file was refused as one) */
	bool cut = rc < 0 && fields > 0 &&
		   (strcmp(m.error, "length runs past the end of its message") == 0 ||
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

