/* buf.h: growable byte buffer (always NUL-terminated) and the output sink.
 * The sink batches everything a renderer writes into one buffer and hands it
 * to a write callback in large blocks; a write error is sticky (cairo-style),
 * so renderers write without checking and the caller checks once at the end. */
#ifndef AF_BUF_H
#define AF_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

struct af_buf {
	char *data;    /* NUL-terminated; NULL until the first append */
	size_t len, cap;
};

void af_buf_init(struct af_buf *b);
void af_buf_release(struct af_buf *b);           /* frees the contents */
void af_buf_reserve(struct af_buf *b, size_t extra);
void af_buf_add(struct af_buf *b, const void *data, size_t len);
void af_buf_puts(struct af_buf *b, const char *s);
void af_buf_putc(struct af_buf *b, char c);
void af_buf_printf(struct af_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void af_buf_vprintf(struct af_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
char *af_buf_detach(struct af_buf *b);          /* caller frees with free() */
/* Append text's words (split at spaces) as lines of at most width columns
 * (bytes; a longer word gets a line of its own), each line after the first
 * starting with indent spaces, the first after `first` columns already
 * used. For help texts made from tables. */
void af_buf_wrap(struct af_buf *b, const char *text, size_t first, size_t indent, size_t width);

/* Write len bytes; return 0, or -1 with errno set. */
typedef int af_write_fn(void *ctx, const void *data, size_t len);

struct af_sink {
	af_write_fn *write;
	void *ctx;
	struct af_buf buf;
	int error;       /* first errno seen, 0 if none; sticky */
	uint64_t written;
};

void af_sink_init(struct af_sink *s, af_write_fn *write, void *ctx);
void af_sink_write(struct af_sink *s, const void *data, size_t len);
void af_sink_puts(struct af_sink *s, const char *str);
void af_sink_putc(struct af_sink *s, char c);
void af_sink_printf(struct af_sink *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void af_sink_u64(struct af_sink *s, uint64_t v);
/* v with at most `decimals` digits after the point, trailing zeros trimmed
 * ("12.5", "3", "-0.25"); locale-independent and much faster than printf. */
void af_sink_fixed(struct af_sink *s, double v, int decimals);
/* A weight kept as fixed point with `decimals` implied digits, written
 * exactly, trailing zeros trimmed ("1.5", "3"): the one way folded stacks,
 * reports and messages show weights. af_fixed_point() writes into out
 * (AF_FIXED_POINT_MAX bytes) and returns the length. */
#define AF_FIXED_POINT_MAX 48
size_t af_fixed_point(char *out, uint64_t v, unsigned decimals);
void af_sink_fixed_point(struct af_sink *s, uint64_t v, unsigned decimals);
/* Flush the buffer and release it; returns -1 if any write failed. */
int af_sink_finish(struct af_sink *s);

/* Sink callbacks: into a stdio FILE * ctx, into a struct af_buf * ctx, and
 * one that discards (fuzzers). */
int af_write_file(void *ctx, const void *data, size_t len);
int af_write_buf(void *ctx, const void *data, size_t len);
int af_write_null(void *ctx, const void *data, size_t len);

#endif
