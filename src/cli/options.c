/* options.c: the option table of the main command (options.h): each
 * option's names, value, help text and what it sets, in one place; --help
 * and the completion helper are printed from it. The checks between
 * options are cli.c's. */
#include "options.h"
#include "core/buf.h"
#include "core/palette.h"
#include "core/util.h"
#include "read/input.h"

#include <errno.h>
#include <iconv.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef AF_VERSION
#error "AF_VERSION comes from VERSION in the Makefile"
#endif

const char af_version[] = AF_VERSION;

void af_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, AF_PROG ": ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" AF_PROG " --help' for more information.\n");
	exit(2);
}

double af_opt_number(const char *opt, const char *s, double min, double max)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max))
		af_usage_error("invalid %s '%s' (expected a number from %g to %g)", opt, s, min, max);
	return v;
}

double af_opt_whole(const char *opt, const char *s, double min, double max)
{
	double v = af_opt_number(opt, s, min, max);
	if (v != (double)(uint64_t)v)
		af_usage_error("invalid %s '%s' (expected a whole number from %g to %g)", opt, s, min, max);
	return v;
}

/* ---- what the options that do more than set a field do ---- */

/* -t and -p: repeatable, each value appended */
static void append(char ***list, size_t *n, size_t *cap, const char *arg)
{
	af_grow(list, cap, *n + 1, sizeof **list);
	(*list)[(*n)++] = (char *)arg;
}

static void add_thread(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	append(&o->run.threads, &o->run.nthreads, &o->cap_threads, arg);
}

static void add_process(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	append(&o->run.processes, &o->run.nprocesses, &o->cap_processes, arg);
}

static const char *const heap_names[] = {
	[AF_HEAP_UNRELEASED] = "unreleased", [AF_HEAP_ALLOCATED] = "allocated",
	[AF_HEAP_FREED] = "freed", [AF_HEAP_UNRELEASED_COUNT] = "unreleased-count",
	[AF_HEAP_ALLOCATED_COUNT] = "allocated-count", [AF_HEAP_FREED_COUNT] = "freed-count",
};

static void set_heap(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	o->run.read.heap = AF_HEAP_NONE;
	for (size_t i = AF_HEAP_UNRELEASED; i < sizeof heap_names / sizeof *heap_names; i++)
		if (strcmp(arg, heap_names[i]) == 0)
			o->run.read.heap = (enum af_heap_value)i;
	if (o->run.read.heap == AF_HEAP_NONE)
		af_usage_error("unknown heap value '%s' (unreleased, allocated, freed, or one of them with -count)", arg);
}

static void set_format(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	o->run.format = af_out_format_named(arg);
	if (o->run.format == AF_OUT_AUTO)
		af_usage_error("unknown output format '%s' (%s)", arg, af_out_format_names());
}

static void set_top(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	o->run.top = (size_t)af_opt_whole("--top", arg, 1, 1e9);
}

/* A time in µs: a number, or a number with the unit us, µs, ms or s. */
static uint64_t parse_time(const char *opt, const char *s)
{
	static const struct { const char *unit; double us; } units[] = {
		{ "", 1 }, { "us", 1 }, { "\xc2\xb5s", 1 }, { "ms", 1e3 }, { "s", 1e6 },
	};
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!errno && end != s && v >= 0) {
		for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
			double us = v * units[i].us;
			if (strcmp(end, units[i].unit) == 0 && us < 1.8e19)
				return (uint64_t)(us + 0.5);
		}
	}
	af_usage_error("invalid %s '%s' (expected a time: 1500, 20us, 500ms, 1.2s)", opt, s);
}

static void set_from(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	o->run.read.from = parse_time("--from", arg);
	o->from_set = true;
}

static void set_to(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	o->run.read.to = parse_time("--to", arg);
	o->to_set = true;
}

/* --exclude, --include, --root, --hide: opt->aux says which */
static void set_regex(struct af_cli *o, const struct af_option *opt, const char *re)
{
	char err[128];
	if (af_transforms_set(&o->run.tx, (enum af_tx_re)opt->aux, re, err, sizeof err) < 0)
		af_usage_error("invalid --%s regex '%s': %s", opt->name, re, err);
}

static void set_idle(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt, (void)arg;
	af_transforms_set_idle(&o->run.tx);
}

