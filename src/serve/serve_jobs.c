/* serve_jobs.c: the render queue of the serve subcommand.
 *
 * Each upload is a job named by its hash. A few workers take jobs in upload
 * order and render each one alone: read the trace, then per thread (most
 * time first, at most --max-threads, within --max-seconds) an interactive
 * SVG, a PNG and the folded stacks, then the profile table and the result
 * page, all under --data/<hash>/ and each written whole (output.h). The
 * file "status" is written last: "done", or "failed" and the one-line error,
 * so a result survives restarts and a failure is remembered. At most --jobs
 * traces are in memory at once; the queue holds only hashes.
 *
 * Each job runs in a child process forked by its worker, so that an upload
 * which exhausts memory (an allocation failure exits the child), crashes or
 * runs past --max-seconds (the worker kills the child) fails that job alone:
 * the worker then records it as failed, and it is never queued again. The
 * child shares only its progress counters with the worker (a shared page)
 * and takes no lock: another thread may have held one when it was forked.
 *
 * A result that could not be written (disk full, quota) is not the upload's
 * fault: that failure is kept in memory only, and the next visit after
 * RETRY_SECONDS queues the job again.
 *
 * Several servers may share one --data: a job is rendered only while its
 * worker holds an flock on --data/<hash>/lock, and a worker that gets the
 * lock after another server rendered the job finds its status and adopts
 * it. Retention (serve_retain.c) takes the same lock before removing a
 * result, so nothing being rendered is removed. */
#include "serve_int.h"
#include "core/escape.h"
#include "core/output.h"
#include "core/plan.h"
#include "core/report.h"
#include "core/util.h"
#include "read/input.h"
#include "render/fonts.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct job {
	char hash[AF_SHA256_HEX + 1];
	enum af_job_state state;
	unsigned done, total;
	char *msg;                /* failed: the error, owned */
	double retry_at;          /* failed writing (transient): queued again after */
	struct job *next;         /* same bucket */
	struct job *qnext;        /* queue order */
};

#define NBUCKETS 256
/* A job whose result could not be written is tried again on a visit this
 * long after it failed. */
#define RETRY_SECONDS 10

struct worker {
	struct af_jobs *j;
	struct af_text *text;     /* this worker's fonts, made on first PNG */
	pthread_t thread;
	bool started;
};

struct af_jobs {
	const struct af_serve_opts *o;
	pthread_mutex_t lock;     /* guards everything below */
	pthread_cond_t cond;
	struct job *buckets[NBUCKETS];
	struct job *qhead, *qtail;
	size_t queued;
	bool stop;
	struct worker *workers;
	unsigned nworkers;
};

/* ---- the table ---- */

static unsigned bucket_of(const char *hash)
{
	unsigned v = 0;
	for (int i = 0; i < 2; i++)
		v = v * 16 + (unsigned)(hash[i] <= '9' ? hash[i] - '0' : hash[i] - 'a' + 10);
	return v % NBUCKETS;
}

/* Under the lock. */
static struct job *find(struct af_jobs *j, const char *hash)
{
	for (struct job *x = j->buckets[bucket_of(hash)]; x; x = x->next)
		if (memcmp(x->hash, hash, AF_SHA256_HEX) == 0)
			return x;
	return NULL;
}

static struct job *add(struct af_jobs *j, const char *hash, enum af_job_state state)
{
	struct job *x = af_xcalloc(1, sizeof *x);
	memcpy(x->hash, hash, AF_SHA256_HEX);
	x->state = state;
	unsigned b = bucket_of(hash);
	x->next = j->buckets[b];
	j->buckets[b] = x;
	return x;
}

/* Drop x, which is neither queued nor running, from the table. */
static void drop(struct af_jobs *j, struct job *x)
{
	struct job **p = &j->buckets[bucket_of(x->hash)];
	while (*p != x)
		p = &(*p)->next;
	*p = x->next;
	free(x->msg);
	free(x);
}

static void enqueue(struct af_jobs *j, struct job *x)
{
	x->state = AF_JOB_QUEUED;
	x->retry_at = 0;
	x->qnext = NULL;
	if (j->qtail)
		j->qtail->qnext = x;
	else
		j->qhead = x;
	j->qtail = x;
	j->queued++;
	pthread_cond_signal(&j->cond);
}

static void path_of(struct af_buf *b, const struct af_jobs *j, const char *hash, const char *file)
{
	af_buf_printf(b, "%s/%.64s%s%s", j->o->data, hash, file ? "/" : "", file ? file : "");
}

