/* art.c: what every ART method-trace variant shares (art.h): the method and
 * thread tables, folding events on the chosen clock, the text key section
 * ("*version ... *end") of legacy files and streaming summaries, and the
 * facts and warnings --info shows. The variant readers (read_art.c,
 * read_art_stream.c, read_art_v2.c) call these; these call none of them. */
#include "art.h"
#include "cursor.h"
#include "core/names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { METHOD_CACHE = 4096 };

/* ---- shared tables ---- */

void art_init(struct art *a, struct af_profile *p, const struct af_input *in,
	      const struct af_read_opts *o, struct af_diag *d)
{
	memset(a, 0, sizeof *a);
	a->p = p;
	a->in = in;
	a->o = o;
	a->d = d;
	a->fold.tree = &p->tree;
	a->fold.timeline = o->timeline;
	a->fold.window = o->window;
	a->fold.from = o->from;
	a->fold.to = o->to;
	a->mcache = af_xmalloc(METHOD_CACHE * sizeof *a->mcache);
	for (size_t i = 0; i < METHOD_CACHE; i++)
		a->mcache[i] = (struct art_method_cache){ UINT64_MAX, AF_NONE };
	a->record_id_bits = 16;
	af_buf_init(&a->scratch);
	p->unit = "µs";
}

void art_release(struct art *a)
{
	for (size_t i = 0; i < a->nthreads; i++)
		free(a->threads[i].fold.stack);
	free(a->methods);
	af_idmap_release(&a->method_ids);
	free(a->mcache);
	free(a->listed);
	for (int k = 0; k < 2; k++)
		af_idmap_release(&a->listed_exact[k]);
	af_idmap_release(&a->listed_trunc);
	free(a->threads);
	af_idmap_release(&a->thread_ids);
	af_fold_release(&a->fold);
	free(a->gaps);
	af_buf_release(&a->scratch);
}

static uint32_t insert_method(struct art *a, const struct art_method *m)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&a->method_ids, m->id, &found);
	if (found)
		return AF_NONE;
	if (a->nmethods >= AF_NONE - 1)
		AF_BUG("too many methods");
	af_grow(&a->methods, &a->cap_methods, a->nmethods + 1, sizeof *a->methods);
	uint32_t idx = (uint32_t)a->nmethods++;
	a->methods[idx] = *m;
	a->methods[idx].frame = AF_NONE;
	*slot = idx;
	return idx;
}

bool art_add_method(struct art *a, const struct art_method *m)
{
	return insert_method(a, m) != AF_NONE;
}

static uint32_t lookup_method(struct art *a, uint64_t id)
{
	uint32_t idx = af_idmap_get(&a->method_ids, id);
	if (idx != AF_NONE)
		return idx;
	a->unknown_methods++;
	struct art_method m = { .id = id, .unknown = true };
	return insert_method(a, &m);
}

uint32_t art_method_index(struct art *a, uint64_t id)
{
	/* ids are index<<2 (ART) or aligned pointers (Dalvik): drop the zero bits */
	struct art_method_cache *c = &a->mcache[(id >> 2 ^ id >> 14) & (METHOD_CACHE - 1)];
	if (c->id != id) {
		c->id = id;
		c->index = lookup_method(a, id);
	}
	return c->index;
}

uint32_t art_method_frame(struct art *a, uint32_t i)
{
	struct art_method *m = &a->methods[i];
	if (m->frame != AF_NONE)
		return m->frame;
	struct af_buf *b = &a->scratch;
	b->len = 0;
	if (m->unknown) {
		af_buf_printf(b, "<unknown method 0x%" PRIx64 ">", m->id);
	} else {
		af_name_append_class(b, m->cls, m->cls_len);
		if (m->name_len) {
			af_buf_putc(b, '.');
			af_name_append(b, m->name, m->name_len);
		}
		if (a->o->signatures && m->sig_len)
			af_name_append_params(b, m->sig, m->sig_len);
		if (a->o->returns && m->sig_len)
			af_name_append_return(b, m->sig, m->sig_len);
		af_name_finish(b, 0);
	}
	m->frame = af_tree_intern(&a->p->tree, b->data, b->len);
	return m->frame;
}

void art_add_listed_thread(struct art *a, uint64_t id, const char *name, size_t len,
			   bool at_first_event)
{
	af_grow(&a->listed, &a->cap_listed, a->nlisted + 1, sizeof *a->listed);
	a->listed[a->nlisted++] = (struct art_listed_thread){ id, name, (uint32_t)len, at_first_event };
}