static void set_jobs(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;   /* at most 64 outputs open at once: see output.c */
	double v = af_opt_number("--jobs", arg, 1, 64);
	o->jobs = (unsigned)v;
	if (o->jobs != v)
		af_usage_error("invalid --jobs '%s' (expected a whole number from 1 to 64)", arg);
}

static void set_reader(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	o->run.reader = af_reader_named(arg);
	if (!o->run.reader)
		af_usage_error("unknown input format '%s' (%s)", arg, af_reader_names());
}

static void set_clock(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	if (strcmp(arg, "wall") == 0)
		o->run.read.clock = AF_CLOCK_WALL;
	else if (strcmp(arg, "cpu") == 0 || strcmp(arg, "thread-cpu") == 0)
		o->run.read.clock = AF_CLOCK_CPU;
	else
		af_usage_error("unknown clock '%s' (wall or cpu)", arg);
}

static void set_minwidth(struct af_cli *o, const struct af_option *opt, const char *s)
{
	(void)opt;
	size_t n = strlen(s);
	if (n && s[n - 1] == '%') {
		char *copy = af_xstrndup(s, n - 1);
		o->run.layout.min_width_pct = af_opt_number("--minwidth", copy, 0, 100);
		free(copy);
	} else {
		o->run.layout.min_width = af_opt_number("--minwidth", s, 0, 1e9);
	}
}

static void set_palette(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	int pal = af_palette_by_name(arg);
	if (pal < 0)
		af_usage_error("unknown palette '%s' (see --help)", arg);
	o->run.layout.palette.palette = (enum af_palette)pal;
	o->run.layout.palette.chosen = true;
	o->run.read.mark_wakers = pal == AF_PAL_CHAIN;
}

/* checked now, read once the profile's decimals are known (run.c) */
static void set_total(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	af_opt_number("--total", arg, 0, 1e19);
	o->run.total = arg;
}

static void set_encoding(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)opt;
	iconv_t cd = iconv_open("UTF-8", arg);
	if (cd == (iconv_t)-1)
		af_usage_error("unknown --encoding '%s' (a character set iconv knows, e.g. ISO-8859-1)", arg);
	iconv_close(cd);
	o->run.read.encoding = arg;
}

/* --max-input-size, --max-output-size: bytes, or a whole number with K, M or
 * G (powers of 1024), as serve's --max-upload takes them. */
static uint64_t parse_size(const char *name, const char *s)
{
	char *end = (char *)s;
	errno = 0;
	unsigned long long v = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
	unsigned shift = 0;
	if (end != s && *end && !end[1] && strchr("KkMmGg", *end)) {
		shift = 10 * (unsigned)(1 + (strchr("KkMmGg", *end) - "KkMmGg") / 2);
		end++;
	}
	if (errno || end == s || *end || v == 0 || v > (UINT64_MAX >> shift))
		af_usage_error("invalid --%s '%s' (expected a whole number of bytes from 1, "
			       "or with K, M or G)", name, s);
	return (uint64_t)v << shift;
}

static void set_max_input(struct af_cli *o, const struct af_option *opt, const char *s)
{
	(void)opt;
	o->run.read.max_input = parse_size("max-input-size", s);
}

static void set_max_output(struct af_cli *o, const struct af_option *opt, const char *s)
{
	(void)opt;
	o->run.render.max_output = parse_size("max-output-size", s);
}

static void print_help(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)o, (void)opt, (void)arg;
	af_options_help(stdout);
	exit(0);
}

static void print_version(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)o, (void)opt, (void)arg;
	printf(AF_PROG " %s\n", af_version);
	exit(0);
}

static void completion_helper(struct af_cli *o, const struct af_option *opt, const char *arg);

/* ---- the completion's words ---- */

/* "a, b or c" (a table's names for --help) as "a b c" */
static const char *words_of(char *buf, size_t size, const char *list)
{
	if (buf[0])
		return buf;
	size_t n = 0;
	for (const char *s = list; *s && n + 1 < size; ) {
		if (strncmp(s, ", ", 2) == 0 || strncmp(s, " or ", 4) == 0) {
			buf[n++] = ' ';
			s += s[0] == ',' ? 2 : 4;
		} else {
			buf[n++] = *s++;
		}
	}
	buf[n] = 0;
	return buf;
}

static const char *reader_words(void)
{
	static char buf[256];
	return words_of(buf, sizeof buf, af_reader_names());
}

static const char *output_words(void)
{
	static char buf[256];
	return words_of(buf, sizeof buf, af_out_format_names());
}

