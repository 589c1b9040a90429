/* perfscript_header.c: a perf script header line ("comm pid/tid [cpu]
 * secs.usecs: period event:", any field left out) read by the shape of
 * its tokens (read_perfscript.c's opening comment has the rules), and the
 * memo that spares reading the next header of a thread token by token. */
#include "perfscript_int.h"
#include "core/util.h"

#include <stddef.h>
#include <stdlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* The fields after the ids: [cpu], time, period, event; rest is what
 * follows the event (a frame, when samples have no callchain). */
static int header_tail(struct af_diag *d, uint64_t line, const char *s, size_t n, size_t at, struct ps_header *h)
{
	struct span prev = { "", 0 };
	while (at < n) {
		struct span t = token(s, n, &at);
		if (!t.n || cpu_token(t) || time_token(t)) {
			prev = (struct span){ "", 0 };
			continue;
		}
		if (t.s[t.n - 1] == ':') {
			h->event = (struct span){ t.s, t.n - 1 };
			h->has_event = true;
			if (all_digits(prev)) {
				if (!parse_u64(prev.s, prev.n, &h->period))
					return af_diag_line(d, line, 0, "a period past 2^64");
				h->has_period = true;
				h->period_token = prev;
			}
			break;
		}
		prev = t;
	}
	while (at < n && is_space(s[at]))
		at++;
	h->rest = (struct span){ s + at, n - at };
	return 0;
}

/* A header line (trailing blanks dropped): its comm is the text before the
 * first "pid/tid" or number token after the first (the first, on a line
 * opening with a blank: no comm printed). */
static int parse_header(struct af_diag *d, uint64_t line, const char *s, size_t n, struct ps_header *h)
{
	*h = (struct ps_header){ .pid = UINT64_MAX, .tid = UINT64_MAX };
	size_t at = 0, comm_end = 0;
	bool first = !is_space(s[0]);
	while (at < n) {
		size_t before = at;
		struct span t = token(s, n, &at);
		if (!t.n)
			break;
		if (!first) {
			uint64_t pid, tid;
			if (id_token(t, &pid, &tid)) {
				h->pid = pid;
				h->tid = tid;
				break;
			}
			if (all_digits(t))
				return af_diag_line(d, line, (unsigned)(t.s - s) + 1, "a thread id past 2^64");
			if (cpu_token(t) || time_token(t) || t.s[t.n - 1] == ':') {
				at = before;   /* no ids: the fields start here */
				break;
			}
		}
		first = false;
		comm_end = at;
	}
	size_t c = 0;
	while (c < comm_end && is_space(s[c]))
		c++;
	h->comm = (struct span){ s + c, comm_end - c };
	return header_tail(d, line, s, n, at, h);
}

/* ---- headers read before ---- */

/* The tokens whose bytes may change from one header of a thread to the
 * next without changing what the header holds: every reading of a token
 * shaped as a time or a cpu above asks its shape alone, never its digits;
 * the period's digits are its value, read again. */
enum { SLOT_TIME, SLOT_CPU, SLOT_PERIOD };

/* Whether span t (into line, or NULL: no such field) overlaps bytes
 * [at, at + n) of it. */
static bool overlaps(struct span t, const char *line, size_t at, size_t n)
{
	size_t o = t.s ? (size_t)(t.s - line) : 0;
	return t.s && o + t.n > at && o < at + n;
}

/* Span t of line `from` at the same offset of line `to` (NULL stays). */
static struct span moved(struct span t, const char *from, const char *to)
{
	return t.s ? (struct span){ to + (t.s - from), t.n } : t;
}

/* Keep s[0..n) (and the blanks after it, to raw) and what it held, h, in
 * memo m, with the tokens that may change: times and cpus that hold no part
 * of a field h keeps, and the period's. */
