/* test_read_perfdata.c: the perf.data reader's corner rules on recordings
 * built here (the layout of simpleperf's record_file_format.h and
 * linux/perf_event.h, as tests/data/perfdata/mkperf.py writes them), read
 * through the reader table: callchains leaf first through the process's
 * maps and the FILE feature's symbol tables (demangled), context markers
 * skipped, kernel frames marked, an ip outside every map, process >
 * thread roots from COMM, FORK handing maps and names on, a map splitting
 * an older one, --event among several attrs, and damage with offsets. */
#include "harness.h"
#include "support.h"
#include "core/buf.h"

#include <stdlib.h>

enum { IDENTIFIER = 1 << 16, IP = 1, TID = 2, CALLCHAIN = 32, PERIOD = 256 };
#define SAMPLE_TYPE (IDENTIFIER | IP | TID | PERIOD | CALLCHAIN)
#define CTX_KERNEL ((uint64_t)-128)
#define CTX_USER ((uint64_t)-512)

static void le(struct af_buf *b, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		af_buf_putc(b, (char)(i < 8 ? v >> (8 * i) : 0));
}

static void cstr(struct af_buf *b, const char *s)
{
	af_buf_add(b, s, strlen(s) + 1);
}

/* a record: header, body, padded to 8 bytes */
static void rec(struct af_buf *d, uint32_t type, uint16_t misc, const struct af_buf *body)
{
	size_t pad = -body->len % 8;
	le(d, type, 4);
	le(d, misc, 2);
	le(d, 8 + body->len + pad, 2);
	af_buf_add(d, body->data, body->len);
	le(d, 0, (unsigned)pad);
}

static void comm(struct af_buf *d, uint32_t pid, uint32_t tid, const char *name)
{
	struct af_buf b;
	af_buf_init(&b);
	le(&b, pid, 4);
	le(&b, tid, 4);
	cstr(&b, name);
	rec(d, 3, 0, &b);
	af_buf_release(&b);
}

static void mmap_rec(struct af_buf *d, uint32_t pid, uint64_t addr, uint64_t len, const char *path, uint16_t misc)
{
	struct af_buf b;
	af_buf_init(&b);
	le(&b, pid, 4);
	le(&b, pid, 4);
	le(&b, addr, 8);
	le(&b, len, 8);
	le(&b, 0, 8);
	cstr(&b, path);
	rec(d, 1, misc, &b);
	af_buf_release(&b);
}

static void fork_rec(struct af_buf *d, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct af_buf b;
	af_buf_init(&b);
	le(&b, pid, 4);
	le(&b, ppid, 4);
	le(&b, tid, 4);
	le(&b, ptid, 4);
	le(&b, 0, 8);
	rec(d, 7, 0, &b);
	af_buf_release(&b);
}

/* a sample of event id `id`: ips leaf first, the first also the sample's ip */
static void sample(struct af_buf *d, uint64_t id, uint32_t pid, uint32_t tid, uint64_t period,
		   const uint64_t *ips, size_t n)
{
	struct af_buf b;
	af_buf_init(&b);
	le(&b, id, 8);
	le(&b, ips[0], 8);
	le(&b, pid, 4);
	le(&b, tid, 4);
	le(&b, period, 8);
	le(&b, n, 8);
	for (size_t i = 0; i < n; i++)
		le(&b, ips[i], 8);
	rec(d, 9, 2, &b);
	af_buf_release(&b);
}

/* libnative.so's FILE feature entry: an ELF file (type 2) whose symbols
 * start at vaddr 0x1000 (mapped at 0x7000) */
static void files(struct af_buf *f)
{
	static const struct { uint64_t addr; uint32_t len; const char *name; } syms[] = {
		{ 0x1000, 0x100, "_Z4mainv" }, { 0x1100, 0x80, "_Z4drawi" },
		{ 0x1200, 0x20, "_Z12render_framev" }, { 0x1300, 0x20, "com.example.app.Native.call" },
	};
	struct af_buf e;
	af_buf_init(&e);
	cstr(&e, "/data/app/lib/arm64/libnative.so");
	le(&e, 2, 4);
	le(&e, 0x1000, 8);
	le(&e, 4, 4);
	for (size_t i = 0; i < 4; i++) {
		le(&e, syms[i].addr, 8);
		le(&e, syms[i].len, 4);
		cstr(&e, syms[i].name);
	}
	le(&e, 0, 8);
	le(f, e.len, 4);
	af_buf_add(f, e.data, e.len);
	af_buf_release(&e);
}

/* The whole file: nattrs attrs (attr i has sample id 1000 + i), the data
 * records, the FILE and META_INFO features (event_type_info names the
 * attrs, one "name,type,config" line each). */
