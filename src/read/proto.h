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

#endif
