/* pbwrite.c: protobuf wire-format writing (pbwrite.h). */
#include "pbwrite.h"

#include <string.h>

size_t af_pb_varint_len(uint64_t v)
{
	size_t n = 1;
	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

size_t af_pb_put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;
	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

void af_pb_varint(struct af_buf *b, uint64_t v)
{
	af_buf_reserve(b, 10);
	b->len += af_pb_put_varint((uint8_t *)b->data + b->len, v);
	b->data[b->len] = 0;
}

static void tag(struct af_buf *b, uint32_t num, unsigned wire)
{
	af_pb_varint(b, (uint64_t)num << 3 | wire);
}

void af_pb_uint(struct af_buf *b, uint32_t num, uint64_t v)
{
	tag(b, num, 0);
	af_pb_varint(b, v);
}

void af_pb_fixed64(struct af_buf *b, uint32_t num, uint64_t v)
{
	uint8_t le[8];
	for (int i = 0; i < 8; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	tag(b, num, 1);
	af_buf_add(b, le, 8);
}

void af_pb_bytes(struct af_buf *b, uint32_t num, const void *data, size_t len)
{
	tag(b, num, 2);
	af_pb_varint(b, len);
	af_buf_add(b, data, len);
}

void af_pb_str(struct af_buf *b, uint32_t num, const char *s)
{
	af_pb_bytes(b, num, s, strlen(s));
}

void af_pb_packed(struct af_buf *b, uint32_t num, const uint64_t *v, size_t n)
{
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += af_pb_varint_len(v[i]);
	tag(b, num, 2);
	af_pb_varint(b, len);
	af_buf_reserve(b, len);
	uint8_t *p = (uint8_t *)b->data + b->len;
	for (size_t i = 0; i < n; i++)
		p += af_pb_put_varint(p, v[i]);
	b->len += len;
	b->data[b->len] = 0;
}

/* The mark is where the message's one-byte length placeholder is. */
size_t af_pb_open(struct af_buf *b, uint32_t num)
{
	tag(b, num, 2);
	af_buf_putc(b, 0);
	return b->len - 1;
}

void af_pb_close(struct af_buf *b, size_t mark)
{
	size_t len = b->len - mark - 1, n = af_pb_varint_len(len);
	if (n > 1) {
		af_buf_reserve(b, n - 1);
		memmove(b->data + mark + n, b->data + mark + 1, len);
		b->len += n - 1;
		b->data[b->len] = 0;
	}
	af_pb_put_varint((uint8_t *)b->data + mark, len);
}
