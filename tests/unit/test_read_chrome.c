/* test_read_chrome.c: the Chrome trace-event JSON reader's corner rules
 * (read_chrome.c, chrome_parse.c, docs/semantics.md), on traces written
 * here and read through the reader table: the bare array Chrome may leave
 * without its ']', B/E nesting with E closing the innermost open slice,
 * X slices by dur (longest first at one start), ts given as a string,
 * process_name/thread_name metadata naming the roots, and samples +
 * stackFrames each weighing the time to its thread's next sample. */
#include "harness.h"
#include "support.h"

#include <stdlib.h>

static void run(struct read_result *r, const char *s)
{
	read_input(r, s, strlen(s), "t.json", NULL, NULL);
}

/* The bare array reads the same without its ']', after a trailing comma
 * or blanks too; an object cut short is still an error. */
void test_chrome_bare_array_unterminated(void)
{
	static const char *const cuts[] = { "", ",", ",\n  ", "\n" };
	const char *ev = "[{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":5,\"name\":\"A\"}";
	char buf[200];
	struct read_result r;
	for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
		snprintf(buf, sizeof buf, "%s%s", ev, cuts[i]);
		run(&r, buf);
		INT_EQ(r.rc, 0);
		STR_EQ(r.p.format, "chrome");
		STR_EQ(r.folded, "process-1 (1);thread-2 (2);A 5\n");
		read_result_release(&r);
	}
	run(&r, "[{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":0,");
	INT_EQ(r.rc, -1);
	OK(r.folded == NULL);
	OK(strstr(r.error, "the file ends inside") != NULL);
	read_result_release(&r);
}

/* B opens, E closes the innermost open slice whatever it names (a named
 * E naming another is counted). */
void test_chrome_b_e_innermost(void)
{
	struct read_result r;
	run(&r, "{\"traceEvents\":["
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":0,\"name\":\"A\"},"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":2,\"name\":\"B\"},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":5,\"name\":\"A\"},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":9}]}");
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "process-1 (1);thread-1 (1);A 6\n"
		"process-1 (1);thread-1 (1);A;B 3\n");
	const struct af_warning *w = find_warning(&r.p, "slice ends (E) naming another slice");
	OK(w && w->count == 1);
	read_result_release(&r);
}

/* X lasts dur; Chrome writes callees first, so X slices of one start
 * nest longest outermost whatever their file order. */
void test_chrome_x_with_dur(void)
{
	struct read_result r;
	run(&r, "[{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":4,\"name\":\"B\"},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":6,\"dur\":2,\"name\":\"C\"},"
		"{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10,\"name\":\"A\"}]");
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "process-1 (1);thread-1 (1);A 4\n"
		"process-1 (1);thread-1 (1);A;B 4\n"
		"process-1 (1);thread-1 (1);A;C 2\n");
	read_result_release(&r);
}

/* ts may come as a string (some exporters quote it), fractions of a µs
 * rounded. */
void test_chrome_ts_as_string(void)
{
	struct read_result r;
	run(&r, "[{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":\"10\",\"name\":\"A\"},"
		"{\"ph\":\"B\",\"pid\":1,\"tid\":1,\"ts\":\"12.5\",\"name\":\"B\"},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":\"14.6\"},"
		"{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":20}]");
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "process-1 (1);thread-1 (1);A 8\n"
		"process-1 (1);thread-1 (1);A;B 2\n");
	read_result_release(&r);
}

/* process_name and thread_name metadata (ph M) name the roots "name (id)";
 * a thread without one is "thread-tid (tid)". */
void test_chrome_metadata_names(void)
{
	struct read_result r;
	run(&r, "[{\"ph\":\"M\",\"pid\":7,\"name\":\"process_name\",\"args\":{\"name\":\"app\"}},"
		"{\"ph\":\"M\",\"pid\":7,\"tid\":8,\"name\":\"thread_name\",\"args\":{\"name\":\"ui\"}},"
		"{\"ph\":\"X\",\"pid\":7,\"tid\":8,\"ts\":0,\"dur\":3,\"name\":\"A\"},"
		"{\"ph\":\"X\",\"pid\":7,\"tid\":9,\"ts\":0,\"dur\":2,\"name\":\"B\"}]");
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "app (7);thread-9 (9);B 2\n"
		"app (7);ui (8);A 3\n");
	read_result_release(&r);
}

/* A sample's stack is its frame and the frame's parents (ids as numbers
 * or strings); it weighs the time to its own thread's next sample, the
 * thread's last nothing. A file with samples draws them, not its slices. */
void test_chrome_samples_weigh_to_next(void)
{
	struct read_result r;
	run(&r, "{\"traceEvents\":[{\"ph\":\"X\",\"pid\":0,\"tid\":3,\"ts\":0,\"dur\":50,\"name\":\"slice\"}],"
		"\"samples\":[{\"tid\":3,\"ts\":10,\"sf\":2},{\"tid\":4,\"ts\":12,\"sf\":1},"
		"{\"tid\":3,\"ts\":20,\"sf\":\"3\"},{\"tid\":3,\"ts\":25,\"sf\":1},{\"tid\":4,\"ts\":30,\"sf\":1}],"
		"\"stackFrames\":{\"1\":{\"name\":\"root\"},\"2\":{\"name\":\"f\",\"parent\":1},"
		"\"3\":{\"name\":\"g\",\"parent\":\"2\"}}}");
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "process-0 (0);thread-3 (3);root;f 10\n"
		"process-0 (0);thread-3 (3);root;f;g 5\n"
		"process-0 (0);thread-4 (4);root 18\n");
	read_result_release(&r);
}