static void remember(struct ps_memo *m, const char *s, size_t n, size_t raw, const struct ps_header *h)
{
	m->nslots = 0;
	m->period_slot = -1;
	m->thread = AF_NONE;
	m->whole = false;
	memset(m->digits, 0, raw < PS_MEMO_SHORT ? raw : PS_MEMO_SHORT);
	size_t at = 0;
	for (struct span t; at < n && (t = token(s, n, &at)).n && m->nslots < PS_MEMO_SLOTS;) {
		size_t ta = (size_t)(t.s - s);
		int kind = h->has_period && t.s == h->period_token.s ? SLOT_PERIOD
			 : time_token(t)				    ? SLOT_TIME
			 : cpu_token(t)					    ? SLOT_CPU
									    : -1;
		if (kind < 0 || overlaps(h->comm, s, ta, t.n) || overlaps(h->event, s, ta, t.n) ||
		    overlaps(h->rest, s, ta, t.n))
			continue;
		if (kind == SLOT_PERIOD)
			m->period_slot = (int)m->nslots;
		m->slots[m->nslots++] = (struct ps_slot){ ta, t.n, kind };
		if (n <= PS_MEMO_SHORT)   /* a time's and a cpu's digits are all but their ends */
			for (size_t i = ta + (kind == SLOT_CPU); i < ta + t.n - (kind != SLOT_PERIOD); i++)
				m->digits[i] = is_digit(s[i]) ? 0xff : 0;
	}
	m->line.len = 0;
	af_buf_add(&m->line, s, raw);
	m->len = n;
	m->h = *h;
	m->h.comm = moved(h->comm, s, m->line.data);
	m->h.event = moved(h->event, s, m->line.data);
	m->h.rest = moved(h->rest, s, m->line.data);
	m->h.period_token = moved(h->period_token, s, m->line.data);
	m->used = true;
}

/* Span t of the memo's line at its place in line s, moved by shift[k]
 * bytes, k the slots before it (a field left out stays NULL). */
static struct span rebase(const struct ps_memo *m, struct span t, const char *s, const ptrdiff_t *shift)
{
	if (!t.s)
		return t;
	size_t o = (size_t)(t.s - m->line.data);
	unsigned k = 0;
	while (shift && k < m->nslots && m->slots[k].at < o)
		k++;
	return (struct span){ s + (ptrdiff_t)o + (shift ? shift[k] : 0), t.n };
}

/* s[0..n) equals t[0..n): most runs between slots are a few bytes, too
 * short to be worth memcmp's call. */
static inline bool same_bytes(const char *s, const char *t, size_t n)
{
	uint64_t a, b;
	uint32_t c, e;
	if (n < 4) {
		for (size_t i = 0; i < n; i++)
			if (s[i] != t[i])
				return false;
		return true;
	}
	if (n < 8) {   /* the first four bytes and the last four */
		memcpy(&c, s, 4), memcpy(&e, t, 4);
		if (c != e)
			return false;
		memcpy(&c, s + n - 4, 4), memcpy(&e, t + n - 4, 4);
		return c == e;
	}
	for (size_t i = 0; i + 8 < n; i += 8) {
		memcpy(&a, s + i, 8), memcpy(&b, t + i, 8);
		if (a != b)
			return false;
	}
	memcpy(&a, s + n - 8, 8), memcpy(&b, t + n - 8, 8);   /* the last eight */
	return a == b;
}

/* How many digits s[0..n) opens with: eight bytes at a time while eight
 * are there (a time is some 13 digits). */
static size_t digits(const char *s, size_t n)
{
	size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ull, hi = 0xf0 * ones;
	for (; n - i >= 8; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		/* a byte is a digit when it and it + 6 are both 0x3_ (scan.h:
		 * a carry past a byte only follows a byte that is no digit) */
		uint64_t other = ((w & hi) ^ 0x30 * ones) | (((w + 6 * ones) & hi) ^ 0x30 * ones);
		if (other)
			return i + (unsigned)__builtin_ctzll(other) / 8;
	}
#endif
	while (i < n && is_digit(s[i]))
		i++;
	return i;
}

/* The length of the token of this kind s[0..n) opens with (a token:
 * ended by a blank or the end), 0 if it does not open with one: a time
 * "D.D:", a cpu "[D]", a period "D" (its value to *period), D one or more
 * digits; what time_token, cpu_token, and all_digits with parse_u64 say of
 * a token, in one pass. */
static size_t slot_token(int kind, const char *s, size_t n, uint64_t *period)
{
	size_t i = kind == SLOT_CPU && n && s[0] == '[', from = i;
	if (kind == SLOT_CPU && !i)
		return 0;
	if (kind == SLOT_PERIOD) {
		i = digits(s, n);
		return i && (i == n || is_space(s[i])) && parse_u64(s, i, period) ? i : 0;
	}
	i += digits(s + i, n - i);
	if (i == from || i == n || s[i] != (kind == SLOT_TIME ? '.' : ']'))
		return 0;
	if (kind == SLOT_TIME) {
		size_t d = ++i;
		i += digits(s + i, n - i);
		if (i == d || i == n || s[i] != ':')
			return 0;
	}
	i++;
	return i == n || is_space(s[i]) ? i : 0;
}