static void assemble(struct af_buf *out, const struct af_buf *data, size_t nattrs, const char *events)
{
	struct af_buf fl, meta;
	af_buf_init(&fl);
	af_buf_init(&meta);
	files(&fl);
	cstr(&meta, "event_type_info");
	cstr(&meta, events);
	cstr(&meta, "app_package_name");
	cstr(&meta, "com.example.app");
	size_t attr_size = 120 + 16, attrs_off = 104, ids_off = attrs_off + nattrs * attr_size;
	size_t data_off = ids_off + 8 * nattrs, table = data_off + data->len;
	size_t files_off = table + 32, meta_off = files_off + fl.len;
	af_buf_init(out);
	af_buf_add(out, "PERFILE2", 8);
	uint64_t h[] = { 104, attr_size, attrs_off, nattrs * attr_size, data_off, data->len, 0, 0 };
	for (size_t i = 0; i < 8; i++)
		le(out, h[i], 8);
	for (size_t i = 0; i < 32; i++)
		le(out, i == 16 ? 0x03 : 0, 1);   /* bits 128 (FILE), 129 (META_INFO) */
	for (size_t i = 0; i < nattrs; i++) {
		uint64_t a[] = { 1 | (uint64_t)120 << 32, i == 0 ? 0 : 3, 4000, SAMPLE_TYPE, 0, 0 };
		for (size_t k = 0; k < 6; k++)
			le(out, a[k], 8);
		le(out, 0, 120 - 48);
		le(out, ids_off + 8 * i, 8);
		le(out, 8, 8);
	}
	for (size_t i = 0; i < nattrs; i++)
		le(out, 1000 + i, 8);
	af_buf_add(out, data->data, data->len);
	uint64_t t[] = { files_off, fl.len, meta_off, meta.len };
	for (size_t i = 0; i < 4; i++)
		le(out, t[i], 8);
	af_buf_add(out, fl.data, fl.len);
	af_buf_add(out, meta.data, meta.len);
	af_buf_release(&fl);
	af_buf_release(&meta);
}

/* two threads of com.example.app, libnative.so and the kernel mapped */
static void opening(struct af_buf *d)
{
	comm(d, 100, 100, "com.example.app");
	comm(d, 100, 101, "RenderThread");
	mmap_rec(d, 100, 0x7000, 0x2000, "/data/app/lib/arm64/libnative.so", 2);
	mmap_rec(d, 0xffffffff, 0xffff0000, 0x10000, "[kernel.kallsyms]", 1);
}

static void run(struct read_result *r, const struct af_buf *file, const char *event)
{
	struct af_read_opts o = { .event = event };
	read_input(r, file->data, file->len, "t.data", NULL, &o);
}

/* Leaf first, symbolized through the map and the embedded symbols,
 * demangled; context markers are not frames; a kernel frame without a
 * symbol is "[kernel.kallsyms][+addr]_[k]"; an ip outside every map is
 * "[unknown][+ip]" (counted, and its chain counted as stopped early);
 * periods weigh; COMM names threads, the process as its main thread. */
void test_perfdata_symbols_and_roots(void)
{
	struct af_buf d, file;
	af_buf_init(&d);
	opening(&d);
	const uint64_t a[] = { 0x7110, 0x7210, 0x7010 }, k[] = { CTX_KERNEL, 0xffff0100, CTX_USER, 0x7010 },
		       u[] = { 0x9000 };
	sample(&d, 1000, 100, 100, 1000, a, 3);
	sample(&d, 1000, 100, 101, 250, k, 4);
	sample(&d, 1000, 100, 101, 125, u, 1);
	sample(&d, 1000, 100, 100, 5, a, 3);
	assemble(&file, &d, 1, "cpu-clock,1,0");
	struct read_result r;
	run(&r, &file, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.p.format, "perf-data");
	STR_EQ(r.folded,
	       "com.example.app (100);RenderThread (101);[unknown][+9000] 125\n"
	       "com.example.app (100);RenderThread (101);main();[kernel.kallsyms][+ffff0100]_[k] 250\n"
	       "com.example.app (100);com.example.app (100);main();render_frame();draw(int) 1005\n");
	STR_EQ(r.p.unit, "ns");
	const struct af_warning *w = find_warning(&r.p, "frames outside every mapped file");
	OK(w && w->count == 1);
	w = find_warning(&r.p, "callchains whose outermost caller is outside every map");
	OK(w && w->count == 1);
	read_result_release(&r);
	af_buf_release(&d);
	af_buf_release(&file);
}

