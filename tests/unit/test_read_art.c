/* test_read_art.c: the legacy ART reader on traces built here byte by byte
 * (art-trace-format.md §1-2), including every writer quirk it must accept
 * and the damage it must refuse with a position. */
#include "harness.h"
#include "read/read.h"
#include "core/buf.h"
#include "support.h"

#include <stdlib.h>

struct rec { uint32_t tid, word, t1, t2; };

/* text + 'SLOW' header (version, data offset, record size) + records */
static struct af_buf build(const char *text, unsigned version, unsigned offset,
			   unsigned record_size, const struct rec *r, size_t n)
{
	struct af_buf b;
	af_buf_init(&b);
	af_buf_puts(&b, text);
	uint8_t h[64] = { 'S', 'L', 'O', 'W', (uint8_t)version, 0, (uint8_t)offset, (uint8_t)(offset >> 8) };
	h[16] = (uint8_t)record_size;
	h[17] = (uint8_t)(record_size >> 8);
	af_buf_add(&b, h, offset);
	for (size_t i = 0; i < n; i++) {
		uint8_t p[32] = { 0 };
		size_t k = 0;
		p[k++] = (uint8_t)r[i].tid;
		if (version != 1)
			p[k++] = (uint8_t)(r[i].tid >> 8);
		for (int s = 0; s < 32; s += 8)
			p[k++] = (uint8_t)(r[i].word >> s);
		for (int s = 0; s < 32; s += 8)
			p[k++] = (uint8_t)(r[i].t1 >> s);
		if (version == 3)
			for (int s = 0; s < 32; s += 8)
				p[k++] = (uint8_t)(r[i].t2 >> s);
		af_buf_add(&b, p, version == 3 ? record_size : k);
	}
	return b;
}

static void run(struct read_result *res, const struct af_buf *file, enum af_clock clock)
{
	struct af_read_opts o = { .clock = clock };
	read_input(res, file->data, file->len, "t.trace", af_reader_art.read, &o);
}

static void done(struct read_result *res, struct af_buf *file)
{
	read_result_release(res);
	af_buf_release(file);
}

#define DALVIK_TEXT \
	"*version\n3\ndata-file-overflow=false\nclock=dual\nvm=dalvik\n" \
	"*threads\n1\tmain\n11\tAsyncTask #1\n" \
	"*methods\n" \
	"0x62830738\tandroid/os/Debug\tstart\t(Ljava/lang/String;II)V\tDebug.java\t604\n" \
	"0x6282b4b0\tcom/x/Basic\tfoo\t()V\tBasic.java\t-1\n" \
	"*end\n"

void test_art_v3_dual_clock(void)
{
	const struct rec r[] = {
		{ 11, 0x62830738, 0, 100 }, { 11, 0x6282b4b0, 2, 110 },
		{ 11, 0x6282b4b1, 5, 150 }, { 11, 0x62830739, 9, 200 },
	};
	struct af_buf f = build(DALVIK_TEXT, 3, 32, 14, r, 4);
	struct read_result res;
	run(&res, &f, AF_CLOCK_DEFAULT);
	INT_EQ(res.rc, 0);
	STR_EQ(res.folded, "AsyncTask #1 (11);android.os.Debug.start 60\n"
			   "AsyncTask #1 (11);android.os.Debug.start;com.x.Basic.foo 40\n");
	STR_EQ(res.p.clock, "wall");
	done(&res, &f);
	f = build(DALVIK_TEXT, 3, 32, 14, r, 4);
	run(&res, &f, AF_CLOCK_CPU);
	STR_EQ(res.folded, "AsyncTask #1 (11);android.os.Debug.start 6\n"
			   "AsyncTask #1 (11);android.os.Debug.start;com.x.Basic.foo 3\n");
	STR_EQ(res.p.clock, "thread-cpu");
	done(&res, &f);
}

