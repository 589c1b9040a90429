/* serve_result.c: the result page of one upload, --data/<hash>/index.html,
 * written by its render child after the graphs (serve_render.c): the
 * uploaded file's name, the graphs (render/index.h, the writer
 * --per-thread's index.html uses too), then the table of threads, the
 * --info facts and the profile table. It has no script: each graph runs in
 * a sandboxed frame. */
#include "serve_render.h"
#include "core/escape.h"
#include "core/output.h"
#include "render/index.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const enum af_out_format af_serve_files[AF_SF_N] = {
	[AF_SF_SVG] = AF_OUT_SVG, [AF_SF_PNG] = AF_OUT_PNG, [AF_SF_FOLDED] = AF_OUT_FOLDED,
};

static void page_summary(struct af_sink *out, const struct af_serve_render *r)
{
	const struct af_profile *p = &r->p;
	af_sink_puts(out, "<h2>Summary</h2>\n<table class=\"kv\">\n<tr><th>format</th><td>");
	af_escape_xml(out, p->format);
	af_sink_puts(out, "</td></tr>\n");
	for (size_t i = 0; i < p->nitems; i++) {
		af_sink_puts(out, "<tr><th>");
		af_escape_xml(out, p->items[i].key);
		af_sink_puts(out, "</th><td>");
		af_escape_xml(out, p->items[i].value);
		af_sink_puts(out, "</td></tr>\n");
	}
	if (p->clock) {
		af_sink_puts(out, "<tr><th>weights</th><td>");
		af_escape_xml(out, p->clock);
		af_sink_puts(out, " clock, ");
		af_escape_xml(out, p->unit);
		af_sink_puts(out, "</td></tr>\n");
	}
	af_sink_printf(out, "<tr><th>threads with events</th><td>%zu</td></tr>\n",
		       r->recs[0].whole ? (size_t)0 : r->nrecs);
	af_sink_printf(out, "<tr><th>warnings</th><td>%zu</td></tr>\n</table>\n", p->nwarnings);
	if (p->nwarnings) {
		af_sink_puts(out, "<ul class=\"warn\">\n");
		for (size_t i = 0; i < p->nwarnings; i++) {
			char *line = af_warning_line(&p->warnings[i]);
			af_sink_puts(out, "<li>");
			af_escape_xml(out, line);
			af_sink_puts(out, "</li>\n");
			free(line);
		}
		af_sink_puts(out, "</ul>\n");
	}
}

/* The links of a result's files, each a fixed path on this server. */
struct hrefs {
	char s[AF_SF_N][96];
};

static const char *not_drawn(const struct af_serve_render *r, size_t i)
{
	if (r->recs[i].drawn)
		return NULL;
	if (r->recs[i].total == 0)
		return "nothing to draw";   /* no files written */
	return i < r->ndrawn ? "not drawn: the time budget ran out"
			     : "not drawn: over the limit of threads per upload";
}

/* The index writer's view of the threads; hrefs and notes live in h and
 * notes, which the caller frees. */
static void graphs_of(const struct af_serve_render *r, struct af_index_graph *g,
		      struct hrefs *h, char **notes)
{
	for (size_t i = 0; i < r->nrecs; i++) {
		const struct af_serve_thread *t = &r->recs[i];
		g[i] = (struct af_index_graph){ .name = t->whole ? "all" : t->name, .whole = t->whole,
			.process = t->process, .tid = t->tid, .total = t->total,
			.not_drawn = not_drawn(r, i), .nfiles = AF_SF_N, .width = t->width,
			.height = t->height };
		for (int f = 0; f < AF_SF_N; f++) {
			const struct af_backend *b = af_backend_of(af_serve_files[f]);
			snprintf(h[i].s[f], sizeof h[i].s[f], "/trace/%s/t%zu.%s", r->hash, i, b->exts[0]);
			g[i].files[f] = (struct af_index_file){ .href = h[i].s[f], .label = b->label,
				.error = t->error[f], .download = !b->image };
		}
		notes[i] = NULL;
		if (t->min_width > 0) {
			char line[160];
			snprintf(line, sizeof line, "Frames narrower than %g px are left out (--minwidth "
				 "raised to keep this graph within %d frames).", t->min_width,
				 AF_SERVE_MAX_FRAMES);
			g[i].note = notes[i] = af_xstrndup(line, strlen(line));
		}
	}
}