/* ---- remembered results ---- */

/* Read --data/<hash>/status: DONE, FAILED (msg set), or NONE. */
static enum af_job_state read_status(const struct af_jobs *j, const char *hash, char **msg)
{
	struct af_buf path;
	af_buf_init(&path);
	path_of(&path, j, hash, "status");
	FILE *f = fopen(path.data, "rb");
	af_buf_release(&path);
	if (!f)
		return AF_JOB_NONE;
	char text[512];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = 0;
	if (strcmp(text, "done\n") == 0)
		return AF_JOB_DONE;
	if (strncmp(text, "failed\n", 7) != 0)
		return AF_JOB_NONE;
	char *m = text + 7;
	m[strcspn(m, "\n")] = 0;
	*msg = af_xstrndup(m, strlen(m));
	return AF_JOB_FAILED;
}

static int write_status(const struct af_jobs *j, const char *hash, const char *msg)
{
	struct af_buf path;
	af_buf_init(&path);
	path_of(&path, j, hash, "status");
	struct af_output out;
	struct af_diag d;
	af_diag_init(&d, path.data);
	int rc = af_output_open(&out, path.data, &d);
	if (rc == 0) {
		af_sink_puts(&out.sink, msg ? "failed\n" : "done\n");
		if (msg) {
			af_sink_puts(&out.sink, msg);
			af_sink_putc(&out.sink, '\n');
		}
		rc = af_output_commit(&out);
	}
	af_buf_release(&path);
	return rc;
}

static bool exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* A result this table remembers that another server's retention removed. */
static bool gone(const struct af_jobs *j, const struct job *x)
{
	if (x->state != AF_JOB_DONE && !(x->state == AF_JOB_FAILED && !x->retry_at))
		return false;
	struct af_buf path;
	af_buf_init(&path);
	path_of(&path, j, x->hash, "status");
	bool g = !exists(path.data);
	af_buf_release(&path);
	return g;
}

/* Under the lock: what the table knows of hash, else what --data/<hash>/
 * holds (a job found there unfinished is queued), else NULL. */
static struct job *lookup(struct af_jobs *j, const char *hash)
{
	struct job *x = find(j, hash);
	if (x && gone(j, x)) {
		drop(j, x);
		x = NULL;
	}
	if (x)
		return x;
	char *msg = NULL;
	enum af_job_state s = read_status(j, hash, &msg);
	if (s != AF_JOB_NONE) {
		x = add(j, hash, s);
		x->msg = msg;
		return x;
	}
	struct af_buf input;
	af_buf_init(&input);
	path_of(&input, j, hash, "input");
	if (exists(input.data) && j->queued < AF_SERVE_MAX_QUEUE)
		enqueue(j, x = add(j, hash, AF_JOB_QUEUED));
	af_buf_release(&input);
	return x;
}

void af_jobs_status(struct af_jobs *j, const char *hash, struct af_job_status *st)
{
	memset(st, 0, sizeof *st);
	pthread_mutex_lock(&j->lock);
	struct job *x = lookup(j, hash);
	if (x && x->retry_at && af_now() >= x->retry_at && j->queued < AF_SERVE_MAX_QUEUE) {
		free(x->msg);
		x->msg = NULL;
		enqueue(j, x);
	}
	if (x) {
		st->state = x->state;
		st->done = x->done;
		st->total = x->total;
		if (x->retry_at)
			st->retry_in = (unsigned)(x->retry_at - af_now()) + 1;
		if (x->msg)
			snprintf(st->msg, sizeof st->msg, "%s", x->msg);
	}
	pthread_mutex_unlock(&j->lock);
}

enum af_submit af_jobs_submit(struct af_jobs *j, const char *hash, const char *tmp_path)
{
	enum af_submit rc = AF_SUBMIT_OK;
	struct af_buf dir, input;
	af_buf_init(&dir);
	af_buf_init(&input);
	path_of(&dir, j, hash, NULL);
	path_of(&input, j, hash, "input");
	pthread_mutex_lock(&j->lock);
	struct job *x = find(j, hash);
	if (x && gone(j, x)) {
		drop(j, x);
		x = NULL;
	}
	if (!x) {
		char *msg = NULL;
		enum af_job_state s = read_status(j, hash, &msg);
		if (s != AF_JOB_NONE) {
			x = add(j, hash, s);
			x->msg = msg;
		}
	}
	bool moved = false;
	if (!x) {
		if (j->queued >= AF_SERVE_MAX_QUEUE) {
			rc = AF_SUBMIT_BUSY;
		} else if ((mkdir(dir.data, 0755) < 0 && errno != EEXIST) ||
			   rename(tmp_path, input.data) < 0) {
			rc = AF_SUBMIT_IO;
		} else {
			moved = true;
			enqueue(j, add(j, hash, AF_JOB_QUEUED));
		}
	}
	pthread_mutex_unlock(&j->lock);
	if (!moved)
		unlink(tmp_path);
	af_buf_release(&dir);
	af_buf_release(&input);
	return rc;
}

