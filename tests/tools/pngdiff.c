/* pngdiff: compare two PNGs pixel by pixel (cairo test/buffer-diff style).
 *
 *   pngdiff [-t CHANNEL] [-n PIXELS] EXPECTED ACTUAL [DIFF.png]
 *
 * A pixel has changed when one of its channels differs by more than
 * CHANNEL (default 2, out of 255). The images match when at most PIXELS
 * pixels have changed (default 0). On a mismatch it prints the count of
 * changed pixels and the largest channel change, writes DIFF.png (the
 * expected image faded, changed pixels in red, brighter for larger
 * changes) and exits 1. Unreadable files or different sizes: exit 2. */
#include <cairo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cairo_surface_t *load(const char *path)
{
	cairo_surface_t *s = cairo_image_surface_create_from_png(path);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "pngdiff: %s: %s\n", path, cairo_status_to_string(cairo_surface_status(s)));
		exit(2);
	}
	/* same pixel format for both, whatever the PNG colour type */
	int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
	cairo_surface_t *c = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
	cairo_t *cr = cairo_create(c);
	cairo_set_source_surface(cr, s, 0, 0);
	cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
	cairo_paint(cr);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	cairo_surface_flush(c);
	return c;
}

static long number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end == s || *end || v < 0) {
		fprintf(stderr, "pngdiff: invalid number '%s'\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	long channel_tol = 2, pixel_tol = 0;
	int i = 1;
	for (; i + 1 < argc && argv[i][0] == '-' && argv[i][1]; i += 2) {
		if (strcmp(argv[i], "-t") == 0)
			channel_tol = number(argv[i + 1]);
		else if (strcmp(argv[i], "-n") == 0)
			pixel_tol = number(argv[i + 1]);
		else
			break;
	}
	if (argc - i < 2 || argc - i > 3) {
		fprintf(stderr, "usage: pngdiff [-t CHANNEL] [-n PIXELS] EXPECTED ACTUAL [DIFF.png]\n");
		return 2;
	}
	cairo_surface_t *a = load(argv[i]), *b = load(argv[i + 1]);
	int w = cairo_image_surface_get_width(a), h = cairo_image_surface_get_height(a);
	if (w != cairo_image_surface_get_width(b) || h != cairo_image_surface_get_height(b)) {
		printf("size differs: %dx%d expected, %dx%d actual\n", w, h,
		       cairo_image_surface_get_width(b), cairo_image_surface_get_height(b));
		return 2;
	}
	cairo_surface_t *diff = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
	int sa = cairo_image_surface_get_stride(a), sb = cairo_image_surface_get_stride(b);
	int sd = cairo_image_surface_get_stride(diff);
	const unsigned char *pa = cairo_image_surface_get_data(a), *pb = cairo_image_surface_get_data(b);
	unsigned char *pd = cairo_image_surface_get_data(diff);
	long changed = 0, largest = 0;
	for (int y = 0; y < h; y++) {
		const uint32_t *ra = (const uint32_t *)(pa + (size_t)y * sa);
		const uint32_t *rb = (const uint32_t *)(pb + (size_t)y * sb);
		uint32_t *rd = (uint32_t *)(pd + (size_t)y * sd);
		for (int x = 0; x < w; x++) {
			long most = 0;
			for (int c = 0; c < 32; c += 8) {
				long d = labs((long)(ra[x] >> c & 255) - (long)(rb[x] >> c & 255));
				if (d > most)
					most = d;
			}
			if (most > largest)
				largest = most;
			if (most > channel_tol) {
				changed++;
				uint32_t red = (uint32_t)(128 + most / 2);
				rd[x] = 0xff000000u | red << 16;
			} else {
				uint32_t grey = 192 + (((ra[x] >> 16 & 255) + (ra[x] >> 8 & 255) + (ra[x] & 255)) / 3) / 4;
				rd[x] = 0xff000000u | grey << 16 | grey << 8 | grey;
			}
		}
	}
	cairo_surface_mark_dirty(diff);
	int rc = 0;
	if (changed > pixel_tol) {
		printf("%ld pixels changed (of %ld; tolerance %ld), largest channel change %ld\n",
		       changed, (long)w * h, pixel_tol, largest);
		if (argc - i == 3 && cairo_surface_write_to_png(diff, argv[i + 2]) != CAIRO_STATUS_SUCCESS)
			fprintf(stderr, "pngdiff: cannot write %s\n", argv[i + 2]);
		rc = 1;
	}
	cairo_surface_destroy(diff);
	cairo_surface_destroy(a);
	cairo_surface_destroy(b);
	return rc;
}
