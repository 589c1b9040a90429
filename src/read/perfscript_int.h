/* perfscript_int.h: what the perf script reader's files share: the text
 * helpers, the header line's reading (perfscript_header.c) and the cache of
 * whole samples (perfscript_cache.c) that read_perfscript.c consults
 * before it reads a sample's frame lines. */
#ifndef AF_PERFSCRIPT_INT_H
#define AF_PERFSCRIPT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "core/buf.h"
#include "core/diag.h"
#include "core/idmap.h"

struct span { const char *s; size_t n; };

static inline bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* s[0..n) as a decimal number; false if it is not one or does not fit. */
static inline bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!is_digit(s[i]) || v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return true;
}

/* The next blank-separated token of s[*at..n): its span, *at past it. */
static inline struct span token(const char *s, size_t n, size_t *at)
{
	size_t i = *at;
	while (i < n && is_space(s[i]))
		i++;
	size_t from = i;
	while (i < n && !is_space(s[i]))
		i++;
	*at = i;
	return (struct span){ s + from, i - from };
}

static inline bool all_digits(struct span t)
{
	for (size_t i = 0; i < t.n; i++)
		if (!is_digit(t.s[i]))
			return false;
	return t.n > 0;
}

/* "pid/tid" or "tid": the ids it holds (pid UINT64_MAX when absent). */
static inline bool id_token(struct span t, uint64_t *pid, uint64_t *tid)
{
	const char *slash = memchr(t.s, '/', t.n);
	if (!slash)
		return all_digits(t) && parse_u64(t.s, t.n, tid) && (*pid = UINT64_MAX, true);
	size_t a = (size_t)(slash - t.s);
	struct span p = { t.s, a }, q = { slash + 1, t.n - a - 1 };
	return all_digits(p) && all_digits(q) && parse_u64(p.s, p.n, pid) && parse_u64(q.s, q.n, tid);
}

/* "684943.449406:": perf's time field. */
static inline bool time_token(struct span t)
{
	const char *dot = memchr(t.s, '.', t.n);
	if (!dot || t.n < 4 || t.s[t.n - 1] != ':')
		return false;
	size_t a = (size_t)(dot - t.s);
	return all_digits((struct span){ t.s, a }) && all_digits((struct span){ dot + 1, t.n - a - 2 });
}

/* "[003]": the cpu field. */
static inline bool cpu_token(struct span t)
{
	return t.n >= 3 && t.s[0] == '[' && t.s[t.n - 1] == ']' && all_digits((struct span){ t.s + 1, t.n - 2 });
}

static inline bool span_is(struct span t, const char *lit)
{
	size_t n = strlen(lit);
	return t.n == n && memcmp(t.s, lit, n) == 0;
}

static inline bool span_starts(struct span t, const char *lit)
{
	size_t n = strlen(lit);
	return t.n >= n && memcmp(t.s, lit, n) == 0;
}

static inline bool span_ends(struct span t, const char *lit)
{
	size_t n = strlen(lit);
	return t.n >= n && memcmp(t.s + t.n - n, lit, n) == 0;
}

static inline struct span base_name(struct span f)
{
	size_t i = f.n;
	while (i && f.s[i - 1] != '/')
		i--;
	return (struct span){ f.s + i, f.n - i };
}

/* A hash of s[0..n) from seed, eight bytes at a time: for the reader's
 * own small tables (the memos, the samples cache), whose keys are only a
 * way in (every byte is compared after) and whose chains are short and
 * bounded, so keys made to collide cost hits, never time. */
static inline uint64_t ps_mix(const char *s, size_t n, uint64_t seed)
{
	uint64_t h = seed ^ n, w;
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	/* the last n < 8 bytes in fixed-size loads (a memcpy of n bytes is a
	 * call): 4-7 as two overlapping halves, 1-3 as their first, middle
	 * and last (n is in h) */
	uint32_t lo = 0, hi = 0;
	if (n >= 4) {
		memcpy(&lo, s, 4);
		memcpy(&hi, s + n - 4, 4);
	} else if (n) {
		lo = (uint32_t)(unsigned char)s[0] << 16 | (uint32_t)(unsigned char)s[n / 2] << 8 | (unsigned char)s[n - 1];
	}
	w = (uint64_t)hi << 32 | lo;
	h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
	return h ^ h >> 31;
}

