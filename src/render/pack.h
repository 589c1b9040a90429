/* pack.h: the interactive SVG's bulk data (frame names and frames, JSON
 * text) deflated and written in base64, as the page's inflate.js reads it.
 *
 * The browser parses every byte of the file before the first paint (about
 * 22 ms of CPU a megabyte of script text at 200k frames, issue 34), and a
 * names array literal costs V8 as much again to compile; the page needs
 * the names and frames only after that paint. Deflated (zlib's format)
 * they are a fifth of the bytes, and base64 needs no escaping anywhere: in
 * a script string, in CDATA, in XML text. */
#ifndef AF_PACK_H
#define AF_PACK_H

#include <stddef.h>
#include "core/buf.h"
#include "core/diag.h"

/* data[0..len) deflated, as a JavaScript string literal of base64 (with
 * its quotes, lines of AF_PACK_LINE characters joined by line
 * continuations) on out. Returns 0, or -1 with an error on d (zlib out
 * of memory). */
#define AF_PACK_LINE 1024
int af_pack_string(struct af_sink *out, const char *data, size_t len, struct af_diag *d);

#endif
