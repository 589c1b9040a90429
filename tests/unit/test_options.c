/* test_options.c: the option table of the main command (src/cli/options.c)
 * is one that getopt_long and --help can be made from (names unique and
 * lower case, short letters unique, each entry's kind with what it needs),
 * and an entry sets what it says. */
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
