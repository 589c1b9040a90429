/* atrace.h: internals of the atrace/systrace front end (read_atrace.c),
 * shared with its container decoder (atrace_unwrap.c) and the unit tests.
 *
 * atrace_unwrap() peels the envelopes of atrace-format.md §3.1 off an input
 * (gzip, "TRACE:" + zlib, adb CRLF damage, the three systrace HTML
 * generations, JSON "systemTraceEvents", JS-string escaping) and yields
 * plain ftrace text plus, when the capture has one, its PROCESS DUMP. */
#ifndef AF_ATRACE_H
#define AF_ATRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include "read.h"
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

/* memmem() without _GNU_SOURCE: first occurrence of needle, or NULL. */
static inline const char *atrace_find(const char *hay, size_t n, const char *needle, size_t k)
{
	if (k == 0 || n < k)
		return k == 0 ? hay : NULL;
	const char *end = hay + n - k + 1;
	for (const char *p = hay; p < end; p++) {
		p = memchr(p, needle[0], (size_t)(end - p));
		if (!p)
			return NULL;
		if (memcmp(p, needle, k) == 0)
			return p;
	}
	return NULL;
}

/* One ftrace event line, split (atrace-format.md §3.3). */
struct atrace_event {
	const char *task;          /* comm, leading spaces removed */
	size_t task_len;
	uint64_t tid;
	int64_t tgid;              /* -1 when absent or "(-----)" */
	uint32_t cpu;
	uint64_t ts;               /* µs */
	const char *event;         /* "tracing_mark_write", "0", "sched_switch"... */
	size_t event_len;
	const char *payload;       /* the rest of the line, trimmed */
	size_t payload_len;
};

static inline bool atrace_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits at *p (at most 19, so no overflow); false if none. Fewer than 8
 * digits with 8 bytes to read (pids, tids, seconds) are read 8 bytes at a
 * time; the rest a digit at a time. */
static inline bool atrace_digits(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p, *q = s, *stop = end - s > 19 ? s + 19 : end;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (end - s >= 8) {
		uint64_t w, ones = 0x0101010101010101ull, hi = 0xf0 * ones;
		memcpy(&w, s, sizeof w);
		/* a byte is a digit when it and it + 6 are both 0x3_ (a carry
		 * out of a byte past 0xf9 only touches bytes after a non-digit) */
		uint64_t other = ((w & hi) ^ 0x30 * ones) | (((w + 6 * ones) & hi) ^ 0x30 * ones);
		if (other) {
			unsigned n = (unsigned)__builtin_ctzll(other) / 8;   /* digits before the first other byte */
			if (n == 0) {
				*v = 0;
				return false;
			}
			uint64_t d = (w & 0x0f * ones) << (8 * (8 - n));   /* leading zeros, first digit highest */
			d = (d * 10 + (d >> 8)) & 0x00ff00ff00ff00ffull;
			d = (d * 100 + (d >> 16)) & 0x0000ffff0000ffffull;
			d = (d * 10000 + (d >> 32)) & 0xffffffffull;
			*p = s + n;
			*v = d;
			return true;
		}
	}
#endif
	uint64_t x = 0;
	for (unsigned d; q < stop && (d = (unsigned)(unsigned char)*q - '0') < 10; q++)
		x = x * 10 + d;
	*p = q;
	*v = x;
	return q > s && (q == end || !atrace_is_digit(*q));
}

static inline const char *atrace_spaces(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Split one line (no "\n"). False if it is not an ftrace event line
 * (atrace_line.c). */
bool atrace_parse_line(const char *s, size_t n, struct atrace_event *e);

/* A trace mark's payload (after trace-cmd's "<ip>: " prefix) as the slice
 * builder reads it: "B|pid|name", "E", "E|pid[|name]", "S|pid|name|cookie"
 * and the other kinds of atrace-format.md §3.4, a trailing newline (or
 * escaped one) dropped. atrace_mark_parse() returns the kind letter ('B',
 * 'E', 'S'...; m filled when it has a pid, m->text NULL for a bare "E") or
 * one of these: */
enum { ATRACE_MARK_BAD = -1, ATRACE_MARK_OTHER = -2, ATRACE_MARK_CLOCK_SYNC = -3 };
struct atrace_mark {
	int64_t pid;               /* -1: none */
	bool more;                 /* a '|' after the pid */
	const char *text, *end;    /* after "pid|", up to the end of the payload */
	size_t n;                  /* the name's length: end - text, 0 without more */
};
int atrace_mark_parse(const char *s, size_t len, struct atrace_mark *m);

/* ---- the slice builder, shared with the Perfetto reader ---- */

/* Threads and processes, B/E and async (S/F, G/H) marks folded into the
 * profile's process > thread > slice trees (or the async graph), names
 * resolved at the end, facts and warnings for --info. Times are µs from any
 * origin; they count from the first event seen. Events of one thread must
 * come in time order. */
struct atrace_slices;
struct atrace_slices *atrace_slices_new(struct af_profile *p, const struct af_read_opts *o,
					struct af_diag *d);
/* One ftrace event: its task name, a trace mark, a sched event's names.
 * e->ts is changed to count from the first event. */
void atrace_slices_event(struct atrace_slices *r, struct atrace_event *e);
/* A slice begun on thread tid of process pid (-1: unknown), and the end of
 * the innermost open slice of tid (track events). */
void atrace_slices_begin(struct atrace_slices *r, uint64_t tid, int64_t pid, uint64_t ts,
			 const char *name, size_t n);
void atrace_slices_end(struct atrace_slices *r, uint64_t tid, uint64_t ts);
/* A trace mark parsed by the caller (atrace_mark_parse) and folded later:
 * the frame name a slice named s[0..n) gets (in the tree the slices are
 * folded into), and the "B|pid|name" mark of thread tid with that name,
 * as atrace_slices_event() would fold it. A bare "E" or "E|pid" mark is
 * atrace_slices_end(). */
uint32_t atrace_slices_name(struct atrace_slices *r, const char *s, size_t n);
void atrace_slices_mark_begin(struct atrace_slices *r, uint64_t tid, int64_t pid, uint64_t ts, uint32_t name);
/* Names from a process listing (PROCESS DUMP, Perfetto's process tree and
 * descriptors); a name the thread gave itself in an event wins. True when
 * the thread's slices already went under another process (its first
 * slice came before this name): a fold with every name known first would
 * differ. */
bool atrace_slices_name_thread(struct atrace_slices *r, uint64_t tid, int64_t pid,
			       const char *name, size_t n);
void atrace_slices_name_process(struct atrace_slices *r, int64_t pid, const char *name, size_t n);
/* Events seen so far. */
uint64_t atrace_slices_events(const struct atrace_slices *r);
/* Close open slices, name the nodes, record facts and warnings. Returns 0,
 * or -1 with diag set when there is nothing to draw (unless --info): "no
 * slices to draw: <events> <no_slices>". */
int atrace_slices_finish(struct atrace_slices *r, const char *no_slices);
void atrace_slices_free(struct atrace_slices *r);

#endif
