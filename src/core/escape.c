/* escape.c: the one UTF-8 decoder and the writers built on it (escape.h). */
#include "escape.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

size_t af_utf8_encode(uint32_t cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* ---- UTF-8 ---- */

/* Decode one code point of s[0..len) (len >= 1). Returns the bytes used;
 * *cp is U+FFFD for a byte that does not start a valid, shortest-form
 * sequence of a scalar value (that byte alone is used), and for characters
 * XML cannot or should not carry: C0 and C1 controls, DEL, U+FFFE/U+FFFF. */
size_t af_utf8_next(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned c = s[0];
	size_t n;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = (c < 0x20 || c == 0x7f) ? 0xfffd : c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
		min = 0x10000;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	if (len < n) {
		*cp = 0xfffd;
		return 1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
		*cp = 0xfffd;
		return 1;
	}
	if ((v >= 0x80 && v <= 0x9f) || v == 0xfffe || v == 0xffff)
		v = 0xfffd;
	*cp = v;
	return n;
}

/* Code points in s as af_escape_xml() will write them (one per repaired byte). */
size_t af_utf8_count(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = 0;
	for (size_t i = 0; i < len; n++) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		uint32_t cp;
		i += af_utf8_next(s + i, len - i, &cp);
	}
	return n;
}

void af_put_utf8(struct af_sink *out, uint32_t cp)
{
	char b[4];
	af_sink_write(out, b, af_utf8_encode(cp, b));
}


/* Write at most max_cp code points of s as XML character data or attribute
 * value text: & < > " ' become entities, bad bytes and controls U+FFFD.
 * Runs of plain ASCII go out in one write. */
void af_escape_xml_n(struct af_sink *out, const char *str, size_t len, size_t max_cp)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0, ncp = 0;
	while (i < len && ncp < max_cp) {
		unsigned c = s[i];
		if (c >= 0x20 && c < 0x7f && c != '&' && c != '<' && c != '>' &&
		    c != '"' && c != '\'') {
			i++;
			ncp++;
			continue;
		}
		af_sink_write(out, s + run, i - run);
		uint32_t cp;
		size_t n = af_utf8_next(s + i, len - i, &cp);
		switch (cp) {
		case '&': af_sink_write(out, "&amp;", 5); break;
		case '<': af_sink_write(out, "&lt;", 4); break;
		case '>': af_sink_write(out, "&gt;", 4); break;
		case '"': af_sink_write(out, "&quot;", 6); break;
		case '\'': af_sink_write(out, "&#39;", 5); break;
		default:
			if (cp == 0xfffd || n == 1)
				af_put_utf8(out, cp);
			else
				af_sink_write(out, s + i, n);
		}
		i += n;
		ncp++;
		run = i;
	}
	af_sink_write(out, s + run, i - run);
}

void af_escape_xml(struct af_sink *out, const char *s)
{
	af_escape_xml_n(out, s, strlen(s), SIZE_MAX);
}

/* Whether af_escape_json() copies byte c as it is: printable ASCII but
 * for " \\ < > &, as two words of bits. */
static inline bool json_plain(unsigned c)
{
	static const uint64_t plain[2] = {
		0xffffffff00000000ull & ~(1ull << '"' | 1ull << '&' | 1ull << '<' | 1ull << '>'),
		0x7fffffffffffffffull & ~(1ull << ('\\' - 64)),
	};
	return c < 128 && (plain[c >> 6] >> (c & 63) & 1);
}

/* Whether all 8 bytes of x are json_plain, tested at once (the names of a
 * big graph are megabytes): no byte has its high bit, none is below 0x20,
 * none equals 0x7f or one of the five. has_zero(v) is the exact test for a
 * zero byte in v, below(v, n) for a byte below n (v's bytes all < 0x80). */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull
#define has_zero(v) (((v) - ONES) & ~(v) & HIGHS)
#define below(v, n) (((v) - ONES * (n)) & ~(v) & HIGHS)
static inline bool json_plain8(uint64_t x)
{
	return !(x & HIGHS) && !below(x, 0x20) && !has_zero(x ^ ONES * 0x7f) &&
	       !has_zero(x ^ ONES * '"') && !has_zero(x ^ ONES * '\\') && !has_zero(x ^ ONES * '<') &&
	       !has_zero(x ^ ONES * '>') && !has_zero(x ^ ONES * '&');
}

/* s as a JSON string that is also safe inside <script> and CDATA: < > &
 * and U+2028/U+2029 are \u escapes; bad bytes and controls become U+FFFD
 * exactly as in af_escape_xml(), so tooltips show what the labels show. */
