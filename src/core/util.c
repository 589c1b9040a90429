/* util.c: allocation wrappers and AF_BUG. */
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

static void (*on_fatal)(void);

void af_set_fatal_hook(void (*hook)(void))
{
	on_fatal = hook;
}

/* Running out of memory is a failure of this input, not a bug: exit 1 (no
 * core, no abort) after the hook has removed any half-written output. */
static _Noreturn void out_of_memory(size_t n)
{
	fprintf(stderr, "aflame-render: out of memory (allocating %zu bytes)\n", n);
	if (on_fatal)
		on_fatal();
	_exit(1);
}

void *af_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void af_advise_huge(void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
	const uintptr_t huge = (uintptr_t)2 << 20;
	uintptr_t from = ((uintptr_t)p + huge - 1) & ~(huge - 1), to = ((uintptr_t)p + len) & ~(huge - 1);
	if (to > from)
		madvise((void *)from, to - from, MADV_HUGEPAGE);   /* a hint: failure changes nothing */
#else
	(void)p;
	(void)len;
#endif
}

/* From 1 MiB: 2 MiB aligned and rounded up to 2 MiB, so that all of it can
 * be in huge pages: a large malloc starts 16 bytes into a page, and the
 * 4 KiB pages before its first and after its last aligned 2 MiB were each
 * a page fault (15 us on this VM, issue 19). Freed with free(). */
void *af_xmalloc_huge(size_t n)
{
	const size_t huge = (size_t)2 << 20;
	if (n < huge / 2)   /* from 1 MiB: one huge page instead of 256 faults */
		return af_xmalloc(n);
	void *p;
	if (n > SIZE_MAX - huge || posix_memalign(&p, huge, (n + huge - 1) & ~(huge - 1)))
		out_of_memory(n);
	af_advise_huge(p, (n + huge - 1) & ~(huge - 1));
	return p;
}

#if defined(MADV_POPULATE_WRITE) || defined(MADV_POPULATE_READ)
/* madvise(advice) over the pages wholly inside p[0..len); failure (an
 * older kernel) leaves them to fault as before */
static void populate(const void *p, size_t len, int advice)
{
	long size = sysconf(_SC_PAGESIZE);
	uintptr_t page = size > 0 ? (uintptr_t)size : 4096;
	uintptr_t from = ((uintptr_t)p + page - 1) & ~(page - 1), to = ((uintptr_t)p + len) & ~(page - 1);
	if (p && to > from)
		madvise((void *)from, to - from, advice);
}
#endif

void af_prefault(void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	populate(p, len, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)len;
#endif
}

void af_prefault_read(const void *p, size_t len)
{
#ifdef MADV_POPULATE_READ
	populate(p, len, MADV_POPULATE_READ);
#else
	(void)p;
	(void)len;
#endif
}

void *af_xcalloc_huge(size_t count, size_t size)
{
	if (!af_mul_ok(count, size))
		out_of_memory(SIZE_MAX);
	void *p = af_xmalloc_huge(count * size);
	memset(p, 0, count * size);
	return p;
}

void *af_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		out_of_memory(count * size);
	return p;
}

void *af_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

char *af_xstrndup(const char *s, size_t n)
{
	char *p = af_xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

/* The capacity af_grow and af_grow_huge move to: cap doubled (16 at
 * first) until it holds need; its bytes checked to fit a size_t. */
static size_t grown_cap(size_t cap, size_t need, size_t elem)
{
	size_t n = cap ? cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			out_of_memory(SIZE_MAX);
		n *= 2;
	}
	if (!af_mul_ok(n, elem))
		out_of_memory(SIZE_MAX);
	return n;
}

void af_grow(void *array_ptr, size_t *cap, size_t need, size_t elem)
{
	void **array = array_ptr;
	if (need <= *cap)
		return;
	size_t n = grown_cap(*cap, need, elem);
	*array = af_xrealloc(*array, n * elem);
	*cap = n;
}

void af_grow_huge(void *array_ptr, size_t *cap, size_t need, size_t elem)
{
	void **array = array_ptr;
	if (need <= *cap)
		return;
	size_t n = grown_cap(*cap, need, elem);
	if (n * elem < ((size_t)1 << 20)) {
		*array = af_xrealloc(*array, n * elem);
	} else {   /* a copy: realloc keeps the bytes, not the placing */
		void *room = af_xmalloc_huge(n * elem);
		if (*cap)
			memcpy(room, *array, *cap * elem);
		free(*array);
		*array = room;
	}
	*cap = n;
}

void af_bug(const char *file, int line, const char *what)
{
	fprintf(stderr, "aflame-render: BUG: %s:%d: %s\n", file, line, what);
	abort();
}

double af_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const char *af_base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}