/* -o's: the graphs' and the reports' */
static const char *output_extensions(void)
{
	static char buf[256];
	if (!buf[0])
		snprintf(buf, sizeof buf, "%s %s", af_out_format_extensions(), af_report_extensions());
	return buf;
}

static const char *heap_words(void)
{
	static char buf[128];
	size_t n = 0;
	if (buf[0])
		return buf;
	for (size_t i = AF_HEAP_UNRELEASED; i < sizeof heap_names / sizeof *heap_names; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? " " : "", heap_names[i]);
	return buf;
}

static const char *palette_words(void)
{
	static char buf[256];
	size_t n = 0;
	if (buf[0])
		return buf;
	for (int i = 0; i < AF_PAL_COUNT; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? " " : "",
				      af_palette_name((enum af_palette)i));
	return buf;
}

static const char *clock_words(void) { return "wall cpu"; }
static const char *background_words(void) { return "yellow blue green grey"; }
/* the usual ones; a file may name others (--info lists them) */
static const char *event_words(void)
{
	return "cpu-clock task-clock cpu-cycles instructions sched:sched_switch";
}

/* ---- the table ---- */

#define FIELD(f) offsetof(struct af_cli, f)
#define TRUE(f) .kind = AF_OPT_TRUE, .field = FIELD(f), .field2 = AF_OPT_NO_FIELD
#define TRUE2(f, g) .kind = AF_OPT_TRUE, .field = FIELD(f), .field2 = FIELD(g)
#define TEXT(f) .kind = AF_OPT_TEXT, .field = FIELD(f)
#define NUMBER(f, lo, hi) .kind = AF_OPT_NUMBER, .field = FIELD(f), .min = (lo), .max = (hi)
#define CALL(f) .kind = AF_OPT_CALL, .fn = (f)
#define CALL_WITH(f, a) .kind = AF_OPT_CALL, .fn = (f), .aux = (a)
#define IGNORED .kind = AF_OPT_IGNORED
#define COMPLETES(c) .complete = (c)
#define WORDS(w) .complete = AF_COMPLETE_WORDS, .words = (w)
#define OUTPUT(w) .complete = AF_COMPLETE_OUTPUT, .words = (w)

