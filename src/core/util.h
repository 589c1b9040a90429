/* util.h: allocation that never returns NULL, overflow-checked sizes, and
 * the internal-invariant check AF_BUG(). Out of memory in this CLI prints
 * one line and aborts; sizes read from files are checked *before* they reach
 * an allocator (af_mul_ok), so a hostile count never becomes a huge malloc. */
#ifndef AF_UTIL_H
#define AF_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define AF_NONE UINT32_MAX   /* "no node", "no name": the null index */

void *af_xmalloc(size_t n);               /* caller frees with free() */
void *af_xcalloc(size_t count, size_t size);
/* Ask for huge pages for the whole 2 MiB pages inside p[0..len), before
 * they are touched: a large array written at random (a hash table, one
 * entry per node) then takes a page fault per 2 MiB instead of per 4 KiB,
 * where the kernel gives huge pages on request (transparent_hugepage
 * "madvise", the default of many distributions); elsewhere it does nothing. */
void af_advise_huge(void *p, size_t len);
/* A large array (1 MiB or more) placed so that huge pages can hold all of
 * it (af_advise_huge), zeroed by the _calloc one; smaller ones as
 * af_xmalloc. Freed with free(); realloc keeps the bytes, not the placing. */
void *af_xmalloc_huge(size_t n);
/* Make the pages of p[0..len) (those wholly inside) now, as a first
 * write to each would, without writing them: the kernel's zeroing of each
 * then happens on the thread that calls this, not on the one that later
 * writes them (a second thread can take that work off the first). Nothing
 * where the kernel cannot (MADV_POPULATE_WRITE: Linux 5.14). */
void af_prefault(void *p, size_t len);
/* The same for reading: the pages of a file's mapping read in now
 * (MADV_POPULATE_READ), not a fault at a time as they are first read. */
void af_prefault_read(const void *p, size_t len);
void *af_xcalloc_huge(size_t count, size_t size);
void *af_xrealloc(void *p, size_t n);
char *af_xstrndup(const char *s, size_t n);

/* Grow *array (of elem bytes each) so that it holds at least need elements;
 * *cap is updated. Capacity doubles, so appends are amortised O(1). */
/* Called once before the process exits on an allocation failure (output.c
 * removes its temporary files); it must only do async-signal-safe work. */
void af_set_fatal_hook(void (*hook)(void));
void af_grow(void *array_ptr, size_t *cap, size_t need, size_t elem);
/* The same for an array that grows large: from 1 MiB in huge pages
 * (af_xmalloc_huge), a page fault per 2 MiB, not per 4 KiB. */
void af_grow_huge(void *array_ptr, size_t *cap, size_t need, size_t elem);

static inline bool af_mul_ok(size_t a, size_t b)
{
	return b == 0 || a <= SIZE_MAX / b;
}

/* Seconds on the monotonic clock, for deadlines and progress. */
double af_now(void);

/* The last component of a path (the path itself when it has no slash). */
const char *af_base_name(const char *path);

_Noreturn void af_bug(const char *file, int line, const char *what);
#define AF_BUG(what) af_bug(__FILE__, __LINE__, (what))

#endif
