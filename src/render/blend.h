/* blend.h: the interactive SVG's blended boxes (runs of frames narrower
 * than a pixel, boxes() in render_svg.c) drawn as one PNG image in the
 * file's first markup rather than as path contours.
 *
 * At 202k frames the 50,765 boxes were 705 KB of path data that Chromium
 * parsed (25 ms of CPU), laid out (7-9 ms) and above all rasterised on its
 * one raster worker (60-80 ms) before the frames after the load event
 * could come; one image is decoded and drawn in a fraction of that
 * (docs/interactive.md, "The blended boxes as an image", issue 34).
 *
 * The boxes are axis-aligned, at fractional x on whole rows, and boxes of a
 * row never overlap: so a pixel gets the mean of its boxes' colours
 * weighted by the area each covers, and as alpha the area covered (1 at
 * most), the exact-area rule the page's canvas uses for the same boxes
 * after a zoom (raster() in page/draw.js). */
#ifndef AF_BLEND_H
#define AF_BLEND_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"
#include "core/diag.h"

struct af_blend_box {
	double x, y, w;        /* left edge, top, width, in the SVG's units */
	uint32_t rgb;          /* 0xRRGGBB */
};

/* The boxes' pixels: the image covers whole units from (x0, y0), width x
 * height pixels of R, G, B, A bytes (not premultiplied), rows 4 * width
 * bytes apart. */
/* Its rows are pointers: the rows of a box after its first share that
 * row's pixels, and rows no box covers share one transparent row, so the
 * image's memory is its distinct rows (an eighth of a flame graph's), and
 * the PNG writer knows equal rows without comparing them. */
struct af_blend_image {
	int64_t x0, y0;
	uint32_t width, height;
	const unsigned char **rows;   /* height rows of width RGBA pixels */
	unsigned char *px;            /* the distinct rows */
	unsigned char *clear;         /* the transparent row */
};
void af_blend_image_release(struct af_blend_image *img);

/* Pixels above this many are not made (memory): the caller draws the
 * boxes as paths instead. A 1200-pixel-wide graph of 8,000 rows is 10M. */
#define AF_BLEND_MAX_PIXELS (1u << 25)

/* Rasterises n boxes, each h units high (y to y + h, rows rounded to whole
 * pixels from y0), into *img. Returns 0, or -1 when the image would have
 * no pixel or more than AF_BLEND_MAX_PIXELS (img->rows NULL);
 * af_blend_image_release() frees it. */
int af_blend_raster(const struct af_blend_box *b, size_t n, double h, struct af_blend_image *img);

/* <image x y width height href="data:image/png;base64,..."/> of the boxes
 * on out, the same bytes for the same boxes. Returns 1 when written, 0
 * when af_blend_raster() makes no image (nothing written: draw paths), -1
 * with an error on d (zlib out of memory). */
int af_blend_write(struct af_sink *out, const struct af_blend_box *b, size_t n, double h,
		   struct af_diag *d);

#endif
