/* gen_perfdata.c: a perf.data recording like simpleperf's, deterministic
 * from a seed.
 *
 *   gen_perfdata SAMPLES SEED > out.data
 *
 * Shaped after the real recordings in AOSP simpleperf's testdata (and
 * simpleperf record's writer): one app process with 40 threads, samples
 * mostly on the main thread and RenderThread, a thread's samples often
 * several in a row (records come per CPU buffer); 300 mapped files whose
 * embedded symbol tables (the FILE feature) hold the symbols the samples
 * hit, as simpleperf dumps only those: a few large ones (boot-framework.oat
 * 20000, boot.oat 8000, libart.so 6000, the app's base.odex 6000, libhwui.so
 * 4000, a JIT cache 3000, simpleperf's MMAP2 with its JIT symfile mark), the
 * rest a long tail of small libraries; functions of varied sizes with gaps
 * between them (functions nothing hit). Frames pick a symbol uniformly
 * among all of them, so the large files get most frames. A kernel with
 * 3000; callchains 24-100 frames deep, 1 in 40 call paths 150-350 (leaf
 * first, a third with kernel frames after PERF_CONTEXT_KERNEL, deeper ones
 * longer at the leaf as real kernel stacks are), built from 4000 base
 * stacks and a few callees each so that, as in real recordings, samples
 * share their callers and land on a bounded set of leaves. A thread stays
 * in one base stack for a run of samples (1 in 8 moves it to another of
 * its own), as a thread sampled every 250 us (simpleperf's 4000 Hz) is
 * still in the same call path at the next sample most of the time.
 * SAMPLES 170000 makes about 106 MB. */
#include "gen.h"

#include <stdbool.h>
#include <string.h>

enum { LIBS = 300, KSYMS = 3000, BASES = 4000, THREADS = 40, PID = 4000, MAX_DEPTH = 360, JIT_LIB = 5 };
#define LIB_BASE 0x7000000000ULL
#define KSYM_LEN 0xa0ULL
#define KBASE 0xffffffc010000000ULL
#define PROT_JIT_SYMFILE_MAP 0x4000   /* simpleperf's mark on a JIT symfile's MMAP2 */

/* the large files first, their hit symbols; the rest get 2400 / rank */
static const struct { const char *path; unsigned nsyms; } big[] = {
	{ "/system/framework/arm64/boot-framework.oat", 20000 },
	{ "/apex/com.android.art/javalib/arm64/boot.oat", 8000 },
	{ "/apex/com.android.art/lib64/libart.so", 6000 },
	{ "/data/app/~~Xa1/com.example.app-Yb2==/oat/arm64/base.odex", 6000 },
	{ "/system/lib64/libhwui.so", 4000 },
	{ "/data/local/tmp/perf.data_jit_app_cache:0-3000", 3000 },
	{ "/system/lib64/libandroid_runtime.so", 2000 },
	{ "/apex/com.android.runtime/lib64/bionic/libc.so", 1500 },
	{ "/system/lib64/libgui.so", 1500 },
	{ "/system/lib64/libbinder.so", 1200 },
};
#define NBIG (sizeof big / sizeof *big)

/* per library: path, symbol count, its symbols' addresses (relative to
 * the file's text, 0x1000) and lengths, where it is mapped and how long;
 * first: the library's first symbol among all of them */
static char lib_path[LIBS][96];
static unsigned lib_nsyms[LIBS], lib_first[LIBS + 1];
static uint64_t *sym_addr;
static uint32_t *sym_len;
static uint64_t lib_start[LIBS], lib_size[LIBS];

static unsigned char *buf;
static size_t len, cap;

static void put(const void *p, size_t n)
{
	if (len + n > cap) {
		cap = (len + n) * 2;
		buf = realloc(buf, cap);
		if (!buf)
			exit(1);
	}
	memcpy(buf + len, p, n);
	len += n;
}

static void u16(uint64_t v) { uint16_t x = (uint16_t)v; put(&x, 2); }
static void u32(uint64_t v) { uint32_t x = (uint32_t)v; put(&x, 4); }
static void u64(uint64_t v) { put(&v, 8); }
static void zeros(size_t n) { static const unsigned char z[256]; put(z, n); }

static void str_padded(const char *s)
{
	size_t n = strlen(s) + 1;
	put(s, n);
	zeros((8 - n % 8) % 8);
}

static void header(uint32_t type, uint16_t misc, size_t size)
{
	u32(type);
	u16(misc);
	u16(size);
}

static void comm(unsigned tid, const char *name)
{
	size_t n = strlen(name) + 1;
	header(3, 0, 8 + 8 + n + (8 - n % 8) % 8);
	u32(PID);
	u32(tid);
	str_padded(name);
}

static void mmap_rec(uint32_t pid, uint64_t start, uint64_t size, const char *path, uint16_t misc)
{
	size_t n = strlen(path) + 1;
	header(1, misc, 8 + 32 + n + (8 - n % 8) % 8);
	u32(pid);
	u32(pid);
	u64(start);
	u64(size);
	u64(0);
	str_padded(path);
}

