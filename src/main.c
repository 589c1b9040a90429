/* main.c: the order of the steps. Options (cli.c) -> read -> select -> lay
 * out -> render -> commit the output file; or a batch (--per-thread), a
 * comparison (--diff) or the service (serve). Everything else lives in the
 * pipeline modules. */
#include "batch.h"
#include "cli.h"
#include "diff.h"
#include "escape.h"
#include "input.h"
#include "layout.h"
#include "nameattr.h"
#include "output.h"
#include "profile.h"
#include "read.h"
#include "render.h"
#include "report.h"
#include "serve.h"

#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- reporting ---- */

static void print_diag(const struct af_diag *d)
{
	char line[512];
	af_diag_format(d, line, sizeof line);
	fprintf(stderr, AF_PROG ": %s\n", line);
}

/* s escaped for a terminal (escape.h) in b, to print or pad */
static const char *term(struct af_buf *b, const char *s)
{
	char *t = af_escape_term_dup(s);
	b->len = 0;
	af_buf_puts(b, t);
	free(t);
	return b->data;
}

static void print_warnings(const struct af_profile *p, const char *file)
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

/* ---- the pipeline ---- */

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

static void set_titles(struct af_cli *o, const struct af_profile *p, int nselected,
		       size_t only, const uint8_t *excluded, struct af_buf *subtitle, struct af_buf *title)
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
		af_default_subtitle(subtitle, o->inputs[0], p);
		o->render.subtitle = subtitle->len ? subtitle->data : NULL;
	}
	o->layout.has_subtitle = o->render.subtitle != NULL;
}

