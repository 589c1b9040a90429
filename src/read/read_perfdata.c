/* read_perfdata.c: perf.data recordings ("PERFILE2"), as simpleperf record
 * and Linux perf write them (simpleperf record_file_format.h, record.h,
 * Apache-2.0, AOSP system/extras/simpleperf; linux/perf_event.h).
 *
 * Layout: a 104-byte header (magic, header size, attr size, three section
 * descriptors: attrs, data, event types; a 256-bit feature map), the attrs
 * (perf_event_attr + a section of ids each), the data section of records
 * (u32 type, u16 misc, u16 size), then one section descriptor per feature
 * bit set, in bit order. simpleperf's features: FILE (128) and FILE2 (132,
 * protobuf FileFeature) carry the symbol tables it embeds, META_INFO (129)
 * key/value strings (event_type_info, app_package_name, trace_offcpu).
 *
 * Features are read first (symbol tables, event names), then the records
 * in one linear walk (pread() into a window, not through the mapping):
 * MMAP/MMAP2 and COMM update the thread state as they come, each SAMPLE is
 * symbolized against it and folded per process > thread at once. An ip
 * maps through its process's maps (kept sorted by start, binary search) to
 * a file and an address in it, and through that file's sorted symbol table
 * (a bucket index by address, then binary search) to a name; unknown
 * symbols are named "file[+vaddr]" as simpleperf report does with --addrs. */
#include "cursor.h"
#include "demangle.h"
#include "proto.h"
#include "ranges.h"
#include "read.h"
#include "core/idmap.h"
#include "core/names.h"
#include "core/profile.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "PERFILE2"
#define HEADER_SIZE 104
#define ATTR_MIN 64             /* PERF_ATTR_SIZE_VER0 */
#define MAX_NAME 4096

enum {
	REC_MMAP = 1, REC_LOST = 2, REC_COMM = 3, REC_FORK = 7, REC_SAMPLE = 9, REC_MMAP2 = 10, REC_SWITCH = 14,
	REC_AUXTRACE = 71, REC_SIMPLEPERF = 32768, REC_SP_CALLCHAIN = 32775, REC_SP_UNWINDING_RESULT = 32776,
};
enum {
	FEAT_BUILD_ID = 2, FEAT_CMDLINE = 11, FEAT_FILE = 128, FEAT_META_INFO = 129, FEAT_FILE2 = 132,
	NFEAT = 256,
};
/* perf_event_attr.sample_type bits, in the order the fields come */
enum {
	S_IP = 1 << 0, S_TID = 1 << 1, S_TIME = 1 << 2, S_ADDR = 1 << 3, S_READ = 1 << 4,
	S_CALLCHAIN = 1 << 5, S_ID = 1 << 6, S_CPU = 1 << 7, S_PERIOD = 1 << 8, S_STREAM_ID = 1 << 9,
	S_RAW = 1 << 10, S_IDENTIFIER = 1 << 16,
};
/* libunwindstack's ErrorCode (UNWINDING_RESULT records), by value */
static const char *const unwind_error_names[] = {
	"none", "memory invalid", "unwind info", "unsupported", "invalid map", "max frames exceeded",
	"repeated frame", "invalid elf", "thread does not exist", "thread timeout", "system call",
	"bad arch", "maps parse", "invalid parameter",
};
#define NUNWIND_ERRORS (sizeof unwind_error_names / sizeof *unwind_error_names)
/* perf_event_attr.read_format bits */
enum { RF_TIME_ENABLED = 1, RF_TIME_RUNNING = 2, RF_ID = 4, RF_GROUP = 8, RF_LOST = 16 };
enum { DSO_KERNEL, DSO_KERNEL_MODULE, DSO_ELF_FILE, DSO_DEX_FILE, DSO_SYMBOL_MAP_FILE, DSO_UNKNOWN_FILE };
#define CONTEXT_MAX ((uint64_t)-4095)   /* callchain entries above are context markers */
#define CONTEXT_KERNEL ((uint64_t)-128)
#define CONTEXT_USER ((uint64_t)-512)
#define CPUMODE_MASK 7
#define CPUMODE_KERNEL 1
#define MISC_SWITCH_OUT 0x2000
#define KERNEL_PID ((uint64_t)UINT32_MAX)
#define PROT_JIT_SYMFILE_MAP 0x4000   /* simpleperf's mark on MMAP2 prot: symbols at absolute addresses */

/* What a frame is, for simpleperf's rules on hiding ART's own frames. */
enum kind { K_NATIVE, K_KERNEL, K_JIT, K_DEX, K_ART, K_UNKNOWN };
/* tramp: the symbol is a JNI trampoline; art: one of ART's own frames
 * (libart, or a trampoline), as far as the frame alone tells (mark_art);
 * at: in a chain being simplified, the frame's place in the thread's chain */
struct entry {
	const struct sym *sym; const struct map *map; uint32_t file, at; uint64_t vaddr; enum kind kind;
	bool tramp, art;
};

struct span { const uint8_t *s; uint32_t n; };
struct sym { uint64_t addr, len; struct span name; bool tramp; };   /* tramp: a JNI trampoline (mark_art) */
/* A symbol's address, length (at most 32 bits in FILE and FILE2) and tramp:
 * all a lookup reads, so its search and check touch one array. */
struct symkey { uint64_t addr; uint32_t len; bool tramp; };
struct pfile {
	struct span path;
	uint32_t type, next;           /* next: same path hash, AF_NONE ends */
	uint64_t min_vaddr, offset_of_min_vaddr;
	size_t first, count;           /* syms[first..first+count), sorted */
	/* find_sym's index: bucket b (of 2^shift bytes from the first
	 * symbol's address) starts at symbol buckets[bucket + b] of the file;
	 * nbuckets 0: none (few symbols) */
	size_t bucket, nbuckets;
	unsigned shift;
};
/* What an MMAP record maps (its addresses are in the process's range set,
 * ranges.h, whose values index these). kind and art are worked out once
 * when the map is added: what resolve() and mark_art() need per frame
 * without looking at the path again. */
struct map { struct span path; uint32_t file; bool jit, art; enum kind kind; };
/* A thread's last folded stack, root first: the next sample's frames that
 * match it from the root take their nodes from it without a tree probe.
 * key: the frame's path key (af_tree_key_child), chained from the
 * thread's. */
struct frame { uint32_t name, node; uint64_t key; };
/* A callchain entry as the record gives it: the ip, and whether it is in
 * the kernel (the context markers before it say so). */
struct rawip { uint64_t ip; bool kernel; };
/* A frame of a thread's last callchain (root first): its ip, where it
 * resolved, how many drawn frames (the thread's stack) the chain up to and
 * with it made, and running counts of the frames up to it outside every
 * map and without a symbol. */
struct tframe { struct rawip raw; struct entry e; uint32_t drawn, no_map, no_symbol; };
struct pthread_ {
	uint64_t tid, pid; struct span name; uint32_t node; size_t index;
	uint64_t key;                  /* the path key of the thread's root node */
	struct frame *stack; size_t depth, cap_stack;
	/* the last sample's callchain, valid while the maps are at generation
	 * gen and the pid is chain_pid: the next sample starts from the frames
	 * it shares with it */
	struct tframe *chain; size_t nchain, cap_chain;
	uint64_t gen, chain_pid;
	size_t offcpu_at;              /* an off-CPU sample waiting for its end: its record, 0 none */
	uint64_t offcpu_time;
};
/* name: what the attr's event is called, owned (event_type_info's name
 * or a standard one, with simpleperf's :u or :k for a recording of user or
 * kernel space only) */
struct attr { uint64_t sample_type, type, config; bool no_user, no_kernel; struct span event; char *name; };

/* The last resolutions, direct-mapped by (pid, ip): real callchains repeat
 * the same return addresses sample after sample, and a hit saves the map
 * and symbol searches. A slot is valid while gen matches the maps'
 * generation, which every change to any maps bumps (entries point into
 * the maps). Up to 64k slots (4 MiB): a thread that comes back to a call
 * path it left finds it there more often than in 16k (3.5% fewer
 * simulated cycles on the bench file); a slot per KiB of file from 256, as
 * a large file touches every page of it (in huge pages then: 1000 page
 * faults of 4 KiB were 15 ms) and a small one should touch few. */
#define IPCACHE_MIN_BITS 8
#define IPCACHE_MAX_BITS 16
struct ipslot { uint64_t ip, gen; uint32_t pid; bool kernel; struct entry e; };   /* 64 bytes: one line */
_Static_assert(sizeof(struct ipslot) <= 64, "an ipcache slot fits a cache line");

