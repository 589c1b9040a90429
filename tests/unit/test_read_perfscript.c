/* test_read_perfscript.c: the `perf script` text reader's corner rules
 * (src/read/read_perfscript.c's opening comment), on inputs written here
 * and read through the reader table: process > thread roots "name (id)"
 * with frames root first, a process renamed after its main thread; the
 * period as weight, else 1 a sample; headers without ids or comm (-F);
 * "[unknown]" named after its file; kernel frames marked _[k]; perf's
 * "+0x" offsets dropped; several events, --event picking one; bad lines
 * refused naming their line. (Real files and every -F field:
 * tests/suites/perfscript.sh.) */
#include "harness.h"
#include "support.h"

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