/* ---- header lines (perfscript_header.c) ---- */

/* What a header line holds (spans into the line; NULL: left out). */
struct ps_header {
	struct span comm, event, rest, period_token;
	uint64_t pid, tid, period;
	bool has_event, has_period;
};

/* Header lines read before, and what they held: the next header of a
 * thread differs from its last one in its time, cpu or period alone, so it
 * is compared with it instead of read token by token (a fifth of the
 * reader's instructions). One a thread, as threads interleave: kept by the
 * hash of the bytes before the time or cpu (PS_MEMOS places, a power of
 * two; two threads in one place take turns). */
#define PS_MEMOS 256
#define PS_MEMO_SLOTS 4
struct ps_slot { size_t at, len; int kind; };   /* a token that may change */
#define PS_MEMO_SHORT 256   /* lines this long have their digits marked */
struct ps_memo {
	bool used;
	struct af_buf line;      /* its bytes, with the blanks that ended it */
	size_t len;              /* its length without them */
	struct ps_header h;      /* spans into line */
	struct ps_slot slots[PS_MEMO_SLOTS];
	unsigned nslots;
	int period_slot;         /* the period's slot, -1 if none */
	/* what the reader made of it: its thread (AF_NONE until then), and
	 * whether its samples are drawn with their frames on lines of their
	 * own (false until the reader says so) */
	uint32_t thread;
	bool whole;
	/* a short line: 0xff at each digit of a slot (the bytes that may
	 * change when the line's length does not) */
	unsigned char digits[PS_MEMO_SHORT];
};
#define PS_RECENT 4
struct ps_header_memo {
	struct ps_memo *m;       /* PS_MEMOS of them, made at the first header */
	/* those that served last, the latest first (NULL: none yet) */
	struct ps_memo *recent[PS_RECENT];
};

/* A header line s[0..n) (trailing blanks dropped, up to s[raw]; line its
 * number) into h. *memo is where the reader keeps what it made of h (its
 * thread, whole): the same for every line that differs from this one in a
 * slot alone, AF_NONE and false the first time. A zeroed struct
 * ps_header_memo is empty. */
int ps_parse_header(struct ps_header_memo *hm, struct af_diag *d, uint64_t line, const char *s, size_t n,
		    size_t raw, struct ps_header *h, struct ps_memo **memo);
/* The memo of the header line that opens s[0..avail) when it is a line
 * read before byte for byte, blanks and all, but for digits of its slots
 * (the last one read, or the memo of its thread): its length to its
 * newline in *line, its period in *period; NULL if none. What the line
 * holds is then the memo's, h, with *period. */
struct ps_memo *ps_header_again(struct ps_header_memo *hm, const char *s, size_t avail, size_t *line,
			       uint64_t *period);
void ps_header_memo_release(struct ps_header_memo *hm);
/* A header line: a "pid/tid" or number token after the comm, then one
 * ending in ':'. */
bool ps_header_shaped(const char *s, size_t n);

/* ---- whole samples (perfscript_cache.c) ---- */


/* A sample's frame lines as they were read (every line opening with a tab,
 * each with its newline; a blank line "\n" followed them) below a thread
 * root, and the node its stack ended at. */
struct ps_cached {
	uint64_t off;          /* its bytes in the cache's arena */
	uint32_t len, lines;   /* bytes, frame lines */
	uint32_t thread, leaf; /* nodes */
	uint32_t next;         /* the next entry of its bucket, AF_NONE at the end */
	uint32_t after;        /* the entry its thread's next sample was last time */
	uint64_t key;
};

/* Entries by a key the caller makes (the thread's and the first line's
 * hashes, so its low bits pick a bucket as they are); the entries of a
 * bucket chained newest first, a hit moved to the front. A key is only a
 * way in: a hit has every byte equal. */
