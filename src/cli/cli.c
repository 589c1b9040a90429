/* cli.c: the options of the main command (getopt_long, sorted by name),
 * their values checked, and the usage text (docs/aflame-render.1 and the
 * golden --help test keep to it). */
#include "cli.h"
#include "read/input.h"

#ifndef AF_VERSION
#error "AF_VERSION comes from VERSION in the Makefile"
#endif

const char af_version[] = AF_VERSION;
#include "core/palette.h"
#include "core/util.h"

#include <errno.h>
#include <getopt.h>
#include <iconv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_text[] =
	"usage: " AF_PROG " [options] [FILE...]\n"
	"       " AF_PROG " --per-thread DIR [options] FILE...\n"
	"       " AF_PROG " --diff [options] BEFORE AFTER\n"
	"       " AF_PROG " serve --data DIR [--bind ADDR] [--port N] [-j N] [--max-upload SIZE]\n"
	"                     [--max-uploads N] [--max-threads N] [--max-seconds S]\n"
	"\n"
	"Draw a flame graph of an Android method trace (.trace), an atrace or systrace\n"
	"capture (ftrace text, atrace -z, systrace HTML), a Perfetto trace or folded\n"
	"stacks; compressed (gzip, zlib) or not.\n"
	"No FILE or '-' reads standard input. Several folded-stack FILEs make one\n"
	"graph, as if concatenated (flamegraph.pl does so); other formats need\n"
	"--per-thread. Long options may be abbreviated and are case-insensitive.\n"
	"'serve' runs the web service instead: upload a trace in a browser, get every\n"
	"thread's graph (see '" AF_PROG " serve --help').\n"
	"\n"
	"  -t, --thread NAME|TID   draw this thread (repeatable; default: all threads)\n"
	"  -p, --process NAME|PID  draw this process (repeatable; atrace captures)\n"
	"      --async             atrace: draw async slices (S/F, G/H) per process\n"
	"      --cpu-samples       Perfetto: draw the CPU samples (perf_sample, streaming\n"
	"                          profile) instead of the slices\n"
	"      --heap WHAT         Perfetto: draw the heap profiles (heapprofd), weighed\n"
	"                          by unreleased (default when a trace has nothing else),\n"
	"                          allocated or freed bytes, or with -count, allocations\n"
	"      --event NAME        perf.data, simpleperf: draw this event type (default:\n"
	"                          the first, usually cpu-clock; --info lists them)\n"
	"  -o, --output FILE       write here (default: standard output); the format\n"
	"                          follows the extension: .svg, .png, .pdf, .folded, .txt\n"
	"      --format FMT        svg, svg-static, png, pdf, folded, tree or frames (one\n"
	"                          line per drawn frame); overrides the extension\n"
	"      --report            the method profile instead of a graph: exclusive and\n"
	"                          inclusive time, calls, callers and callees per method;\n"
	"                          -o .txt (default), .csv, .json or .html (these three\n"
	"                          imply --report)\n"
	"      --top N             the report's N methods with the most exclusive time\n"
	"                          (with --diff: the N largest changes)\n"
	"      --diff              compare two runs: widths from AFTER, red where it spent\n"
	"                          more time than BEFORE, blue where less; work only in\n"
	"                          BEFORE in a band of its own; with --report the change\n"
	"                          of every method\n"
	"      --diff-total        differential graphs: colour by the change of inclusive\n"
	"                          time instead of self time (--report: sort by it)\n"
	"      --normalize         --diff: scale BEFORE's times to AFTER's total\n"
	"      --flamechart        calls or slices in time order on a time axis, or folded\n"
	"                          stacks in input order (flamegraph.pl --flamechart)\n"
	"      --from T, --to T    only the time from T to T (traces): µs, or with a unit:\n"
	"                          20us, 500ms, 1.2s; wall: since the trace start, cpu:\n"
	"                          since each thread's first event\n"
	"      --merge-threads     the selected threads in one graph, no thread roots\n"
	"      --exclude RE        drop the stacks through a frame matching RE\n"
	"      --include RE        keep only the stacks through a frame matching RE\n"
	"      --idle              drop stacks whose leaf is an Android idle frame\n"
	"                          (nativePollOnce, Object.wait, epoll_wait, futex...)\n"
	"      --root RE           re-root each stack at its outermost frame matching RE\n"
	"                          and drop the stacks without one\n"
	"      --hide RE           remove frames matching RE (callees go to the caller)\n"
	"      --collapse-recursion  a frame called directly by itself shows once\n"
	"                          (these apply in this order; RE: POSIX extended,\n"
	"                          found anywhere in a frame name unless anchored; see\n"
	"                          docs/transforms.md)\n"
	"      --static            SVG without script, text as shapes (svg-static)\n"
	"      --scale N           PNG pixels per image pixel, e.g. 2 for HiDPI (default: 1)\n"
	"      --per-thread DIR    one file per thread in DIR, <tid>-<name>.<ext>, and\n"
	"                          DIR/index.html; several FILEs go to DIR/<file name>/\n"
	"  -j, --jobs N            render on N threads (with --per-thread; default: one\n"
	"                          per processor, at most 8)\n"
	"  -f, --input-format FMT  @FORMATS@\n"
	"                          (default: detected from the content)\n"
	"      --clock CLOCK       wall or cpu (default: wall when the trace has it)\n"
	"      --signatures        add parameter types to method names\n"
	"      --title TEXT        graph title (default: the thread name)\n"
	"      --subtitle TEXT     second title line (default: file, clock and unit)\n"
	"      --width PX          image width (default: 1200)\n"
	"      --minwidth PX[%]    leave out frames narrower than this (default: 0.1)\n"
	"      --colors PALETTE    hot (default), mem, io, wakeup, chain, java, js, perl,\n"
	"                          red, green, blue, aqua, yellow, purple, orange, android\n"
	"      --app-package PKG   android palette: the app's own code (default: the\n"
	"                          package with the most methods outside the platform)\n"
	"      --bgcolors COLOR    background: yellow, blue, green, grey or #rrggbb\n"
	"      --hash              names that start alike get alike colours\n"
	"      --cp                keep colours in ./palette.map across runs\n"
	"      --no-legend         no legend of what the colours mean (shown by default\n"
	"                          with java, js, perl, chain, android and diff colours)\n"
	"      --height PX         frame height (default: 16)\n"
	"      --fonttype FONT     font family (default: DejaVu Sans)\n"
	"      --fontsize PX       font size (default: 12)\n"
	"      --fontwidth F       average glyph width relative to the size (0.59)\n"
	"      --countname TEXT    what the counts are (default: samples, or µs)\n"
	"      --nametype TEXT     shown before the frame in the details line\n"
	"      --inverted          icicle graph: callers at the top\n"
	"      --reverse           folded: frames of each stack in reverse order\n"
	"      --negate            differential graphs: swap red and blue\n"
	"      --factor F          show counts multiplied by F\n"
	"      --total N           the full width stands for N (when more than the sum)\n"
	"      --notes TEXT        a comment in the SVG\n"
	"      --nameattr FILE     attributes for frames by name, flamegraph.pl's format\n"
	"                          'name<TAB>href=URL<TAB>title=TEXT...': a link or\n"
	"                          tooltip per function (interactive SVG; no on*\n"
	"                          attributes, no javascript: links)\n"
	"      --encoding NAME     the input text's character set (iconv name, e.g.\n"
	"                          ISO-8859-1); output is always UTF-8\n"
	"      --random            accepted for flamegraph.pl: colours are always drawn\n"
	"                          from a hash of the name (deterministic)\n"
	"      --strict            malformed folded lines are errors, not warnings\n"
	"      --info              print what the file holds (header, threads, warnings)\n"
	"      --max-input-size SIZE  refuse an input longer than SIZE bytes, or with\n"
	"                          K, M or G (default: 8G; stdin, pipes, devices too)\n"
	"      --no-js             interactive SVG without its script (for tests)\n"
	"  -h, --help              print this help\n"
	"  -V, --version           print the version\n"
	"\n"
	"Exit status: 0 success, 1 bad input or failed output, 2 bad usage.\n";

