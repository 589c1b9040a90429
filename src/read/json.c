/* json.c: the yajl driver and number reading shared by the JSON readers
 * (json.h). The input goes to yajl in pieces of AF_INPUT_CONSUME_STEP, so a
 * mapped file's pages are released as they are read, and yajl's memory is
 * the project's allocator's (an allocation that fails ends the program with
 * a message, as everywhere else). */
#include "json.h"
#include "core/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static int syntax_error(struct af_json *j, const uint8_t *chunk, size_t len, uint64_t at,
			struct af_diag *d)
{
	unsigned char *e = yajl_get_error(j->h, 0, chunk, len);
	char *s = (char *)e;
	if (strncmp(s, "parse error: ", 13) == 0)
		s += 13;
	else if (strncmp(s, "lexical error: ", 15) == 0)
		s += 15;
	size_t n = strcspn(s, "\n");
	int rc = af_diag_offset(d, at, "not valid JSON: %.*s", (int)(n > 120 ? 120 : n), s);
	yajl_free_error(j->h, e);
	return rc;
}

/* A fresh parser for j's callbacks, fed `prime` first with its callbacks
 * silent (a parser restarted inside the top-level object). */
static void start(struct af_json *j, const yajl_callbacks *cb, const char *prime)
{
	static yajl_alloc_funcs alloc = { json_malloc, json_realloc, json_free, NULL };
	memset(&j->cb, 0, sizeof j->cb);
	j->h = yajl_alloc(&j->cb, &alloc, j);
	yajl_config(j->h, yajl_dont_validate_strings, 1);
	if (prime)
		yajl_parse(j->h, (const unsigned char *)prime, strlen(prime));
	j->cb = *cb;
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

static bool json_blank(uint8_t c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The digits at s[0..8): how many lead (8: all), their value in *v. One
 * word, not a byte at a time: a byte b is a digit when b ^ '0' < 10, and
 * the value is three multiplies (each adds pairs of the digits before). */
static unsigned eight_digits(const uint8_t *s, uint64_t *v)
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
 * them. */
static uint64_t digits_at(const uint8_t *s, size_t n, size_t *i)
{
	static const uint64_t p10[] = { 1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000 };
	uint64_t v = 0, w;
	size_t at = *i;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (unsigned k = 8; k == 8 && n - at >= 8; at += k) {
		k = eight_digits(s + at, &w);
		v = v * p10[k] + w;
	}
#endif
	for (; at < n && (unsigned)(s[at] - '0') <= 9; at++)
		v = v * 10 + (uint64_t)(s[at] - '0');
	*i = at;
	return v;
}

/* The integers of the array whose '[' ends at `from`, to t->ints: the
 * offset past its ']', or 0 if it is not a plain array of integers (after
 * t->undo). */
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
	for (;;) {
		bool neg = i < n && s[i] == '-';
		i += neg;
		size_t d0 = i;
		uint64_t v = digits_at(s, n, &i);
		if (i == d0 || i - d0 > 18 || (s[d0] == '0' && i - d0 > 1))
			break;
		batch[nb++] = neg ? -(int64_t)v : (int64_t)v;
		if (nb == BATCH) {
			t->ints(j, batch, nb);
			nb = 0;
			if (i - released >= AF_INPUT_CONSUME_STEP)
				af_input_consumed(in, released = i);
		}
		if (i < n && s[i] == ',') {   /* the usual: no blanks */
			for (i++; i < n && json_blank(s[i]); i++)
				;
			continue;
		}
		while (i < n && json_blank(s[i]))
			i++;
		if (i < n && s[i] == ']') {
			t->ints(j, batch, nb);
			return i + 1;
		}
		if (i == n || s[i] != ',')
			break;
		for (i++; i < n && json_blank(s[i]); i++)
			;
	}
	t->undo(j);
	return 0;
}

int af_json_parse(struct af_json *j, const struct af_input *in, const yajl_callbacks *cb,
		  struct af_diag *d)
{
	start(j, cb, NULL);
	int rc = 0;
	size_t at = 0;
	while (at < in->len && rc == 0) {
		size_t n = in->len - at < AF_INPUT_CONSUME_STEP ? in->len - at : AF_INPUT_CONSUME_STEP;
		yajl_status s = yajl_parse(j->h, in->data + at, n);
		size_t used = yajl_get_bytes_consumed(j->h);
		if (s == yajl_status_client_canceled && j->take) {
			/* an array taken (just past its '['): read here and yajl
			 * restarted past it as if after {"":"" (a string: a
			 * number would wait for what ends it), or given back */
			const struct af_json_ints *t = j->take;
			j->take = NULL;
			yajl_free(j->h);
			size_t end = read_ints(j, in, at + used, t);
			start(j, cb, end ? "{\"\":\"\"" : "{\"\":");
			j->given_back = !end;
			at = end ? end : at + used - 1;
			continue;
		}
		if (s == yajl_status_client_canceled)
			rc = af_diag_offset(d, at + used, "%s", j->fail);
		else if (s == yajl_status_error)
			rc = syntax_error(j, in->data + at, n, at + used, d);
		at += n;
		af_input_consumed(in, at);
	}
	if (rc == 0 && yajl_complete_parse(j->h) != yajl_status_ok)
		rc = j->failed ? af_diag_offset(d, in->len, "%s", j->fail) : 1;
	yajl_free(j->h);
	j->h = NULL;
	return rc;
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

bool af_json_ns(const char *s, size_t n, int64_t *ns)
{
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
