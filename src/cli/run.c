/* run.c: one run of the main command on one graph (run.h): inputs read
 * as one profile, -t/-p selection, transforms, titles, then the graph, the
 * report or --info written into the output file, which appears whole or not
 * at all (output.h). */
#include "run.h"
#include "batch.h"
#include "core/escape.h"
#include "core/job.h"
#include "core/merge.h"
#include "core/output.h"
#include "core/plan.h"
#include "core/report.h"
#include "core/util.h"
#include "read/input.h"
#include "read/read.h"
#include "render/render.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages and --info ---- */

/* s escaped for a terminal (escape.h) in b, to print or pad */
static const char *term(struct af_buf *b, const char *s)
{
	char *t = af_escape_term_dup(s);
	b->len = 0;
	af_buf_puts(b, t);
	free(t);
	return b->data;
}

void af_run_print_warnings(const struct af_profile *p, const char *file)
{
	struct af_buf f, w;
	af_buf_init(&f);
	af_buf_init(&w);
	term(&f, file);
	for (size_t i = 0; i < p->nwarnings; i++) {
		char *line = af_warning_line(&p->warnings[i]);
		fprintf(stderr, AF_PROG ": %s: warning: %s\n", f.data, term(&w, line));
		free(line);
	}
	af_buf_release(&f);
	af_buf_release(&w);
}

/* What the file holds, for people and terminals: names from the trace are
 * escaped (a name cannot set a window title or write the clipboard). */
static void write_info(const struct af_profile *p, const char *file,
		       const struct af_transforms *tx, struct af_sink *out)
{
	struct af_buf b;
	af_buf_init(&b);
	af_sink_printf(out, "file: %s\nformat: %s\nread by: " AF_PROG " %s\n", term(&b, file),
		       p->format, af_version);
	for (size_t i = 0; i < p->nitems; i++) {
		af_sink_printf(out, "%s: ", term(&b, p->items[i].key));
		af_sink_printf(out, "%s\n", term(&b, p->items[i].value));
	}
	if (p->clock)
		af_sink_printf(out, "weights: %s clock, %s\n", p->clock, p->unit);
	size_t with_events = 0;
	for (size_t i = 0; i < p->nthreads; i++)
		with_events += p->threads[i].node != AF_NONE;
	af_sink_printf(out, "threads with events: %zu\n", with_events);
	if (with_events)   /* span: first to last event; in graph: the thread's total */
		af_sink_printf(out, "  %8s  %-32s %10s  %12s  %12s\n", "tid", "name", "events",
			       p->clock ? "span" : "", "in graph");
	uint64_t *tot = with_events ? af_tree_totals(&p->tree) : NULL;
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct af_thread *th = &p->threads[i];
		if (th->node == AF_NONE)
			continue;
		char span[48] = "", total[AF_FIXED_POINT_MAX];
		if (p->clock)
			snprintf(span, sizeof span, "%" PRIu64 " %s", th->last_time - th->first_time, p->unit);
		af_fixed_point(total, tot[th->node], p->decimals);
		af_sink_printf(out, "  %8" PRIu64 "  %-32s %10" PRIu64 "  %12s  %9s %s\n",
			       th->tid, term(&b, th->name), th->events, span, total, p->unit);
	}
	free(tot);
	if (af_transforms_any(tx)) {
		struct af_buf t;
		af_buf_init(&t);
		af_transforms_describe(tx, &t);
		af_sink_printf(out, "transforms: %s\n", term(&b, t.data));
		af_buf_release(&t);
	}
	af_sink_printf(out, "warnings: %zu\n", p->nwarnings);
	for (size_t i = 0; i < p->nwarnings; i++) {
		char *line = af_warning_line(&p->warnings[i]);
		af_sink_printf(out, "  %s\n", term(&b, line));
		free(line);
	}
	af_buf_release(&b);
}

/* ---- the steps ---- */

/* "main, RenderThread" for several threads -t selected (at most about 80
 * bytes of names, then "and N more"). */
