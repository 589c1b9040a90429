/* read_folded.c: folded stacks, the input of flamegraph.pl:
 *
 *   frame;frame;frame count\n
 *
 * count is an integer or a decimal; blank lines and '#' or '//' comments are
 * skipped; CRLF is accepted. A malformed line is skipped and reported once
 * (first line number and how many), or is an error with --strict.
 * Decimal counts are kept exactly as fixed point: every count is scaled by
 * 10^d where d is the most decimals seen (profile->decimals; weights read
 * before a count with more decimals are rescaled when it comes). Consecutive
 * lines share their common prefix, so sorted input folds with few probes.
 * A second count makes a differential graph (difffolded.pl's output,
 * "stack before after"): the tree's weights are the second counts, its
 * before weights (af_tree_before) the first; a line with one count is
 * unchanged (before = after). --reverse and --colors chain rewrite each stack
 * into a scratch buffer first (o->reverse, o->mark_wakers).
 * As a flame chart (o->timeline), stacks keep the input order: a line merges
 * only with the frames it shares with the line before it (a frame closed by
 * a shorter line is not reopened), and new frames are placed at the count of
 * samples before the line (flamegraph.pl --flamechart). */
#include "read.h"
#include "core/buf.h"
#include "core/idmap.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DECIMALS = 6 };

/* One frame of the stack being folded (and, after it, of the previous one):
 * its bytes in the line, its path key and name hash (tree.h), its node. */
struct frame {
	size_t start, end;
	uint64_t key, hash;
	uint32_t node;
};

struct folded {
	struct af_profile *p;
	const struct af_input *in;
	const struct af_read_opts *o;
	struct af_diag *d;
	unsigned decimals;
	uint64_t bad, first_bad, lines, stacks, samples_overflow;
	uint64_t at;           /* flame chart: samples before this line */
	bool diff;             /* a line had two counts: before weights kept */
	/* rewritten stacks (reverse, wakers): two buffers, so the previous
	 * stack stays readable while the next one is built */
	char *scratch[3];      /* [2]: the reversed stack before marking */
	size_t scratch_cap[3];
	unsigned cur;
	/* the previous stack: its bytes and its frames */
	const char *prev;
	size_t prev_len;
	bool prev_in_input;    /* prev is in the input (not rewritten) */
	struct frame *path;
	size_t depth, cap;
};

/* Parse "123" or "12.5" as fixed point: *v with *decimals digits after the
 * point (at most MAX_DECIMALS; further digits are dropped). False if not a
 * count or too large. */
static bool parse_count(const char *s, size_t n, uint64_t *out, unsigned *decimals)
{
	uint64_t v = 0;
	unsigned frac = 0;
	bool dot = false, digits = false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '.' && !dot) {
			dot = true;
			continue;
		}
		if (s[i] < '0' || s[i] > '9')
			return false;
		digits = true;
		if (dot && frac == MAX_DECIMALS)
			continue;
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
		frac += dot;
	}
	*out = v;
	*decimals = frac;
	return digits;
}

/* Scale every weight so far to `decimals` digits after the point (the first
 * count with more decimals than before; at most MAX_DECIMALS times). */
static bool rescale(struct folded *f, unsigned decimals)
{
	struct af_tree *t = &f->p->tree;
	uint64_t k = 1;
	for (unsigned i = f->decimals; i < decimals; i++)
		k *= 10;
	for (size_t i = 0; i < t->nnodes; i++) {
		if (t->nodes[i].self > UINT64_MAX / k || af_tree_before(t, (uint32_t)i) > UINT64_MAX / k)
			return false;
		t->nodes[i].self *= k;
		if (t->before && i < t->cap_before)
			t->before[i] *= k;
	}
	f->decimals = decimals;
	return true;
}

/* count (with `decimals` digits) at the reader's current scale */
static bool scale_count(const struct folded *f, uint64_t *count, unsigned decimals)
{
	for (unsigned i = decimals; i < f->decimals; i++) {
		if (*count > UINT64_MAX / 10)
			return false;
		*count *= 10;
	}
	return true;
}

/* Split a line into stack and count: the count is the last token, digits
 * and a point, after a space or tab. Only that token is scanned, so a line
 * costs nothing here however long its stack (parse_count checks the digits).
 * Exactly one blank goes, as flamegraph.pl's /^(.*)\s+?(\d+(?:\.\d*)?)$/
 * takes it: "f  2" ends in the frame "f ", the same frame as in "f ;g 3",
 * and "a; 1" has the last frame " ". An empty stack (" 3") counts towards
 * the whole graph only, as there. */
