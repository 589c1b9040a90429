/* input.c: map a file, or read standard input, into memory. */
#include "input.h"
#include "util.h"

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
	int rc = 0;
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			rc = read_all(m, fd, max, d);
		} else {
			m->map = p;
			m->map_len = (size_t)st.st_size;
			m->in.data = p;
			m->in.len = (size_t)st.st_size;
			m->in.mapped = true;
		}
	} else {
		rc = read_all(m, fd, max, d);
	}
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

void af_input_release(struct af_mapped *m)
{
	if (m->map)
		munmap(m->map, m->map_len);
	free(m->heap);
	memset(m, 0, sizeof *m);
}