const struct af_option af_options[] = {
	{ "thread", 't', "NAME|TID",
	  "draw this thread (repeatable; default: all threads)",
	  CALL(add_thread) },
	{ "process", 'p', "NAME|PID",
	  "draw this process (repeatable; atrace captures)",
	  CALL(add_process) },
	{ "async", 0, NULL,
	  "atrace: draw async slices (S/F, G/H) per process",
	  TRUE(run.read.async) },
	{ "cpu-samples", 0, NULL,
	  "Perfetto: draw the CPU samples (perf_sample, streaming\n"
	  "profile) instead of the slices",
	  TRUE(run.read.cpu_samples) },
	{ "heap", 0, "WHAT",
	  "Perfetto: draw the heap profiles (heapprofd), weighed\n"
	  "by unreleased (default when a trace has nothing else),\n"
	  "allocated or freed bytes, or with -count, allocations",
	  CALL(set_heap), WORDS(heap_words) },
	{ "event", 0, "NAME",
	  "perf.data, simpleperf, pprof: draw this event (sample)\n"
	  "type (default: the first, usually cpu-clock; pprof: its\n"
	  "default or the last; --info lists them)",
	  TEXT(run.read.event), WORDS(event_words) },
	{ "output", 'o', "FILE",
	  "write here (default: standard output); the format\n"
	  "follows the extension: @EXTENSIONS@",
	  TEXT(run.output), OUTPUT(output_extensions) },
	{ "format", 0, "FMT",
	  "@OUTPUTS@ (frames:\n"
	  "one line per drawn frame; pprof-pb: pprof not gzip'd);\n"
	  "overrides the extension",
	  CALL(set_format), WORDS(output_words) },
	{ "report", 0, NULL,
	  "the method profile instead of a graph: exclusive and\n"
	  "inclusive time, calls, callers and callees per method;\n"
	  "-o .txt (default), .csv, .json or .html (these three\n"
	  "imply --report)",
	  TRUE(run.report) },
	{ "top", 0, "N",
	  "the report's N methods with the most exclusive time\n"
	  "(with --diff: the N largest changes)",
	  CALL(set_top) },
	{ "diff", 0, NULL,
	  "compare two runs: widths from AFTER, red where it spent\n"
	  "more time than BEFORE, blue where less; work only in\n"
	  "BEFORE in a band of its own; with --report the change\n"
	  "of every method; groups of runs: --diff A1 A2 -- B1 B2\n"
	  "(each side's captures averaged)",
	  TRUE(diff) },
	{ "diff-total", 0, NULL,
	  "differential graphs: colour by the change of inclusive\n"
	  "time instead of self time (--report: sort by it)",
	  TRUE(run.layout.diff_total) },
	{ "normalize", 0, NULL,
	  "--diff: scale BEFORE's times to AFTER's total",
	  TRUE2(run.normalize, run.layout.normalized) },
	{ "average", 0, NULL,
	  "several FILEs as one graph: their summed weights divided\n"
	  "by their number (N iterations read as one)",
	  TRUE(run.average) },
	{ "flamechart", 0, NULL,
	  "calls or slices in time order on a time axis, or folded\n"
	  "stacks in input order (flamegraph.pl --flamechart)",
	  TRUE2(run.read.timeline, run.layout.chart) },
	{ "from", 0, "T",
	  "only the time from T to T (traces): µs, or with a unit:\n"
	  "20us, 500ms, 1.2s; wall: since the trace start, cpu:\n"
	  "since each thread's first event",
	  CALL(set_from) },
	{ "to", 0, "T", NULL, CALL(set_to) },
	{ "merge-threads", 0, NULL,
	  "the selected threads in one graph, no thread roots",
	  TRUE(run.tx.merge_threads) },
	{ "exclude", 0, "RE",
	  "drop the stacks through a frame matching RE",
	  CALL_WITH(set_regex, AF_TX_EXCLUDE) },
	{ "include", 0, "RE",
	  "keep only the stacks through a frame matching RE",
	  CALL_WITH(set_regex, AF_TX_INCLUDE) },
	{ "idle", 0, NULL,
	  "drop stacks whose leaf is an Android idle frame\n"
	  "(nativePollOnce, Object.wait, epoll_wait, futex...)",
	  CALL(set_idle) },
	{ "root", 0, "RE",
	  "re-root each stack at its outermost frame matching RE\n"
	  "and drop the stacks without one",
	  CALL_WITH(set_regex, AF_TX_ROOT) },
	{ "hide", 0, "RE",
	  "remove frames matching RE (callees go to the caller)",
	  CALL_WITH(set_regex, AF_TX_HIDE) },
	{ "collapse-recursion", 0, NULL,
	  "a frame called directly by itself shows once\n"
	  "(these apply in this order; RE: POSIX extended,\n"
	  "found anywhere in a frame name unless anchored; see\n"
	  "docs/transforms.md)",
	  TRUE(run.tx.collapse) },
	{ "static", 0, NULL,
	  "SVG without script, text as shapes (svg-static)",
	  TRUE(static_svg) },
	{ "scale", 0, "N",
	  "PNG pixels per image pixel, e.g. 2 for HiDPI (default: 1)",
	  NUMBER(run.render.scale, 0.25, 16) },
	{ "per-thread", 0, "DIR",
	  "one file per thread in DIR, <tid>-<name>.<ext>, and\n"
	  "DIR/index.html; several FILEs go to DIR/<file name>/",
	  TEXT(per_thread), COMPLETES(AF_COMPLETE_DIR) },
	{ "jobs", 'j', "N",
	  "render on N threads (with --per-thread; default: one\n"
	  "per processor, at most 8)",
	  CALL(set_jobs) },
	{ "input-format", 'f', "FMT",
	  "@READERS@\n"
	  "(default: detected from the content)",
	  CALL(set_reader), WORDS(reader_words) },
	{ "clock", 0, "CLOCK",
	  "wall or cpu (default: wall when the trace has it)",
	  CALL(set_clock), WORDS(clock_words) },
	{ "signatures", 0, NULL,
	  "add parameter types to method names",
	  TRUE(run.read.signatures) },
	{ "title", 0, "TEXT",
	  "graph title (default: the thread name)",
	  TEXT(run.title) },
	{ "subtitle", 0, "TEXT",
	  "second title line (default: the file and what is\n"
	  "weighed; '' for none, flamegraph.pl's layout)",
	  TEXT(run.subtitle) },
	{ "width", 0, "PX",
	  "image width (default: 1200)",
	  NUMBER(run.layout.width, 100, 1e6) },
	{ "minwidth", 0, "PX[%]",
	  "leave out frames narrower than this (default: 0.1)",
	  CALL(set_minwidth) },
	{ "colors", 0, "PALETTE",
	  "hot, mem, io, wakeup, chain, java, js, perl, red,\n"
	  "green, blue, aqua, yellow, purple, orange, android\n"
	  "(default: android for Android captures, else hot)",
	  CALL(set_palette), WORDS(palette_words) },
	{ "app-package", 0, "PKG",
	  "android palette: the app's own code (default: the\n"
	  "package with the most methods outside the platform)",
	  TEXT(run.layout.palette.app_package) },
	{ "bgcolors", 0, "COLOR",
	  "background: yellow, blue, green, grey or #rrggbb",
	  TEXT(bgcolors), WORDS(background_words) },
	{ "hash", 0, NULL,
	  "names that start alike get alike colours",
	  TRUE(run.layout.palette.hash) },
	{ "cp", 0, NULL,
	  "keep colours in ./palette.map across runs",
	  TRUE(run.cp) },
	{ "no-legend", 0, NULL,
	  "no legend of what the colours mean (shown by default\n"
	  "with java, js, perl, chain, android and diff colours)",
	  TRUE(run.layout.no_legend) },
	{ "right-cut", 0, NULL,
	  "cut labels at the right with \"..\" as flamegraph.pl\n"
	  "does (default: keep the method, see LABELS in the man\n"
	  "page)",
	  TRUE(run.render.right_cut) },
	{ "height", 0, "PX",
	  "frame height (default: 16)",
	  NUMBER(run.layout.frame_height, 2, 1000) },
	{ "fonttype", 0, "FONT",
	  "font family (default: DejaVu Sans)",
	  TEXT(run.render.font_family) },
	{ "fontsize", 0, "PX",
	  "font size (default: 12)",
	  NUMBER(run.layout.font_size, 1, 1000) },
	{ "fontwidth", 0, "F",
	  "average glyph width relative to the size (0.59)",
	  NUMBER(run.render.font_width, 0.01, 10) },
	{ "countname", 0, "TEXT",
	  "what the counts are (default: samples, or µs)",
	  TEXT(run.count_name) },
	{ "nametype", 0, "TEXT",
	  "shown before the frame in the details line",
	  TEXT(run.render.name_type) },
	{ "inverted", 0, NULL,
	  "icicle graph: callers at the top",
	  TRUE(run.layout.inverted) },
	{ "reverse", 0, NULL,
	  "folded: frames of each stack in reverse order",
	  TRUE(run.read.reverse) },
	{ "negate", 0, NULL,
	  "differential graphs: swap red and blue",
	  TRUE(run.layout.negate) },
	{ "factor", 0, "F",
	  "show counts multiplied by F",
	  NUMBER(run.render.factor, 1e-12, 1e12) },
	{ "total", 0, "N",
	  "the full width stands for N (when more than the sum)",
	  CALL(set_total) },
	{ "notes", 0, "TEXT",
	  "a comment in the SVG",
	  TEXT(run.render.notes) },
	{ "nameattr", 0, "FILE",
	  "attributes for frames by name, flamegraph.pl's format\n"
	  "'name<TAB>href=URL<TAB>title=TEXT...': a link or\n"
	  "tooltip per function (interactive SVG; no on*\n"
	  "attributes, no javascript: links)",
	  TEXT(nameattr), COMPLETES(AF_COMPLETE_FILE) },
	{ "encoding", 0, "NAME",
	  "the input text's character set (iconv name, e.g.\n"
	  "ISO-8859-1); output is always UTF-8",
	  CALL(set_encoding), COMPLETES(AF_COMPLETE_CHARSET) },
	{ "random", 0, NULL,
	  "accepted for flamegraph.pl: colours are always drawn\n"
	  "from a hash of the name (deterministic)",
	  IGNORED },
	{ "strict", 0, NULL,
	  "malformed folded lines are errors, not warnings",
	  TRUE(run.read.strict) },
	{ "info", 0, NULL,
	  "print what the file holds (header, threads, warnings)",
	  TRUE2(run.info, run.read.info_only) },
	{ "max-input-size", 0, "SIZE",
	  "refuse an input longer than SIZE bytes, or with\n"
	  "K, M or G (default: 8G; stdin, pipes, devices too)",
	  CALL(set_max_input) },
	{ "max-output-size", 0, "SIZE",
	  "refuse a folded or tree output (whose lines repeat\n"
	  "callers) of more than SIZE bytes (default: 2G)",
	  CALL(set_max_output) },
	{ "no-js", 0, NULL,
	  "interactive SVG without its script (for tests)",
	  TRUE(run.render.no_js) },
	{ "help", 'h', NULL,
	  "print this help",
	  CALL(print_help) },
	{ "version", 'V', NULL,
	  "print the version",
	  CALL(print_version) },
	{ "completion-helper", 0, NULL, NULL, CALL(completion_helper), .hidden = true },
	{ NULL, 0, NULL, NULL, .kind = AF_OPT_IGNORED },
};

