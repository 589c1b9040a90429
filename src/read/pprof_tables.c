/* pprof_tables.c: the tables of a pprof profile that its samples refer
 * to, read in the first walk: the string table, sample types, mappings,
 * functions and locations (with their lines); every string index and
 * every line's function checked; then each location's frames made once,
 * and a direct table of location ids (pprof_int.h). */
#include "pprof_int.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

int pp_malformed(struct pp *f, const struct af_proto *m)
{
	return af_diag_offset(f->d, m->error_offset, "malformed pprof profile: %s", m->error);
}

int pp_bad(struct pp *f, uint64_t at, const char *why)
{
	return af_diag_offset(f->d, at, "malformed pprof profile: %s", why);
}

/* a field of the wire type pprof writes, else an error at it */
bool pp_wire_is(struct pp *f, const struct af_proto_field *x, enum af_wire w, int *rc)
{
	if (x->wire == w)
		return true;
	*rc = pp_bad(f, x->offset, "a field has another wire type than profile.proto gives it");
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
		if (x.num == 1 && pp_wire_is(f, &x, AF_WIRE_VARINT, &rc))
			v->type = x.u;
		else if (x.num == 2 && pp_wire_is(f, &x, AF_WIRE_VARINT, &rc))
			v->unit = x.u;
		if (rc < 0)
			return -1;
	}
	return rc < 0 ? pp_malformed(f, m) : 0;
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
		if (!pp_wire_is(f, &x, AF_WIRE_VARINT, &rc))
			return -1;
		uint64_t *field[] = { &id, &mp.start, &mp.limit, &mp.offset, &mp.file };
		*field[x.num - 1] = x.u;
	}
	if (rc < 0)
		return pp_malformed(f, m);
	if (new_id(f, &f->map_ids, id, mp.at, "mapping with id") < 0)
		return -1;
	af_grow_huge(&f->maps, &f->cap_maps, f->nmaps + 1, sizeof *f->maps);
	f->maps[f->nmaps++] = mp;
	return 0;
}

/* A function read in place (pp_fast_field); false for one the walker
 * must read. */
static bool function_fast(const struct af_proto *m, struct func *fn, uint64_t *id)
{
	const uint8_t *p = m->c.data, *end = p + m->c.len;
	struct pp_field x;
	while (p < end) {
		if (!pp_fast_field(&p, end, &x) || ((x.num == 1 || x.num == 2) && x.wire != AF_WIRE_VARINT))
			return false;
		if (x.num == 1)
			*id = x.u;
		else if (x.num == 2)
			fn->name = x.u;
	}
	return true;
}

/* Function: id 1, name 2 (system_name, filename, start_line unused). */
static int read_function(struct pp *f, struct af_proto *m)
{
	struct af_proto_field x;
	struct func fn = { .at = m->base, .frame = AF_NONE };
	uint64_t id = 0;
	int rc = 0;
	if (function_fast(m, &fn, &id))
		goto known;
	fn.name = id = 0;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && pp_wire_is(f, &x, AF_WIRE_VARINT, &rc))
			id = x.u;
		else if (x.num == 2 && pp_wire_is(f, &x, AF_WIRE_VARINT, &rc))
			fn.name = x.u;
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return pp_malformed(f, m);
known:
	if (new_id(f, &f->fn_ids, id, fn.at, "function with id") < 0)
		return -1;
	if (f->nfns == f->cap_fns)
		af_grow_huge(&f->fns, &f->cap_fns, f->nfns + 1, sizeof *f->fns);
	f->fns[f->nfns++] = fn;
	return 0;
}

/* A line's function id appended to line_fns */
static void add_line(struct pp *f, uint64_t fn)
{
	if (f->nline_fns == f->cap_line_fns)
		af_grow_huge(&f->line_fns, &f->cap_line_fns, f->nline_fns + 1, sizeof *f->line_fns);
	f->line_fns[f->nline_fns++] = fn;
}

/* A line read in place, appended (pp_fast_field); false for one the
 * walker must read. */
static bool line_fast(struct pp *f, const uint8_t *p, size_t len)
{
	const uint8_t *end = p + len;
	uint64_t fn = 0;
	struct pp_field x;
	while (p < end) {
		if (!pp_fast_field(&p, end, &x) || (x.num == 1 && x.wire != AF_WIRE_VARINT))
			return false;
		if (x.num == 1)
			fn = x.u;
	}
	add_line(f, fn);
	return true;
}

