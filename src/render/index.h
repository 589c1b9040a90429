/* index.h: the list of a per-thread run's graphs as HTML, one writer for
 * --per-thread's index.html (cli/batch.c) and serve's result page (serve/):
 * a table of the graphs (name, process, tid, total, share, links to each
 * file) and a figure per graph, each opening the graph interactive (an
 * interactive SVG embedded live, a picture as a thumbnail, a link always).
 * A graph with nothing to draw (a total of 0) is listed, not drawn. Every
 * name and message is escaped here (core/escape.h); hrefs are the callers'
 * own (file names they made safe, or fixed server paths), escaped too. */
#ifndef AF_INDEX_H
#define AF_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"

/* The most files one graph links (serve: SVG, PNG, folded). */
#define AF_INDEX_FILES 3

struct af_index_file {
	const char *href;          /* where it is, relative to the page */
	const char *label;         /* the link's text */
	const char *error;         /* why it is missing (then href is not linked) */
	bool download;             /* a download, not a page */
};

struct af_index_graph {
	const char *name;          /* the thread's name, "all" for a whole input */
	bool whole;                /* no threads: the whole input */
	const char *process;       /* its process's name, or NULL */
	uint64_t tid, total;
	const char *not_drawn;     /* listed only, and why; NULL: drawn */
	struct af_index_file files[AF_INDEX_FILES];   /* files[0] is the figure's */
	size_t nfiles;
	double width, height;      /* of the picture, 0 when not known */
	const char *note;          /* a line under the figure, or NULL */
};

/* How a figure shows files[0]. */
enum af_index_embed {
	AF_INDEX_OBJECT,   /* an interactive SVG, live, in an <object> (local files) */
	AF_INDEX_SANDBOX,  /* the same in <iframe sandbox="allow-scripts"> (served:
			      its script runs in an opaque origin) */
	AF_INDEX_IMAGE,    /* a picture (PNG, static SVG): a thumbnail linking to it */
	AF_INDEX_LINK,     /* anything else (PDF, text): a link */
};

struct af_index {
	const struct af_index_graph *graphs;
	size_t n;
	uint64_t total;            /* of every graph listed, for the shares */
	unsigned decimals;         /* weights are fixed point (render.h) */
	const char *unit;
	bool processes;            /* a Process column */
	const char *anchor;        /* figure ids: anchor + (first + i) */
	size_t first;
	enum af_index_embed embed;
};

/* The table: one row a graph, its name linking to its figure when drawn. */
void af_index_table(struct af_sink *out, const struct af_index *x);
/* A figure per drawn graph, in the table's order. */
void af_index_figures(struct af_sink *out, const struct af_index *x);
/* The style both pages share for the table and the figures (CSS text). */
extern const char af_index_style[];

#endif
