/* diff_run.c: the run of --diff BEFORE AFTER (core/diff.h): both inputs
 * read and selected with the steps a single graph uses (run.h), merged by
 * the core's af_diff_merge, then written as one graph, folded stacks or
 * report. */
#include "run.h"
#include "core/buf.h"
#include "core/diff.h"
#include "core/dumpsize.h"
#include "core/layout.h"
#include "core/output.h"
#include "core/report.h"
#include "core/util.h"
#include "read/input.h"
#include "read/read.h"
#include "render/render.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the run: --diff BEFORE AFTER, in one graph or report ---- */

struct run {
	struct af_run_inputs keep;
	struct af_profile p;
	struct af_selection sel;
	char *const *paths;       /* the group's inputs */
	size_t n;
};

/* One side: its inputs read as one profile, averaged when several. */
static int read_run(struct af_run_opts *o, struct run *r, struct af_diag *d)
{
	if (af_run_read(o, r->paths, r->n, true, &r->p, &r->keep, d) < 0)
		return -1;
	if (r->p.tree.before)
		return af_diag_error(d, "two counts per line make a comparison already: "
				     "--diff needs one run in each input");
	return af_run_select(o, &r->p, &r->sel, d);
}

static void release_run(struct run *r)
{
	af_run_release_inputs(&r->keep);
	af_profile_release(&r->p);
	free(r->sel.excluded);
}

/* name, cut to at most SUMMARY_NAME bytes (at a UTF-8 boundary, "..." after). */
#define SUMMARY_NAME 120
#define SUMMARY_FRAMES 3
static void put_short(struct af_buf *b, const char *name)
{
	size_t n = strlen(name);
	if (n <= SUMMARY_NAME) {
		af_buf_add(b, name, n);
		return;
	}
	n = SUMMARY_NAME - 3;
	while (n && ((unsigned char)name[n] & 0xc0) == 0x80)
		n--;
	af_buf_add(b, name, n);
	af_buf_puts(b, "...");
}

/* One line on stderr when work of the first run has no place in the
 * second's graph: how much, where it is drawn, the largest piece (p: the
 * merged profile, which holds the band). The piece is named by its last
 * SUMMARY_FRAMES frames, each cut to SUMMARY_NAME bytes, so the line stays
 * short however deep the stack (a 40k-deep one made a 269 KB line). */
static void removed_summary(const struct af_run_opts *o, const struct af_profile *p,
			    const struct af_diff *df)
{
	if (!df->removed_total)
		return;
	const struct af_tree *t = &p->tree;
	uint32_t up[SUMMARY_FRAMES];
	size_t n = 0, depth = 0;
	for (uint32_t v = df->largest_removed; v != AF_NONE && v != df->band; v = t->nodes[v].parent) {
		if (n < SUMMARY_FRAMES)
			up[n++] = v;
		depth++;
	}
	struct af_buf path;
	af_buf_init(&path);
	if (depth > n)
		af_buf_printf(&path, "(%zu callers);", depth - n);
	while (n--) {
		put_short(&path, af_tree_name(t, t->nodes[up[n]].name));
		if (n)
			af_buf_putc(&path, ';');
	}
	af_buf_putc(&path, 0);
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

/* A side of the comparison: "a.trace", or "a.trace + 2 more (average of 3)" */
static void side_name(struct af_buf *b, char *const *paths, size_t n)
{
	af_buf_puts(b, af_base_name(paths[0]));
	if (n > 1)
		af_buf_printf(b, " + %zu more (average of %zu)", n - 1, n);
}

/* "before → after · clock · unit · what the colours show" */
static void diff_subtitle(const struct af_run_opts *o, const struct af_profile *p, struct af_buf *b)
{
	side_name(b, o->inputs, o->nbefore);
	af_buf_puts(b, " \xe2\x86\x92 ");
	side_name(b, o->inputs + o->nbefore, o->ninputs - o->nbefore);
	if (p->clock)
		af_buf_printf(b, " \xc2\xb7 %s clock \xc2\xb7 %s", p->clock, p->unit);
	af_buf_printf(b, " \xc2\xb7 %s time: red more, blue less%s",
		      o->layout.diff_total ? "inclusive" : "self",
		      o->layout.negate ? " (negated)" : "");
}

static void diff_titles(struct af_run_opts *o, const struct run *r, struct af_buf *subtitle)
{
	const struct af_selection *s = &r[1].sel;
	bool one_thread = s->nsel == 1 && s->root == r[1].p.threads[s->only].node;
	struct af_buf none;
	af_buf_init(&none);
	af_run_titles(o, &r[1].p, one_thread ? 1 : 0, s->only, NULL, subtitle, &none);
	if (s->nproc == 1 && !one_thread && s->root != AF_ROOT && !o->title)
		o->render.title = r[1].p.processes[s->only_proc].name;
	if (!o->subtitle) {
		subtitle->len = 0;
		diff_subtitle(o, &r[1].p, subtitle);
		o->render.subtitle = subtitle->data;
		o->layout.has_subtitle = true;
	}
}

static int compare_report(struct af_run_opts *o, struct run *r, struct af_diag *d)
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
		.title = o->render.title, .source = o->inputs[o->nbefore], .source_before = o->inputs[0],
		.clock = r[1].p.clock, .unit = r[1].p.unit, .decimals = r[1].p.decimals, .top = o->top,
	};
	struct af_output out;
	int rc = af_output_open(&out, o->output, d);
	if (rc == 0)
		rc = af_output_close(&out, af_render_report_diff(&rd, o->report_format, &ro, &out.sink));
	af_buf_release(&subtitle);
	af_report_diff_release(&rd);
	af_report_release(&rep[0]);
	af_report_release(&rep[1]);
	return rc;
}