/* The thread list entry for a record id: records keep only the low 8 or 16
 * bits of a thread id (tid & 0xFFFF in old ART); an exact match wins over a
 * truncated one. Names given at a thread's first event are looked up apart
 * (by_first), since they carry the record id itself. */
static void put_first(struct af_idmap *m, uint64_t key, size_t i)
{
	bool found;
	uint32_t *slot = af_idmap_slot(m, key, &found);
	if (!found)
		*slot = (uint32_t)i;
}

static uint64_t record_mask(const struct art *a)
{
	return a->record_id_bits >= 64 ? UINT64_MAX : (1ULL << a->record_id_bits) - 1;
}

/* Bring the listed-thread maps up to date (amortised O(1) per entry). */
static void index_listed(struct art *a)
{
	if (a->listed_bits != a->record_id_bits) {
		for (int k = 0; k < 2; k++)
			af_idmap_release(&a->listed_exact[k]);
		af_idmap_release(&a->listed_trunc);
		a->listed_indexed = 0;
		a->listed_bits = a->record_id_bits;
	}
	uint64_t mask = record_mask(a);
	for (size_t i = a->listed_indexed; i < a->nlisted; i++) {
		const struct art_listed_thread *lt = &a->listed[i];
		put_first(&a->listed_exact[lt->at_first_event], lt->id, i);
		if (!lt->at_first_event)
			put_first(&a->listed_trunc, lt->id & mask, i);
	}
	a->listed_indexed = a->nlisted;
}

/* The thread list entry for a record id: records keep only the low 8 or 16
 * bits of a thread id (tid & 0xFFFF in old ART); an exact match wins over a
 * truncated one, and the first listed wins among equals. Names given at a
 * thread's first event are looked up apart (by_first), since they carry the
 * record id itself. */
static const struct art_listed_thread *find_listed(struct art *a, uint64_t record_id,
						   bool by_first)
{
	index_listed(a);
	uint32_t i = af_idmap_get(&a->listed_exact[by_first], record_id);
	if (i == AF_NONE && !by_first && (record_id & ~record_mask(a)) == 0)
		i = af_idmap_get(&a->listed_trunc, record_id);
	return i != AF_NONE ? &a->listed[i] : NULL;
}

static struct art_thread *known_thread(struct art *a, uint64_t record_id)
{
	uint32_t i = af_idmap_get(&a->thread_ids, record_id);
	return i != AF_NONE ? &a->threads[i] : NULL;
}

struct art_thread *art_thread_for(struct art *a, uint64_t record_id)
{
	struct art_thread *known = known_thread(a, record_id);
	if (known)
		return known;
	const struct art_listed_thread *first = find_listed(a, record_id, true);
	const struct art_listed_thread *lt = find_listed(a, record_id, false);
	struct af_buf *b = &a->scratch;
	b->len = 0;
	uint64_t tid = lt ? lt->id : record_id;
	if (first || lt) {
		const struct art_listed_thread *named = first ? first : lt;
		af_buf_add(b, named->name, named->name_len);
	} else {
		a->unknown_threads++;
		af_buf_printf(b, "thread-%" PRIu64, record_id);
	}
	size_t ti = af_profile_add_thread(a->p, tid, b->data, b->len);
	b->len = 0;
	af_name_append(b, a->p->threads[ti].name, strlen(a->p->threads[ti].name));
	af_buf_printf(b, " (%" PRIu64 ")", tid);
	af_name_finish(b, 0);
	uint32_t node = af_tree_add_child(&a->p->tree, AF_ROOT, af_tree_intern(&a->p->tree, b->data, b->len));
	a->p->threads[ti].node = node;
	af_grow(&a->threads, &a->cap_threads, a->nthreads + 1, sizeof *a->threads);
	struct art_thread *th = &a->threads[a->nthreads++];
	memset(th, 0, sizeof *th);
	th->record_id = record_id;
	th->index = ti;
	af_fold_thread_init(&th->fold, node);
	af_idmap_put(&a->thread_ids, record_id, (uint32_t)(a->nthreads - 1));
	return th;
}

