/* inflate.h: zlib and gzip streams (RFC 1950/1952) inflated into memory.
 * Several streams back to back are one input (atrace -z may write more than
 * one; gzip allows members); each end of stream restarts the inflater.
 * Output is bounded: a stream that inflates past the limit is refused, so a
 * zlib bomb costs at most `limit` bytes of memory. */
#ifndef AF_INFLATE_H
#define AF_INFLATE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "core/buf.h"
#include "core/diag.h"

/* Largest output ever allowed, whatever the input size. */
#define AF_INFLATE_MAX ((uint64_t)4 << 30)

/* True if data starts a zlib stream (CMF/FLG check) or a gzip member. */
bool af_inflate_is_zlib(const uint8_t *data, size_t len);
bool af_inflate_is_gzip(const uint8_t *data, size_t len);

/* The limit for an input of len compressed bytes: 64 times its size plus
 * 64 MiB, at most cap (--max-input-size; 0: none) and AF_INFLATE_MAX. */
uint64_t af_inflate_limit(size_t len, uint64_t cap);

/* Inflate every zlib or gzip stream in data (stopping at bytes that start
 * neither) and append the result to out. *consumed (may be NULL) is the
 * number of input bytes used. Returns 0, or -1 with diag set: corrupt or
 * truncated data (with its offset), or output above limit. */
int af_inflate(const uint8_t *data, size_t len, uint64_t limit, struct af_buf *out,
	       size_t *consumed, struct af_diag *d);

#endif
