/* main.c: the command line. Options -> read -> select -> lay out -> render ->
 * commit the output file. Everything else lives in the pipeline modules. */
#include "batch.h"
#include "diff.h"
#include "input.h"
#include "layout.h"
#include "output.h"
#include "profile.h"
#include "read.h"
#include "render.h"
#include "report.h"
#include "serve.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PROG "aflame-render"
#define VERSION "0.1.0"

struct options {
	char **inputs;
	size_t ninputs;
	const char *output;
	const char *per_thread;   /* --per-thread DIR */
	unsigned jobs;
	bool static_svg;
	enum af_out_format format;
	const struct af_reader *reader;  /* -f; NULL: detect */
	char **threads;
	size_t nthreads;
	char **processes;         /* -p: atrace processes to draw */
	size_t nprocesses;
	bool info;
	bool report;              /* --report, or -o .csv/.json/.html */
	enum af_report_format report_format;
	size_t top;               /* --top N */
	bool from_set, to_set;
	const char *title, *subtitle;
	const char *count_name;   /* --countname */
	const char *bgcolors;     /* --bgcolors */
	const char *total;        /* --total, read once the decimals are known */
	bool cp;                  /* --cp: colours kept in ./palette.map */
	bool diff;                /* --diff BEFORE AFTER */
	bool normalize;           /* --normalize */
	struct af_read_opts read;
	struct af_layout_opts layout;
	struct af_render_opts render;
};

static const char usage_text[] =
	"usage: " PROG " [options] FILE\n"
	"       " PROG " --per-thread DIR [options] FILE...\n"
	"       " PROG " --diff [options] BEFORE AFTER\n"
	"       " PROG " serve --data DIR [--bind ADDR] [--port N] [-j N] [--max-upload SIZE]\n"
	"                     [--max-uploads N] [--max-threads N] [--max-seconds S]\n"
	"\n"
	"Draw a flame graph of an Android method trace (.trace), an atrace or systrace\n"
	"capture (ftrace text, atrace -z, systrace HTML) or folded stacks.\n"
	"FILE '-' reads standard input. 'serve' runs the web service instead: upload a\n"
	"trace in a browser, get every thread's graph (see '" PROG " serve --help').\n"
	"\n"
	"  -t, --thread NAME|TID   draw this thread (repeatable; default: all threads)\n"
	"  -p, --process NAME|PID  draw this process (repeatable; atrace captures)\n"
	"      --async             atrace: draw async slices (S/F, G/H) per process\n"
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
	"      --static            SVG without script, text as shapes (svg-static)\n"
	"      --scale N           PNG pixels per image pixel, e.g. 2 for HiDPI (default: 1)\n"
	"      --per-thread DIR    one file per thread in DIR, <tid>-<name>.<ext>, and\n"
	"                          DIR/index.html; several FILEs go to DIR/<file name>/\n"
	"  -j, --jobs N            render on N threads (with --per-thread; default: 1)\n"
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
	"      --strict            malformed folded lines are errors, not warnings\n"
	"      --info              print what the file holds (header, threads, warnings)\n"
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
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" PROG " --help' for more information.\n");
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
static void check_report_and_window(struct options *o)
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

static void parse_minwidth(struct options *o, const char *s)
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

/* --diff: two inputs, one graph or report of both. */
static void check_diff(const struct options *o)
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
	OPT_APP_PACKAGE = 256, OPT_ASYNC, OPT_BGCOLORS, OPT_CLOCK, OPT_COLORS, OPT_COUNTNAME,
	OPT_CP, OPT_DIFF, OPT_DIFF_TOTAL, OPT_FACTOR, OPT_FLAMECHART, OPT_FONTSIZE, OPT_FONTTYPE, OPT_FONTWIDTH,
	OPT_FORMAT, OPT_FROM, OPT_HASH, OPT_HEIGHT, OPT_INFO, OPT_INVERTED, OPT_MINWIDTH,
	OPT_NAMETYPE, OPT_NEGATE, OPT_NO_JS, OPT_NORMALIZE, OPT_NOTES, OPT_PER_THREAD, OPT_REPORT,
	OPT_REVERSE, OPT_SCALE, OPT_SIGNATURES, OPT_STATIC, OPT_STRICT, OPT_SUBTITLE,
	OPT_TITLE, OPT_TO, OPT_TOP, OPT_TOTAL, OPT_WIDTH,
};

