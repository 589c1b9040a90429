/* serve_retain.c: the retention limit on --data.
 *
 * Results older than --max-age days go first, then the oldest until what is
 * left fits in --max-data. A result's age is that of its newest file (the
 * status, written when it was rendered; the input, while it waits); its
 * size is the disk space its files take. A result being rendered, by this
 * server or another on the same --data, or queued here, is kept
 * (af_jobs_forget). Uploads being received (--data/tmp) are not results. */
#include "serve_int.h"
#include "core/util.h"

#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct result {
	char hash[AF_SHA256_HEX + 1];
	time_t mtime;             /* of its newest file */
	uint64_t bytes;           /* disk space of its files */
};

struct results {
	struct result *v;
	size_t n, cap;
	uint64_t bytes;
};

/* Size and age of the result directory fd (closed here). */
static void measure(int fd, struct result *r)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	struct stat st;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		r->bytes += (uint64_t)st.st_blocks * 512;
		if (st.st_mtime > r->mtime)
			r->mtime = st.st_mtime;
	}
	closedir(d);
}

static void scan(const char *data, struct results *rs)
{
	DIR *top = opendir(data);
	for (struct dirent *e; top && (e = readdir(top));) {
		if (!af_serve_hash_ok(e->d_name, strlen(e->d_name)))
			continue;
		int fd = openat(dirfd(top), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		af_grow(&rs->v, &rs->cap, rs->n + 1, sizeof *rs->v);
		struct result *r = &rs->v[rs->n++];
		*r = (struct result){ 0 };
		memcpy(r->hash, e->d_name, AF_SHA256_HEX);
		measure(fd, r);
		rs->bytes += r->bytes;
	}
	if (top)
		closedir(top);
}

/* Oldest first; the hash breaks ties, so the order never depends on the
 * directory's. */
static int by_age(const void *a, const void *b)
{
	const struct result *x = a, *y = b;
	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->hash, y->hash);
}

void af_retain_sweep(struct af_jobs *j, const struct af_serve_opts *o)
{
	if (!o->max_data && !o->max_age)
		return;
	struct results rs = { 0 };
	scan(o->data, &rs);
	if (rs.n)
		qsort(rs.v, rs.n, sizeof *rs.v, by_age);
	time_t expired = o->max_age ? time(NULL) - (time_t)o->max_age * 86400 : 0;
	size_t removed = 0, kept = 0;
	uint64_t freed = 0;
	for (size_t i = 0; i < rs.n; i++) {
		struct result *r = &rs.v[i];
		bool old = o->max_age && r->mtime < expired;
		bool over = o->max_data && rs.bytes - freed > o->max_data;
		if (!old && !over)
			break;   /* oldest first: the rest are younger and fit */
		if (af_jobs_forget(j, r->hash) == 0) {
			removed++;
			freed += r->bytes;
		} else {
			kept++;
		}
	}
	if (removed || kept) {
		char size[32];
		af_serve_size(size, sizeof size, freed);
		fprintf(stderr, AF_SERVE_PROG " serve: retention: removed %zu result%s (%s)", removed,
			removed == 1 ? "" : "s", size);
		if (kept)
			fprintf(stderr, "; %zu in use kept", kept);
		fputc('\n', stderr);
	}
	free(rs.v);
}