/* Names of the common events by perf_event_attr type and config, for files
 * without simpleperf's event_type_info (older simpleperf, Linux perf). */
static const char *const hw_events[] = {
	"cpu-cycles", "instructions", "cache-references", "cache-misses", "branch-instructions",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};
static const char *const sw_events[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults",
};

struct pd {
	struct af_profile *p;
	struct af_diag *d;
	const struct af_input *in;
	const uint8_t *data;
	size_t len;
	const struct af_read_opts *o;
	struct attr *attrs; size_t nattrs;
	struct af_event_name *enames;  /* per attr */
	size_t drawn;                  /* the attr drawn (--event) */
	struct af_idmap attr_ids;      /* sample id -> attr index */
	uint64_t sample_type, read_format;
	bool sample_id_all;
	uint64_t feat_off[NFEAT], feat_size[NFEAT];
	bool feat[NFEAT];
	struct pfile *files; size_t nfiles, cap_files;
	struct af_idmap file_by_hash;  /* path hash -> first file with it */
	struct sym *syms; size_t nsyms, cap_syms;
	struct map *maps; size_t nmaps, cap_maps;     /* every MMAP's map, in file order */
	struct af_ranges ranges;       /* every process's maps (the kernel's under KERNEL_PID) */
	uint32_t *roots; size_t nroots, cap_roots;    /* per process: its range set */
	uint64_t copy_budget;          /* ranges FORK may still copy: linear in the file */
	uint64_t forks_copied, forks_uncopied;
	struct af_range *listed; size_t cap_listed;
	struct af_idmap counter_ids;   /* tid << 32 | attr -> counters[]: the last value read */
	uint64_t *counters; size_t ncounters, cap_counters;
	uint64_t read_samples;
	uint64_t unwind_errors[NUNWIND_ERRORS + 1];   /* by libunwindstack's code; the last: others */
	uint64_t empty_chains, chains_off_map;
	uint64_t maps_gen;             /* bumped on every change to the maps */
	struct ipslot *ipcache;        /* 1 << ipcache_bits slots, each in one cache line */
	unsigned ipcache_bits;
	void *ipcache_mem;
	uint32_t *sym_names;           /* per symbol 3 name ids (plain, JIT, kernel), AF_NONE until made */
	struct symkey *sym_keys;       /* what find_sym() searches, half of syms[i] */
	uint32_t *buckets;             /* every file's find_sym() index (struct pfile) */
	struct af_idmap maps_by_pid;
	struct pthread_ *threads; size_t nthreads, cap_threads;
	struct af_idmap thread_ids, proc_nodes;
	struct af_idmap dex_names;     /* name hash -> dex symbol, for JIT frames */
	bool dex_done;
	struct span package, offcpu, event_info;
	struct entry *chain; size_t cap_chain;
	struct rawip *raw; size_t cap_raw;
	struct af_buf scratch;
	char **owned; size_t nowned, cap_owned;   /* copies of names read from records (keep()) */
	uint64_t samples, other_event, lost, weight, no_map, no_symbol, cut, simpleperf_records;
	bool offcpu_mode;              /* trace_offcpu with a clock: off-CPU samples drawn */
	uint32_t offcpu_name;          /* "[off-cpu]" */
	uint64_t offcpu_drawn, offcpu_open;
};

static int bad(struct pd *f, uint64_t at, const char *why)
{
	return af_diag_offset(f->d, at, "malformed perf.data: %s", why);
}

static struct span cstr(const uint8_t *s, size_t max)
{
	const uint8_t *z = memchr(s, 0, max);
	size_t n = z ? (size_t)(z - s) : max;
	return (struct span){ s, n > MAX_NAME ? MAX_NAME : (uint32_t)n };
}

/* A copy of s that outlives the record it is in: records are read through
 * a window (read_records), names and paths are kept. */
static struct span keep(struct pd *f, struct span s)
{
	af_grow(&f->owned, &f->cap_owned, f->nowned + 1, sizeof *f->owned);
	char *copy = f->owned[f->nowned++] = af_xmalloc(s.n ? s.n : 1);
	if (s.n)
		memcpy(copy, s.s, s.n);
	return (struct span){ (const uint8_t *)copy, s.n };
}

static bool span_eq(struct span a, struct span b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.s, b.s, a.n) == 0);
}

/* ---- header, attrs, feature sections ---- */

/* A section descriptor at off: its range, checked against the file. */
static int section(struct pd *f, size_t off, uint64_t *o, uint64_t *n)
{
	*o = af_le(f->data + off, 8);
	*n = af_le(f->data + off + 8, 8);
	if (*o > f->len || *n > f->len - *o)
		return bad(f, off, "a section runs past the end of the file");
	return 0;
}

static int read_attrs(struct pd *f)
{
	uint64_t attr_size = af_le(f->data + 16, 8), off, size;
	if (section(f, 24, &off, &size) < 0)
		return -1;
	if (attr_size < ATTR_MIN + 16 || attr_size > size || size % attr_size)
		return bad(f, 16, "the attr size does not divide the attr section");
	f->nattrs = (size_t)(size / attr_size);
	f->attrs = af_xcalloc(f->nattrs, sizeof *f->attrs);
	for (size_t i = 0; i < f->nattrs; i++) {
		size_t a = (size_t)(off + i * attr_size);
		f->attrs[i].type = af_le(f->data + a, 4);
		f->attrs[i].config = af_le(f->data + a + 8, 8);
		f->attrs[i].sample_type = af_le(f->data + a + 24, 8);
		uint64_t flags = af_le(f->data + a + 40, 8);   /* exclude_user: bit 4, exclude_kernel: 5 */
		f->attrs[i].no_user = flags >> 4 & 1;
		f->attrs[i].no_kernel = flags >> 5 & 1;
		if (i == 0) {
			f->sample_type = f->attrs[0].sample_type;
			f->read_format = af_le(f->data + a + 32, 8);
			f->sample_id_all = (af_le(f->data + a + 40, 8) >> 18) & 1;
		}
		uint64_t ids, nids;
		if (section(f, a + (size_t)attr_size - 16, &ids, &nids) < 0)
			return -1;
		for (uint64_t k = 0; k + 8 <= nids; k += 8)
			af_idmap_put(&f->attr_ids, af_le(f->data + ids + k, 8), (uint32_t)i);
	}
	return 0;
}

static int read_feature_table(struct pd *f)
{
	uint64_t doff, dsize;
	if (section(f, 40, &doff, &dsize) < 0)
		return -1;
	size_t at = (size_t)(doff + dsize);
	for (unsigned b = 0; b < NFEAT; b++) {
		if (!(f->data[72 + b / 8] >> (b % 8) & 1))
			continue;
		if (f->len - at < 16)
			return bad(f, at, "the feature table runs past the end of the file");
		if (section(f, at, &f->feat_off[b], &f->feat_size[b]) < 0)
			return -1;
		f->feat[b] = true;
		at += 16;
	}
	return 0;
}

/* META_INFO: NUL-terminated key and value strings, in pairs. */
static void read_meta(struct pd *f)
{
	const uint8_t *s = f->data + f->feat_off[FEAT_META_INFO];
	size_t n = (size_t)f->feat_size[FEAT_META_INFO], i = 0;
	while (i < n) {
		struct span k = cstr(s + i, n - i);
		i += k.n + 1;
		if (i >= n)
			break;
		struct span v = cstr(s + i, n - i);
		i += v.n + 1;
		if (span_eq(k, (struct span){ (const uint8_t *)"app_package_name", 16 }))
			f->package = v;
		else if (span_eq(k, (struct span){ (const uint8_t *)"trace_offcpu", 12 }))
			f->offcpu = v;
		else if (span_eq(k, (struct span){ (const uint8_t *)"event_type_info", 15 }))
			f->event_info = v;
	}
	/* event_type_info: "name,type,config" lines, one per attr in order */
	const uint8_t *e = f->event_info.s, *end = e ? e + f->event_info.n : e;   /* none: NULL, no offset */
	for (size_t a = 0; e && e < end && a < f->nattrs; a++) {
		const uint8_t *nl = memchr(e, '\n', (size_t)(end - e));
		const uint8_t *line_end = nl ? nl : end;
		const uint8_t *comma = memchr(e, ',', (size_t)(line_end - e));
		f->attrs[a].event = (struct span){ e, (uint32_t)((comma ? comma : line_end) - e) };
		e = line_end + 1;
	}
}