#ifdef __SSE2__
enum { DIGITS_FROM = 16 };   /* the shortest line digits_only takes */

/* s[0..n) (16 bytes or more) against the first n bytes of the memo's line
 * sixteen at a time: each byte equal, or a digit where the memo's slots
 * have digits (the last sixteen overlap the ones before). */
static inline bool digits_only(const struct ps_memo *m, const char *s, size_t n)
{
	const __m128i below = _mm_set1_epi8('0' - 1), above = _mm_set1_epi8('9' + 1);
	for (size_t i = 0;; i += 16) {
		if (i + 16 > n)
			i = n - 16;
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(m->line.data + i));
		__m128i same = _mm_cmpeq_epi8(a, b);
		if (_mm_movemask_epi8(same) != 0xffff) {   /* most sixteen are the same */
			__m128i may = _mm_loadu_si128((const __m128i *)(const void *)(m->digits + i));
			__m128i digit = _mm_and_si128(_mm_cmpgt_epi8(a, below), _mm_cmplt_epi8(a, above));
			if (_mm_movemask_epi8(_mm_or_si128(same, _mm_and_si128(digit, may))) != 0xffff)
				return false;
		}
		if (i + 16 == n)
			return true;
	}
}
#elif defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
enum { DIGITS_FROM = 8 };

/* 0xff at each byte of w that is not 0 */
static uint64_t nonzero_bytes(uint64_t w)
{
	const uint64_t low7 = 0x7f7f7f7f7f7f7f7full;
	return ((((w & low7) + low7) | w) >> 7 & 0x0101010101010101ull) * 0xff;
}

/* 0xff at each byte of w that may not be a digit (scan.h's test: it
 * never takes a byte that is no digit for one) */
static uint64_t other_bytes(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull, hi = 0xf0 * ones;
	return nonzero_bytes(((w & hi) ^ 0x30 * ones) | (((w + 6 * ones) & hi) ^ 0x30 * ones));
}

/* The bytes of words a (the line) and b (the memo's) at offset i that
 * differ are digits of slots in both. */
static bool digits_differ(const struct ps_memo *m, size_t i, uint64_t a, uint64_t b)
{
	uint64_t diff = nonzero_bytes(a ^ b), may;
	memcpy(&may, m->digits + i, 8);
	return !(diff & ~may) && !(diff & other_bytes(a));
}

/* s[0..n) (8 bytes or more) against the first n bytes of the memo's line
 * a word at a time: each byte equal, or a digit where the memo's slots
 * have digits (the last eight overlap the ones before). */
static inline bool digits_only(const struct ps_memo *m, const char *s, size_t n)
{
	const char *old = m->line.data;
	uint64_t a, b;
	for (size_t i = 0; i + 8 < n; i += 8) {
		memcpy(&a, s + i, 8), memcpy(&b, old + i, 8);
		if (a != b && !digits_differ(m, i, a, b))
			return false;
	}
	memcpy(&a, s + n - 8, 8), memcpy(&b, old + n - 8, 8);   /* the last eight */
	return a == b || digits_differ(m, n - 8, a, b);
}
#else
enum { DIGITS_FROM = PS_MEMO_SHORT + 1 };   /* none: same_but_slots reads each line */

static inline bool digits_only(const struct ps_memo *m, const char *s, size_t n)
{
	(void)m, (void)s, (void)n;
	return false;
}
#endif

/* The common case of same_but_slots, in a few words' compares: s[0..n)
 * differs from the first n bytes of the memo's short line (n: its length
 * with or without its trailing blanks) in digits of its slots alone (so
 * its slot tokens are of their kinds, in their places); *period is the
 * period. */
static inline bool same_but_digits(const struct ps_memo *m, const char *s, size_t n, uint64_t *period)
{
	if (n < DIGITS_FROM || n > PS_MEMO_SHORT || !digits_only(m, s, n))
		return false;
	*period = m->h.period;
	if (m->period_slot < 0)
		return true;
	const struct ps_slot *t = &m->slots[m->period_slot];
	return same_bytes(s + t->at, m->line.data + t->at, t->len) || parse_u64(s + t->at, t->len, period);
}

