/* json.c: the JSON scanner and number reading shared by the JSON readers
 * (json.h). The scanner is a loop over the mapped input with a byte a
 * container on its stack (heap, grown: no recursion, so nesting costs
 * memory bounded by the input, never the C stack); yajl (Debian
 * libyajl-dev) stays for what is rare and must stay as before: strings with
 * escapes are decoded by yajl, and text that is not JSON is read again by
 * yajl for its message and offset. yajl's memory is the project's allocator's
 * (an allocation that fails ends the program with a message, as everywhere
 * else). */
#include "json.h"
#include "core/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static void *json_malloc(void *ctx, size_t n)
{
	(void)ctx;
	return af_xmalloc(n ? n : 1);
}

static void *json_realloc(void *ctx, void *p, size_t n)
{
	(void)ctx;
	return af_xrealloc(p, n ? n : 1);
}

static void json_free(void *ctx, void *p)
{
	(void)ctx;
	free(p);
}

int af_json_fail(struct af_json *j, const char *fmt, ...)
{
	if (!j->failed) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(j->fail, sizeof j->fail, fmt, ap);
		va_end(ap);
		j->failed = true;
	}
	return 0;
}

/* yajl's message without its "parse error: " and the line end. */
static int syntax_error(yajl_handle h, const uint8_t *chunk, size_t len, uint64_t at,
			struct af_diag *d)
{
	unsigned char *e = yajl_get_error(h, 0, chunk, len);
	char *s = (char *)e;
	if (strncmp(s, "parse error: ", 13) == 0)
		s += 13;
	else if (strncmp(s, "lexical error: ", 15) == 0)
		s += 15;
	size_t n = strcspn(s, "\n");
	int rc = af_diag_offset(d, at, "not valid JSON: %.*s", (int)(n > 120 ? 120 : n), s);
	yajl_free_error(h, e);
	return rc;
}

bool af_json_take_ints(struct af_json *j, const struct af_json_ints *t)
{
	if (j->given_back) {
		j->given_back = false;
		return false;
	}
	j->take = t;
	return true;
}

/* JSON's blanks, and yajl's \v and \f. */
static bool json_blank(uint8_t c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* The digits at s[0..8): how many lead (8: all), their value in *v. One
 * word, not a byte at a time: a byte b is a digit when b ^ '0' < 10, and
 * the value is three multiplies (each adds pairs of the digits before). */
static inline unsigned eight_digits(const uint8_t *s, uint64_t *v)
{
	uint64_t t;
	memcpy(&t, s, 8);
	t ^= 0x3030303030303030ull;
	uint64_t other = ((t + 0x7676767676767676ull) | t) & 0x8080808080808080ull;
	unsigned k = other ? (unsigned)__builtin_ctzll(other) >> 3 : 8;
	if (k == 0) {
		*v = 0;
		return 0;
	}
	t <<= 8 * (8 - k);   /* the digits last, zeros before them */
	t = (t * 10 + (t >> 8)) & 0x00ff00ff00ff00ffull;
	t = (t * 100 + (t >> 16)) & 0x0000ffff0000ffffull;
	*v = (t * 10000 + (t >> 32)) & 0xffffffffull;
	return k;
}

/* The digits at s[*i..n) as a number (wrapping past 19 digits), *i past
 * them. A word that holds fewer than 8 digits ends the number: no byte
 * after it is looked at again. */
static uint64_t digits_at(const uint8_t *s, size_t n, size_t *i)
{
	static const uint64_t p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000 };
	uint64_t v = 0, w;
	size_t at = *i;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	while (n - at >= 8) {
		unsigned k = eight_digits(s + at, &w);
		v = v * p10[k] + w;
		at += k;
		if (k < 8) {
			*i = at;
			return v;
		}
	}
#endif
	for (; at < n && (unsigned)(s[at] - '0') <= 9; at++)
		v = v * 10 + (uint64_t)(s[at] - '0');
	*i = at;
	return v;
}

/* The usual element, with 8 bytes left: 1 to 7 digits (no sign, no
 * leading zero) and a ','. The offset past the ',' (*v the value), or 0
 * if it is not so (the general path reads it). */