/* ---- applying one ---- */

void af_option_apply(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	char *base = (char *)o;
	switch (opt->kind) {
	case AF_OPT_TRUE:
		*(bool *)(base + opt->field) = true;
		if (opt->field2 != AF_OPT_NO_FIELD)
			*(bool *)(base + opt->field2) = true;
		break;
	case AF_OPT_TEXT:
		*(const char **)(base + opt->field) = arg;
		break;
	case AF_OPT_NUMBER: {
		char name[64];
		snprintf(name, sizeof name, "--%s", opt->name);
		*(double *)(base + opt->field) = af_opt_number(name, arg, opt->min, opt->max);
		break;
	}
	case AF_OPT_CALL:
		opt->fn(o, opt, arg);
		break;
	case AF_OPT_IGNORED:
		break;
	}
}

/* ---- --help ---- */

static const char usage_head[] =
	"usage: " AF_PROG " [options] [FILE...]\n"
	"       " AF_PROG " --per-thread DIR [options] FILE...\n"
	"       " AF_PROG " --diff [options] BEFORE AFTER | BEFORE... -- AFTER...\n"
	"       " AF_PROG " serve --data DIR [--bind ADDR] [--port N] [-j N] [--max-upload SIZE]\n"
	"                     [--max-uploads N] [--max-threads N] [--max-seconds S]\n"
	"\n"
	"@WHATS@\n"
	"No FILE or '-' reads standard input. Several FILEs of one format make one\n"
	"graph: folded stacks as if concatenated (flamegraph.pl does so), other\n"
	"captures with threads matched by name and weights summed (--average).\n"
	"Long options may be abbreviated and are case-insensitive.\n"
	"'serve' runs the web service instead: upload a trace in a browser, get every\n"
	"thread's graph (see '" AF_PROG " serve --help').\n"
	"\n";

