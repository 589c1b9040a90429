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

/* The next value; the caller reads no more than a->n of them. Inline: a
 * .cpuprofile's fold reads two a sample. */
static inline int64_t zints_next(const struct zints *a, struct zcursor *at)
{
	const struct zblock *k = &a->blk[at->blk];
	if (at->at == k->len) {   /* (a block holds at least one value) */
		k++;
		at->blk++;
		at->at = 0;
	}
	const uint8_t *p = k->b + at->at;
	uint64_t z = 0;
	for (unsigned shift = 0;; shift += 7) {
		uint8_t b = *p++;
		z |= (uint64_t)(b & 0x7f) << shift;
		if (b < 0x80)
			break;
	}
	at->at = (size_t)(p - k->b);
	at->last += z >> 1 ^ (uint64_t)-(int64_t)(z & 1);
	return (int64_t)at->last;
}
struct zmark zints_mark(const struct zints *a);
/* Drop what was pushed since m was taken. */
void zints_rewind(struct zints *a, struct zmark m);
void zints_release(struct zints *a);

#endif
