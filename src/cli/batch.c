/* batch.c: --per-thread batches.
 *
 * A batch is a pool of workers (the calling thread alone for -j 1) that take
 * two kinds of work from one queue: read an input, and render one thread of
 * an input already read. Rendering comes first, so at most about one input
 * per worker is in memory at a time; an input's tree is freed when its last
 * file is written. Before an input's files are queued, everything the
 * renderers would otherwise compute lazily inside the tree (name ranks, the
 * "all" name) is computed, so workers only read the shared tree. Each worker
 * has its own fonts (struct af_text): pango font maps are not thread-safe. */
#include "batch.h"
#include "core/escape.h"
#include "core/output.h"
#include "core/plan.h"
#include "core/util.h"
#include "read/input.h"
#include "render/index.h"
#include "render/fonts.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the batch ---- */

struct rec {                 /* one output file */
	uint64_t tid;
	bool whole;              /* folded input: the whole graph, no thread */
	const char *name;        /* thread name (owned by the profile until copied) */
	char *name_copy;         /* kept for the index after the profile is freed */
	uint32_t node;
	uint64_t total;
	char *file;              /* path relative to the batch directory */
	char *error;             /* why it was not written, or NULL */
};

struct input {
	const char *path;
	char *subdir;            /* NULL when there is one input */
	struct af_mapped in;
	struct af_profile p;
	char *error;             /* why it was not read, or NULL */
	struct rec *recs;
	size_t nrecs, pending;
	uint64_t total;          /* of all selected threads */
	const char *unit;        /* static string */
	unsigned decimals;
	struct af_buf subtitle;
	struct af_palette_opts palette;   /* af_palette_for() this input */
	char *app;               /* its app package when guessed, or NULL */
};

struct task { size_t input, rec; };

struct batch {
	const struct af_batch_opts *o;
	struct input *inputs;
	size_t ninputs;
	pthread_mutex_t lock;    /* guards everything below and stderr */
	pthread_cond_t cond;
	struct task *queue;
	size_t qhead, qlen, qcap;
	size_t next_input, reading;
	size_t done, known;
	bool failed, progress_shown;
	double start, last_progress;
};

struct worker {
	struct batch *b;
	struct af_text *text;    /* this worker's fonts, made on first use */
	pthread_t thread;
};

/* Under the lock: the progress line, at most 10 times a second, once the
 * batch has run for a second (short batches stay quiet). */
static void progress(struct batch *b, bool final)
{
	if (!b->o->progress)
		return;
	double t = af_now();
	if (final) {
		if (b->progress_shown)
			fputs("\r\033[K", stderr);
		return;
	}
	if (t - b->start < 1.0 || t - b->last_progress < 0.1)
		return;
	fprintf(stderr, "\r%s: %zu/%zu files written%s\033[K", b->o->prog, b->done, b->known,
		b->next_input < b->ninputs || b->reading ? ", reading inputs" : "");
	b->progress_shown = true;
	b->last_progress = t;
}

/* Under the lock: one message line, above the progress line. */
static __attribute__((format(printf, 2, 3))) void say(struct batch *b, const char *fmt, ...)
{
	if (b->progress_shown)
		fputs("\r\033[K", stderr);
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", b->o->prog);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	b->last_progress = 0;
}

static char *diag_text(const struct af_diag *d)
{
	char line[512];
	af_diag_format(d, line, sizeof line);
	return af_xstrndup(line, strlen(line));
}

