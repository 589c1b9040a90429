/* proto.h: a protobuf wire-format walker over a byte range (Perfetto traces,
 * simpleperf's report-sample records and perf.data features). No schema and
 * no message trees: a reader asks for the next field and keeps what it
 * needs. Every length is checked against what is left of the enclosing
 * message, so a hostile file can only make a walk fail, never read past
 * its end. Offsets are file offsets (base + position), for messages.
 * Wire format: https://protobuf.dev/programming-guides/encoding/ */
#ifndef AF_PROTO_H
#define AF_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "cursor.h"

enum af_wire { AF_WIRE_VARINT = 0, AF_WIRE_I64 = 1, AF_WIRE_LEN = 2, AF_WIRE_I32 = 5 };

struct af_proto {
	struct af_cursor c;
	uint64_t base;            /* file offset of data[0] */
	uint64_t error_offset;    /* where a malformed field starts */
	const char *error;        /* what was wrong with it, or NULL */
};

struct af_proto_field {
	uint32_t num;             /* field number */
	enum af_wire wire;
	uint64_t u;               /* varint, I64 or I32 value */
	const uint8_t *data;      /* AF_WIRE_LEN: the bytes */
	size_t len;
	uint64_t offset;          /* file offset of the field's tag */
};

static inline void af_proto_init(struct af_proto *m, const uint8_t *data, size_t len, uint64_t base)
{
	*m = (struct af_proto){ .c = { data, len, 0 }, .base = base };
}

static inline int af_proto_fail(struct af_proto *m, uint64_t at, const char *why)
{
	m->error_offset = m->base + at;
	m->error = why;
	return -1;
}

/* The next field: 1 with *f filled, 0 at the end of the message, -1 when the
 * bytes are not a well-formed field (m->error, m->error_offset say why and
 * where). Groups (wire types 3 and 4, deprecated) are malformed here. */
static inline int af_proto_next(struct af_proto *m, struct af_proto_field *f)
{
	size_t at = m->c.pos;
	uint64_t tag;
	if (af_cursor_left(&m->c) == 0)
		return 0;
	if (!af_cursor_uleb(&m->c, &tag))
		return af_proto_fail(m, at, "truncated field tag");
	if (tag >> 3 == 0 || tag >> 3 > 0x1fffffff)
		return af_proto_fail(m, at, "field number 0 or too large");
	f->num = (uint32_t)(tag >> 3);
	f->wire = (enum af_wire)(tag & 7);
	f->offset = m->base + at;
	f->data = NULL;
	f->len = 0;
	f->u = 0;
	switch (tag & 7) {
	case AF_WIRE_VARINT:
		return af_cursor_uleb(&m->c, &f->u) ? 1 : af_proto_fail(m, at, "truncated varint");
	case AF_WIRE_I64:
		return af_cursor_u64(&m->c, &f->u) ? 1 : af_proto_fail(m, at, "truncated 64-bit field");
	case AF_WIRE_I32:
		return af_cursor_uint(&m->c, 4, &f->u) ? 1 : af_proto_fail(m, at, "truncated 32-bit field");
	case AF_WIRE_LEN: {
		uint64_t n;
		if (!af_cursor_uleb(&m->c, &n))
			return af_proto_fail(m, at, "truncated length");
		if (n > af_cursor_left(&m->c))
			return af_proto_fail(m, at, "length runs past the end of its message");
		f->len = (size_t)n;
		af_cursor_bytes(&m->c, f->len, &f->data);
		return 1;
	}
	default:
		return af_proto_fail(m, at, "unknown wire type");
	}
}

/* Walk the message held by a length-delimited field. */
static inline void af_proto_sub(const struct af_proto *outer, const struct af_proto_field *f,
				struct af_proto *inner)
{
	af_proto_init(inner, f->data, f->len, outer->base + (uint64_t)(f->data - outer->c.data));
}