void af_escape_json(struct af_sink *out, const char *str, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;
	af_sink_putc(out, '"');
	while (i < len) {
		uint64_t x;
		if (i + 8 <= len && (memcpy(&x, s + i, 8), json_plain8(x))) {
			i += 8;
			continue;
		}
		if (json_plain(s[i])) {
			i++;
			continue;
		}
		af_sink_write(out, s + run, i - run);
		uint32_t cp;
		size_t n = af_utf8_next(s + i, len - i, &cp);
		if (cp == '"' || cp == '\\') {
			char e[2] = { '\\', (char)cp };
			af_sink_write(out, e, 2);
		} else if (cp == '<' || cp == '>' || cp == '&' || cp == 0x2028 || cp == 0x2029) {
			char e[6] = { '\\', 'u', hex[cp >> 12], hex[cp >> 8 & 15],
				      hex[cp >> 4 & 15], hex[cp & 15] };
			af_sink_write(out, e, 6);
		} else if (cp == 0xfffd || n == 1) {
			af_put_utf8(out, cp);
		} else {
			af_sink_write(out, s + i, n);
		}
		i += n;
		run = i;
	}
	af_sink_write(out, s + run, i - run);
	af_sink_putc(out, '"');
}

/* A CSS string for a font family: anything but letters, digits, space, '-'
 * and '_' becomes a CSS hex escape, so it can't end the string, the rule or
 * the <style> element, and needs no XML escaping either. */
void af_escape_css(struct af_sink *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str);
	af_sink_putc(out, '"');
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = af_utf8_next(s + i, len - i, &cp);
		if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') ||
		    (cp >= '0' && cp <= '9') || cp == ' ' || cp == '-' || cp == '_')
			af_sink_putc(out, (char)cp);
		else
			af_sink_printf(out, "\\%x ", (unsigned)cp);
		i += n;
	}
	af_sink_putc(out, '"');
}

/* A CSV cell (RFC 4180): quoted when it holds a comma, quote or line end.
 * A cell that starts like a formula (= + - @, tab, CR) gets a leading
 * apostrophe, as spreadsheet tools ask, so opening the file runs nothing. */
void af_escape_csv(struct af_sink *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	bool formula = len && strchr("=+-@\t\r", s[0]);
	bool quote = formula || memchr(str, ',', len) || memchr(str, '"', len) ||
		     memchr(str, '\n', len) || memchr(str, '\r', len);
	if (quote)
		af_sink_putc(out, '"');
	if (formula)
		af_sink_putc(out, '\'');
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = af_utf8_next(s + i, len - i, &cp);
		if (cp == '"')
			af_sink_write(out, "\"\"", 2);
		else if (cp == 0xfffd || n == 1)
			af_put_utf8(out, cp);
		else
			af_sink_write(out, s + i, n);
		i += n;
	}
	if (quote)
		af_sink_putc(out, '"');
}

/* Characters that reorder text on a terminal (bidi controls) are shown as
 * \u escapes, so a name cannot make a line read other than it is. */
static bool bidi_control(uint32_t cp)
{
	return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x200e || cp == 0x200f || cp == 0x061c;
}

/* The code point of a well-formed 2- or 3-byte sequence. */
static uint32_t raw_cp(const unsigned char *s, size_t n)
{
	return n == 2 ? (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f)
		      : (uint32_t)(s[0] & 0x0f) << 12 | (uint32_t)(s[1] & 0x3f) << 6 | (s[2] & 0x3f);
}

void af_escape_term(struct af_sink *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;
	while (i < len) {
		if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\') {
			i++;
			continue;
		}
		af_sink_write(out, s + run, i - run);
		uint32_t cp;
		size_t n = af_utf8_next(s + i, len - i, &cp);
		if (s[i] == '\\')
			af_sink_write(out, "\\\\", 2);
		else if (n == 1 && cp == 0xfffd)   /* a control or a bad byte: its value */
			af_sink_printf(out, "\\x%02x", s[i]);
		else if (cp == 0xfffd && raw_cp(s + i, n) != 0xfffd)   /* C1, U+FFFE, U+FFFF */
			af_sink_printf(out, "\\u%04x", (unsigned)raw_cp(s + i, n));
		else if (bidi_control(cp))
			af_sink_printf(out, "\\u%04x", (unsigned)cp);
		else
			af_sink_write(out, s + i, n);
		i += n;
		run = i;
	}
	af_sink_write(out, s + run, i - run);
}

char *af_escape_term_dup(const char *s)
{
	struct af_buf b;
	struct af_sink k;
	af_buf_init(&b);
	af_sink_init(&k, af_write_buf, &b);
	af_escape_term(&k, s, strlen(s));
	af_sink_finish(&k);
	return b.data ? af_buf_detach(&b) : af_xstrndup("", 0);
}

char *af_utf8_clean(const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	if (!af_mul_ok(len, 3) || len * 3 == SIZE_MAX)
		AF_BUG("string too long");
	char *out = af_xmalloc(len * 3 + 1), *o = out;   /* a bad byte: 3 bytes */
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t n = af_utf8_next(s + i, len - i, &cp);
		if (cp == 0xfffd || n == 1)
			o += af_utf8_encode(cp, o);
		else {
			memcpy(o, s + i, n);
			o += n;
		}
		i += n;
	}
	*o = 0;
	return out;
}