static const struct option long_options[] = {
	{ "app-package", required_argument, NULL, OPT_APP_PACKAGE },
	{ "async", no_argument, NULL, OPT_ASYNC },
	{ "bgcolors", required_argument, NULL, OPT_BGCOLORS },
	{ "clock", required_argument, NULL, OPT_CLOCK },
	{ "colors", required_argument, NULL, OPT_COLORS },
	{ "countname", required_argument, NULL, OPT_COUNTNAME },
	{ "cp", no_argument, NULL, OPT_CP },
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "diff-total", no_argument, NULL, OPT_DIFF_TOTAL },
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
	{ "info", no_argument, NULL, OPT_INFO },
	{ "input-format", required_argument, NULL, 'f' },
	{ "inverted", no_argument, NULL, OPT_INVERTED },
	{ "jobs", required_argument, NULL, 'j' },
	{ "minwidth", required_argument, NULL, OPT_MINWIDTH },
	{ "nametype", required_argument, NULL, OPT_NAMETYPE },
	{ "negate", no_argument, NULL, OPT_NEGATE },
	{ "no-js", no_argument, NULL, OPT_NO_JS },
	{ "normalize", no_argument, NULL, OPT_NORMALIZE },
	{ "notes", required_argument, NULL, OPT_NOTES },
	{ "output", required_argument, NULL, 'o' },
	{ "per-thread", required_argument, NULL, OPT_PER_THREAD },
	{ "process", required_argument, NULL, 'p' },
	{ "report", no_argument, NULL, OPT_REPORT },
	{ "reverse", no_argument, NULL, OPT_REVERSE },
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

static void parse_option(struct options *o, int c, const char *arg)
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
		puts(PROG " " VERSION);
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
	case OPT_DIFF:
		o->diff = true;
		break;
	case OPT_DIFF_TOTAL:
		o->layout.diff_total = true;
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
	case OPT_MINWIDTH:
		parse_minwidth(o, arg);
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
	case OPT_NORMALIZE:
		o->normalize = true;
		break;
	case OPT_NOTES:
		o->render.notes = arg;
		break;
	case OPT_PER_THREAD:
		o->per_thread = arg;
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
		fprintf(stderr, "Try '" PROG " --help' for more information.\n");
		exit(2);
	}
}

static void parse_args(struct options *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	af_layout_opts_default(&o->layout);
	af_render_opts_default(&o->render);
	size_t cap_threads = 0, cap_processes = 0;
	int c;
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
	if (optind >= argc)
		usage_error("no input file given");
	o->inputs = argv + optind;
	o->ninputs = (size_t)(argc - optind);
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
	} else if (o->ninputs > 1) {
		usage_error("several input files need --per-thread DIR");
	}
	if (o->normalize && !o->diff)
		usage_error("--normalize applies to --diff");
	if (af_palette_background(o->bgcolors, o->layout.palette.palette,
				  &o->render.bg_top, &o->render.bg_bottom) < 0)
		usage_error("unknown background '%s' (yellow, blue, green, grey or #rrggbb)", o->bgcolors);
	check_report_and_window(o);
	if (o->format == AF_OUT_AUTO && !o->report)
		o->format = format_from_path(o->output);
	if (o->static_svg && o->format == AF_OUT_SVG)
		o->format = AF_OUT_SVG_STATIC;
	else if (o->static_svg && o->format != AF_OUT_SVG_STATIC)
		usage_error("--static applies to SVG output only");
	if (!o->output)
		o->output = "-";
}

/* ---- reporting ---- */

static void print_diag(const struct af_diag *d)
{
	char line[512];
	af_diag_format(d, line, sizeof line);
	fprintf(stderr, PROG ": %s\n", line);
}

static void print_warnings(const struct af_profile *p, const char *file)
{
	for (size_t i = 0; i < p->nwarnings; i++)
		fprintf(stderr, PROG ": %s: warning: %" PRIu64 " %s\n", file,
			p->warnings[i].count, p->warnings[i].text);
}

static void write_info(const struct af_profile *p, const char *file, struct af_sink *out)
{
	af_sink_printf(out, "file: %s\nformat: %s\n", file, p->format);
	for (size_t i = 0; i < p->nitems; i++)
		af_sink_printf(out, "%s: %s\n", p->items[i].key, p->items[i].value);
	if (p->clock)
		af_sink_printf(out, "weights: %s clock, %s\n", p->clock, p->unit);
	size_t with_events = 0;
	for (size_t i = 0; i < p->nthreads; i++)
		with_events += p->threads[i].node != AF_NONE;
	af_sink_printf(out, "threads with events: %zu\n", with_events);
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct af_thread *th = &p->threads[i];
		if (th->node == AF_NONE)
			continue;
		af_sink_printf(out, "  %8" PRIu64 "  %-32s %10" PRIu64 " events  %12" PRIu64 " %s\n",
			       th->tid, th->name, th->events, th->last_time - th->first_time, p->unit);
	}
	af_sink_printf(out, "warnings: %zu\n", p->nwarnings);
	for (size_t i = 0; i < p->nwarnings; i++)
		af_sink_printf(out, "  %" PRIu64 " %s\n", p->warnings[i].count, p->warnings[i].text);
}

