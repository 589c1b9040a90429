/* buf.c: growable buffer and the buffered, sticky-error output sink. */
#include "buf.h"
#include "util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void af_buf_init(struct af_buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
}

void af_buf_release(struct af_buf *b)
{
	free(b->data);
	af_buf_init(b);
}

void af_buf_reserve(struct af_buf *b, size_t extra)
{
	if (extra > SIZE_MAX - b->len - 1)
		AF_BUG("buffer size overflow");
	af_grow(&b->data, &b->cap, b->len + extra + 1, 1);
}

void af_buf_add(struct af_buf *b, const void *data, size_t len)
{
	af_buf_reserve(b, len);
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = 0;
}

void af_buf_puts(struct af_buf *b, const char *s)
{
	af_buf_add(b, s, strlen(s));
}

void af_buf_putc(struct af_buf *b, char c)
{
	af_buf_add(b, &c, 1);
}

void af_buf_vprintf(struct af_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		AF_BUG("bad format");
	af_buf_reserve(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void af_buf_wrap(struct af_buf *b, const char *text, size_t first, size_t indent, size_t width)
{
	size_t col = first, start = first;
	for (const char *w = text + strspn(text, " "); *w;) {
		size_t len = strcspn(w, " ");
		if (col > start && col + 1 + len > width) {
			af_buf_putc(b, '\n');
			for (size_t i = 0; i < indent; i++)
				af_buf_putc(b, ' ');
			col = start = indent;
		} else if (col > start) {
			af_buf_putc(b, ' ');
			col++;
		}
		af_buf_add(b, w, len);
		col += len;
		w += len;
		w += strspn(w, " ");
	}
}

void af_buf_printf(struct af_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	af_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *af_buf_detach(struct af_buf *b)
{
	if (!b->data) {   /* an empty buffer detaches as "" */
		af_buf_reserve(b, 0);
		b->data[0] = 0;
	}
	char *p = b->data;
	af_buf_init(b);
	return p;
}

/* ---- sink ---- */

enum { SINK_BLOCK = 1 << 16, SINK_DIRECT = 1 << 14 };

void af_sink_init(struct af_sink *s, af_write_fn *write, void *ctx)
{
	s->write = write;
	s->ctx = ctx;
	af_buf_init(&s->buf);   /* grown as written: most sinks hold a few bytes */
	s->error = 0;
	s->written = 0;
}

static void flush(struct af_sink *s)
{
	if (s->buf.len && !s->error && s->write(s->ctx, s->buf.data, s->buf.len) < 0)
		s->error = errno ? errno : EIO;
	s->written += s->buf.len;
	s->buf.len = 0;
}

void af_sink_write(struct af_sink *s, const void *data, size_t len)
{
	if (s->buf.len + len > SINK_BLOCK)
		flush(s);
	/* a large piece (the SVG's script) goes out from where it is: copied,
	 * it would touch a fresh page of the buffer per 4 KiB, and a page
	 * fault costs more than the extra write */
	if (len >= SINK_DIRECT) {
		flush(s);
		if (!s->error && s->write(s->ctx, data, len) < 0)
			s->error = errno ? errno : EIO;
		s->written += len;
		return;
	}
	if (s->buf.len + len >= s->buf.cap)
		af_buf_reserve(&s->buf, len);
	memcpy(s->buf.data + s->buf.len, data, len);
	s->buf.len += len;
}

void af_sink_puts(struct af_sink *s, const char *str)
{
	af_sink_write(s, str, strlen(str));
}

void af_sink_putc(struct af_sink *s, char c)
{
	if (s->buf.len + 1 > SINK_BLOCK)
		flush(s);
	if (s->buf.len + 1 >= s->buf.cap)
		af_buf_reserve(&s->buf, 1);
	s->buf.data[s->buf.len++] = c;
}

void af_sink_printf(struct af_sink *s, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		AF_BUG("bad format");
	if ((size_t)n < sizeof small) {
		af_sink_write(s, small, (size_t)n);
		return;
	}
	struct af_buf big;
	af_buf_init(&big);
	va_start(ap, fmt);
	af_buf_vprintf(&big, fmt, ap);
	va_end(ap);
	af_sink_write(s, big.data, big.len);
	af_buf_release(&big);
}

static size_t u64_digits(uint64_t v, char *end)
{
	char *p = end;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return (size_t)(end - p);
}

void af_sink_u64(struct af_sink *s, uint64_t v)
{
	char tmp[24];
	size_t n = u64_digits(v, tmp + sizeof tmp);
	af_sink_write(s, tmp + sizeof tmp - n, n);
}

/* llround(x) for 0 <= x < 2^64, without libm (the program needs nothing
 * else from it, and loading it is a cost on every run): half away from
 * zero. x minus its integer part is exact in binary floating point. At
 * 2^63 and above llround's result is undefined; x86-64's is 2^63, kept. */
static uint64_t round_half_up(double x)
{
	if (x >= 9223372036854775808.0)
		return (uint64_t)1 << 63;
	uint64_t i = (uint64_t)x;
	return i + (x - (double)i >= 0.5);
}

void af_sink_fixed(struct af_sink *s, double v, int decimals)
{
	static const double scale[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
	if (decimals < 0 || decimals > 6)
		AF_BUG("af_sink_fixed: decimals out of range");
	if (!isfinite(v) || fabs(v) >= 1e15) {
		af_sink_printf(s, "%.*f", decimals, isfinite(v) ? v : 0.0);
		return;
	}
	bool neg = v < 0;
	uint64_t scaled = round_half_up(fabs(v) * scale[decimals]);
	uint64_t unit = (uint64_t)scale[decimals];
	uint64_t ip = scaled / unit, fp = scaled % unit;
	char tmp[48], *end = tmp + sizeof tmp, *p = end;
	int d = decimals;
	while (d > 0 && fp % 10 == 0) {   /* trim trailing zeros */
		fp /= 10;
		d--;
	}
	for (int i = 0; i < d; i++) {
		*--p = (char)('0' + fp % 10);
		fp /= 10;
	}
	if (d)
		*--p = '.';
	p -= u64_digits(ip, p);
	if (neg && scaled)
		*--p = '-';
	af_sink_write(s, p, (size_t)(end - p));
}

int af_sink_finish(struct af_sink *s)
{
	flush(s);
	af_buf_release(&s->buf);
	if (s->error) {
		errno = s->error;
		return -1;
	}
	return 0;
}

int af_write_file(void *ctx, const void *data, size_t len)
{
	FILE *fp = ctx;
	if (fwrite(data, 1, len, fp) != len)
		return -1;
	return 0;
}

int af_write_buf(void *ctx, const void *data, size_t len)
{
	af_buf_add(ctx, data, len);
	return 0;
}

int af_write_null(void *ctx, const void *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
	return 0;
}

size_t af_fixed_point(char *out, uint64_t v, unsigned decimals)
{
	uint64_t unit = 1;
	for (unsigned i = 0; i < decimals && i < 19; i++)
		unit *= 10;
	uint64_t frac = v % unit;
	int n = frac ? snprintf(out, AF_FIXED_POINT_MAX, "%" PRIu64 ".%0*" PRIu64, v / unit, (int)decimals, frac)
		     : snprintf(out, AF_FIXED_POINT_MAX, "%" PRIu64, v / unit);
	while (frac && n > 0 && out[n - 1] == '0')
		out[--n] = 0;
	return (size_t)n;
}

void af_sink_fixed_point(struct af_sink *s, uint64_t v, unsigned decimals)
{
	char b[AF_FIXED_POINT_MAX];
	af_sink_write(s, b, af_fixed_point(b, v, decimals));
}
