/* gzpar.h: one gzip member deflated on two threads while it is still being
 * written (pigz's way): the bytes are cut in chunks of a fixed size (by
 * their place in the stream, never by what the threads do), each chunk is
 * deflated raw with the 8 KiB before it as dictionary and ends with a sync
 * flush (the last one finishes the stream), and their CRCs are combined
 * for the one trailer. The chunks are deflated by a job (core/job.h) as
 * they fill (by the writer too when the job falls behind), and by both
 * threads once the stream is whole; so the output is the same bytes
 * whether a second thread runs or not. An output of one
 * chunk or less is what zlib's own gzip writer makes at the same level. */
#ifndef AF_GZPAR_H
#define AF_GZPAR_H

#include <stddef.h>
#include "core/buf.h"
#include "core/diag.h"

/* The chunk size, 55 KiB: with the 8 KiB before it as dictionary, it fits
 * the 64 KiB zlib holds of its input (two windows, less a lookahead), so
 * that zlib never slides its window and hash tables down (at level 1,
 * near a quarter of its instructions): on the bench's 8 MB profile,
 * 42.7 -> 37.5 ms of CPU (256 KiB chunks), for 1.6 KB more; and the last
 * chunk, which one thread does alone, is short (0.3 ms). */
enum { AF_GZPAR_CHUNK = 55 << 10 };

struct af_gzpar;

/* A stream deflated at level (1-9); caller frees with af_gzpar_free. */
struct af_gzpar *af_gzpar_new(int level);
/* The next len bytes of the stream (copied). */
void af_gzpar_add(struct af_gzpar *g, const void *data, size_t len);
/* From now on, each chunk is written to out once it and those before it
 * are deflated (their bytes freed), not all at the finish, which must be
 * given the same out. For a caller that cannot fail before the finish: a
 * stream stopped there leaves the part written. */
void af_gzpar_stream(struct af_gzpar *g, struct af_sink *out);
/* Deflate what is left, then write the gzip member (what of it is not yet
 * written) to out: 0, or -1 with d set when zlib failed (then nothing
 * more is written). */
int af_gzpar_finish(struct af_gzpar *g, struct af_sink *out, struct af_diag *d);
void af_gzpar_free(struct af_gzpar *g);

#endif