/* ---- the pipeline ---- */

static void set_titles(struct options *o, const struct af_profile *p, int nselected,
		       size_t only, struct af_buf *subtitle)
{
	o->render.title = o->title ? o->title
		: nselected == 1 ? p->threads[only].name
		: p->nthreads ? "All threads" : o->layout.inverted ? "Icicle Graph" : "Flame Graph";
	o->render.count_name = o->count_name ? o->count_name : p->unit;
	o->render.decimals = p->decimals;
	if (o->subtitle) {
		o->render.subtitle = o->subtitle;
	} else if (p->clock) {
		af_default_subtitle(subtitle, o->inputs[0], p);
		o->render.subtitle = subtitle->data;
	}
	o->layout.has_subtitle = o->render.subtitle != NULL;
}

static int write_report(const struct options *o, const struct af_profile *p, uint32_t root,
			const uint8_t *excluded, struct af_sink *out)
{
	struct af_report r;
	af_report_build(&r, p, root, excluded);
	struct af_report_opts ro = {
		.title = o->render.title, .source = o->inputs[0], .clock = p->clock,
		.unit = p->unit, .decimals = p->decimals, .top = o->top,
	};
	int rc = af_render_report(&r, o->report_format, &ro, out);
	af_report_release(&r);
	return rc;
}

/* --total as a weight (fixed point like the profile's); a total below the
 * graph's own is ignored with a warning, as flamegraph.pl does. */
static void set_total(struct options *o, const struct af_profile *p)
{
	double v = strtod(o->total, NULL);
	for (unsigned i = 0; i < p->decimals; i++)
		v *= 10;
	uint64_t sum = 0;
	for (size_t i = 0; i < p->tree.nnodes; i++)
		sum += p->tree.nodes[i].self;
	o->layout.total = v >= 1.8e19 ? UINT64_MAX : (uint64_t)(v + 0.5);
	if (o->layout.total < sum)
		fprintf(stderr, PROG ": warning: --total %s is less than the total weight, so ignored\n",
			o->total);
}

/* What the graph needs from the whole profile before layout: --total, the
 * app's package for --colors android, the palette map for --cp. */
static int prepare_graph(struct options *o, const struct af_profile *p, char **app,
			 struct af_diag *d)
{
	if (o->total)
		set_total(o, p);
	if (o->layout.palette.palette == AF_PAL_ANDROID && !o->layout.palette.app_package)
		o->layout.palette.app_package = *app = af_palette_guess_app(&p->tree);
	if (o->cp) {
		o->layout.palette.map = af_palette_map_new();
		return af_palette_map_read(o->layout.palette.map, "palette.map", d);
	}
	return 0;
}

/* --cp: keep every colour used for the next run (as flamegraph.pl does). */
static int save_palette_map(const struct options *o, struct af_diag *d)
{
	struct af_output out;
	af_diag_init(d, "palette.map");
	if (af_output_open(&out, "palette.map", d) < 0)
		return -1;
	af_palette_map_write(o->layout.palette.map, &out.sink);
	return af_output_commit(&out, d);
}

/* What -t and -p select: the graph's root, the nodes left out. */
struct selection {
	uint8_t *excluded;        /* a byte per node; free() it */
	uint32_t root;
	int nsel, nproc;          /* threads and processes selected */
	size_t only, only_proc;   /* one of each */
};

static int select_graph(const struct options *o, const struct af_profile *p,
			struct selection *s, struct af_diag *d)
{
	memset(s, 0, sizeof *s);
	s->excluded = af_xcalloc(p->tree.nnodes, 1);
	s->root = AF_ROOT;
	if (o->nthreads) {
		s->nsel = af_profile_select(p, o->threads, o->nthreads, s->excluded, &s->only, d);
		if (s->nsel < 0)
			return -1;
		if (s->nsel == 1)
			s->root = p->threads[s->only].node;
	}
	if (o->nprocesses) {
		s->nproc = af_profile_select_processes(p, o->processes, o->nprocesses, s->excluded,
						       &s->only_proc, d);
		if (s->nproc < 0)
			return -1;
		if (s->nproc == 1 && s->nsel != 1)
			s->root = p->processes[s->only_proc].node;
	}
	return 0;
}

