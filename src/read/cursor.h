/* cursor.h: bounds-checked little-endian reader over a byte range.
 * Every read of a binary format goes through these, so a truncated or
 * hostile file can only make a read fail, never read past the end. A failed
 * read leaves the cursor where it was; c->pos is the byte offset to report. */
#ifndef AF_CURSOR_H
#define AF_CURSOR_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

struct af_cursor {
	const uint8_t *data;
	size_t len, pos;
};

static inline size_t af_cursor_left(const struct af_cursor *c)
{
	return c->len - c->pos;
}

static inline bool af_cursor_skip(struct af_cursor *c, size_t n)
{
	if (af_cursor_left(c) < n)
		return false;
	c->pos += n;
	return true;
}

static inline uint64_t af_le(const uint8_t *p, unsigned n)
{
	/* the common widths spelled out, which compilers make one load (the
	 * loop below stays a loop: it was a fifth of reading a perf.data) */
	if (n == 8)
		return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
		       (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
	if (n == 4)
		return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
	uint64_t v = 0;
	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* Read an n-byte (1..8) little-endian unsigned integer. */
static inline bool af_cursor_uint(struct af_cursor *c, unsigned n, uint64_t *v)
{
	if (af_cursor_left(c) < n)
		return false;
	*v = af_le(c->data + c->pos, n);
	c->pos += n;
	return true;
}

static inline bool af_cursor_u8(struct af_cursor *c, uint8_t *v)
{
	uint64_t x;
	if (!af_cursor_uint(c, 1, &x))
		return false;
	*v = (uint8_t)x;
	return true;
}

static inline bool af_cursor_u16(struct af_cursor *c, uint16_t *v)
{
	uint64_t x;
	if (!af_cursor_uint(c, 2, &x))
		return false;
	*v = (uint16_t)x;
	return true;
}

static inline bool af_cursor_u32(struct af_cursor *c, uint32_t *v)
{
	uint64_t x;
	if (!af_cursor_uint(c, 4, &x))
		return false;
	*v = (uint32_t)x;
	return true;
}

static inline bool af_cursor_u64(struct af_cursor *c, uint64_t *v)
{
	return af_cursor_uint(c, 8, v);
}

/* Point *p at the next n bytes and step over them. */
static inline bool af_cursor_bytes(struct af_cursor *c, size_t n, const uint8_t **p)
{
	if (af_cursor_left(c) < n)
		return false;
	*p = c->data + c->pos;
	c->pos += n;
	return true;
}

/* LEB128 (at most 10 bytes for 64 bits); false if truncated or too long. */
static inline bool af_cursor_uleb(struct af_cursor *c, uint64_t *v)
{
	uint64_t x = 0;
	for (size_t i = 0, p = c->pos; i < 10 && p < c->len; i++, p++) {
		uint8_t b = c->data[p];
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			c->pos = p + 1;
			*v = x;
			return true;
		}
	}
	return false;
}

static inline bool af_cursor_sleb(struct af_cursor *c, int64_t *v)
{
	uint64_t x = 0;
	for (size_t i = 0, p = c->pos; i < 10 && p < c->len; i++, p++) {
		uint8_t b = c->data[p];
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			unsigned shift = 7 * (unsigned)(i + 1);
			if (shift < 64 && (b & 0x40))
				x |= ~(uint64_t)0 << shift;
			c->pos = p + 1;
			memcpy(v, &x, sizeof x);
			return true;
		}
	}
	return false;
}

#endif
