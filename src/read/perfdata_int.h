/* perfdata_int.h: what the files of the perf.data reader share, and no
 * other file: the reader's state (struct pd), the record and feature
 * constants, and what one file offers the others.
 *
 *   read_perfdata.c    the records (samples, maps, names), chains folded,
 *                      --info, the reader
 *   perfdata_stack.c   a sample's callchain: each ip to its map, file,
 *                      symbol and frame name (ART's frames hidden as
 *                      simpleperf does), folded under its thread
 *   perfdata_maps.c    processes' maps (FORK copies them) and threads
 *   perfdata_header.c  the header, attrs and feature table; META_INFO;
 *                      event names
 *   perfdata_syms.c    the symbol tables the file embeds (FILE, FILE2) and
 *                      their index; the small helpers every file uses
 *
 * Each file uses only those listed below it (the no-cycle rule of
 * tests/suites/modules.sh); read_perfdata.c's opening describes the
 * format. */
#ifndef AF_PERFDATA_INT_H
#define AF_PERFDATA_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "cursor.h"
#include "input.h"
#include "ranges.h"
#include "read.h"
#include "span.h"
#include "core/buf.h"
#include "core/idmap.h"
#include "core/profile.h"

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
/* libunwindstack's ErrorCode (UNWINDING_RESULT records): how many
 * read_perfdata.c names */
enum { NUNWIND_ERRORS = 14 };
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

struct sym { uint64_t addr, len; struct af_span name; bool tramp; };   /* tramp: a JNI trampoline (mark_art) */
/* A symbol's address, length (at most 32 bits in FILE and FILE2) and tramp:
 * all a lookup reads, so its search and check touch one array. */
struct symkey { uint64_t addr; uint32_t len; bool tramp; };
struct pfile {
	struct af_span path;
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
struct map { struct af_span path; uint32_t file; bool jit, art; enum kind kind; };
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
	uint64_t tid, pid; struct af_span name; uint32_t node; size_t index;
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
struct attr { uint64_t sample_type, type, config; bool no_user, no_kernel; struct af_span event; char *name; };

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
	struct af_span package, offcpu, event_info;
	struct entry *chain; size_t cap_chain;
	struct rawip *raw; size_t cap_raw;
	struct af_buf scratch;
	char **owned; size_t nowned, cap_owned;   /* copies of names read from records (keep()) */
	uint64_t samples, other_event, lost, weight, no_map, no_symbol, cut, simpleperf_records;
	bool offcpu_mode;              /* trace_offcpu with a clock: off-CPU samples drawn */
	uint32_t offcpu_name;          /* "[off-cpu]" */
	uint64_t offcpu_drawn, offcpu_open;
};

/* Fields of a sample record, per sample_type. */
struct sample {
	uint64_t ip, pid, tid, time, id, period, nr;
	const uint8_t *ips;
	const uint8_t *read; uint64_t nread;   /* PERF_SAMPLE_READ's values, nread of them */
};

static inline bool ends(struct af_span s, const char *suffix)
{
	size_t n = strlen(suffix);
	return s.n >= n && memcmp(s.s + s.n - n, suffix, n) == 0;
}

static inline bool contains(struct af_span s, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= s.n; i++)
		if (memcmp(s.s + i, needle, n) == 0)
			return true;
	return false;
}

/* The symbol of file k holding vaddr, or NULL: the last symbol starting at
 * or before it, if vaddr is inside it (a zero length: up to the next). The
 * file's index narrows the binary search to the symbols starting in
 * vaddr's bucket: one or two, where a search of the whole table (20000
 * symbols in a boot-framework.oat) was a fifth of reading, its steps cache
 * misses and mispredicted branches. */
static inline const struct sym *pd_find_sym(const struct pd *f, uint32_t k, uint64_t vaddr)
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

/* ---- a sample's callchain folded (perfdata_stack.c) ---- */
int pd_fold_sample(struct pd *f, struct pthread_ *th, const struct sample *s, uint64_t at, uint16_t misc,
		       uint64_t period, bool offcpu);

/* ---- symbol tables and helpers (perfdata_syms.c) ---- */
int pd_bad(struct pd *f, uint64_t at, const char *why);
struct af_span pd_cstr(const uint8_t *s, size_t max);
struct af_span pd_keep(struct pd *f, struct af_span s);
uint32_t pd_find_file(const struct pd *f, struct af_span path);
int pd_read_files(struct pd *f, unsigned feat);
void pd_index_syms(struct pd *f);
const struct sym *pd_dex_twin(struct pd *f, const struct sym *jit);

/* ---- header, attrs, features (perfdata_header.c) ---- */
int pd_section(struct pd *f, size_t off, uint64_t *o, uint64_t *n);
int pd_read_attrs(struct pd *f);
int pd_read_feature_table(struct pd *f);
void pd_read_meta(struct pd *f);
void pd_name_events(struct pd *f);

/* ---- maps, threads, frames (perfdata_maps.c) ---- */
void pd_add_map(struct pd *f, uint64_t pid, uint64_t start, uint64_t end, uint64_t pgoff, struct map m);
const struct af_range *pd_find_map(struct pd *f, uint64_t pid, uint64_t ip);
struct pthread_ *pd_thread_of(struct pd *f, uint64_t tid, uint64_t pid);
int pd_read_fork(struct pd *f, struct af_cursor *c, uint64_t at);
uint32_t pd_thread_node(struct pd *f, struct pthread_ *th);

#endif