/* The attrs' event names: simpleperf's event_type_info, else the common
 * events by type and config, else "event N"; then, as simpleperf's
 * GetEventNameByAttr, ":u" for an attr that leaves out the kernel and ":k"
 * for one that leaves out user space, so that `-e cache-misses,cache-misses:u`
 * gives two names --event can tell apart (perf_with_ip_zero_in_callchain.data;
 * report_lib_test.py names perf_with_trace_offcpu_v2.data's event cpu-clock:u). */
static void name_events(struct pd *f)
{
	f->enames = af_xcalloc(f->nattrs ? f->nattrs : 1, sizeof *f->enames);
	struct af_buf *b = &f->scratch;
	for (size_t i = 0; i < f->nattrs; i++) {
		struct attr *at = &f->attrs[i];
		b->len = 0;
		if (at->event.n)
			af_buf_add(b, at->event.s, at->event.n);
		else if (at->type == 0 && at->config < sizeof hw_events / sizeof *hw_events)
			af_buf_printf(b, "%s", hw_events[at->config]);
		else if (at->type == 1 && at->config < sizeof sw_events / sizeof *sw_events)
			af_buf_printf(b, "%s", sw_events[at->config]);
		else
			af_buf_printf(b, "event %zu", i + 1);
		if (at->no_kernel != at->no_user)
			af_buf_printf(b, "%s", at->no_kernel ? ":u" : ":k");
		at->name = af_xstrndup(b->data, b->len);
		f->enames[i] = (struct af_event_name){ at->name, b->len };
	}
}

static uint64_t path_hash(struct span s)
{
	return af_hash_keyed_bytes(s.n ? (const void *)s.s : "", s.n);   /* none: NULL, not to be read from */
}

static uint32_t find_file(const struct pd *f, struct span path)
{
	for (uint32_t k = af_idmap_get(&f->file_by_hash, path_hash(path)); k != AF_NONE; k = f->files[k].next)
		if (span_eq(f->files[k].path, path))
			return k;
	return AF_NONE;
}

static bool ends(struct span s, const char *suffix)
{
	size_t n = strlen(suffix);
	return s.n >= n && memcmp(s.s + s.n - n, suffix, n) == 0;
}

static void add_sym(struct pd *f, uint64_t addr, uint64_t len, struct span name)
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
	file.path = cstr(c->data + c->pos, af_cursor_left(c));
	if (!af_cursor_skip(c, (size_t)file.path.n + 1) || !af_cursor_u32(c, &type) ||
	    !af_cursor_u64(c, &file.min_vaddr) || !af_cursor_u32(c, &nsyms))
		return bad(f, at, "a file entry of the FILE feature is cut short");
	if (nsyms > af_cursor_left(c) / 13)
		return bad(f, at, "a file's symbol count is larger than its entry");
	file.type = type;
	for (uint32_t i = 0; i < nsyms; i++) {
		uint64_t addr;
		uint32_t len;
		if (!af_cursor_u64(c, &addr) || !af_cursor_u32(c, &len))
			return bad(f, base + c->pos, "a symbol of the FILE feature is cut short");
		struct span name = cstr(c->data + c->pos, af_cursor_left(c));
		if (!af_cursor_skip(c, (size_t)name.n + 1))
			return bad(f, base + c->pos, "a symbol name of the FILE feature is not terminated");
		add_sym(f, addr, len, name);
	}
	if (type == DSO_DEX_FILE) {
		uint32_t n;
		if (!af_cursor_u32(c, &n) || !af_cursor_skip(c, (size_t)n * 8))
			return bad(f, base + c->pos, "dex file offsets run past their file entry");
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
			file.path = (struct span){ x.data, x.len > MAX_NAME ? MAX_NAME : (uint32_t)x.len };
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
					sym.name = (struct span){ y.data, y.len > MAX_NAME ? MAX_NAME : (uint32_t)y.len };
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

static int read_files(struct pd *f, unsigned feat)
{
	uint64_t base = f->feat_off[feat];
	struct af_cursor c = { f->data + base, (size_t)f->feat_size[feat], 0 };
	while (af_cursor_left(&c) > 0) {
		uint32_t n;
		const uint8_t *s;
		uint64_t at = base + c.pos;
		if (!af_cursor_u32(&c, &n) || !af_cursor_bytes(&c, n, &s))
			return bad(f, at, "a file entry runs past its feature section");
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

/* ---- thread state: maps and names ---- */

static bool contains(struct span s, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= s.n; i++)
		if (memcmp(s.s + i, needle, n) == 0)
			return true;
	return false;
}


/* The root of process pid's range set (made empty on first use). */
static uint32_t *maps_of(struct pd *f, uint64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->maps_by_pid, pid, &found);
	if (!found) {
		af_grow(&f->roots, &f->cap_roots, f->nroots + 1, sizeof *f->roots);
		f->roots[f->nroots] = AF_NONE;
		*slot = (uint32_t)f->nroots++;
	}
	return &f->roots[*slot];
}

/* A new map replaces what it overlaps, splitting an older map it covers
 * only part of, as the kernel and simpleperf's ThreadTree::InsertMap do. */
static void add_map(struct pd *f, uint64_t pid, uint64_t start, uint64_t end, uint64_t pgoff, struct map m)
{
	m.file = find_file(f, m.path);
	/* simpleperf's Dso::IsForJavaMethod: dex files, and JIT symfiles */
	m.kind = K_NATIVE;
	if (m.file != AF_NONE && f->files[m.file].type == DSO_DEX_FILE)
		m.kind = K_DEX;
	else if (m.jit || contains(m.path, "_jit_app_cache:") || contains(m.path, "_jit_zygote_cache:"))
		m.kind = K_JIT;
	m.art = ends(m.path, "/libart.so") || ends(m.path, "/libartd.so");
	af_grow(&f->maps, &f->cap_maps, f->nmaps + 1, sizeof *f->maps);
	f->maps[f->nmaps] = m;
	af_ranges_insert(&f->ranges, maps_of(f, pid), start, end, pgoff, (uint32_t)f->nmaps++);
	f->maps_gen++;
}

static const struct af_range *find_map(struct pd *f, uint64_t pid, uint64_t ip)
{
	uint32_t k = af_idmap_get(&f->maps_by_pid, pid);
	return k == AF_NONE ? NULL : af_ranges_find(&f->ranges, f->roots[k], ip);
}


static struct pthread_ *thread_of(struct pd *f, uint64_t tid, uint64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->thread_ids, tid, &found);
	if (!found) {
		af_grow(&f->threads, &f->cap_threads, f->nthreads + 1, sizeof *f->threads);
		f->threads[f->nthreads] = (struct pthread_){ .tid = tid, .pid = pid, .node = AF_NONE };
		*slot = (uint32_t)f->nthreads++;
	}
	return &f->threads[*slot];
}

/* FORK: a new process starts with a copy of its parent's maps (a new
 * thread shares its process's), and a thread with its parent's name until
 * a COMM renames it (simpleperf's ThreadTree::ForkThread). Copies are
 * bounded by a budget linear in the file, so a file of forks of a process
 * with many maps stays linear; a fork past it is counted. */
static int read_fork(struct pd *f, struct af_cursor *c, uint64_t at)
{
	uint32_t pid, ppid, tid, ptid;
	if (!af_cursor_u32(c, &pid) || !af_cursor_u32(c, &ppid) || !af_cursor_u32(c, &tid) || !af_cursor_u32(c, &ptid))
		return bad(f, at, "a FORK record is shorter than its fields");
	if (tid == ptid || (pid != tid && pid != ppid))
		return 0;
	struct span pname = thread_of(f, ptid, ppid)->name;
	struct pthread_ *th = thread_of(f, tid, pid);
	th->pid = pid;
	if (th->node == AF_NONE && pname.n)
		th->name = pname;
	uint32_t k = af_idmap_get(&f->maps_by_pid, ppid);
	if (pid == ppid || k == AF_NONE || f->roots[k] == AF_NONE)
		return 0;
	uint32_t parent = f->roots[k], *child = maps_of(f, pid);
	size_t n = 0;
	bool ok;
	if (*child == AF_NONE) {
		ok = af_ranges_copy(&f->ranges, parent, (size_t)f->copy_budget, child, &n);
	} else {   /* maps already recorded for the child: the parent's go over them */
		ok = af_ranges_list(&f->ranges, parent, (size_t)f->copy_budget, &f->listed, &f->cap_listed, &n);
		for (size_t i = 0; ok && i < n; i++)
			af_ranges_insert(&f->ranges, maps_of(f, pid), f->listed[i].start, f->listed[i].end,
					 f->listed[i].pgoff, f->listed[i].value);
	}
	f->copy_budget -= n < f->copy_budget ? n : f->copy_budget;   /* a failed try costs what it looked at */
	f->forks_copied += ok;
	f->forks_uncopied += !ok;
	f->maps_gen++;
	return 0;
}