/* Select threads and render into the output file; -1 with diag set. */
static int produce(struct options *o, struct af_profile *p, struct af_diag *d)
{
	struct selection sel;
	if (select_graph(o, p, &sel, d) < 0) {
		free(sel.excluded);
		return -1;
	}
	uint8_t *excluded = sel.excluded;
	size_t only = sel.only, only_proc = sel.only_proc;
	int nsel = sel.nsel, nproc = sel.nproc;
	uint32_t root = sel.root;
	if (o->layout.chart) {   /* a time axis from --from; a band per thread */
		o->layout.axis_unit = p->unit;
		o->layout.axis_origin = o->read.window ? o->read.from : 0;
		o->layout.bands = root == AF_ROOT && p->nthreads > 1;
	}
	struct af_buf subtitle;
	af_buf_init(&subtitle);
	set_titles(o, p, nsel, only, &subtitle);
	if (nproc == 1 && nsel != 1 && !o->title)
		o->render.title = p->processes[only_proc].name;
	struct af_output out;
	struct af_diag od;
	af_diag_init(&od, o->output);
	int rc = af_output_open(&out, o->output, &od);
	if (rc == 0) {
		if (o->info)
			write_info(p, o->inputs[0], &out.sink);
		else if (o->report)
			rc = write_report(o, p, root, nsel || nproc ? excluded : NULL, &out.sink);
		else
			rc = af_render_to(o->format, &p->tree, root, nsel || nproc ? excluded : NULL,
					  &o->layout, &o->render, &out.sink, d);
		if (rc == 0)
			rc = af_output_commit(&out, &od);
		else
			af_output_abort(&out);
	}
	if (od.set)
		*d = od;
	af_buf_release(&subtitle);
	free(excluded);
	return rc;
}

static int per_thread(struct options *o)
{
	struct af_batch_opts b = {
		.prog = PROG, .dir = o->per_thread, .format = o->format,
		.jobs = o->jobs ? o->jobs : 1, .threads = o->threads, .nthreads = o->nthreads,
		.title = o->title, .subtitle = o->subtitle, .reader = o->reader,
		.read = o->read, .layout = o->layout, .render = o->render,
		.progress = isatty(STDERR_FILENO),
	};
	int rc = af_batch_run(&b, o->inputs, o->ninputs);
	free(o->threads);
	free(o->processes);
	return rc;
}

/* ---- --diff: two runs in one graph or report ---- */

struct run {
	struct af_mapped in;
	struct af_profile p;
	struct selection sel;
	bool loaded;
};

static int read_run(struct options *o, struct run *r, const char *path, struct af_diag *d)
{
	af_diag_init(d, path);
	if (af_input_load(&r->in, path, d) < 0)
		return -1;
	r->loaded = true;
	if (af_read(&r->p, &r->in.in, o->reader, &o->read, d) < 0)
		return -1;
	print_warnings(&r->p, path);
	if (r->p.tree.before)
		return af_diag_error(d, "two counts per line make a comparison already: "
				     "--diff needs one run in each input");
	return select_graph(o, &r->p, &r->sel, d);
}

