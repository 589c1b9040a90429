/* cli.c: the command line of the main command parsed through the option
 * table (options.c) with getopt_long, and the options checked against each
 * other; usage errors exit 2. */
#include "cli.h"
#include "options.h"
#include "core/palette.h"
#include "core/util.h"
#include "read/input.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define usage_error af_usage_error

/* The report's format from the output's extension: .csv, .json, .html; with
 * --report also .txt or none (text). -1: not a report. */
static int report_format(const char *path, bool asked)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (!dot || strchr(dot, '/'))
		return asked ? AF_REPORT_TEXT : -1;
	int f = af_report_format_from_path(path);
	if (asked && f < 0)
		usage_error("--report writes %s, not '%s'", af_report_extensions_shown(), path);
	return f == AF_REPORT_TEXT && !asked ? -1 : f;   /* .txt alone: folded stacks */
}

/* --report, --top, --from and --to: check them against the rest. */
static void check_report_and_window(struct af_cli *c)
{
	struct af_run_opts *o = &c->run;
	if (o->format == AF_OUT_AUTO) {
		int rf = report_format(o->output, o->report);
		if (rf >= 0) {
			o->report = true;
			o->report_format = (enum af_report_format)rf;
		}
	} else if (o->report) {
		usage_error("--report and --format cannot be combined");
	}
	if (o->report && c->per_thread)
		usage_error("--report and --per-thread cannot be combined");
	if (o->report)   /* a method is identified by its whole signature */
		o->read.signatures = o->read.returns = true;
	if (o->top && !o->report)
		usage_error("--top applies to the report (--report)");
	if (c->from_set || c->to_set) {
		o->read.window = true;
		if (!c->to_set)
			o->read.to = UINT64_MAX;
		if (o->read.from >= o->read.to)
			usage_error("--from must be earlier than --to");
	}
}

/* --diff: two inputs, or two groups split by "--" (before: the inputs
 * before it, -1 if there is none), one graph or report of both. */
static void check_diff(struct af_run_opts *o, long before)
{
	if (before > 0 && (size_t)before < o->ninputs) {
		o->nbefore = (size_t)before;
	} else if (before > 0) {
		usage_error("--diff BEFORE... -- AFTER...: no AFTER input after '--'");
	} else {
		if (o->ninputs != 2)
			usage_error("--diff compares two inputs, BEFORE and AFTER (%zu given)", o->ninputs);
		o->nbefore = 1;
	}
	if (o->info)
		usage_error("--info and --diff cannot be combined");
	if (o->read.timeline)
		usage_error("--flamechart and --diff cannot be combined");
	if (!af_backend_of(o->format)->diff)
		usage_error("--diff writes %s, not %s", af_out_format_diff_names(),
			    af_backend_of(o->format)->name);
}

/* No extension: SVG, as before there were other formats. */
static enum af_out_format format_from_path(const char *path)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (!dot || strchr(dot, '/'))
		return AF_OUT_SVG;
	enum af_out_format f = af_out_format_from_path(path);
	if (f == AF_OUT_AUTO)
		usage_error("cannot tell the output format from '%s' (use --format)", path);
	return f;
}

/* Transforms are applied in run.c's produce(), to one graph at a time. */
static void check_transforms(const struct af_cli *c)
{
	if (!af_transforms_any(&c->run.tx))
		return;
	if (c->per_thread)
		usage_error("--include, --exclude, --idle, --root, --hide, --collapse-recursion and "
			    "--merge-threads cannot be combined with --per-thread yet");
	if (c->diff)
		usage_error("--include, --exclude, --idle, --root, --hide, --collapse-recursion and "
			    "--merge-threads cannot be combined with --diff yet");
	if (c->run.read.timeline)
		usage_error("--include, --exclude, --idle, --root, --hide, --collapse-recursion and "
			    "--merge-threads cannot be combined with --flamechart (merged frames "
			    "have no single start)");
}

/* --per-thread writes a directory: what cannot go with it. */
static void check_per_thread(struct af_cli *c)
{
	if (c->run.output)
		usage_error("--per-thread writes into a directory: leave out -o");
	if (c->diff)
		usage_error("--diff and --per-thread cannot be combined");
	if (c->run.info)
		usage_error("--info and --per-thread cannot be combined");
	if (c->run.nprocesses)
		usage_error("-p and --per-thread cannot be combined (use -t)");
	if (c->run.format == AF_OUT_AUTO)
		c->run.format = AF_OUT_SVG;
	if (c->run.cp)
		usage_error("--per-thread cannot be combined with --cp");
	if (c->run.average)
		usage_error("--average applies to several inputs drawn as one graph, not --per-thread "
			    "(one folder per input)");
}

/* ---- getopt_long from the table ---- */

#define NOPTIONS_MAX 128

/* The options as getopt_long takes them, sorted by name (its message for
 * an ambiguous abbreviation lists them in this order), and the short ones
 * ("f:hj:..."). val is 256 + the option's place in af_options[]. */
static struct option long_options[NOPTIONS_MAX + 1];
static char short_options[2 * NOPTIONS_MAX + 1];

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct option *)a)->name, ((const struct option *)b)->name);
}

static void make_getopt_tables(void)
{
	size_t n = 0, k = 0;
	for (const struct af_option *opt = af_options; opt->name && n < NOPTIONS_MAX; opt++, n++) {
		long_options[n] = (struct option){ opt->name, opt->arg ? required_argument : no_argument,
						   NULL, 256 + (int)(opt - af_options) };
		if (opt->short_name) {
			short_options[k++] = opt->short_name;
			if (opt->arg)
				short_options[k++] = ':';
		}
	}
	qsort(long_options, n, sizeof *long_options, by_name);
}