static int make_dir(const char *path, struct af_diag *d)
{
	if (mkdir(path, 0777) == 0)
		return 0;
	struct stat st;
	if (errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	return af_diag_error(d, "cannot make directory '%s': %s", path, strerror(errno == EEXIST ? ENOTDIR : errno));
}

/* The files of an input read without error: one per graph of its plan. */
static int plan_files(struct batch *b, struct input *in, struct af_diag *d)
{
	const struct af_batch_opts *o = b->o;
	struct af_plan pl;
	if (af_plan_make(&pl, &in->p, o->threads, o->nthreads, d) < 0)
		return -1;
	in->recs = af_xcalloc(pl.n ? pl.n : 1, sizeof *in->recs);
	in->nrecs = pl.n;
	in->total = pl.total;
	for (size_t i = 0; i < pl.n; i++) {
		const struct af_plan_graph *g = &pl.graphs[i];
		struct rec *r = &in->recs[i];
		struct af_buf f;
		af_buf_init(&f);
		if (in->subdir)
			af_buf_printf(&f, "%s/", in->subdir);
		af_buf_printf(&f, "%s.%s", g->stem, af_out_format_ext(o->format));
		*r = (struct rec){ .tid = g->thread ? g->thread->tid : 0, .whole = !g->thread,
			.name = g->name, .name_copy = af_xstrndup(g->name, strlen(g->name)),
			.node = g->node, .total = g->total, .file = af_buf_detach(&f) };
	}
	af_plan_release(&pl);
	return 0;
}

static void release_input(struct input *in)
{
	af_profile_release(&in->p);
	af_input_release(&in->in);
	for (size_t i = 0; i < in->nrecs; i++)
		in->recs[i].name = in->recs[i].name_copy;
}

/* Read input i and queue its files. Called without the lock. */
static void read_input(struct batch *b, size_t i)
{
	const struct af_batch_opts *o = b->o;
	struct input *in = &b->inputs[i];
	struct af_diag d;
	af_diag_init(&d, in->path);
	af_profile_init(&in->p);
	int rc = af_input_load(&in->in, in->path, o->read.max_input, &d);
	bool loaded = rc == 0;
	if (rc == 0)
		rc = af_read(&in->p, &in->in.in, o->reader, &o->read, &d);
	if (rc == 0 && in->subdir) {
		struct af_buf dir;
		af_buf_init(&dir);
		af_buf_printf(&dir, "%s/%s", o->dir, in->subdir);
		struct af_diag dd;
		af_diag_init(&dd, o->dir);
		rc = make_dir(dir.data, &dd);
		if (rc < 0)
			d = dd;
		af_buf_release(&dir);
	}
	if (rc == 0)
		rc = plan_files(b, in, &d);
	if (rc == 0) {
		af_plan_prepare_tree(&in->p.tree);
		in->unit = in->p.unit;
		in->decimals = in->p.decimals;
		in->palette = o->layout.palette;
		af_palette_for(&in->palette, &in->p, &in->app);
		if (o->subtitle)
			af_buf_puts(&in->subtitle, o->subtitle);
		else
			af_default_subtitle(&in->subtitle, in->path, &in->p, NULL);
	}
	pthread_mutex_lock(&b->lock);
	if (rc < 0) {
		in->error = diag_text(&d);
		say(b, "%s", in->error);
		b->failed = true;
	} else {
		for (size_t w = 0; w < in->p.nwarnings; w++) {
			char *line = af_warning_line(&in->p.warnings[w]);
			char *shown = af_escape_term_dup(line);
			say(b, "%s: warning: %s", in->path, shown);
			free(shown);
			free(line);
		}
		for (size_t r = 0; r < in->nrecs; r++) {
			af_grow(&b->queue, &b->qcap, b->qlen + 1, sizeof *b->queue);
			b->queue[b->qlen++] = (struct task){ i, r };
		}
		in->pending = in->nrecs;
		b->known += in->nrecs;
	}
	if (rc < 0 || in->nrecs == 0) {
		if (loaded)
			release_input(in);
		else
			af_profile_release(&in->p);
	}
	pthread_cond_broadcast(&b->cond);
	pthread_mutex_unlock(&b->lock);
}

/* Write one file. Called without the lock; reads the input's tree only. On
 * failure *why is the reason (the output's, which names the file, or the
 * render's), made while the path it names lives. */
static int render_file(struct worker *w, struct input *in, struct rec *r, struct af_diag *d, char **why)
{
	const struct af_batch_opts *o = w->b->o;
	if (af_out_format_cairo(o->format) && !w->text && !(w->text = af_text_new(d))) {
		*why = diag_text(d);
		return -1;
	}
	struct af_layout_opts lo = o->layout;
	struct af_render_opts ro = o->render;
	lo.palette = in->palette;
	ro.title = o->title ? o->title : r->whole ? "Flame Graph" : r->name;
	ro.subtitle = in->subtitle.len ? in->subtitle.data : NULL;
	ro.count_name = in->unit;
	ro.decimals = in->decimals;
	ro.text = w->text;
	lo.has_subtitle = ro.subtitle != NULL;
	struct af_buf path;
	af_buf_init(&path);
	af_buf_printf(&path, "%s/%s", o->dir, r->file);
	struct af_output out;
	int rc = af_output_open(&out, path.data, d);
	if (rc == 0)
		rc = af_output_close(&out, af_render_to(o->format, &in->p.tree, r->node, NULL,
							&lo, &ro, &out.sink, d));
	if (rc < 0)
		*why = diag_text(d);
	af_buf_release(&path);
	return rc;
}

static void run_task(struct worker *w, struct task t)
{
	struct batch *b = w->b;
	struct input *in = &b->inputs[t.input];
	struct rec *r = &in->recs[t.rec];
	struct af_diag d;
	af_diag_init(&d, in->path);
	char *why = NULL;
	int rc = render_file(w, in, r, &d, &why);
	pthread_mutex_lock(&b->lock);
	if (rc < 0) {
		r->error = why;
		say(b, "%s", r->error);   /* names the file */
		b->failed = true;
	}
	b->done++;
	if (--in->pending == 0)
		release_input(in);
	progress(b, false);
	pthread_mutex_unlock(&b->lock);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct batch *b = w->b;
	pthread_mutex_lock(&b->lock);
	for (;;) {
		if (b->qhead < b->qlen) {
			struct task t = b->queue[b->qhead++];
			pthread_mutex_unlock(&b->lock);
			run_task(w, t);
			pthread_mutex_lock(&b->lock);
		} else if (b->next_input < b->ninputs) {
			size_t i = b->next_input++;
			b->reading++;
			pthread_mutex_unlock(&b->lock);
			read_input(b, i);
			pthread_mutex_lock(&b->lock);
			b->reading--;
		} else if (b->reading) {
			pthread_cond_wait(&b->cond, &b->lock);
		} else {
			break;
		}
	}
	pthread_cond_broadcast(&b->cond);
	pthread_mutex_unlock(&b->lock);
	af_text_free(w->text);
	w->text = NULL;
	return NULL;
}

/* ---- index.html ---- */

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

/* How the index shows a graph of format f: an interactive SVG live, a
 * picture as a thumbnail, anything else as a link. */
static enum af_index_embed embed_of(enum af_out_format f)
{
	const struct af_backend *b = af_backend_of(f);
	return b->live ? AF_INDEX_OBJECT : b->image ? AF_INDEX_IMAGE : AF_INDEX_LINK;
}

static void index_input(struct af_sink *out, struct input *in, size_t *id, enum af_out_format f)
{
	af_sink_puts(out, "<section>\n<h2>");
	af_escape_xml(out, in->path);
	af_sink_puts(out, "</h2>\n");
	if (in->error) {
		af_sink_puts(out, "<p class=\"err\">not read: ");
		af_escape_xml(out, in->error);
		af_sink_puts(out, "</p>\n</section>\n");
		return;
	}
	if (in->subtitle.len) {
		af_sink_puts(out, "<p>");
		af_escape_xml(out, in->subtitle.data);
		af_sink_puts(out, "</p>\n");
	}
	qsort(in->recs, in->nrecs, sizeof *in->recs, cmp_rec);
	struct af_index_graph *g = af_xcalloc(in->nrecs ? in->nrecs : 1, sizeof *g);
	for (size_t r = 0; r < in->nrecs; r++) {
		const struct rec *rec = &in->recs[r];
		g[r] = (struct af_index_graph){ .name = rec->name, .whole = rec->whole, .tid = rec->tid,
			.total = rec->total, .nfiles = 1 };
		g[r].files[0] = (struct af_index_file){ .href = rec->file, .label = rec->file,
			.error = rec->error };
	}
	struct af_index x = { .graphs = g, .n = in->nrecs, .total = in->total,
		.decimals = in->decimals, .unit = in->unit, .anchor = "g", .first = *id,
		.embed = embed_of(f) };
	af_index_table(out, &x);
	af_index_figures(out, &x);
	free(g);
	*id += in->nrecs;
	af_sink_puts(out, "</section>\n");
}

static int write_index(struct batch *b)
{
	const struct af_batch_opts *o = b->o;
	struct af_buf path;
	af_buf_init(&path);
	af_buf_printf(&path, "%s/index.html", o->dir);
	struct af_diag d;
	af_diag_init(&d, path.data);
	struct af_output out;
	int rc = af_output_open(&out, path.data, &d);
	if (rc == 0) {
		struct af_sink *s = &out.sink;
		af_sink_printf(s, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
			       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
			       "<title>Flame graphs: %zu files</title>\n"
			       "<style>\nbody{font-family:\"DejaVu Sans\",Verdana,sans-serif;margin:1em 2em}\n",
			       b->known);
		af_sink_puts(s, af_index_style);
		af_sink_puts(s, "</style>\n</head>\n<body>\n<h1>Flame graphs</h1>\n");
		size_t id = 0;
		for (size_t i = 0; i < b->ninputs; i++)
			index_input(s, &b->inputs[i], &id, o->format);
		af_sink_puts(s, "</body>\n</html>\n");
		rc = af_output_commit(&out);
	}
	if (rc < 0) {
		char *msg = diag_text(&d);
		say(b, "%s", msg);
		free(msg);
	}
	af_buf_release(&path);
	return rc;
}

/* ---- running it ---- */

/* -j's default: a worker per processor online, at most JOBS_DEFAULT_MAX
 * (each worker may hold an input in memory). The files are the same with
 * any number of workers; a per-thread batch of one large input then takes
 * the read plus its share of the renders, instead of the read plus all. */
#define JOBS_DEFAULT_MAX 8
static unsigned default_jobs(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > JOBS_DEFAULT_MAX ? JOBS_DEFAULT_MAX : (unsigned)n;
}

/* With several inputs, DIR/<safe stem of each>/, made distinct. */
static void name_subdirs(struct batch *b)
{
	if (b->ninputs < 2)
		return;
	char ***names = af_xmalloc(b->ninputs * sizeof *names);
	for (size_t i = 0; i < b->ninputs; i++) {
		const char *base = strcmp(b->inputs[i].path, "-") == 0 ? "stdin" : af_base_name(b->inputs[i].path);
		const char *dot = strrchr(base, '.');
		size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
		struct af_buf s;
		af_buf_init(&s);
		af_safe_name(&s, base, len);
		b->inputs[i].subdir = af_buf_detach(&s);
		names[i] = &b->inputs[i].subdir;
	}
	af_make_distinct(names, b->ninputs);
	free(names);
}

static void free_batch(struct batch *b)
{
	for (size_t i = 0; i < b->ninputs; i++) {
		struct input *in = &b->inputs[i];
		for (size_t r = 0; r < in->nrecs; r++) {
			free(in->recs[r].name_copy);
			free(in->recs[r].file);
			free(in->recs[r].error);
		}
		free(in->recs);
		free(in->subdir);
		free(in->error);
		af_buf_release(&in->subtitle);
		free(in->app);
	}
	free(b->inputs);
	free(b->queue);
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->cond);
}