static size_t short_int(const uint8_t *s, size_t i, int64_t *v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w;
	unsigned k = eight_digits(s + i, &w);
	if (k == 0 || k == 8 || s[i + k] != ',' || (s[i] == '0' && k > 1))
		return 0;
	*v = (int64_t)w;
	return i + k + 1;
#else
	(void)s;
	(void)i;
	(void)v;
	return 0;
#endif
}

/* Any element at s[i] (after blanks): an optional '-' and 1 to 18 digits,
 * no leading zero. The offset past it (*v the value), or 0. */
static size_t one_int(const uint8_t *s, size_t n, size_t i, int64_t *v)
{
	while (i < n && json_blank(s[i]))
		i++;
	bool neg = i < n && s[i] == '-';
	size_t d0 = i + neg, at = d0;
	uint64_t u = digits_at(s, n, &at);
	if (at == d0 || at - d0 > 18 || (s[d0] == '0' && at - d0 > 1))
		return 0;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return at;
}

/* The integers of the array whose '[' ends at `from`, to t->ints: the
 * offset past its ']', or 0 if it is not a plain array of integers (after
 * t->undo). Most elements take the short path: 48 instructions an
 * integer on a .cpuprofile, 83 through one_int (callgrind). */
static size_t read_ints(struct af_json *j, const struct af_input *in, size_t from,
			const struct af_json_ints *t)
{
	enum { BATCH = 512 };
	const uint8_t *s = in->data;
	size_t n = in->len, i = from, nb = 0, released = from;
	int64_t batch[BATCH];
	while (i < n && json_blank(s[i]))
		i++;
	if (i < n && s[i] == ']')
		return i + 1;
	bool last = false;
	while (!last) {
		size_t next = n - i >= 8 ? short_int(s, i, &batch[nb]) : 0;
		if (next) {
			i = next;
		} else {
			if (!(i = one_int(s, n, i, &batch[nb])))
				break;
			while (i < n && json_blank(s[i]))
				i++;
			last = i < n && s[i] == ']';
			if (!last && (i == n || s[i] != ','))
				break;
			i++;
		}
		if (++nb == BATCH || last) {
			t->ints(j, batch, nb);
			nb = 0;
			if (i - released >= AF_INPUT_CONSUME_STEP)
				af_input_consumed(in, released = i);
		}
	}
	if (last)
		return i;
	t->undo(j);
	return 0;
}

/* ---- the scanner ---- */

/* What a step of the scan comes to. */
enum step { GO, DONE, ENDED, BAD, REFUSED };
/* What the next token may be: a value, a value or ']' (after '['), a key
 * or '}' (after '{'), a key (after ',' in an object), ',' or the container's
 * end (after a value). */
enum want { W_VALUE, W_VALUE_OR_END, W_KEY_OR_END, W_KEY, W_AFTER };

struct scan {
	struct af_json *j;
	const yajl_callbacks *cb;
	const struct af_input *in;
	const uint8_t *s;
	size_t n, i;               /* i: where the scan is */
	size_t depth;              /* containers open: j->stack[0..depth), 1 an object */
	const char *bad;           /* why the text is not JSON (BAD) */
};

static enum step bad(struct scan *x, size_t at, const char *why)
{
	x->i = at;
	x->bad = why;
	return BAD;
}

/* Past the blanks at s[i]: one compare when there are none, the usual. */
static inline size_t skip_blanks(const uint8_t *s, size_t n, size_t i)
{
	while (i < n && s[i] <= ' ' && json_blank(s[i]))
		i++;
	return i;
}

/* The bytes a string's scan stops at: its quote, a backslash, controls. */
static const uint8_t stops[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	['"'] = 1, ['\\'] = 1,
};

static bool hex(uint8_t c)
{
	return (unsigned)(c - '0') <= 9 || (unsigned)((c | 0x20) - 'a') <= 5;
}

/* The first byte of s[i..n) a string's scan stops at (n if none).
 * Sixteen bytes a step with SSE2 (x86-64's baseline), else eight: a byte
 * is flagged when it is '"' or '\\' (x ^ it is 0) or below 0x20; the
 * lowest flag is always a true one. */
