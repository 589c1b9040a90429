/* serve_jobs.c: the render queue of the serve subcommand.
 *
 * Each upload is a job named by its hash. A few workers take jobs in upload
 * order and render each one alone (serve_render.c: every file under
 * --data/<hash>/, each written whole, output.h). The file "status" is
 * written last: "done", or "failed" and the one-line error, so a result
 * survives restarts and a failure is remembered. At most --jobs traces are
 * in memory at once; the queue holds only hashes.
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
#include "core/output.h"
#include "core/util.h"
#include "render/fonts.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include <sys/syscall.h>
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

/* Keep name's last path segment (a browser sends only that; another client
 * may send more), cut to NAME_MAX_BYTES at a character's start, as text in
 * --data/<hash>/name. Best effort: without it the page says "uploaded file". */
#define NAME_MAX_BYTES 255
static void write_name(const struct af_jobs *j, const char *hash, const char *name)
{
	for (const char *p = name ? name : ""; *p; p++)
		if (*p == '/' || *p == '\\')
			name = p + 1;
	size_t n = name ? strlen(name) : 0;
	if (!n)
		return;
	if (n > NAME_MAX_BYTES)
		for (n = NAME_MAX_BYTES; n && ((unsigned char)name[n] & 0xc0) == 0x80; n--)
			;
	struct af_buf path;
	af_buf_init(&path);
	path_of(&path, j, hash, "name");
	int fd = open(path.data, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, name, n) != (ssize_t)n)
			(void)ftruncate(fd, 0);
		close(fd);
	}
	af_buf_release(&path);
}

enum af_submit af_jobs_submit(struct af_jobs *j, const char *hash, const char *tmp_path,
			      const char *name)
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
		} else if (mkdir(dir.data, 0755) < 0 && errno != EEXIST) {
			rc = AF_SUBMIT_IO;
		} else if (write_name(j, hash, name), rename(tmp_path, input.data) < 0) {
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

/* ---- workers ---- */

/* The child's exit status when a file of the result could not be written. */
#define CHILD_WRITE_FAILED 3

/* Close every descriptor but standard input, output and error. The child
 * is forked, not executed, so O_CLOEXEC does not close anything in it: it
 * would hold the listening socket, uploads being received and other jobs'
 * render locks (a finished job's lock held while this one renders, so that
 * retention on another server sees it in use) until it ends. It needs none
 * of them: it opens what it reads and writes itself. */
static void close_inherited(void)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
		return;
#endif
	struct rlimit nofile;
	int max = getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < 65536
		  ? (int)nofile.rlim_cur : 65536;
	for (int fd = 3; fd < max; fd++)
		close(fd);
}

/* The child: render, write the status file, exit. SIGTERM from the worker
 * removes the child's half-written files (output.c) and ends it. */
static _Noreturn void child(struct worker *w, struct job *x, struct af_serve_progress *sp)
{
	close_inherited();
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
	int rc = af_serve_render(w->j->o, &w->text, x->hash, sp, &msg);
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
	struct af_serve_progress *sp = mmap(NULL, sizeof *sp, PROT_READ | PROT_WRITE,
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
