/* inflate.c: zlib/gzip to memory with an output limit, through zlib. */
#include "inflate.h"

#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <zlib.h>

/* The first bytes of a zlib stream inflate without error: text such as
 * "x^..." can pass the two-byte header check, but not this. */
static bool inflates(const uint8_t *p, size_t len)
{
	uint8_t out[256];
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit(&z) != Z_OK)
		return false;
	z.next_in = (Bytef *)(uintptr_t)p;
	z.avail_in = (uInt)(len < 4096 ? len : 4096);
	z.next_out = out;
	z.avail_out = sizeof out;
	int rc = inflate(&z, Z_NO_FLUSH);
	inflateEnd(&z);
	return rc == Z_OK || rc == Z_STREAM_END || (rc == Z_BUF_ERROR && z.total_out > 0);
}

bool af_inflate_is_zlib(const uint8_t *p, size_t len)
{
	/* CM = 8 (deflate), window <= 32 KiB, FCHECK makes CMF*256+FLG a
	 * multiple of 31, no preset dictionary (no writer of ours uses one) */
	return len >= 2 && (p[0] & 0x0f) == 8 && (p[0] >> 4) <= 7 &&
	       ((unsigned)p[0] * 256 + p[1]) % 31 == 0 && !(p[1] & 0x20) && inflates(p, len);
}

bool af_inflate_is_gzip(const uint8_t *p, size_t len)
{
	return len >= 3 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8;
}

uint64_t af_inflate_limit(size_t len, uint64_t cap)
{
	uint64_t lim = (uint64_t)64 << 20;
	if ((uint64_t)len < (AF_INFLATE_MAX - lim) / 64)
		lim += (uint64_t)len * 64;
	else
		lim = AF_INFLATE_MAX;
	if (cap && cap < lim)
		lim = cap;
	return lim < AF_INFLATE_MAX ? lim : AF_INFLATE_MAX;
}

/* Offsets are within the compressed layer, which may itself be decoded. */
static int zerror(struct af_diag *d, uint64_t offset, int rc, const z_stream *z)
{
	if (rc == Z_BUF_ERROR || rc == Z_OK)
		return af_diag_error(d, "compressed data is truncated (after %" PRIu64 " compressed bytes)", offset);
	return af_diag_error(d, "corrupt compressed data at compressed byte %" PRIu64 " (%s)", offset,
			     z->msg ? z->msg : rc == Z_MEM_ERROR ? "out of memory" : "zlib error");
}

/* One stream starting at data[*pos]; appends to out, advances *pos. */
static int one_stream(z_stream *z, const uint8_t *data, size_t len, size_t *pos,
		      uint64_t limit, struct af_buf *out, struct af_diag *d)
{
	if (inflateReset2(z, 15 + 32) != Z_OK)   /* +32: zlib or gzip header */
		return af_diag_error(d, "cannot start the inflater");
	int rc = Z_OK;
	while (rc != Z_STREAM_END) {
		if (out->len >= limit)
			return af_diag_error(d, "decompressed data exceeds %" PRIu64 " bytes (zlib bomb?)", limit);
		size_t room = (size_t)(limit - out->len) < ((size_t)1 << 20) ? (size_t)(limit - out->len) : (size_t)1 << 20;
		af_buf_reserve(out, room);
		size_t in_left = len - *pos;
		uInt avail = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
		z->next_in = (Bytef *)(uintptr_t)(data ? data + *pos : data);   /* an empty field has no bytes at all */
		z->avail_in = avail;
		z->next_out = (Bytef *)out->data + out->len;
		z->avail_out = (uInt)room;
		rc = inflate(z, Z_NO_FLUSH);
		*pos += avail - z->avail_in;
		out->len += room - z->avail_out;
		out->data[out->len] = 0;
		if (rc == Z_STREAM_END)
			break;
		if (rc == Z_BUF_ERROR && z->avail_out == 0)
			continue;   /* output full: go round for more room */
		if (rc != Z_OK)
			return zerror(d, *pos, rc, z);
		if (*pos >= len && z->avail_out != 0)
			return zerror(d, *pos, Z_BUF_ERROR, z);
	}
	return 0;
}

int af_inflate(const uint8_t *data, size_t len, uint64_t limit, struct af_buf *out,
	       size_t *consumed, struct af_diag *d)
{
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, 15 + 32) != Z_OK)
		return af_diag_error(d, "cannot start the inflater (out of memory?)");
	size_t pos = 0;
	int rc = 0;
	do {
		rc = one_stream(&z, data, len, &pos, limit, out, d);
	} while (rc == 0 && pos < len &&
		 (af_inflate_is_zlib(data + pos, len - pos) || af_inflate_is_gzip(data + pos, len - pos)));
	inflateEnd(&z);
	if (consumed)
		*consumed = pos;
	return rc;
}