static inline size_t string_stop(const uint8_t *s, size_t n, size_t i)
{
#ifdef __SSE2__
	const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), ctl = _mm_set1_epi8(0x1f);
	for (; n - i >= 16; i += 16) {
		__m128i w = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(w, quote), _mm_cmpeq_epi8(w, backslash)),
					   _mm_cmpeq_epi8(_mm_max_epu8(w, ctl), ctl));
		unsigned m = (unsigned)_mm_movemask_epi8(hit);
		if (m)
			return i + (unsigned)__builtin_ctz(m);
	}
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	for (; n - i >= 8; i += 8) {
		uint64_t w, q, b;
		memcpy(&w, s + i, 8);
		q = w ^ (ones * '"');
		b = w ^ (ones * '\\');
		uint64_t hit = (((q - ones) & ~q) | ((b - ones) & ~b) | ((w - ones * 0x20) & ~w)) & highs;
		if (hit)
			return i + ((unsigned)__builtin_ctzll(hit) >> 3);
	}
#endif
	while (i < n && !stops[s[i]])
		i++;
	return i;
}

/* The string whose opening quote is at s[x->i - 1]: its closing quote's
 * offset (GO), with *esc if it has escapes; ENDED if the input ends first;
 * BAD (x->i at the offending byte) for a control byte or an escape JSON
 * has not. Bytes above 0x7f are not checked (yajl_dont_validate_strings). */
static enum step string_end(struct scan *x, size_t *end, bool *esc)
{
	const uint8_t *s = x->s;
	size_t n = x->n, i = x->i;
	*esc = false;
	for (;;) {
		i = string_stop(s, n, i);
		if (i == n)
			return ENDED;
		if (s[i] == '"') {
			*end = i;
			return GO;
		}
		if (s[i] != '\\')
			return bad(x, i, "a control character inside a string");
		*esc = true;
		if (i + 1 >= n)
			return ENDED;
		if (s[++i] == 'u') {
			for (unsigned k = 1; k <= 4; k++) {
				if (i + k == n)
					return ENDED;
				if (!hex(s[i + k]))
					return bad(x, i + k, "a non-hex digit after \\u");
			}
			i += 5;
		} else if (memchr("\"\\/bfnrt", s[i], 8)) {
			i++;
		} else {
			return bad(x, i, "a backslash before a character that may not follow one");
		}
	}
}

static int decoded(void *ctx, const unsigned char *s, size_t n)
{
	struct af_json *j = ctx;
	j->dec_s = s;
	j->dec_n = n;
	return 1;
}

static yajl_alloc_funcs json_alloc = { json_malloc, json_realloc, json_free, NULL };

/* The string from s[x->i - 1] (its quote) to its closing quote at end, to
 * the callback (a key or a value), unescaped by yajl if it has escapes. */
static enum step string_to(struct scan *x, size_t end, bool esc, bool key)
{
	struct af_json *j = x->j;
	const unsigned char *p = x->s + x->i;
	size_t len = end - x->i;
	if (esc) {
		static const yajl_callbacks dec = { .yajl_string = decoded };
		if (!j->dec) {
			j->dec = yajl_alloc(&dec, &json_alloc, j);
			yajl_config(j->dec, yajl_dont_validate_strings, 1);
			yajl_config(j->dec, yajl_allow_multiple_values, 1);
		}
		j->dec_s = NULL;
		if (yajl_parse(j->dec, p - 1, len + 2) != yajl_status_ok || !j->dec_s) {
			return bad(x, x->i, "a string yajl does not read");
		}
		p = j->dec_s;
		len = j->dec_n;
	}
	x->i = end + 1;
	int ok = key ? x->cb->yajl_map_key(j, p, len) : x->cb->yajl_string(j, p, len);
	return ok ? GO : REFUSED;
}

/* A string: the usual one (no escape, its quote found by one
 * string_stop) called back here, the rest through string_end. */
static enum step string(struct scan *x, bool key)
{
	size_t from = ++x->i, end = string_stop(x->s, x->n, from);
	bool esc = false;
	if (end == x->n || x->s[end] != '"') {
		enum step st = string_end(x, &end, &esc);
		if (st != GO)
			return st;
	}
	x->i = from;
	return string_to(x, end, esc, key);
}

static size_t digits_end(const uint8_t *s, size_t n, size_t i)
{
	while (i < n && (unsigned)(s[i] - '0') <= 9)
		i++;
	return i;
}

/* The end of the number at s[i] (JSON's grammar:
 * -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?) in *end: GO, or ENDED if
 * it is cut by the input's end, or BAD. A whole number at the end is GO:
 * yajl's last flush ends it. */
