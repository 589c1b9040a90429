/* test_read_perfscript.c: the `perf script` text reader's corner rules
 * (src/read/read_perfscript.c's opening comment), on inputs written here
 * and read through the reader table: process > thread roots "name (id)"
 * with frames root first, a process renamed after its main thread; the
 * period as weight, else 1 a sample; headers without ids or comm (-F);
 * "[unknown]" named after its file; kernel frames marked _[k], JIT
 * frames _[j] (2018 simpleperf's too); "(anonymous namespace)::f" a
 * frame, "(comm)" not; perf's "+0x" offsets dropped; several events, --event picking one; bad lines
 * refused naming their line. (Real files and every -F field:
 * tests/suites/perfscript.sh.) */
#include "harness.h"
#include "support.h"
#include "core/buf.h"
#include "read/perfscript_int.h"

#include <stdlib.h>

static void run(struct read_result *r, const char *s, const struct af_read_opts *o)
{
	read_input(r, s, strlen(s), "t.txt", NULL, o);
}

/* "pid/tid": process "process-6 (6)" > thread "x (7)", frames root first
 * (perf prints the leaf first); once the main thread (tid == pid) is seen
 * the process takes its name. */
void test_perfscript_roots_and_order(void)
{
	struct read_result r;
	run(&r, "x  6/7  [001] 1.000001:  3 cycles:\n\t  401000 f (/bin/x)\n\t  400000 main (/bin/x)\n\n",
	    NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.p.format, "perf-script");
	STR_EQ(r.folded, "process-6 (6);x (7);main;f 3\n");
	read_result_release(&r);
	run(&r, "w  6/7 1.0: 3 cycles:\n\t  401000 f (/bin/x)\n\t  400000 main (/bin/x)\n\n"
		"x  6/6 2.0: 2 cycles:\n\t  400000 main (/bin/x)\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (6);w (7);main;f 3\nx (6);x (6);main 2\n");
	read_result_release(&r);
}

/* A sample weighs its period; without one (-F without period), 1. */
void test_perfscript_weights(void)
{
	struct read_result r;
	run(&r, "x 7 1.0: 10 cycles:\n\t  400000 main (/bin/x)\n\nx 7 2.0: 5 cycles:\n\t  400000 main (/bin/x)\n",
	    NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);main 15\n");
	STR_EQ(af_profile_get_info(&r.p, "weights"), "the period of each sample");
	read_result_release(&r);
	run(&r, "x 7 1.0: cycles:\n\t  400000 main (/bin/x)\n\nx 7 2.0: cycles:\n\t  400000 main (/bin/x)\n\n",
	    NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);main 2\n");
	read_result_release(&r);
}

/* -F without tid and pid: the comm alone is the root; without comm the
 * thread is "thread-N". The comm is the text before the first id, blanks
 * and all. */
