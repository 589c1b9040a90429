/* test_zrows.c: zlib streams of rows (render/zrows.h) inflate to exactly
 * the rows given, whatever the runs of equal rows, the rows' length
 * (around a copy's 258 bytes and deflate's 32K window) and the runs of
 * one byte inside them; and a run of equal rows costs a few bytes a row,
 * so an image of 16-row bands compresses far below what deflate makes of
 * it alone. */
#include "render/zrows.h"
#include "render/png.h"
#include "harness.h"

#include <stdlib.h>
#include <zlib.h>

static uint32_t seed = 7;

static unsigned char rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return (unsigned char)(seed >> 16);
}

/* row of kind: random bytes, zeros, zeros with a few bytes set, a run of
 * 0xab a byte or two short of each end, 0xcd throughout (a row of one
 * byte, as zeros, goes into a block whole) */
static void fill(unsigned char *row, size_t n, unsigned kind)
{
	for (size_t i = 0; i < n; i++)
		row[i] = kind == 0 ? rnd() : kind == 3 && i > 1 && i + 1 < n ? 0xab : kind == 4 ? 0xcd : 0;
	if (kind == 2)
		for (size_t i = 0; i < n; i += 1 + rnd() % 300)
			row[i] = rnd();
	if (kind == 3)
		row[n / 2] = 1;
}

/* rows of row_len through a stream, each kind with each run length */
static void round_trip(size_t row_len)
{
	/* none, a few, just under and at the least that is a block, more */
	const uint32_t runs[] = { 0, 1, 3, (uint32_t)((AF_ZROWS_MIN - 1) / row_len),
				  (uint32_t)((AF_ZROWS_MIN + row_len - 1) / row_len), 20, 0 };
	struct af_buf z, want;
	af_buf_init(&z);
	af_buf_init(&want);
	unsigned char *row = malloc(row_len);
	struct af_zrows *s = af_zrows_new(&z, 3, row_len);
	OK(s != NULL);
	for (unsigned kind = 0; kind < 5; kind++)
		for (size_t r = 0; r < sizeof runs / sizeof *runs; r++) {
			fill(row, row_len, (kind + r) % 5);
			INT_EQ(af_zrows_put(s, row, runs[r]), 0);
			for (uint32_t i = 0; i <= runs[r]; i++)
				af_buf_add(&want, row, row_len);
		}
	INT_EQ(af_zrows_finish(s), 0);
	uLongf got_len = (uLongf)want.len;
	unsigned char *got = malloc(want.len);
	/* uncompress checks the Adler-32 too */
	int rc = uncompress(got, &got_len, (const Bytef *)z.data, (uLong)z.len);
	INT_EQ(rc, Z_OK);
	INT_EQ(got_len, want.len);
	OK(rc == Z_OK && memcmp(got, want.data, want.len) == 0);
	free(got);
	free(row);
	af_buf_release(&z);
	af_buf_release(&want);
}

void test_zrows_round_trip(void)
{
	static const size_t lens[] = { 3, 4, 5, 16, 257, 258, 259, 260, 261, 262, 516, 517, 518,
				       4001, 4721, 32768, 32769 };
	for (size_t i = 0; i < sizeof lens / sizeof *lens; i++)
		round_trip(lens[i]);
}

/* where the stream's deflate blocks end, as offsets in what it inflates
 * to; returns how many (at most max) */
static size_t block_ends(const unsigned char *z, size_t len, size_t out_len, size_t *at, size_t max)
{
	z_stream s;
	memset(&s, 0, sizeof s);
	unsigned char *out = malloc(out_len);
	size_t n = 0;
	if (inflateInit(&s) != Z_OK)
		return 0;
	s.next_in = (Bytef *)(uintptr_t)z;
	s.avail_in = (uInt)len;
	s.next_out = out;
	s.avail_out = (uInt)out_len;
	for (int rc = Z_OK; rc == Z_OK;) {
		rc = inflate(&s, Z_BLOCK);
		if ((rc == Z_OK || rc == Z_STREAM_END) && (s.data_type & 128) && n < max)
			at[n++] = s.total_out;
	}
	inflateEnd(&s);
	free(out);
	return n;
}

static bool has(const size_t *at, size_t n, size_t v)
{
	for (size_t i = 0; i < n; i++)
		if (at[i] == v)
			return true;
	return false;
}

/* 1000 x 160 RGBA: 10 bands of 15 equal rows (transparent but for a few
 * hundred random pixels) and a transparent row, as blend.c draws them.
 * Each band's 14 repeated rows and its transparent row are one block of
 * their own, and the whole is smaller than deflate makes it alone. */
void test_zrows_bands_cheap(void)
{
	enum { W = 1000, H = 160, L = 1 + W * 4 };
	unsigned char *px = calloc((size_t)W * 4, H);
	for (size_t band = 0; band < H / 16; band++) {
		unsigned char *row = px + band * 16 * W * 4;
		for (size_t i = 0; i < 300; i++)
			row[(rnd() * 256u + rnd()) % W * 4 + rnd() % 4] = rnd() | 1;
		for (size_t y = 1; y < 15; y++)
			memcpy(row + y * W * 4, row, W * 4);
	}
	struct af_buf f, z;
	af_buf_init(&f);
	af_buf_init(&z);
	struct af_sink s;
	af_sink_init(&s, af_write_buf, &f);
	struct af_diag d;
	af_diag_init(&d, "t.png");
	const unsigned char **rows = malloc(H * sizeof *rows);
	for (size_t y = 0; y < H; y++)
		rows[y] = px + y * W * 4;
	INT_EQ(af_png_write_rgba(&s, rows, W, H, &d), 0);
	free(rows);
	INT_EQ(af_sink_finish(&s), 0);
	/* the IDAT chunks' data, after the signature and IHDR */
	for (size_t at = 8 + 25; at + 12 <= f.len;) {
		const unsigned char *c = (const unsigned char *)f.data + at;
		size_t n = (size_t)c[0] << 24 | (size_t)c[1] << 16 | (size_t)c[2] << 8 | c[3];
		if (memcmp(c + 4, "IDAT", 4) == 0)
			af_buf_add(&z, c + 8, n);
		at += 12 + n;
	}
	size_t ends[256], n = block_ends((const unsigned char *)z.data, z.len, (size_t)H * L,
					 ends, 256);
	for (size_t band = 0; band < H / 16; band++) {
		OK(has(ends, n, (band * 16 + 1) * L));
		OK(has(ends, n, (band * 16 + 16) * L));
	}
	/* deflate alone at level 3 (every row given to it): 16,643 bytes */
	OK(f.len < 14000);
	af_buf_release(&z);
	af_buf_release(&f);
	free(px);
}
