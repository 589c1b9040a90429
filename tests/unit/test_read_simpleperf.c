/* test_read_simpleperf.c: the simpleperf report-sample reader's corner
 * rules on files built here (cmd_report_sample.proto; docs:
 * ../shared/docs/perfetto-simpleperf.md), read through the reader table:
 * callchains leaf first, frames without a symbol as "file[+offset]",
 * process > thread roots with names from Thread records (the process as
 * its main thread), --event among the MetaInfo's event types, off-CPU
 * samples weighing the time to the thread's next sample, and the record
 * framing's damage. */
#include "harness.h"
#include "support.h"
#include "core/pbwrite.h"

#include <stdlib.h>

/* a report-sample file: the header, then records appended by record() */
static void header(struct af_buf *f)
{
	af_buf_init(f);
	af_buf_add(f, "SIMPLEPERF\x01\x00", 12);
}

/* append the Record in r (its one field already written) with its length */
static void record(struct af_buf *f, struct af_buf *r)
{
	uint8_t n[4] = { (uint8_t)r->len, (uint8_t)(r->len >> 8), (uint8_t)(r->len >> 16), (uint8_t)(r->len >> 24) };
	af_buf_add(f, n, 4);
	af_buf_add(f, r->data, r->len);
	r->len = 0;
}

static void end(struct af_buf *f)
{
	af_buf_add(f, "\0\0\0\0", 4);
}

static void file_rec(struct af_buf *f, struct af_buf *r, uint64_t id, const char *path, const char *const *syms,
		     size_t n)
{
	size_t m = af_pb_open(r, 3);
	af_pb_uint(r, 1, id);
	af_pb_str(r, 2, path);
	for (size_t i = 0; i < n; i++)
		af_pb_str(r, 3, syms[i]);
	af_pb_close(r, m);
	record(f, r);
}

static void thread_rec(struct af_buf *f, struct af_buf *r, uint64_t tid, uint64_t pid, const char *name)
{
	size_t m = af_pb_open(r, 4);
	af_pb_uint(r, 1, tid);
	af_pb_uint(r, 2, pid);
	af_pb_str(r, 3, name);
	af_pb_close(r, m);
	record(f, r);
}

static void meta_rec(struct af_buf *f, struct af_buf *r, const char *const *events, size_t n, bool offcpu)
{
	size_t m = af_pb_open(r, 5);
	for (size_t i = 0; i < n; i++)
		af_pb_str(r, 1, events[i]);
	if (offcpu)
		af_pb_uint(r, 6, 1);
	af_pb_close(r, m);
	record(f, r);
}

/* a callchain entry: vaddr, file id, symbol id (-1: none) */
struct ent { uint64_t vaddr, file; int64_t symbol; };

static void sample_rec(struct af_buf *f, struct af_buf *r, uint64_t time, uint64_t tid, uint64_t count,
		       uint64_t type, const struct ent *chain, size_t n)
{
	size_t m = af_pb_open(r, 1);
	af_pb_uint(r, 1, time);
	af_pb_uint(r, 2, tid);
	for (size_t i = 0; i < n; i++) {
		size_t e = af_pb_open(r, 3);
		af_pb_uint(r, 1, chain[i].vaddr);
		af_pb_uint(r, 2, chain[i].file);
		af_pb_uint(r, 3, (uint64_t)chain[i].symbol);   /* int32 -1: ten bytes */
		af_pb_close(r, e);
	}
	af_pb_uint(r, 4, count);
	af_pb_uint(r, 5, type);
	af_pb_close(r, m);
	record(f, r);
}

static void run(struct read_result *res, const struct af_buf *f, const char *event)
{
	struct af_read_opts o = { .event = event };
	read_input(res, f->data, f->len, "t.trace", NULL, &o);
}

static const char *const libapp_syms[] = { "main", "work" };

/* Callchains are leaf first: folded from the last entry. A symbol id of
 * -1 is "path[+vaddr]"; one past the file's symbols the same, counted; a
 * file never described "[file N][+vaddr]"; no callchain "[no
 * callchain]" (counted). The process is named as its main thread; a
 * thread without a Thread record is "thread-<tid>" in "process-<tid>". */
void test_simpleperf_frames_and_roots(void)
{
	struct af_buf f, r;
	header(&f);
	af_buf_init(&r);
	/* samples before the files and threads they use, as simpleperf writes */
	const struct ent chain[] = { { 0x1a2b, 1, -1 }, { 0x10, 1, 1 }, { 0x5, 1, 0 } };
	sample_rec(&f, &r, 1, 101, 3, 0, chain, 3);
	const struct ent odd[] = { { 0xff, 1, 7 }, { 0x40, 9, 0 } };
	sample_rec(&f, &r, 2, 101, 1, 0, odd, 2);
	sample_rec(&f, &r, 3, 300, 2, 0, NULL, 0);
	file_rec(&f, &r, 1, "/data/app/libapp.so", libapp_syms, 2);
	thread_rec(&f, &r, 100, 100, "com.example");
	thread_rec(&f, &r, 101, 100, "RenderThread");
	end(&f);
	struct read_result res;
	run(&res, &f, NULL);
	INT_EQ(res.rc, 0);
	STR_EQ(res.folded,
	       "com.example (100);RenderThread (101);[file 9][+40];/data/app/libapp.so[+ff] 1\n"
	       "com.example (100);RenderThread (101);main;work;/data/app/libapp.so[+1a2b] 3\n"
	       "process-300 (300);thread-300 (300);[no callchain] 2\n");
	const struct af_warning *w = find_warning(&res.p, "samples without a callchain");
	OK(w && w->count == 1);
	w = find_warning(&res.p, "frames naming a symbol their file does not have");
	OK(w && w->count == 1);
	read_result_release(&res);
	af_buf_release(&f);
	af_buf_release(&r);
}