static bool split_line(const char *s, size_t n, size_t *stack_len, const char **count, size_t *count_len)
{
	size_t k = n;
	while (k > 0 && ((s[k - 1] >= '0' && s[k - 1] <= '9') || s[k - 1] == '.'))
		k--;
	if (k == 0 || k == n || (s[k - 1] != ' ' && s[k - 1] != '\t'))
		return false;
	*count = s + k;
	*count_len = n - k;
	*stack_len = k - 1;
	return true;
}

/* Length of the common prefix of a and b: libc's memcmp (vector compares)
 * over 256-byte blocks while they agree, then 32 bytes at a time (compilers
 * make a fixed-size memcmp of that size a few word compares), a word, and
 * bytes: sorted input shares most of each line with the one before. */
static size_t common_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0;
	while (i + 256 <= n && memcmp(a + i, b + i, 256) == 0)
		i += 256;
	while (i + 32 <= n && memcmp(a + i, b + i, 32) == 0)
		i += 32;
	for (uint64_t x, y; i + 8 <= n; i += 8) {
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y)
			break;
	}
	while (i < n && a[i] == b[i])
		i++;
	return i;
}

/* The first line with two counts: every weight so far was unchanged. */
static void start_diff(struct folded *f)
{
	struct af_tree *t = &f->p->tree;
	f->diff = true;
	af_tree_add_before(t, AF_ROOT, 0);
	for (size_t i = 0; i < t->nnodes; i++)
		af_tree_add_before(t, (uint32_t)i, t->nodes[i].self);
}

/* How many frames of the previous stack this one starts with: whole
 * frames of their common prefix. Frames end in increasing order, so a
 * binary search finds those ending inside it; all but the last of them end
 * before a ';' both lines have, and the last must end a frame in both. */
static size_t shared_frames(const struct folded *f, const char *s, size_t n)
{
	size_t same = common_prefix(s, f->prev, n < f->prev_len ? n : f->prev_len);
	size_t lo = 0, hi = f->depth;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (f->path[mid].end <= same)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo) {
		size_t end = f->path[lo - 1].end;
		if (!(end == n || s[end] == ';') || !(end == f->prev_len || f->prev[end] == ';'))
			lo--;
	}
	return lo;
}

/* The frames of s[pos..n), after the f->depth already known: each one's
 * bytes hashed once (its ';' found in the same pass), its path key chained
 * from its caller's and its slot fetched ahead, so that on input in random
 * order the cache misses of a whole stack overlap (tree.h). */
static void scan_frames(struct folded *f, const char *s, size_t n, size_t pos)
{
	const struct af_tree *t = &f->p->tree;
	uint64_t key = f->depth ? f->path[f->depth - 1].key : AF_PATH_ROOT_KEY;
	while (pos <= n) {
		size_t len;
		uint64_t h = af_hash_keyed_until(s + pos, n - pos, ';', &len);
		if (len) {   /* empty frames (";;") are skipped (flamegraph.pl draws them) */
			if (len > AF_NAME_MAX)
				h = af_tree_name_hash(s + pos, len);
			key = af_tree_path_key(key, h);
			af_tree_path_prefetch(t, key);
			if (f->depth == f->cap)
				af_grow(&f->path, &f->cap, f->depth + 1, sizeof *f->path);
			f->path[f->depth++] = (struct frame){ pos, pos + len, key, h, AF_NONE };
		}
		pos += len + 1;
	}
}

/* The node of every frame from `from` on; returns the last one. */
static uint32_t find_frames(struct folded *f, const char *s, size_t from)
{
	struct af_tree *t = &f->p->tree;
	uint32_t node = from ? f->path[from - 1].node : AF_ROOT;
	for (size_t i = from; i < f->depth; i++) {
		struct frame *fr = &f->path[i];
		if (f->o->timeline) {
			/* a flame chart: frames past those shared with the
			 * previous line are new calls, starting at this line */
			node = af_tree_add_child(t, node, af_tree_intern(t, s + fr->start, fr->end - fr->start));
			af_tree_set_start(t, node, f->at);
		} else {
			node = af_tree_path_child(t, node, fr->key, s + fr->start, fr->end - fr->start, fr->hash);
		}
		fr->node = node;
	}
	return node;
}

static void add_stack(struct folded *f, const char *s, size_t n, uint64_t count,
		      const uint64_t *before)
{
	struct af_tree *t = &f->p->tree;
	/* reuse the frames this stack shares with the previous one */
	size_t keep = shared_frames(f, s, n);
	f->depth = keep;
	scan_frames(f, s, n, keep ? f->path[keep - 1].end + 1 : 0);
	uint32_t node = find_frames(f, s, keep);
	f->prev = s;
	f->prev_len = n;
	uint64_t *w = &t->nodes[node].self;
	if (before && !f->diff)
		start_diff(f);
	uint64_t b = before ? *before : count;
	if (*w > UINT64_MAX - count || f->at > UINT64_MAX - count ||
	    (f->diff && af_tree_before(t, node) > UINT64_MAX - b)) {
		f->samples_overflow++;
	} else {
		*w += count;
		f->at += count;
		if (f->diff)
			af_tree_add_before(t, node, b);
	}
}

