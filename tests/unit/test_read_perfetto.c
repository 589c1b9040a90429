/* test_read_perfetto.c: the Perfetto reader's corner rules on traces
 * built here with the protobuf writer (core/pbwrite.h), read through the
 * reader table as the program reads them: ftrace marks from several CPUs
 * folded in time order, track events with interned names that a cleared
 * sequence forgets, a track described after its first event, CPU samples
 * (frames root first, a mapping's file and offset when a frame has no
 * function), heap dumps (each callstack weighs its last dump), the choice
 * between slices and samples, and damage. Field numbers: perfetto_trace.proto
 * (docs: ../shared/docs/perfetto-simpleperf.md). */
#include "harness.h"
#include "support.h"
#include "core/pbwrite.h"

#include <stdlib.h>
#include <zlib.h>

/* ---- building traces ---- */

static void print_event(struct af_buf *b, uint64_t ts_ns, uint64_t tid, const char *mark)
{
	size_t ev = af_pb_open(b, 2);             /* FtraceEventBundle.event */
	af_pb_uint(b, 1, ts_ns);
	af_pb_uint(b, 2, tid);
	size_t pr = af_pb_open(b, 3);             /* print */
	af_pb_str(b, 2, mark);
	af_pb_close(b, pr);
	af_pb_close(b, ev);
}

/* a TracePacket with a process tree: one process, one thread of it */
static void process_tree(struct af_buf *t, uint64_t pid, const char *cmdline, uint64_t tid, const char *name)
{
	size_t pkt = af_pb_open(t, 1), tree = af_pb_open(t, 2);
	size_t pr = af_pb_open(t, 1);
	af_pb_uint(t, 1, pid);
	af_pb_str(t, 3, cmdline);
	af_pb_close(t, pr);
	size_t th = af_pb_open(t, 2);
	af_pb_uint(t, 1, tid);
	af_pb_str(t, 2, name);
	af_pb_uint(t, 3, pid);
	af_pb_close(t, th);
	af_pb_close(t, tree);
	af_pb_close(t, pkt);
}

static void read_trace(struct read_result *r, const struct af_buf *t, const struct af_read_opts *o)
{
	read_input(r, t->data, t->len, "t.pftrace", NULL, o);
}

/* ---- ftrace marks ---- */

/* Two CPUs' bundles overlap in time: the thread moved from CPU 0 to CPU 1
 * and back. Its marks are folded in time order, not file order, and the
 * process tree names process and thread. */
void test_perfetto_ftrace_time_order(void)
{
	struct af_buf t;
	af_buf_init(&t);
	process_tree(&t, 10, "app", 11, "worker");
	size_t pkt = af_pb_open(&t, 1), bundle = af_pb_open(&t, 1);
	af_pb_uint(&t, 1, 0);                     /* cpu 0 */
	print_event(&t, 1000000, 11, "B|10|outer");
	print_event(&t, 4000000, 11, "E|10");
	af_pb_close(&t, bundle);
	af_pb_close(&t, pkt);
	pkt = af_pb_open(&t, 1);
	bundle = af_pb_open(&t, 1);
	af_pb_uint(&t, 1, 1);                     /* cpu 1 */
	print_event(&t, 2000000, 11, "B|10|inner");
	print_event(&t, 3000000, 11, "E|10");
	af_pb_close(&t, bundle);
	af_pb_close(&t, pkt);
	struct read_result r;
	read_trace(&r, &t, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.p.format, "perfetto");
	STR_EQ(r.folded, "app (10);worker (11);outer 2000\napp (10);worker (11);outer;inner 1000\n");
	read_result_release(&r);
	af_buf_release(&t);
}

/* ---- track events ---- */

static void track_event(struct af_buf *t, uint64_t seq, uint64_t ts_ns, uint64_t type, uint64_t name_iid,
			uint64_t track)
{
	size_t pkt = af_pb_open(t, 1);
	af_pb_uint(t, 8, ts_ns);
	af_pb_uint(t, 10, seq);
	size_t ev = af_pb_open(t, 11);
	af_pb_uint(t, 9, type);
	if (name_iid)
		af_pb_uint(t, 10, name_iid);
	af_pb_uint(t, 11, track);
	af_pb_close(t, ev);
	af_pb_close(t, pkt);
}

/* interned event name iid -> name on sequence seq; cleared: the packet
 * clears the sequence's incremental state first */
