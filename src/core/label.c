/* label.c: the text drawn on a frame (label.h), and its colour.
 *
 * The name is decoded once into code points, and every cut works on those:
 * the page's script (page/label.js) does the same on its strings' code
 * points, so both sides agree on lengths and on where a cut falls. Brackets
 * are matched first; a name whose brackets do not pair up (operator<,
 * "a < b" in a trace mark) has no structure to go by and is only cut in
 * the middle, as a plain name is. */
#include "label.h"
#include "escape.h"
#include "util.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define ELLIPSIS 0x2026u
#define DEPTH_MAX 64            /* deeper nesting: no structure */

void af_labeler_init(struct af_labeler *lb, enum af_label_cut cut)
{
	memset(lb, 0, sizeof *lb);
	lb->cut = cut;
	af_buf_init(&lb->text);
}

void af_labeler_release(struct af_labeler *lb)
{
	free(lb->a);
	free(lb->b);
	free(lb->match);
	af_buf_release(&lb->text);
	memset(lb, 0, sizeof *lb);
}

size_t af_label_shown_len(const char *s, size_t len)
{
	if (len > 4 && s[len - 4] == '_' && s[len - 3] == '[' && s[len - 1] == ']' &&
	    (s[len - 2] == 'k' || s[len - 2] == 'j' || s[len - 2] == 'i' || s[len - 2] == 'w'))
		return len - 4;
	return len;
}

/* ---- code point strings ---- */

struct cps {
	uint32_t *p;
	size_t n;
};