/* ---- the render lock ---- */

static bool stopping(struct af_jobs *j)
{
	pthread_mutex_lock(&j->lock);
	bool stop = j->stop;
	pthread_mutex_unlock(&j->lock);
	return stop;
}

/* Take --data/<hash>/lock into *fd: 0 when held, 1 when another server
 * holds it (and wait is false) or this one stops, -1 when the result's
 * directory is gone. A lock taken on a file retention removed meanwhile is
 * no lock: the file must still be the one at the path. */
static int lock_result(struct af_jobs *j, const char *hash, bool wait, int *fd)
{
	struct af_buf path;
	af_buf_init(&path);
	path_of(&path, j, hash, "lock");
	int rc = -1;
	for (;;) {
		rc = -1;
		*fd = open(path.data, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (*fd < 0)
			break;
		while ((rc = flock(*fd, LOCK_EX | LOCK_NB)) < 0 && errno == EWOULDBLOCK && wait &&
		       !stopping(j))
			nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000 * 1000 }, NULL);
		struct stat held, now_there;
		if (rc == 0 && fstat(*fd, &held) == 0 && stat(path.data, &now_there) == 0 &&
		    held.st_dev == now_there.st_dev && held.st_ino == now_there.st_ino)
			break;
		close(*fd);
		*fd = -1;
		if (rc < 0) {
			rc = 1;
			break;
		}
	}
	af_buf_release(&path);
	return rc;
}

/* Remove the files of a result directory (fixed names and temporaries:
 * nothing else is ever written there), status first, then the directory. */