/* ---- samples ---- */

static struct span label(struct span s, struct af_buf *b, const char *fallback, uint64_t id)
{
	b->len = 0;
	if (s.n)
		af_name_append(b, (const char *)s.s, s.n);
	else
		af_buf_printf(b, "%s-%" PRIu64, fallback, id);
	af_name_finish(b, 0);
	af_buf_printf(b, " (%" PRIu64 ")", id);
	return (struct span){ (const uint8_t *)b->data, (uint32_t)b->len };
}

static uint32_t thread_node(struct pd *f, struct pthread_ *th)
{
	if (th->node != AF_NONE)
		return th->node;
	struct af_tree *t = &f->p->tree;
	struct af_buf *b = &f->scratch;
	bool found;
	uint32_t *pslot = af_idmap_slot(&f->proc_nodes, th->pid, &found);
	if (!found) {
		uint32_t k = af_idmap_get(&f->thread_ids, th->pid);
		struct span pname = k != AF_NONE ? f->threads[k].name : (struct span){ 0 };
		struct span s = label(pname, b, "process", th->pid);
		*pslot = af_tree_add_child(t, AF_ROOT, af_tree_intern(t, (const char *)s.s, s.n));
		af_profile_add_process(f->p, th->pid, pname.s ? (const char *)pname.s : "", pname.n, *pslot);
	}
	uint32_t pnode = *pslot;
	struct span s = label(th->name, b, "thread", th->tid);
	th->node = af_tree_add_child(t, pnode, af_tree_intern(t, (const char *)s.s, s.n));
	/* keyed by its node (unique), so no two threads share frames' keys */
	th->key = af_tree_path_key(AF_PATH_ROOT_KEY, af_hash_keyed_bytes(&th->node, sizeof th->node));
	size_t ti = af_profile_add_thread(f->p, th->tid, th->name.s ? (const char *)th->name.s : "", th->name.n);
	f->p->threads[ti].node = th->node;
	f->p->threads[ti].pid = th->pid;
	f->p->threads[ti].process_node = pnode;
	th->index = ti;
	return th->node;
}

/* The symbol of file k holding vaddr, or NULL: the last symbol starting at
 * or before it, if vaddr is inside it (a zero length: up to the next). The
 * file's index narrows the binary search to the symbols starting in
 * vaddr's bucket: one or two, where a search of the whole table (20000
 * symbols in a boot-framework.oat) was a fifth of reading, its steps cache
 * misses and mispredicted branches. */
