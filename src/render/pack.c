/* pack.c: the page's data as the SVG carries it (pack.h): lists of
 * integers in base 32, and the bulk deflated in zlib's format and written
 * in base64, on a second thread while the caller writes the rest. The
 * deflater is libdeflate's, at level 1: on the pprof bench's 1.5 MB of
 * names and frames zlib took 132M instructions at level 3 (442 KB) and
 * 110M at level 1 (489 KB), libdeflate 48M (437 KB), so the second thread,
 * which also writes the JSON, no longer makes the main one wait (per
 * thread, callgrind: 199M -> 115M against the main thread's 95M after the
 * start). At 202k frames it is 2.5% larger than zlib's level 3. */
#include "pack.h"
#include "core/util.h"

#include <libdeflate.h>
#include <stdint.h>
#include <stdlib.h>

#define PACK_LEVEL 1

/* Lists of integers (one or more per frame) reach the script as one string
 * that ints() in frames.js decodes: a browser scans a string literal of
 * megabytes in milliseconds, where an array literal of as many numbers took
 * over a second to parse at 200k frames, and every byte of the file costs
 * load time. A number is written in base 32, lowest digit first: the
 * digits before the last from list_more, the last from list_last, so
 * numbers need no separator ("0" is 0, "B1" is 33); a negative one starts
 * with '-'. None of these characters needs escaping in a script string or
 * in CDATA. af_list_begin() opens list KEY, list_item() starts the item after
 * k others (a line continuation every 64 items keeps lines short). */
static const char list_last[] = "0123456789abcdefghijklmnopqrstuv";
static const char list_more[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZwxyz+/";

void af_list_begin(struct af_sink *out, const char *key)
{
	af_sink_puts(out, ",\n");
	af_sink_puts(out, key);
	af_sink_puts(out, ":\"");
}

static void list_item(struct af_sink *out, size_t k)
{
	if (k && k % 64 == 0)
		af_sink_write(out, "\\\n", 2);
}

size_t af_base32(char *to, uint64_t v)
{
	size_t n = 0;
	for (; v >= 32; v >>= 5)
		to[n++] = list_more[v & 31];
	to[n++] = list_last[v];
	return n;
}

void af_list_u64(struct af_sink *out, size_t k, uint64_t v)
{
	char b[AF_BASE32_MAX];
	list_item(out, k);
	af_sink_write(out, b, af_base32(b, v));
}

/* a - b, which may be negative */
size_t af_base32_diff(char *to, uint64_t a, uint64_t b)
{
	if (a >= b)
		return af_base32(to, a - b);
	to[0] = '-';
	return 1 + af_base32(to + 1, b - a);
}

void af_list_diff(struct af_sink *out, size_t k, uint64_t a, uint64_t b)
{
	char d[AF_BASE32_MAX];
	list_item(out, k);
	af_sink_write(out, d, af_base32_diff(d, a, b));
}

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* z[0..n) in base64 ('=' padded), a line continuation (backslash,
 * newline) every `line` characters when line is not 0 (a multiple of 4,
 * at most 1024);
 * made a line at a time (a sink call per 4 characters was 30 instructions
 * a byte) */
static void base64(struct af_sink *out, const unsigned char *z, size_t n, size_t line)
{
	char q[1024];
	size_t per = line && line < sizeof q ? line : sizeof q;   /* characters a piece */
	for (size_t i = 0, col = 0; i < n;) {
		size_t k = 0;
		for (; k < per && i < n; i += 3, k += 4) {
			unsigned v = (unsigned)z[i] << 16 | (i + 1 < n ? (unsigned)z[i + 1] << 8 : 0) |
				     (i + 2 < n ? z[i + 2] : 0);
			q[k] = b64[v >> 18];
			q[k + 1] = b64[v >> 12 & 63];
			q[k + 2] = i + 1 < n ? b64[v >> 6 & 63] : '=';
			q[k + 3] = i + 2 < n ? b64[v & 63] : '=';
		}
		if (line && col == line) {
			af_sink_write(out, "\\\n", 2);
			col = 0;
		}
		af_sink_write(out, q, k);
		col += k;
	}
}

/* the job: what fill writes, deflated, into the literal p->text */
static void pack_fn(void *arg)
{
	struct af_pack *p = arg;
	struct af_buf data;
	struct af_sink s;
	af_buf_init(&data);
	af_sink_init(&s, af_write_buf, &data);
	p->fill(p->ctx, &s);
	af_sink_finish(&s);
	p->len = data.len;
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(PACK_LEVEL);
	size_t room = c ? libdeflate_zlib_compress_bound(c, data.len) : 0;
	unsigned char *z = c ? malloc(room) : NULL;
	size_t zlen = z ? libdeflate_zlib_compress(c, data.data, data.len, z, room) : 0;
	p->ok = zlen > 0;
	libdeflate_free_compressor(c);
	af_buf_release(&data);
	if (p->ok) {
		af_sink_init(&s, af_write_buf, &p->text);
		af_sink_putc(&s, '"');
		base64(&s, z, zlen, AF_PACK_LINE);
		af_sink_putc(&s, '"');
		af_sink_finish(&s);
	}
	free(z);
}

void af_pack_begin(struct af_pack *p, void (*fill)(void *ctx, struct af_sink *out), void *ctx)
{
	p->fill = fill;
	p->ctx = ctx;
	p->len = 0;
	p->ok = false;
	af_buf_init(&p->text);
	af_job_start(&p->job, pack_fn, p);
}

size_t af_pack_wait(struct af_pack *p)
{
	af_job_join(&p->job);
	return p->len;
}

int af_pack_end(struct af_pack *p, struct af_sink *out, struct af_diag *d)
{
	af_job_join(&p->job);
	if (p->ok)
		af_sink_write(out, p->text.data, p->text.len);
	af_buf_release(&p->text);
	return p->ok ? 0 : af_diag_error(d, "cannot write SVG: out of memory to deflate its data");
}

void af_pack_cancel(struct af_pack *p)
{
	af_job_join(&p->job);
	af_buf_release(&p->text);
}

void af_pack_base64(struct af_sink *out, const void *data, size_t len)
{
	base64(out, data, len, 0);
}