/* The first event type is drawn by default, --event picks another by
 * name (the samples' event_type_id is its index); the unit follows the
 * event (a clock: ns, else events); a name the file lacks is refused with
 * the file's list. */
void test_simpleperf_event_pick(void)
{
	struct af_buf f, r;
	header(&f);
	af_buf_init(&r);
	const char *events[] = { "cpu-cycles", "cpu-clock" };
	meta_rec(&f, &r, events, 2, false);
	thread_rec(&f, &r, 7, 7, "main");
	const struct ent a[] = { { 0, 1, 0 } }, b[] = { { 0, 1, 1 } };
	file_rec(&f, &r, 1, "libx.so", libapp_syms, 2);
	sample_rec(&f, &r, 1, 7, 1000, 0, a, 1);
	sample_rec(&f, &r, 2, 7, 250, 1, b, 1);
	end(&f);
	struct read_result res;
	run(&res, &f, NULL);
	STR_EQ(res.folded, "main (7);main (7);main 1000\n");
	STR_EQ(res.p.unit, "events");
	read_result_release(&res);
	run(&res, &f, "cpu-clock");
	STR_EQ(res.folded, "main (7);main (7);work 250\n");
	STR_EQ(res.p.unit, "ns");
	read_result_release(&res);
	run(&res, &f, "page-faults");
	INT_EQ(res.rc, -1);
	OK(strstr(res.error, "cpu-cycles, cpu-clock") != NULL);
	read_result_release(&res);
	af_buf_release(&f);
	af_buf_release(&r);
}

/* trace_offcpu with a clock event first: a sample of the second event
 * type is the thread leaving the CPU; it weighs the time to the thread's
 * next sample, with a "[off-cpu]" leaf; one never followed is left out. */
void test_simpleperf_offcpu(void)
{
	struct af_buf f, r;
	header(&f);
	af_buf_init(&r);
	const char *events[] = { "cpu-clock", "sched:sched_switch" };
	meta_rec(&f, &r, events, 2, true);
	thread_rec(&f, &r, 7, 7, "main");
	file_rec(&f, &r, 1, "libx.so", libapp_syms, 2);
	const struct ent a[] = { { 0, 1, 0 } }, b[] = { { 0, 1, 1 } };
	sample_rec(&f, &r, 1000, 7, 10, 0, a, 1);
	sample_rec(&f, &r, 2000, 7, 1, 1, b, 1);   /* off the CPU at 2000 */
	sample_rec(&f, &r, 9000, 7, 10, 0, a, 1);  /* back: 7000 ns off */
	sample_rec(&f, &r, 9500, 7, 1, 1, b, 1);   /* never back */
	end(&f);
	struct read_result res;
	run(&res, &f, NULL);
	INT_EQ(res.rc, 0);
	STR_EQ(res.folded, "main (7);main (7);main 20\nmain (7);main (7);work;[off-cpu] 7000\n");
	read_result_release(&res);
	af_buf_release(&f);
	af_buf_release(&r);
}

/* A record whose length runs past the end is an error at its offset; a
 * file without the zero end record is read with a note; a record's bad
 * protobuf names the field's offset. */
void test_simpleperf_damage(void)
{
	struct af_buf f, r;
	header(&f);
	af_buf_init(&r);
	thread_rec(&f, &r, 7, 7, "main");
	const struct ent a[] = { { 0x10, 2, -1 } };
	size_t at = f.len;
	sample_rec(&f, &r, 1, 7, 5, 0, a, 1);
	struct read_result res;
	run(&res, &f, NULL);
	INT_EQ(res.rc, 0);
	STR_EQ(res.folded, "main (7);main (7);[file 2][+10] 5\n");
	OK(find_warning(&res.p, "the file has no end record") != NULL);
	read_result_release(&res);
	f.data[at]++;                             /* one byte more than there is */
	run(&res, &f, NULL);
	char want[96];
	snprintf(want, sizeof want, "t.trace: offset 0x%zx: a record of %zu bytes runs past the end of the file",
		 at, f.len - at - 4 + 1);
	STR_EQ(res.error, want);
	read_result_release(&res);
	f.data[at]--;
	f.data[at + 5]++;                         /* the sample's length: past its record */
	run(&res, &f, NULL);
	snprintf(want, sizeof want, "t.trace: offset 0x%zx: malformed report-sample record", at + 4);
	OK(strncmp(res.error, want, strlen(want)) == 0);
	read_result_release(&res);
	af_buf_release(&f);
	af_buf_release(&r);
}
