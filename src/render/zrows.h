/* zrows.h: one zlib stream (RFC 1950) of equal-length rows, for PNG's
 * image data, where a run of rows equal to the one before costs next to
 * nothing to write.
 *
 * A flame graph's frame rows are 15 equal pixel rows, and the interactive
 * SVG's image of blended boxes (blend.h) is 1180 x 600-1200 pixels of
 * them, mostly transparent. Given to deflate, each repeated row is 4-6 KB
 * that it hashes and matches against the row above: at level 3 about 20
 * instructions a byte with the checksum, even when the rows are filtered
 * to zeros first (callgrind: the perf script bench's 72 MB -> SVG spent 67M
 * of its 190M instructions so, pprof 10 MB -> SVG 161M of 1,102M). Here
 * deflate gets the other rows, and each run of equal rows of at least
 * AF_ZROWS_MIN bytes is one block written directly: copies of the row
 * above, or of the byte before where the row holds a long run of one byte
 * (transparent pixels), under Huffman codes made for that block (a copy of
 * 258 bytes costs a few bits); a row of one byte throughout (a gap row)
 * joins the block; the checksum is combined from the rows'. The stream
 * inflates to exactly the rows given, and is smaller than deflate's alone
 * on flame graphs (the blends' image of the perf script bench: 17,592 ->
 * 10,049 bytes of PNG; pprof's 245,622 -> 190,634). */
#ifndef AF_ZROWS_H
#define AF_ZROWS_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"

/* runs of fewer bytes go to deflate, which codes them for less than a
 * block's header, flush and restart cost (about 150k instructions) */
#define AF_ZROWS_MIN 8192

struct af_zrows;

/* A stream at zlib level (1-9) of rows row_len bytes long, appended to out.
 * NULL when zlib has no memory. */
struct af_zrows *af_zrows_new(struct af_buf *out, int level, size_t row_len);

/* row, then k more rows equal to it. 0, or -1 when zlib failed. */
int af_zrows_put(struct af_zrows *z, const unsigned char *row, uint32_t k);

/* The stream ended (its checksum written) and z freed; 0, or -1 when zlib
 * failed at any point (out then holds no usable stream). */
int af_zrows_finish(struct af_zrows *z);

#endif