static int remove_result(struct af_jobs *j, const char *hash)
{
	struct af_buf path;
	af_buf_init(&path);
	path_of(&path, j, hash, NULL);
	int fd = open(path.data, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	int rc = d ? 0 : -1;
	if (!d && fd >= 0)
		close(fd);
	if (d && unlinkat(dirfd(d), "status", 0) < 0 && errno != ENOENT)
		rc = -1;
	for (struct dirent *e; rc == 0 && (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "lock") &&
		    unlinkat(dirfd(d), e->d_name, 0) < 0 && errno != ENOENT)
			rc = -1;
	if (rc == 0 && (unlinkat(dirfd(d), "lock", 0) < 0 || rmdir(path.data) < 0))
		rc = -1;
	if (d)
		closedir(d);
	af_buf_release(&path);
	return rc;
}

int af_jobs_forget(struct af_jobs *j, const char *hash)
{
	pthread_mutex_lock(&j->lock);
	struct job *x = find(j, hash);
	int rc = 1, fd = -1;
	if (!x || x->state == AF_JOB_DONE || x->state == AF_JOB_FAILED)
		rc = lock_result(j, hash, false, &fd);
	if (rc == 0) {
		rc = remove_result(j, hash);
		close(fd);
		if (x)
			drop(j, x);
	}
	pthread_mutex_unlock(&j->lock);
	return rc;
}

/* ---- rendering one job ---- */

struct thread_rec {
	const char *name;         /* owned by the profile */
	uint64_t tid, events;
	const char *process;      /* atrace: its process name, or NULL */
	uint32_t node;
	uint64_t total;
	bool whole;               /* no threads (folded): the whole graph */
	bool drawn;               /* within --max-threads and --max-seconds */
	double width, height;     /* of the SVG */
	double min_width;         /* > 0: raised to keep the SVG within MAX_FRAMES */
	char *error[3];           /* why the SVG, PNG, folded file is missing */
};

enum { F_SVG, F_PNG, F_FOLDED };

/* Frames drawn per graph at most: an SVG costs about 300 bytes a frame, and
 * a browser slows down well before a million. Beyond it --minwidth is raised
 * (by 4x at a time) and the page says so. */
#define MAX_FRAMES 50000
static const char *const file_ext[] = { "svg", "png", "folded" };

/* The progress of the job a child renders, on a page shared with the worker. */
struct shared_progress {
	volatile unsigned done, total;
};

struct render {
	struct worker *w;
	struct shared_progress *sp;
	struct job *job;
	const char *hash;
	struct af_profile p;
	struct thread_rec *recs;
	size_t nrecs, ndrawn;
	uint64_t total;           /* of every thread listed */
	struct af_buf subtitle;
	char *report_error;
	bool out_of_time;
	bool write_failed;        /* a file could not be written: tried again later */
	double start;
};

static char *diag_text(const struct af_diag *d)
{
	char line[512];
	af_diag_format(d, line, sizeof line);
	return af_xstrndup(line, strlen(line));
}

static void progress(struct render *r)
{
	__atomic_add_fetch(&r->sp->done, 1, __ATOMIC_RELAXED);
}

/* The threads to list, most time first; the first --max-threads drawn. */
static void plan(struct render *r, unsigned max_threads)
{
	struct af_plan pl;
	struct af_diag d;
	af_diag_init(&d, r->hash);
	af_plan_make(&pl, &r->p, NULL, 0, &d);   /* no specs: cannot fail */
	af_plan_by_total(&pl);
	r->recs = af_xcalloc(pl.n ? pl.n : 1, sizeof *r->recs);
	for (size_t i = 0; i < pl.n; i++) {
		const struct af_plan_graph *g = &pl.graphs[i];
		r->recs[i] = (struct thread_rec){ .name = g->name, .tid = g->thread ? g->thread->tid : 0,
			.events = g->thread ? g->thread->events : 0, .process = g->process,
			.node = g->node, .total = g->total, .whole = !g->thread };
	}
	r->nrecs = pl.n;
	r->total = pl.total;
	af_plan_release(&pl);
	r->ndrawn = r->nrecs < max_threads ? r->nrecs : max_threads;
}

/* Open --data/<hash>/<name> for writing; 0 or -1 with diag set. */
static int open_out(struct render *r, const char *name, struct af_output *out,
		    struct af_buf *path, struct af_diag *d)
{
	af_buf_init(path);
	path_of(path, r->w->j, r->hash, name);
	af_diag_init(d, name);
	return af_output_open_as(out, path->data, name, d);
}

static void set_opts(struct render *r, const struct thread_rec *t, struct af_layout_opts *lo,
		     struct af_render_opts *ro)
{
	af_layout_opts_default(lo);
	af_render_opts_default(ro);
	ro->title = t->whole ? "Flame Graph" : t->name;
	ro->subtitle = r->subtitle.len ? r->subtitle.data : NULL;
	ro->count_name = r->p.unit;
	ro->decimals = r->p.decimals;
	ro->text = r->w->text;
	lo->has_subtitle = ro->subtitle != NULL;
}

/* One file of thread t (index i); its error is kept in t->error[f]. */
static void render_file(struct render *r, struct thread_rec *t, size_t i, int f)
{
	char name[32];
	snprintf(name, sizeof name, "t%zu.%s", i, file_ext[f]);
	struct af_layout_opts lo;
	struct af_render_opts ro;
	struct af_diag d, od;
	af_diag_init(&d, name);
	if (f == F_PNG && !r->w->text && !(r->w->text = af_text_new(&d))) {
		t->error[f] = diag_text(&d);
		return;
	}
	set_opts(r, t, &lo, &ro);
	struct af_output out;
	struct af_buf path;
	int rc = open_out(r, name, &out, &path, &od);
	if (rc == 0) {
		if (f == F_SVG) {
			struct af_layout l;
			rc = af_layout_build(&l, &r->p.tree, t->node, NULL, &lo, &d);
			for (int k = 0; rc == 0 && l.nframes > MAX_FRAMES && k < 24; k++) {
				af_layout_release(&l);
				lo.min_width *= 4;
				t->min_width = lo.min_width;
				rc = af_layout_build(&l, &r->p.tree, t->node, NULL, &lo, &d);
			}
			if (rc == 0) {
				rc = af_render_svg(&l, &ro, &out.sink, &d);
				t->width = l.width;
				t->height = l.height;
				af_layout_release(&l);
			}
		} else {
			rc = af_render_to(f == F_PNG ? AF_OUT_PNG : AF_OUT_FOLDED, &r->p.tree, t->node,
					  NULL, &lo, &ro, &out.sink, &d);
		}
		if (rc == 0)
			rc = af_output_commit(&out);
		else
			af_output_abort(&out);
	}
	if (od.set) {
		d = od;
		r->write_failed = true;
	}
	if (rc < 0)
		t->error[f] = diag_text(&d);
	af_buf_release(&path);
}

static void render_report(struct render *r)
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
	if (rc == 0)
		rc = af_output_commit(&out);
	if (rc < 0) {
		r->report_error = diag_text(&d);
		r->write_failed = true;
	}
	af_buf_release(&path);
	af_report_release(&rep);
}