void test_perfscript_fields_left_out(void)
{
	struct read_result r;
	run(&r, "x 1.0: 4 cycles:\n\t  400000 main (/bin/x)\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x;main 4\n");
	read_result_release(&r);
	run(&r, "      7 1.0: 3 cycles:\n\t  400000 main (/bin/x)\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "thread-7 (7);main 3\n");
	read_result_release(&r);
	run(&r, "V8 WorkerThread 25607 1.0: 1 cycles:\n\t  401000 v8 (/bin/node)\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "V8 WorkerThread (25607);v8 1\n");
	read_result_release(&r);
}

/* "[unknown]" in a known file is "[file]" (its base name), as
 * stackcollapse-perf.pl names it; in an unknown file it stays. No symbol
 * at all is the same as "[unknown]". */
void test_perfscript_unknown_named_by_file(void)
{
	struct read_result r;
	run(&r, "x 7 1.0: 1 cycles:\n\t  402000 (/bin/x)\n\t  401000 [unknown] (/lib/libc.so.6)\n"
		"\t  400000 [unknown] ([unknown])\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);[unknown];[libc.so.6];[x] 1\n");
	read_result_release(&r);
}

/* Kernel frames are marked _[k]: perf's [kernel.kallsyms], a module, or
 * with no file an address in the top half; [vdso] is user space. */
void test_perfscript_kernel_marked(void)
{
	struct read_result r;
	run(&r, "x 7 1.0: 1 cycles:\n\tffffffff81000000 k\n\tffffffffc0000000 nf_y ([nf_conntrack])\n"
		"\tffffffff81000100 sys_read ([kernel.kallsyms])\n\t  7fff00 vdso_x ([vdso])\n"
		"\t  400000 main (/bin/x)\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);main;vdso_x;sys_read_[k];nf_y_[k];k_[k] 1\n");
	read_result_release(&r);
}

/* JIT-compiled code is marked _[j]: perf's map files and jitted-*.so,
 * ART's JIT caches as later simpleperf names them, and the symbol files
 * 2018's simpleperf wrote for JIT code ("./TemporaryFile-XXXXXX", the
 * files its JITDebugReader made; report_sample.py of that build prints
 * them as the file). That build's layout: the frame's address at the
 * start of the line, unindented when it has 16 digits. */
void test_perfscript_jit_marked(void)
{
	struct read_result r;
	run(&r, "Thread-2\t10461 [000] 1461684.0:\t\t1 cpu-cycles:\n"
		"ffffffc000fec280\t[kernel.kallsyms][+ffffffc000fec280] ([kernel.kallsyms])\n"
		"        99fbdb5c\tvoid android.os.Looper.loop() (./TemporaryFile-3Er3R4)\n"
		"        732af1d6\tandroid.os.Binder.execTransact (/system/framework/boot-framework.vdex)\n"
		"      7a00001000\tcom.example.Foo.bar ([JIT app cache])\n"
		"      6ffe0e4574\t__start_thread (/system/lib64/libc.so)\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "Thread-2 (10461);__start_thread;com.example.Foo.bar_[j];android.os.Binder.execTransact;"
			 "void android.os.Looper.loop()_[j];[kernel.kallsyms][+ffffffc000fec280]_[k] 1\n");
	read_result_release(&r);
}

/* A symbol opening with '(' is a frame ("(anonymous namespace)::f", 46
 * frame lines of simpleperf's perf_display_bitmaps.perf-script); only a
 * symbol that is one parenthesised group, stackcollapse-perf.pl's
 * "(comm)", is not. */
void test_perfscript_paren_symbols(void)
{
	struct read_result r;
	run(&r, "x 7 1.0: 1 cycles:\n\t  403000 (anonymous namespace)::g(int) (/bin/x)\n"
		"\t  402000 (anonymous namespace)::f(llvm::Module&) (/bin/x)\n\t  401000 (x) (/bin/x)\n"
		"\t  400000 main (/bin/x)\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);main;(anonymous namespace)::f(llvm::Module&);(anonymous namespace)::g(int) 1\n");
	read_result_release(&r);
}

/* perf's "+0x1f" offset is dropped, so one function's addresses are one
 * frame; a "+0x" with no digits after it is part of the name. */
void test_perfscript_offsets_dropped(void)
{
	struct read_result r;
	run(&r, "x 7 1.0: 1 cycles:\n\t  401000 f+0x1f (/bin/x)\n\t  400000 main+0x4 (/bin/x)\n\n"
		"x 7 2.0: 2 cycles:\n\t  401010 f+0xa0 (/bin/x)\n\t  400000 main+0x4 (/bin/x)\n\n"
		"x 7 3.0: 4 cycles:\n\t  400000 g+0x (/bin/x)\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);g+0x 4\nx (7);main;f 3\n");
	read_result_release(&r);
}

/* One event type is drawn: the first sample's, or --event's (a name
 * without perf's ":u" modifier picks it); an event not in the file is an
 * error naming those that are. */
void test_perfscript_event_pick(void)
{
	const char *in = "x 7 1.0: 1 instructions:\n\t  400000 main (/bin/x)\n\n"
			 "x 7 2.0: 2 cycles:u:\n\t  401000 f (/bin/x)\n\n"
			 "x 7 3.0: 4 instructions:\n\t  400000 main (/bin/x)\n\n";
	struct read_result r;
	run(&r, in, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);main 5\n");
	STR_EQ(af_profile_get_info(&r.p, "samples"), "2 drawn, 1 of other event types");
	read_result_release(&r);
	struct af_read_opts o = { .event = "cycles" };
	run(&r, in, &o);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);f 2\n");
	read_result_release(&r);
	o.event = "nosuch";
	run(&r, in, &o);
	INT_EQ(r.rc, -1);
	STR_EQ(r.error, "t.txt: no event type 'nosuch' in the file (it has: instructions, cycles:u)");
	read_result_release(&r);
}

/* Bad input is refused on its line, with nothing drawn: a period past
 * 2^64, a NUL byte. */
void test_perfscript_bad_lines(void)
{
	static const char in[] = "x 7 1.0: 1 cycles:\n\t  400000 main (/bin/x)\n\n"
				 "x 7 2.0: 99999999999999999999 cycles:\n\t  400000 main (/bin/x)\n";
	struct read_result r;
	run(&r, in, NULL);
	INT_EQ(r.rc, -1);
	OK(r.folded == NULL);
	STR_EQ(r.error, "t.txt:4: a period past 2^64");
	read_result_release(&r);
	static const char nul[] = "x 7 1.0: 1 cycles:\n\t  400000 main (/bin/x)\n\t  40\0000 f\n";
	read_input(&r, nul, sizeof nul - 1, "t.txt", af_reader_perfscript.read, NULL);
	INT_EQ(r.rc, -1);
	STR_EQ(r.error, "t.txt:3: a NUL byte: not perf script text");
	read_result_release(&r);
}

/* ---- samples seen before (perfscript_cache.c) and headers read before
 * (perfscript_header.c): what they give is what reading every line gives */

/* The input of in, read with the samples cache off (its cap too small to
 * hold a sample), tiny (emptied again and again) and as the reader has it:
 * the same stacks and weights each time, and those are want. */
static void same_with_and_without_cache(const char *in, const char *want)
{
	static const size_t caps[] = { 1, 600, 0 };
	for (size_t i = 0; i < sizeof caps / sizeof *caps; i++) {
		struct read_result r;
		ps_cache_test_max(caps[i]);
		run(&r, in, NULL);
		INT_EQ(r.rc, 0);
		STR_EQ(r.folded, want);
		read_result_release(&r);
	}
	ps_cache_test_max(0);
}

/* A sample seen before below the same thread ends at the same node, with
 * its own weight; the same frames below another thread are that thread's;
 * a sample that is another's frame lines and one more, or differs from it
 * in one byte only past the bytes that find it (its first 32), is its own
 * stack, also where it comes where the other came last time. */
void test_perfscript_samples_seen_before(void)
{
	static const char a[] = "\t  401000 leaf_function_with_a_long_name (/bin/x)\n\t  400000 main (/bin/x)\n";
	static const char a_deeper[] = "\t  401000 leaf_function_with_a_long_name (/bin/x)\n\t  400000 main (/bin/x)\n"
				       "\t  300000 _start (/bin/x)\n";
	static const char a_byte[] = "\t  401000 leaf_function_with_a_long_name (/bin/x)\n\t  400000 maim (/bin/x)\n";
	struct af_buf in;
	af_buf_init(&in);
	for (int round = 0; round < 4; round++) {   /* the last round in another order */
		af_buf_printf(&in, "x 7/7 [000] %d.000001: %d cycles:\n%s\n", round, 1 << round, a);
		af_buf_printf(&in, "y 7/8 [001] %d.000002: 100 cycles:\n%s\n", round, a);
		af_buf_printf(&in, "x 7/7 [002] %d.000003: 1000 cycles:\n%s\n", round, round < 3 ? a_deeper : a_byte);
		af_buf_printf(&in, "x 7/7 [003] %d.000004: 10000 cycles:\n%s\n", round, round < 3 ? a_byte : a_deeper);
	}
	same_with_and_without_cache(in.data, "x (7);x (7);_start;main;leaf_function_with_a_long_name 13000\n"
					     "x (7);x (7);maim;leaf_function_with_a_long_name 31000\n"
					     "x (7);x (7);main;leaf_function_with_a_long_name 15\n"
					     "x (7);y (8);main;leaf_function_with_a_long_name 400\n");
	af_buf_release(&in);
}

/* A sample taken whole still counts its lines: an error after it names
 * its line. A sample whose frame lines end at the input's end, or at a
 * line of blanks, or hold a comment, is read line by line, as before. */
void test_perfscript_samples_seen_before_lines(void)
{
	static const char in[] = "x 7 1.0: 1 cycles:\n\t  401000 f (/bin/x)\n\t  400000 main (/bin/x)\n\n"
				 "x 7 2.0: 1 cycles:\n\t  401000 f (/bin/x)\n\t  400000 main (/bin/x)\n\n"
				 "x 7 3.0: 1 cycles:\n\t  401000 f (/bin/x)\n\t  400000 main (/bin/x)\n\n"
				 "x 7 4.0: 99999999999999999999 cycles:\n";
	struct read_result r;
	run(&r, in, NULL);
	INT_EQ(r.rc, -1);
	STR_EQ(r.error, "t.txt:13: a period past 2^64");
	read_result_release(&r);
	same_with_and_without_cache("x 7 1.0: 1 cycles:\n\t  401000 f (/bin/x)\n\t  400000 main (/bin/x)\n \n"
				    "x 7 2.0: 2 cycles:\n\t  401000 f (/bin/x)\n\t  400000 main (/bin/x)\n\n"
				    "x 7 3.0: 4 cycles:\n\t  401000 f (/bin/x)\n# a comment\n\t  400000 main (/bin/x)\n\n"
				    "x 7 4.0: 8 cycles:\n\t  401000 f (/bin/x)\n\t  400000 main (/bin/x)\n\n"
				    "x 7 5.0: 16 cycles:\n\t  401000 f (/bin/x)\n\t  400000 main (/bin/x)\n",
				    "x (7);main;f 31\n");
	/* a line of blanks ends a sample: the frame line after it is skipped,
	 * each time (a sample is kept to the first line that is no frame) */
	static const char stray[] = "x 7 1.0: 1 cycles:\n\t  401000 f (/bin/x)\n\t \n\t  400000 g (/bin/x)\n\n";
	char twice[2 * sizeof stray];
	snprintf(twice, sizeof twice, "%s%s", stray, stray);
	run(&r, twice, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);f 2\n");
	const struct af_warning *w = find_warning(&r.p, "frame lines after the blank line");
	OK(w && w->count == 2);
	read_result_release(&r);
}

/* Many different samples, each seen twice, through a cache far too small
 * for them (emptied again and again): every stack twice its weight. */
void test_perfscript_samples_cache_full(void)
{
	struct af_buf in, want;
	af_buf_init(&in);
	af_buf_init(&want);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < 200; i++)
			af_buf_printf(&in, "x 7 %d.%d: %d cycles:\n\t  401000 f%03d (/bin/x)\n\t  400000 main (/bin/x)\n\n",
				      round, i, i + 1, i);
	for (int i = 0; i < 200; i++)
		af_buf_printf(&want, "x (7);main;f%03d %d\n", i, 2 * (i + 1));
	same_with_and_without_cache(in.data, want.data);
	af_buf_release(&in);
	af_buf_release(&want);
}