static void mmap2_jit(uint32_t pid, uint64_t start, uint64_t size, const char *path)
{
	size_t n = strlen(path) + 1;
	header(10, 2, 8 + 64 + n + (8 - n % 8) % 8);
	u32(pid);
	u32(pid);
	u64(start);
	u64(size);
	u64(0);
	u32(0); u32(0); u64(0); u64(0);   /* maj, min, ino, ino_generation */
	u32(PROT_JIT_SYMFILE_MAP | 4);    /* prot: the mark, PROT_EXEC */
	u32(2);                           /* flags: MAP_PRIVATE */
	str_padded(path);
}

static uint64_t base_chain[BASES][MAX_DEPTH];
static unsigned base_depth[BASES], base_owner[BASES];

/* Libraries, their symbols (functions of varied size with gaps between
 * them) and where they are mapped, one after the other. */
static void make_libs(void)
{
	for (unsigned l = 0; l < LIBS; l++) {
		if (l < NBIG) {
			snprintf(lib_path[l], sizeof lib_path[l], "%s", big[l].path);
			lib_nsyms[l] = big[l].nsyms;
		} else {
			snprintf(lib_path[l], sizeof lib_path[l], "/system/lib64/libgen%u.so", l);
			lib_nsyms[l] = 2400 / (l - NBIG + 3) + 2;
		}
		lib_first[l + 1] = lib_first[l] + lib_nsyms[l];
	}
	sym_addr = gen_calloc(lib_first[LIBS], sizeof *sym_addr);
	sym_len = gen_calloc(lib_first[LIBS], sizeof *sym_len);
	uint64_t at = LIB_BASE;
	for (unsigned l = 0; l < LIBS; l++) {
		uint64_t a = 0x1000;
		for (unsigned i = lib_first[l]; i < lib_first[l + 1]; i++) {
			sym_len[i] = 0x20 + 4 * below(0x100);
			sym_addr[i] = a;
			a += sym_len[i] + 4 * below(0x100);
		}
		lib_start[l] = at;
		lib_size[l] = (a + 0xffff) & ~0xffffULL;
		at += lib_size[l] + 0x10000;
	}
}

/* An ip in symbol i (among all), `at` instructions into it (modulo its
 * length): the JIT cache's symbols are at absolute addresses, the others'
 * relative to the file, which is mapped from its start. */
static uint64_t sym_ip(unsigned i, unsigned at)
{
	unsigned l = 0;
	while (lib_first[l + 1] <= i)
		l++;
	return lib_start[l] + sym_addr[i] + 4 * (at % (sym_len[i] / 4));
}

/* A random symbol's index: uniform over every symbol, so a large file
 * gets frames in proportion to its table. */
static unsigned any_sym(void)
{
	return (unsigned)(rng() % lib_first[LIBS]);
}

/* A thread, weighted: main 30%, RenderThread 20%, the rest by 1 / rank. */
static unsigned pick_thread(void)
{
	unsigned r = below(100);
	if (r < 30)
		return 0;
	if (r < 50)
		return 1;
	for (;;) {
		unsigned t = 2 + below(THREADS - 2);
		if (below(t) < 2)
			return t;
	}
}

static void make_bases(void)
{
	/* base stacks, outermost caller first: each shares a prefix of an
	 * earlier one (a call tree, as real programs have), then goes its own
	 * way; the first four frames are the thread's entry (libc, libart) */
	for (unsigned b = 0; b < BASES; b++) {
		unsigned parent = b ? below(b) : 0, split = b ? 4 + below(base_depth[parent] - 4) : 0;
		base_owner[b] = b < THREADS ? b : pick_thread();
		base_depth[b] = below(40) == 0 ? 150 + below(200) : 24 + below(70);
		if (split > base_depth[b])
			split = base_depth[b];
		for (unsigned d = 0; d < base_depth[b]; d++) {
			if (d < split)
				base_chain[b][d] = base_chain[parent][d];
			else
				base_chain[b][d] = sym_ip(d < 4 ? lib_first[d == 0 ? 7 : 2] + d : any_sym(), 1 + below(64));
		}
	}
}

static void write_sample(uint64_t time, unsigned t, unsigned b, unsigned long s)
{
	unsigned extra = below(5), kframes = below(3) == 0 ? 3 + below(6) : 0;
	unsigned nr = base_depth[b] + extra + (kframes ? kframes + 2 : 0);
	header(9, kframes ? 1 : 2, 8 + 8 + 8 + 8 + 8 + 8 + 8 + 8ULL * nr);
	uint64_t leaf = kframes ? KBASE + 0x1000 + below(KSYMS) * KSYM_LEN + 8 : sym_ip((b * 7919) % lib_first[LIBS], below(64));
	u64(leaf);
	u32(PID);
	u32(PID + t);
	u64(time);
	u32(s % 8);
	u32(0);
	u64(1000000);
	u64(nr);
	if (kframes) {
		u64((uint64_t)-128);
		/* leaf first, so a deeper kernel stack adds frames at the leaf:
		 * its outer frames (the syscall entry and what follows) are
		 * those of a shallower one */
		for (unsigned k = kframes; k-- > 0;)
			u64(KBASE + 0x1000 + ((b + k * 131) % KSYMS) * KSYM_LEN + 8);
		u64((uint64_t)-512);
	}
	/* the leaves vary, among a few callees: the leaf's ip anywhere in
	 * its function, the return addresses after it fixed */
	for (unsigned e = 0; e < extra; e++)
		u64(sym_ip((b * 31 + e * 104729) % lib_first[LIBS], e ? b + e : below(64)));
	for (unsigned d = base_depth[b]; d-- > 0;)
		u64(base_chain[b][d]);
}

