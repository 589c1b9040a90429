/* report.h: the method profile (Traceview's table, dmtracedump's report),
 * computed from the same call tree the flame graph draws, so the two always
 * agree: the exclusive times add up to the graph's total.
 *
 * A method is a frame name (method traces name methods with their parameter
 * types, so overloads stay apart). Per method, over the tree nodes with its
 * name below the selected threads:
 *   exclusive  = sum of the nodes' self weights
 *   inclusive  = sum of the totals of nodes with no ancestor of the same
 *                method in their thread (a recursive call's time is already
 *                inside its outer call's)
 *   calls      = calls of those outermost nodes; recursive_calls = calls of
 *                the others (a call made while the method is on the stack)
 *   parents    = the callers, children = the callees, each with the calls
 *                and inclusive time along that edge; a call from a thread's
 *                top level has the pseudo-caller "(toplevel)".
 * Built without recursion: the tree may be hundreds of thousands deep. */
#ifndef AF_REPORT_H
#define AF_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "profile.h"

#define AF_REPORT_TOPLEVEL "(toplevel)"

struct af_report_edge {
	uint32_t method;     /* index in report->methods; AF_NONE: (toplevel) */
	bool recursive;      /* parents: the call was recursive; children: the
				caller was itself inside a recursive call */
	uint64_t calls;      /* calls along this edge */
	uint64_t time;       /* inclusive weight of those calls */
};

struct af_report_method {
	uint32_t name;               /* interned frame name */
	uint64_t exclusive, inclusive;
	uint64_t calls, recursive_calls;
	struct af_report_edge *parents, *children;  /* point into report->edges */
	size_t nparents, nchildren;
};

struct af_report {
	const struct af_tree *tree;
	struct af_report_method *methods;  /* exclusive descending, then name */
	size_t nmethods;
	struct af_report_edge *edges;      /* storage of every parent and child list */
	size_t nedges;
	uint64_t total;       /* sum of exclusive = the flame graph's total */
	bool has_calls;       /* the tree counts calls (method traces) */
};

/* Build the report of the subtree at root, skipping excluded nodes (may be
 * NULL) and treating the root, thread and process nodes of p as context,
 * not methods. Never fails; release with af_report_release(). */
void af_report_build(struct af_report *r, const struct af_profile *p, uint32_t root,
		     const uint8_t *excluded);
void af_report_release(struct af_report *r);

/* ---- writers (render_report.c) ---- */

enum af_report_format { AF_REPORT_TEXT, AF_REPORT_CSV, AF_REPORT_JSON, AF_REPORT_HTML };

struct af_report_opts {
	const char *title;       /* what was profiled: a thread name, "All threads" */
	const char *source;      /* input file name; may be NULL */
	const char *source_before; /* comparisons: the first run's file */
	const char *clock;       /* "wall", "thread-cpu"; NULL for folded input */
	const char *unit;        /* "µs", "samples" */
	unsigned decimals;       /* weights are fixed point with this many decimals */
	size_t top;              /* at most this many methods; 0 = all */
};

/* Write the report: an aligned table then each method's callers and
 * callees (text), one row per method and per edge (CSV), everything
 * (JSON), or a page with a sortable table (HTML, its own small script).
 * Returns 0, or -1 if the sink failed. */
int af_render_report(const struct af_report *r, enum af_report_format fmt,
		     const struct af_report_opts *o, struct af_sink *out);

/* ---- comparing two runs (--diff --report) ----
 *
 * Methods of two reports matched by name (dmtracedump -d). The change of a
 * method is second run minus first run; rows are listed by the change of
 * exclusive time (inclusive with by_inclusive), largest increase first and
 * largest decrease last, so what got slower leads and what got faster ends
 * the list. With top, the top rows of largest change either way are kept,
 * listed in that same order. */

struct af_report_change {
	const char *name;                /* valid while the reports' trees are */
	uint64_t exclusive[2], inclusive[2];  /* [0] first run, [1] second */
	uint64_t calls[2];               /* all calls, recursive ones included */
	bool in[2];                      /* the method appears in that run */
	int64_t key[2];                  /* sort keys: change of the measure
					    sorted by, then of the other */
};

struct af_report_diff {
	struct af_report_change *rows;   /* shown rows, in order */
	size_t nrows;
	size_t nmethods;                 /* methods of either run */
	size_t only[2];                  /* methods only in the first / second run */
	size_t changed;                  /* methods whose exclusive or inclusive
					    time changed */
	uint64_t total[2];
	bool has_calls, by_inclusive, normalized;
};

/* Build the comparison of `before` and `after`. normalize scales the first
 * run's times to the second run's total (each rounded down). top: keep that
 * many rows (0: all). Never fails; release with af_report_diff_release(). */
void af_report_diff_build(struct af_report_diff *rd, const struct af_report *before,
			  const struct af_report *after, bool by_inclusive, bool normalize,
			  size_t top);
void af_report_diff_release(struct af_report_diff *rd);

/* Write the comparison as text, CSV, JSON or HTML (o->source_before names
 * the first run, o->source the second). Returns 0, or -1 if the sink failed. */
int af_render_report_diff(const struct af_report_diff *rd, enum af_report_format fmt,
			  const struct af_report_opts *o, struct af_sink *out);

#endif