int art_choose_clock(struct art *a, bool has_wall, bool has_cpu, const char *file_clock)
{
	enum af_clock want = a->o->clock;
	if (want == AF_CLOCK_WALL && !has_wall)
		return af_diag_error(a->d, "no wall-clock times: the file's clock is %s", file_clock);
	if (want == AF_CLOCK_CPU && !has_cpu)
		return af_diag_error(a->d, "no thread-cpu times: the file's clock is %s", file_clock);
	a->use_wall = want == AF_CLOCK_WALL || (want == AF_CLOCK_DEFAULT && has_wall);
	a->fold.window_per_thread = !a->use_wall;   /* cpu times start per thread */
	a->p->clock = a->use_wall ? "wall" : "thread-cpu";
	return 0;
}

void art_event(struct art *a, struct art_thread *th, uint64_t word, uint64_t time, bool wraps)
{
	if (wraps) {
		uint32_t raw = (uint32_t)time;
		/* a fall of more than 2^31 µs is a wrap of the 32-bit field */
		if (th->seen && raw < th->last_raw && th->last_raw - raw > 0x80000000u)
			th->high += 1ULL << 32;
		th->last_raw = raw;
		time = th->high + raw;
	}
	if (th->seen && time == th->fold.last) {
		th->same_time++;
	} else if (th->seen && time > th->fold.last && th->ngaps < ART_GAPS_PER_THREAD &&
		   a->ngaps < ART_GAPS_MAX) {
		if (!a->gaps)
			a->gaps = af_xmalloc(ART_GAPS_MAX * sizeof *a->gaps);
		a->gaps[a->ngaps++] = time - th->fold.last;
		th->ngaps++;
	}
	th->seen = true;
	a->p->threads[th->index].events++;
	uint32_t action = (uint32_t)(word & 3);
	uint32_t m = art_method_index(a, word & ~(uint64_t)3);
	uint32_t frame = art_method_frame(a, m);
	if (action == 0)
		af_fold_enter(&a->fold, &th->fold, m, frame, time);
	else {
		a->action3 += action == 3;
		af_fold_exit(&a->fold, &th->fold, m, frame, time);
	}
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return (a > b) - (a < b);
}

/* Sampling traces stamp a whole stack diff with one time (spec §6.5): most
 * same-thread neighbours share a timestamp, never so in instrumented ones.
 * The interval is the median gap between distinct timestamps of a thread
 * (robust to idle threads, whose gaps are multiples of it, and to the odd
 * short gap; Firefox takes the smallest gaps, which runs low). */
static void info_mode(struct art *a, uint64_t same, uint64_t events)
{
	if (events <= a->nthreads)
		return;
	double share = (double)same / (double)(events - a->nthreads);
	af_profile_info(a->p, "same-time neighbours", "%.1f%%", 100.0 * share);
	if (share < 0.5 || !a->ngaps) {
		af_profile_info(a->p, "mode", "instrumented");
		return;
	}
	qsort(a->gaps, a->ngaps, sizeof *a->gaps, cmp_u64);
	af_profile_info(a->p, "mode", "sampled, interval \xe2\x89\x88 %" PRIu64 " \xc2\xb5s (median gap between a thread's distinct %s times)",
			a->gaps[a->ngaps / 2], a->use_wall ? "wall" : "thread-cpu");
}

void art_finish(struct art *a)
{
	uint64_t same = 0, events = 0;
	for (size_t i = 0; i < a->nthreads; i++) {
		struct art_thread *th = &a->threads[i];
		af_fold_finish(&a->fold, &th->fold);
		struct af_thread *pt = &a->p->threads[th->index];
		pt->first_time = th->fold.first;
		pt->last_time = th->fold.last;
		same += th->same_time;
		events += pt->events;
	}
	size_t used = 0, distinct = 0;
	uint8_t *seen = af_xcalloc(a->p->tree.nnames, 1);
	for (size_t i = 0; i < a->nmethods; i++) {
		uint32_t f = a->methods[i].frame;
		if (f == AF_NONE)
			continue;
		used++;
		distinct += !seen[f];
		seen[f] = 1;
	}
	free(seen);
	af_profile_info(a->p, "records", "%" PRIu64, a->records);
	af_profile_info(a->p, "threads listed", "%zu", a->nlisted);
	af_profile_info(a->p, "methods listed", "%zu", a->nmethods - (size_t)a->unknown_methods);
	af_profile_info(a->p, "methods used", "%zu", used);
	af_profile_info(a->p, "distinct names", "%zu", distinct);
	info_mode(a, same, events);
	const char *overflow = af_profile_get_info(a->p, "data-file-overflow");
	af_profile_warn(a->p, overflow && strcmp(overflow, "true") == 0,
			"data-file-overflow=true: the trace buffer filled and events were dropped");
	const struct af_fold_stats *s = &a->fold.stats;
	af_profile_warn(a->p, s->orphan_exits, "orphan exits (method exited with no entry: made the caller of earlier calls)");
	af_profile_warn(a->p, s->mismatched_exits, "mismatched exits (frames above the exiting method closed)");
	af_profile_warn(a->p, a->unknown_methods, "unknown method ids (not in the method list)");
	af_profile_warn(a->p, a->unknown_threads, "unknown thread ids (not in the thread list)");
	af_profile_warn(a->p, a->action3, "records with reserved action 3 (treated as exits)");
	af_profile_warn(a->p, s->time_backwards, "events earlier than the previous one on their thread (clamped)");
	af_profile_warn(a->p, s->closed_at_end, "frames still open at the end (closed at their thread's last event)");
}