static void write_files(void)
{
	for (unsigned l = 0; l <= LIBS; l++) {
		size_t at = len;
		u32(0);
		bool kernel = l == LIBS;
		const char *path = kernel ? "[kernel.kallsyms]" : lib_path[l];
		put(path, strlen(path) + 1);
		u32(kernel ? 0 : 2);
		u64(kernel || l == JIT_LIB ? 0 : 0x1000);
		unsigned n = kernel ? KSYMS : lib_nsyms[l];
		u32(n);
		for (unsigned i = 0; i < n; i++) {
			char name[200], cls[96], m[48];
			unsigned k = kernel ? 0 : lib_first[l] + i;
			method_name(k, cls, sizeof cls, m, sizeof m);
			if (kernel)
				snprintf(name, sizeof name, "kfunc_%u", i);
			else if (l < 2 || l == 3 || l == JIT_LIB)   /* compiled Java */
				snprintf(name, sizeof name, "%s.%s", cls, m);
			else
				snprintf(name, sizeof name, "_ZN6native%zu%s%zu%sEi", strlen(strrchr(cls, '.') + 1),
					 strrchr(cls, '.') + 1, strlen(m), m);
			u64(kernel ? KBASE + 0x1000 + i * KSYM_LEN : l == JIT_LIB ? lib_start[l] + sym_addr[k] : sym_addr[k]);
			u32(kernel ? KSYM_LEN : sym_len[k]);
			put(name, strlen(name) + 1);
		}
		if (!kernel && l != JIT_LIB)
			u64(0x1000);
		uint32_t size = (uint32_t)(len - at - 4);
		memcpy(buf + at, &size, 4);
	}
}

int main(int argc, char **argv)
{
	unsigned long samples = count_and_seed(argc, argv, "gen_perfdata SAMPLES SEED", "sample count");
	/* header and one attr (120 bytes + its id section), filled in at the end */
	const uint64_t sample_type = 1 | 2 | 4 | 128 | 256 | 32;   /* IP TID TIME CPU PERIOD CALLCHAIN */
	zeros(104);
	u32(1); u32(120); u64(0); u64(1000000); u64(sample_type); u64(0); u64(0);
	zeros(120 - 48);
	u64(0); u64(0);
	size_t data_off = len;
	comm(PID, "com.example.app");
	for (unsigned t = 1; t < THREADS; t++) {
		char name[32];
		snprintf(name, sizeof name, t == 1 ? "RenderThread" : "worker-%u", t);
		comm(PID + t, name);
	}
	make_libs();
	mmap_rec(UINT32_MAX, KBASE, KSYMS * KSYM_LEN + 0x1000, "[kernel.kallsyms]", 1);
	for (unsigned l = 0; l < LIBS; l++) {
		if (l == JIT_LIB)
			mmap2_jit(PID, lib_start[l], lib_size[l], lib_path[l]);
		else
			mmap_rec(PID, lib_start[l], lib_size[l], lib_path[l], 2);
	}
	make_bases();
	uint64_t time = 1000000000;
	unsigned cur[THREADS], t = 0;
	for (unsigned k = 0; k < THREADS; k++)
		cur[k] = k;
	for (unsigned long s = 0; s < samples; s++) {
		if (below(2) == 0)   /* else the same thread again: one CPU's records come together */
			t = pick_thread();
		if (below(8) == 0) {   /* a thread runs its own part of the code */
			unsigned b = below(BASES);
			while (base_owner[b] != t)
				b = b + 1 < BASES ? b + 1 : 0;
			cur[t] = b;
		}
		write_sample(time += 250000, t, cur[t], s);
	}
	size_t data_size = len - data_off;
	/* feature table: FILE (128), META_INFO (129) */
	size_t table = len;
	zeros(32);
	size_t files_off = len;
	write_files();
	size_t files_size = len - files_off, meta_off = len;
	static const char meta[] = "event_type_info\0cpu-clock,1,0\0app_package_name\0com.example.app\0"
				   "trace_offcpu\0false";
	put(meta, sizeof meta);
	size_t meta_size = len - meta_off;
	uint64_t t4[4] = { files_off, files_size, meta_off, meta_size };
	memcpy(buf + table, t4, 32);
	uint64_t h[8] = { 104, 136, 104, 136, data_off, data_size, 0, 0 };
	memcpy(buf, "PERFILE2", 8);
	memcpy(buf + 8, h, sizeof h);
	buf[72 + 16] = 0x03;
	fwrite(buf, 1, len, stdout);
	free(buf);
	free(sym_addr);
	free(sym_len);
	return 0;
}
