/* perfdata_syms.c: the symbol tables a perf.data file embeds (simpleperf's
 * FILE and FILE2 features): each file's symbols sorted by address, an
 * index of buckets over their range so that a lookup searches one or two,
 * and dex symbols by name (for JIT frames); and the helpers every file of
 * the reader uses (messages, names from records). */
#include "perfdata_int.h"
#include "proto.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

int pd_bad(struct pd *f, uint64_t at, const char *why)
{
	return af_diag_offset(f->d, at, "malformed perf.data: %s", why);
}

struct af_span pd_cstr(const uint8_t *s, size_t max)
{
	const uint8_t *z = memchr(s, 0, max);
	size_t n = z ? (size_t)(z - s) : max;
	return (struct af_span){ s, n > MAX_NAME ? MAX_NAME : (uint32_t)n };
}

/* A copy of s that outlives the record it is in: records are read through
 * a window (read_records), names and paths are kept. */
struct af_span pd_keep(struct pd *f, struct af_span s)
{
	af_grow(&f->owned, &f->cap_owned, f->nowned + 1, sizeof *f->owned);
	char *copy = f->owned[f->nowned++] = af_xmalloc(s.n ? s.n : 1);
	if (s.n)
		memcpy(copy, s.s, s.n);
	return (struct af_span){ (const uint8_t *)copy, s.n };
}

static uint64_t path_hash(struct af_span s)
{
	return af_hash_keyed_bytes(s.n ? (const void *)s.s : "", s.n);   /* none: NULL, not to be read from */
}

uint32_t pd_find_file(const struct pd *f, struct af_span path)
{
	for (uint32_t k = af_idmap_get(&f->file_by_hash, path_hash(path)); k != AF_NONE; k = f->files[k].next)
		if (af_span_eq(f->files[k].path, path))
			return k;
	return AF_NONE;
}

static void add_sym(struct pd *f, uint64_t addr, uint64_t len, struct af_span name)
{
	af_grow(&f->syms, &f->cap_syms, f->nsyms + 1, sizeof *f->syms);
	f->syms[f->nsyms++] = (struct sym){ addr, len, name, ends(name, "jni_trampoline") };
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void add_file(struct pd *f, struct pfile *file)
{
	file->count = f->nsyms - file->first;
	struct sym *s = file->count ? f->syms + file->first : NULL;   /* no symbols yet: syms may be NULL */
	bool sorted = true;
	for (size_t i = 1; i < file->count && sorted; i++)
		sorted = s[i - 1].addr <= s[i].addr;
	if (!sorted)
		qsort(s, file->count, sizeof *s, cmp_sym);
	bool found;
	uint32_t *slot = af_idmap_slot(&f->file_by_hash, path_hash(file->path), &found);
	file->next = found ? *slot : AF_NONE;
	af_grow(&f->files, &f->cap_files, f->nfiles + 1, sizeof *f->files);
	*slot = (uint32_t)f->nfiles;
	f->files[f->nfiles++] = *file;
}

/* FILE (v1): per file a u32 size, then path\0, u32 type, u64 min_vaddr,
 * u32 symbol count, symbols (u64 vaddr, u32 len, name\0), for dex files
 * u32 count + u64 offsets, for ELF files optionally u64
 * file_offset_of_min_vaddr. */
static int read_file_v1(struct pd *f, struct af_cursor *c, uint64_t base)
{
	struct pfile file = { .first = f->nsyms, .offset_of_min_vaddr = UINT64_MAX };
	uint32_t type, nsyms;
	uint64_t at = base + c->pos;
	file.path = pd_cstr(c->data + c->pos, af_cursor_left(c));
	if (!af_cursor_skip(c, (size_t)file.path.n + 1) || !af_cursor_u32(c, &type) ||
	    !af_cursor_u64(c, &file.min_vaddr) || !af_cursor_u32(c, &nsyms))
		return pd_bad(f, at, "a file entry of the FILE feature is cut short");
	if (nsyms > af_cursor_left(c) / 13)
		return pd_bad(f, at, "a file's symbol count is larger than its entry");
	file.type = type;
	for (uint32_t i = 0; i < nsyms; i++) {
		uint64_t addr;
		uint32_t len;
		if (!af_cursor_u64(c, &addr) || !af_cursor_u32(c, &len))
			return pd_bad(f, base + c->pos, "a symbol of the FILE feature is cut short");
		struct af_span name = pd_cstr(c->data + c->pos, af_cursor_left(c));
		if (!af_cursor_skip(c, (size_t)name.n + 1))
			return pd_bad(f, base + c->pos, "a symbol name of the FILE feature is not terminated");
		add_sym(f, addr, len, name);
	}
	if (type == DSO_DEX_FILE) {
		uint32_t n;
		if (!af_cursor_u32(c, &n) || !af_cursor_skip(c, (size_t)n * 8))
			return pd_bad(f, base + c->pos, "dex file offsets run past their file entry");
	}
	if ((type == DSO_ELF_FILE || type == DSO_KERNEL_MODULE) && af_cursor_left(c) >= 8)
		af_cursor_u64(c, &file.offset_of_min_vaddr);
	add_file(f, &file);
	return 0;
}

/* FILE2: per file a u32 size and a FileFeature message: path 1, type 2,
 * min_vaddr 3, symbol 4 (vaddr 1, len 2, name 3), elf_file 6 or
 * kernel_module 7 (their field 1: the offset of min_vaddr). */
static int read_file_v2(struct pd *f, const uint8_t *s, size_t n, uint64_t base)
{
	struct pfile file = { .first = f->nsyms, .offset_of_min_vaddr = UINT64_MAX };
	struct af_proto m, sub;
	struct af_proto_field x, y;
	int rc;
	af_proto_init(&m, s, n, base);
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_LEN) {
			file.path = (struct af_span){ x.data, x.len > MAX_NAME ? MAX_NAME : (uint32_t)x.len };
		} else if (x.num == 2 && x.wire == AF_WIRE_VARINT) {
			file.type = (uint32_t)x.u;
		} else if (x.num == 3 && x.wire == AF_WIRE_VARINT) {
			file.min_vaddr = x.u;
		} else if (x.wire == AF_WIRE_LEN && (x.num == 4 || x.num == 6 || x.num == 7)) {
			struct sym sym = { 0 };
			af_proto_sub(&m, &x, &sub);
			while ((rc = af_proto_next(&sub, &y)) > 0) {
				if (x.num != 4 && y.num == 1 && y.wire == AF_WIRE_VARINT)
					file.offset_of_min_vaddr = y.u;
				else if (y.num == 1 && y.wire == AF_WIRE_VARINT)
					sym.addr = y.u;
				else if (y.num == 2 && y.wire == AF_WIRE_VARINT)
					sym.len = (uint32_t)y.u;
				else if (y.num == 3 && y.wire == AF_WIRE_LEN)
					sym.name = (struct af_span){ y.data, y.len > MAX_NAME ? MAX_NAME : (uint32_t)y.len };
			}
			if (rc < 0)
				return af_diag_offset(f->d, sub.error_offset, "malformed perf.data FILE2 entry: %s", sub.error);
			if (x.num == 4)
				add_sym(f, sym.addr, sym.len, sym.name);
		}
	}
	if (rc < 0)
		return af_diag_offset(f->d, m.error_offset, "malformed perf.data FILE2 entry: %s", m.error);
	add_file(f, &file);
	return 0;
}