/* ---- the result page ---- */

static void page_summary(struct af_sink *out, const struct render *r)
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

static void page_link(struct af_sink *out, const struct render *r, const struct thread_rec *t,
		      size_t i, int f)
{
	if (t->error[f]) {
		af_sink_puts(out, "<span class=\"err\" title=\"");
		af_escape_xml(out, t->error[f]);
		af_sink_printf(out, "\">no %s</span>", file_ext[f]);
		return;
	}
	af_sink_printf(out, "<a href=\"/trace/%s/t%zu.%s\"%s>%s</a>", r->hash, i, file_ext[f],
		       f == F_FOLDED ? " download=\"\"" : "", f == F_SVG ? "SVG" : f == F_PNG ? "PNG" : "folded");
}

static void page_row(struct af_sink *out, const struct render *r, const struct thread_rec *t, size_t i)
{
	const struct af_profile *p = &r->p;
	af_sink_puts(out, "<tr><td>");
	if (i < r->ndrawn && t->drawn)
		af_sink_printf(out, "<a href=\"#t%zu\">", i);
	af_escape_xml(out, t->whole ? "all" : t->name);
	af_sink_puts(out, i < r->ndrawn && t->drawn ? "</a></td><td>" : "</td><td>");
	if (t->process)
		af_escape_xml(out, t->process);
	af_sink_puts(out, "</td><td class=\"n\">");
	if (!t->whole)
		af_sink_u64(out, t->tid);
	af_sink_puts(out, "</td><td class=\"n\">");
	af_sink_weight(out, t->total, p->decimals, p->unit);
	af_sink_puts(out, "</td><td class=\"n\">");
	af_sink_fixed(out, r->total ? 100.0 * (double)t->total / (double)r->total : 0, 1);
	af_sink_puts(out, "%</td><td>");
	if (!t->drawn) {
		af_sink_puts(out, i < r->ndrawn ? "not drawn: the time budget ran out"
			     : "not drawn: over the limit of threads per upload");
	} else {
		for (int f = F_SVG; f <= F_FOLDED; f++) {
			af_sink_puts(out, f ? " \xc2\xb7 " : "");
			page_link(out, r, t, i, f);
		}
	}
	af_sink_puts(out, "</td></tr>\n");
}