/* FORK: a new process gets its parent's maps and name, a new thread its
 * process's maps and its parent thread's name. A map inside an older one
 * splits it: what is left on both sides stays mapped (the child keeps
 * what it was given). */
void test_perfdata_fork_and_maps(void)
{
	struct af_buf d, file;
	af_buf_init(&d);
	opening(&d);
	const uint64_t draw[] = { 0x7110, 0x7010 }, render[] = { 0x7210, 0x7010 }, call[] = { 0x7310, 0x7010 };
	fork_rec(&d, 200, 100, 200, 100);
	sample(&d, 1000, 200, 200, 10, draw, 2);
	fork_rec(&d, 200, 200, 201, 200);
	sample(&d, 1000, 200, 201, 5, call, 2);
	mmap_rec(&d, 100, 0x7100, 0x80, "/data/app/other.so", 2);
	sample(&d, 1000, 100, 100, 7, render, 2);
	sample(&d, 1000, 100, 100, 3, draw, 2);
	sample(&d, 1000, 200, 200, 2, draw, 2);
	assemble(&file, &d, 1, "cpu-clock,1,0");
	struct read_result r;
	run(&r, &file, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded,
	       "com.example.app (100);com.example.app (100);main();/data/app/other.so[+10] 3\n"
	       "com.example.app (100);com.example.app (100);main();render_frame() 7\n"
	       "com.example.app (200);com.example.app (200);main();draw(int) 12\n"
	       "com.example.app (200);com.example.app (201);main();com.example.app.Native.call 5\n");
	read_result_release(&r);
	af_buf_release(&d);
	af_buf_release(&file);
}

/* Several attrs: a sample's id says its event; the first is drawn by
 * default, --event picks another; the others are counted, not drawn. */
void test_perfdata_event_pick(void)
{
	struct af_buf d, file;
	af_buf_init(&d);
	opening(&d);
	const uint64_t draw[] = { 0x7110, 0x7010 }, call[] = { 0x7310, 0x7010 };
	sample(&d, 1000, 100, 100, 40, draw, 2);
	sample(&d, 1001, 100, 100, 9, call, 2);
	sample(&d, 1001, 100, 100, 1, call, 2);
	assemble(&file, &d, 2, "cpu-clock,1,0\ncache-misses,0,3");
	struct read_result r;
	run(&r, &file, NULL);
	STR_EQ(r.folded, "com.example.app (100);com.example.app (100);main();draw(int) 40\n");
	STR_EQ(af_profile_get_info(&r.p, "samples"), "1 drawn, 2 of other event types");
	read_result_release(&r);
	run(&r, &file, "cache-misses");
	STR_EQ(r.folded, "com.example.app (100);com.example.app (100);main();com.example.app.Native.call 10\n");
	STR_EQ(r.p.unit, "events");
	read_result_release(&r);
	af_buf_release(&d);
	af_buf_release(&file);
}

/* A record cut short, a record whose size is below its header, a data
 * section past the end: one-line errors naming the offset. */
void test_perfdata_damage(void)
{
	struct af_buf d, file;
	af_buf_init(&d);
	opening(&d);
	size_t at = d.len;
	const uint64_t draw[] = { 0x7110, 0x7010 };
	sample(&d, 1000, 100, 100, 40, draw, 2);
	assemble(&file, &d, 1, "cpu-clock,1,0");
	size_t data_off = 104 + 136 + 8;
	struct read_result r;
	/* the sample claims a callchain of 2^40 entries */
	size_t nr = data_off + at + 8 + 8 + 8 + 8 + 8;
	file.data[nr + 5] = 1;
	run(&r, &file, NULL);
	INT_EQ(r.rc, -1);
	char want[120];
	snprintf(want, sizeof want, "t.data: offset 0x%zx: ", data_off + at);
	OK(strncmp(r.error, want, strlen(want)) == 0);
	if (strncmp(r.error, want, strlen(want)) != 0)
		printf("    got: %s\n    want: %s...\n", r.error, want);
	read_result_release(&r);
	file.data[nr + 5] = 0;
	/* a record of 4 bytes: less than its own header */
	file.data[data_off + at + 6] = 4;
	run(&r, &file, NULL);
	INT_EQ(r.rc, -1);
	OK(strncmp(r.error, want, strlen(want)) == 0);
	read_result_release(&r);
	file.data[data_off + at + 6] = (char)(8 + 48);
	/* the data section runs past the end of the file */
	file.data[48 + 2] = 0x10;
	run(&r, &file, NULL);
	STR_EQ(r.error, "t.data: offset 0x28: malformed perf.data: a section runs past the end of the file");
	read_result_release(&r);
	af_buf_release(&d);
	af_buf_release(&file);
}