/* What was left out of the whole result, above the graphs. */
static void page_limits(struct af_sink *out, const struct af_serve_render *r)
{
	size_t drawn = 0, empty = 0;
	for (size_t i = 0; i < r->nrecs; i++) {
		drawn += r->recs[i].drawn;
		empty += r->recs[i].total == 0;
	}
	af_sink_printf(out, "<p>%zu listed, %zu drawn", r->nrecs, drawn);
	if (empty)
		af_sink_printf(out, " (%zu with nothing to draw)", empty);
	if (r->ndrawn < r->nrecs)
		af_sink_printf(out, " (at most %zu per upload)", r->ndrawn);
	if (r->out_of_time)
		af_sink_puts(out, "; the render time budget ran out, so some were left out");
	af_sink_puts(out, ".</p>\n");
	if (r->cut) {
		char size[32];
		af_serve_size(size, sizeof size, r->o->max_result);
		af_sink_printf(out, "<p class=\"err\" id=\"cut\">This result was cut: files that would "
			       "take it past this server's limit of %s per upload (--max-result) "
			       "were left out (their rows say which).</p>\n", size);
	}
}

static void page_graphs(struct af_sink *out, const struct af_serve_render *r)
{
	struct af_index_graph *g = af_xcalloc(r->nrecs ? r->nrecs : 1, sizeof *g);
	struct hrefs *h = af_xcalloc(r->nrecs ? r->nrecs : 1, sizeof *h);
	char **notes = af_xcalloc(r->nrecs ? r->nrecs : 1, sizeof *notes);
	graphs_of(r, g, h, notes);
	struct af_index x = { .graphs = g, .n = r->nrecs, .total = r->total,
		.decimals = r->p.decimals, .unit = r->p.unit, .processes = true, .anchor = "t",
		.embed = AF_INDEX_SANDBOX };
	af_sink_puts(out, "<h2>Flame graphs</h2>\n");
	page_limits(out, r);
	af_index_figures(out, &x);
	af_sink_puts(out, "<h2>Threads</h2>\n");
	af_index_table(out, &x);
	for (size_t i = 0; i < r->nrecs; i++)
		free(notes[i]);
	free(notes);
	free(h);
	free(g);
}

static void page_report(struct af_sink *out, const struct af_serve_render *r)
{
	af_sink_puts(out, "<h2>Profile</h2>\n");
	if (r->report_error) {
		af_sink_puts(out, "<p class=\"err\">");
		af_escape_xml(out, r->report_error);
		af_sink_puts(out, "</p>\n");
		return;
	}
	af_sink_printf(out, "<p>Exclusive and inclusive time, calls, callers and callees of every "
		       "method (<a href=\"/trace/%s/report.html\">open on its own</a>).</p>\n"
		       "<iframe sandbox=\"allow-scripts\" loading=\"lazy\" class=\"report\" "
		       "src=\"/trace/%s/report.html\" title=\"profile table\"></iframe>\n", r->hash, r->hash);
}

/* The title and heading: the uploaded file's name, escaped. */
static void page_top(struct af_sink *s, const struct af_serve_render *r)
{
	const char *name = r->upload_name ? r->upload_name : "uploaded file";
	struct af_buf title;
	af_buf_init(&title);
	af_buf_printf(&title, "Flame graphs of %s", name);
	af_serve_page_head(s, title.data, NULL);
	af_buf_release(&title);
	af_sink_puts(s, "<p class=\"nav\"><a href=\"/\">Upload another trace</a></p>\n"
		     "<h1>Flame graphs of <span class=\"upload\">");
	af_escape_xml(s, name);
	af_sink_printf(s, "</span></h1>\n<p class=\"hash\">sha256 %s</p>\n", r->hash);
}

int af_serve_write_page(struct af_serve_render *r, struct af_diag *d)
{
	struct af_buf path;
	af_buf_init(&path);
	af_buf_printf(&path, "%s/%.64s/index.html", r->o->data, r->hash);
	af_diag_init(d, "index.html");
	struct af_output out;
	int rc = af_output_open_as(&out, path.data, "index.html", d);
	if (rc == 0) {
		struct af_sink *s = &out.sink;
		page_top(s, r);
		page_graphs(s, r);
		page_summary(s, r);
		page_report(s, r);
		af_sink_puts(s, "</body>\n</html>\n");
		rc = af_output_commit(&out);
	}
	af_buf_release(&path);
	return rc;
}