/* ---- text key section ---- */

struct line_reader {
	const uint8_t *data;
	size_t len, pos;
	uint64_t line;
};

/* Next line without its "\n" (and "\r"); false at the end of data. */
static bool next_line(struct line_reader *r, const char **s, size_t *n, bool *terminated)
{
	if (r->pos >= r->len)
		return false;
	const uint8_t *start = r->data + r->pos;
	const uint8_t *nl = memchr(start, '\n', r->len - r->pos);
	size_t len = nl ? (size_t)(nl - start) : r->len - r->pos;
	r->pos += len + (nl != NULL);
	r->line++;
	*terminated = nl != NULL;
	if (len && start[len - 1] == '\r')
		len--;
	*s = (const char *)start;
	*n = len;
	return true;
}

static bool parse_u64(const char *s, size_t n, int base, uint64_t *v)
{
	if (base == 16 && n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		n -= 2;
	}
	if (n == 0 || n > 20)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d;
		char c = s[i];
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		if (x > (UINT64_MAX - d) / (unsigned)base)
			return false;
		x = x * (unsigned)base + d;
	}
	*v = x;
	return true;
}

/* Split a line at tabs into at most max fields; returns the count. */
static size_t split_tabs(const char *s, size_t n, const char **f, size_t *fl, size_t max)
{
	size_t k = 0, start = 0;
	for (size_t i = 0; i <= n && k < max; i++) {
		if (i == n || s[i] == '\t') {
			f[k] = s + start;
			fl[k] = i - start;
			k++;
			start = i + 1;
		}
	}
	return k;
}

static int parse_thread_line(struct art *a, const struct line_reader *r, const char *s, size_t n)
{
	const char *f[2];
	size_t fl[2];
	uint64_t id;
	if (split_tabs(s, n, f, fl, 2) != 2 || !parse_u64(f[0], fl[0], 10, &id))
		return af_diag_line(a->d, r->line, 0, "thread line is not 'id<TAB>name'");
	/* a name may contain tabs: take everything after the first one */
	art_add_listed_thread(a, id, f[1], n - fl[0] - 1, false);
	return 0;
}

bool art_method_fields(const char *s, size_t n, struct art_method *m)
{
	if (n && s[n - 1] == '\n')
		n--;
	const char *f[3];
	size_t fl[3];
	size_t k = split_tabs(s, n, f, fl, 3);
	if (k < 1 || fl[0] == 0 || n > UINT32_MAX)
		return false;
	m->cls = f[0];
	m->cls_len = (uint32_t)fl[0];
	m->name = m->sig = NULL;
	m->name_len = m->sig_len = 0;
	if (k >= 3) {   /* class method signature [file [line]] */
		m->name = f[1];
		m->name_len = (uint32_t)fl[1];
		m->sig = f[2];
		/* the signature ends at the next tab (source file), if any */
		const char *tab = memchr(f[2], '\t', fl[2]);
		m->sig_len = (uint32_t)(tab ? (size_t)(tab - f[2]) : fl[2]);
	}
	return true;
}

bool art_method_line(const char *s, size_t n, struct art_method *m)
{
	const char *tab = memchr(s, '\t', n);
	uint64_t id;
	if (!tab || !parse_u64(s, (size_t)(tab - s), 16, &id))
		return false;
	memset(m, 0, sizeof *m);
	m->id = id;
	size_t skip = (size_t)(tab - s) + 1;
	return art_method_fields(s + skip, n - skip, m);
}

