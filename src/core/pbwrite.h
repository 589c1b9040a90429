/* pbwrite.h: a protobuf wire-format writer into a growable buffer (the
 * pprof back end's Profile; the tests' and benches' inputs for the
 * protobuf readers). The reading side is read/proto.h. A nested message is
 * opened, written in place and closed: its length is put in front of it on
 * closing, moving the message only when the length needs more than one
 * byte. Wire format: https://protobuf.dev/programming-guides/encoding/ */
#ifndef AF_PBWRITE_H
#define AF_PBWRITE_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

/* A raw varint (LEB128) */
void af_pb_varint(struct af_buf *b, uint64_t v);
/* For a field built in place: v's varint into p (room for 10 bytes), and
 * how many bytes that is */
size_t af_pb_put_varint(uint8_t *p, uint64_t v);
size_t af_pb_varint_len(uint64_t v);
/* field `num` as a varint (int64 values cast: two's complement, as
 * protobuf's int64 is) */
void af_pb_uint(struct af_buf *b, uint32_t num, uint64_t v);
/* field `num` as little-endian 64 bits */
void af_pb_fixed64(struct af_buf *b, uint32_t num, uint64_t v);
/* field `num` holding len bytes (a string or an encoded message) */
void af_pb_bytes(struct af_buf *b, uint32_t num, const void *data, size_t len);
void af_pb_str(struct af_buf *b, uint32_t num, const char *s);
/* field `num` as packed varints */
void af_pb_packed(struct af_buf *b, uint32_t num, const uint64_t *v, size_t n);

/* Open a message in field `num`; returns its mark for af_pb_close. Opened
 * messages close innermost first. */
size_t af_pb_open(struct af_buf *b, uint32_t num);
void af_pb_close(struct af_buf *b, size_t mark);

#endif
