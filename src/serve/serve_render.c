/* serve_render.c: one job's result, made in its render child
 * (serve_jobs.c forks it): read the upload, then per thread (most time
 * first, at most --max-threads, within --max-seconds) an interactive SVG,
 * a PNG and the folded stacks, then the profile table, then the result page
 * (serve_result.c), all under --data/<hash>/ and each written whole
 * (output.h). Every byte of the result counts against --max-result: a file
 * that would go beyond it is left out (the page says so), so an upload
 * whose outputs outgrow it (folded paths repeated per level) cannot fill
 * the disk. The result page and the status are not counted. */
#include "serve_render.h"
#include "core/dumpsize.h"
#include "core/escape.h"
#include "core/output.h"
#include "core/plan.h"
#include "core/report.h"
#include "core/util.h"
#include "read/input.h"
#include "render/fonts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The uploaded file's name is kept to this many bytes. */
#define NAME_MAX_BYTES 255

static char *diag_text(const struct af_diag *d)
{
	char line[512];
	af_diag_format(d, line, sizeof line);
	return af_xstrndup(line, strlen(line));
}

static void progress(struct af_serve_render *r)
{
	__atomic_add_fetch(&r->sp->done, 1, __ATOMIC_RELAXED);
}

static void path_of(struct af_buf *b, const struct af_serve_render *r, const char *file)
{
	af_buf_printf(b, "%s/%.64s/%s", r->o->data, r->hash, file);
}

/* --data/<hash>/name: the uploaded file's name, as text (never a path);
 * NULL when there is none (a raw upload, or a result of an older server). */
static char *read_name(const struct af_serve_render *r)
{
	struct af_buf path;
	af_buf_init(&path);
	path_of(&path, r, "name");
	FILE *f = fopen(path.data, "rb");
	af_buf_release(&path);
	if (!f)
		return NULL;
	char text[NAME_MAX_BYTES + 1];
	size_t n = fread(text, 1, NAME_MAX_BYTES, f);
	fclose(f);
	text[n] = 0;
	n = strlen(text);   /* a NUL ends it */
	return n ? af_xstrndup(text, n) : NULL;
}

/* The threads to list, most time first; the first --max-threads drawn. */
static void plan(struct af_serve_render *r, unsigned max_threads)
{
	struct af_plan pl;
	struct af_diag d;
	af_diag_init(&d, r->hash);
	af_plan_make(&pl, &r->p, NULL, 0, &d);   /* no specs: cannot fail */
	af_plan_by_total(&pl);
	r->recs = af_xcalloc(pl.n ? pl.n : 1, sizeof *r->recs);
	for (size_t i = 0; i < pl.n; i++) {
		const struct af_plan_graph *g = &pl.graphs[i];
		r->recs[i] = (struct af_serve_thread){ .name = g->name,
			.tid = g->thread ? g->thread->tid : 0, .process = g->process,
			.node = g->node, .total = g->total, .whole = !g->thread };
	}
	r->nrecs = pl.n;
	r->total = pl.total;
	af_plan_release(&pl);
	r->ndrawn = r->nrecs < max_threads ? r->nrecs : max_threads;
}

/* ---- the budget ---- */

/* What the output wrote to, under the budget. One output is open at a time
 * in the child. */
static af_write_fn *inner_write;
static void *inner_ctx;

/* A file that would go over the budget is stopped there and left out; what
 * it wrote goes back to the budget (the file is removed), so the smaller
 * files after it still fit. */
static int budget_write(void *ctx, const void *data, size_t len)
{
	struct af_serve_render *r = ctx;
	if (len > r->budget) {
		r->budget += r->file_bytes;
		r->file_bytes = 0;
		r->file_cut = r->cut = true;
		errno = EFBIG;
		return -1;
	}
	r->budget -= len;
	r->file_bytes += len;
	return inner_write(inner_ctx, data, len);
}

/* Open --data/<hash>/<name> for writing, counted against the budget;
 * 0 or -1 with d set. */
