/* main.c: which run, and its one error line. Options (cli.c, options.c), then the
 * service (serve), a batch (--per-thread, batch.c), a comparison (--diff,
 * diff.c) or one graph (run.c). Everything else lives in the pipeline
 * modules. */
#include "batch.h"
#include "cli.h"
#include "run.h"
#include "core/diff.h"
#include "core/output.h"
#include "read/input.h"
#include "render/nameattr.h"
#include "serve/serve.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_diag(const struct af_diag *d)
{
	char line[512];
	af_diag_format(d, line, sizeof line);
	fprintf(stderr, AF_PROG ": %s\n", line);
}

/* --nameattr FILE into na, for every SVG this run draws; 0, or -1 with
 * diag set. */
static int load_nameattr(struct af_cli *o, struct af_nameattr *na, struct af_diag *d)
{
	struct af_mapped m;
	af_diag_init(d, o->nameattr);
	int rc = af_input_load(&m, o->nameattr, o->run.read.max_input, d);
	if (rc == 0) {
		rc = af_nameattr_parse(na, m.in.data, m.in.len, d);
		af_input_release(&m);
	}
	o->run.render.nameattr = na;
	return rc;
}

/* A batch reports each failure itself (one line per file): 0 or 1. */
static int per_thread(const struct af_cli *c)
{
	const struct af_run_opts *o = &c->run;
	struct af_batch_opts b = {
		.prog = AF_PROG, .dir = c->per_thread, .format = o->format,
		.jobs = c->jobs, .threads = o->threads, .nthreads = o->nthreads,
		.title = o->title, .subtitle = o->subtitle, .reader = o->reader,
		.read = o->read, .layout = o->layout, .render = o->render,
		.progress = isatty(STDERR_FILENO),
	};
	return af_batch_run(&b, o->inputs, o->ninputs);
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
	struct af_diag d;
	af_diag_init(&d, NULL);
	int rc;   /* -1: d says why; 1: already said */
	if (o.nameattr && load_nameattr(&o, &na, &d) < 0)
		rc = -1;
	else if (o.per_thread)
		rc = per_thread(&o);
	else if (o.diff)
		rc = af_diff_run(&o.run, &d);
	else
		rc = af_run_single(&o.run, &d);
	if (rc < 0)
		print_diag(&d);
	af_nameattr_release(&na);
	af_transforms_release(&o.run.tx);
	free(o.run.threads);
	free(o.run.processes);
	return rc == 0 ? 0 : 1;
}
