/* zints.h: a long list of integers kept small (a .cpuprofile's samples,
 * timeDeltas or timestamps: one or two a sample, millions of them): each
 * as the zigzag varint of its difference from the one before (a sample's
 * node is near the one before's in id, a delta is small), 2-3 bytes
 * instead of 8, in blocks that are never copied (after the first 64 KiB,
 * 4 MiB in huge pages: a page fault per 2 MiB, not per 4 KiB). Read back
 * in order through a struct zcursor. */
#ifndef AF_ZINTS_H
#define AF_ZINTS_H

#include <stddef.h>
#include <stdint.h>

struct zblock { uint8_t *b; size_t len, cap; };
struct zints {
	struct zblock *blk;
	size_t nblk, cap_blk;
	size_t n;          /* values pushed */
	uint64_t last;     /* the last one */
};
/* Where a list stood (zints_mark), to go back to (zints_rewind). */
struct zmark { size_t nblk, len, n; uint64_t last; };
struct zcursor { size_t blk, at; uint64_t last; };

void zints_push(struct zints *a, int64_t v);
void zints_push_n(struct zints *a, const int64_t *v, size_t n);

/* The next n values into v, a block's run at a time (the caller reads no
 * more than a->n in all). */
void zints_read(const struct zints *a, struct zcursor *at, int64_t *v, size_t n);
struct zmark zints_mark(const struct zints *a);
/* Drop what was pushed since m was taken. */
void zints_rewind(struct zints *a, struct zmark m);
void zints_release(struct zints *a);

#endif
