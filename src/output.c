/* output.c: write to "<dir>/.<name>.XXXXXX", rename into place on success.
 * A signal handler removes the temporary file of an interrupted run. */
#include "output.h"
#include "util.h"

#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The temporary file being written, for the signal handler. Only one output
 * is open at a time per process. */
static volatile sig_atomic_t have_pending;
static char pending_path[4096];

static void on_signal(int sig)
{
	if (have_pending)
		unlink(pending_path);
	signal(sig, SIG_DFL);
	raise(sig);
}

void af_output_install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGPIPE, &sa, NULL);
}

static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
	size_t n = strlen(path) + 16;
	char *tmp = af_xmalloc(n);
	snprintf(tmp, n, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
	return tmp;
}

int af_output_open(struct af_output *o, const char *path, struct af_diag *d)
{
	memset(o, 0, sizeof *o);
	o->path = path;
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
			return af_diag_error(d, "cannot write output: is a directory");
		o->fp = fopen(path, "wb");
		if (!o->fp)
			return af_diag_error(d, "cannot open output: %s", strerror(errno));
		af_sink_init(&o->sink, af_write_file, o->fp);
		return 0;
	}
	o->tmp = temp_name(path);
	if (strlen(o->tmp) >= sizeof pending_path) {
		free(o->tmp);
		o->tmp = NULL;
		return af_diag_error(d, "output path is too long");
	}
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return af_diag_error(d, "cannot create output: %s", strerror(e));
	}
	fchmod(fd, 0644 & ~(mode_t)0);
	memcpy(pending_path, o->tmp, strlen(o->tmp) + 1);
	have_pending = 1;
	o->fp = fdopen(fd, "wb");
	if (!o->fp) {
		int e = errno;
		close(fd);
		af_output_abort(o);
		return af_diag_error(d, "cannot open output: %s", strerror(e));
	}
	af_sink_init(&o->sink, af_write_file, o->fp);
	return 0;
}

int af_output_commit(struct af_output *o, struct af_diag *d)
{
	int failed = af_sink_finish(&o->sink) < 0 ? errno : 0;
	if (o->fp == stdout) {
		if (fflush(stdout) != 0 && !failed)
			failed = errno;
		o->fp = NULL;
		if (failed)
			return af_diag_error(d, "cannot write output: %s", strerror(failed));
		return 0;
	}
	if (fclose(o->fp) != 0 && !failed)
		failed = errno;
	o->fp = NULL;
	if (!o->tmp)
		return failed ? af_diag_error(d, "cannot write output: %s", strerror(failed)) : 0;
	if (!failed && rename(o->tmp, o->path) != 0)
		failed = errno;
	if (failed) {
		af_output_abort(o);
		return af_diag_error(d, "cannot write output: %s", strerror(failed));
	}
	have_pending = 0;
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

void af_output_abort(struct af_output *o)
{
	if (o->fp && o->fp != stdout) {
		af_sink_finish(&o->sink);
		fclose(o->fp);
	} else if (o->fp == stdout) {
		af_sink_finish(&o->sink);
	}
	o->fp = NULL;
	if (o->tmp) {
		unlink(o->tmp);
		have_pending = 0;
		free(o->tmp);
		o->tmp = NULL;
	}
}
