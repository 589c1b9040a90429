/* png.h: PNG files from 0x00RRGGBB pixel rows (cairo's RGB24 image data),
 * or from RGBA bytes.
 *
 * cairo's own PNG writer goes through libpng at zlib's default level with
 * every row filter tried on every row: 565M instructions (50-60 ms on a
 * loaded machine) for a 1200 x 1134 flame graph, most of a per-thread PNG
 * batch (issue 19). A flame graph is runs of one colour, each row much like
 * the one above, which deflate finds unfiltered and at a low level: 127M
 * instructions (10-15 ms), in a file within a few per cent of the size,
 * sometimes smaller. The pixels are the same; only the compressed bytes
 * differ. Runs of equal rows skip deflate (zrows.h). */
#ifndef AF_PNG_H
#define AF_PNG_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"
#include "core/diag.h"

/* A text chunk: tEXt when every character of value is in Latin-1, else
 * iTXt (UTF-8); value is repaired as escape.h repairs every string. */
struct af_png_text {
	const char *key;      /* Latin-1 keyword, 1-79 bytes */
	const char *value;
};

/* Write a width x height RGB PNG of rows `stride` bytes apart, each
 * `width` pixels as uint32_t 0x00RRGGBB (the top byte is ignored), with
 * the text chunks after the header. Returns 0, or -1 with diag set (a size
 * PNG cannot hold, zlib out of memory); errors writing go to the sink. */
int af_png_write(struct af_sink *out, const void *pixels, uint32_t width, uint32_t height,
		 size_t stride, const struct af_png_text *text, size_t ntext, struct af_diag *d);

/* The same with transparency (the interactive SVG's blended boxes,
 * blend.h): rows[0..height) of `width` pixels of four bytes R, G, B, A
 * (not premultiplied, as PNG stores them); rows that are one pointer are
 * known equal at no cost. No text, no background colour. */
int af_png_write_rgba(struct af_sink *out, const unsigned char *const *rows, uint32_t width,
		      uint32_t height, struct af_diag *d);

#endif
