/* run.h: one run of the main command (options in struct af_run_opts) on one graph: read the
 * inputs, select (-t, -p), transform, title, and write the graph, the
 * report or --info into the output file. The steps a comparison (--diff,
 * diff.h) shares with it are here too, so each exists once. Warnings are
 * printed to stderr here; errors go into the caller's diag, for main() to
 * print as one line. */
#ifndef AF_RUN_H
#define AF_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"
#include "core/diag.h"
#include "core/layout.h"
#include "core/profile.h"
#include "read/input.h"
#include "core/report.h"
#include "core/transform.h"
#include "read/read.h"
#include "render/render.h"

#define AF_PROG "aflame-render"

/* VERSION from the Makefile: --version, --info, the Debian package
 * (options.c). */
extern const char af_version[];

/* What one run needs of the command line (cli.h fills it). */
struct af_run_opts {
	char **inputs;
	size_t ninputs;
	const char *output;       /* "-": standard output */
	enum af_out_format format;
	const struct af_reader *reader;  /* -f; NULL: detect */
	char **threads;           /* -t */
	size_t nthreads;
	char **processes;         /* -p: atrace processes to draw */
	size_t nprocesses;
	bool info;
	bool report;              /* --report, or -o .csv/.json/.html */
	enum af_report_format report_format;
	size_t top;               /* --top N */
	const char *title, *subtitle;
	const char *count_name;   /* --countname */
	const char *total;        /* --total, read once the decimals are known */
	bool cp;                  /* --cp: colours kept in ./palette.map */
	bool normalize;           /* --diff --normalize */
	bool average;             /* --average: several captures' weights divided
				     by their number */
	size_t nbefore;           /* --diff: inputs[0..nbefore) are BEFORE, the
				     rest AFTER (each side's captures averaged) */
	struct af_read_opts read;
	struct af_layout_opts layout;
	struct af_render_opts render;
	struct af_transforms tx;  /* --include, --root, --hide...; af_transforms_release() */
};

/* The warnings a read left on p, one line each on stderr, escaped for a
 * terminal. */
void af_run_print_warnings(const struct af_profile *p, const char *file);

/* What -t and -p select: the graph's root, the nodes left out. */
struct af_selection {
	uint8_t *excluded;        /* a byte per node; free() it */
	uint32_t root;
	int nsel, nproc;          /* threads and processes selected */
	size_t only, only_proc;   /* one of each */
};

/* Fill s from o's -t and -p; 0, or -1 with diag set (s->excluded is still
 * the caller's to free). */
int af_run_select(const struct af_run_opts *o, const struct af_profile *p,
		  struct af_selection *s, struct af_diag *d);

/* o->render's title, subtitle, unit and decimals for p (nselected threads
 * chosen, `only` the one if a single one): --title and --subtitle, else the
 * thread's name or the names -t chose (excluded: the selection, or NULL),
 * and the default subtitle. The strings may point into title and subtitle,
 * which must live while o->render is used. */
void af_run_titles(struct af_run_opts *o, const struct af_profile *p, int nselected, size_t only,
		   const uint8_t *excluded, struct af_buf *subtitle, struct af_buf *title);

/* What a graph needs from the whole profile before layout: --total, the
 * app's package for --colors android (*app: made here, if guessed), --cp's
 * palette map read from ./palette.map. Returns 0, or -1 with diag set;
 * either way hand *app to af_run_graph_end(). */
int af_run_graph_begin(struct af_run_opts *o, const struct af_profile *p, char **app,
		       struct af_diag *d);
/* After a graph whose result is rc: --cp keeps every colour used in
 * ./palette.map for the next run (as flamegraph.pl does) if rc is 0; what
 * af_run_graph_begin() made is freed. Returns rc, or -1 with diag set if
 * the map could not be written. */
int af_run_graph_end(struct af_run_opts *o, char *app, int rc, struct af_diag *d);

/* The inputs a read keeps mapped while its profile is used. */
struct af_run_inputs {
	struct af_mapped *in;
	size_t n;
};

/* Load paths[0..n) and read them as one profile into p (read.h's
 * af_read_captures: several captures merged, threads by name), each
 * capture's warnings on stderr (not with --info); with average, weights
 * divided by n. keep holds the inputs: af_run_release_inputs() it, whatever
 * the result. Returns 0, or -1 with diag set. */
int af_run_read(const struct af_run_opts *o, char *const *paths, size_t n, bool average,
		struct af_profile *p, struct af_run_inputs *keep, struct af_diag *d);
void af_run_release_inputs(struct af_run_inputs *keep);

/* The whole run for one graph, report or --info of o's inputs into
 * o->output. Returns 0, or -1 with diag set. */
int af_run_single(struct af_run_opts *o, struct af_diag *d);

/* The run of `--diff BEFORE AFTER`: read both inputs (their
 * warnings on stderr), select in each what -t and -p name, merge, and write
 * the differential graph, its two-count folded stacks or the report's
 * comparison into o->output (run.h has the steps it shares with a single
 * graph). Says on stderr how much work only the first run did. Returns 0,
 * or -1 with diag set. */
int af_diff_run(struct af_run_opts *o, struct af_diag *d);

#endif