/* The usage text with the input formats of the reader table in it. */
static void print_usage(void)
{
	const char *at = strstr(usage_text, "@FORMATS@");
	fwrite(usage_text, 1, (size_t)(at - usage_text), stdout);
	fputs(af_reader_names(), stdout);
	fputs(at + strlen("@FORMATS@"), stdout);
}

static _Noreturn __attribute__((format(printf, 1, 2))) void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, AF_PROG ": ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" AF_PROG " --help' for more information.\n");
	exit(2);
}

static double parse_number(const char *opt, const char *s, double min, double max)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max)) {
		usage_error("invalid %s '%s' (expected a number from %g to %g)", opt, s, min, max);
	}
	return v;
}

static double parse_whole(const char *opt, const char *s, double min, double max)
{
	double v = parse_number(opt, s, min, max);
	if (v != (double)(uint64_t)v)
		usage_error("invalid %s '%s' (expected a whole number from %g to %g)", opt, s, min, max);
	return v;
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
	usage_error("invalid %s '%s' (expected a time: 1500, 20us, 500ms, 1.2s)", opt, s);
}

/* The report's format from the output's extension: .csv, .json, .html; with
 * --report also .txt or none (text). -1: not a report. */
static int report_format(const char *path, bool asked)
{
	const char *dot = path ? strrchr(path, '.') : NULL;
	if (!dot || strchr(dot, '/'))
		return asked ? AF_REPORT_TEXT : -1;
	if (strcmp(dot, ".csv") == 0)
		return AF_REPORT_CSV;
	if (strcmp(dot, ".json") == 0)
		return AF_REPORT_JSON;
	if (strcmp(dot, ".html") == 0 || strcmp(dot, ".htm") == 0)
		return AF_REPORT_HTML;
	if (asked && strcmp(dot, ".txt") != 0)
		usage_error("--report writes .txt, .csv, .json or .html, not '%s'", path);
	return asked ? AF_REPORT_TEXT : -1;
}

