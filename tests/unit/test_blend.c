/* test_blend.c: the interactive SVG's blended boxes as an image
 * (render/blend.h): each pixel the mean of its boxes' colours weighted by
 * the area each covers, alpha that area; the PNG it is written as (RGBA)
 * reads back to those pixels; the same boxes give the same bytes. */
#include "render/blend.h"
#include "render/png.h"
#include "read/inflate.h"
#include "harness.h"

#include <stdlib.h>

/* pixel (x, y) of img as 0xRRGGBBAA */
static uint32_t pixel(const struct af_blend_image *img, uint32_t x, uint32_t y)
{
	const unsigned char *p = img->rows[y] + (size_t)x * 4;
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void test_blend_raster_area(void)
{
	/* row 0 (y 100-115): a box at x 10.25, a pixel wide, colour C: pixel 10
	 * covered 0.75, pixel 11 0.25. Row 1 (y 116-131): red over [20, 20.5),
	 * blue over [20.5, 20.75): pixel 20 covered 0.75, two thirds red */
	static const struct af_blend_box b[] = {
		{ 10.25, 100, 1, 0x336699 },
		{ 20.5, 116, 0.25, 0x0000ff },
		{ 20, 116, 0.5, 0xff0000 },
	};
	struct af_blend_image img;
	INT_EQ(af_blend_raster(b, 3, 15, &img), 0);
	INT_EQ(img.x0, 10);
	INT_EQ(img.y0, 100);
	INT_EQ(img.width, 11);    /* 10 to 21 */
	INT_EQ(img.height, 31);   /* 100 to 131 */
	INT_EQ(pixel(&img, 0, 0), 0x336699bfu);   /* 0.75 * 255 = 191.25 */
	INT_EQ(pixel(&img, 1, 0), 0x33669940u);   /* 0.25 * 255 = 63.75 */
	INT_EQ(pixel(&img, 1, 14), 0x33669940u);  /* every scanline of the row */
	INT_EQ(pixel(&img, 0, 15), 0);            /* the gap between rows */
	INT_EQ(pixel(&img, 2, 0), 0);
	INT_EQ(pixel(&img, 10, 16), 0xaa0055bfu); /* 255 * 0.5 / 0.75, 255 * 0.25 / 0.75 */
	INT_EQ(pixel(&img, 10, 30), 0xaa0055bfu);
	INT_EQ(pixel(&img, 9, 16), 0);
	af_blend_image_release(&img);

	/* boxes covering a pixel whole are opaque; none, or too large: no image */
	static const struct af_blend_box whole[] = { { 3, 0, 0.5, 0x102030 }, { 3.5, 0, 0.5, 0x304050 } };
	INT_EQ(af_blend_raster(whole, 2, 1, &img), 0);
	INT_EQ(img.width, 1);
	INT_EQ(pixel(&img, 0, 0), 0x203040ffu);
	af_blend_image_release(&img);
	INT_EQ(af_blend_raster(whole, 0, 1, &img), -1);

	/* a box starting under a taller one (y 0-15, then 5-20): its rows keep
	 * the taller one's pixels where it has none */
	static const struct af_blend_box tall[] = { { 0, 0, 1, 0x112233 }, { 2, 5, 1, 0x445566 } };
	INT_EQ(af_blend_raster(tall, 2, 15, &img), 0);
	INT_EQ(pixel(&img, 0, 4), 0x112233ffu);
	INT_EQ(pixel(&img, 2, 4), 0);
	INT_EQ(pixel(&img, 0, 5), 0x112233ffu);
	INT_EQ(pixel(&img, 2, 5), 0x445566ffu);
	INT_EQ(pixel(&img, 0, 19), 0x112233ffu);
	INT_EQ(pixel(&img, 2, 19), 0x445566ffu);
	af_blend_image_release(&img);
	static const struct af_blend_box far[] = { { 0, 0, 1, 0 }, { 1e9, 0, 1, 0 } };
	INT_EQ(af_blend_raster(far, 2, 15, &img), -1);
	OK(img.rows == NULL && img.px == NULL);
}

/* the <image> element: its place and size, a PNG (RGBA, 8 bits) in base64
 * that inflates to the raster's pixels, the same bytes twice */
void test_blend_image_element(void)
{
	static const struct af_blend_box b[] = { { 10.25, 100, 1, 0x336699 }, { 12.5, 116, 0.25, 0xff0000 } };
	struct af_buf f[2];
	struct af_diag d;
	af_diag_init(&d, "t.svg");
	for (int k = 0; k < 2; k++) {
		struct af_sink s;
		af_buf_init(&f[k]);
		af_sink_init(&s, af_write_buf, &f[k]);
		INT_EQ(af_blend_write(&s, b, 2, 15, &d), 1);
		INT_EQ(af_sink_finish(&s), 0);
	}
	OK(f[0].len == f[1].len && memcmp(f[0].data, f[1].data, f[0].len) == 0);
	static const char head[] = "<image x=\"10\" y=\"100\" width=\"3\" height=\"31\" href=\"data:image/png;base64,";
	OK(f[0].len > sizeof head && memcmp(f[0].data, head, sizeof head - 1) == 0);
	/* base64 back to bytes */
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	struct af_buf png;
	af_buf_init(&png);
	uint32_t acc = 0;
	int bits = 0;
	for (size_t i = sizeof head - 1; i < f[0].len && f[0].data[i] != '"' && f[0].data[i] != '='; i++) {
		const char *c = strchr(b64, f[0].data[i]);
		OK(c != NULL && *c);
		acc = acc << 6 | (uint32_t)(c - b64);
		if ((bits += 6) >= 8) {
			bits -= 8;
			af_buf_putc(&png, (char)(acc >> bits & 255));
		}
	}
	const unsigned char *p = (const unsigned char *)png.data;
	OK(png.len > 33 && memcmp(p, "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16) == 0);
	OK(memcmp(p + 16, "\0\0\0\x03\0\0\0\x1f\x08\x06\x00\x00\x00", 13) == 0);   /* 3 x 31, RGBA */
	OK(memcmp(p + 37, "IDAT", 4) == 0);   /* the chunk after IHDR (8 + 25 bytes) */
	uint32_t len = (uint32_t)p[33] << 24 | (uint32_t)p[34] << 16 | (uint32_t)p[35] << 8 | p[36];
	struct af_buf raw;
	af_buf_init(&raw);
	OK(png.len >= 41 + (size_t)len);
	if (png.len >= 41 + (size_t)len)
		INT_EQ(af_inflate(p + 41, len, 1 << 20, &raw, NULL, &d), 0);
	struct af_blend_image img;
	INT_EQ(af_blend_raster(b, 2, 15, &img), 0);
	INT_EQ(raw.len, (size_t)31 * (1 + 3 * 4));
	size_t bad = 0;
	for (uint32_t y = 0; y < 31 && raw.len == (size_t)31 * 13; y++) {
		bad += raw.data[y * 13] != 0;   /* filter: none */
		bad += memcmp(raw.data + y * 13 + 1, img.rows[y], 12) != 0;
	}
	INT_EQ(bad, 0);
	af_blend_image_release(&img);
	af_buf_release(&raw);
	af_buf_release(&png);
	af_buf_release(&f[0]);
	af_buf_release(&f[1]);
}