/* Packed repeated varints (a length-delimited field): the next value; false
 * at the end or when the packing is malformed (*bad then set). */
static inline bool af_proto_packed_next(struct af_cursor *packed, uint64_t *v, bool *bad)
{
	if (af_cursor_left(packed) == 0)
		return false;
	if (af_cursor_uleb(packed, v))
		return true;
	*bad = true;
	return false;
}

/* Packed varints all at once: decoded into dst (room for len values: no
 * value is shorter than a byte); their count, or SIZE_MAX when one is cut
 * short or longer than ten bytes. No call and no bounds check per byte
 * beyond the end's; ids and values of two or three bytes (pprof's location
 * ids, most of a profile) are read without a loop. */
static inline size_t af_proto_unpack(const uint8_t *p, size_t len, uint64_t *dst)
{
	const uint8_t *e = p + len;
	size_t n = 0;
	while (p < e) {
		uint64_t v = *p++;
		if (v >= 0x80 && e - p >= 2 && (p[0] < 0x80 || p[1] < 0x80)) {
			v = (v & 0x7f) | (uint64_t)(p[0] & 0x7f) << 7;
			if (*p++ >= 0x80)
				v |= (uint64_t)*p++ << 14;
		} else if (v >= 0x80) {
			v &= 0x7f;
			for (unsigned shift = 7;; shift += 7) {
				if (p == e || shift > 63)
					return SIZE_MAX;
				uint8_t b = *p++;
				v |= (uint64_t)(b & 0x7f) << shift;
				if (!(b & 0x80))
					break;
			}
		}
		dst[n++] = v;
	}
	return n;
}

static inline int64_t af_proto_zigzag(uint64_t u)
{
	return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* A varint field read as a signed int64 (two's complement, not zigzag). */
static inline int64_t af_proto_int64(uint64_t u)
{
	int64_t v;
	memcpy(&v, &u, sizeof v);
	return v;
}

/* ---- a fast path, for the hot loops of a reader ----
 * The same varints and fields as af_proto_next reads, without a field
 * record: a reader that knows the layout of its commonest message reads it
 * in place (Perfetto's ftrace events) and leaves anything else to the
 * walker, which says what is malformed and where. */

/* A field's tag byte, for a field number below 16. */
#define AF_PROTO_TAG(num, wire) ((unsigned)(num) << 3 | (unsigned)(wire))

/* The fast path is worth having only inlined into its loop. */
#if defined(__GNUC__)
#define AF_PROTO_HOT static inline __attribute__((always_inline))
#else
#define AF_PROTO_HOT static inline
#endif

/* The 7-bit groups of the first 8 bytes of a varint (continuation bits
 * and bytes past its end already zero), joined pairwise: 8 groups of 7
 * bits, then 4 of 14, then 2 of 28. */
AF_PROTO_HOT uint64_t af_proto_pack7(uint64_t w)
{
	w = (w & 0x007f007f007f007full) | (w & 0x7f007f007f007f00ull) >> 1;
	w = (w & 0x00003fff00003fffull) | (w & 0x3fff00003fff0000ull) >> 2;
	return (w & 0x000000000fffffffull) | (w & 0x0fffffff00000000ull) >> 4;
}

/* A varint of more than two bytes at *q (see af_proto_fast_varint). */
static inline bool af_proto_long_varint(const uint8_t **q, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *q;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - p >= 16) {
		uint64_t w, w2;
		memcpy(&w, p, sizeof w);
		uint64_t stop = ~w & 0x8080808080808080ull;
		if (stop) {   /* ends in these 8 bytes: at the first clear top bit */
			unsigned bits = (unsigned)__builtin_ctzll(stop) + 1;
			*v = af_proto_pack7(bits < 64 ? w & ((1ull << bits) - 1) : w);
			*q = p + bits / 8;
			return true;
		}
		memcpy(&w2, p + 8, sizeof w2);
		if (!(w2 & 0x80)) {
			*v = af_proto_pack7(w) | (w2 & 0x7f) << 56;
			*q = p + 9;
			return true;
		}
		if (!(w2 & 0x8000)) {
			*v = af_proto_pack7(w) | (w2 & 0x7f) << 56 | (w2 >> 8 & 1) << 63;
			*q = p + 10;
			return true;
		}
		return false;
	}
#endif
	uint64_t x = 0;
	for (unsigned i = 0; i < 10 && p < end; i++) {
		uint8_t b = *p++;
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*v = x;
			*q = p;
			return true;
		}
	}
	return false;
}

