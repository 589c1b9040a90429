/* input.c: map a file, or read standard input, into memory; windows over
 * a mapped file read() into one buffer (af_window, read.h). */
#include "input.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int too_large(struct af_diag *d, uint64_t max)
{
	return af_diag_error(d, "input is larger than --max-input-size (%llu bytes)",
			     (unsigned long long)max);
}

/* Standard input, pipes and devices: read to the end, but never more than
 * max bytes (/dev/zero has no end), and an allocation that fails is this
 * input's error, not an abort. */
static int read_all(struct af_mapped *m, int fd, uint64_t max, struct af_diag *d)
{
	size_t cap = 1 << 16, len = 0;
	unsigned char *buf = af_xmalloc(cap);
	for (;;) {
		if (len == cap) {
			if ((uint64_t)len > max) {
				free(buf);
				return too_large(d, max);
			}
			unsigned char *bigger = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
			if (!bigger) {
				free(buf);
				return af_diag_error(d, "cannot read: out of memory after %zu bytes", len);
			}
			buf = bigger;
			cap *= 2;
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			return af_diag_error(d, "cannot read: %s", strerror(e));
		}
		len += (size_t)n;
	}
	if ((uint64_t)len > max) {
		free(buf);
		return too_large(d, max);
	}
	m->heap = buf;
	m->in.data = buf;
	m->in.len = len;
	return 0;
}

int af_input_load(struct af_mapped *m, const char *path, uint64_t max, struct af_diag *d)
{
	memset(m, 0, sizeof *m);
	m->in.name = path;
	if (strcmp(path, "-") == 0)
		return read_all(m, STDIN_FILENO, max, d);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return af_diag_error(d, "cannot open: %s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return af_diag_error(d, "cannot stat: %s", strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return af_diag_error(d, "is a directory");
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		close(fd);
		return too_large(d, max);
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p != MAP_FAILED) {
			/* fd stays open: af_window reads it */
			m->map = p;
			m->map_len = (size_t)st.st_size;
			m->in.data = p;
			m->in.len = (size_t)st.st_size;
			m->in.mapped = true;
			m->in.fd = fd;
			return 0;
		}
	}
	int rc = read_all(m, fd, max, d);
	close(fd);
	return rc;
}

void af_input_consumed(const struct af_input *in, size_t upto)
{
	if (!in->mapped)
		return;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = upto < in->len ? upto : in->len;
	len &= ~(page - 1);   /* the mapping starts on a page */
	if (len)
		madvise((void *)(uintptr_t)in->data, len, MADV_DONTNEED);
}

const char *af_input_line_source(const struct af_input *in, uint64_t *line)
{
	size_t i = in->nparts;
	while (i > 0 && in->parts[i - 1].first_line > *line)
		i--;
	if (i == 0)
		return in->name;
	*line -= in->parts[i - 1].first_line - 1;
	return in->parts[i - 1].name;
}

/* ---- reading a mapping front to back ---- */

/* Made ahead and kept behind: large enough that a call is a small part of
 * its pages' cost, small enough that memory stays a few MiB. */
enum { AHEAD = 1 << 20 };

void af_input_ahead_init(struct af_ahead *a, const struct af_input *in)
{
	*a = (struct af_ahead){ .next = in->mapped ? 0 : SIZE_MAX };
}

int af_input_ahead(struct af_ahead *a, const struct af_input *in, size_t pos, struct af_diag *d)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t drop = pos > AHEAD ? (pos - AHEAD) & ~(page - 1) : 0;   /* the mapping starts on a page */
	if (drop > a->dropped) {
		madvise((void *)(uintptr_t)(in->data + a->dropped), drop - a->dropped, MADV_DONTNEED);
		a->dropped = drop;
	}
	size_t from = pos & ~(page - 1), to = in->len - pos > AHEAD ? pos + AHEAD : in->len;
	if (from < a->ready)
		from = a->ready;
	to = (to + page - 1) & ~(page - 1);   /* the mapping holds the last page whole */
	a->next = in->len - pos > AHEAD / 2 ? pos + AHEAD / 2 : SIZE_MAX;
	if (to <= from)
		return 0;
	a->ready = to;
#ifdef MADV_POPULATE_READ
	if (!a->no_populate && madvise((void *)(uintptr_t)(in->data + from), to - from, MADV_POPULATE_READ) < 0) {
		if (errno == EFAULT)   /* pages past the file's end */
			return af_diag_offset(d, from, "cannot read: the file shrank while it was read");
		a->no_populate = true;   /* EINVAL: a kernel before 5.14; the pages fault in */
	}
#else
	(void)d;
#endif
	return 0;
}

/* ---- windows ---- */

/* Large enough that a read is a small part of the bytes' cost, small
 * enough to stay in the L2 cache with the line being parsed. */
enum { WINDOW = 256 * 1024 };


void af_window_init(struct af_window *w, const struct af_input *in)
{
	memset(w, 0, sizeof *w);
	w->in = in;
	if (!in->mapped || in->len <= WINDOW) {
		w->data = in->data;   /* small files: the few pages detection touched */
		w->len = in->len;
		return;
	}
	w->buffered = true;
	w->buf = af_xmalloc(WINDOW);
	w->cap = WINDOW;
	/* its pages made in one call: on this VM each page written first was
	 * a fault of 15-25 us, the 64 of the window a tenth of all of
	 * reading's system time; made together they cost a few us each
	 * (issue 19) */
	af_prefault(w->buf, WINDOW);
	w->data = w->buf;
}

void af_window_init_at(struct af_window *w, const struct af_input *in, uint64_t from)
{
	af_window_init(w, in);
	if (from > in->len)
		from = in->len;
	if (w->buffered) {
		w->at = from;
	} else {
		w->data += from;
		w->len -= (size_t)from;
		w->at = from;
	}
}

int af_window_more(struct af_window *w, size_t keep, struct af_diag *d)
{
	const struct af_input *in = w->in;
	uint64_t next = w->at + w->len;   /* the first input byte not in data */
	if (!w->buffered || next >= in->len)
		return 0;
	size_t kept = w->len - keep;
	w->at += keep;
	if (kept > w->cap / 2) {
		/* a line longer than half the buffer: the rest from the mapping
		 * (each read adds at least half a buffer, so reading stays linear) */
		w->buffered = false;
		w->data = in->data + w->at;
		w->len = in->len - (size_t)w->at;
		return 1;
	}
	memmove(w->buf, w->data + keep, kept);
	size_t want = w->cap - kept;
	if (want > in->len - next)
		want = (size_t)(in->len - next);
	ssize_t n;
	do
		n = pread(in->fd, w->buf + kept, want, (off_t)next);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return af_diag_offset(d, next, "cannot read: %s",
				      n < 0 ? strerror(errno) : "the file shrank while it was read");
	w->data = w->buf;
	w->len = kept + (size_t)n;
	return 1;
}

int af_window_seek(struct af_window *w, uint64_t to, struct af_diag *d)
{
	const struct af_input *in = w->in;
	if (to > in->len)
		to = in->len;
	if (!w->buffered) {
		w->data = in->data + to;
		w->len = in->len - (size_t)to;
		w->at = to;
		return w->len > 0;
	}
	w->at = to;
	w->len = 0;
	return af_window_more(w, 0, d);
}

void af_window_release(struct af_window *w)
{
	free(w->buf);
	memset(w, 0, sizeof *w);
}

void af_input_release(struct af_mapped *m)
{
	if (m->map) {
		munmap(m->map, m->map_len);
		close(m->in.fd);
	}
	free(m->heap);
	memset(m, 0, sizeof *m);
}