/* --report, --top, --from and --to: check them against the rest. */
static void check_report_and_window(struct af_cli *o)
{
	if (o->format == AF_OUT_AUTO) {
		int rf = report_format(o->output, o->report);
		if (rf >= 0) {
			o->report = true;
			o->report_format = (enum af_report_format)rf;
		}
	} else if (o->report) {
		usage_error("--report and --format cannot be combined");
	}
	if (o->report && o->per_thread)
		usage_error("--report and --per-thread cannot be combined");
	if (o->report)   /* a method is identified by its whole signature */
		o->read.signatures = o->read.returns = true;
	if (o->top && !o->report)
		usage_error("--top applies to the report (--report)");
	if (o->from_set || o->to_set) {
		o->read.window = true;
		if (!o->to_set)
			o->read.to = UINT64_MAX;
		if (o->read.from >= o->read.to)
			usage_error("--from must be earlier than --to");
	}
}

static void parse_minwidth(struct af_cli *o, const char *s)
{
	size_t n = strlen(s);
	if (n && s[n - 1] == '%') {
		char *copy = af_xstrndup(s, n - 1);
		o->layout.min_width_pct = parse_number("--minwidth", copy, 0, 100);
		free(copy);
	} else {
		o->layout.min_width = parse_number("--minwidth", s, 0, 1e9);
	}
}

/* --max-input-size: bytes, or a whole number with K, M or G (powers of 1024),
 * as serve's --max-upload takes them. */