/* The table's entry of what getopt_long returned: 256 + its place, or a
 * short name; NULL: an error getopt_long has already printed. */
static const struct af_option *option_of(int c)
{
	if (c >= 256)
		return &af_options[c - 256];
	for (const struct af_option *opt = af_options; opt->name; opt++)
		if (c != '?' && opt->short_name == c)
			return opt;
	return NULL;
}

/* The long option a lower-cased "--name" (without "=value") stands for:
 * the exact name or a unique prefix; NULL if none or ambiguous. */
static const struct af_option *long_option(const char *name, size_t len)
{
	const struct af_option *found = NULL;
	for (const struct af_option *opt = af_options; opt->name; opt++) {
		if (strncmp(opt->name, name, len) != 0)
			continue;
		if (opt->name[len] == 0)
			return opt;
		if (found)
			return NULL;
		found = opt;
	}
	return found;
}

/* Does short option letter c take a value? */
static bool short_takes_value(char c)
{
	for (const struct af_option *opt = af_options; opt->name; opt++)
		if (opt->short_name == c)
			return opt->arg != NULL;
	return false;
}

/* Long options are case-insensitive, as in flamegraph.pl's Getopt::Long
 * (--WIDTH, --Title): lower-case their names in place before getopt_long
 * sees them. Values are left alone, including a separate value that starts
 * with "--" (--title --X--), so the option before each one is looked up.
 * Returns how many inputs come before "--" (--diff's BEFORE group; getopt
 * moves "--" itself), or -1 if there is no "--". */
static long lower_long_options(int argc, char **argv)
{
	long inputs = 0;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (strcmp(a, "--") == 0)
			return inputs;
		if (a[0] != '-' || a[1] == 0) {
			inputs++;
			continue;
		}
		if (a[1] != '-') {   /* short options: a value may follow */
			size_t k = 1;
			while (a[k] && !short_takes_value(a[k]))
				k++;
			i += a[k] && a[k + 1] == 0;
			continue;
		}
		size_t len = strcspn(a + 2, "=");
		for (size_t k = 2; k < 2 + len; k++)
			if (a[k] >= 'A' && a[k] <= 'Z')
				a[k] = (char)(a[k] - 'A' + 'a');
		const struct af_option *opt = long_option(a + 2, len);
		i += opt && opt->arg && a[2 + len] == 0;
	}
	return -1;
}

/* No FILE: standard input, as flamegraph.pl reads it; a terminal there
 * means the user forgot the file, so say how to call us instead. */
static void default_input(struct af_run_opts *o)
{
	static char dash[] = "-";
	static char *stdin_only[] = { dash };
	if (isatty(STDIN_FILENO)) {
		af_options_usage_line(stderr);
		usage_error("no input file given, and standard input is a terminal");
	}
	o->inputs = stdin_only;
	o->ninputs = 1;
}

/* Returns what lower_long_options() does. */
static long parse_argv(struct af_cli *o, int argc, char **argv)
{
	static char prog[] = AF_PROG;   /* getopt's messages name it */
	argv[0] = prog;
	make_getopt_tables();
	long before_dashes = lower_long_options(argc, argv);
	int c;
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		const struct af_option *opt = option_of(c);
		if (!opt) {
			fprintf(stderr, "Try '" AF_PROG " --help' for more information.\n");
			exit(2);
		}
		af_option_apply(o, opt, opt->arg ? optarg : NULL);
	}
	o->run.inputs = argv + optind;
	o->run.ninputs = (size_t)(argc - optind);
	if (!o->run.ninputs)
		default_input(&o->run);
	return before_dashes;
}

/* The output's format from --format, --static and -o's extension. */
static void choose_format(struct af_cli *c)
{
	struct af_run_opts *o = &c->run;
	if (o->format == AF_OUT_AUTO && !o->report)
		o->format = format_from_path(o->output);
	if (c->static_svg && o->format == AF_OUT_SVG)
		o->format = AF_OUT_SVG_STATIC;
	else if (c->static_svg && o->format != AF_OUT_SVG_STATIC)
		usage_error("--static applies to SVG output only");
}

void af_cli_parse(struct af_cli *c, int argc, char **argv)
{
	memset(c, 0, sizeof *c);
	struct af_run_opts *o = &c->run;
	af_layout_opts_default(&o->layout);
	af_render_opts_default(&o->render);
	o->read.max_input = AF_INPUT_MAX_DEFAULT;
	long before_dashes = parse_argv(c, argc, argv);
	if (c->per_thread)
		check_per_thread(c);
	else if (c->diff)
		check_diff(o, before_dashes);
	if (o->normalize && !c->diff)
		usage_error("--normalize applies to --diff");
	if (o->read.cpu_samples && o->read.heap != AF_HEAP_NONE)
		usage_error("--cpu-samples and --heap cannot be combined (one graph draws one kind of sample)");
	if (af_palette_background(c->bgcolors, o->layout.palette.palette,
				  &o->render.bg_top, &o->render.bg_bottom) < 0)
		usage_error("unknown background '%s' (yellow, blue, green, grey or #rrggbb)", c->bgcolors);
	check_report_and_window(c);
	check_transforms(c);
	choose_format(c);
	if (!o->output)
		o->output = "-";
}