static void page_threads(struct af_sink *out, const struct render *r)
{
	af_sink_printf(out, "<h2>Threads</h2>\n<p>%zu listed, %zu drawn", r->nrecs, r->ndrawn);
	if (r->ndrawn < r->nrecs)
		af_sink_printf(out, " (at most %zu per upload)", r->ndrawn);
	if (r->out_of_time)
		af_sink_puts(out, "; the render time budget ran out, so some were left out");
	af_sink_puts(out, ".</p>\n<table class=\"list\">\n<thead><tr><th>Thread</th><th>Process</th>"
		     "<th>TID</th><th>Total</th><th>Share</th><th>Files</th></tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < r->nrecs; i++)
		page_row(out, r, &r->recs[i], i);
	af_sink_puts(out, "</tbody>\n</table>\n");
}

/* Each graph in a sandboxed frame: its script runs in an opaque origin
 * (the server also sends the SVG with a CSP sandbox). */
static void page_graphs(struct af_sink *out, const struct render *r)
{
	af_sink_puts(out, "<h2>Flame graphs</h2>\n");
	for (size_t i = 0; i < r->ndrawn; i++) {
		const struct thread_rec *t = &r->recs[i];
		if (!t->drawn)
			continue;
		af_sink_printf(out, "<section class=\"graph\" id=\"t%zu\">\n<h3>", i);
		af_escape_xml(out, t->whole ? "All stacks" : t->name);
		if (!t->whole)
			af_sink_printf(out, " (%" PRIu64 ")", t->tid);
		af_sink_puts(out, " \xc2\xb7 ");
		af_sink_weight(out, t->total, r->p.decimals, r->p.unit);
		af_sink_puts(out, "</h3>\n");
		if (t->error[F_SVG]) {
			af_sink_puts(out, "<p class=\"err\">");
			af_escape_xml(out, t->error[F_SVG]);
			af_sink_puts(out, "</p>\n");
		} else {
			af_sink_printf(out, "<iframe sandbox=\"allow-scripts\" loading=\"lazy\" "
				       "src=\"/trace/%s/t%zu.svg\" width=\"%.0f\" height=\"%.0f\" title=\"flame graph of ",
				       r->hash, i, t->width, t->height);
			af_escape_xml(out, t->whole ? "all stacks" : t->name);
			af_sink_puts(out, "\"></iframe>\n");
			if (t->min_width > 0)
				af_sink_printf(out, "<p class=\"note\">Frames narrower than %g px are left out "
					       "(--minwidth raised to keep this graph within %d frames).</p>\n",
					       t->min_width, MAX_FRAMES);
		}
		af_sink_puts(out, "</section>\n");
	}
}

static void page_report(struct af_sink *out, const struct render *r)
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

static int write_page(struct render *r, struct af_diag *d)
{
	struct af_output out;
	struct af_buf path;
	int rc = open_out(r, "index.html", &out, &path, d);
	if (rc == 0) {
		struct af_sink *s = &out.sink;
		af_serve_page_head(s, "Flame graphs", NULL);
		af_sink_printf(s, "<p class=\"nav\"><a href=\"/\">Upload another trace</a></p>\n"
			       "<h1>Flame graphs</h1>\n<p class=\"hash\">sha256 %s</p>\n", r->hash);
		page_summary(s, r);
		page_threads(s, r);
		page_graphs(s, r);
		page_report(s, r);
		af_sink_puts(s, "</body>\n</html>\n");
		rc = af_output_commit(&out);
	}
	af_buf_release(&path);
	return rc;
}

/* Read and render job x (in the child). Returns 0 (rendered), -1 (bad
 * input: *msg says why) or -2 (a file could not be written). */
static int render_job(struct worker *w, struct job *x, struct shared_progress *sp, char **msg)
{
	const struct af_serve_opts *o = w->j->o;
	struct render r = { .w = w, .sp = sp, .job = x, .hash = x->hash, .start = af_now() };
	af_buf_init(&r.subtitle);
	af_profile_init(&r.p);
	struct af_buf path;
	af_buf_init(&path);
	path_of(&path, w->j, x->hash, "input");
	struct af_diag d;
	af_diag_init(&d, "uploaded file");
	struct af_mapped in;
	struct af_read_opts ropts = { .max_input = o->max_input };
	/* the stored upload is already within --max-upload */
	int rc = af_input_load(&in, path.data, UINT64_MAX, &d);
	if (rc == 0) {
		in.in.name = "uploaded file";
		rc = af_read(&r.p, &in.in, NULL, &ropts, &d);
		if (rc == 0) {
			plan(&r, o->max_threads);
			af_plan_prepare_tree(&r.p.tree);
			af_default_subtitle(&r.subtitle, "trace", &r.p);
			sp->total = (unsigned)(3 * r.ndrawn + 2);
			for (size_t i = 0; i < r.ndrawn && rc == 0; i++) {
				if (af_now() - r.start > o->max_seconds) {
					r.out_of_time = true;
					break;
				}
				r.recs[i].drawn = true;
				for (int f = F_SVG; f <= F_FOLDED; f++, progress(&r))
					render_file(&r, &r.recs[i], i, f);
			}
			if (rc == 0) {
				render_report(&r);
				progress(&r);
				rc = write_page(&r, &d);
				if (rc < 0 || r.write_failed)
					rc = -2;
			}
		}
		af_input_release(&in);
	}
	if (rc == -1)
		*msg = diag_text(&d);
	for (size_t i = 0; i < r.nrecs; i++)
		for (int f = F_SVG; f <= F_FOLDED; f++)
			free(r.recs[i].error[f]);
	free(r.recs);
	free(r.report_error);
	af_buf_release(&r.subtitle);
	af_buf_release(&path);
	af_profile_release(&r.p);
	return rc;
}

/* ---- workers ---- */

/* The child's exit status when a file of the result could not be written. */
#define CHILD_WRITE_FAILED 3

/* The child: render, write the status file, exit. SIGTERM from the worker
 * removes the child's half-written files (output.c) and ends it. */
static _Noreturn void child(struct worker *w, struct job *x, struct shared_progress *sp)
{
	/* bounded even if the server is killed with SIGKILL (no worker left to
	 * time it): SIGTERM when the forking thread dies, and a CPU limit */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	rlim_t cpu = (rlim_t)w->j->o->max_seconds + 10;
	setrlimit(RLIMIT_CPU, &(struct rlimit){ .rlim_cur = cpu, .rlim_max = cpu + 5 });
	if (w->j->o->max_memory) {
		rlim_t as = (rlim_t)w->j->o->max_memory;
		setrlimit(RLIMIT_AS, &(struct rlimit){ .rlim_cur = as, .rlim_max = as });
	}
	af_output_install_signals();
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	char *msg = NULL;
	int rc = render_job(w, x, sp, &msg);
	if (rc == -2 || write_status(w->j, x->hash, msg) < 0)
		_exit(CHILD_WRITE_FAILED);
	_exit(rc < 0 ? 1 : 0);
}

/* Why a child that wrote no status ended. */
static char *child_failure(int status, bool timed_out, unsigned max_seconds)
{
	char line[160];
	if (timed_out)
		snprintf(line, sizeof line, "the render took longer than --max-seconds (%u s)", max_seconds);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_WRITE_FAILED)
		snprintf(line, sizeof line, "the result could not be written (is the disk full?); "
			 "it is tried again on a visit after %d s", RETRY_SECONDS);
	else if (WIFEXITED(status))
		snprintf(line, sizeof line, "the render failed (out of memory)");
	else
		snprintf(line, sizeof line, "the render failed (signal %d: out of memory or CPU time)",
			 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	return af_xstrndup(line, strlen(line));
}

/* Run job x in a child and wait for it, copying its progress, killing it
 * when the server stops or --max-seconds (plus a few seconds to write the
 * page) has passed. Returns as render_job did, or 1 if the server stops. */
static int run_child(struct worker *w, struct job *x, char **msg)
{
	struct af_jobs *j = w->j;
	struct shared_progress *sp = mmap(NULL, sizeof *sp, PROT_READ | PROT_WRITE,
					  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sp == MAP_FAILED) {
		*msg = af_xstrndup("cannot start the render", 23);
		return -1;
	}
	sp->done = sp->total = 0;
	pid_t pid = fork();
	if (pid == 0)
		child(w, x, sp);
	if (pid < 0) {
		munmap(sp, sizeof *sp);
		*msg = af_xstrndup("cannot start the render", 23);
		return -1;
	}
	double start = af_now(), limit = (double)j->o->max_seconds + 5, killed = 0;
	bool stop = false, timed_out = false;
	int status = 0;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid || (r < 0 && errno != EINTR))
			break;
		pthread_mutex_lock(&j->lock);
		x->done = sp->done;
		x->total = sp->total;
		stop = j->stop;
		pthread_mutex_unlock(&j->lock);
		double t = af_now();
		if (!killed && (stop || t - start > limit)) {
			timed_out = !stop;
			kill(pid, SIGTERM);   /* the child removes its temporary files */
			killed = t;
		} else if (killed && t - killed > 1) {
			kill(pid, SIGKILL);
		}
		nanosleep(&(struct timespec){ .tv_nsec = 20 * 1000 * 1000 }, NULL);
	}
	munmap(sp, sizeof *sp);
	if (stop)
		return 1;
	char *st_msg = NULL;
	enum af_job_state s = read_status(j, x->hash, &st_msg);
	if (s == AF_JOB_DONE)
		return 0;
	if (s == AF_JOB_FAILED) {
		*msg = st_msg ? st_msg : af_xstrndup("the render failed", 17);
		return -1;
	}
	free(st_msg);
	*msg = child_failure(status, timed_out, j->o->max_seconds);
	if (WIFEXITED(status) && WEXITSTATUS(status) == CHILD_WRITE_FAILED && !timed_out)
		return -2;
	write_status(j, x->hash, *msg);   /* remembered: not queued again */
	return -1;
}