static uint64_t parse_size(const char *opt, const char *s)
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
		usage_error("invalid %s '%s' (expected a whole number of bytes from 1, "
			    "or with K, M or G)", opt, s);
	return (uint64_t)v << shift;
}

/* --diff: two inputs, one graph or report of both. */
static void check_diff(const struct af_cli *o)
{
	if (o->ninputs != 2)
		usage_error("--diff compares two inputs, BEFORE and AFTER (%zu given)", o->ninputs);
	if (o->info)
		usage_error("--info and --diff cannot be combined");
	if (o->read.timeline)
		usage_error("--flamechart and --diff cannot be combined");
	if (o->format == AF_OUT_TREE)
		usage_error("--diff writes svg, svg-static, png, pdf, folded or frames, not a tree");
}

static enum af_out_format format_named(const char *s)
{
	enum af_out_format f = af_out_format_named(s);
	if (f == AF_OUT_AUTO)
		usage_error("unknown output format '%s' (svg, svg-static, png, pdf, folded, tree or frames)", s);
	return f;
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

enum {
	OPT_APP_PACKAGE = 256, OPT_ASYNC, OPT_BGCOLORS, OPT_CLOCK, OPT_COLLAPSE_RECURSION, OPT_COLORS, OPT_COUNTNAME,
	OPT_CP, OPT_CPU_SAMPLES, OPT_HEAP, OPT_DIFF, OPT_DIFF_TOTAL, OPT_ENCODING, OPT_EVENT, OPT_EXCLUDE, OPT_FACTOR, OPT_FLAMECHART, OPT_FONTSIZE, OPT_FONTTYPE, OPT_FONTWIDTH,
	OPT_FORMAT, OPT_FROM, OPT_HASH, OPT_HEIGHT, OPT_HIDE, OPT_IDLE, OPT_INCLUDE, OPT_INFO, OPT_INVERTED,
	OPT_MAX_INPUT_SIZE, OPT_MINWIDTH,
	OPT_MERGE_THREADS, OPT_NAMEATTR, OPT_NAMETYPE, OPT_NEGATE, OPT_NO_JS, OPT_NO_LEGEND, OPT_NORMALIZE, OPT_NOTES, OPT_PER_THREAD, OPT_REPORT,
	OPT_RANDOM, OPT_REVERSE, OPT_ROOT, OPT_SCALE, OPT_SIGNATURES, OPT_STATIC, OPT_STRICT, OPT_SUBTITLE,
	OPT_TITLE, OPT_TO, OPT_TOP, OPT_TOTAL, OPT_WIDTH,
};

static const struct option long_options[] = {
	{ "app-package", required_argument, NULL, OPT_APP_PACKAGE },
	{ "async", no_argument, NULL, OPT_ASYNC },
	{ "bgcolors", required_argument, NULL, OPT_BGCOLORS },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "collapse-recursion", no_argument, NULL, OPT_COLLAPSE_RECURSION },
	{ "colors", required_argument, NULL, OPT_COLORS },
	{ "countname", required_argument, NULL, OPT_COUNTNAME },
	{ "cp", no_argument, NULL, OPT_CP },
	{ "cpu-samples", no_argument, NULL, OPT_CPU_SAMPLES },
	{ "heap", required_argument, NULL, OPT_HEAP },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "diff-total", no_argument, NULL, OPT_DIFF_TOTAL },
	{ "encoding", required_argument, NULL, OPT_ENCODING },
	{ "event", required_argument, NULL, OPT_EVENT },
	{ "exclude", required_argument, NULL, OPT_EXCLUDE },
	{ "factor", required_argument, NULL, OPT_FACTOR },
	{ "flamechart", no_argument, NULL, OPT_FLAMECHART },
	{ "fontsize", required_argument, NULL, OPT_FONTSIZE },
	{ "fonttype", required_argument, NULL, OPT_FONTTYPE },
	{ "fontwidth", required_argument, NULL, OPT_FONTWIDTH },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "hash", no_argument, NULL, OPT_HASH },
	{ "height", required_argument, NULL, OPT_HEIGHT },
	{ "help", no_argument, NULL, 'h' },
	{ "hide", required_argument, NULL, OPT_HIDE },
	{ "idle", no_argument, NULL, OPT_IDLE },
	{ "include", required_argument, NULL, OPT_INCLUDE },
	{ "info", no_argument, NULL, OPT_INFO },
	{ "input-format", required_argument, NULL, 'f' },
	{ "inverted", no_argument, NULL, OPT_INVERTED },
	{ "jobs", required_argument, NULL, 'j' },
	{ "max-input-size", required_argument, NULL, OPT_MAX_INPUT_SIZE },
	{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
	{ "merge-threads", no_argument, NULL, OPT_MERGE_THREADS },
	{ "nameattr", required_argument, NULL, OPT_NAMEATTR },
	{ "nametype", required_argument, NULL, OPT_NAMETYPE },
	{ "negate", no_argument, NULL, OPT_NEGATE },
	{ "no-js", no_argument, NULL, OPT_NO_JS },
	{ "no-legend", no_argument, NULL, OPT_NO_LEGEND },
	{ "normalize", no_argument, NULL, OPT_NORMALIZE },
	{ "notes", required_argument, NULL, OPT_NOTES },
	{ "output", required_argument, NULL, 'o' },
	{ "per-thread", required_argument, NULL, OPT_PER_THREAD },
	{ "process", required_argument, NULL, 'p' },
	{ "random", no_argument, NULL, OPT_RANDOM },
	{ "report", no_argument, NULL, OPT_REPORT },
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "scale", required_argument, NULL, OPT_SCALE },
	{ "signatures", no_argument, NULL, OPT_SIGNATURES },
	{ "static", no_argument, NULL, OPT_STATIC },
	{ "strict", no_argument, NULL, OPT_STRICT },
	{ "subtitle", required_argument, NULL, OPT_SUBTITLE },
	{ "thread", required_argument, NULL, 't' },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "to", required_argument, NULL, OPT_TO },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "total", required_argument, NULL, OPT_TOTAL },
	{ "version", no_argument, NULL, 'V' },
	{ "width", required_argument, NULL, OPT_WIDTH },
	{ NULL, 0, NULL, 0 },
};