static bool ident(uint32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool hex(uint32_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static uint32_t opener_of(uint32_t c)
{
	return c == ')' ? '(' : c == ']' ? '[' : c == '}' ? '{' : c == '>' ? '<' : 0;
}

static bool opener(uint32_t c)
{
	return c == '(' || c == '[' || c == '{' || c == '<';
}

/* match[i]: the partner of bracket i, -1 for other characters. False when
 * the brackets do not pair up. "->" is an arrow, not a bracket. */
static bool pair_up(const struct cps *s, int32_t *match)
{
	int32_t stack[DEPTH_MAX];
	size_t d = 0;
	for (size_t i = 0; i < s->n; i++) {
		uint32_t c = s->p[i];
		match[i] = -1;
		if (opener(c)) {
			if (d == DEPTH_MAX)
				return false;
			stack[d++] = (int32_t)i;
		} else if (opener_of(c) && !(c == '>' && i > 0 && s->p[i - 1] == '-')) {
			if (!d || s->p[stack[d - 1]] != opener_of(c))
				return false;
			d--;
			match[i] = stack[d];
			match[stack[d]] = (int32_t)i;
		}
	}
	return d == 0;
}

/* A bracket group's content is worth eliding: more than nothing or "…". */
static bool elidable(const struct cps *s, size_t open, size_t close)
{
	return close > open + 1 && !(close == open + 2 && s->p[open + 1] == ELLIPSIS);
}

static void put(struct cps *d, uint32_t c)
{
	d->p[d->n++] = c;
}

static void put_run(struct cps *d, const uint32_t *p, size_t n)
{
	memcpy(d->p + d->n, p, n * sizeof *p);
	d->n += n;
}

/* ---- the cuts ---- */

/* 1a: the parameter list, the last top-level "(...)": after a name (not
 * "main (1234)") and followed at most by qualifiers (" const", "&"). */
static bool cut_params(const struct cps *s, const int32_t *m, struct cps *d)
{
	size_t open = SIZE_MAX;
	for (size_t i = 0; i < s->n; i = m[i] >= 0 && opener(s->p[i]) ? (size_t)m[i] + 1 : i + 1)
		if (s->p[i] == '(')
			open = i;
	if (open == SIZE_MAX || open == 0 || s->p[open - 1] == ' ')
		return false;
	size_t close = (size_t)m[open];
	if (!elidable(s, open, close) || s->n - close - 1 > 16)
		return false;
	for (size_t i = close + 1; i < s->n; i++)
		if (!((s->p[i] >= 'a' && s->p[i] <= 'z') || s->p[i] == ' ' || s->p[i] == '&'))
			return false;
	d->n = 0;
	put_run(d, s->p, open + 1);
	put(d, ELLIPSIS);
	put_run(d, s->p + close, s->n - close);
	return true;
}

/* 1b: top-level template arguments, "<...>" right after a name (not
 * Java's "<init>" or a Rust "<T as U>::"). */
static bool cut_templates(const struct cps *s, const int32_t *m, struct cps *d)
{
	bool cut = false;
	d->n = 0;
	for (size_t i = 0; i < s->n;) {
		uint32_t c = s->p[i];
		if (!opener(c) || m[i] < 0) {
			put(d, c);
			i++;
			continue;
		}
		size_t close = (size_t)m[i];
		if (c == '<' && i > 0 && ident(s->p[i - 1]) && elidable(s, i, close)) {
			put(d, '<');
			put(d, ELLIPSIS);
			put(d, '>');
			cut = true;
		} else {
			put_run(d, s->p + i, close + 1 - i);
		}
		i = close + 1;
	}
	return cut;
}

/* The top-level separators of s and where its qualifiers end. */
struct seps {
	size_t nseps;        /* '/', "::" and '.' at the top level */
	size_t keep;         /* first code point kept after cut 2 (0: none) */
};

/* Dotted: from the first part after a dot that starts with a capital (the
 * class), but at least two parts. */
static size_t dotted_keep(const struct cps *s, const int32_t *m)
{
	size_t ndots = 0, prev = 0, k = 0, start = 0, before = 0;
	for (size_t i = 0; i < s->n; i = m[i] >= 0 && opener(s->p[i]) ? (size_t)m[i] + 1 : i + 1) {
		if (s->p[i] != '.')
			continue;
		ndots++;
		if (!k && i + 1 < s->n && s->p[i + 1] >= 'A' && s->p[i + 1] <= 'Z') {
			k = ndots;
			start = i + 1;
			before = ndots >= 2 ? prev + 1 : 0;
		}
		prev = i;
	}
	if (!k)
		return 0;
	if (k + 2 <= ndots + 1)
		return start;
	return ndots + 1 >= 3 ? before : 0;
}

static struct seps separators(const struct cps *s, const int32_t *m)
{
	struct seps r = { 0, 0 };
	size_t slash = SIZE_MAX, c1 = SIZE_MAX, c2 = SIZE_MAX, ncolons = 0;
	for (size_t i = 0; i < s->n; i = m[i] >= 0 && opener(s->p[i]) ? (size_t)m[i] + 1 : i + 1) {
		uint32_t c = s->p[i];
		if (c == '/' || c == '.')
			r.nseps++;
		if (c == '/')
			slash = i;
		if (c == ':' && i + 1 < s->n && s->p[i + 1] == ':') {
			r.nseps++;
			ncolons++;
			c1 = c2;
			c2 = i;
			i++;
		}
	}
	if (slash != SIZE_MAX)
		r.keep = slash + 1 < s->n ? slash + 1 : 0;
	else if (ncolons >= 2)
		r.keep = c1 + 2;
	else if (!ncolons)
		r.keep = dotted_keep(s, m);
	return r;
}

/* A file, or an address in one: "/system/lib/libc.so", "[kernel.kallsyms]",
 * "libfoo.so+0x1a2b", "libnative.so[+1a2b]". */
static bool file_like(const struct cps *s)
{
	if (s->n && (s->p[0] == '/' || s->p[0] == '['))
		return true;
	for (size_t i = 0; i + 1 < s->n; i++)
		if ((s->p[i] == '[' && s->p[i + 1] == '+') ||
		    (s->p[i] == '+' && s->p[i + 1] == '0' && i + 2 < s->n && s->p[i + 2] == 'x'))
			return true;
	return false;
}

/* 3: the digits of the last offset ("+0x1a2b", "[+1a2b]") as "…". */
static bool cut_offset(const struct cps *s, struct cps *d)
{
	size_t at = SIZE_MAX;
	for (size_t i = 0; i + 1 < s->n; i++) {
		if (s->p[i] == '[' && s->p[i + 1] == '+')
			at = i + 2;
		else if (s->p[i] == '+' && s->p[i + 1] == '0' && i + 2 < s->n && s->p[i + 2] == 'x')
			at = i + 3;
	}
	if (at == SIZE_MAX)
		return false;
	size_t end = at;
	while (end < s->n && hex(s->p[end]))
		end++;
	if (end - at < 2)
		return false;
	d->n = 0;
	put_run(d, s->p, at);
	put(d, ELLIPSIS);
	put_run(d, s->p + end, s->n - end);
	return true;
}

/* 4: room - 1 code points of s and an ellipsis: all from the end (left),
 * or the larger half from the end (middle). At the left a separator right
 * after the ellipsis goes ("…createAndAdd", not "….createAndAdd"): the
 * ellipsis stands for the qualifier and its dot alike. */
static void cut_ellipsis(const struct cps *s, size_t room, bool left, struct cps *d)
{
	size_t keep = room - 1, head = left ? 0 : keep / 2, tail = keep - head;
	while (left && tail > 1 && (s->p[s->n - tail] == '.' || s->p[s->n - tail] == ':' ||
				    s->p[s->n - tail] == '/'))
		tail--;
	d->n = 0;
	put_run(d, s->p, head);
	put(d, ELLIPSIS);
	put_run(d, s->p + s->n - tail, tail);
}

/* ---- the label ---- */

static size_t emit(struct af_labeler *lb, const uint32_t *p, size_t n)
{
	lb->text.len = 0;
	for (size_t i = 0; i < n; i++) {
		char u[4];
		af_buf_add(&lb->text, u, af_utf8_encode(p[i], u));
	}
	af_buf_putc(&lb->text, 0);
	lb->text.len--;
	return n;
}

static void swap(struct cps *x, struct cps *y)
{
	struct cps t = *x;
	*x = *y;
	*y = t;
}

/* The smart cut of s (its room: lb->b and lb->match) to room. */
static size_t smart(struct af_labeler *lb, struct cps s, size_t room)
{
	struct cps d = { lb->b, 0 };
	bool file = file_like(&s), qualified = false;
	if (pair_up(&s, lb->match)) {
		if (cut_params(&s, lb->match, &d)) {
			swap(&s, &d);
			qualified = true;
			if (s.n <= room)
				return emit(lb, s.p, s.n);
			pair_up(&s, lb->match);
		}
		if (cut_templates(&s, lb->match, &d)) {
			swap(&s, &d);
			qualified = true;
			if (s.n <= room)
				return emit(lb, s.p, s.n);
			pair_up(&s, lb->match);
		}
		struct seps sep = separators(&s, lb->match);
		qualified |= sep.nseps > 0;
		if (sep.keep) {
			memmove(s.p, s.p + sep.keep, (s.n - sep.keep) * sizeof *s.p);
			s.n -= sep.keep;
			if (s.n <= room)
				return emit(lb, s.p, s.n);
		}
	}
	if (file && cut_offset(&s, &d)) {
		swap(&s, &d);
		if (s.n <= room)
			return emit(lb, s.p, s.n);
	}
	cut_ellipsis(&s, room, qualified && !file, &d);
	return emit(lb, d.p, d.n);
}

size_t af_label(struct af_labeler *lb, const char *name, size_t len, size_t room)
{
	/* at most a code point a byte, and cuts add at most 2 per group */
	size_t need = 2 * len + 4;
	if (need > lb->cap) {
		lb->cap = need;
		lb->a = af_xrealloc(lb->a, need * sizeof *lb->a);
		lb->b = af_xrealloc(lb->b, need * sizeof *lb->b);
		lb->match = af_xrealloc(lb->match, need * sizeof *lb->match);
	}
	struct cps s = { lb->a, 0 };
	const unsigned char *u = (const unsigned char *)name;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		i += af_utf8_next(u + i, len - i, &cp);
		put(&s, cp);
	}
	if (room == 0)
		return emit(lb, s.p, 0);
	if (s.n <= room)
		return emit(lb, s.p, s.n);
	if (lb->cut == AF_LABEL_RIGHT) {
		/* flamegraph.pl: the first room - 2 characters and ".." */
		size_t keep = room >= 2 ? room - 2 : 0;
		s.p[keep] = '.';
		s.p[keep + 1] = '.';
		return emit(lb, s.p, keep + 2);
	}
	/* a cut keeps three characters of the name at least: "…s", "…To" or
	 * "…(…)" name nothing (the tooltip and --format frames have the name) */
	size_t n = smart(lb, s, room), kept = n;
	for (const char *e = lb->text.data; (e = strstr(e, "\xe2\x80\xa6")); e += 3)
		kept--;
	return kept < AF_LABEL_MIN_KEPT ? emit(lb, s.p, 0) : n;
}

/* ---- colour ---- */

static double channel(uint32_t v)
{
	double c = v / 255.0;
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

static double luminance(uint32_t rgb)
{
	return 0.2126 * channel(rgb >> 16 & 255) + 0.7152 * channel(rgb >> 8 & 255) +
	       0.0722 * channel(rgb & 255);
}

double af_contrast(uint32_t a, uint32_t b)
{
	double la = luminance(a), lb = luminance(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

uint32_t af_label_ink(uint32_t bg)
{
	return af_contrast(bg, 0x000000) >= af_contrast(bg, 0xffffff) ? 0x000000 : 0xffffff;
}