/* Job x under its render lock: adopted when another server finished it
 * meanwhile, else rendered here. Returns as run_child(). */
static int run_job(struct worker *w, struct job *x, char **msg)
{
	struct af_jobs *j = w->j;
	int fd;
	int rc = lock_result(j, x->hash, true, &fd);
	if (rc < 0)
		*msg = af_xstrndup("the upload was removed before it was rendered", 46);
	if (rc != 0)
		return rc;
	char *st_msg = NULL;
	enum af_job_state s = read_status(j, x->hash, &st_msg);
	if (s == AF_JOB_DONE || s == AF_JOB_FAILED) {
		*msg = st_msg;
		rc = s == AF_JOB_DONE ? 0 : -1;
	} else {
		double start = af_now();
		rc = run_child(w, x, msg);
		if (rc <= 0)
			fprintf(stderr, AF_SERVE_PROG " serve: %.12s: %s in %.1f s%s%s\n", x->hash,
				rc == 0 ? "rendered" : "failed", af_now() - start, rc ? ": " : "",
				rc ? *msg : "");
	}
	close(fd);
	return rc;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct af_jobs *j = w->j;
	pthread_mutex_lock(&j->lock);
	for (;;) {
		while (!j->stop && !j->qhead)
			pthread_cond_wait(&j->cond, &j->lock);
		if (j->stop)
			break;
		struct job *x = j->qhead;
		j->qhead = x->qnext;
		if (!j->qhead)
			j->qtail = NULL;
		j->queued--;
		x->state = AF_JOB_RUNNING;
		x->done = x->total = 0;
		pthread_mutex_unlock(&j->lock);
		char *msg = NULL;
		int rc = run_job(w, x, &msg);
		pthread_mutex_lock(&j->lock);
		if (rc <= 0) {
			x->done = x->total;
			x->state = rc < 0 ? AF_JOB_FAILED : AF_JOB_DONE;
			x->retry_at = rc == -2 ? af_now() + RETRY_SECONDS : 0;
			free(x->msg);
			x->msg = rc < 0 ? msg : NULL;
			if (rc == 0)
				free(msg);
		}
	}
	pthread_mutex_unlock(&j->lock);
	af_text_free(w->text);
	w->text = NULL;
	return NULL;
}