/* The cache itself: an entry is found only with every byte equal, below
 * its thread, followed by a blank line, under its own key; entries of one
 * key that differ are kept apart; when full it is emptied, and a sample
 * larger than a quarter of it is not kept. */
void test_perfscript_cache_entries(void)
{
	struct ps_cache c;
	ps_cache_init(&c, 4096);
	ps_cache_put(&c, 42, 1, "\tA\n\tB\n", 6, 2, 10);
	ps_cache_put(&c, 42, 1, "\tA\n\tC\n", 6, 2, 11);   /* the same key: a collision */
	const struct ps_cached *e = ps_cache_find(&c, 42, 1, "\tA\n\tB\n\nnext", 11);
	OK(e && e->leaf == 10 && e->lines == 2);
	e = ps_cache_find(&c, 42, 1, "\tA\n\tC\n\n", 7);
	OK(e && e->leaf == 11);
	OK(!ps_cache_find(&c, 42, 1, "\tA\n\tD\n\n", 7));        /* one byte apart */
	OK(!ps_cache_find(&c, 42, 2, "\tA\n\tB\n\n", 7));        /* another thread */
	OK(!ps_cache_find(&c, 43, 1, "\tA\n\tB\n\n", 7));        /* another key */
	OK(!ps_cache_find(&c, 42, 1, "\tA\n\tB\n\tE\n\n", 10));  /* a deeper stack */
	OK(!ps_cache_find(&c, 42, 1, "\tA\n\tB\n", 6));          /* no blank line after it */
	static char large[1025];
	ps_cache_put(&c, 44, 1, large, sizeof large, 1, 12);     /* over a quarter: not kept */
	INT_EQ(c.n, 2);
	static char line[200];
	memset(line, 'x', sizeof line);
	line[0] = '\t';
	line[sizeof line - 1] = '\n';
	for (uint64_t k = 0; k < 40; k++)
		ps_cache_put(&c, 100 + k, 1, line, sizeof line, 1, (uint32_t)k);
	OK(c.resets > 0);
	OK(c.arena_len + c.n * sizeof *c.e <= 4096);
	OK(!ps_cache_find(&c, 42, 1, "\tA\n\tB\n\n", 7));   /* emptied */
	char probe[sizeof line + 1];
	memcpy(probe, line, sizeof line);
	probe[sizeof line] = '\n';
	e = ps_cache_find(&c, 139, 1, probe, sizeof probe);
	OK(e && e->leaf == 39);
	ps_cache_release(&c);
	/* keys that share their low bits share a bucket, told apart by the
	 * rest; a find looks at the first 32 entries of a bucket, newest first */
	ps_cache_init(&c, 1 << 20);
	for (uint64_t k = 0; k < 40; k++)
		ps_cache_put(&c, k << 32 | 7, 1, "\tA\n", 3, 1, (uint32_t)k);
	e = ps_cache_find(&c, (uint64_t)39 << 32 | 7, 1, "\tA\n\n", 4);
	OK(e && e->leaf == 39);
	e = ps_cache_find(&c, (uint64_t)8 << 32 | 7, 1, "\tA\n\n", 4);
	OK(e && e->leaf == 8);
	OK(!ps_cache_find(&c, (uint64_t)40 << 32 | 7, 1, "\tA\n\n", 4));   /* another key */
	OK(!ps_cache_find(&c, 7, 1, "\tA\n\n", 4));   /* the 40th of its bucket */
	/* what came after an entry: none at first, then the latest noted;
	 * indices out of range are nothing */
	INT_EQ(ps_cache_after(&c, 3), AF_NONE);
	ps_cache_follows(&c, 3, 5);
	ps_cache_follows(&c, 3, 9);
	INT_EQ(ps_cache_after(&c, 3), 9);
	ps_cache_follows(&c, 40, 1);
	ps_cache_follows(&c, AF_NONE, 1);
	INT_EQ(ps_cache_after(&c, 40), AF_NONE);
	INT_EQ(ps_cache_after(&c, AF_NONE), AF_NONE);
	ps_cache_release(&c);
}