/* A location read in place (pp_fast_field), its lines appended; false,
 * with none kept, for one the walker must read. */
static bool location_fast(struct pp *f, const struct af_proto *m, struct loc *l, uint64_t *id)
{
	const uint8_t *p = m->c.data, *end = p + m->c.len;
	size_t lines = f->nline_fns;
	struct pp_field x;
	while (p < end) {
		if (!pp_fast_field(&p, end, &x))
			goto walker;
		if (x.num == 4 ? x.wire != AF_WIRE_LEN || !line_fast(f, x.data, x.len)
			       : x.num <= 3 && x.wire != AF_WIRE_VARINT)
			goto walker;
		if (x.num == 1)
			*id = x.u;
		else if (x.num == 2)
			l->mapping = x.u;
		else if (x.num == 3)
			l->address = x.u;
	}
	return true;
walker:
	f->nline_fns = lines;
	return false;
}

/* Line: function_id 1 (line 2, column 3 unused). */
static int read_line(struct pp *f, struct af_proto *m)
{
	struct af_proto_field x;
	uint64_t fn = 0;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && pp_wire_is(f, &x, AF_WIRE_VARINT, &rc))
			fn = x.u;
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return pp_malformed(f, m);
	add_line(f, fn);
	return 0;
}

/* Location: id 1, mapping_id 2, address 3, line 4 (repeated). */
static int read_location(struct pp *f, struct af_proto *m)
{
	struct af_proto_field x;
	struct loc l = { .line = (uint32_t)f->nline_fns, .at = m->base };
	uint64_t id = 0;
	int rc = 0;
	if (location_fast(f, m, &l, &id))
		goto known;
	l.mapping = l.address = id = 0;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && pp_wire_is(f, &x, AF_WIRE_VARINT, &rc)) {
			id = x.u;
		} else if (x.num == 2 && pp_wire_is(f, &x, AF_WIRE_VARINT, &rc)) {
			l.mapping = x.u;
		} else if (x.num == 3 && pp_wire_is(f, &x, AF_WIRE_VARINT, &rc)) {
			l.address = x.u;
		} else if (x.num == 4 && pp_wire_is(f, &x, AF_WIRE_LEN, &rc)) {
			struct af_proto line;
			af_proto_sub(m, &x, &line);
			rc = read_line(f, &line);
		}
		if (rc < 0)
			return -1;
	}
	if (rc < 0)
		return pp_malformed(f, m);
known:   /* frames (a line or a location's address each) stay below MULTI */
	if (f->nline_fns - l.line > UINT32_MAX / 2 || f->nline_fns + f->nlocs >= UINT32_MAX / 2)
		return pp_bad(f, m->base, "too many locations or lines");
	l.nlines = (uint32_t)(f->nline_fns - l.line);
	if (new_id(f, &f->loc_ids, l.id = id, m->base, "location with id") < 0)
		return -1;
	if (f->nlocs == f->cap_locs)
		af_grow_huge(&f->locs, &f->cap_locs, f->nlocs + 1, sizeof *f->locs);
	f->locs[f->nlocs++] = l;
	return 0;
}

void pp_reserve_tables(struct pp *f, size_t strs, size_t maps, size_t fns, size_t locs)
{
	/* af_grow_huge: huge pages for a large one, and only what is used is touched */
	if (strs)
		af_grow_huge(&f->strs, &f->cap_strs, strs, sizeof *f->strs);
	if (maps)
		af_grow_huge(&f->maps, &f->cap_maps, maps, sizeof *f->maps);
	if (fns)
		af_grow_huge(&f->fns, &f->cap_fns, fns, sizeof *f->fns);
	if (locs) {
		af_grow_huge(&f->locs, &f->cap_locs, locs, sizeof *f->locs);
		af_grow_huge(&f->line_fns, &f->cap_line_fns, 2 * locs, sizeof *f->line_fns);
	}
}

