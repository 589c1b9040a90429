/* zints.c: integer lists as zigzag varints of their differences, in
 * blocks (zints.h). */
#include "zints.h"
#include "core/util.h"

#include <stdlib.h>

enum { FIRST_BLOCK = 64 << 10, BLOCK = 4 << 20, VARINT_MAX = 10 };

/* The last block, with room for at least `values` varints more (a new
 * block if not). */
static struct zblock *room(struct zints *a, size_t values)
{
	struct zblock *k = a->nblk ? &a->blk[a->nblk - 1] : NULL;
	if (!k || (k->cap - k->len) / VARINT_MAX < values) {
		af_grow(&a->blk, &a->cap_blk, a->nblk + 1, sizeof *a->blk);
		size_t cap = a->nblk ? BLOCK : FIRST_BLOCK;
		k = &a->blk[a->nblk++];
		*k = (struct zblock){ af_xmalloc_huge(cap), 0, cap };
	}
	return k;
}

/* v's varints at p (room made for them); returns the end. */
static uint8_t *put(uint8_t *p, const int64_t *v, size_t n, uint64_t *last)
{
	uint64_t prev = *last;
	for (size_t i = 0; i < n; i++) {
		uint64_t d = (uint64_t)v[i] - prev;
		uint64_t z = d << 1 ^ (uint64_t)-(int64_t)(d >> 63);
		prev = (uint64_t)v[i];
		for (; z >= 0x80; z >>= 7)
			*p++ = (uint8_t)(z | 0x80);
		*p++ = (uint8_t)z;
	}
	*last = prev;
	return p;
}

void zints_push(struct zints *a, int64_t v)
{
	zints_push_n(a, &v, 1);
}

/* In runs that surely fit the last block's room (a block ends with less
 * than VARINT_MAX bytes unused at most per run: as before, each value
 * pushed into a block with room for the longest). */
void zints_push_n(struct zints *a, const int64_t *v, size_t n)
{
	while (n) {
		struct zblock *k = room(a, 1);
		size_t m = (k->cap - k->len) / VARINT_MAX;
		m = m < n ? m : n;
		k->len = (size_t)(put(k->b + k->len, v, m, &a->last) - k->b);
		a->n += m;
		v += m;
		n -= m;
	}
}

void zints_read(const struct zints *a, struct zcursor *at, int64_t *v, size_t n)
{
	uint64_t last = at->last;
	while (n) {
		const struct zblock *k = &a->blk[at->blk];
		if (at->at == k->len) {
			at->blk++;
			at->at = 0;
			continue;
		}
		const uint8_t *p = k->b + at->at, *end = k->b + k->len;
		for (; n && p < end; n--) {
			uint64_t z = *p++;
			if (z >= 0x80) {   /* (two bytes and more) */
				z &= 0x7f;
				for (unsigned shift = 7;; shift += 7) {
					uint8_t b = *p++;
					z |= (uint64_t)(b & 0x7f) << shift;
					if (b < 0x80)
						break;
				}
			}
			last += z >> 1 ^ (uint64_t)-(int64_t)(z & 1);
			*v++ = (int64_t)last;
		}
		at->at = (size_t)(p - k->b);
	}
	at->last = last;
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