int af_batch_run(const struct af_batch_opts *o, char *const *inputs, size_t ninputs)
{
	struct batch b = { .o = o, .ninputs = ninputs, .start = af_now() };
	pthread_mutex_init(&b.lock, NULL);
	pthread_cond_init(&b.cond, NULL);
	b.inputs = af_xcalloc(ninputs ? ninputs : 1, sizeof *b.inputs);
	for (size_t i = 0; i < ninputs; i++) {
		b.inputs[i].path = inputs[i];
		af_buf_init(&b.inputs[i].subtitle);
	}
	struct af_diag d;
	af_diag_init(&d, o->dir);
	if (make_dir(o->dir, &d) < 0) {
		char *msg = diag_text(&d);
		say(&b, "%s", msg);
		free(msg);
		free_batch(&b);
		return 1;
	}
	name_subdirs(&b);
	unsigned n = o->jobs ? o->jobs : default_jobs();
	struct worker *w = af_xcalloc(n, sizeof *w);
	/* fonts first, in this thread: a missing font is one error, not one
	 * per file, and pango's types are set up before other threads start */
	if (af_out_format_cairo(o->format) && !(w[0].text = af_text_new(&d))) {
		char *msg = diag_text(&d);
		say(&b, "%s", msg);
		free(msg);
		free(w);
		free_batch(&b);
		return 1;
	}
	bool *started = af_xcalloc(n, sizeof *started);
	for (unsigned i = 0; i < n; i++) {
		w[i].b = &b;
		/* a thread that cannot start only makes the batch slower */
		started[i] = i > 0 && pthread_create(&w[i].thread, NULL, work, &w[i]) == 0;
	}
	work(&w[0]);     /* the calling thread is worker 0 */
	for (unsigned i = 1; i < n; i++)
		if (started[i])
			pthread_join(w[i].thread, NULL);
	free(started);
	free(w);
	pthread_mutex_lock(&b.lock);
	progress(&b, true);
	pthread_mutex_unlock(&b.lock);
	bool index = write_index(&b) == 0;
	if (b.failed || !index) {   /* what is there, and where the reasons are */
		size_t written = 0;
		for (size_t i = 0; i < b.ninputs; i++)
			for (size_t r = 0; r < b.inputs[i].nrecs; r++)
				written += b.inputs[i].recs[r].error == NULL && b.inputs[i].recs[r].file != NULL;
		say(&b, "%zu of %zu graphs written in %s%s", written, b.known, o->dir,
		    index ? "; index.html lists what failed and why" : "");
	}
	int rc = b.failed || !index ? 1 : 0;
	free_batch(&b);
	return rc;
}