/* One top-level field of the first walk: every table but the samples. */
int pp_table_field(struct pp *f, struct af_proto *top, const struct af_proto_field *x)
{
	struct af_proto m;
	int rc = 0;
	bool len = x->num >= P_SAMPLE_TYPE && x->num <= P_STRINGS;
	if (len ? !pp_wire_is(f, x, AF_WIRE_LEN, &rc) : x->num == P_PERIOD_TYPE && !pp_wire_is(f, x, AF_WIRE_LEN, &rc))
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
		if (f->nstrs == f->cap_strs)
			af_grow_huge(&f->strs, &f->cap_strs, f->nstrs + 1, sizeof *f->strs);
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

int pp_check_string(struct pp *f, uint64_t i, uint64_t at)
{
	if (i < f->nstrs)
		return 0;
	return af_diag_offset(f->d, at, "malformed pprof profile: string index %" PRIu64
			      " past the string table (%zu strings)", i, f->nstrs);
}

/* Every string index the tables hold is in the table, whose first entry
 * is "" (profile.proto's rule). */
int pp_check_strings(struct pp *f)
{
	if (f->nstrs == 0 || f->strs[0].n != 0)
		return pp_bad(f, f->nstrs ? f->strs[0].off : 0, "the string table does not start with an empty string");
	int rc = pp_check_string(f, f->default_type, 0) | pp_check_string(f, f->period_type.type, f->period_type.at) |
		 pp_check_string(f, f->period_type.unit, f->period_type.at);
	for (size_t i = 0; i < f->ntypes && rc == 0; i++)
		rc = pp_check_string(f, f->types[i].type, f->types[i].at) | pp_check_string(f, f->types[i].unit, f->types[i].at);
	for (size_t i = 0; i < f->nfns && rc == 0; i++)
		rc = pp_check_string(f, f->fns[i].name, f->fns[i].at);
	for (size_t i = 0; i < f->nmaps && rc == 0; i++)
		rc = pp_check_string(f, f->maps[i].file, f->maps[i].at);
	return rc < 0 ? -1 : 0;
}

/* Every line names a function the profile has (pprof refuses a line with
 * none), whose index in fns then replaces its id. */
int pp_check_lines(struct pp *f)
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

/* The label keys that say where a sample ran, and a direct table of the
 * location ids when they are dense (Go numbers them 1..n). */
void pp_index_tables(struct pp *f)
{
	for (int k = 0; k < 2; k++)
		f->key_pid[k] = f->key_tid[k] = f->key_thread[k] = NO_STRING;
	for (size_t i = 1; i < f->nstrs; i++) {
		if (pp_str_is(f, i, "pid") || pp_str_is(f, i, "process_id"))
			f->key_pid[pp_str_is(f, i, "process_id")] = i;
		else if (pp_str_is(f, i, "tid") || pp_str_is(f, i, "thread_id"))
			f->key_tid[pp_str_is(f, i, "thread_id")] = i;
		else if (pp_str_is(f, i, "thread") || pp_str_is(f, i, "thread_name"))
			f->key_thread[pp_str_is(f, i, "thread_name")] = i;
	}
	f->nloc_by_id = (uint64_t)f->nlocs * 2 + 16;
	f->loc_by_id = af_xmalloc_huge((size_t)f->nloc_by_id * sizeof *f->loc_by_id);   /* pp_locate_all fills them */
	f->frames_by_id = af_xmalloc((size_t)f->nloc_by_id);
}

/* ---- frames ---- */

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
		const uint8_t *s = pp_str_of(f, m->file, &n);
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
		const uint8_t *s = pp_str_of(f, x->name, &n);
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
	if (f->nframes + n > f->cap_frames)
		af_grow_huge(&f->frames, &f->cap_frames, f->nframes + n, sizeof *f->frames);
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
 * with what pp_location() answers: a location costs one load of a small table,
 * not its record, its frames and their names (cache misses at every frame). */
void pp_locate_all(struct pp *f)
{
	if (f->nline_fns + f->nlocs)   /* a frame a line, or one for a location with none */
		af_grow_huge(&f->frames, &f->cap_frames, f->nline_fns + f->nlocs, sizeof *f->frames);
	for (uint64_t id = 0; id < f->nloc_by_id; id++)
		f->loc_by_id[id] = (struct lf){ AF_NONE, 0 };
	memset(f->frames_by_id, 0, (size_t)f->nloc_by_id);
	for (size_t k = 0; k < f->nlocs; k++) {
		location_frames(f, &f->locs[k]);
		uint64_t id = f->locs[k].id;
		if (id < f->nloc_by_id) {
			f->loc_by_id[id] = location_ref(f, (uint32_t)k);
			f->frames_by_id[id] = (uint8_t)(f->locs[k].nframes < 255 ? f->locs[k].nframes : 255);
		}
	}
}

struct lf pp_location_sparse(const struct pp *f, uint64_t id)
{
	uint32_t k = id_index(&f->loc_ids, id);
	return k == AF_NONE ? (struct lf){ AF_NONE, 0 } : location_ref(f, k);
}
