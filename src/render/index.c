/* index.c: the list of a per-thread run's graphs as HTML (index.h), for
 * --per-thread's index.html and serve's result page alike. The markup is
 * well-formed XML as well as HTML (serve's tests read it with xmllint). */
#include "index.h"
#include "render.h"
#include "core/escape.h"

#include <inttypes.h>

const char af_index_style[] =
	"table.list{border-collapse:collapse}\n"
	"table.list th,table.list td{padding:2px 10px;text-align:left;vertical-align:top}\n"
	"table.list thead th{background:#eee}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"table.list tbody tr:nth-child(odd){background:#f6f6f2}\n"
	"figure.graph{margin:1.5em 0}figure.graph figcaption{font-weight:bold;margin-bottom:.4em}\n"
	"figure.graph img,figure.graph object,figure.graph iframe{max-width:100%;border:1px solid #ccc;"
	"background:#fff}\nfigure.graph img{height:auto}\n.err{color:#b00000}.note{color:#666}\n";

/* Drawn: within the caller's limits and with something to draw. */
static bool drawn(const struct af_index_graph *g)
{
	return !g->not_drawn && g->total > 0;
}

static void attr(struct af_sink *out, const char *name, const char *value)
{
	af_sink_printf(out, " %s=\"", name);
	af_escape_xml(out, value);
	af_sink_putc(out, '"');
}

static void link(struct af_sink *out, const struct af_index_file *f, const char *text)
{
	af_sink_puts(out, "<a");
	attr(out, "href", f->href);
	af_sink_puts(out, f->download ? " download=\"\">" : ">");
	af_escape_xml(out, text);
	af_sink_puts(out, "</a>");
}

static void files_cell(struct af_sink *out, const struct af_index_graph *g)
{
	if (g->not_drawn) {
		af_escape_xml(out, g->not_drawn);
		return;
	}
	for (size_t k = 0; k < g->nfiles; k++) {
		const struct af_index_file *f = &g->files[k];
		af_sink_puts(out, k ? " \xc2\xb7 " : "");
		if (f->error) {
			af_sink_puts(out, "<span class=\"err\"");
			attr(out, "title", f->error);
			af_sink_puts(out, ">no ");
			af_escape_xml(out, f->label);
			af_sink_puts(out, "</span>");
		} else {
			link(out, f, f->label);
		}
	}
	if (g->total == 0)
		af_sink_puts(out, " (nothing to draw)");
}

static void row(struct af_sink *out, const struct af_index *x, size_t i)
{
	const struct af_index_graph *g = &x->graphs[i];
	af_sink_puts(out, "<tr><td>");
	if (drawn(g))
		af_sink_printf(out, "<a href=\"#%s%zu\">", x->anchor, x->first + i);
	af_escape_xml(out, g->name);
	af_sink_puts(out, drawn(g) ? "</a></td>" : "</td>");
	if (x->processes) {
		af_sink_puts(out, "<td>");
		if (g->process)
			af_escape_xml(out, g->process);
		af_sink_puts(out, "</td>");
	}
	af_sink_puts(out, "<td class=\"n\">");
	if (!g->whole)
		af_sink_u64(out, g->tid);
	af_sink_puts(out, "</td><td class=\"n\">");
	af_sink_weight(out, g->total, x->decimals, x->unit);
	af_sink_puts(out, "</td><td class=\"n\">");
	af_sink_fixed(out, x->total ? 100.0 * (double)g->total / (double)x->total : 0, 1);
	af_sink_puts(out, "%</td><td>");
	files_cell(out, g);
	af_sink_puts(out, "</td></tr>\n");
}

void af_index_table(struct af_sink *out, const struct af_index *x)
{
	af_sink_puts(out, "<table class=\"list\">\n<thead><tr><th>Thread</th>");
	if (x->processes)
		af_sink_puts(out, "<th>Process</th>");
	af_sink_puts(out, "<th>TID</th><th>Total</th><th>Share</th><th>Files</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < x->n; i++)
		row(out, x, i);
	af_sink_puts(out, "</tbody>\n</table>\n");
}

/* The graph's size, and its ratio kept when the page is narrower than
 * it (max-width): the graph inside shrinks to the frame's width, and a
 * frame of the full height left a blank band above and below it. */
static void size_attrs(struct af_sink *out, const struct af_index_graph *g)
{
	if (g->width > 0 && g->height > 0)
		af_sink_printf(out, " width=\"%.0f\" height=\"%.0f\" style=\"aspect-ratio:%.0f/%.0f;height:auto\"",
			       g->width, g->height, g->width, g->height);
}

/* files[0] of g, shown as x says. */
static void embed(struct af_sink *out, const struct af_index *x, const struct af_index_graph *g)
{
	const struct af_index_file *f = &g->files[0];
	switch (x->embed) {
	case AF_INDEX_OBJECT:
		af_sink_puts(out, "<object type=\"image/svg+xml\"");
		attr(out, "data", f->href);
		size_attrs(out, g);
		af_sink_puts(out, ">");
		link(out, f, f->label);
		af_sink_puts(out, "</object>");
		break;
	case AF_INDEX_SANDBOX:
		af_sink_puts(out, "<iframe sandbox=\"allow-scripts\" loading=\"lazy\"");
		attr(out, "src", f->href);
		size_attrs(out, g);
		af_sink_puts(out, " title=\"flame graph of ");
		af_escape_xml(out, g->name);
		af_sink_puts(out, "\"></iframe>");
		break;
	case AF_INDEX_IMAGE:
		af_sink_puts(out, "<a");
		attr(out, "href", f->href);
		af_sink_puts(out, "><img");
		attr(out, "src", f->href);
		af_sink_puts(out, " alt=\"flame graph of ");
		af_escape_xml(out, g->name);
		af_sink_puts(out, "\" loading=\"lazy\"/></a>");
		break;
	case AF_INDEX_LINK:
		link(out, f, f->label);
		break;
	}
	af_sink_putc(out, '\n');
}

static void figure(struct af_sink *out, const struct af_index *x, size_t i)
{
	const struct af_index_graph *g = &x->graphs[i];
	af_sink_printf(out, "<figure class=\"graph\" id=\"%s%zu\"><figcaption>", x->anchor, x->first + i);
	af_escape_xml(out, g->name);
	if (!g->whole)
		af_sink_printf(out, " (%" PRIu64 ")", g->tid);
	af_sink_puts(out, " \xc2\xb7 ");
	af_sink_weight(out, g->total, x->decimals, x->unit);
	const struct af_index_file *f = &g->files[0];
	if (g->nfiles && !f->error && x->embed != AF_INDEX_LINK) {
		af_sink_puts(out, " \xc2\xb7 ");
		link(out, f, "open");
	}
	af_sink_puts(out, "</figcaption>\n");
	if (!g->nfiles) {
		af_sink_puts(out, "<p class=\"err\">no file</p>\n");
	} else if (f->error) {
		af_sink_puts(out, "<p class=\"err\">not written: ");
		af_escape_xml(out, f->error);
		af_sink_puts(out, "</p>\n");
	} else {
		embed(out, x, g);
	}
	if (g->note) {
		af_sink_puts(out, "<p class=\"note\">");
		af_escape_xml(out, g->note);
		af_sink_puts(out, "</p>\n");
	}
	af_sink_puts(out, "</figure>\n");
}

void af_index_figures(struct af_sink *out, const struct af_index *x)
{
	for (size_t i = 0; i < x->n; i++)
		if (drawn(&x->graphs[i]))
			figure(out, x, i);
}
