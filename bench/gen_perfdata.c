/* gen_perfdata.c: a perf.data recording like simpleperf's, deterministic
 * from a seed.
 *
 *   gen_perfdata SAMPLES SEED > out.data
 *
 * One app process with 12 threads; 300 mapped libraries, each with an
 * embedded symbol table (the FILE feature) of 400 symbols, and a kernel
 * with 3000; samples with callchains 20-70 frames deep (leaf first, a third
 * with kernel frames after PERF_CONTEXT_KERNEL, deeper ones longer at the
 * leaf as real kernel stacks are), built from 4000 base
 * stacks and a few callees each so that, as in real recordings, samples
 * share their callers and land on a bounded set of leaves. A thread stays
 * in one base stack for a run of samples (1 in 8 moves it to another of
 * its own), as a thread sampled every 250 us (simpleperf's 4000 Hz) is
 * still in the same call path at the next sample most of the time.
 * SAMPLES 260000 makes about 100 MB. */
#include "gen.h"

#include <stdbool.h>
#include <string.h>

enum { LIBS = 300, SYMS = 400, KSYMS = 3000, BASES = 4000, THREADS = 12, PID = 4000 };
#define LIB_BASE 0x7000000000ULL
#define LIB_SPAN 0x100000ULL
#define SYM_LEN 0xa0ULL
#define KBASE 0xffffffc010000000ULL

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

static uint64_t base_chain[BASES][64];
static unsigned base_depth[BASES];

static uint64_t lib_ip(unsigned lib, unsigned sym)
{
	return LIB_BASE + lib * LIB_SPAN + 0x1000 + sym * SYM_LEN + 4 + below(0x90);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen_perfdata SAMPLES SEED\n");
		return 2;
	}
	unsigned long samples = parse_arg(argv[1], "sample count");
	rng_state = parse_arg(argv[2], "seed");
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
	mmap_rec(UINT32_MAX, KBASE, KSYMS * SYM_LEN + 0x1000, "[kernel.kallsyms]", 1);
	for (unsigned l = 0; l < LIBS; l++) {
		char path[96];
		snprintf(path, sizeof path, "/system/lib64/libgen%u.so", l);
		mmap_rec(PID, LIB_BASE + l * LIB_SPAN, LIB_SPAN, path, 2);
	}
	/* base stacks, outermost caller first: each shares a prefix of an
	 * earlier one (a call tree, as real programs have), then goes its own way */
	for (unsigned b = 0; b < BASES; b++) {
		unsigned parent = b ? below(b) : 0, split = b ? 4 + below(base_depth[parent] - 4) : 0;
		base_depth[b] = 15 + below(45);
		if (split > base_depth[b])
			split = base_depth[b];
		for (unsigned d = 0; d < base_depth[b]; d++) {
			if (d < split)
				base_chain[b][d] = base_chain[parent][d];
			else
				base_chain[b][d] = d < 4 ? lib_ip(d, 0) : lib_ip(below(LIBS), below(SYMS));
		}
	}
	uint64_t time = 1000000000;
	unsigned cur[THREADS];
	for (unsigned t = 0; t < THREADS; t++)
		cur[t] = t;
	for (unsigned long s = 0; s < samples; s++) {
		unsigned t = below(THREADS);
		if (below(8) == 0)   /* a thread runs its own part of the code */
			cur[t] = below(BASES / THREADS) * THREADS + t;
		unsigned b = cur[t], extra = below(5), kframes = below(3) == 0 ? 3 + below(6) : 0;
		unsigned nr = base_depth[b] + extra + (kframes ? kframes + 2 : 0);
		header(9, kframes ? 1 : 2, 8 + 8 + 8 + 8 + 8 + 8 + 8 + 8ULL * nr);
		uint64_t leaf = kframes ? KBASE + 0x1000 + below(KSYMS) * SYM_LEN + 8 : lib_ip(b % LIBS, 8 + below(8));
		u64(leaf);
		u32(PID);
		u32(PID + t);
		u64(time += 1000000);
		u32(s % 8);
		u32(0);
		u64(1000000);
		u64(nr);
		if (kframes) {
			u64((uint64_t)-128);
			/* leaf first, so a deeper kernel stack adds frames at
			 * the leaf: its outer frames (the syscall entry and
			 * what follows) are those of a shallower one */
			for (unsigned k = kframes; k-- > 0;)
				u64(KBASE + 0x1000 + ((b + k * 131) % KSYMS) * SYM_LEN + 8);
			u64((uint64_t)-512);
		}
		for (unsigned e = 0; e < extra; e++)   /* the leaves vary, among a few callees */
			u64(lib_ip((b + e) % LIBS, (b + e) % 4));
		for (unsigned d = base_depth[b]; d-- > 0;)
			u64(base_chain[b][d]);
	}
	size_t data_size = len - data_off;
	/* feature table: FILE (128), META_INFO (129) */
	size_t table = len;
	zeros(32);
	size_t files_off = len;
	for (unsigned l = 0; l <= LIBS; l++) {
		size_t at = len;
		u32(0);
		char path[96];
		bool kernel = l == LIBS;
		snprintf(path, sizeof path, kernel ? "[kernel.kallsyms]" : "/system/lib64/libgen%u.so", l);
		put(path, strlen(path) + 1);
		u32(kernel ? 0 : 2);
		u64(kernel ? 0 : 0x1000);
		unsigned n = kernel ? KSYMS : SYMS;
		u32(n);
		for (unsigned i = 0; i < n; i++) {
			char name[160], cls[96], m[48];
			method_name(l * SYMS + i, cls, sizeof cls, m, sizeof m);
			if (kernel)
				snprintf(name, sizeof name, "kfunc_%u", i);
			else
				snprintf(name, sizeof name, "native::%s::%s(int)", strrchr(cls, '.') + 1, m);
			u64((kernel ? KBASE + 0x1000 : 0x1000) + i * SYM_LEN);
			u32(SYM_LEN);
			put(name, strlen(name) + 1);
		}
		if (!kernel)
			u64(0x1000);
		uint32_t size = (uint32_t)(len - at - 4);
		memcpy(buf + at, &size, 4);
	}
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
	return 0;
}