/* Whether s[0..n) is memo m's line with other slot tokens of the same
 * kinds: the same bytes between them (so the same tokens around them).
 * shift[k] is how far what follows the first k slots moved; *period is
 * the period. */
static bool same_but_slots(const struct ps_memo *m, const char *s, size_t n, ptrdiff_t *shift, uint64_t *period)
{
	const char *old = m->line.data;
	size_t op = 0, np = 0;
	shift[0] = 0;
	*period = m->h.period;
	for (unsigned i = 0; i <= m->nslots; i++) {
		size_t to = i < m->nslots ? m->slots[i].at : m->len, fixed = to - op;
		if (n - np < fixed || !same_bytes(s + np, old + op, fixed))
			return false;
		np += fixed;
		if (i == m->nslots)
			return np == n;
		size_t len = slot_token(m->slots[i].kind, s + np, n - np, period);
		if (!len)
			return false;
		op = to + m->slots[i].len;
		np += len;
		shift[i + 1] = (ptrdiff_t)np - (ptrdiff_t)op;
	}
	return false;
}

/* The offset of the first '[' or ':' in s[0..n), or n. */
static size_t cpu_or_time_mark(const char *s, size_t n)
{
	size_t i = 0;
#ifdef __SSE2__
	const __m128i open = _mm_set1_epi8('['), colon = _mm_set1_epi8(':');
	for (; n - i >= 16; i += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
		unsigned hit = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(a, open), _mm_cmpeq_epi8(a, colon)));
		if (hit)
			return i + (unsigned)__builtin_ctz(hit);
	}
#endif
	while (i < n && s[i] != '[' && s[i] != ':')
		i++;
	return i;
}

/* Where the token that ends at s[i] begins: past the last blank of
 * s[0..i), or 0. */
static size_t token_start(const char *s, size_t i)
{
#ifdef __SSE2__
	if (i >= 16) {   /* a time is seldom longer */
		__m128i a = _mm_loadu_si128((const __m128i *)(const void *)(s + i - 16));
		__m128i blank = _mm_or_si128(_mm_cmpeq_epi8(a, _mm_set1_epi8(' ')),
					     _mm_or_si128(_mm_cmpeq_epi8(a, _mm_set1_epi8('\t')),
							  _mm_cmpeq_epi8(a, _mm_set1_epi8('\r'))));
		unsigned hit = (unsigned)_mm_movemask_epi8(blank);
		if (hit)
			return i - 16 + 32 - (unsigned)__builtin_clz(hit);
		i -= 16;
	}
#endif
	while (i > 0 && !is_space(s[i - 1]))
		i--;
	return i;
}

/* Where a header's memo is kept: its bytes before its first token shaped
 * as a time or a cpu (its comm and ids: the thread's), or all of them. */
static struct ps_memo *memo_of(struct ps_header_memo *hm, const char *s, size_t n)
{
	size_t end = n;
	uint64_t period;
	/* most often the first '[' opens the cpu, or the first ':' ends the
	 * time (perf's default fields); else token by token */
	size_t i = cpu_or_time_mark(s, n);
	size_t j = i < n && s[i] == ':' ? token_start(s, i) : i;
	if (i < n && (j == 0 || is_space(s[j - 1])) &&
	    slot_token(s[i] == '[' ? SLOT_CPU : SLOT_TIME, s + j, n - j, &period))
		return &hm->m[ps_mix(s, j, 0) & (PS_MEMOS - 1)];
	i = 0;
	while (i < n) {
		while (i < n && is_space(s[i]))
			i++;
		if (i < n && (s[i] == '[' || is_digit(s[i])) &&
		    slot_token(s[i] == '[' ? SLOT_CPU : SLOT_TIME, s + i, n - i, &period)) {
			end = i;
			break;
		}
		while (i < n && !is_space(s[i]))
			i++;
	}
	return &hm->m[ps_mix(s, end, 0) & (PS_MEMOS - 1)];
}

/* Whether s[0..n) is memo m's line but for its slots (n == m->len: what
 * the digits' test is given). */
static bool same_line(const struct ps_memo *m, const char *s, size_t n, ptrdiff_t **shift, ptrdiff_t *shifts,
		      uint64_t *period)
{
	*shift = NULL;
	return m->used && ((n == m->len && same_but_digits(m, s, n, period)) ||
			   same_but_slots(m, s, n, *shift = shifts, period));
}