static void intern_name(struct af_buf *t, uint64_t seq, bool cleared, uint64_t iid, const char *name)
{
	size_t pkt = af_pb_open(t, 1);
	af_pb_uint(t, 10, seq);
	if (cleared)
		af_pb_uint(t, 13, 1);
	size_t id = af_pb_open(t, 12), en = af_pb_open(t, 2);
	af_pb_uint(t, 1, iid);
	af_pb_str(t, 2, name);
	af_pb_close(t, en);
	af_pb_close(t, id);
	af_pb_close(t, pkt);
}

/* a track for thread tid of process pid, with a process descriptor */
static void thread_track(struct af_buf *t, uint64_t uuid, uint64_t pid, uint64_t tid, const char *thread,
			 const char *process)
{
	size_t pkt = af_pb_open(t, 1), d = af_pb_open(t, 60);
	af_pb_uint(t, 1, uuid);
	size_t pr = af_pb_open(t, 3);
	af_pb_uint(t, 1, pid);
	af_pb_str(t, 6, process);
	af_pb_close(t, pr);
	size_t th = af_pb_open(t, 4);
	af_pb_uint(t, 1, pid);
	af_pb_uint(t, 2, tid);
	af_pb_str(t, 5, thread);
	af_pb_close(t, th);
	af_pb_close(t, d);
	af_pb_close(t, pkt);
}

enum { BEGIN = 1, END = 2 };

/* Interned names belong to their sequence: a sequence that clears its
 * state forgets them (the same iid then names another slice), and an iid
 * that only another sequence holds is unknown (counted). */
void test_perfetto_interning_per_sequence(void)
{
	struct af_buf t;
	af_buf_init(&t);
	thread_track(&t, 100, 20, 21, "render", "game");
	intern_name(&t, 1, true, 1, "draw");
	intern_name(&t, 2, true, 7, "elsewhere");
	track_event(&t, 1, 1000000, BEGIN, 1, 100);
	track_event(&t, 1, 3000000, END, 0, 100);
	intern_name(&t, 1, true, 2, "swap");      /* cleared: iid 1 is gone */
	track_event(&t, 1, 5000000, BEGIN, 2, 100);
	track_event(&t, 1, 6000000, END, 0, 100);
	track_event(&t, 1, 6000000, BEGIN, 1, 100);
	track_event(&t, 1, 6500000, END, 0, 100);
	track_event(&t, 1, 7000000, BEGIN, 7, 100);   /* sequence 2's iid */
	track_event(&t, 1, 7500000, END, 0, 100);
	struct read_result r;
	read_trace(&r, &t, NULL);
	INT_EQ(r.rc, 0);
	OK(r.folded && strstr(r.folded, "game (20);render (21);draw 2000\n") != NULL);
	OK(r.folded && strstr(r.folded, "game (20);render (21);swap 1000\n") != NULL);
	OK(r.folded && strstr(r.folded, "elsewhere") == NULL);
	const struct af_warning *w = find_warning(&r.p, "references to interned data");
	OK(w && w->count == 2);
	read_result_release(&r);
	af_buf_release(&t);
}

/* A track described after its first event: the events wait for the
 * descriptor and are drawn on its thread (not dropped, not on another). */
void test_perfetto_late_track_descriptor(void)
{
	struct af_buf t;
	af_buf_init(&t);
	intern_name(&t, 1, true, 1, "early");
	track_event(&t, 1, 1000000, BEGIN, 1, 300);
	track_event(&t, 1, 4000000, END, 0, 300);
	thread_track(&t, 300, 30, 31, "late", "proc");
	struct read_result r;
	read_trace(&r, &t, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "proc (30);late (31);early 3000\n");
	OK(find_warning(&r.p, "track events on a track the trace never describes") == NULL);
	read_result_release(&r);
	af_buf_release(&t);
}

/* ---- CPU samples ---- */

/* interned data for samples on sequence seq: functions 1 "main" and 2
 * "_ZN3foo3barEv" (mangled), mapping 5 with path "/system/lib64/libc.so",
 * frames 1 (main), 2 (foo::bar), 3 (no function: libc.so+0x1f0),
 * callstack 9 = 1 > 2 > 3 root first */
