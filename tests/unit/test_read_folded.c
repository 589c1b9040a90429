/* test_read_folded.c: the folded-stacks reader's corner rules
 * (docs/semantics.md "Folded stacks"), read through the reader table:
 * decimal counts kept exactly (every weight rescaled to the most decimals
 * seen), exactly one blank before the count taken as flamegraph.pl takes
 * it, empty frames, comments and CRLF, malformed lines skipped with their
 * first line number or refused with --strict, sums that would wrap,
 * detection from the content, flame charts in input order, and several
 * files read as one with messages naming the file and its line.
 * (Differential counts, --reverse and chain marks: test_palette.c.) */
#include "harness.h"
#include "support.h"
#include "core/tree.h"

#include <stdlib.h>

static void run(struct read_result *r, const char *s, const struct af_read_opts *o)
{
	read_input(r, s, strlen(s), "t.folded", NULL, o);
}

/* "a 1" then "b 0.25": decimals become 2 and the weight before is
 * rescaled (1 -> 100); past six decimals the digits are dropped. */
void test_folded_decimal_counts(void)
{
	struct read_result r;
	run(&r, "a 1\nb 0.25\na 0.5\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.p.format, "folded");
	INT_EQ(r.p.decimals, 2);
	STR_EQ(r.folded, "a 150\nb 25\n");
	STR_EQ(af_profile_get_info(&r.p, "total"), "1.75 samples");
	read_result_release(&r);
	run(&r, "a 0.12345678\nb 2\n", NULL);
	INT_EQ(r.p.decimals, 6);
	STR_EQ(r.folded, "a 123456\nb 2000000\n");
	read_result_release(&r);
}

/* One blank before the count goes, as flamegraph.pl's regex takes it:
 * "f  2" is the frame "f ", the same as in "f ;g 3". Empty frames are
 * skipped; an empty stack adds to the total only. Blank lines, '#' and
 * '//' comments, CRLF and trailing blanks are nothing. */
void test_folded_blanks_and_comments(void)
{
	struct read_result r;
	run(&r, "# comment\r\n// another\n\nf  2\r\nf ;g 3  \t\n;;x;;y; 4\n 5\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "f  2\nf ;g 3\nx;y 4\n");
	INT_EQ(r.p.tree.nodes[AF_ROOT].self, 5);
	STR_EQ(af_profile_get_info(&r.p, "lines"), "7");
	STR_EQ(af_profile_get_info(&r.p, "stacks"), "4");
	OK(find_warning(&r.p, "malformed") == NULL);
	read_result_release(&r);
}

/* A line that does not parse is skipped, counted with the first one's
 * line number; --strict makes it an error on that line. A count that
 * would make a sum wrap is left out, counted. */
void test_folded_malformed_and_overflow(void)
{
	const char *in = "a 1\nno count here\nb 2\nc x3\nd 18446744073709551600\nd 100\n";
	struct read_result r;
	run(&r, in, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "a 1\nb 2\nd 18446744073709551600\n");
	const struct af_warning *w = find_warning(&r.p, "malformed lines skipped (first: line 2)");
	OK(w && w->count == 2);
	w = find_warning(&r.p, "counts too large to add");
	OK(w && w->count == 1);
	read_result_release(&r);
	struct af_read_opts o = { .strict = true };
	run(&r, in, &o);
	INT_EQ(r.rc, -1);
	STR_EQ(r.error, "t.folded:2: expected 'frame;frame;... count'");
	read_result_release(&r);
}

/* Detection: at least half of the first 32 lines that are not blank or
 * comments end in a count (a header line may open the file); text that
 * mostly does not is not folded stacks. */
void test_folded_detection(void)
{
	struct read_result r;
	run(&r, "some header\na;b 1\na;c 2\n", NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.p.format, "folded");
	read_result_release(&r);
	run(&r, "x\ny\na;b 1\n", NULL);
	INT_EQ(r.rc, -1);
	OK(strstr(r.error, "unrecognised input") != NULL);
	read_result_release(&r);
	/* folded stacks have no times */
	struct af_read_opts o = { .window = true, .to = 5 };
	run(&r, "a 1\n", &o);
	INT_EQ(r.rc, -1);
	OK(strstr(r.error, "--from and --to need a method trace") != NULL);
	read_result_release(&r);
}

/* As a flame chart a line merges only with the frames it shares with the
 * line before: "a;b" after "a;c" is a new b, starting at the samples
 * before it, and a line equal to the one before adds to it. */
void test_folded_flame_chart_order(void)
{
	struct af_read_opts o = { .timeline = true };
	struct read_result r;
	run(&r, "a;b 1\na;b 2\na;c 4\na;b 8\n", &o);
	INT_EQ(r.rc, 0);
	struct af_tree *t = &r.p.tree;
	uint32_t a = t->nodes[AF_ROOT].first_child;   /* added, not found: walk */
	OK(a != AF_NONE && t->nodes[a].next_sibling == AF_NONE);
	uint32_t first = t->nodes[a].first_child, n = 0;
	uint64_t self[4] = { 0 }, start[4] = { 0 };
	for (uint32_t c = first; c != AF_NONE && n < 4; c = t->nodes[c].next_sibling, n++) {
		self[n] = t->nodes[c].self;
		start[n] = af_tree_start(t, c);
	}
	INT_EQ(n, 3);
	INT_EQ(self[0] + self[1] + self[2], 15);
	/* in whatever order the children are linked: b 3 at 0, c 4 at 3, b 8 at 7 */
	int seen = 0;
	for (uint32_t i = 0; i < n; i++)
		seen |= (self[i] == 3 && start[i] == 0) << 0 | (self[i] == 4 && start[i] == 3) << 1 |
			(self[i] == 8 && start[i] == 7) << 2;
	INT_EQ(seen, 7);
	read_result_release(&r);
}

/* Several files read as one: their lines in order, a message naming the
 * file a line is in and its own line number there. */
void test_folded_several_inputs(void)
{
	struct af_input ins[2] = {
		{ .data = (const uint8_t *)"a 1\nb 2", .len = 7, .name = "one.folded" },
		{ .data = (const uint8_t *)"a 3\nbad\n", .len = 8, .name = "two.folded" },
	};
	struct af_profile p;
	struct af_diag d;
	struct af_read_opts o = { 0 };
	af_profile_init(&p);
	af_diag_init(&d, "one.folded");
	INT_EQ(af_read_inputs(&p, ins, 2, NULL, &o, &d), 0);
	char *got = folded_below(&p.tree, AF_ROOT);
	STR_EQ(got, "a 4\nb 2\n");
	free(got);
	OK(find_warning(&p, "malformed lines skipped (first: two.folded line 2)") != NULL);
	af_profile_release(&p);
	o.strict = true;
	af_profile_init(&p);
	af_diag_init(&d, "one.folded");
	INT_EQ(af_read_inputs(&p, ins, 2, NULL, &o, &d), -1);
	char msg[200];
	af_diag_format(&d, msg, sizeof msg);
	STR_EQ(msg, "two.folded:2: expected 'frame;frame;... count'");
	af_profile_release(&p);
}