static void release_run(struct run *r)
{
	if (r->loaded)
		af_input_release(&r->in);
	af_profile_release(&r->p);
	free(r->sel.excluded);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* v with `decimals` implied digits */
static void weight_text(char *s, size_t n, uint64_t v, unsigned decimals)
{
	uint64_t unit = 1;
	for (unsigned i = 0; i < decimals; i++)
		unit *= 10;
	if (v % unit)
		snprintf(s, n, "%" PRIu64 ".%0*" PRIu64, v / unit, (int)decimals, v % unit);
	else
		snprintf(s, n, "%" PRIu64, v / unit);
}

/* One line on stderr when work of the first run has no place in the
 * second's graph: how much, where it is drawn, the largest piece (p: the
 * merged profile, which holds the band). */
static void removed_summary(const struct options *o, const struct af_profile *p,
			    const struct af_diff *df)
{
	if (!df->removed_total)
		return;
	const struct af_tree *t = &p->tree;
	uint32_t *up = NULL;
	size_t n = 0, cap = 0;
	for (uint32_t v = df->largest_removed; v != AF_NONE && v != df->band; v = t->nodes[v].parent) {
		af_grow(&up, &cap, n + 1, sizeof *up);
		up[n++] = v;
	}
	struct af_buf path;
	af_buf_init(&path);
	while (n--) {
		af_buf_puts(&path, af_tree_name(t, t->nodes[up[n]].name));
		if (n)
			af_buf_putc(&path, ';');
	}
	free(up);
	uint64_t *tot = af_tree_totals(t);
	char all[48], big[48], pct[32];
	weight_text(all, sizeof all, df->removed_total, p->decimals);
	weight_text(big, sizeof big, tot[df->largest_removed], p->decimals);
	snprintf(pct, sizeof pct, "%.2f", df->before_total ?
		 100.0 * (double)df->removed_total / (double)df->before_total : 0.0);
	fprintf(stderr, PROG ": %s: %" PRIu64 " stack%s only in this run, %s %s (%s%% of its time), "
		"drawn in the band '%s' at the right; the largest: %s (%s %s)\n",
		o->inputs[0], df->removed_stacks, df->removed_stacks == 1 ? "" : "s", all, p->unit, pct,
		af_tree_name(t, t->nodes[df->band].name), path.data, big, p->unit);
	free(tot);
	af_buf_release(&path);
}

/* "before → after · clock · unit · what the colours show" */
static void diff_subtitle(const struct options *o, const struct af_profile *p, struct af_buf *b)
{
	af_buf_printf(b, "%s \xe2\x86\x92 %s", base_name(o->inputs[0]), base_name(o->inputs[1]));
	if (p->clock)
		af_buf_printf(b, " \xc2\xb7 %s clock \xc2\xb7 %s", p->clock, p->unit);
	af_buf_printf(b, " \xc2\xb7 %s time: red more, blue less%s",
		      o->layout.diff_total ? "inclusive" : "self",
		      o->layout.negate ? " (negated)" : "");
}

static void diff_titles(struct options *o, const struct run *r, struct af_buf *subtitle)
{
	const struct selection *s = &r[1].sel;
	bool one_thread = s->nsel == 1 && s->root == r[1].p.threads[s->only].node;
	set_titles(o, &r[1].p, one_thread ? 1 : 0, s->only, subtitle);
	if (s->nproc == 1 && !one_thread && s->root != AF_ROOT && !o->title)
		o->render.title = r[1].p.processes[s->only_proc].name;
	if (!o->subtitle) {
		subtitle->len = 0;
		diff_subtitle(o, &r[1].p, subtitle);
		o->render.subtitle = subtitle->data;
		o->layout.has_subtitle = true;
	}
}

static int open_output(const struct options *o, struct af_output *out, struct af_diag *od)
{
	af_diag_init(od, o->output);
	return af_output_open(out, o->output, od);
}

static int finish_output(struct af_output *out, int rc, struct af_diag *od, struct af_diag *d)
{
	if (rc == 0)
		rc = af_output_commit(out, od);
	else
		af_output_abort(out);
	if (od->set)
		*d = *od;
	return rc;
}

static int compare_report(struct options *o, struct run *r, struct af_diag *d)
{
	struct af_report rep[2];
	for (int i = 0; i < 2; i++)
		af_report_build(&rep[i], &r[i].p, r[i].sel.root, r[i].sel.excluded);
	struct af_report_diff rd;
	af_report_diff_build(&rd, &rep[0], &rep[1], o->layout.diff_total, o->normalize, o->top);
	struct af_buf subtitle;
	af_buf_init(&subtitle);
	diff_titles(o, r, &subtitle);
	struct af_report_opts ro = {
		.title = o->render.title, .source = o->inputs[1], .source_before = o->inputs[0],
		.clock = r[1].p.clock, .unit = r[1].p.unit, .decimals = r[1].p.decimals, .top = o->top,
	};
	struct af_output out;
	struct af_diag od;
	int rc = open_output(o, &out, &od);
	if (rc == 0)
		rc = finish_output(&out, af_render_report_diff(&rd, o->report_format, &ro, &out.sink),
				   &od, d);
	else
		*d = od;
	af_buf_release(&subtitle);
	af_report_diff_release(&rd);
	af_report_release(&rep[0]);
	af_report_release(&rep[1]);
	return rc;
}

static int compare_graph(struct options *o, struct run *r, struct af_diag *d)
{
	struct af_profile *p = &r[1].p;
	uint32_t root = r[1].sel.root;
	struct af_diff df;
	struct af_diff_opts dopt = { .normalize = o->normalize, .before_name = o->inputs[0] };
	af_diag_init(d, o->inputs[1]);
	int rc = af_diff_merge(&df, p, root, r[1].sel.excluded, &r[0].p, r[0].sel.root,
			       r[0].sel.excluded, &dopt, d);
	char *app = NULL;
	struct af_buf subtitle;
	af_buf_init(&subtitle);
	if (rc == 0) {
		removed_summary(o, p, &df);
		o->layout.kinds = df.kinds;
		o->layout.nkinds = df.nkinds;
		diff_titles(o, r, &subtitle);
		rc = prepare_graph(o, p, &app, d);
	}
	struct af_output out;
	struct af_diag od;
	if (rc == 0 && (rc = open_output(o, &out, &od)) < 0)
		*d = od;
	else if (rc == 0) {
		if (o->format == AF_OUT_FOLDED)
			rc = af_diff_write_folded(&p->tree, root, &df, p->decimals, &out.sink);
		else
			rc = af_render_to(o->format, &p->tree, root, df.excluded, &o->layout,
					  &o->render, &out.sink, d);
		rc = finish_output(&out, rc, &od, d);
	}
	if (rc == 0 && o->cp && o->layout.palette.map)
		rc = save_palette_map(o, d);
	af_palette_map_free(o->layout.palette.map);
	free(app);
	af_buf_release(&subtitle);
	af_diff_release(&df);
	return rc;
}

static int compare_runs(struct options *o)
{
	struct run r[2];
	struct af_diag d;
	memset(r, 0, sizeof r);
	af_profile_init(&r[0].p);
	af_profile_init(&r[1].p);
	int rc = read_run(o, &r[0], o->inputs[0], &d);
	if (rc == 0)
		rc = read_run(o, &r[1], o->inputs[1], &d);
	if (rc == 0) {
		/* one thread (or process) against one, else whole graphs */
		const struct selection *a = &r[0].sel, *b = &r[1].sel;
		if ((a->root == AF_ROOT) != (b->root == AF_ROOT) || (a->nsel == 1) != (b->nsel == 1))
			r[0].sel.root = r[1].sel.root = AF_ROOT;
		if (strcmp(r[0].p.unit, r[1].p.unit) != 0 ||
		    (r[0].p.clock && r[1].p.clock && strcmp(r[0].p.clock, r[1].p.clock) != 0))
			fprintf(stderr, PROG ": warning: comparing %s%s%s (%s) with %s%s%s (%s)\n",
				r[0].p.clock ? r[0].p.clock : "", r[0].p.clock ? " clock " : "", r[0].p.unit,
				o->inputs[0], r[1].p.clock ? r[1].p.clock : "", r[1].p.clock ? " clock " : "",
				r[1].p.unit, o->inputs[1]);
		af_diag_init(&d, o->inputs[1]);
		rc = af_diff_match_decimals(&r[0].p, &r[1].p, &d);
	}
	if (rc == 0)
		rc = o->report ? compare_report(o, r, &d) : compare_graph(o, r, &d);
	if (rc < 0)
		print_diag(&d);
	release_run(&r[0]);
	release_run(&r[1]);
	free(o->threads);
	free(o->processes);
	return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "C");
	if (argc > 1 && strcmp(argv[1], "serve") == 0)
		return af_serve_main(argc - 1, argv + 1);
	struct options o;
	parse_args(&o, argc, argv);
	af_output_install_signals();
	if (o.per_thread)
		return per_thread(&o);
	if (o.diff)
		return compare_runs(&o);

	struct af_diag d;
	af_diag_init(&d, o.inputs[0]);
	struct af_mapped in;
	struct af_profile p;
	af_profile_init(&p);
	int rc = af_input_load(&in, o.inputs[0], &d);
	if (rc == 0) {
		rc = af_read(&p, &in.in, o.reader, &o.read, &d);
		if (rc == 0 && !o.info)
			print_warnings(&p, o.inputs[0]);
		char *app = NULL;
		if (rc == 0 && !o.info && !o.report)
			rc = prepare_graph(&o, &p, &app, &d);
		if (rc == 0)
			rc = produce(&o, &p, &d);
		if (rc == 0 && o.cp && o.layout.palette.map)
			rc = save_palette_map(&o, &d);
		af_palette_map_free(o.layout.palette.map);
		free(app);
		af_input_release(&in);
	}
	if (rc < 0)
		print_diag(&d);
	af_profile_release(&p);
	free(o.threads);
	free(o.processes);
	return rc < 0 ? 1 : 0;
}