static void sample_interning(struct af_buf *t, uint64_t seq)
{
	size_t pkt = af_pb_open(t, 1);
	af_pb_uint(t, 10, seq);
	af_pb_uint(t, 13, 1);
	size_t id = af_pb_open(t, 12), e;
	const char *fn[] = { "main", "_ZN3foo3barEv" };
	for (uint64_t i = 0; i < 2; i++) {
		e = af_pb_open(t, 5);
		af_pb_uint(t, 1, i + 1);
		af_pb_str(t, 2, fn[i]);
		af_pb_close(t, e);
	}
	e = af_pb_open(t, 17);                    /* mapping_paths */
	af_pb_uint(t, 1, 4);
	af_pb_str(t, 2, "libc.so");
	af_pb_close(t, e);
	e = af_pb_open(t, 19);                    /* mappings: path_string_ids 7 */
	af_pb_uint(t, 1, 5);
	af_pb_uint(t, 7, 4);
	af_pb_close(t, e);
	for (uint64_t i = 1; i <= 3; i++) {       /* frames */
		e = af_pb_open(t, 6);
		af_pb_uint(t, 1, i);
		if (i < 3)
			af_pb_uint(t, 2, i);
		af_pb_uint(t, 3, 5);
		af_pb_uint(t, 4, 0x1f0);
		af_pb_close(t, e);
	}
	e = af_pb_open(t, 7);                     /* callstack 9, frames root first */
	af_pb_uint(t, 1, 9);
	uint64_t frames[] = { 1, 2, 3 };
	af_pb_packed(t, 2, frames, 3);
	af_pb_close(t, e);
	af_pb_close(t, id);
	af_pb_close(t, pkt);
}

static void perf_sample(struct af_buf *t, uint64_t seq, uint64_t pid, uint64_t tid, uint64_t iid,
			uint64_t count)
{
	size_t pkt = af_pb_open(t, 1);
	af_pb_uint(t, 10, seq);
	size_t s = af_pb_open(t, 66);
	af_pb_uint(t, 2, pid);
	af_pb_uint(t, 3, tid);
	af_pb_uint(t, 4, iid);
	if (count)
		af_pb_uint(t, 6, count);
	af_pb_close(t, s);
	af_pb_close(t, pkt);
}

/* Frames root first, demangled, a frame without a function as its
 * mapping's file and offset; timebase_count weighs a sample (1 without);
 * a callstack the sequence does not hold is "[no callstack]" (counted);
 * threads with no name "thread-<tid>". A trace without slices draws its
 * samples; with slices, samples only with --cpu-samples. */
void test_perfetto_cpu_samples(void)
{
	struct af_buf t;
	af_buf_init(&t);
	process_tree(&t, 40, "server", 41, "io");
	sample_interning(&t, 3);
	perf_sample(&t, 3, 40, 41, 9, 0);
	perf_sample(&t, 3, 40, 41, 9, 4);
	perf_sample(&t, 3, 40, 42, 8, 0);         /* callstack 8: not interned */
	struct read_result r;
	read_trace(&r, &t, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded,
	       "server (40);io (41);main;foo::bar();libc.so+0x1f0 5\n"
	       "server (40);thread-42 (42);[no callstack] 1\n");
	const struct af_warning *w = find_warning(&r.p, "samples whose callstack is not interned");
	OK(w && w->count == 1);
	read_result_release(&r);
	/* with a slice the slices are drawn, unless --cpu-samples */
	size_t pkt = af_pb_open(&t, 1), bundle = af_pb_open(&t, 1);
	print_event(&t, 1000000, 41, "B|40|slice");
	print_event(&t, 2000000, 41, "E|40");
	af_pb_close(&t, bundle);
	af_pb_close(&t, pkt);
	read_trace(&r, &t, NULL);
	STR_EQ(r.folded, "server (40);io (41);slice 1000\n");
	read_result_release(&r);
	struct af_read_opts o = { .cpu_samples = true };
	read_trace(&r, &t, &o);
	OK(r.folded && strstr(r.folded, "server (40);io (41);main;foo::bar();libc.so+0x1f0 5\n") == r.folded);
	read_result_release(&r);
	af_buf_release(&t);
}

/* ---- heap profiles ---- */

/* a ProfilePacket (Android 10 form: its own strings, frames, callstacks)
 * with one dump of process pid: callstack 1 (alloc), allocated/freed */