static void set_regex(struct af_cli *o, enum af_tx_re which, const char *opt, const char *re)
{
	char err[128];
	if (af_transforms_set(&o->tx, which, re, err, sizeof err) < 0)
		usage_error("invalid %s regex '%s': %s", opt, re, err);
}

/* --include, --exclude, --root, --hide and the flags; false: not one of them. */
static bool parse_transform(struct af_cli *o, int c, const char *arg)
{
	switch (c) {
	case OPT_COLLAPSE_RECURSION: o->tx.collapse = true; return true;
	case OPT_EXCLUDE: set_regex(o, AF_TX_EXCLUDE, "--exclude", arg); return true;
	case OPT_HIDE: set_regex(o, AF_TX_HIDE, "--hide", arg); return true;
	case OPT_IDLE: af_transforms_set_idle(&o->tx); return true;
	case OPT_INCLUDE: set_regex(o, AF_TX_INCLUDE, "--include", arg); return true;
	case OPT_MERGE_THREADS: o->tx.merge_threads = true; return true;
	case OPT_ROOT: set_regex(o, AF_TX_ROOT, "--root", arg); return true;
	default: return false;
	}
}

/* Transforms are applied in main's produce(), to one graph at a time. */
static void check_transforms(const struct af_cli *o)
{
	if (!af_transforms_any(&o->tx))
		return;
	if (o->per_thread)
		usage_error("--include, --exclude, --idle, --root, --hide, --collapse-recursion and "
			    "--merge-threads cannot be combined with --per-thread yet");
	if (o->diff)
		usage_error("--include, --exclude, --idle, --root, --hide, --collapse-recursion and "
			    "--merge-threads cannot be combined with --diff yet");
	if (o->read.timeline)
		usage_error("--include, --exclude, --idle, --root, --hide, --collapse-recursion and "
			    "--merge-threads cannot be combined with --flamechart (merged frames "
			    "have no single start)");
}