/* Room for n bytes in scratch buffer i; i < 2: the one of the two not
 * holding the previous stack. */
static char *scratch(struct folded *f, unsigned i, size_t n)
{
	if (i < 2)
		i = f->cur ^= 1;
	af_grow(&f->scratch[i], &f->scratch_cap[i], n ? n : 1, 1);
	return f->scratch[i];
}

/* s[0..n) with its frames in reverse order into dst; returns the length.
 * Empty frames are dropped (the reader skips them anyway). */
static size_t reverse_frames(char *dst, const char *s, size_t n)
{
	size_t out = 0, end = n;
	for (;;) {
		size_t start = end;
		while (start > 0 && s[start - 1] != ';')
			start--;
		if (end > start) {
			if (out)
				dst[out++] = ';';
			memcpy(dst + out, s + start, end - start);
			out += end - start;
		}
		if (start == 0)
			return out;
		end = start - 1;
	}
}

/* s[0..n) with "_[w]" after every frame above the first "--" frame (the
 * waker's stack of a chain graph) into dst; returns the length. */
static size_t mark_wakers(char *dst, const char *s, size_t n)
{
	size_t out = 0, pos = 0;
	bool waker = false;
	while (pos <= n) {
		const char *semi = memchr(s + pos, ';', n - pos);
		size_t end = semi ? (size_t)(semi - s) : n;
		bool sep = end - pos == 2 && s[pos] == '-' && s[pos + 1] == '-';
		if (pos)
			dst[out++] = ';';
		memcpy(dst + out, s + pos, end - pos);
		out += end - pos;
		if (waker && !sep && end > pos) {
			memcpy(dst + out, "_[w]", 4);
			out += 4;
		}
		waker |= sep;
		pos = end + 1;
	}
	return out;
}

/* The stack as it is drawn: reversed and marked as the options ask. */
static const char *rewrite(struct folded *f, const char *s, size_t *n)
{
	if (f->o->reverse) {
		char *d = scratch(f, f->o->mark_wakers ? 2 : 0, *n);
		*n = reverse_frames(d, s, *n);
		s = d;
	}
	if (f->o->mark_wakers) {
		size_t frames = 1;
		for (size_t i = 0; i < *n; i++)
			frames += s[i] == ';';
		char *d = scratch(f, 0, *n + 4 * frames);
		*n = mark_wakers(d, s, *n);
		s = d;
	}
	return s;
}

static int fold_line(struct folded *f, const char *s, size_t n)
{
	size_t stack_len, count_len, len1, count1_len;
	const char *count_s, *count1_s;
	uint64_t count, first;
	unsigned decimals, decimals1 = 0;
	if (split_line(s, n, &stack_len, &count_s, &count_len) &&
	    parse_count(count_s, count_len, &count, &decimals)) {
		/* a second count column: "stack before after" */
		bool two = split_line(s, stack_len, &len1, &count1_s, &count1_len) &&
			   parse_count(count1_s, count1_len, &first, &decimals1);
		unsigned most = two && decimals1 > decimals ? decimals1 : decimals;
		if ((most <= f->decimals || rescale(f, most)) &&
		    scale_count(f, &count, decimals) &&
		    (!two || scale_count(f, &first, decimals1))) {
			size_t len = two ? len1 : stack_len;
			const char *stack = rewrite(f, s, &len);
			add_stack(f, stack, len, count, two ? &first : NULL);
			f->prev_in_input = stack == s;
			f->stacks++;
			return 0;
		}
	}
	if (f->o->strict) {
		uint64_t line = f->lines;   /* several files: the one it is in */
		if (!f->d->set)
			f->d->source = af_input_line_source(f->in, &line);
		return af_diag_line(f->d, line, 0, "expected 'frame;frame;... count'");
	}
	if (!f->bad++)
		f->first_bad = f->lines;
	return 0;
}

/* '#' and '//' lines are comments (what collapse scripts and people add). */
static bool comment(const char *s, size_t n)
{
	return s[0] == '#' || (n >= 2 && s[0] == '/' && s[1] == '/');
}

/* The weight of every stack read, for --info. */
static void info_total(struct af_profile *p)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < p->tree.nnodes; i++)
		sum = sum > UINT64_MAX - p->tree.nodes[i].self ? UINT64_MAX : sum + p->tree.nodes[i].self;
	char b[AF_FIXED_POINT_MAX];
	af_fixed_point(b, sum, p->decimals);
	af_profile_info(p, "total", "%s samples", b);
}