static void selected_names(const struct af_profile *p, const uint8_t *excluded, struct af_buf *b)
{
	size_t shown = 0, left = 0;
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct af_thread *th = &p->threads[i];
		if (th->node == AF_NONE || excluded[th->node])
			continue;
		if (b->len > 80) {
			left++;
			continue;
		}
		af_buf_printf(b, "%s%s", shown++ ? ", " : "", th->name);
	}
	if (left)
		af_buf_printf(b, " and %zu more", left);
}

/* v µs as people read it: "250 µs", "1.5 ms", "12 s" */
static void put_time(struct af_buf *b, uint64_t v)
{
	if (v >= 1000000)
		af_buf_printf(b, "%.6g s", (double)v / 1e6);
	else if (v >= 1000)
		af_buf_printf(b, "%.6g ms", (double)v / 1e3);
	else
		af_buf_printf(b, "%" PRIu64 " \xc2\xb5s", v);
}

/* --from/--to: the window drawn, after the file, clock and unit. */
static void window_subtitle(const struct af_run_opts *o, struct af_buf *b)
{
	if (!o->read.window)
		return;
	af_buf_puts(b, b->len ? " \xc2\xb7 " : "");
	af_buf_puts(b, "from ");
	put_time(b, o->read.from);
	if (o->read.to != UINT64_MAX) {
		af_buf_puts(b, " to ");
		put_time(b, o->read.to);
	}
}

void af_run_titles(struct af_run_opts *o, const struct af_profile *p, int nselected, size_t only,
		   const uint8_t *excluded, struct af_buf *subtitle, struct af_buf *title)
{
	if (nselected > 1 && excluded && !o->title)
		selected_names(p, excluded, title);
	o->render.title = o->title ? o->title
		: nselected == 1 ? p->threads[only].name
		: title->len ? title->data
		: p->nthreads ? "All threads" : o->layout.chart ? "Flame Chart"
		: o->layout.inverted ? "Icicle Graph" : "Flame Graph";
	o->render.count_name = o->count_name ? o->count_name : p->unit;
	o->render.decimals = p->decimals;
	if (o->subtitle) {
		o->render.subtitle = o->subtitle;
	} else {
		af_default_subtitle(subtitle, o->inputs[0], p, o->count_name);
		window_subtitle(o, subtitle);
		o->render.subtitle = subtitle->len ? subtitle->data : NULL;
	}
	/* --subtitle '': no subtitle row, flamegraph.pl's layout */
	o->layout.has_subtitle = o->render.subtitle && *o->render.subtitle;
}