static enum step number_end(struct scan *x, size_t i, size_t *end)
{
	const uint8_t *s = x->s;
	size_t n = x->n, d;
	i += s[i] == '-';
	if (i < n && s[i] == '0')
		i++;
	else if (i < n && (d = digits_end(s, n, i)) > i)
		i = d;
	else
		goto malformed;
	if (i < n && s[i] == '.') {
		i++;
		if ((d = digits_end(s, n, i)) == i)
			goto malformed;
		i = d;
	}
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		i += i < n && (s[i] == '+' || s[i] == '-');
		if ((d = digits_end(s, n, i)) == i)
			goto malformed;
		i = d;
	}
	*end = i;
	return GO;
malformed:
	return i == n ? ENDED : bad(x, i, "a malformed number");
}

/* A number, to the callback as its text. */
static enum step number(struct scan *x)
{
	size_t end;
	enum step st = number_end(x, x->i, &end);
	if (st != GO)
		return st;
	const char *p = (const char *)x->s + x->i;
	x->i = end;
	return x->cb->yajl_number(x->j, p, end - (size_t)(p - (const char *)x->s)) ? GO : REFUSED;
}

/* true, false or null. */
static enum step literal(struct scan *x, const char *word, int v)
{
	size_t k = strlen(word), have = x->n - x->i < k ? x->n - x->i : k;
	for (size_t m = 1; m < have; m++)
		if (x->s[x->i + m] != (uint8_t)word[m])
			return bad(x, x->i + m, "an invalid word");
	if (have < k)
		return ENDED;
	x->i += k;
	int ok = v < 0 ? x->cb->yajl_null(x->j) : x->cb->yajl_boolean(x->j, v);
	return ok ? GO : REFUSED;
}

static void push(struct scan *x, uint8_t object)
{
	af_grow(&x->j->stack, &x->j->cap_stack, x->depth + 1, 1);
	x->j->stack[x->depth++] = object;
}

/* '[': the callback may take the array (af_json_take_ints): read here,
 * or given back and called again. */
static enum step open_array(struct scan *x, enum want *w)
{
	struct af_json *j = x->j;
	x->i++;
	*w = W_VALUE_OR_END;
	if (x->cb->yajl_start_array(j))
		return push(x, 0), GO;
	if (!j->take)
		return REFUSED;
	const struct af_json_ints *t = j->take;
	j->take = NULL;
	size_t end = read_ints(j, x->in, x->i, t);
	if (end) {
		x->i = end;
		*w = W_AFTER;
		return GO;
	}
	j->given_back = true;
	if (!x->cb->yajl_start_array(j))
		return REFUSED;
	return push(x, 0), GO;
}

static enum step value(struct scan *x, uint8_t c, enum want *w)
{
	*w = W_AFTER;
	switch (c) {
	case '{':
		x->i++;
		push(x, 1);
		*w = W_KEY_OR_END;
		return x->cb->yajl_start_map(x->j) ? GO : REFUSED;
	case '[':
		return open_array(x, w);
	case '"':
		return string(x, false);
	case 't':
		return literal(x, "true", 1);
	case 'f':
		return literal(x, "false", 0);
	case 'n':
		return literal(x, "null", -1);
	default:
		if (c == '-' || (unsigned)(c - '0') <= 9)
			return number(x);
		return bad(x, x->i, "a character that begins no value");
	}
}

/* Text that may not come here, at x->i: BAD, unless its token runs into
 * the input's end, where yajl waits for the rest of the token and so
 * finds the input cut short (ENDED); after the top-level value, a string
 * never closed is not seen at all (DONE), a number or word cut is ENDED. */
static enum step misplaced(struct scan *x, const char *why)
{
	const uint8_t *s = x->s;
	size_t i = x->i, n = x->n, end;
	bool esc;
	enum step cut = BAD;
	if (s[i] == '"') {
		struct scan y = *x;
		y.i = i + 1;
		cut = string_end(&y, &end, &esc) == ENDED ? (x->depth ? ENDED : DONE) : BAD;
	} else if (s[i] == '-' || (unsigned)(s[i] - '0') <= 9) {
		struct scan y = *x;
		enum step st = number_end(&y, i, &end);
		cut = st == ENDED || (st == GO && end == n) ? ENDED : BAD;
	} else if (s[i] == 't' || s[i] == 'f' || s[i] == 'n') {
		const char *word = s[i] == 't' ? "true" : s[i] == 'f' ? "false" : "null";
		size_t k = 1;
		while (i + k < n && word[k] && s[i + k] == (uint8_t)word[k])
			k++;
		cut = i + k == n && word[k] ? ENDED : BAD;
	}
	return cut == BAD ? bad(x, i, why) : cut;
}