static void heap_packet(struct af_buf *t, uint64_t pid, uint64_t allocated, uint64_t freed, bool with_tables)
{
	size_t pkt = af_pb_open(t, 1);
	af_pb_uint(t, 10, 5);
	size_t pp = af_pb_open(t, 37), e;
	if (with_tables) {
		e = af_pb_open(t, 1);
		af_pb_uint(t, 1, 1);
		af_pb_str(t, 2, "malloc_big");
		af_pb_close(t, e);
		e = af_pb_open(t, 2);
		af_pb_uint(t, 1, 1);
		af_pb_uint(t, 2, 1);
		af_pb_close(t, e);
		e = af_pb_open(t, 3);
		af_pb_uint(t, 1, 1);
		af_pb_uint(t, 2, 1);
		af_pb_close(t, e);
	}
	size_t dump = af_pb_open(t, 5);
	af_pb_uint(t, 1, pid);
	size_t s = af_pb_open(t, 2);
	af_pb_uint(t, 1, 1);
	af_pb_uint(t, 2, allocated);
	af_pb_uint(t, 3, freed);
	af_pb_close(t, s);
	af_pb_close(t, dump);
	af_pb_close(t, pp);
	af_pb_close(t, pkt);
}

/* A dump's numbers are totals since profiling began: a callstack weighs
 * what its last dump says (not the sum of its dumps); --heap picks the
 * value; a stack that freed more than it allocated weighs 0 (counted). */
void test_perfetto_heap_last_dump(void)
{
	struct af_buf t;
	af_buf_init(&t);
	heap_packet(&t, 50, 100, 10, true);
	heap_packet(&t, 50, 300, 100, false);
	struct read_result r;
	read_trace(&r, &t, NULL);
	INT_EQ(r.rc, 0);
	OK(r.folded && strstr(r.folded, ";malloc_big 200\n") != NULL);
	read_result_release(&r);
	struct af_read_opts o = { .heap = AF_HEAP_ALLOCATED };
	read_trace(&r, &t, &o);
	OK(r.folded && strstr(r.folded, ";malloc_big 300\n") != NULL);
	read_result_release(&r);
	heap_packet(&t, 50, 5, 9, false);         /* a damaged last dump */
	read_trace(&r, &t, NULL);
	INT_EQ(r.rc, -1);
	OK(strstr(r.error, "nothing to draw") != NULL);
	read_result_release(&r);
	af_buf_release(&t);
}

/* ---- damage ---- */

/* A trace cut inside a packet keeps the packets before it (with a note);
 * a malformed field inside a packet is an error at its offset; compressed
 * packets read as if they were not. */
void test_perfetto_damage_and_compression(void)
{
	struct af_buf t;
	af_buf_init(&t);
	process_tree(&t, 10, "app", 11, "worker");
	size_t pkt = af_pb_open(&t, 1), bundle = af_pb_open(&t, 1);
	print_event(&t, 1000000, 11, "B|10|a");
	print_event(&t, 2000000, 11, "E|10");
	af_pb_close(&t, bundle);
	af_pb_close(&t, pkt);
	size_t whole = t.len;
	pkt = af_pb_open(&t, 1);
	bundle = af_pb_open(&t, 1);
	print_event(&t, 3000000, 11, "B|10|b");
	print_event(&t, 4000000, 11, "E|10");
	af_pb_close(&t, bundle);
	af_pb_close(&t, pkt);
	struct read_result r;
	read_input(&r, t.data, t.len - 3, "t.pftrace", NULL, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "app (10);worker (11);a 1000\n");
	read_result_release(&r);
	/* the second packet's bundle claims more than the packet holds */
	struct af_buf bad;
	af_buf_init(&bad);
	af_buf_add(&bad, t.data, t.len);
	OK((uint8_t)bad.data[whole] == 0x0a);     /* packet tag; length; bundle tag 0x0a; length */
	bad.data[whole + 3]++;
	read_input(&r, bad.data, bad.len, "t.pftrace", NULL, NULL);
	INT_EQ(r.rc, -1);
	char want[80];
	snprintf(want, sizeof want, "t.pftrace: offset 0x%zx: malformed protobuf", whole + 2);
	OK(strncmp(r.error, want, strlen(want)) == 0);
	if (strncmp(r.error, want, strlen(want)) != 0)
		printf("    got: %s\n    want: %s\n", r.error, want);
	read_result_release(&r);
	af_buf_release(&bad);
	/* the packets of the trace deflated into compressed_packets (50) */
	uint8_t z[1024];
	uLongf zn = sizeof z;
	OK(compress2(z, &zn, (const Bytef *)t.data, t.len, 6) == Z_OK);
	struct af_buf c;
	af_buf_init(&c);
	pkt = af_pb_open(&c, 1);
	af_pb_bytes(&c, 50, z, zn);
	af_pb_close(&c, pkt);
	read_trace(&r, &c, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "app (10);worker (11);a 1000\napp (10);worker (11);b 1000\n");
	read_result_release(&r);
	af_buf_release(&c);
	af_buf_release(&t);
}