static void parse_option(struct af_cli *o, int c, const char *arg)
{
	switch (c) {
	case 'f':
		o->reader = af_reader_named(arg);
		if (!o->reader)
			usage_error("unknown input format '%s' (%s)", arg, af_reader_names());
		break;
	case 'h':
		print_usage();
		exit(0);
	case 'j': { /* at most 64 outputs open at once: see output.c */
		double v = parse_number("--jobs", arg, 1, 64);
		o->jobs = (unsigned)v;
		if (o->jobs != v)
			usage_error("invalid --jobs '%s' (expected a whole number from 1 to 64)", arg);
		break;
	}
	case 'o':
		o->output = arg;
		break;
	case 'V':
		printf(AF_PROG " %s\n", af_version);
		exit(0);
	case OPT_APP_PACKAGE:
		o->layout.palette.app_package = arg;
		break;
	case OPT_ASYNC:
		o->read.async = true;
		break;
	case OPT_BGCOLORS:
		o->bgcolors = arg;
		break;
	case OPT_CLOCK:
		if (strcmp(arg, "wall") == 0)
			o->read.clock = AF_CLOCK_WALL;
		else if (strcmp(arg, "cpu") == 0 || strcmp(arg, "thread-cpu") == 0)
			o->read.clock = AF_CLOCK_CPU;
		else
			usage_error("unknown clock '%s' (wall or cpu)", arg);
		break;
	case OPT_COLORS: {
		int pal = af_palette_by_name(arg);
		if (pal < 0)
			usage_error("unknown palette '%s' (see --help)", arg);
		o->layout.palette.palette = (enum af_palette)pal;
		o->read.mark_wakers = pal == AF_PAL_CHAIN;
		break;
	}
	case OPT_COUNTNAME:
		o->count_name = arg;
		break;
	case OPT_CP:
		o->cp = true;
		break;
	case OPT_CPU_SAMPLES:
		o->read.cpu_samples = true;
		break;
	case OPT_HEAP: {
		static const char *const names[] = {
			[AF_HEAP_UNRELEASED] = "unreleased", [AF_HEAP_ALLOCATED] = "allocated",
			[AF_HEAP_FREED] = "freed", [AF_HEAP_UNRELEASED_COUNT] = "unreleased-count",
			[AF_HEAP_ALLOCATED_COUNT] = "allocated-count", [AF_HEAP_FREED_COUNT] = "freed-count",
		};
		o->read.heap = AF_HEAP_NONE;
		for (size_t i = AF_HEAP_UNRELEASED; i < sizeof names / sizeof *names; i++)
			if (strcmp(arg, names[i]) == 0)
				o->read.heap = (enum af_heap_value)i;
		if (o->read.heap == AF_HEAP_NONE)
			usage_error("unknown heap value '%s' (unreleased, allocated, freed, or one of them with -count)", arg);
		break;
	}
	case OPT_DIFF:
		o->diff = true;
		break;
	case OPT_DIFF_TOTAL:
		o->layout.diff_total = true;
		break;
	case OPT_ENCODING: {
		iconv_t cd = iconv_open("UTF-8", arg);
		if (cd == (iconv_t)-1)
			usage_error("unknown --encoding '%s' (a character set iconv knows, e.g. ISO-8859-1)", arg);
		iconv_close(cd);
		o->read.encoding = arg;
		break;
	}
	case OPT_EVENT:
		o->read.event = arg;
		break;
	case OPT_FACTOR:
		o->render.factor = parse_number("--factor", arg, 1e-12, 1e12);
		break;
	case OPT_FLAMECHART:
		o->read.timeline = true;
		o->layout.chart = true;
		break;
	case OPT_FONTSIZE:
		o->layout.font_size = parse_number("--fontsize", arg, 1, 1000);
		break;
	case OPT_FONTTYPE:
		o->render.font_family = arg;
		break;
	case OPT_FONTWIDTH:
		o->render.font_width = parse_number("--fontwidth", arg, 0.01, 10);
		break;
	case OPT_FORMAT:
		o->format = format_named(arg);
		break;
	case OPT_FROM:
		o->read.from = parse_time("--from", arg);
		o->from_set = true;
		break;
	case OPT_HASH:
		o->layout.palette.hash = true;
		break;
	case OPT_HEIGHT:
		o->layout.frame_height = parse_number("--height", arg, 2, 1000);
		break;
	case OPT_INFO:
		o->info = true;
		o->read.info_only = true;
		break;
	case OPT_INVERTED:
		o->layout.inverted = true;
		break;
	case OPT_MAX_INPUT_SIZE:
		o->read.max_input = parse_size("--max-input-size", arg);
		break;
	case OPT_MINWIDTH:
		parse_minwidth(o, arg);
		break;
	case OPT_NAMEATTR:
		o->nameattr = arg;
		break;
	case OPT_NAMETYPE:
		o->render.name_type = arg;
		break;
	case OPT_NEGATE:
		o->layout.negate = true;
		break;
	case OPT_NO_JS:
		o->render.no_js = true;
		break;
	case OPT_NO_LEGEND:
		o->layout.no_legend = true;
		break;
	case OPT_NORMALIZE:
		o->normalize = true;
		o->layout.normalized = true;   /* the legend says so */
		break;
	case OPT_NOTES:
		o->render.notes = arg;
		break;
	case OPT_PER_THREAD:
		o->per_thread = arg;
		break;
	case OPT_RANDOM:   /* colours come from the name's hash in any case */
		break;
	case OPT_REPORT:
		o->report = true;
		break;
	case OPT_REVERSE:
		o->read.reverse = true;
		break;
	case OPT_SCALE:
		o->render.scale = parse_number("--scale", arg, 0.25, 16);
		break;
	case OPT_SIGNATURES:
		o->read.signatures = true;
		break;
	case OPT_STATIC:
		o->static_svg = true;
		break;
	case OPT_STRICT:
		o->read.strict = true;
		break;
	case OPT_SUBTITLE:
		o->subtitle = arg;
		break;
	case OPT_TITLE:
		o->title = arg;
		break;
	case OPT_TO:
		o->read.to = parse_time("--to", arg);
		o->to_set = true;
		break;
	case OPT_TOP:
		o->top = (size_t)parse_whole("--top", arg, 1, 1e9);
		break;
	case OPT_TOTAL:
		parse_number("--total", arg, 0, 1e19);
		o->total = arg;
		break;
	case OPT_WIDTH:
		o->layout.width = parse_number("--width", arg, 100, 1e6);
		break;
	default:
		if (parse_transform(o, c, arg))
			break;
		fprintf(stderr, "Try '" AF_PROG " --help' for more information.\n");
		exit(2);
	}
}