/* The open container's end. */
static enum step end_container(struct scan *x, bool object)
{
	x->i++;
	x->depth--;
	return (object ? x->cb->yajl_end_map(x->j) : x->cb->yajl_end_array(x->j)) ? GO : REFUSED;
}

/* After a value: ',' or the end of the open container. */
static enum step after(struct scan *x, uint8_t c, enum want *w)
{
	if (x->depth == 0)
		return misplaced(x, "text after the value");
	bool object = x->j->stack[x->depth - 1];
	if (c == ',') {
		x->i++;
		*w = object ? W_KEY : W_VALUE;
		return GO;
	}
	if (c != (object ? '}' : ']'))
		return misplaced(x, object ? "no ',' or '}' after a member" : "no ',' or ']' after an element");
	return end_container(x, object);
}

/* A key, blanks, ':' (then a value is wanted). */
static enum step key(struct scan *x, uint8_t c, enum want *w)
{
	if (c != '"')
		return misplaced(x, "an object's key is not a string");
	enum step st = string(x, true);
	if (st != GO)
		return st;
	x->i = skip_blanks(x->s, x->n, x->i);
	if (x->i == x->n)
		return ENDED;
	if (x->s[x->i] != ':')
		return misplaced(x, "no ':' after an object's key");
	x->i++;
	*w = W_VALUE;
	return GO;
}

/* The whole input, a token a step. */
static enum step scan(struct scan *x)
{
	enum want w = W_VALUE;
	size_t released = 0;
	for (;;) {
		enum step st;
		x->i = skip_blanks(x->s, x->n, x->i);
		if (x->i == x->n)
			return w == W_AFTER && x->depth == 0 ? DONE : ENDED;
		if (x->i - released >= AF_INPUT_CONSUME_STEP)   /* done with the pages before */
			af_input_consumed(x->in, released = x->i);
		uint8_t c = x->s[x->i];
		switch (w) {
		case W_AFTER:
			st = after(x, c, &w);
			break;
		case W_KEY_OR_END:
		case W_KEY:
			st = c == '}' && w == W_KEY_OR_END ? (w = W_AFTER, end_container(x, true)) : key(x, c, &w);
			break;
		case W_VALUE_OR_END:
			st = c == ']' ? (w = W_AFTER, end_container(x, false)) : value(x, c, &w);
			break;
		default:
			st = value(x, c, &w);
		}
		if (st != GO)
			return st;
	}
}

/* yajl's reading of text the scan found not JSON: its message at its
 * offset, as before the scanner (the pieces it is given as before too); if
 * yajl takes the text, the scan's reason at its offset. */
static int not_json(const struct af_input *in, size_t at, const char *why, struct af_diag *d)
{
	yajl_handle h = yajl_alloc(NULL, &json_alloc, NULL);
	yajl_config(h, yajl_dont_validate_strings, 1);
	for (size_t from = 0; from < in->len; from += AF_INPUT_CONSUME_STEP) {
		size_t n = in->len - from < AF_INPUT_CONSUME_STEP ? in->len - from : AF_INPUT_CONSUME_STEP;
		if (yajl_parse(h, in->data + from, n) == yajl_status_error) {
			int rc = syntax_error(h, in->data + from, n, from + yajl_get_bytes_consumed(h), d);
			yajl_free(h);
			return rc;
		}
	}
	yajl_free(h);
	return af_diag_offset(d, at, "not valid JSON: %s", why ? why : "?");
}

int af_json_parse(struct af_json *j, const struct af_input *in, const yajl_callbacks *cb,
		  struct af_diag *d)
{
	struct scan x = { .j = j, .cb = cb, .in = in, .s = in->data, .n = in->len };
	enum step st = scan(&x);
	free(j->stack);
	j->stack = NULL;
	j->cap_stack = 0;
	if (j->dec)
		yajl_free(j->dec);
	j->dec = NULL;
	af_input_consumed(in, x.i);
	switch (st) {
	case DONE:
		return 0;
	case REFUSED:
		return af_diag_offset(d, x.i, "%s", j->fail);
	case BAD:
		return not_json(in, x.i, x.bad, d);
	default:
		return 1;
	}
}

