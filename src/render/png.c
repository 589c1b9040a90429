/* png.c: PNG files (signature, IHDR, text chunks, bKGD, IDAT, IEND) with
 * zlib, RGB or RGBA. Rows are stored unfiltered at level 3: on flame graphs this is
 * 4-5 times faster than libpng's default (level 6, every filter tried per
 * row) and within a few per cent of its size, sometimes smaller, because
 * deflate matches each row against the one above by itself (png.h); and a
 * run of rows equal to the one above (a frame row's 15 pixel rows) is not
 * given to deflate at all, but written as copies of the row above
 * (zrows.h). */
#include "png.h"
#include "zrows.h"
#include "core/escape.h"
#include "core/util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define PNG_LEVEL 3
#define IDAT_MAX (32u << 10)     /* bytes of compressed data per IDAT chunk */
#define PNG_SIDE_MAX 0x7fffffffu /* the format's limit for a side */

static void put_be32(unsigned char *b, uint32_t v)
{
	b[0] = (unsigned char)(v >> 24);
	b[1] = (unsigned char)(v >> 16);
	b[2] = (unsigned char)(v >> 8);
	b[3] = (unsigned char)v;
}

static void chunk(struct af_sink *out, const char type[4], const void *data, size_t len)
{
	unsigned char head[8], crc[4];
	put_be32(head, (uint32_t)len);
	memcpy(head + 4, type, 4);
	uLong c = crc32(0L, Z_NULL, 0);
	c = crc32(c, head + 4, 4);
	af_sink_write(out, head, 8);
	if (len) {             /* IEND has no data (and a NULL pointer) */
		c = crc32(c, data, (uInt)len);
		af_sink_write(out, data, len);
	}
	put_be32(crc, (uint32_t)c);
	af_sink_write(out, crc, 4);
}

/* keyword=value as tEXt (Latin-1) when every character of value is in
 * Latin-1, else as iTXt (UTF-8, uncompressed, no language tag). */
static void text_chunk(struct af_sink *out, const struct af_png_text *t)
{
	char *v = af_utf8_clean(t->value, strlen(t->value));
	size_t vlen = strlen(v);
	struct af_buf b;
	af_buf_init(&b);
	af_buf_add(&b, t->key, strlen(t->key) + 1);
	size_t head = b.len;
	bool is_latin1 = true;
	for (size_t i = 0; i < vlen && is_latin1;) {
		uint32_t cp;
		i += af_utf8_next((const unsigned char *)v + i, vlen - i, &cp);
		is_latin1 = cp <= 0xff;
		af_buf_putc(&b, (char)cp);
	}
	if (is_latin1) {
		chunk(out, "tEXt", b.data, b.len);
	} else {
		b.len = head;
		/* no compression, method 0, empty language tag and translated key */
		af_buf_add(&b, "\0\0\0\0", 4);
		af_buf_add(&b, v, vlen);
		chunk(out, "iTXt", b.data, b.len);
	}
	af_buf_release(&b);
	free(v);
}

/* One row: filter type 0 (none), then R, G, B of each pixel (from
 * 0x00RRGGBB words), or R, G, B, A as they are (alpha). */
static void pack_row(unsigned char *row, const unsigned char *src, uint32_t width, bool alpha)
{
	row[0] = 0;
	unsigned char *o = row + 1;
	if (alpha) {
		memcpy(o, src, (size_t)width * 4);
		return;
	}
	for (uint32_t x = 0; x < width; x++, o += 3) {
		uint32_t v;
		memcpy(&v, src + (size_t)x * 4, 4);
		o[0] = (unsigned char)(v >> 16);
		o[1] = (unsigned char)(v >> 8);
		o[2] = (unsigned char)v;
	}
}

/* the zlib stream as IDAT chunks of at most IDAT_MAX bytes */
static void idat_chunks(struct af_sink *out, const struct af_buf *zs)
{
	for (size_t at = 0; at < zs->len; at += IDAT_MAX) {
		size_t n = zs->len - at < IDAT_MAX ? zs->len - at : IDAT_MAX;
		chunk(out, "IDAT", zs->data + at, n);
	}
}

/* The rows, each with the count of rows after it equal to it (zrows.h:
 * such runs cost next to nothing), as one zlib stream, in IDAT chunks. Rows
 * given by the same pointer are equal without a look. */
