/* pack.c: the page's bulk data deflated and in base64 (pack.h). Level 3,
 * as png.c: at 200k frames 1.0 MB of JSON becomes 0.18 MB in about 10 ms,
 * where level 6 gives 0.16 MB for twice the time. */
#include "pack.h"
#include "core/util.h"

#include <stdlib.h>
#include <zlib.h>

#define PACK_LEVEL 3

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* z[0..n) in base64 ('=' padded), a line continuation every AF_PACK_LINE
 * characters */
static void base64(struct af_sink *out, const unsigned char *z, size_t n)
{
	char q[4];
	size_t col = 0;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned)z[i] << 16 | (i + 1 < n ? (unsigned)z[i + 1] << 8 : 0) |
			     (i + 2 < n ? z[i + 2] : 0);
		q[0] = b64[v >> 18];
		q[1] = b64[v >> 12 & 63];
		q[2] = i + 1 < n ? b64[v >> 6 & 63] : '=';
		q[3] = i + 2 < n ? b64[v & 63] : '=';
		if (col == AF_PACK_LINE) {
			af_sink_write(out, "\\\n", 2);
			col = 0;
		}
		af_sink_write(out, q, 4);
		col += 4;
	}
}

int af_pack_string(struct af_sink *out, const char *data, size_t len, struct af_diag *d)
{
	uLongf zlen = compressBound((uLong)len);
	unsigned char *z = af_xmalloc(zlen);
	int rc = compress2(z, &zlen, (const Bytef *)data, (uLong)len, PACK_LEVEL);
	if (rc == Z_OK) {
		af_sink_putc(out, '"');
		base64(out, z, zlen);
		af_sink_putc(out, '"');
	}
	free(z);
	return rc == Z_OK ? 0 : af_diag_error(d, "cannot write SVG: zlib failed (out of memory?)");
}