static const char usage_tail[] =
	"\n"
	"Exit status: 0 success, 1 bad input or failed output, 2 bad usage.\n";

/* The help's column of text: options narrower than this are padded to it;
 * a text with a table's names in it is wrapped again past HELP_WIDTH. */
#define HELP_COLUMN 26
#define HELP_WIDTH 80

void af_options_usage_line(FILE *out)
{
	fwrite(usage_head, 1, strcspn(usage_head, "\n") + 1, out);
}

/* The help text with the tables' names in place of @READERS@, @OUTPUTS@,
 * @EXTENSIONS@ (-o's, with their dots). */
static void expand(struct af_buf *b, const char *s)
{
	static const struct { const char *key; const char *(*names)(void); } keys[] = {
		{ "@READERS@", af_reader_names }, { "@OUTPUTS@", af_out_format_names },
		{ "@EXTENSIONS@", af_out_format_extensions_shown },
	};
	while (*s) {
		size_t k = 0;
		while (k < sizeof keys / sizeof *keys && strncmp(s, keys[k].key, strlen(keys[k].key)))
			k++;
		if (k < sizeof keys / sizeof *keys) {
			af_buf_puts(b, keys[k].names());
			s += strlen(keys[k].key);
		} else {
			af_buf_putc(b, *s++);
		}
	}
}

/* Columns of s's first len bytes (UTF-8: continuation bytes take none). */
static size_t columns(const char *s, size_t len)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += ((unsigned char)s[i] & 0xc0) != 0x80;
	return n;
}

/* A line past HELP_WIDTH (a table's names grew): the text's lines joined
 * and broken again before the words that would pass it. */
