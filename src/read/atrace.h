/* atrace.h: internals of the atrace/systrace front end (read_atrace.c),
 * shared with its container decoder (atrace_unwrap.c) and the unit tests.
 *
 * atrace_unwrap() peels the envelopes of atrace-format.md §3.1 off an input
 * (gzip, "TRACE:" + zlib, adb CRLF damage, the three systrace HTML
 * generations, JSON "systemTraceEvents", JS-string escaping) and yields
 * plain ftrace text plus, when the capture has one, its PROCESS DUMP;
 * atrace_parse_line() splits one event line for the slice builder
 * (slices.h), which holds the slice rules both this and the Perfetto
 * reader follow. */
#ifndef AF_ATRACE_H
#define AF_ATRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include "read.h"
#include "scan.h"
#include "slices.h"
#include "core/buf.h"
#include "core/diag.h"
#include "core/profile.h"

enum { ATRACE_MAX_LAYERS = 8 };

struct atrace_text {
	const char *data;          /* ftrace text (not NUL-terminated) */
	size_t len;
	const char *procdump;      /* PROCESS DUMP block, or NULL */
	size_t procdump_len;
	char container[128];       /* "gzip > TRACE: > zlib", for --info */
	char blocks[160];          /* systrace HTML: its trace-data blocks */
	struct af_buf owned[ATRACE_MAX_LAYERS + 2];  /* decoded layers */
	size_t nowned;
	uint64_t inflate_cap;      /* --max-input-size (0: none) */
};

/* Decode in into t (which owns any decoded copies). Returns 0, or -1 with
 * diag set when the input is a container with no ftrace text in it. */
int atrace_unwrap(struct atrace_text *t, const struct af_input *in, struct af_diag *d);
void atrace_text_release(struct atrace_text *t);

/* Split one line (no "\n"). False if it is not an ftrace event line
 * (atrace_line.c). */
bool atrace_parse_line(const char *s, size_t n, struct af_ftrace_event *e);

#endif
