/* output.c: write to "<dir>/.<name>.XXXXXX" (or ".aflame.XXXXXX" for a
 * name near the length limit), rename into place on success.
 * A signal handler removes the temporary file of an interrupted run. */
#define _GNU_SOURCE   /* renameat2 */
#include "output.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The temporary files being written, for the signal handler: one slot per
 * open output (batches write up to 64 at once, one per worker). A slot is
 * claimed under the lock, its path written, and only then marked in use, so
 * the handler never reads a half-written path. An output that finds no free
 * slot is still written; only its cleanup on a signal is lost. */
#define MAX_PENDING 64
static volatile sig_atomic_t pending_used[MAX_PENDING];
static char pending_path[MAX_PENDING][4096];
static bool pending_claimed[MAX_PENDING];
static pthread_mutex_t pending_lock = PTHREAD_MUTEX_INITIALIZER;

static void remove_pending(void)
{
	for (int i = 0; i < MAX_PENDING; i++)
		if (pending_used[i])
			unlink(pending_path[i]);
}

static void on_signal(int sig)
{
	remove_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int claim_pending(const char *path)
{
	int slot = -1;
	pthread_mutex_lock(&pending_lock);
	for (int i = 0; i < MAX_PENDING && slot < 0; i++)
		if (!pending_claimed[i])
			slot = i;
	if (slot >= 0) {
		pending_claimed[slot] = true;
		memcpy(pending_path[slot], path, strlen(path) + 1);
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		pending_used[slot] = 1;
	}
	pthread_mutex_unlock(&pending_lock);
	return slot;
}

static void release_pending(struct af_output *o)
{
	if (o->slot < 0)
		return;
	pthread_mutex_lock(&pending_lock);
	pending_used[o->slot] = 0;
	pending_claimed[o->slot] = false;
	pthread_mutex_unlock(&pending_lock);
	o->slot = -1;
}

static mode_t new_file_mode = 0644;

void af_output_install_signals(void)
{
	mode_t mask = umask(0);   /* umask can only be read by setting it */
	umask(mask);
	new_file_mode = 0666 & ~mask;
	af_set_fatal_hook(remove_pending);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

/* "<dir>/.<name>.XXXXXX" beside the target, so that the rename stays in one
 * file system; a name too long for that suffix (248 to 255 bytes) gets the
 * short "<dir>/.aflame.XXXXXX" instead. */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	const char *base = path + dir;
	if (strlen(base) + sizeof "..XXXXXX" - 1 > NAME_MAX)
		base = "aflame";
	size_t n = dir + strlen(base) + sizeof "..XXXXXX";
	char *tmp = af_xmalloc(n);
	snprintf(tmp, n, "%.*s.%s.XXXXXX", (int)dir, path, base);
	return tmp;
}

/* Every error of an output: recorded in the caller's diag, naming the
 * output (the first error wins there). */
__attribute__((format(printf, 2, 3)))
static int fail(struct af_output *o, const char *fmt, ...)
{
	char msg[sizeof o->diag->msg];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return af_diag_error_in(o->diag, o->name, "%s", msg);
}

int af_output_open(struct af_output *o, const char *path, struct af_diag *d)
{
	return af_output_open_as(o, path, path, d);
}

int af_output_open_as(struct af_output *o, const char *path, const char *name,
		      struct af_diag *d)
{
	memset(o, 0, sizeof *o);
	o->path = path;
	o->name = name;
	o->diag = d;
	o->slot = -1;
	if (strcmp(path, "-") == 0) {
		o->fp = stdout;
		af_sink_init(&o->sink, af_write_file, o->fp);
		return 0;
	}
	/* a device or pipe (/dev/null, /dev/full, a FIFO) is written in place:
	 * renaming over it would replace the device */
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return fail(o, "cannot write output: is a directory");
		o->fp = fopen(path, "wb");
		if (!o->fp)
			return fail(o, "cannot open output: %s", strerror(errno));
		af_sink_init(&o->sink, af_write_file, o->fp);
		return 0;
	}
	/* -o through a symlink updates the file it points to, not the link */
	struct stat lst;
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode))
		o->target = realpath(path, NULL);
	bool exists = stat(o->target ? o->target : path, &st) == 0;
	o->tmp = temp_name(o->target ? o->target : path);
	if (strlen(o->tmp) >= sizeof pending_path[0]) {
		free(o->tmp);
		o->tmp = NULL;
		af_output_abort(o);
		return fail(o, "output path is too long");
	}
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		af_output_abort(o);
		return fail(o, "cannot create output: %s", strerror(e));
	}
	fchmod(fd, exists ? st.st_mode & 07777 : new_file_mode);
	o->slot = claim_pending(o->tmp);
	o->fp = fdopen(fd, "wb");
	if (!o->fp) {
		int e = errno;
		close(fd);
		af_output_abort(o);
		return fail(o, "cannot open output: %s", strerror(e));
	}
	af_sink_init(&o->sink, af_write_file, o->fp);
	return 0;
}

/* tmp renamed to dest. Over a regular file, the two are exchanged and the
 * old one, now at tmp, removed: renamed over a file, ext4 writes out the
 * new one's data first (auto_da_alloc), 1.4-2.9 ms for the 2 MB of the
 * pprof bench's output, where exchanging and removing took 0.1 ms. So a
 * file is replaced as it is made where there was none; readers see the
 * old or the new one, as with rename. */
static bool put_in_place(const char *tmp, const char *dest)
{
#ifdef RENAME_EXCHANGE
	struct stat st;
	if (lstat(dest, &st) == 0 && S_ISREG(st.st_mode) &&
	    renameat2(AT_FDCWD, tmp, AT_FDCWD, dest, RENAME_EXCHANGE) == 0) {
		if (lstat(tmp, &st) == 0 && S_ISREG(st.st_mode)) {
			unlink(tmp);
			return true;
		}
		/* no longer a file when exchanged: put back, and rename fails */
		renameat2(AT_FDCWD, tmp, AT_FDCWD, dest, RENAME_EXCHANGE);
	}
#endif
	return rename(tmp, dest) == 0;
}

int af_output_commit(struct af_output *o)
{
	int failed = af_sink_finish(&o->sink) < 0 ? errno : 0;
	if (o->fp == stdout) {
		if (fflush(stdout) != 0 && !failed)
			failed = errno;
		o->fp = NULL;
		if (failed)
			return fail(o, "cannot write output: %s", strerror(failed));
		return 0;
	}
	if (fclose(o->fp) != 0 && !failed)
		failed = errno;
	o->fp = NULL;
	if (!o->tmp)
		return failed ? fail(o, "cannot write output: %s", strerror(failed)) : 0;
	if (!failed && !put_in_place(o->tmp, o->target ? o->target : o->path))
		failed = errno;
	if (failed) {
		af_output_abort(o);
		return fail(o, "cannot write output: %s", strerror(failed));
	}
	release_pending(o);
	free(o->tmp);
	o->tmp = NULL;
	free(o->target);
	o->target = NULL;
	return 0;
}

void af_output_abort(struct af_output *o)
{
	if (o->fp && af_sink_finish(&o->sink) < 0)
		fail(o, "cannot write output: %s", strerror(errno));
	if (o->fp && o->fp != stdout)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp) {
		unlink(o->tmp);
		release_pending(o);
		free(o->tmp);
		o->tmp = NULL;
	}
	free(o->target);
	o->target = NULL;
}

int af_output_close(struct af_output *o, int rc)
{
	if (rc == 0)
		return af_output_commit(o);
	af_output_abort(o);
	return -1;
}