/* A varint at *q, as af_cursor_uleb reads it (at most 10 bytes, bits past
 * the 64th dropped), 8 bytes at a time where 16 are left; *q moves past
 * it. Most are one byte (tags, lengths, small numbers), two (thread ids,
 * short lengths) or at most eight (timestamps): those are read here,
 * longer ones by af_proto_long_varint. */
AF_PROTO_HOT bool af_proto_fast_varint(const uint8_t **q, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *q;
	if (p < end && p[0] < 0x80) {
		*v = p[0];
		*q = p + 1;
		return true;
	}
	if (end - p >= 2 && p[1] < 0x80) {
		*v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		*q = p + 2;
		return true;
	}
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - p >= 16) {
		uint64_t w;
		memcpy(&w, p, sizeof w);
		uint64_t stop = ~w & 0x8080808080808080ull;
		if (stop) {   /* ends in these 8 bytes: at the first clear top bit */
			unsigned bits = (unsigned)__builtin_ctzll(stop) + 1;
			*v = af_proto_pack7(bits < 64 ? w & ((1ull << bits) - 1) : w);
			*q = p + bits / 8;
			return true;
		}
	}
#endif
	return af_proto_long_varint(q, end, v);
}

/* Past a field of wire type `wire` whose tag was just read (its value not
 * wanted), or NULL when it is no well-formed field. */
AF_PROTO_HOT const uint8_t *af_proto_skip_value(const uint8_t *p, const uint8_t *end, unsigned wire)
{
	uint64_t v;
	switch (wire) {
	case AF_WIRE_VARINT:   /* its end: the first byte below 0x80, of at most 10 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (end - p >= 16) {
			uint64_t w;
			memcpy(&w, p, sizeof w);
			uint64_t stop = ~w & 0x8080808080808080ull;
			if (stop)
				return p + ((unsigned)__builtin_ctzll(stop) + 1) / 8;
			return p[8] < 0x80 ? p + 9 : p[9] < 0x80 ? p + 10 : NULL;
		}
#endif
		return af_proto_fast_varint(&p, end, &v) ? p : NULL;
	case AF_WIRE_I64:
		return end - p >= 8 ? p + 8 : NULL;
	case AF_WIRE_I32:
		return end - p >= 4 ? p + 4 : NULL;
	case AF_WIRE_LEN:
		return af_proto_fast_varint(&p, end, &v) && v <= (uint64_t)(end - p) ? p + v : NULL;
	default:
		return NULL;
	}
}

/* A length-delimited value at p: its bytes [*data, return), or NULL. */
AF_PROTO_HOT const uint8_t *af_proto_len_value(const uint8_t *p, const uint8_t *end, const uint8_t **data)
{
	uint64_t n;
	if (!af_proto_fast_varint(&p, end, &n) || n > (uint64_t)(end - p))
		return NULL;
	*data = p;
	return p + n;
}

/* A one-byte length at *r of a value that runs exactly to end; *r moves
 * past the length. */
AF_PROTO_HOT bool af_proto_len_to_end(const uint8_t **r, const uint8_t *end)
{
	const uint8_t *p = *r;
	if (p < end && *p < 0x80 && (size_t)(end - p) == 1u + *p) {
		*r = p + 1;
		return true;
	}
	return false;
}

#endif