/* ---- numbers ---- */

/* Digits of s[*i..n) into *v (at most 18 kept; the count of the rest in
 * *dropped), *i past them. */
static size_t digits(const char *s, size_t n, size_t *i, uint64_t *v, int *dropped)
{
	size_t start = *i;
	for (; *i < n && s[*i] >= '0' && s[*i] <= '9'; ++*i) {
		if (*v < 100000000000000000ull)
			*v = *v * 10 + (uint64_t)(s[*i] - '0');
		else
			++*dropped;
	}
	return *i - start;
}

/* s as mantissa * 10^exp10 (exact up to 18 significant digits). */
static bool decimal(const char *s, size_t n, bool *neg, uint64_t *m, int *exp10)
{
	size_t i = 0;
	*neg = n && s[0] == '-';
	i += *neg || (n && s[0] == '+');
	*m = 0;
	int dropped = 0, frac = 0;
	size_t k = digits(s, n, &i, m, &dropped);
	if (i < n && s[i] == '.') {
		i++;
		int before = dropped;
		size_t f = digits(s, n, &i, m, &dropped);
		frac = (int)f - (dropped - before);
		dropped = before;
		k += f;
	}
	if (k == 0)
		return false;
	long e = 0;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		bool eneg = i < n && s[i] == '-';
		i += i < n && (s[i] == '-' || s[i] == '+');
		size_t e0 = i;
		for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
			if (e < 100000)
				e = e * 10 + (s[i] - '0');
		if (i == e0)
			return false;
		e = eneg ? -e : e;
	}
	*exp10 = (int)(e + dropped - frac);
	return i == n;
}

static const uint64_t pow10u[] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
	100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
	10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull,
};

/* m * 10^e rounded to an integer, if it is below 2^62. */
static bool scale(uint64_t m, int e, int64_t *out)
{
	const uint64_t max = (uint64_t)1 << 62;
	if (m == 0) {
		*out = 0;
		return true;
	}
	if (e >= 0) {
		if (e > 18 || m > max / pow10u[e])
			return false;
		*out = (int64_t)(m * pow10u[e]);
		return true;
	}
	if (e < -18) {
		*out = 0;
		return true;
	}
	uint64_t p = pow10u[-e];
	*out = (int64_t)(m / p + (m % p >= (p + 1) / 2));
	return true;
}

/* The usual number: 1 to 18 digits and perhaps a '-' (what decimal()
 * reads exactly, and what fits), without decimal()'s per-digit checks. */
static bool plain(const char *s, size_t n, bool *neg, uint64_t *v)
{
	*neg = n && s[0] == '-';
	size_t i = *neg;
	if (n - i == 0 || n - i > 18)
		return false;
	*v = digits_at((const uint8_t *)s, n, &i);
	return i == n;
}

bool af_json_ns(const char *s, size_t n, int64_t *ns)
{
	bool minus;
	uint64_t v;
	if (plain(s, n, &minus, &v)) {
		if (v > ((uint64_t)1 << 62) / 1000)
			return false;
		*ns = minus ? -(int64_t)(v * 1000) : (int64_t)(v * 1000);
		return true;
	}
	bool neg;
	uint64_t m;
	int e;
	if (!decimal(s, n, &neg, &m, &e) || !scale(m, e + 3, ns))
		return false;
	if (neg)
		*ns = -*ns;
	return true;
}

bool af_json_int(const char *s, size_t n, int64_t *v)
{
	bool minus;
	uint64_t u;
	if (plain(s, n, &minus, &u)) {
		*v = minus ? -(int64_t)u : (int64_t)u;
		return true;
	}
	bool neg;
	uint64_t m;
	int e;
	if (!decimal(s, n, &neg, &m, &e))
		return false;
	if (e < 0) {   /* drop the fraction, not round */
		if (e < -18)
			m = 0;
		else
			m /= pow10u[-e];
		e = 0;
	}
	if (!scale(m, e, v))
		return false;
	if (neg)
		*v = -*v;
	return true;
}
