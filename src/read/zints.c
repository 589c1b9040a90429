/* zints.c: integer lists as zigzag varints of their differences, in
 * blocks (zints.h). */
#include "zints.h"
#include "core/util.h"

#include <stdlib.h>

enum { FIRST_BLOCK = 64 << 10, BLOCK = 4 << 20, VARINT_MAX = 10 };

void zints_push(struct zints *a, int64_t v)
{
	uint64_t d = (uint64_t)v - a->last;
	uint64_t z = d << 1 ^ (uint64_t)-(int64_t)(d >> 63);
	a->last = (uint64_t)v;
	a->n++;
	struct zblock *k = a->nblk ? &a->blk[a->nblk - 1] : NULL;
	if (!k || k->cap - k->len < VARINT_MAX) {
		af_grow(&a->blk, &a->cap_blk, a->nblk + 1, sizeof *a->blk);
		size_t cap = a->nblk ? BLOCK : FIRST_BLOCK;
		k = &a->blk[a->nblk++];
		*k = (struct zblock){ af_xmalloc_huge(cap), 0, cap };
	}
	uint8_t *p = k->b + k->len;
	for (; z >= 0x80; z >>= 7)
		*p++ = (uint8_t)(z | 0x80);
	*p++ = (uint8_t)z;
	k->len = (size_t)(p - k->b);
}

int64_t zints_next(const struct zints *a, struct zcursor *at)
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

struct zmark zints_mark(const struct zints *a)
{
	return (struct zmark){ a->nblk, a->nblk ? a->blk[a->nblk - 1].len : 0, a->n, a->last };
}

void zints_rewind(struct zints *a, struct zmark m)
{
	while (a->nblk > m.nblk)
		free(a->blk[--a->nblk].b);
	if (a->nblk)
		a->blk[a->nblk - 1].len = m.len;
	a->n = m.n;
	a->last = m.last;
}

void zints_release(struct zints *a)
{
	zints_rewind(a, (struct zmark){ 0, 0, 0, 0 });
	free(a->blk);
	a->blk = NULL;
	a->cap_blk = 0;
}