static int parse_method_line(struct art *a, const struct line_reader *r, const char *s, size_t n)
{
	struct art_method m;
	if (!art_method_line(s, n, &m))
		return af_diag_line(a->d, r->line, 0, "method line is not 'id<TAB>class<TAB>name<TAB>signature...'");
	if (m.id > UINT32_MAX)
		return af_diag_line(a->d, r->line, 0, "method id 0x%" PRIx64 " does not fit in 32 bits", m.id);
	m.id &= ~(uint64_t)3;
	if (!art_add_method(a, &m) && !a->relist_ok)
		af_profile_note(a->p, "method id 0x%" PRIx64 " listed twice (line %" PRIu64 "; first kept)", m.id, r->line);
	return 0;
}

static void add_key(struct art *a, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n);
	if (!eq) {
		char q[64];
		af_profile_note(a->p, "key line without '=' ignored: '%s'", art_quote(q, sizeof q, s, n));
		return;
	}
	char key[64];
	size_t kl = (size_t)(eq - s) < sizeof key - 1 ? (size_t)(eq - s) : sizeof key - 1;
	memcpy(key, s, kl);
	key[kl] = 0;
	af_profile_info(a->p, key, "%.*s", (int)(n - (size_t)(eq - s) - 1), eq + 1);
}

enum section { SEC_VERSION, SEC_KEYS, SEC_THREADS, SEC_METHODS };

static int section_marker(struct art *a, const struct line_reader *r, const char *s, size_t n,
			  enum section *sec)
{
	static const struct { const char *name; enum section sec; } markers[] = {
		{ "*threads", SEC_THREADS }, { "*methods", SEC_METHODS },
	};
	for (size_t i = 0; i < sizeof markers / sizeof *markers; i++) {
		if (n == strlen(markers[i].name) && memcmp(s, markers[i].name, n) == 0) {
			*sec = markers[i].sec;
			return 0;
		}
	}
	char q[64];
	return af_diag_line(a->d, r->line, 0, "unknown section '%s'", art_quote(q, 41, s, n));
}

int art_parse_text(struct art *a, const uint8_t *data, size_t len, size_t base,
		   size_t *end_pos, int *version)
{
	struct line_reader r = { data, len, base, 0 };
	const char *s;
	size_t n;
	bool nl;
	if (!next_line(&r, &s, &n, &nl) || n != 8 || memcmp(s, "*version", 8) != 0)
		return af_diag_line(a->d, 1, 0, "missing '*version' line");
	enum section sec = SEC_VERSION;
	char q[64];
	while (next_line(&r, &s, &n, &nl)) {
		if (!nl)
			return af_diag_line(a->d, r.line, 0, "text section ends without '*end'");
		if (n == 4 && memcmp(s, "*end", 4) == 0) {
			*end_pos = r.pos;
			return sec == SEC_VERSION ? af_diag_line(a->d, r.line, 0, "missing version number") : 0;
		}
		if (sec == SEC_VERSION) {
			uint64_t v;
			if (!parse_u64(s, n, 10, &v) || v > 0xffff)
				return af_diag_line(a->d, r.line, 0, "version '%s' is not a number", art_quote(q, 21, s, n));
			*version = (int)v;
			af_profile_info(a->p, "version", "%d", *version);
			sec = SEC_KEYS;
		} else if (n && s[0] == '*') {
			if (section_marker(a, &r, s, n, &sec) < 0)
				return -1;
		} else if (n == 0) {
			continue;
		} else if (sec == SEC_KEYS) {
			add_key(a, s, n);
		} else if (sec == SEC_THREADS) {
			if (parse_thread_line(a, &r, s, n) < 0)
				return -1;
		} else if (parse_method_line(a, &r, s, n) < 0) {
			return -1;
		}
	}
	return af_diag_line(a->d, r.line + 1, 0, "text section ends without '*end'");
}

const char *art_quote(char *out, size_t size, const char *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n && i < 60 && k + 1 < size; i++)
		out[k++] = s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?';
	out[k] = 0;
	return out;
}

int art_text_error_at(struct art *a, size_t offset, const char *what)
{
	char msg[sizeof a->d->msg + 64];
	int n = snprintf(msg, sizeof msg, "%s, line %" PRIu64 ": %s", what, a->d->line, a->d->msg);
	size_t len = n < 0 ? 0 : (size_t)n < sizeof a->d->msg ? (size_t)n : sizeof a->d->msg - 1;
	memcpy(a->d->msg, msg, len);
	a->d->msg[len] = 0;
	a->d->where = AF_WHERE_OFFSET;
	a->d->offset = offset;
	return -1;
}
