/* pack.h: the interactive SVG's lists of integers, and its bulk data (frame
 * names and frames, JSON text) deflated and written in base64, as the page
 * unpacks it (unpack.js: the browser's DecompressionStream).
 *
 * The browser parses every byte of the file before the first paint (about
 * 22 ms of CPU a megabyte of script text at 200k frames, issue 34), and a
 * names array literal costs V8 as much again to compile; the page needs
 * the names and frames only after that paint. Deflated (zlib's format)
 * they are a fifth of the bytes, and base64 needs no escaping anywhere: in
 * a script string, in CDATA, in XML text. */
#ifndef AF_PACK_H
#define AF_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"
#include "core/diag.h"
#include "core/job.h"

/* What fill(ctx, sink) writes, deflated, as a JavaScript string literal of
 * base64 (with its quotes, lines of AF_PACK_LINE characters joined by line
 * continuations), both made on a second thread (core/job.h) while the
 * caller writes the rest of the file: af_pack_begin() starts it (what fill
 * reads stays unchanged until the end), af_pack_wait() waits for it and
 * says how many bytes fill wrote, af_pack_end() waits and writes the
 * literal on out (or af_pack_cancel() drops it). The bytes are the same on
 * one thread or two. Returns 0, or -1 with an error on d (zlib out of
 * memory). */
#define AF_PACK_LINE 1024
struct af_pack {
	struct af_job job;
	void (*fill)(void *ctx, struct af_sink *out);
	void *ctx;
	size_t len;            /* what fill wrote */
	struct af_buf text;    /* the literal */
	bool ok;               /* deflated */
};
void af_pack_begin(struct af_pack *p, void (*fill)(void *ctx, struct af_sink *out), void *ctx);
size_t af_pack_wait(struct af_pack *p);
int af_pack_end(struct af_pack *p, struct af_sink *out, struct af_diag *d);
/* waits for it and drops it (the file failed otherwise) */
void af_pack_cancel(struct af_pack *p);

/* Lists of integers, for the script's ints() in frames.js (pack.c says
 * how they are written): af_list_begin() opens list key (",\nkey:\""),
 * af_list_u64() writes item k (k before it) v, af_list_diff() item k
 * a - b (negative too); af_base32() and af_base32_diff() put a number
 * with no separator at `to` (at most AF_BASE32_MAX bytes) and return its
 * length, for lists the caller cuts itself. The caller closes the string. */
void af_list_begin(struct af_sink *out, const char *key);
void af_list_u64(struct af_sink *out, size_t k, uint64_t v);
void af_list_diff(struct af_sink *out, size_t k, uint64_t a, uint64_t b);
#define AF_BASE32_MAX 14   /* '-' and 13 digits (64 bits in 5-bit digits) */
size_t af_base32(char *to, uint64_t v);
size_t af_base32_diff(char *to, uint64_t a, uint64_t b);

/* data[0..len) in base64, '=' padded, on one line (a data: URL) */
void af_pack_base64(struct af_sink *out, const void *data, size_t len);

#endif