struct ps_cache {
	uint32_t *buckets;       /* each its first entry, AF_NONE if none */
	size_t nbuckets;         /* a power of two, at least twice n (0: none yet) */
	struct ps_cached *e;
	size_t n, cap;
	char *arena;             /* the entries' bytes */
	size_t arena_len, arena_cap;
	size_t max;              /* bytes it may hold (arena, entries, heads) */
	uint64_t resets;         /* times it was full and emptied */
};

/* The default of max: room for the distinct samples of the largest real
 * capture we have (FlameGraph's example-perf-stacks: 2.75 of its 3.1 MB),
 * so that memory stays a few MB on an input of any length (one whose
 * samples seldom repeat empties it now and then). */
#define PS_CACHE_MAX ((size_t)4 << 20)

void ps_cache_init(struct ps_cache *c, size_t max);
/* The max the reader gives its cache: PS_CACHE_MAX, or what a test set
 * (ps_cache_test_max: 0 puts PS_CACHE_MAX back). */
size_t ps_cache_max(void);
void ps_cache_test_max(size_t max);
/* Room for about `bytes` of samples (a guess from the input's length),
 * made at once: from 1 MiB in huge pages, a page fault or two where
 * growing a page at a time made one a 4 KiB page (some 300 on the bench,
 * each costing microseconds on a VM). */
void ps_cache_expect(struct ps_cache *c, size_t bytes);
void ps_cache_release(struct ps_cache *c);
/* The entry of key and thread whose bytes are those s[0..avail) begins
 * with, followed by a blank line (s[len] is '\n'); NULL if none among the
 * first few of key. */
const struct ps_cached *ps_cache_find(struct ps_cache *c, uint64_t key, uint32_t thread, const char *s,
				      size_t avail);
/* Whether entry e is s's sample below thread: every byte, and the blank
 * line after them (its bytes compared first: the byte past them is some
 * way ahead of the reader, a cache miss of its own read before them). */
static inline bool ps_same_sample(const struct ps_cache *c, const struct ps_cached *e, uint32_t thread,
				  const char *s, size_t avail)
{
	uint64_t a, b;   /* bytes 8-15 first (a tab and blanks before them): most leaves differ there */
	if (e->thread != thread || e->len >= avail)
		return false;
	if (e->len >= 16) {
		memcpy(&a, c->arena + e->off + 8, 8);
		memcpy(&b, s + 8, 8);
		if (a != b)
			return false;
	}
	return memcmp(c->arena + e->off, s, e->len) == 0 && s[e->len] == '\n';
}

/* The same test of entry i alone (any index: one out of range, or another
 * sample's since the cache was emptied, is simply not found). Here, not in
 * perfscript_cache.c: the reader calls it twice a sample. */
static inline const struct ps_cached *ps_cache_again(const struct ps_cache *c, uint32_t i, uint32_t thread,
						     const char *s, size_t avail)
{
	return i < c->n && ps_same_sample(c, &c->e[i], thread, s, avail) ? &c->e[i] : NULL;
}

/* Entry next was the sample after entry prev of their thread (either may
 * be AF_NONE or out of range); the entry that came after prev last time,
 * AF_NONE if none. */
static inline void ps_cache_follows(struct ps_cache *c, uint32_t prev, uint32_t next)
{
	if (prev < c->n)
		c->e[prev].after = next;
}

static inline uint32_t ps_cache_after(const struct ps_cache *c, uint32_t prev)
{
	return prev < c->n ? c->e[prev].after : AF_NONE;
}
/* Keep s[0..len) (lines frame lines, ended by a blank line) of thread, as
 * ending at leaf: its index. When the cache would hold more than max bytes
 * it is emptied first; a sample too large for it is not kept (AF_NONE). */
uint32_t ps_cache_put(struct ps_cache *c, uint64_t key, uint32_t thread, const char *s, size_t len, uint32_t lines,
		      uint32_t leaf);

#endif