/* One line, without its newline: blanks and CR at its end dropped, then
 * skipped if empty or a comment, else folded. */
static int take_line(struct folded *f, const char *s, size_t n)
{
	f->lines++;
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n && !comment(s, n) ? fold_line(f, s, n) : 0;
}

/* Every line of the input, a window at a time (af_window). The window
 * keeps the previous stack while it is read from the input (its prefix is
 * compared with the next line's), else the line being read. */
static int read_lines(struct folded *f)
{
	struct af_window w;
	af_window_init(&w, f->in);
	size_t pos = 0, from = 0;   /* a line starts at pos; no newline in [pos, from) */
	uint64_t consumed = 0;
	int rc = 0;
	while (rc == 0) {
		const char *base = (const char *)w.data;
		const char *nl = memchr(base + from, '\n', w.len - from);
		if (!nl) {
			size_t keep = f->prev_in_input ? (size_t)(f->prev - base) : pos;
			size_t scanned = w.len;
			rc = af_window_more(&w, keep, f->d);
			if (rc > 0) {
				f->prev = f->prev_in_input ? (const char *)w.data : f->prev;
				from = scanned - keep;
				pos -= keep;
				rc = 0;
				continue;
			}
			if (rc == 0 && pos < w.len)   /* the last line has no newline */
				rc = take_line(f, base + pos, w.len - pos);
			break;
		}
		rc = take_line(f, base + pos, (size_t)(nl - base) - pos);
		from = pos = (size_t)(nl - base) + 1;
		/* a mapped input read through its mapping: what is behind the
		 * stack still compared need not stay in memory */
		uint64_t done = w.at + (f->prev_in_input ? (size_t)(f->prev - base) : pos);
		if (!w.buffered && done - consumed >= AF_INPUT_CONSUME_STEP)
			af_input_consumed(f->in, (size_t)(consumed = done));
	}
	af_window_release(&w);
	return rc;
}

static int read_folded(struct af_profile *p, const struct af_input *in,
		   const struct af_read_opts *o, struct af_diag *d)
{
	struct folded f = { .p = p, .in = in, .o = o, .d = d };
	if (o->window)
		return af_diag_error(d, "--from and --to need a method trace: folded stacks have no times");
	p->unit = "samples";
	/* the bench's inputs and real collapsed stacks make a node per 250 to
	 * 2000 input bytes: room for one per 256 spares growing the table */
	if (!o->timeline)
		af_tree_path_reserve(&p->tree, in->len / 256);
	int rc = read_lines(&f);
	free(f.path);
	for (size_t i = 0; i < 3; i++)
		free(f.scratch[i]);
	p->decimals = f.decimals;
	if (rc < 0)
		return -1;
	af_profile_info(p, "lines", "%" PRIu64, f.lines);
	af_profile_info(p, "stacks", "%" PRIu64, f.stacks);
	info_total(p);
	const char *bad_in = f.bad ? af_input_line_source(in, &f.first_bad) : "";
	af_profile_warn(p, f.bad, "malformed lines skipped (first: %s%sline %" PRIu64 ")",
			in->nparts ? bad_in : "", in->nparts ? " " : "", f.first_bad);
	af_profile_warn(p, f.samples_overflow, "counts too large to add (ignored)");
	return 0;
}

/* A line "frames count": it ends in a count after a blank, with no NUL. */
static bool counted_line(const uint8_t *p, const uint8_t *e)
{
	const uint8_t *k = e;
	while (k > p && ((k[-1] >= '0' && k[-1] <= '9') || k[-1] == '.'))
		k--;
	return k < e && k > p && (k[-1] == ' ' || k[-1] == '\t') && !memchr(p, 0, (size_t)(e - p));
}

/* At least half of the first 32 lines that are not blank or comments end in a count
 * (a messy file may open with a header line; each line is found whole,
 * however long: one stack can be megabytes). */
static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	const uint8_t *p = data, *end = p + len;
	unsigned seen = 0, counted = 0;
	while (p < end && seen < 32) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *e = nl ? nl : end;
		while (e > p && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (e > p && !comment((const char *)p, (size_t)(e - p))) {
			seen++;
			counted += counted_line(p, e);
		}
		p = nl ? nl + 1 : end;
	}
	return counted && counted * 2 >= seen ? AF_SNIFF_YES : AF_SNIFF_NO;
}

const struct af_reader af_reader_folded = {
	.name = "folded", .what = "folded stacks", .sniff = sniff,
	.read = read_folded, .nothing = "no stacks",
};