static int compare_graph(struct af_run_opts *o, struct run *r, struct af_diag *d)
{
	struct af_profile *p = &r[1].p;
	uint32_t root = r[1].sel.root;
	struct af_diff df;
	struct af_diff_opts dopt = { .normalize = o->normalize, .before_name = o->inputs[0] };
	af_diag_init(d, o->inputs[o->nbefore]);
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
		rc = af_run_graph_begin(o, p, &app, d);
	}
	/* two-count folded stacks repeat callers: measured before a byte is written */
	uint64_t size = rc == 0 && o->format == AF_OUT_FOLDED && o->render.max_output
		? af_folded_size(&p->tree, root, df.excluded, df.band, p->decimals, true) : 0;
	if (size > o->render.max_output)
		rc = af_output_too_large(d, "folded", size, o->render.max_output);
	struct af_output out;
	if (rc == 0 && (rc = af_output_open(&out, o->output, d)) == 0) {
		if (o->format == AF_OUT_FOLDED)
			rc = af_diff_write_folded(&p->tree, root, &df, p->decimals, &out.sink);
		else
			rc = af_render_to(o->format, &p->tree, root, df.excluded, &o->layout,
					  &o->render, &out.sink, d);
		rc = af_output_close(&out, rc);
	}
	rc = af_run_graph_end(o, app, rc, d);
	af_buf_release(&subtitle);
	af_diff_release(&df);
	return rc;
}

/* Runs that measure different things can still be compared: say so. */
static void warn_units(const struct af_run_opts *o, const struct run *r)
{
	const struct af_profile *a = &r[0].p, *b = &r[1].p;
	if (strcmp(a->unit, b->unit) == 0 && (!a->clock || !b->clock || strcmp(a->clock, b->clock) == 0))
		return;
	fprintf(stderr, AF_PROG ": warning: comparing %s%s%s (%s) with %s%s%s (%s)\n",
		a->clock ? a->clock : "", a->clock ? " clock " : "", a->unit, o->inputs[0],
		b->clock ? b->clock : "", b->clock ? " clock " : "", b->unit, o->inputs[o->nbefore]);
}

int af_diff_run(struct af_run_opts *o, struct af_diag *d)
{
	struct run r[2];
	memset(r, 0, sizeof r);
	r[0] = (struct run){ .paths = o->inputs, .n = o->nbefore };
	r[1] = (struct run){ .paths = o->inputs + o->nbefore, .n = o->ninputs - o->nbefore };
	af_profile_init(&r[0].p);
	af_profile_init(&r[1].p);
	int rc = read_run(o, &r[0], d);
	if (rc == 0)
		rc = read_run(o, &r[1], d);
	if (rc == 0) {
		/* one thread (or process) against one, else whole graphs */
		const struct af_selection *a = &r[0].sel, *b = &r[1].sel;
		if ((a->root == AF_ROOT) != (b->root == AF_ROOT) || (a->nsel == 1) != (b->nsel == 1))
			r[0].sel.root = r[1].sel.root = AF_ROOT;
		warn_units(o, r);
		af_diag_init(d, o->inputs[o->nbefore]);
		rc = af_diff_match_decimals(&r[0].p, &r[1].p, d);
	}
	if (rc == 0)
		rc = o->report ? compare_report(o, r, d) : compare_graph(o, r, d);
	release_run(&r[0]);
	release_run(&r[1]);
	return rc;
}