void test_art_v3_longer_records(void)
{
	/* record size from the header: 4 unknown bytes per record are skipped */
	const struct rec r[] = { { 1, 0x6282b4b0, 0, 10 }, { 1, 0x6282b4b1, 3, 30 } };
	struct af_buf f = build(DALVIK_TEXT, 3, 32, 18, r, 2);
	struct read_result res;
	run(&res, &f, AF_CLOCK_DEFAULT);
	STR_EQ(res.folded, "main (1);com.x.Basic.foo 20\n");
	done(&res, &f);
}

void test_art_v1_single_clock(void)
{
	const char *text = "*version\n1\nclock=thread-cpu\n*threads\n1\tmain\n"
			   "*methods\n0x10\tA\tm\t()V\tA.java\n*end\n";
	const struct rec r[] = { { 1, 0x10, 3, 0 }, { 1, 0x11, 10, 0 } };
	struct af_buf f = build(text, 1, 32, 0, r, 2);
	struct read_result res;
	run(&res, &f, AF_CLOCK_DEFAULT);
	STR_EQ(res.folded, "main (1);A.m 7\n");
	STR_EQ(res.p.clock, "thread-cpu");
	done(&res, &f);
	f = build(text, 1, 32, 0, r, 2);
	run(&res, &f, AF_CLOCK_WALL);
	INT_EQ(res.rc, -1);
	STR_EQ(res.error, "t.trace: no wall-clock times: the file's clock is thread-cpu");
	done(&res, &f);
}

void test_art_v2_wall_and_short_header(void)
{
	/* createtesttrace writes a 16-byte header: the data offset is honoured */
	const char *text = "*version\n2\nclock=wall\n*threads\n7\tw\n"
			   "*methods\n0x4\tB\tn\t(I)V\tB.java\n*end\n";
	const struct rec r[] = { { 7, 0x4, 100, 0 }, { 7, 0x5, 350, 0 } };
	struct af_buf f = build(text, 2, 16, 0, r, 2);
	struct read_result res;
	run(&res, &f, AF_CLOCK_DEFAULT);
	STR_EQ(res.folded, "w (7);B.n 250\n");
	STR_EQ(res.p.clock, "wall");
	done(&res, &f);
}

void test_art_method_id_forms(void)
{
	/* ART 8+: %#x prints index 0 as a bare "0"; ART 6-7 %p: "0x4" */
	const char *text = "*version\n3\nclock=dual\nvm=art\n*threads\n5\tm\n*methods\n"
			   "0\tcom.a.B\tfirst\t()V\tB.java\n0x4\tcom.a.B\tsecond\t()V\t(null)\n*end\n";
	const struct rec r[] = { { 5, 0x0, 0, 0 }, { 5, 0x4, 1, 1 }, { 5, 0x5, 2, 4 }, { 5, 0x1, 3, 9 } };
	struct af_buf f = build(text, 3, 32, 14, r, 4);
	struct read_result res;
	run(&res, &f, AF_CLOCK_DEFAULT);
	STR_EQ(res.folded, "m (5);com.a.B.first 6\nm (5);com.a.B.first;com.a.B.second 3\n");
	done(&res, &f);
}

void test_art_unknown_ids_and_truncated_tids(void)
{
	/* tid 70000 is stored as 70000 & 0xffff = 4464 in records */
	const char *text = "*version\n3\nclock=dual\n*threads\n70000\tbig\n*methods\n0x8\tC\tk\t()V\tC.java\n*end\n";
	const struct rec r[] = {
		{ 4464, 0x8, 0, 0 }, { 4464, 0x1a2c, 1, 2 }, { 4464, 0x1a2d, 2, 5 }, { 4464, 0x9, 3, 6 },
		{ 9, 0x8, 0, 0 }, { 9, 0x9, 1, 1 },
	};
	struct af_buf f = build(text, 3, 32, 14, r, 6);
	struct read_result res;
	run(&res, &f, AF_CLOCK_DEFAULT);
	STR_EQ(res.folded, "big (70000);C.k 3\nbig (70000);C.k;<unknown method 0x1a2c> 3\nthread-9 (9);C.k 1\n");
	OK(find_warning(&res.p, "unknown method ids") != NULL);
	OK(find_warning(&res.p, "unknown thread ids") != NULL);
	done(&res, &f);
}