static int write_report(const struct af_run_opts *o, const struct af_profile *p, uint32_t root,
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
static void set_total(struct af_run_opts *o, const struct af_profile *p)
{
	double v = strtod(o->total, NULL);
	for (unsigned i = 0; i < p->decimals; i++)
		v *= 10;
	uint64_t sum = 0;
	for (size_t i = 0; i < p->tree.nnodes; i++)
		sum += p->tree.nodes[i].self;
	o->layout.total = v >= 1.8e19 ? UINT64_MAX : (uint64_t)(v + 0.5);
	if (o->layout.total < sum)
		fprintf(stderr, AF_PROG ": warning: --total %s is less than the total weight, so ignored\n",
			o->total);
}

int af_run_graph_begin(struct af_run_opts *o, const struct af_profile *p, char **app,
		       struct af_diag *d)
{
	*app = NULL;
	if (o->total)
		set_total(o, p);
	/* colours only where frames are drawn: a back end that writes the
	 * tree (folded, pprof) has none, and the guess of an app's package
	 * reads every name (19M of the 10 MB pprof -> .pb.gz's 1,116M
	 * instructions) */
	if (af_backend_of(o->format)->draw)
		af_palette_for(&o->layout.palette, p, app);
	if (o->cp) {
		o->layout.palette.map = af_palette_map_new();
		return af_palette_map_read(o->layout.palette.map, "palette.map", d);
	}
	return 0;
}

int af_run_graph_end(struct af_run_opts *o, char *app, int rc, struct af_diag *d)
{
	if (rc == 0 && o->cp && o->layout.palette.map) {
		struct af_output out;
		rc = af_output_open(&out, "palette.map", d);
		if (rc == 0) {
			af_palette_map_write(o->layout.palette.map, &out.sink);
			rc = af_output_commit(&out);
		}
	}
	af_palette_map_free(o->layout.palette.map);
	o->layout.palette.map = NULL;
	if (o->layout.palette.app_package == app)
		o->layout.palette.app_package = NULL;
	free(app);
	return rc;
}

int af_run_select(const struct af_run_opts *o, const struct af_profile *p,
		  struct af_selection *s, struct af_diag *d)
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

/* The default subtitle says which transforms were applied. */
static void transform_subtitle(struct af_run_opts *o, struct af_buf *subtitle)
{
	if (o->subtitle || !af_transforms_any(&o->tx))
		return;
	if (subtitle->len)
		af_buf_puts(subtitle, "; ");
	af_buf_puts(subtitle, "transforms: ");
	af_transforms_describe(&o->tx, subtitle);
	o->render.subtitle = subtitle->data;
	o->layout.has_subtitle = true;
}

/* Every stack was filtered out: say so rather than draw an empty graph. */
static int nothing_left(const struct af_run_opts *o, struct af_diag *d)
{
	struct af_buf b;
	af_buf_init(&b);
	af_transforms_describe(&o->tx, &b);
	af_diag_error(d, "no stacks left after the transforms (%.*s)", (int)b.len, b.data);
	af_buf_release(&b);
	return -1;
}

/* The graph's root and the nodes left out, after -t, -p and the transforms
 * (s->excluded is then set only if something is left out). 0, or -1 with
 * diag set. */
static int choose(struct af_run_opts *o, struct af_profile *p, struct af_selection *s,
		  struct af_diag *d)
{
	if (af_run_select(o, p, s, d) < 0)
		return -1;
	bool left_out = s->nsel || s->nproc;   /* excluded has something to skip */
	if (af_transforms_any(&o->tx)) {
		left_out = true;
		if (!af_transforms_apply(&o->tx, p, &s->excluded, &s->root) && !o->info)
			return nothing_left(o, d);
	}
	if (!left_out) {
		free(s->excluded);
		s->excluded = NULL;
	}
	return 0;
}

/* The output file: --info, the report or the graph. */
static int write_output(struct af_run_opts *o, struct af_profile *p, const struct af_selection *s,
			struct af_diag *d)
{
	struct af_output out;
	if (af_output_open(&out, o->output, d) < 0)
		return -1;
	int rc = 0;
	if (o->info)
		write_info(p, o->inputs[0], &o->tx, &out.sink);
	else if (o->report)
		rc = write_report(o, p, s->root, s->excluded, &out.sink);
	else
		rc = af_render_to(o->format, &p->tree, s->root, s->excluded, &o->layout,
				  &o->render, &out.sink, d);
	return af_output_close(&out, rc);
}

/* A flame chart's left edge without a window: the earliest first event of
 * the threads drawn, so each thread keeps its offset from the others on the
 * one time axis (a single thread's chart begins at its own first event).
 * ART's thread-cpu clock has no common origin: each thread's times are
 * since its own first event (fold.c), so they all begin at 0. False if no
 * thread is drawn (the chart then begins at its earliest frame). */
static bool chart_origin(const struct af_profile *p, const struct af_selection *s, uint64_t *origin)
{
	bool any = false;
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct af_thread *th = &p->threads[i];
		if (th->node == AF_NONE || (s->excluded && (s->excluded[th->node]
		    || (th->process_node != AF_NONE && s->excluded[th->process_node]))))
			continue;
		if (s->root != AF_ROOT && s->root != th->node && s->root != th->process_node)
			continue;
		uint64_t first = p->clock && strcmp(p->clock, "thread-cpu") == 0 ? 0 : th->first_time;
		if (!any || first < *origin)
			*origin = first;
		any = true;
	}
	return any;
}