static int open_out(struct af_serve_render *r, const char *name, struct af_output *out,
		    struct af_buf *path, struct af_diag *d)
{
	af_buf_init(path);
	path_of(path, r, name);
	af_diag_init(d, name);
	int rc = af_output_open_as(out, path->data, name, d);
	r->file_bytes = 0;
	r->file_cut = false;
	if (rc == 0) {
		inner_write = out->sink.write;
		inner_ctx = out->sink.ctx;
		out->sink.write = budget_write;
		out->sink.ctx = r;
	}
	return rc;
}

/* Why a file was left out when the budget ran out. */
static char *over_budget(const struct af_serve_render *r)
{
	char size[32], line[160];
	af_serve_size(size, sizeof size, r->o->max_result);
	snprintf(line, sizeof line, "left out: it would take the result past this server's "
		 "limit of %s (--max-result)", size);
	return af_xstrndup(line, strlen(line));
}

/* ---- the files ---- */

static void set_opts(struct af_serve_render *r, const struct af_serve_thread *t,
		     struct af_layout_opts *lo, struct af_render_opts *ro)
{
	af_layout_opts_default(lo);
	af_render_opts_default(ro);
	ro->title = t->whole ? "Flame Graph" : t->name;
	ro->subtitle = r->subtitle.len ? r->subtitle.data : NULL;
	ro->count_name = r->p.unit;
	ro->decimals = r->p.decimals;
	ro->text = *r->text;
	lo->palette = r->palette;
	lo->has_subtitle = ro->subtitle != NULL;
}

/* The interactive SVG of t, within AF_SERVE_MAX_FRAMES frames. */
static int render_svg(struct af_serve_render *r, struct af_serve_thread *t,
		      struct af_layout_opts *lo, const struct af_render_opts *ro,
		      struct af_sink *out, struct af_diag *d)
{
	struct af_layout l;
	int rc = af_layout_build(&l, &r->p.tree, t->node, NULL, lo, d);
	for (int k = 0; rc == 0 && l.nframes > AF_SERVE_MAX_FRAMES && k < 24; k++) {
		af_layout_release(&l);
		lo->min_width *= 4;
		t->min_width = lo->min_width;
		rc = af_layout_build(&l, &r->p.tree, t->node, NULL, lo, d);
	}
	if (rc == 0) {
		rc = af_render_svg(&l, ro, out, d);
		t->width = l.width;
		t->height = l.height;
		af_layout_release(&l);
	}
	return rc;
}

/* One file of thread t (index i); its error is kept in t->error[f]. */
static void render_file(struct af_serve_render *r, struct af_serve_thread *t, size_t i, int f)
{
	/* folded stacks can be many times their input: their exact length
	 * first (dumpsize.h), so one over the budget costs no writing */
	if (f == AF_SF_FOLDED &&
	    af_folded_size(&r->p.tree, t->node, NULL, AF_NONE, r->p.decimals, false) > r->budget) {
		t->error[f] = over_budget(r);
		r->cut = true;
		return;
	}
	char name[32];
	snprintf(name, sizeof name, "t%zu.%s", i, af_out_format_ext(af_serve_files[f]));
	struct af_layout_opts lo;
	struct af_render_opts ro;
	struct af_diag d, od;
	af_diag_init(&d, name);
	if (af_out_format_cairo(af_serve_files[f]) && !*r->text && !(*r->text = af_text_new(&d))) {
		t->error[f] = diag_text(&d);
		return;
	}
	set_opts(r, t, &lo, &ro);
	struct af_output out;
	struct af_buf path;
	int rc = open_out(r, name, &out, &path, &od);
	if (rc == 0) {
		if (f == AF_SF_SVG)
			rc = render_svg(r, t, &lo, &ro, &out.sink, &d);
		else
			rc = af_render_to(af_serve_files[f], &r->p.tree,
					  t->node, NULL, &lo, &ro, &out.sink, &d);
		if (rc == 0 && !r->file_cut)
			rc = af_output_commit(&out);
		else
			af_output_abort(&out);
	}
	if (r->file_cut) {
		t->error[f] = over_budget(r);
	} else {
		if (od.set) {
			d = od;
			r->write_failed = true;
		}
		if (rc < 0)
			t->error[f] = diag_text(&d);
	}
	af_buf_release(&path);
}

