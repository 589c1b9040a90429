/* test_png.c: PNG files as a decoder sees them: chunk CRCs, the header,
 * text chunks (tEXt for Latin-1, iTXt otherwise), image data split over
 * several IDAT chunks that inflate to the pixels, unfiltered. */
#include "render/png.h"
#include "read/inflate.h"
#include "harness.h"

#include <stdlib.h>
#include <zlib.h>

static uint32_t be32(const unsigned char *b)
{
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

/* chunk i of the file (after the signature): type, data and length */
struct chunk { char type[5]; const unsigned char *data; uint32_t len; };

static size_t chunks(const struct af_buf *f, struct chunk *out, size_t max)
{
	size_t n = 0, at = 8;
	while (at + 12 <= f->len && n < max) {
		const unsigned char *p = (const unsigned char *)f->data + at;
		uint32_t len = be32(p);
		if (len > f->len - at - 12)
			break;
		uLong crc = crc32(crc32(0L, Z_NULL, 0), p + 4, len + 4);
		INT_EQ(be32(p + 8 + len), crc);
		memcpy(out[n].type, p + 4, 4);
		out[n].type[4] = 0;
		out[n].data = p + 8;
		out[n].len = len;
		n++;
		at += 12 + (size_t)len;
	}
	INT_EQ(at, f->len);
	return n;
}

void test_png_file(void)
{
	enum { W = 300, H = 70, STRIDE = W * 4 + 16 };
	unsigned char *px = malloc((size_t)STRIDE * H);
	uint32_t seed = 1;
	for (size_t y = 0; y < H; y++)
		for (size_t x = 0; x < W; x++) {
			seed = seed * 1103515245u + 12345u;
			/* the top byte is not a channel: it must not reach the file */
			uint32_t v = 0xab000000u | (seed >> 8 & 0xffffffu);
			memcpy(px + y * STRIDE + x * 4, &v, 4);
		}
	static const struct af_png_text text[] = {
		{ "Title", "caf\xc3\xa9" },            /* Latin-1: tEXt */
		{ "Description", "\xce\xa9mega" },     /* not: iTXt */
		{ "Software", "bad \xff byte" },       /* repaired: U+FFFD, iTXt */
	};
	struct af_buf f;
	af_buf_init(&f);
	struct af_sink s;
	af_sink_init(&s, af_write_buf, &f);
	struct af_diag d;
	af_diag_init(&d, "t.png");
	INT_EQ(af_png_write(&s, px, W, H, STRIDE, text, 3, &d), 0);
	INT_EQ(af_sink_finish(&s), 0);
	OK(f.len > 8 && memcmp(f.data, "\x89PNG\r\n\x1a\n", 8) == 0);

	struct chunk c[64];
	size_t n = chunks(&f, c, 64);
	OK(n >= 8);
	STR_EQ(c[0].type, "IHDR");
	INT_EQ(c[0].len, 13);
	INT_EQ(be32(c[0].data), W);
	INT_EQ(be32(c[0].data + 4), H);
	OK(memcmp(c[0].data + 8, "\x08\x02\x00\x00\x00", 5) == 0);
	STR_EQ(c[1].type, "tEXt");
	OK(c[1].len == 10 && memcmp(c[1].data, "Title\0caf\xe9", 10) == 0);
	STR_EQ(c[2].type, "iTXt");
	OK(c[2].len == 16 + 6 && memcmp(c[2].data, "Description\0\0\0\0\0\xce\xa9mega", 22) == 0);
	STR_EQ(c[3].type, "iTXt");
	OK(c[3].len == 13 + 12 && memcmp(c[3].data, "Software\0\0\0\0\0bad \xef\xbf\xbd byte", 25) == 0);
	STR_EQ(c[4].type, "bKGD");
	STR_EQ(c[n - 1].type, "IEND");

	/* the image data: several IDAT chunks, one zlib stream */
	struct af_buf z, raw;
	af_buf_init(&z);
	af_buf_init(&raw);
	size_t idats = 0;
	for (size_t i = 5; i + 1 < n; i++) {
		STR_EQ(c[i].type, "IDAT");
		af_buf_add(&z, c[i].data, c[i].len);
		idats++;
	}
	OK(idats >= 2);
	INT_EQ(af_inflate((const uint8_t *)z.data, z.len, 1 << 20, &raw, NULL, &d), 0);
	INT_EQ(raw.len, (size_t)H * (1 + W * 3));
	size_t bad = 0;
	for (size_t y = 0; y < H && raw.len == (size_t)H * (1 + W * 3); y++) {
		const unsigned char *row = (const unsigned char *)raw.data + y * (1 + W * 3);
		bad += row[0] != 0;
		for (size_t x = 0; x < W; x++) {
			uint32_t v;
			memcpy(&v, px + y * STRIDE + x * 4, 4);
			bad += row[1 + 3 * x] != (v >> 16 & 255) || row[2 + 3 * x] != (v >> 8 & 255) ||
			       row[3 + 3 * x] != (v & 255);
		}
	}
	INT_EQ(bad, 0);
	af_buf_release(&raw);
	af_buf_release(&z);
	af_buf_release(&f);
	free(px);
}

void test_png_sizes_refused(void)
{
	uint32_t px[4] = { 0 };
	struct af_buf f;
	af_buf_init(&f);
	struct af_sink s;
	af_sink_init(&s, af_write_buf, &f);
	struct af_diag d;
	af_diag_init(&d, "t.png");
	INT_EQ(af_png_write(&s, px, 0, 1, 16, NULL, 0, &d), -1);
	af_diag_init(&d, "t.png");
	INT_EQ(af_png_write(&s, px, 4, 1, 8, NULL, 0, &d), -1);   /* stride < a row */
	af_diag_init(&d, "t.png");
	INT_EQ(af_png_write(&s, px, 2, 2, 8, NULL, 0, &d), 0);
	af_sink_finish(&s);
	af_buf_release(&f);
}