/* Select, transform, title and write p. */
static int produce(struct af_run_opts *o, struct af_profile *p, struct af_diag *d)
{
	struct af_selection s;
	if (choose(o, p, &s, d) < 0) {
		free(s.excluded);
		return -1;
	}
	if (o->layout.chart) {   /* a time axis from --from; a band per thread */
		o->layout.axis_unit = p->unit;
		o->layout.axis_origin = o->read.window ? o->read.from : 0;
		o->layout.has_origin = o->read.window || chart_origin(p, &s, &o->layout.origin);
		o->layout.bands = s.root == AF_ROOT && p->nthreads > 1;
	}
	struct af_buf subtitle, title;
	af_buf_init(&subtitle);
	af_buf_init(&title);
	af_run_titles(o, p, s.nsel, s.only, s.excluded, &subtitle, &title);
	transform_subtitle(o, &subtitle);
	if (s.nproc == 1 && s.nsel != 1 && !o->title)
		o->render.title = p->processes[s.only_proc].name;
	int rc = write_output(o, p, &s, d);
	af_buf_release(&subtitle);
	af_buf_release(&title);
	free(s.excluded);
	return rc;
}

/* ---- reading ---- */

/* A capture's warnings, named by its own file */
static void print_capture_warnings(void *ctx, const struct af_profile *q, const char *name)
{
	(void)ctx;
	af_run_print_warnings(q, name);
}

int af_run_read(const struct af_run_opts *o, char *const *paths, size_t n, bool average,
		struct af_profile *p, struct af_run_inputs *keep, struct af_diag *d)
{
	keep->in = af_xcalloc(n, sizeof *keep->in);
	keep->n = 0;
	struct af_input *ins = af_xcalloc(n, sizeof *ins);
	int rc = 0;
	for (; keep->n < n && rc == 0; keep->n++) {
		af_diag_init(d, paths[keep->n]);
		rc = af_input_load(&keep->in[keep->n], paths[keep->n], o->read.max_input, d);
		ins[keep->n] = keep->in[keep->n].in;
	}
	if (rc == 0) {
		af_diag_init(d, paths[0]);
		rc = af_read_captures(p, ins, n, o->reader, &o->read,
				      o->info ? NULL : print_capture_warnings, NULL, d);
	}
	if (rc == 0 && average && n > 1) {
		af_diag_init(d, paths[0]);
		rc = af_profile_average(p, (unsigned)n, d);
	}
	free(ins);
	return rc;
}

void af_run_release_inputs(struct af_run_inputs *keep)
{
	for (size_t i = 0; i < keep->n; i++)
		af_input_release(&keep->in[i]);
	free(keep->in);
	keep->in = NULL;
	keep->n = 0;
}

/* ---- the run ---- */

static void rank_names(void *tree)
{
	af_tree_name_ranks(tree);
}

/* af_run_graph_begin, and for a drawing the names' byte order (which the
 * layout sorts siblings by, kept in the tree) made on a second thread
 * meanwhile: both only read the names (pprof bench: the guess of the app
 * 19M instructions, the order 24M). */
static int graph_begin(struct af_run_opts *o, struct af_profile *p, char **app, struct af_diag *d)
{
	struct af_job ranks;
	bool drawn = af_backend_of(o->format)->draw;
	if (drawn)
		af_job_start(&ranks, rank_names, &p->tree);
	int rc = af_run_graph_begin(o, p, app, d);
	if (drawn)
		af_job_join(&ranks);
	return rc;
}

int af_run_single(struct af_run_opts *o, struct af_diag *d)
{
	struct af_run_inputs keep;
	struct af_profile p;
	af_profile_init(&p);
	int rc = af_run_read(o, o->inputs, o->ninputs, o->average, &p, &keep, d);
	if (rc == 0) {
		char *app = NULL;
		if (!o->info && !o->report)
			rc = graph_begin(o, &p, &app, d);
		if (rc == 0)
			rc = produce(o, &p, d);
		rc = af_run_graph_end(o, app, rc, d);
	}
	af_run_release_inputs(&keep);
	af_profile_release(&p);
	return rc;
}