static void rewrap(struct af_buf *b, size_t col)
{
	bool wide = false;
	size_t start = 0, c = col;
	for (size_t i = 0; i < b->len; i++) {   /* line widths, in columns */
		if (b->data[i] == '\n') {
			wide |= c + columns(b->data + start, i - start) > HELP_WIDTH;
			start = i + 1;
			c = HELP_COLUMN;
		}
	}
	wide |= c + columns(b->data + start, b->len - start) > HELP_WIDTH;
	if (!wide)
		return;
	size_t last_space = 0, line = col, at = 0;
	for (size_t i = 0; i < b->len; i++) {
		if (b->data[i] == '\n')
			b->data[i] = ' ';
		if (b->data[i] == ' ')
			last_space = i;
		if (line + columns(b->data + at, i + 1 - at) > HELP_WIDTH && last_space > at) {
			b->data[last_space] = '\n';
			at = last_space + 1;
			line = HELP_COLUMN;
		}
	}
}

/* The help text of an entry whose column starts at col, each line after
 * the first indented to the text's column. */
static void help_text(FILE *out, const char *s, size_t col)
{
	struct af_buf b;
	af_buf_init(&b);
	expand(&b, s);
	if (strchr(s, '@'))
		rewrap(&b, col);
	for (size_t i = 0; i < b.len; i++) {
		fputc(b.data[i], out);
		if (b.data[i] == '\n')
			fprintf(out, "%*s", HELP_COLUMN, "");
	}
	fputc('\n', out);
	af_buf_release(&b);
}

/* "  -o, --output FILE", and ", --to T" for each entry after it without
 * help of its own; then the text, at its column or two spaces on. */
static const struct af_option *help_entry(FILE *out, const struct af_option *opt)
{
	int n = fprintf(out, "  %c%c%s--%s%s%s", opt->short_name ? '-' : ' ',
			opt->short_name ? opt->short_name : ' ', opt->short_name ? ", " : "  ",
			opt->name, opt->arg ? " " : "", opt->arg ? opt->arg : "");
	const struct af_option *next = opt + 1;
	for (; next->name && !next->help && !next->hidden; next++)
		n += fprintf(out, ", --%s%s%s", next->name, next->arg ? " " : "",
			     next->arg ? next->arg : "");
	int col = n + 2 <= HELP_COLUMN ? HELP_COLUMN : n + 2;
	fprintf(out, "%*s", col - n, "");
	help_text(out, opt->help, (size_t)col);
	return next;
}

/* The usage with its first sentence naming every format the reader table
 * reads, so it names each new one as it lands. */
static void put_usage_head(FILE *out)
{
	const char *mark = strstr(usage_head, "@WHATS@");
	fwrite(usage_head, 1, (size_t)(mark - usage_head), out);
	struct af_buf first;
	af_buf_init(&first);
	af_buf_printf(&first, "Draw a flame graph of %s; compressed (gzip, zlib) or not.",
		      af_reader_whats());
	struct af_buf wrapped;
	af_buf_init(&wrapped);
	af_buf_wrap(&wrapped, first.data, 0, 0, 79);
	fputs(wrapped.data, out);
	fputs(mark + 7, out);
	af_buf_release(&first);
	af_buf_release(&wrapped);
}

void af_options_help(FILE *out)
{
	put_usage_head(out);
	for (const struct af_option *opt = af_options; opt->name; ) {
		if (opt->hidden) {
			opt++;
			continue;
		}
		opt = help_entry(out, opt);
	}
	fputs(usage_tail, out);
}

/* ---- the completion helper ---- */

/* One line an option, for contrib/aflame-render.bash-completion: "--name",
 * "-x" if it has a short name, and, if it takes a value, what to offer:
 * "=text", "=file", "=dir", "=charset", "=words W...", "=output EXT...".
 * Hidden options are left out. */
static void completion_helper(struct af_cli *o, const struct af_option *opt, const char *arg)
{
	(void)o, (void)opt, (void)arg;
	static const char *const kinds[] = {
		[AF_COMPLETE_NOTHING] = "text", [AF_COMPLETE_FILE] = "file",
		[AF_COMPLETE_DIR] = "dir", [AF_COMPLETE_WORDS] = "words",
		[AF_COMPLETE_OUTPUT] = "output", [AF_COMPLETE_CHARSET] = "charset",
	};
	for (const struct af_option *p = af_options; p->name; p++) {
		if (p->hidden)
			continue;
		printf("--%s", p->name);
		if (p->short_name)
			printf(" -%c", p->short_name);
		if (p->arg)
			printf(" =%s%s%s", kinds[p->complete], p->words ? " " : "",
			       p->words ? p->words() : "");
		putchar('\n');
	}
	exit(0);
}