static void render_report(struct af_serve_render *r)
{
	if (r->p.tree.nnodes > AF_SERVE_REPORT_MAX_NODES) {
		struct af_buf why;
		af_buf_init(&why);
		af_buf_printf(&why, "left out: the call tree has %zu nodes, more than this server's "
			      "limit of %d for the profile table (the graphs show every thread; "
			      "aflame-render --report makes the table from the same file)",
			      r->p.tree.nnodes, AF_SERVE_REPORT_MAX_NODES);
		r->report_error = af_buf_detach(&why);
		return;
	}
	struct af_report rep;
	af_report_build(&rep, &r->p, AF_ROOT, NULL);
	struct af_report_opts ro = {
		.title = r->p.nthreads ? "All threads" : "Flame Graph", .source = NULL,
		.clock = r->p.clock, .unit = r->p.unit, .decimals = r->p.decimals, .top = 2000,
	};
	struct af_output out;
	struct af_buf path;
	struct af_diag d;
	int rc = open_out(r, "report.html", &out, &path, &d);
	if (rc == 0)   /* a sink error shows in the commit */
		af_render_report(&rep, AF_REPORT_HTML, &ro, &out.sink);
	if (rc == 0 && r->file_cut)
		af_output_abort(&out);
	else if (rc == 0)
		rc = af_output_commit(&out);
	if (r->file_cut) {
		r->report_error = over_budget(r);
	} else if (rc < 0) {
		r->report_error = diag_text(&d);
		r->write_failed = true;
	}
	af_buf_release(&path);
	af_report_release(&rep);
}

/* The files of every thread drawn, the report and the page, for a profile
 * read. Returns 0, or -2 when a file could not be written. */
static int render_all(struct af_serve_render *r, struct af_diag *d)
{
	plan(r, r->o->max_threads);
	af_plan_prepare_tree(&r->p.tree);
	struct af_layout_opts defaults;
	af_layout_opts_default(&defaults);
	r->palette = defaults.palette;
	af_palette_for(&r->palette, &r->p, &r->app);
	af_default_subtitle(&r->subtitle, r->upload_name ? r->upload_name : "uploaded file", &r->p, NULL);
	r->sp->total = (unsigned)(AF_SF_N * r->ndrawn + 2);
	for (size_t i = 0; i < r->ndrawn; i++) {
		if (af_now() - r->start > r->o->max_seconds) {
			r->out_of_time = true;
			break;
		}
		struct af_serve_thread *t = &r->recs[i];
		t->drawn = t->total > 0;   /* nothing to draw: listed only */
		for (int f = 0; f < AF_SF_N; f++, progress(r))
			if (t->drawn)
				render_file(r, t, i, f);
	}
	render_report(r);
	progress(r);
	int rc = af_serve_write_page(r, d);
	return rc < 0 || r->write_failed ? -2 : 0;
}

int af_serve_render(const struct af_serve_opts *o, struct af_text **text, const char *hash,
		    struct af_serve_progress *sp, char **msg)
{
	struct af_serve_render r = { .o = o, .text = text, .sp = sp, .hash = hash,
		.budget = o->max_result, .start = af_now() };
	af_buf_init(&r.subtitle);
	af_profile_init(&r.p);
	r.upload_name = read_name(&r);
	struct af_buf path;
	af_buf_init(&path);
	path_of(&path, &r, "input");
	struct af_diag d;
	af_diag_init(&d, "uploaded file");
	struct af_mapped in;
	struct af_read_opts ropts = { .max_input = o->max_input };
	/* the stored upload is already within --max-upload */
	int rc = af_input_load(&in, path.data, UINT64_MAX, &d);
	if (rc == 0) {
		in.in.name = "uploaded file";
		rc = af_read(&r.p, &in.in, NULL, &ropts, &d);
		if (rc == 0)
			rc = render_all(&r, &d);
		af_input_release(&in);
	}
	if (rc == -1)
		*msg = diag_text(&d);
	for (size_t i = 0; i < r.nrecs; i++)
		for (int f = 0; f < AF_SF_N; f++)
			free(r.recs[i].error[f]);
	free(r.recs);
	free(r.report_error);
	free(r.upload_name);
	free(r.app);
	af_buf_release(&r.subtitle);
	af_buf_release(&path);
	af_profile_release(&r.p);
	return rc;
}