/* m served last: first of the recent ones. */
static void promote(struct ps_header_memo *hm, struct ps_memo *m)
{
	unsigned i = 0;
	while (i < PS_RECENT - 1 && hm->recent[i] != m)
		i++;
	for (; i > 0; i--)
		hm->recent[i] = hm->recent[i - 1];
	hm->recent[0] = m;
}

int ps_parse_header(struct ps_header_memo *hm, struct af_diag *d, uint64_t line, const char *s, size_t n,
		    size_t raw, struct ps_header *h, struct ps_memo **memo)
{
	ptrdiff_t shifts[PS_MEMO_SLOTS + 1], *shift = NULL;   /* NULL: nothing moved */
	if (!hm->m)
		hm->m = af_xcalloc(PS_MEMOS, sizeof *hm->m);
	struct ps_memo *m = hm->recent[0];   /* most often the thread of the header before */
	uint64_t period = 0;
	bool same = m && same_line(m, s, n, &shift, shifts, &period);
	if (!same) {
		m = memo_of(hm, s, n);
		same = m != hm->recent[0] && same_line(m, s, n, &shift, shifts, &period);
		promote(hm, m);
	}
	*memo = m;
	if (same) {
		*h = m->h;
		h->period = period;
		h->comm = rebase(m, m->h.comm, s, shift);
		h->event = rebase(m, m->h.event, s, shift);
		h->rest = rebase(m, m->h.rest, s, shift);
		h->period_token = rebase(m, m->h.period_token, s, shift);
		return 0;
	}
	if (parse_header(d, line, s, n, h) < 0)
		return -1;
	remember(m, s, n, raw, h);
	return 0;
}

/* Whether m is one of the memos that served last (tried already). */
static bool recent(const struct ps_header_memo *hm, const struct ps_memo *m)
{
	for (unsigned k = 0; k < PS_RECENT; k++)
		if (hm->recent[k] == m)
			return true;
	return false;
}

/* Whether s[0..raw) (blanks and all) is memo m's line but for the digits
 * of its slots. */
static bool same_raw_line(const struct ps_memo *m, const char *s, size_t raw, uint64_t *period)
{
	return m->used && m->line.len == raw && same_but_digits(m, s, raw, period);
}

struct ps_memo *ps_header_again(struct ps_header_memo *hm, const char *s, size_t avail, size_t *line,
			       uint64_t *period)
{
	/* threads take turns: the memos of the last few headers first. The
	 * line's end is where a memo's was, if it is that memo's line (a
	 * shorter line has a newline where the memo has none) */
	for (unsigned k = 0; k < PS_RECENT && hm->recent[k]; k++) {
		struct ps_memo *m = hm->recent[k];
		size_t raw = m->line.len;
		if (m->used && raw < avail && s[raw] == '\n' && same_but_digits(m, s, raw, period)) {
			promote(hm, m);
			*line = raw;
			return m;
		}
	}
	const char *nl = hm->recent[0] ? memchr(s, '\n', avail) : NULL;
	if (!nl)
		return NULL;
	size_t raw = (size_t)(nl - s), n = raw;
	while (n && is_space(s[n - 1]))
		n--;
	if (!n)
		return NULL;
	/* the memo found last for the line's guessed key, else its memo */
	struct ps_memo *m = memo_of(hm, s, n);
	if (recent(hm, m) || !same_raw_line(m, s, raw, period))
		return NULL;
	promote(hm, m);
	*line = raw;
	return m;
}

void ps_header_memo_release(struct ps_header_memo *hm)
{
	for (unsigned k = 0; hm->m && k < PS_MEMOS; k++)
		af_buf_release(&hm->m[k].line);
	free(hm->m);
}

/* A "pid/tid" or number token after the comm (first, if the time or cpu
 * follows it: no comm printed), then a token ending in ':' (the time or
 * the event). */
bool ps_header_shaped(const char *s, size_t n)
{
	size_t at = 0;
	bool id = false;
	for (unsigned k = 0; at < n && k < 64; k++) {
		struct span t = token(s, n, &at);
		uint64_t pid, tid;
		if (!t.n)
			break;
		if (!id && id_token(t, &pid, &tid)) {
			size_t next = at;
			struct span u = token(s, n, &next);
			id = k > 0 || cpu_token(u) || time_token(u);
		} else if (id && t.s[t.n - 1] == ':') {
			return true;
		}
	}
	return false;
}