/* The long option a lower-cased "--name" (without "=value") stands for:
 * the exact name or a unique prefix; NULL if none or ambiguous. */
static const struct option *long_option(const char *name, size_t len)
{
	const struct option *found = NULL;
	for (const struct option *opt = long_options; opt->name; opt++) {
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

/* Long options are case-insensitive, as in flamegraph.pl's Getopt::Long
 * (--WIDTH, --Title): lower-case their names in place before getopt_long
 * sees them. Values are left alone, including a separate value that starts
 * with "--" (--title --X--), so the option before each one is looked up. */
static void lower_long_options(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];
		if (strcmp(a, "--") == 0)
			return;
		if (a[0] != '-' || a[1] == 0)
			continue;
		if (a[1] != '-') {   /* short options: a value may follow */
			size_t k = strcspn(a + 1, "fjopt");
			i += a[1 + k] && a[2 + k] == 0;
			continue;
		}
		size_t len = strcspn(a + 2, "=");
		for (size_t k = 2; k < 2 + len; k++)
			if (a[k] >= 'A' && a[k] <= 'Z')
				a[k] = (char)(a[k] - 'A' + 'a');
		const struct option *opt = long_option(a + 2, len);
		i += opt && opt->has_arg == required_argument && a[2 + len] == 0;
	}
}