void test_art_time_wrap(void)
{
	/* wall time wraps past 2^32 µs (71.6 minutes) */
	const char *text = "*version\n3\nclock=dual\n*threads\n1\tmain\n*methods\n0x8\tC\tk\t()V\tC.java\n*end\n";
	const struct rec r[] = { { 1, 0x8, 0, 0xfffffff0u }, { 1, 0x9, 1, 0x10 } };
	struct af_buf f = build(text, 3, 32, 14, r, 2);
	struct read_result res;
	run(&res, &f, AF_CLOCK_DEFAULT);
	STR_EQ(res.folded, "main (1);C.k 32\n");
	done(&res, &f);
}

void test_art_partial_record_and_actions(void)
{
	const char *text = "*version\n3\nclock=dual\n*threads\n1\tmain\n*methods\n"
			   "0x8\tC\tk\t()V\tC.java\n0xc\tC\tu\t()V\tC.java\n*end\n";
	/* unwind (action 2) and reserved action 3 both end a frame */
	const struct rec r[] = { { 1, 0x8, 0, 0 }, { 1, 0xc, 0, 1 }, { 1, 0xe, 0, 3 }, { 1, 0xb, 0, 10 } };
	struct af_buf f = build(text, 3, 32, 14, r, 4);
	af_buf_add(&f, "\x01\x00\x08", 3);
	struct read_result res;
	run(&res, &f, AF_CLOCK_DEFAULT);
	STR_EQ(res.folded, "main (1);C.k 8\nmain (1);C.k;C.u 2\n");
	OK(find_warning(&res.p, "trailing partial record (3 bytes)") != NULL);
	OK(find_warning(&res.p, "records with reserved action 3") != NULL);
	done(&res, &f);
}

static void expect_error(const char *text, unsigned version, unsigned offset, unsigned recsize,
			 size_t cut, const char *want)
{
	const struct rec r[] = { { 1, 0x8, 0, 0 } };
	struct af_buf f = build(text, version, offset, recsize, r, 1);
	if (cut)
		f.len = cut;
	struct read_result res;
	run(&res, &f, AF_CLOCK_DEFAULT);
	INT_EQ(res.rc, -1);
	STR_EQ(res.error, want);
	done(&res, &f);
}

void test_art_errors(void)
{
	const char *text = "*version\n3\nclock=dual\n*threads\n1\tmain\n*methods\n0x8\tC\tk\t()V\tC.java\n*end\n";
	size_t end = strlen(text);
	char want[200];
	snprintf(want, sizeof want, "t.trace: offset 0x%zx: record size 0 is too small for version 3 (need at least 14)", end + 16);
	expect_error(text, 3, 32, 0, 0, want);
	snprintf(want, sizeof want, "t.trace: offset 0x%zx: record size 3 is too small for version 3 (need at least 14)", end + 16);
	expect_error(text, 3, 32, 3, 0, want);
	snprintf(want, sizeof want, "t.trace: offset 0x%zx: data offset 60 is past the end of the file (46 bytes left)", end + 6);
	expect_error(text, 3, 60, 14, end + 46, want);
	snprintf(want, sizeof want, "t.trace: offset 0x%zx: truncated data section header (5 bytes, need 16)", end);
	expect_error(text, 3, 32, 14, end + 5, want);
	snprintf(want, sizeof want, "t.trace: offset 0x%zx: unsupported data section version 9 (legacy files have 1, 2 or 3)", end + 4);
	expect_error(text, 9, 32, 14, 0, want);
	expect_error("*version\n3\n*threads\nmain\n*end\n", 3, 32, 14, 0,
		     "t.trace:4: thread line is not 'id<TAB>name'");
	expect_error("*version\n3\n*methods\nzz\tC\tk\t()V\n*end\n", 3, 32, 14, 0,
		     "t.trace:4: method line is not 'id<TAB>class<TAB>name<TAB>signature...'");
	expect_error("*version\n3\n*bogus\n*end\n", 3, 32, 14, 0, "t.trace:3: unknown section '*bogus'");
	expect_error("*version\n3\n*threads\n1\tmain\n", 3, 32, 14, 0,
		     "t.trace:5: text section ends without '*end'");
}