static bool is_hash(const char *name)
{
	size_t n = strspn(name, "0123456789abcdef");
	return n == AF_SHA256_HEX && !name[n];
}

/* A temporary output (output.c: ".<name>.XXXXXX") not written to for
 * longer than any job may run is left by a render killed with SIGKILL: remove
 * it. Younger ones may belong to another server on the same --data. */
static void remove_stale_temps(struct af_jobs *j)
{
	DIR *top = opendir(j->o->data);
	time_t before = time(NULL) - (time_t)j->o->max_seconds - 60;
	for (struct dirent *e; top && (e = readdir(top));) {
		if (!is_hash(e->d_name))
			continue;
		int fd = openat(dirfd(top), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		DIR *d = fd < 0 ? NULL : fdopendir(fd);
		if (!d && fd >= 0)
			close(fd);
		for (struct dirent *f; d && (f = readdir(d));) {
			const char *dot = strrchr(f->d_name, '.');
			struct stat st;
			if (f->d_name[0] == '.' && dot && dot != f->d_name && strlen(dot) == 7 &&
			    fstatat(dirfd(d), f->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISREG(st.st_mode) && st.st_mtime < before)
				unlinkat(dirfd(d), f->d_name, 0);
		}
		if (d)
			closedir(d);
	}
	if (top)
		closedir(top);
}

struct af_jobs *af_jobs_start(const struct af_serve_opts *o)
{
	struct af_jobs *j = af_xcalloc(1, sizeof *j);
	j->o = o;
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->cond, NULL);
	remove_stale_temps(j);
	j->nworkers = o->jobs ? o->jobs : 1;
	j->workers = af_xcalloc(j->nworkers, sizeof *j->workers);
	unsigned started = 0;
	for (unsigned i = 0; i < j->nworkers; i++) {
		j->workers[i].j = j;
		j->workers[i].started = pthread_create(&j->workers[i].thread, NULL, work, &j->workers[i]) == 0;
		started += j->workers[i].started;
	}
	if (!started) {
		af_jobs_stop(j);
		return NULL;
	}
	return j;
}

void af_jobs_stop(struct af_jobs *j)
{
	if (!j)
		return;
	pthread_mutex_lock(&j->lock);
	j->stop = true;
	pthread_cond_broadcast(&j->cond);
	pthread_mutex_unlock(&j->lock);
	for (unsigned i = 0; i < j->nworkers; i++)
		if (j->workers[i].started)
			pthread_join(j->workers[i].thread, NULL);
	for (unsigned b = 0; b < NBUCKETS; b++) {
		for (struct job *x = j->buckets[b], *next; x; x = next) {
			next = x->next;
			free(x->msg);
			free(x);
		}
	}
	free(j->workers);
	pthread_mutex_destroy(&j->lock);
	pthread_cond_destroy(&j->cond);
	free(j);
}