/* No FILE: standard input, as flamegraph.pl reads it; a terminal there
 * means the user forgot the file, so say how to call us instead. */
static void default_input(struct af_cli *o)
{
	static char dash[] = "-";
	static char *stdin_only[] = { dash };
	if (isatty(STDIN_FILENO)) {
		fwrite(usage_text, 1, strcspn(usage_text, "\n") + 1, stderr);
		usage_error("no input file given, and standard input is a terminal");
	}
	o->inputs = stdin_only;
	o->ninputs = 1;
}

void af_cli_parse(struct af_cli *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	af_layout_opts_default(&o->layout);
	af_render_opts_default(&o->render);
	o->read.max_input = AF_INPUT_MAX_DEFAULT;
	size_t cap_threads = 0, cap_processes = 0;
	int c;
	static char prog[] = AF_PROG;   /* getopt's messages name it */
	argv[0] = prog;
	lower_long_options(argc, argv);
	while ((c = getopt_long(argc, argv, "f:hj:o:p:t:V", long_options, NULL)) != -1) {
		if (c == 't') {   /* -t needs the real capacity kept across calls */
			af_grow(&o->threads, &cap_threads, o->nthreads + 1, sizeof *o->threads);
			o->threads[o->nthreads++] = optarg;
			continue;
		}
		if (c == 'p') {
			af_grow(&o->processes, &cap_processes, o->nprocesses + 1, sizeof *o->processes);
			o->processes[o->nprocesses++] = optarg;
			continue;
		}
		parse_option(o, c, optarg);
	}
	o->inputs = argv + optind;
	o->ninputs = (size_t)(argc - optind);
	if (!o->ninputs)
		default_input(o);
	if (o->per_thread) {
		if (o->output)
			usage_error("--per-thread writes into a directory: leave out -o");
		if (o->diff)
			usage_error("--diff and --per-thread cannot be combined");
		if (o->info)
			usage_error("--info and --per-thread cannot be combined");
		if (o->nprocesses)
			usage_error("-p and --per-thread cannot be combined (use -t)");
		if (o->format == AF_OUT_AUTO)
			o->format = AF_OUT_SVG;
		if (o->cp)
			usage_error("--per-thread cannot be combined with --cp");
	} else if (o->diff) {
		check_diff(o);
	}
	if (o->normalize && !o->diff)
		usage_error("--normalize applies to --diff");
	if (o->read.cpu_samples && o->read.heap != AF_HEAP_NONE)
		usage_error("--cpu-samples and --heap cannot be combined (one graph draws one kind of sample)");
	if (af_palette_background(o->bgcolors, o->layout.palette.palette,
				  &o->render.bg_top, &o->render.bg_bottom) < 0)
		usage_error("unknown background '%s' (yellow, blue, green, grey or #rrggbb)", o->bgcolors);
	check_report_and_window(o);
	check_transforms(o);
	if (o->format == AF_OUT_AUTO && !o->report)
		o->format = format_from_path(o->output);
	if (o->static_svg && o->format == AF_OUT_SVG)
		o->format = AF_OUT_SVG_STATIC;
	else if (o->static_svg && o->format != AF_OUT_SVG_STATIC)
		usage_error("--static applies to SVG output only");
	if (!o->output)
		o->output = "-";
}