/* A thread's headers differ in their time, cpu and period: each is read
 * for what it holds (its own period, the event past a cpu field of
 * another width, a frame on the header line past a longer time), and two
 * threads whose headers differ in one digit of the ids are two. */
void test_perfscript_headers_read_before(void)
{
	same_with_and_without_cache("x 7/7 [1] 1.5: 1 cycles:\n\t  400000 main (/bin/x)\n\n"
				    "x 7/7 [10] 12.25: 2 cycles:\n\t  400000 main (/bin/x)\n\n"
				    "x 7/8 [10] 12.25: 4 cycles:\n\t  400000 main (/bin/x)\n\n"
				    "x 7/7 [2] 100.125: 8 cycles:\n\t  400000 main (/bin/x)\n\n"
				    "x 7/7 [2] 100.125: 16 instructions:\n\t  400000 main (/bin/x)\n\n"
				    "x 7/7 [3] 1000.5: 32 cycles:\n\t  400000 main (/bin/x)\n\n",
				    "x (7);x (7);main 43\nx (7);x (8);main 4\n");
	struct read_result r;
	run(&r, "x 7 1.0: 1 cycles:  401000 f (/bin/x)\nx 7 22.000: 2 cycles:  402000 g (/bin/x)\n"
		"x 7 333.00000: 4 cycles:  401000 f (/bin/x)\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);f 5\nx (7);g 2\n");
	STR_EQ(af_profile_get_info(&r.p, "samples"), "3 drawn, 0 of other event types");
	read_result_release(&r);
	/* a letter where the last header had a digit of its time: no time,
	 * but an event "1.a" (not drawn) */
	run(&r, "x 7 1.5: 1 cycles:\n\t  400000 main (/bin/x)\n\nx 7 1.a: 2 cycles:\n\t  400000 main (/bin/x)\n\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "x (7);main 1\n");
	STR_EQ(af_profile_get_info(&r.p, "samples"), "1 drawn, 1 of other event types");
	read_result_release(&r);
	/* a token shaped as a time that is the comm (no blank before it) is
	 * part of what the header holds: two threads */
	static const char comm[] = "1.0: 3 cycles:\n\t  400000 main (/bin/x)\n\n2.0: 3 cycles:\n\t  400000 main (/bin/x)\n\n";
	read_input(&r, comm, sizeof comm - 1, "t.txt", af_reader_perfscript.read, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "1.0: (3);main 1\n2.0: (3);main 1\n");
	read_result_release(&r);
}

/* A header after a blank line that is the last one of its thread byte for
 * byte but for digits of its time, cpu or period is taken from what that
 * one held (ps_header_again): its own period; and only so where the bytes
 * that differ are digits (not '/', ':' or a byte past 0x7f in a time, not
 * '/' in a period) and every other byte is the same, the blanks after it
 * and the bytes past the first sixteen included. Each such header follows
 * one of the thread's that is drawn. */
void test_perfscript_headers_again(void)
{
	static const char *const next[] = { "2.000002: 2000 cycles:", "3.000003: 4000 cyclez:",
					    "4.000004: 8000 cycles: ", "5.000005: /000 cycles:",
					    "6.00000/: 1000 cycles:", "6.00000:: 1000 cycles:",
					    "6.00000\xb9: 1000 cycles:", "7.000007: 1000 cycles:x" };
	struct af_buf in;
	af_buf_init(&in);
	for (size_t i = 0; i < sizeof next / sizeof *next; i++)
		af_buf_printf(&in, "x 7/7 [000] 1.000001: 1000 cycles:\n\t  400000 main (/bin/x)\n\n"
				   "x 7/7 [001] %s\n\t  400000 main (/bin/x)\n\n", next[i]);
	same_with_and_without_cache(in.data, "x (7);x (7);main 18001\n");
	struct read_result r;
	run(&r, in.data, NULL);
	STR_EQ(af_profile_get_info(&r.p, "samples"), "11 drawn, 5 of other event types");
	read_result_release(&r);
	af_buf_release(&in);
}

/* Old perf's frame lines, indented with blanks, not a tab, are looked up
 * among the lines seen before as tabbed ones are; a header opening with a
 * blank (no comm printed) right after a header is a header each time,
 * though the frame on its line is the one frame it made (it is no frame
 * line, so it is not kept as one). */
void test_perfscript_old_perf_frames_seen(void)
{
	static const char once[] = "x 7 1.0: 1 cycles:\n 8 2.0: 2 cycles:  401000 f (/bin/x)\n";
	static const char sample[] = "x 7 3.0: 4 cycles:\n            401000 f (/bin/x)\n"
				     "            400000 main (/bin/x)\n\n";
	char in[2 * sizeof once + 2 * sizeof sample];
	snprintf(in, sizeof in, "%s%s%s%s", once, once, sample, sample);
	same_with_and_without_cache(in, "thread-8 (8);f 4\nx (7) 2\nx (7);main;f 8\n");
}
