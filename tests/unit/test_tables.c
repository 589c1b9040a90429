/* test_tables.c: the option table of the main command (src/cli/options.c)
 * is one that getopt_long and --help can be made from (names unique and
 * lower case, short letters unique, each entry's kind with what it needs),
 * and an entry sets what it says; the output table (src/render/render.c)
 * answers --format, -o's extension and the batch's questions. */
#include "harness.h"
#include "cli/options.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void test_options_table_sane(void)
{
	size_t n = 0;
	for (const struct af_option *a = af_options; a->name; a++, n++) {
		for (const char *c = a->name; *c; c++)
			OK(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '-');
		for (const struct af_option *b = af_options; b < a; b++) {
			OK(strcmp(a->name, b->name) != 0);
			OK(!a->short_name || a->short_name != b->short_name);
		}
		if (a->kind == AF_OPT_TRUE || a->kind == AF_OPT_TEXT || a->kind == AF_OPT_NUMBER)
			OK(a->field < sizeof(struct af_cli));
		if (a->kind == AF_OPT_TRUE)
			OK(!a->arg && (a->field2 == AF_OPT_NO_FIELD || a->field2 < sizeof(struct af_cli)));
		if (a->kind == AF_OPT_TEXT || a->kind == AF_OPT_NUMBER)
			OK(a->arg != NULL);
		if (a->kind == AF_OPT_NUMBER)
			OK(a->min <= a->max);
		if (a->kind == AF_OPT_CALL)
			OK(a->fn != NULL);
		OK(a->complete == AF_COMPLETE_NOTHING || a->arg);
		OK((a->complete == AF_COMPLETE_WORDS || a->complete == AF_COMPLETE_OUTPUT) == (a->words != NULL));
		OK(a->help || a->hidden || a > af_options);   /* NULL: on the line before */
	}
	OK(n >= 61);
}

/* What an entry sets, through af_option_apply(), as the command line would. */
void test_options_apply_sets_fields(void)
{
	struct af_cli c;
	memset(&c, 0, sizeof c);
	for (const struct af_option *a = af_options; a->name; a++) {
		if (strcmp(a->name, "flamechart") == 0)
			af_option_apply(&c, a, NULL);
		else if (strcmp(a->name, "width") == 0)
			af_option_apply(&c, a, "640");
		else if (strcmp(a->name, "title") == 0)
			af_option_apply(&c, a, "T");
		else if (strcmp(a->name, "thread") == 0) {
			af_option_apply(&c, a, "main");
			af_option_apply(&c, a, "42");
		}
	}
	OK(c.run.read.timeline && c.run.layout.chart);
	OK(c.run.layout.width == 640);
	STR_EQ(c.run.title, "T");
	INT_EQ(c.run.nthreads, 2);
	STR_EQ(c.run.threads[1], "42");
	free(c.run.threads);
}

/* The output table (render/render.c): every entry complete, names unique;
 * -o's extension picks the first entry listing it. */
void test_output_table(void)
{
	size_t n = 0;
	for (const struct af_backend *const *b = af_backends; *b; b++, n++) {
		OK((*b)->name && (*b)->exts && (*b)->exts[0] && (*b)->label);
		OK(!(*b)->draw != !(*b)->write);
		OK(af_backend_of((*b)->format) == *b);
		INT_EQ(af_out_format_named((*b)->name), (*b)->format);
		for (const struct af_backend *const *c = af_backends; c < b; c++)
			OK(strcmp((*c)->name, (*b)->name) != 0 && (*c)->format != (*b)->format);
	}
	OK(n >= 7);
	INT_EQ(af_out_format_from_path("a/b.svg"), AF_OUT_SVG);
	INT_EQ(af_out_format_from_path("b.txt"), AF_OUT_FOLDED);
	INT_EQ(af_out_format_from_path("b.frames"), AF_OUT_FRAMES);
	INT_EQ(af_out_format_from_path("b.jpg"), AF_OUT_AUTO);
	INT_EQ(af_out_format_from_path("a.svg/b"), AF_OUT_AUTO);
	STR_EQ(af_out_format_ext(AF_OUT_TREE), "txt");
	STR_EQ(af_out_format_ext(AF_OUT_SVG_STATIC), "svg");
	OK(af_out_format_cairo(AF_OUT_PNG) && !af_out_format_cairo(AF_OUT_SVG));
	STR_EQ(af_out_format_extensions(), "svg png pdf folded txt frames pb.gz pprof pb");
	/* a two-part extension, and the one-part one inside it */
	INT_EQ(af_out_format_from_path("dir.x/c.pb.gz"), AF_OUT_PPROF);
	INT_EQ(af_out_format_from_path("c.pb"), AF_OUT_PPROF_PB);
	INT_EQ(af_out_format_from_path("c.gz"), AF_OUT_AUTO);
	INT_EQ(af_out_format_from_path("a.pb.gz/b"), AF_OUT_AUTO);
	STR_EQ(af_out_format_ext(AF_OUT_PPROF), "pb.gz");
	STR_EQ(af_out_format_diff_names(), "svg, svg-static, png, pdf, folded or frames");
	INT_EQ(af_report_format_from_path("r.htm"), AF_REPORT_HTML);
	INT_EQ(af_report_format_from_path("r.svg"), -1);
	STR_EQ(af_report_extensions_shown(), ".txt, .csv, .json or .html");
}