static const struct sym *find_sym(const struct pd *f, uint32_t k, uint64_t vaddr)
{
	const struct pfile *file = &f->files[k];
	if (file->count == 0)
		return NULL;
	const struct symkey *key = f->sym_keys + file->first;
	size_t lo = 0, hi = file->count;
	if (file->nbuckets) {
		if (vaddr < key[0].addr)
			return NULL;
		uint64_t b = (vaddr - key[0].addr) >> file->shift;
		const uint32_t *idx = f->buckets + file->bucket;
		if (b < file->nbuckets) {
			lo = idx[b];
			hi = idx[b + 1];
		} else {
			lo = hi;
		}
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (key[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct symkey *y = &key[lo - 1];
	if (vaddr - y->addr < y->len || (y->len == 0 && lo < file->count))
		return &f->syms[file->first + lo - 1];
	return NULL;
}

/* find_sym()'s index of a file's symbols: about two buckets per symbol
 * over their address range, each the count of symbols before it (symbols
 * at few addresses far apart fill few buckets, and a lookup then searches
 * more: never worse than the whole table). */
enum { INDEX_MIN = 16 };   /* fewer symbols are searched whole */
static void index_syms(struct pd *f)
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

/* The address in the file that ip is at, as simpleperf's Dso::IpToVaddrInFile. */
static uint64_t vaddr_in_file(const struct pfile *file, const struct af_range *m, uint64_t ip, bool kernel)
{
	if (!file)
		return kernel ? ip : ip - m->start + m->pgoff;
	switch (file->type) {
	case DSO_KERNEL: case DSO_SYMBOL_MAP_FILE: case DSO_UNKNOWN_FILE:
		return ip;
	case DSO_KERNEL_MODULE:
		return ip - m->start - file->offset_of_min_vaddr + file->min_vaddr;
	case DSO_DEX_FILE:
		return ip - m->start + m->pgoff;
	default:
		if (file->offset_of_min_vaddr == UINT64_MAX)
			return ip - m->start + file->min_vaddr;
		return ip - m->start + m->pgoff - file->offset_of_min_vaddr + file->min_vaddr;
	}
}

/* Where ip is: its map, file, address in the file, symbol and kind. */
static struct entry lookup(struct pd *f, uint64_t pid, uint64_t ip, bool kernel)
{
	const struct af_range *r = find_map(f, kernel ? KERNEL_PID : pid, ip);
	struct entry e = { .file = AF_NONE, .vaddr = ip, .kind = kernel ? K_KERNEL : K_UNKNOWN };
	if (!r)
		return e;
	const struct map *m = e.map = &f->maps[r->value];
	e.file = m->file;
	const struct pfile *file = m->file != AF_NONE ? &f->files[m->file] : NULL;
	e.vaddr = m->jit ? ip : vaddr_in_file(file, r, ip, kernel);
	e.sym = file ? find_sym(f, m->file, e.vaddr) : NULL;
	if (!kernel)
		e.kind = m->kind;
	e.tramp = e.sym && f->sym_keys[e.sym - f->syms].tramp;   /* in the line find_sym() read */
	e.art = e.kind == K_NATIVE && (e.tramp || m->art);
	return e;
}

/* The cache slot of (pid, ip, kernel). */
static struct ipslot *ipslot_of(const struct pd *f, uint64_t pid, uint64_t ip, bool kernel)
{
	uint64_t h = (ip ^ (pid << 20) ^ kernel) * 0x9e3779b97f4a7c15ULL;
	return &f->ipcache[h >> (64 - f->ipcache_bits)];
}

/* lookup() through the cache of recent resolutions. */
static struct entry resolve(struct pd *f, uint64_t pid, uint64_t ip, bool kernel)
{
	struct ipslot *c = ipslot_of(f, pid, ip, kernel);
	if (!(c->gen == f->maps_gen && c->ip == ip && c->pid == pid && c->kernel == kernel))
		*c = (struct ipslot){ ip, f->maps_gen, (uint32_t)pid, kernel, lookup(f, pid, ip, kernel) };
	return c->e;
}

/* One of ART's own frames, not yet marked */
static bool art_entry(const struct entry *e)
{
	return e->kind == K_NATIVE && e->art;
}

/* simpleperf's CallChainReportBuilder::MarkArtFrame: ART's own frames next
 * to a Java frame are hidden, except the JNI method a trampoline calls
 * (restored once all are marked). The chain is leaf first. */
static void mark_art(struct entry *c, size_t n)
{
	bool near_java = false;
	for (size_t i = 0; i < n; i++) {
		if (c[i].kind == K_DEX || c[i].kind == K_JIT) {
			near_java = true;
			for (size_t j = i; j-- > 0 && art_entry(&c[j]);)
				c[j].kind = K_ART;
		} else if (near_java && art_entry(&c[i])) {
			c[i].kind = K_ART;
		} else {
			near_java = false;
		}
	}
	for (size_t i = 1; i < n; i++)
		if (c[i].kind == K_ART && c[i].tramp && c[i - 1].kind == K_ART)
			c[i - 1].kind = K_NATIVE;
}

/* The dex symbol named like a JIT frame's symbol, or NULL: simpleperf's
 * ConvertJITFrame draws a JIT method as its interpreted self. The table
 * of dex symbol names is made on first use. */
static const struct sym *dex_twin(struct pd *f, const struct sym *jit)
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
	return i != AF_NONE && span_eq(f->syms[i].name, jit->name) ? &f->syms[i] : NULL;
}

/* Hide ART frames and draw JIT frames as their interpreted twins; returns
 * the new length. */
static size_t simplify(struct pd *f, struct entry *c, size_t n)
{
	mark_art(c, n);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (c[i].kind != K_ART && k++ != i)
			c[k - 1] = c[i];
	n = k;
	k = 0;
	for (size_t i = 0; i < n; i++) {
		const struct sym *twin = c[i].kind == K_JIT && c[i].sym ? dex_twin(f, c[i].sym) : NULL;
		if (twin) {
			c[i].sym = twin;
			c[i].kind = K_DEX;
			/* an interpreted method calling its own JIT code shows once */
			if (i + 1 < n && c[i + 1].sym == twin)
				continue;
		}
		if (k++ != i)
			c[k - 1] = c[i];
	}
	return k;
}

/* The frame's name: the symbol (demangled), else "file[+vaddr]";
 * JIT-compiled Java frames end "_[j]", kernel frames "_[k]"
 * (flamegraph.pl's annotations, as simpleperf's stackcollapse.py --jit
 * and --kernel write them). */
static uint32_t make_name(struct pd *f, const struct entry *e)
{
	struct af_buf *b = &f->scratch;
	b->len = 0;
	if (e->sym) {
		const struct span *s = &e->sym->name;
		if (!af_demangle((const char *)s->s, s->n, b))
			af_name_append(b, (const char *)s->s, s->n);
	} else if (e->map && !(e->kind == K_KERNEL && e->file == AF_NONE)) {
		af_name_append(b, (const char *)e->map->path.s, e->map->path.n);
		af_buf_printf(b, "[+%" PRIx64 "]", e->vaddr);
	} else {
		af_buf_printf(b, "%s[+%" PRIx64 "]", e->kind == K_KERNEL ? "[kernel.kallsyms]" : "[unknown]", e->vaddr);
	}
	af_name_finish(b, 0);
	if (e->kind == K_JIT)
		af_buf_printf(b, "_[j]");
	else if (e->kind == K_KERNEL)
		af_buf_printf(b, "_[k]");
	return af_tree_intern(&f->p->tree, b->data, b->len);
}

/* make_name(), made once per symbol and suffix: most frames have a symbol,
 * and building and interning their names was most of the reading time. */
static uint32_t frame_name(struct pd *f, const struct entry *e)
{
	if (!e->sym)
		return make_name(f, e);
	uint32_t *id = &f->sym_names[(size_t)(e->sym - f->syms) * 3 + (e->kind == K_JIT ? 1 : e->kind == K_KERNEL ? 2 : 0)];
	if (*id == AF_NONE)
		*id = make_name(f, e);
	return *id;
}

/* Fields of a sample record, per sample_type. */
struct sample {
	uint64_t ip, pid, tid, time, id, period, nr;
	const uint8_t *ips;
	const uint8_t *read; uint64_t nread;   /* PERF_SAMPLE_READ's values, nread of them */
};

/* PERF_SAMPLE_READ's values as read_format lays them out (simpleperf
 * record --add-counter, perf record -e '{a,b}:S'): a group's count, the
 * times, then per counter its value, id and lost count. */
static size_t read_stride(uint64_t rf)
{
	return 8 * (1 + !!(rf & RF_ID) + !!(rf & RF_LOST));
}

static bool parse_read(const struct pd *f, struct af_cursor *c, struct sample *s)
{
	uint64_t rf = f->read_format, nr = 1;
	size_t each = read_stride(rf);
	if ((rf & RF_GROUP) && !af_cursor_u64(c, &nr))
		return false;
	if (!af_cursor_skip(c, 8 * (!!(rf & RF_TIME_ENABLED) + !!(rf & RF_TIME_RUNNING))) ||
	    nr > af_cursor_left(c) / each)
		return false;
	s->nread = nr;
	return af_cursor_bytes(c, (size_t)nr * each, &s->read);
}

static bool parse_sample(const struct pd *f, struct af_cursor *c, struct sample *s)
{
	uint64_t st = f->sample_type, v;
	*s = (struct sample){ .period = 1 };
	if ((st & S_IDENTIFIER) && !af_cursor_u64(c, &s->id))
		return false;
	if ((st & S_IP) && !af_cursor_u64(c, &s->ip))
		return false;
	if (st & S_TID) {
		uint32_t a, b;
		if (!af_cursor_u32(c, &a) || !af_cursor_u32(c, &b))
			return false;
		s->pid = a;
		s->tid = b;
	}
	if ((st & S_TIME) && !af_cursor_u64(c, &s->time))
		return false;
	if ((st & S_ADDR) && !af_cursor_u64(c, &v))
		return false;
	if ((st & S_ID) && !af_cursor_u64(c, &s->id))
		return false;
	if ((st & S_STREAM_ID) && !af_cursor_u64(c, &v))
		return false;
	if ((st & S_CPU) && !af_cursor_u64(c, &v))
		return false;
	if ((st & S_PERIOD) && !af_cursor_u64(c, &s->period))
		return false;
	if ((st & S_READ) && !parse_read(f, c, s))
		return false;
	if (st & S_CALLCHAIN) {
		if (!af_cursor_u64(c, &s->nr) || s->nr > af_cursor_left(c) / 8)
			return false;
		af_cursor_bytes(c, (size_t)s->nr * 8, &s->ips);
	}
	return true;
}

/* The sample's callchain as (ip, kernel) pairs, leaf first, in f->raw
 * (context markers dropped; none at all: its ip, if it has one, and
 * *walked false); counts the empty chains. Returns the number of frames. */
static size_t decode_chain(struct pd *f, const struct sample *s, uint16_t misc, bool *walked)
{
	bool kernel = (misc & CPUMODE_MASK) == CPUMODE_KERNEL;
	size_t n = 0;
	af_grow(&f->raw, &f->cap_raw, s->nr + 1, sizeof *f->raw);
	for (uint64_t i = 0; i < s->nr; i++) {
		uint64_t ip = af_le(s->ips + i * 8, 8);
		if (ip >= CONTEXT_MAX) {
			kernel = ip == CONTEXT_KERNEL ? true : ip == CONTEXT_USER ? false : kernel;
			continue;
		}
		f->raw[n++] = (struct rawip){ ip, kernel };
	}
	*walked = n > 0;
	if (n == 0 && (f->sample_type & S_CALLCHAIN))
		f->empty_chains++;
	if (n == 0 && (f->sample_type & S_IP))
		f->raw[n++] = (struct rawip){ s->ip, kernel };
	return n;
}

/* The thread's chain becomes the n frames of f->raw (leaf first there,
 * root first in th->chain). A thread's consecutive samples share their
 * callers (a 4000 Hz recording finds a thread in the same call path most
 * of the time), so the frames from the root equal to its previous chain
 * keep what they were resolved to and only the rest is looked up; counts
 * the frames outside every map and those without a symbol. Returns how
 * many were kept. */
static size_t update_chain(struct pd *f, struct pthread_ *th, uint64_t pid, size_t n)
{
	af_grow(&th->chain, &th->cap_chain, n, sizeof *th->chain);
	struct tframe *tf = th->chain;
	size_t same = 0;
	if (th->gen == f->maps_gen && th->chain_pid == pid) {
		size_t max = n < th->nchain ? n : th->nchain;
		const struct rawip *r = f->raw + n - 1;
		while (same < max && r[-(ptrdiff_t)same].ip == tf[same].raw.ip &&
		       r[-(ptrdiff_t)same].kernel == tf[same].raw.kernel)
			same++;
	}
	/* the cache is larger than the processor's: its lines for the new
	 * frames are fetched together, not each when its turn comes */
	for (size_t i = same; i < n; i++)
		__builtin_prefetch(ipslot_of(f, pid, f->raw[n - 1 - i].ip, f->raw[n - 1 - i].kernel));
	for (size_t i = same; i < n; i++) {
		struct tframe *t = &tf[i];
		t->raw = f->raw[n - 1 - i];
		t->e = resolve(f, pid, t->raw.ip, t->raw.kernel);
		t->no_map = (i ? tf[i - 1].no_map : 0) + !t->e.map;
		t->no_symbol = (i ? tf[i - 1].no_symbol : 0) + (t->e.map && !t->e.sym);
	}
	if (n) {
		f->no_map += tf[n - 1].no_map;
		f->no_symbol += tf[n - 1].no_symbol;
	}
	th->nchain = n;
	th->gen = f->maps_gen;
	th->chain_pid = pid;
	return same;
}

/* Fold the m simplified frames of f->chain (leaf first) under node, after
 * the thread's first kept drawn frames; returns the leaf's node. Frames
 * equal to the thread's previous stack from there on take their nodes from
 * it without a tree probe (a leaf ip that moved within its function). The
 * others' path keys are worked out and their slots prefetched before the
 * first is looked up: the tree's table is far larger than the caches, and
 * one stack's probes then wait for memory together, not one after another
 * (a (parent, name) probe needs the node the one before found). */
static uint32_t fold_stack(struct pd *f, struct pthread_ *th, uint32_t node, size_t kept, size_t m)
{
	struct af_tree *t = &f->p->tree;
	af_grow(&th->stack, &th->cap_stack, kept + m, sizeof *th->stack);
	struct frame *st = th->stack;
	size_t end = kept + m, from = end;
	for (size_t i = kept; i < end; i++) {
		uint32_t name = frame_name(f, &f->chain[end - 1 - i]);
		if (from == end && i < th->depth && st[i].name == name)
			continue;
		from = from < i ? from : i;
		st[i].name = name;
	}
	uint64_t key = from ? st[from - 1].key : th->key;
	for (size_t i = from; i < end; i++) {
		st[i].key = key = af_tree_path_key(key, af_tree_name_key(t, st[i].name));
		af_tree_path_prefetch(t, key);
	}
	node = from ? st[from - 1].node : node;
	for (size_t i = from; i < end; i++)
		st[i].node = node = af_tree_key_child(t, node, st[i].key, st[i].name);
	th->depth = end;
	return end ? st[end - 1].node : node;
}

/* Simplify and fold the thread's chain (n frames, the first `same` as in
 * the previous sample) under node; returns the leaf's node.
 *
 * What simplify() makes of a frame depends on the frame, its caller, and
 * for one of ART's own frames on the run of them it is in and the frames
 * either side of that run. So the drawn frames of the shared part are the
 * previous sample's up to its last frame that is not ART's own (keep - 1):
 * they keep their nodes, and only the frames after it are simplified, with
 * that frame before them as their caller (then dropped: it is never hidden,
 * and without its own caller it is never made a twin). */
static uint32_t fold_chain(struct pd *f, struct pthread_ *th, uint32_t node, size_t n, size_t same)
{
	struct tframe *tf = th->chain;
	size_t keep = same;
	while (keep > 0 && art_entry(&tf[keep - 1].e))
		keep--;
	size_t from = keep ? keep - 1 : 0, m = n - from;
	af_grow(&f->chain, &f->cap_chain, m, sizeof *f->chain);
	for (size_t j = 0; j < m; j++) {
		f->chain[j] = tf[n - 1 - j].e;
		f->chain[j].at = (uint32_t)(n - 1 - j);
	}
	m = simplify(f, f->chain, m);
	if (keep)
		m--;   /* the caller before them, last */
	uint32_t kept = keep ? tf[keep - 1].drawn : 0;
	node = fold_stack(f, th, node, kept, m);
	/* how many drawn frames each new frame of the chain ends */
	size_t j = m;
	for (size_t i = keep; i < n; i++) {
		while (j > 0 && f->chain[j - 1].at == i) {
			kept++;
			j--;
		}
		tf[i].drawn = kept;
	}
	return node;
}

/* Fold one sample of thread th weighing period; an off-CPU one gets a
 * leaf "[off-cpu]". */
static int fold_sample(struct pd *f, struct pthread_ *th, const struct sample *s, uint64_t at, uint16_t misc,
		       uint64_t period, bool offcpu)
{
	if (period > UINT64_MAX - f->weight)
		return bad(f, at, "the sample periods add up past 2^64");
	f->samples++;
	f->offcpu_drawn += offcpu;
	f->weight += period;
	struct af_tree *t = &f->p->tree;
	uint32_t node = thread_node(f, th);
	f->p->threads[th->index].events++;
	bool walked;
	size_t n = decode_chain(f, s, misc, &walked);
	size_t same = update_chain(f, th, s->pid, n);
	/* unwinding that went wrong: a chain whose outermost caller is
	 * outside every map (a stack walk that ran off) */
	if (walked && !th->chain[0].e.map)
		f->chains_off_map++;
	node = fold_chain(f, th, node, n, same);
	if (offcpu) {
		uint64_t key = th->depth ? th->stack[th->depth - 1].key : th->key;
		node = af_tree_key_child(t, node, af_tree_path_key(key, af_tree_name_key(t, f->offcpu_name)), f->offcpu_name);
	}
	t->nodes[node].self += period;
	return 0;
}

/* The thread's waiting off-CPU sample ends at time: it weighs the time
 * since it was taken (1 if the clock went back), as simpleperf's report
 * library has it (TraceOffCpuMode MIXED_ON_OFF_CPU). Its record is read
 * again, already checked. */
static int end_offcpu(struct pd *f, struct pthread_ *th, uint64_t time)
{
	size_t at = th->offcpu_at;
	th->offcpu_at = 0;
	f->offcpu_open--;
	struct af_cursor c = { f->data + at + 8, (size_t)af_le(f->data + at + 6, 2) - 8, 0 };
	struct sample s;
	parse_sample(f, &c, &s);
	uint64_t period = time > th->offcpu_time ? time - th->offcpu_time : 1;
	return fold_sample(f, th, &s, at, (uint16_t)af_le(f->data + at + 4, 2), period, true);
}

/* A sample with read values weighs, for each counter, what it counted
 * since the thread's previous sample, as perf script and simpleperf's
 * report (--add-counter) have it; so a counter that never samples itself
 * is drawn with --event too. Returns whether the drawn event's counter is
 * among the values (its delta in *period). */
static bool read_deltas(struct pd *f, const struct sample *s, uint32_t sample_attr, uint64_t *period)
{
	size_t each = read_stride(f->read_format);
	bool found = false;
	for (uint64_t i = 0; i < s->nread; i++) {
		const uint8_t *v = s->read + i * each;
		uint32_t a = sample_attr;
		if (f->read_format & RF_ID)
			a = f->nattrs > 1 ? af_idmap_get(&f->attr_ids, af_le(v + 8, 8)) : 0;
		else if (f->read_format & RF_GROUP)
			a = (uint32_t)i;   /* without ids, the group's counters come in attr order */
		bool known;
		uint32_t *slot = af_idmap_slot(&f->counter_ids, s->tid << 32 | a, &known);
		if (!known) {
			af_grow(&f->counters, &f->cap_counters, f->ncounters + 1, sizeof *f->counters);
			f->counters[f->ncounters] = 0;
			*slot = (uint32_t)f->ncounters++;
		}
		uint64_t value = af_le(v, 8), *prev = &f->counters[*slot];
		if (a == f->drawn) {
			*period = value >= *prev ? value - *prev : value;
			found = true;
		}
		*prev = value;
	}
	return found;
}

/* With trace_offcpu, a sample of another event than the first (simpleperf
 * records sched:sched_switch) is the thread going off the CPU: it waits for
 * the thread's next sample or switch-in to know how long it was off. */
static int read_sample(struct pd *f, struct af_cursor *c, uint64_t at, uint16_t misc)
{
	struct sample s;
	if (!parse_sample(f, c, &s))
		return bad(f, at, "a SAMPLE record is shorter than its fields");
	uint32_t a = f->nattrs > 1 ? af_idmap_get(&f->attr_ids, s.id) : 0;
	bool offcpu = f->offcpu_mode && a != 0, drawn = a == f->drawn;
	uint64_t period = s.period;
	if (s.nread) {
		drawn = read_deltas(f, &s, a, &period);
		f->read_samples++;
	}
	if (!drawn && !offcpu) {
		f->other_event++;
		return 0;
	}
	struct pthread_ *th = thread_of(f, s.tid, s.pid);
	th->pid = s.pid;
	if (th->offcpu_at && end_offcpu(f, th, s.time) < 0)
		return -1;
	if (offcpu) {
		th->offcpu_at = (size_t)at;
		th->offcpu_time = s.time;
		f->offcpu_open++;
		return 0;
	}
	return fold_sample(f, th, &s, at, misc, period, false);
}

/* A SWITCH record (sample_id_all: the sample's tid and time follow the
 * empty body) of a thread coming back on the CPU ends its off-CPU sample. */
static int read_switch(struct pd *f, struct af_cursor *c, uint16_t misc)
{
	uint32_t pid = 0, tid = 0;
	uint64_t time = 0;
	if (!f->offcpu_mode || (misc & MISC_SWITCH_OUT) || !f->sample_id_all)
		return 0;
	if (!(f->sample_type & S_TID) || !(f->sample_type & S_TIME) || !af_cursor_u32(c, &pid) ||
	    !af_cursor_u32(c, &tid) || !af_cursor_u64(c, &time))
		return 0;
	uint32_t k = af_idmap_get(&f->thread_ids, tid);
	return k != AF_NONE && f->threads[k].offcpu_at ? end_offcpu(f, &f->threads[k], time) : 0;
}

static int read_mmap(struct pd *f, struct af_cursor *c, uint64_t at, uint32_t type, uint16_t misc)
{
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	if (!af_cursor_u32(c, &pid) || !af_cursor_u32(c, &tid) || !af_cursor_u64(c, &addr) ||
	    !af_cursor_u64(c, &len) || !af_cursor_u64(c, &pgoff) ||
	    (type == REC_MMAP2 && !af_cursor_skip(c, 32)) || af_cursor_left(c) == 0)
		return bad(f, at, "an MMAP record is shorter than its fields");
	if (len == 0 || addr > UINT64_MAX - len)
		return 0;
	struct map m = { .path = keep(f, cstr(c->data + c->pos, af_cursor_left(c))), .file = AF_NONE };
	if (type == REC_MMAP2)   /* prot, 24 bytes into the 32 after pgoff */
		m.jit = af_le(c->data + c->pos - 8, 4) & PROT_JIT_SYMFILE_MAP;
	bool kernel = (misc & CPUMODE_MASK) == CPUMODE_KERNEL || pid == UINT32_MAX;
	add_map(f, kernel ? KERNEL_PID : pid, addr, addr + len, pgoff, m);
	return 0;
}

static int read_comm(struct pd *f, struct af_cursor *c, uint64_t at)
{
	uint32_t pid, tid;
	if (!af_cursor_u32(c, &pid) || !af_cursor_u32(c, &tid) || af_cursor_left(c) == 0)
		return bad(f, at, "a COMM record is shorter than its fields");
	struct pthread_ *th = thread_of(f, tid, pid);
	th->pid = pid;
	if (th->node == AF_NONE)   /* a thread already drawn keeps its first name */
		th->name = keep(f, cstr(c->data + c->pos, af_cursor_left(c)));
	return 0;
}

/* UNWINDING_RESULT (simpleperf record --keep-failed-unwinding-result): a
 * sample whose DWARF unwinding failed, with libunwindstack's error code
 * (after the time and the time unwinding took). */
static void read_unwinding(struct pd *f, struct af_cursor *c)
{
	uint64_t time, used, code;
	if (af_cursor_u64(c, &time) && af_cursor_u64(c, &used) && af_cursor_u64(c, &code))
		f->unwind_errors[code < NUNWIND_ERRORS ? code : NUNWIND_ERRORS]++;
}

static int read_record(struct pd *f, struct af_cursor *c, size_t pos, uint32_t type, uint16_t misc)
{
	switch (type) {
	case REC_SAMPLE: return read_sample(f, c, pos, misc);
	case REC_MMAP: case REC_MMAP2: return read_mmap(f, c, pos, type, misc);
	case REC_COMM: return read_comm(f, c, pos);
	case REC_SWITCH: return read_switch(f, c, misc);
	case REC_FORK: return read_fork(f, c, pos);
	case REC_LOST:
		if (c->len >= 16)
			f->lost += af_le(c->data + 8, 8);
		return 0;
	case REC_SP_UNWINDING_RESULT:
		read_unwinding(f, c);
		return 0;
	default:
		f->simpleperf_records += type >= REC_SIMPLEPERF;
		return 0;
	}
}

/* The bytes of the record at h, left bytes before the data section ends:
 * perf's u16 size, or for simpleperf's own records (from 32768) a u32 in
 * two halves where misc would be (simpleperf_record_header); an AUXTRACE
 * record's data follows it, sized by its first field. NULL, or what is
 * wrong. */
static const char *extent(const uint8_t *h, size_t left, uint32_t type, uint64_t *n, uint64_t *whole)
{
	*n = type >= REC_SIMPLEPERF ? af_le(h + 4, 2) << 16 | af_le(h + 6, 2) : af_le(h + 6, 2);
	if (*n < 8 || *n > left)
		return *n < 8 ? "a record shorter than its header" : "a record runs past the data section";
	*whole = *n;
	if (type == REC_AUXTRACE && *n >= 16 && af_le(h + 8, 8) > left - *n)
		return "an AUXTRACE record's data runs past the data section";
	if (type == REC_AUXTRACE && *n >= 16)
		*whole += af_le(h + 8, 8);
	return NULL;
}

static int record_extent(struct pd *f, const uint8_t *h, size_t pos, size_t end, uint32_t type, uint64_t *n,
			 uint64_t *whole)
{
	const char *why = extent(h, end - pos, type, n, whole);
	return why ? bad(f, pos, why) : 0;
}

/* The attr of the data section's first sample (0 if none): drawn when no
 * --event says which, as simpleperf's stackcollapse.py filters for the
 * first event type it sees, so a recording whose first event type has no
 * samples still draws the one that has. Damage stops the look quietly:
 * read_records() reports it. */
static size_t first_sampled(struct pd *f)
{
	uint64_t off, size;
	if (section(f, 40, &off, &size) < 0)
		return 0;
	size_t pos = (size_t)off, end = (size_t)(off + size);
	while (end - pos >= 8) {
		const uint8_t *h = f->data + pos;
		uint32_t type = (uint32_t)af_le(h, 4);
		uint64_t n, whole;
		if (extent(h, end - pos, type, &n, &whole))
			return 0;
		if (type == REC_SAMPLE) {
			struct af_cursor c = { h + 8, (size_t)n - 8, 0 };
			struct sample s;
			uint32_t a = parse_sample(f, &c, &s) ? af_idmap_get(&f->attr_ids, s.id) : AF_NONE;
			return a != AF_NONE ? a : 0;
		}
		pos += (size_t)whole;
	}
	return 0;
}

/* The n bytes at input offset pos, from the window (moved on to them if
 * they are not all in it), or NULL with the diag set if the file cannot be
 * read. The data section is read with pread() into one buffer, not through
 * the mapping: a page fault costs about 15 us on the build machine. */
static const uint8_t *window_at(struct pd *f, struct af_window *w, size_t pos, size_t n)
{
	if (pos - w->at > w->len) {   /* past the window: an AUXTRACE record's data skipped */
		const struct af_input *in = w->in;
		af_window_release(w);
		af_window_init_at(w, in, pos);
	}
	while (w->len - (pos - w->at) < n) {
		int rc = af_window_more(w, pos - (size_t)w->at, f->d);
		if (rc <= 0) {
			if (rc == 0)
				bad(f, pos, "a record runs past the end of the file");
			return NULL;
		}
	}
	return w->data + (pos - w->at);
}

static int read_records(struct pd *f)
{
	uint64_t off, size;
	if (section(f, 40, &off, &size) < 0)
		return -1;
	size_t pos = (size_t)off, end = (size_t)(off + size);
	struct af_window w;
	af_window_init_at(&w, f->in, off);
	int rc = 0;
	while (pos < end && rc == 0) {
		if (end - pos < 8) {
			rc = bad(f, pos, "the data section ends inside a record header");
			break;
		}
		const uint8_t *h = window_at(f, &w, pos, 8);
		uint32_t type = h ? (uint32_t)af_le(h, 4) : 0;
		uint64_t rsize = 0, whole = 0;
		if (!h || record_extent(f, h, pos, end, type, &rsize, &whole) < 0 ||
		    !(h = window_at(f, &w, pos, (size_t)rsize))) {
			rc = -1;
			break;
		}
		uint16_t misc = type >= REC_SIMPLEPERF ? 0 : (uint16_t)af_le(h + 4, 2);
		struct af_cursor c = { h + 8, (size_t)rsize - 8, 0 };
		rc = read_record(f, &c, pos, type, misc);
		pos += (size_t)whole;
	}
	af_window_release(&w);
	return rc;
}

/* --info: samples whose stack did not unwind, by kind. */
static void unwinding_info(struct pd *f)
{
	af_profile_info_kinds(f->p, "unwinding failures", "simpleperf's UNWINDING_RESULT records",
			      unwind_error_names, NUNWIND_ERRORS, f->unwind_errors);
	if (f->empty_chains)
		af_profile_warn(f->p, f->empty_chains, "samples without a callchain (drawn at their ip)");
	if (f->chains_off_map)
		af_profile_warn(f->p, f->chains_off_map, "callchains whose outermost caller is outside every map "
				"(unwinding stopped early)");
}

static void info(struct pd *f)
{
	struct af_profile *p = f->p;
	struct af_buf *b = &f->scratch;
	b->len = 0;
	for (size_t i = 0; i < f->nattrs; i++) {
		if (i)
			af_buf_printf(b, ", ");
		size_t from = b->len;
		af_name_append(b, f->enames[i].s, f->enames[i].n);
		af_name_finish(b, from);
	}
	if (f->nattrs > 1 && (f->o->event || f->drawn)) {
		af_buf_printf(b, " (");
		size_t from = b->len;
		af_name_append(b, f->enames[f->drawn].s, f->enames[f->drawn].n);
		af_name_finish(b, from);
		af_buf_printf(b, f->o->event ? " is drawn)" : " is drawn: the first sample's)");
	} else if (f->nattrs > 1) {
		af_buf_printf(b, " (the first is drawn)");
	}
	af_profile_info(p, "event types", "%.*s", (int)b->len, b->data);
	af_profile_info(p, "samples", "%" PRIu64 " drawn, %" PRIu64 " of other event types", f->samples,
			f->other_event);
	if (f->offcpu_mode)
		af_profile_info(p, "off-cpu samples", "%" PRIu64 " drawn (marked [off-cpu], weighing the time to the "
				"thread's next sample or switch-in), %" PRIu64 " with neither (left out)",
				f->offcpu_drawn, f->offcpu_open);
	af_profile_info(p, "lost samples", "%" PRIu64, f->lost);
	af_profile_info(p, "threads", "%zu", f->nthreads);
	size_t with = 0;
	for (size_t i = 0; i < f->nfiles; i++)
		with += f->files[i].count > 0;
	af_profile_info(p, "files", "%zu (%zu with symbols)", f->nfiles, with);
	if (f->package.n)
		af_profile_info(p, "app package", "%.*s", (int)f->package.n, (const char *)f->package.s);
	if (f->offcpu.n)
		af_profile_info(p, "trace offcpu", "%.*s", (int)f->offcpu.n, (const char *)f->offcpu.s);
	if (f->no_map)
		af_profile_warn(p, f->no_map, "frames outside every mapped file");
	if (f->no_symbol)
		af_profile_warn(p, f->no_symbol, "frames without a symbol (named file[+address])");
	unwinding_info(f);
	if (f->read_samples)
		af_profile_info(p, "counter values", "%" PRIu64 " samples read their group's counters: each weighs "
				"what the drawn counter counted since the thread's previous sample", f->read_samples);
	if (f->forks_copied || f->forks_uncopied)
		af_profile_info(p, "forks", "%" PRIu64 " new processes given their parent's maps", f->forks_copied);
	if (f->forks_uncopied)
		af_profile_warn(p, f->forks_uncopied, "new processes not given their parent's maps (too many maps "
				"copied already)");
	if (f->simpleperf_records)
		af_profile_info(p, "simpleperf records", "%" PRIu64 " (not read)", f->simpleperf_records);
}

static void pd_release(struct pd *f)
{
	af_ranges_release(&f->ranges);
	free(f->roots);
	free(f->listed);
	for (size_t i = 0; i < f->nthreads; i++) {
		free(f->threads[i].stack);
		free(f->threads[i].chain);
	}
	free(f->raw);
	for (size_t i = 0; i < f->nowned; i++)
		free(f->owned[i]);
	free(f->owned);
	free(f->maps);
	for (size_t i = 0; i < f->nattrs; i++)
		free(f->attrs[i].name);
	free(f->attrs);
	free(f->enames);
	free(f->files);
	free(f->syms);
	free(f->threads);
	free(f->chain);
	free(f->sym_names);
	free(f->sym_keys);
	free(f->buckets);
	free(f->ipcache_mem);
	af_idmap_release(&f->attr_ids);
	af_idmap_release(&f->file_by_hash);
	af_idmap_release(&f->maps_by_pid);
	af_idmap_release(&f->counter_ids);
	free(f->counters);
	af_idmap_release(&f->thread_ids);
	af_idmap_release(&f->proc_nodes);
	af_idmap_release(&f->dex_names);
	af_buf_release(&f->scratch);
}

static int read_all(struct pd *f)
{
	if (f->len < HEADER_SIZE)
		return af_diag_offset(f->d, f->len, "the file ends inside the perf.data header");
	if (af_le(f->data + 8, 8) < HEADER_SIZE)
		return bad(f, 8, "the header size is smaller than 104 bytes");
	if (read_attrs(f) < 0 || read_feature_table(f) < 0)
		return -1;
	if (f->feat[FEAT_META_INFO])
		read_meta(f);
	name_events(f);
	int drawn = af_event_pick(f->o->event, f->enames, f->nattrs, f->d);
	if (drawn < 0)
		return -1;
	f->drawn = (size_t)drawn;
	bool offcpu = span_eq(f->offcpu, (struct span){ (const uint8_t *)"true", 4 });
	if (!f->o->event && f->nattrs > 1 && !offcpu)   /* off-CPU recordings draw their clock event */
		f->drawn = first_sampled(f);
	/* simpleperf's report library draws off-CPU samples only beside a
	 * clock event (it refuses older recordings with another) */
	f->offcpu_mode = offcpu && f->drawn == 0 && f->nattrs > 1 && strcmp(af_event_unit(f->enames[0]), "ns") == 0;
	if (offcpu && !f->offcpu_mode)
		af_profile_note(f->p, "recorded with --trace-offcpu: off-CPU samples are drawn only with the first "
				"event type, when that is cpu-clock or task-clock (as simpleperf reads them)");
	f->offcpu_name = af_tree_intern_str(&f->p->tree, "[off-cpu]");
	if (f->feat[FEAT_FILE] && read_files(f, FEAT_FILE) < 0)
		return -1;
	if (!f->feat[FEAT_FILE] && f->feat[FEAT_FILE2] && read_files(f, FEAT_FILE2) < 0)
		return -1;
	size_t nsyms = f->nsyms ? f->nsyms : 1;
	f->sym_names = af_xmalloc(nsyms * 3 * sizeof *f->sym_names);
	memset(f->sym_names, 0xff, nsyms * 3 * sizeof *f->sym_names);
	f->sym_keys = af_xmalloc(nsyms * sizeof *f->sym_keys);
	for (size_t i = 0; i < f->nsyms; i++)
		f->sym_keys[i] = (struct symkey){ f->syms[i].addr, (uint32_t)f->syms[i].len, f->syms[i].tramp };
	index_syms(f);
	f->ipcache_bits = IPCACHE_MIN_BITS;
	while (f->ipcache_bits < IPCACHE_MAX_BITS && (f->len >> 10) > ((size_t)1 << f->ipcache_bits))
		f->ipcache_bits++;
	f->ipcache_mem = af_xcalloc_huge(((size_t)1 << f->ipcache_bits) + 1, sizeof *f->ipcache);
	f->ipcache = (struct ipslot *)(((uintptr_t)f->ipcache_mem + 63) & ~(uintptr_t)63);
	f->maps_gen = 1;   /* slots start at generation 0: empty */
	f->copy_budget = ((uint64_t)1 << 21) + f->len / 64;
	/* the tree's table and nodes from the data's size, so they never grow
	 * (a rehash touches every slot twice): a node per 256 bytes, more than
	 * real and generated recordings make (one per 360-550) */
	af_tree_path_reserve(&f->p->tree, (size_t)(f->len / 256));
	return read_records(f);
}

static int read_perfdata(struct af_profile *p, const struct af_input *in, const struct af_read_opts *o,
			 struct af_diag *d)
{
	struct pd f = { .p = p, .d = d, .in = in, .o = o, .data = in->data, .len = in->len };
	af_idmap_init(&f.attr_ids);
	af_idmap_init(&f.file_by_hash);
	af_idmap_init(&f.maps_by_pid);
	af_idmap_init(&f.counter_ids);
	af_ranges_init(&f.ranges);
	af_idmap_init(&f.thread_ids);
	af_idmap_init(&f.proc_nodes);
	af_idmap_init(&f.dex_names);
	int rc = read_all(&f);
	if (rc == 0) {
		p->unit = f.nattrs ? af_event_unit(f.enames[f.drawn]) : "events";
		p->clock = NULL;
		info(&f);
	}
	pd_release(&f);
	return rc;
}

static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	return len >= 8 && memcmp(data, MAGIC, 8) == 0 ? AF_SNIFF_YES : AF_SNIFF_NO;
}

const struct af_reader af_reader_perfdata = {
	.name = "perf-data", .what = "a perf.data recording", .sniff = sniff,
	.read = read_perfdata, .nothing = "no samples",
};