static int image_data(struct af_sink *out, const unsigned char *const *rows, uint32_t width,
		      uint32_t height, bool alpha, struct af_diag *d)
{
	size_t row_len = 1 + (size_t)width * (alpha ? 4 : 3);
	struct af_buf zs;
	af_buf_init(&zs);
	struct af_zrows *z = af_zrows_new(&zs, PNG_LEVEL, row_len);
	if (!z)
		return af_diag_error(d, "cannot write PNG: out of memory for zlib");
	unsigned char *row = af_xmalloc(row_len), *next = af_xmalloc(row_len);
	int rc = 0;
	pack_row(row, rows[0], width, alpha);
	for (uint32_t y = 0, k; y < height && rc == 0; y += 1 + k) {
		for (k = 0; y + 1 + k < height; k++) {
			if (rows[y + 1 + k] == rows[y])
				continue;
			pack_row(next, rows[y + 1 + k], width, alpha);
			if (memcmp(next, row, row_len) != 0)
				break;
		}
		rc = af_zrows_put(z, row, k);
		unsigned char *t = row;
		row = next;
		next = t;
	}
	rc = af_zrows_finish(z) < 0 ? -1 : rc;
	if (rc == 0)
		idat_chunks(out, &zs);
	af_buf_release(&zs);
	free(row);
	free(next);
	return rc == 0 ? 0 : af_diag_error(d, "cannot write PNG: zlib failed");
}

/* the file around the pixels: colour type 2 (RGB) or 6 (RGBA) */
static int png_file(struct af_sink *out, const unsigned char *const *rows, uint32_t width,
		    uint32_t height, bool alpha, const struct af_png_text *text, size_t ntext,
		    struct af_diag *d)
{
	static const unsigned char signature[8] = { 137, 'P', 'N', 'G', '\r', '\n', 26, '\n' };
	af_sink_write(out, signature, sizeof signature);
	unsigned char ihdr[13];
	put_be32(ihdr, width);
	put_be32(ihdr + 4, height);
	/* 8 bits a channel, RGB or RGBA, deflate, adaptive filtering, no interlace */
	memcpy(ihdr + 8, alpha ? "\x08\x06\x00\x00\x00" : "\x08\x02\x00\x00\x00", 5);
	chunk(out, "IHDR", ihdr, sizeof ihdr);
	for (size_t i = 0; i < ntext; i++)
		text_chunk(out, &text[i]);
	/* a white background, as cairo's writer says */
	if (!alpha)
		chunk(out, "bKGD", "\0\xff\0\xff\0\xff", 6);
	if (image_data(out, rows, width, height, alpha, d) < 0)
		return -1;
	chunk(out, "IEND", NULL, 0);
	return 0;
}

/* a row (filter byte + 3 or 4 bytes a pixel) must fit zlib's uInt too;
 * fits: the caller's rows hold width pixels */
static int size_ok(uint32_t width, uint32_t height, bool alpha, bool fits, struct af_diag *d)
{
	if (!fits || !width || !height || width > PNG_SIDE_MAX || height > PNG_SIDE_MAX ||
	    width > (UINT32_MAX - 1) / (alpha ? 4u : 3u))
		return af_diag_error(d, "cannot write a PNG of %lu x %lu px",
				     (unsigned long)width, (unsigned long)height);
	return 0;
}

int af_png_write(struct af_sink *out, const void *pixels, uint32_t width, uint32_t height,
		 size_t stride, const struct af_png_text *text, size_t ntext, struct af_diag *d)
{
	if (size_ok(width, height, false, stride / 4 >= width, d) < 0)
		return -1;
	const unsigned char **rows = af_xmalloc((size_t)height * sizeof *rows);
	for (uint32_t y = 0; y < height; y++)
		rows[y] = (const unsigned char *)pixels + (size_t)y * stride;
	int rc = png_file(out, rows, width, height, false, text, ntext, d);
	free(rows);
	return rc;
}

int af_png_write_rgba(struct af_sink *out, const unsigned char *const *rows, uint32_t width,
		      uint32_t height, struct af_diag *d)
{
	if (size_ok(width, height, true, true, d) < 0)
		return -1;
	return png_file(out, rows, width, height, true, NULL, 0, d);
}
