/* blend.c: the blended boxes of the interactive SVG as one PNG image
 * (blend.h): rasterised by exact area, encoded by png.c, written in base64
 * as a data: URL, so the file stays one offline document. */
#include "blend.h"
#include "pack.h"
#include "png.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* v rounded half up, as the page's Math.round */
static double round_half_up(double v)
{
	return floor(v + 0.5);
}

/* the pixel rows [*top, *bottom) of a box at y, h high, in an image from y0 */
static void rows_of(double y, double h, int64_t y0, int64_t *top, int64_t *bottom)
{
	*top = (int64_t)round_half_up(y - (double)y0);
	*bottom = (int64_t)round_half_up(y + h - (double)y0);
}

/* the image's extent: whole units around every box. 0, or -1 when it
 * would be empty or too large. */
static int extent(const struct af_blend_box *b, size_t n, double h, struct af_blend_image *img)
{
	double xmin = b[0].x, xmax = b[0].x + b[0].w, ymin = b[0].y;
	for (size_t i = 1; i < n; i++) {
		xmin = b[i].x < xmin ? b[i].x : xmin;
		xmax = b[i].x + b[i].w > xmax ? b[i].x + b[i].w : xmax;
		ymin = b[i].y < ymin ? b[i].y : ymin;
	}
	if (!(xmax - xmin < AF_BLEND_MAX_PIXELS) || !(h > 0) || !(h < AF_BLEND_MAX_PIXELS))
		return -1;
	img->x0 = (int64_t)floor(xmin);
	img->y0 = (int64_t)floor(ymin);
	int64_t bottom = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t t, e;
		rows_of(b[i].y, h, img->y0, &t, &e);
		bottom = e > bottom ? e : bottom;
		if (bottom >= AF_BLEND_MAX_PIXELS)
			return -1;
	}
	int64_t width = (int64_t)ceil(xmax) - img->x0;
	if (width <= 0 || bottom <= 0 || (uint64_t)width * (uint64_t)bottom > AF_BLEND_MAX_PIXELS)
		return -1;
	img->width = (uint32_t)width;
	img->height = (uint32_t)bottom;
	return 0;
}

/* Box i's coverage of each pixel added to acc (R, G, B weighted by the
 * part covered, and that part), columns [*lo, *hi) widened to those it
 * touches. */
static void cover(const struct af_blend_box *p, double x0, double *acc, uint32_t width,
		  uint32_t *lo, uint32_t *hi)
{
	double a = p->x - x0, e = a + p->w;
	double cr = p->rgb >> 16 & 255, cg = p->rgb >> 8 & 255, cb = p->rgb & 255;
	a = a < 0 ? 0 : a;
	e = e > width ? width : e;
	uint32_t i = (uint32_t)a, i1 = (uint32_t)ceil(e);
	*lo = i < *lo ? i : *lo;
	*hi = i1 > *hi ? i1 : *hi;
	for (; i < i1; i++) {
		double v = (i + 1 < e ? i + 1 : e) - (i > a ? i : a);
		acc[4 * i] += v * cr;
		acc[4 * i + 1] += v * cg;
		acc[4 * i + 2] += v * cb;
		acc[4 * i + 3] += v;
	}
}

/* columns [lo, hi) of acc as RGBA: the weighted mean colour, alpha the
 * area covered; acc cleared again */
static void settle(double *acc, unsigned char *row, uint32_t lo, uint32_t hi)
{
	for (uint32_t i = lo; i < hi; i++) {
		double v = acc[4 * i];
		double a = acc[4 * i + 3];
		if (a > 0) {
			row[4 * i] = (unsigned char)round_half_up(v / a);
			row[4 * i + 1] = (unsigned char)round_half_up(acc[4 * i + 1] / a);
			row[4 * i + 2] = (unsigned char)round_half_up(acc[4 * i + 2] / a);
			row[4 * i + 3] = a >= 1 ? 255 : (unsigned char)round_half_up(a * 255);
		}
		memset(acc + 4 * i, 0, 4 * sizeof *acc);
	}
}

int af_blend_raster(const struct af_blend_box *b, size_t n, double h, struct af_blend_image *img)
{
	memset(img, 0, sizeof *img);
	if (!n || extent(b, n, h, img) < 0)
		return -1;
	uint32_t w = img->width, H = img->height;
	size_t stride = (size_t)w * 4, distinct = 0;
	/* boxes chained by their first pixel row: linear in boxes and pixels */
	size_t *head = af_xmalloc((size_t)H * sizeof *head), *next = af_xmalloc(n * sizeof *next);
	for (uint32_t r = 0; r < H; r++)
		head[r] = SIZE_MAX;
	for (size_t i = n; i-- > 0;) {
		int64_t t, e;
		rows_of(b[i].y, h, img->y0, &t, &e);
		if (t >= e)
			continue;
		distinct += head[t] == SIZE_MAX;
		next[i] = head[t];
		head[t] = i;
	}
	img->px = af_xcalloc(distinct, stride);
	img->clear = af_xcalloc(1, stride);
	img->rows = af_xmalloc((size_t)H * sizeof *img->rows);
	for (uint32_t r = 0; r < H; r++)
		img->rows[r] = img->clear;
	double *acc = af_xcalloc((size_t)w * 4, sizeof *acc);
	unsigned char *row = img->px;
	for (uint32_t r = 0; r < H; r++) {
		if (head[r] == SIZE_MAX)
			continue;
		uint32_t lo = w, hi = 0;
		int64_t bottom = r + 1;
		for (size_t i = head[r]; i != SIZE_MAX; i = next[i]) {
			int64_t t, e;
			rows_of(b[i].y, h, img->y0, &t, &e);
			bottom = e > bottom ? e : bottom;
			cover(&b[i], (double)img->x0, acc, w, &lo, &hi);
		}
		if (img->rows[r] != img->clear)   /* under a taller box above: on its pixels */
			memcpy(row, img->rows[r], stride);
		settle(acc, row, lo, hi);
		for (int64_t y = r; y < bottom; y++)
			img->rows[y] = row;
		row += stride;
	}
	free(acc);
	free(next);
	free(head);
	return 0;
}

void af_blend_image_release(struct af_blend_image *img)
{
	free(img->rows);
	free(img->px);
	free(img->clear);
	memset(img, 0, sizeof *img);
}

int af_blend_write(struct af_sink *out, const struct af_blend_box *b, size_t n, double h,
		   struct af_diag *d)
{
	struct af_blend_image img;
	if (af_blend_raster(b, n, h, &img) < 0)
		return 0;
	struct af_buf png;
	struct af_sink s;
	af_buf_init(&png);
	af_sink_init(&s, af_write_buf, &png);
	int rc = af_png_write_rgba(&s, img.rows, img.width, img.height, d);
	if (af_sink_finish(&s) < 0 && rc == 0)
		rc = af_diag_error(d, "cannot write SVG: out of memory for its image");
	if (rc == 0) {
		af_sink_printf(out, "<image x=\"%lld\" y=\"%lld\" width=\"%lu\" height=\"%lu\" "
			       "href=\"data:image/png;base64,", (long long)img.x0, (long long)img.y0,
			       (unsigned long)img.width, (unsigned long)img.height);
		af_pack_base64(out, png.data, png.len);
		af_sink_puts(out, "\"/>\n");
	}
	af_blend_image_release(&img);
	af_buf_release(&png);
	return rc == 0 ? 1 : -1;
}