int pd_read_files(struct pd *f, unsigned feat)
{
	uint64_t base = f->feat_off[feat];
	struct af_cursor c = { f->data + base, (size_t)f->feat_size[feat], 0 };
	while (af_cursor_left(&c) > 0) {
		uint32_t n;
		const uint8_t *s;
		uint64_t at = base + c.pos;
		if (!af_cursor_u32(&c, &n) || !af_cursor_bytes(&c, n, &s))
			return pd_bad(f, at, "a file entry runs past its feature section");
		int rc;
		if (feat == FEAT_FILE) {
			struct af_cursor e = { s, n, 0 };
			rc = read_file_v1(f, &e, at + 4);
		} else {
			rc = read_file_v2(f, s, n, at + 4);
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* pd_find_sym()'s index of a file's symbols: about two buckets per symbol
 * over their address range, each the count of symbols before it (symbols
 * at few addresses far apart fill few buckets, and a lookup then searches
 * more: never worse than the whole table). */
enum { INDEX_MIN = 16 };   /* fewer symbols are searched whole */
void pd_index_syms(struct pd *f)
{
	size_t total = 0;
	for (size_t k = 0; k < f->nfiles; k++)
		total += f->files[k].count >= INDEX_MIN ? 2 * f->files[k].count + 1 : 0;
	f->buckets = af_xmalloc((total ? total : 1) * sizeof *f->buckets);
	size_t at = 0;
	for (size_t k = 0; k < f->nfiles; k++) {
		struct pfile *file = &f->files[k];
		if (file->count < INDEX_MIN)
			continue;
		const struct symkey *key = f->sym_keys + file->first;
		uint64_t span = key[file->count - 1].addr - key[0].addr;
		unsigned shift = 0;
		while ((span >> shift) >= 2 * file->count)
			shift++;
		file->shift = shift;
		file->nbuckets = (size_t)(span >> shift) + 1;
		file->bucket = at;
		uint32_t *idx = f->buckets + at;
		size_t j = 0;
		for (size_t b = 0; b <= file->nbuckets; b++) {
			while (j < file->count && (key[j].addr - key[0].addr) >> shift < b)
				j++;
			idx[b] = (uint32_t)j;
		}
		at += file->nbuckets + 1;
	}
}

/* The dex symbol named like a JIT frame's symbol, or NULL: simpleperf's
 * ConvertJITFrame draws a JIT method as its interpreted self. The table
 * of dex symbol names is made on first use. */
const struct sym *pd_dex_twin(struct pd *f, const struct sym *jit)
{
	if (!f->dex_done) {
		f->dex_done = true;
		for (size_t k = f->nfiles; k-- > 0;) {   /* the first file's symbol wins */
			if (f->files[k].type != DSO_DEX_FILE)
				continue;
			for (size_t i = f->files[k].first + f->files[k].count; i-- > f->files[k].first;)
				af_idmap_put(&f->dex_names, path_hash(f->syms[i].name), (uint32_t)i);
		}
	}
	uint32_t i = af_idmap_get(&f->dex_names, path_hash(jit->name));
	return i != AF_NONE && af_span_eq(f->syms[i].name, jit->name) ? &f->syms[i] : NULL;
}