static int write_report(const struct af_cli *o, const struct af_profile *p, uint32_t root,
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
static void set_total(struct af_cli *o, const struct af_profile *p)
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

/* What the graph needs from the whole profile before layout: --total, the
 * app's package for --colors android, the palette map for --cp. */
static int prepare_graph(struct af_cli *o, const struct af_profile *p, char **app,
			 struct af_diag *d)
{
	if (o->total)
		set_total(o, p);
	if (o->layout.palette.palette == AF_PAL_ANDROID && !o->layout.palette.app_package) {
		/* a simpleperf recording says whose app it profiled */
		const char *named = af_profile_get_info(p, "app package");
		*app = named ? af_xstrndup(named, strlen(named)) : af_palette_guess_app(&p->tree);
		o->layout.palette.app_package = *app;
	}
	if (o->cp) {
		o->layout.palette.map = af_palette_map_new();
		return af_palette_map_read(o->layout.palette.map, "palette.map", d);
	}
	return 0;
}

/* --cp: keep every colour used for the next run (as flamegraph.pl does). */
static int save_palette_map(const struct af_cli *o, struct af_diag *d)
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

static int select_graph(const struct af_cli *o, const struct af_profile *p,
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
/* The default subtitle says which transforms were applied. */
static void transform_subtitle(struct af_cli *o, struct af_buf *subtitle)
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
static int nothing_left(const struct af_cli *o, struct af_diag *d)
{
	struct af_buf b;
	af_buf_init(&b);
	af_transforms_describe(&o->tx, &b);
	af_diag_error(d, "no stacks left after the transforms (%.*s)", (int)b.len, b.data);
	af_buf_release(&b);
	return -1;
}

static int produce(struct af_cli *o, struct af_profile *p, struct af_diag *d)
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
	bool left_out = nsel || nproc;   /* excluded has something to skip */
	if (af_transforms_any(&o->tx)) {
		left_out = true;
		if (!af_transforms_apply(&o->tx, p, &excluded, &root) && !o->info) {
			free(excluded);
			return nothing_left(o, d);
		}
	}
	if (o->layout.chart) {   /* a time axis from --from; a band per thread */
		o->layout.axis_unit = p->unit;
		o->layout.axis_origin = o->read.window ? o->read.from : 0;
		o->layout.bands = root == AF_ROOT && p->nthreads > 1;
	}
	struct af_buf subtitle, title;
	af_buf_init(&subtitle);
	af_buf_init(&title);
	set_titles(o, p, nsel, only, excluded, &subtitle, &title);
	transform_subtitle(o, &subtitle);
	if (nproc == 1 && nsel != 1 && !o->title)
		o->render.title = p->processes[only_proc].name;
	struct af_output out;
	struct af_diag od;
	af_diag_init(&od, o->output);
	int rc = af_output_open(&out, o->output, &od);
	if (rc == 0) {
		if (o->info)
			write_info(p, o->inputs[0], &o->tx, &out.sink);
		else if (o->report)
			rc = write_report(o, p, root, left_out ? excluded : NULL, &out.sink);
		else
			rc = af_render_to(o->format, &p->tree, root, left_out ? excluded : NULL,
					  &o->layout, &o->render, &out.sink, d);
		if (rc == 0)
			rc = af_output_commit(&out, &od);
		else
			af_output_abort(&out);
	}
	if (od.set)
		*d = od;
	af_buf_release(&subtitle);
	af_buf_release(&title);
	free(excluded);
	return rc;
}

static int per_thread(struct af_cli *o)
{
	struct af_batch_opts b = {
		.prog = AF_PROG, .dir = o->per_thread, .format = o->format,
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

static int read_run(struct af_cli *o, struct run *r, const char *path, struct af_diag *d)
{
	af_diag_init(d, path);
	if (af_input_load(&r->in, path, o->read.max_input, d) < 0)
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


/* One line on stderr when work of the first run has no place in the
 * second's graph: how much, where it is drawn, the largest piece (p: the
 * merged profile, which holds the band). */
static void removed_summary(const struct af_cli *o, const struct af_profile *p,
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
	char all[AF_FIXED_POINT_MAX], big[AF_FIXED_POINT_MAX], pct[32];
	af_fixed_point(all, df->removed_total, p->decimals);
	af_fixed_point(big, tot[df->largest_removed], p->decimals);
	snprintf(pct, sizeof pct, "%.2f", df->before_total ?
		 100.0 * (double)df->removed_total / (double)df->before_total : 0.0);
	fprintf(stderr, AF_PROG ": %s: %" PRIu64 " stack%s only in this run, %s %s (%s%% of its time), "
		"drawn in the band '%s' at the right; the largest: %s (%s %s)\n",
		o->inputs[0], df->removed_stacks, df->removed_stacks == 1 ? "" : "s", all, p->unit, pct,
		af_tree_name(t, t->nodes[df->band].name), path.data, big, p->unit);
	free(tot);
	af_buf_release(&path);
}

/* "before → after · clock · unit · what the colours show" */
static void diff_subtitle(const struct af_cli *o, const struct af_profile *p, struct af_buf *b)
{
	af_buf_printf(b, "%s \xe2\x86\x92 %s", base_name(o->inputs[0]), base_name(o->inputs[1]));
	if (p->clock)
		af_buf_printf(b, " \xc2\xb7 %s clock \xc2\xb7 %s", p->clock, p->unit);
	af_buf_printf(b, " \xc2\xb7 %s time: red more, blue less%s",
		      o->layout.diff_total ? "inclusive" : "self",
		      o->layout.negate ? " (negated)" : "");
}

static void diff_titles(struct af_cli *o, const struct run *r, struct af_buf *subtitle)
{
	const struct selection *s = &r[1].sel;
	bool one_thread = s->nsel == 1 && s->root == r[1].p.threads[s->only].node;
	struct af_buf none;
	af_buf_init(&none);
	set_titles(o, &r[1].p, one_thread ? 1 : 0, s->only, NULL, subtitle, &none);
	if (s->nproc == 1 && !one_thread && s->root != AF_ROOT && !o->title)
		o->render.title = r[1].p.processes[s->only_proc].name;
	if (!o->subtitle) {
		subtitle->len = 0;
		diff_subtitle(o, &r[1].p, subtitle);
		o->render.subtitle = subtitle->data;
		o->layout.has_subtitle = true;
	}
}

static int open_output(const struct af_cli *o, struct af_output *out, struct af_diag *od)
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

static int compare_report(struct af_cli *o, struct run *r, struct af_diag *d)
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

static int compare_graph(struct af_cli *o, struct run *r, struct af_diag *d)
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

static int compare_runs(struct af_cli *o)
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
			fprintf(stderr, AF_PROG ": warning: comparing %s%s%s (%s) with %s%s%s (%s)\n",
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

/* --nameattr FILE into na, for every SVG this run draws; -1 after saying
 * what is wrong with the file. */
static int load_nameattr(struct af_cli *o, struct af_nameattr *na)
{
	struct af_diag d;
	struct af_mapped m;
	af_diag_init(&d, o->nameattr);
	int rc = af_input_load(&m, o->nameattr, o->read.max_input, &d);
	if (rc == 0) {
		rc = af_nameattr_parse(na, m.in.data, m.in.len, &d);
		af_input_release(&m);
	}
	if (rc < 0)
		print_diag(&d);
	o->render.nameattr = na;
	return rc;
}

int main(int argc, char **argv)
{
	setlocale(LC_ALL, "C");
	if (argc > 1 && strcmp(argv[1], "serve") == 0)
		return af_serve_main(argc - 1, argv + 1);
	struct af_cli o;
	af_cli_parse(&o, argc, argv);
	af_output_install_signals();
	struct af_nameattr na = { 0 };
	if (o.nameattr && load_nameattr(&o, &na) < 0) {
		af_nameattr_release(&na);
		return 1;
	}
	if (o.per_thread || o.diff) {
		int status = o.per_thread ? per_thread(&o) : compare_runs(&o);
		af_nameattr_release(&na);
		return status;
	}

	struct af_diag d;
	struct af_mapped *in = af_xcalloc(o.ninputs, sizeof *in);
	struct af_input *ins = af_xcalloc(o.ninputs, sizeof *ins);
	struct af_profile p;
	af_profile_init(&p);
	size_t loaded = 0;
	int rc = 0;
	for (; loaded < o.ninputs && rc == 0; loaded++) {
		af_diag_init(&d, o.inputs[loaded]);
		rc = af_input_load(&in[loaded], o.inputs[loaded], o.read.max_input, &d);
		ins[loaded] = in[loaded].in;
	}
	if (rc == 0) {
		af_diag_init(&d, o.inputs[0]);
		rc = af_read_inputs(&p, ins, o.ninputs, o.reader, &o.read, &d);
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
	}
	for (size_t i = 0; i < loaded; i++)
		af_input_release(&in[i]);
	free(in);
	free(ins);
	if (rc < 0)
		print_diag(&d);
	af_profile_release(&p);
	af_nameattr_release(&na);
	af_transforms_release(&o.tx);
	free(o.threads);
	free(o.processes);
	return rc < 0 ? 1 : 0;
}
