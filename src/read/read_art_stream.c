/* read_art_stream.c: V1 streaming method traces (ART >= 6.0, spec §3)
 *
 *   <header: "SLOW", u2 0xF2|0xF3, u2 data offset, u8 start, u2 record size>
 *   <items to EOF>, each starting with a u2:
 *     != 0  an event record of record-size bytes (u2 thread, u4 method word,
 *           u4 time [, u4 time]) as in legacy v2/v3
 *     == 0  an escape, then u1 op: 1 method line (u2 len, "id\tclass\t...\n"),
 *           2 thread name (u2 id, u2 len, name), 3 summary (u4 len, the
 *           legacy text section "*version\n...*end\n"; last item, ART >= 8)
 *
 * The summary holds the clock and comes last, so it is found first: by the
 * spec's fast path from the end of the file, else by a walk over the items
 * that only steps over them. Records are then decoded in one loop, with no
 * allocation per record, through the shared art_event/art_thread_for path.
 *
 * Record size: ART 6-13 wrote 14-byte records even under a single-clock 0xF2
 * header that says 10. When the header says anything but 14, both sizes are
 * tried on the first items (walk_prefix) and the one whose stream stays
 * consistent (valid escapes, records on threads announced by op 2) wins. */
#include "art.h"
#include "cursor.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	STREAM_HEADER_MIN = 18,     /* up to and including the record size */
	OP_METHOD = 1, OP_THREAD = 2, OP_SUMMARY = 3,
	PREFIX_ITEMS = 4096,        /* items tried per candidate record size */
	QUIRK_RECORD_SIZE = 14,
};

struct stream {
	unsigned version;        /* 2 or 3 (flag 0xF0 stripped) */
	size_t data;             /* first item */
	size_t header_size;      /* record size the header gives */
	size_t record_size;      /* record size used */
	size_t summary;          /* offset of the summary item; 0 if none */
	size_t summary_len;      /* its text length */
	size_t end;              /* items end here: the summary or EOF */
	size_t op_threads;       /* op-2 items */
	uint64_t max_op_thread;  /* largest id in them */
	bool cut;                /* the file ends inside an item */
};

/* ---- walking the items without decoding them ---- */

struct walk {
	size_t pos;          /* where the walk stopped */
	size_t summary;      /* op-3 item found (0: none) */
	bool bad;            /* stopped at something that is not an item */
	size_t records, announced;   /* records, and those on an op-2 thread */
};

static bool bit(const uint8_t *set, uint32_t i) { return set[i >> 3] >> (i & 7) & 1; }

/* The item at c->pos: a record (tid != 0) or an escape with its op, the
 * size of its head (0: not an op we know) and the length of what follows;
 * cut when the file ends inside the head. False when fewer than 3 bytes
 * are left. Does not move c. */
struct item { uint16_t tid; uint8_t op; bool cut; size_t head; uint64_t n; uint16_t id; };

static bool peek_item(struct af_cursor c, struct item *it)
{
	*it = (struct item){ 0 };
	if (af_cursor_left(&c) < 3 || !af_cursor_u16(&c, &it->tid))
		return false;
	if (it->tid || !af_cursor_u8(&c, &it->op))
		return true;
	uint16_t n16 = 0;
	uint32_t n32 = 0;
	bool whole = true;
	switch (it->op) {
	case OP_METHOD:
		it->head = 5;
		whole = af_cursor_u16(&c, &n16);
		break;
	case OP_THREAD:
		it->head = 7;
		whole = af_cursor_u16(&c, &it->id) && af_cursor_u16(&c, &n16);
		break;
	case OP_SUMMARY:
		it->head = 7;
		whole = af_cursor_u32(&c, &n32);
		break;
	default:
		break;
	}
	it->n = it->op == OP_SUMMARY ? n32 : n16;
	it->cut = !whole;
	return true;
}

/* Step over the escape item at c (head and body); false, c unmoved, when
 * the file ends inside it. *body points at what follows the head. */
static bool skip_escape(struct af_cursor *c, const struct item *it, const uint8_t **body)
{
	struct af_cursor t = *c;
	if (it->cut || !af_cursor_skip(&t, it->head) || !af_cursor_bytes(&t, (size_t)it->n, body))
		return false;
	*c = t;
	return true;
}

/* Step over up to `limit` items from `from` with records of `rs` bytes. */
static void walk_items(const uint8_t *d, size_t len, size_t from, size_t rs,
		       size_t limit, uint8_t *threads, struct walk *w)
{
	memset(w, 0, sizeof *w);
	struct af_cursor c = { d, len, from };
	struct item it;
	for (size_t items = 0; items < limit && peek_item(c, &it); items++) {
		if (it.tid) {
			if (!af_cursor_skip(&c, rs))
				break;   /* cut short: not a sign of a wrong record size */
			w->records++;
			w->announced += bit(threads, it.tid);
			continue;
		}
		if (it.op == OP_SUMMARY) {
			w->summary = c.pos;
			break;
		}
		if (!it.head) {
			w->bad = true;
			break;
		}
		if (it.cut)
			break;
		if (it.op == OP_THREAD)
			threads[it.id >> 3] |= (uint8_t)(1u << (it.id & 7));
		const uint8_t *body;
		struct af_cursor next = c;
		if (it.op == OP_METHOD && it.n == 0) {
			w->bad = true;
			break;
		}
		if (!skip_escape(&next, &it, &body))
			break;
		if (it.op == OP_METHOD && body[it.n - 1] != '\n') {
			w->bad = true;
			break;
		}
		c = next;
	}
	w->pos = c.pos;
}

/* Which record size keeps the stream consistent over its first items. */
static size_t choose_record_size(struct art *a, const struct stream *s)
{
	const uint8_t *d = a->in->data;
	size_t len = s->summary ? s->summary : a->in->len;
	size_t sizes[2] = { s->header_size, QUIRK_RECORD_SIZE };
	if (s->header_size == QUIRK_RECORD_SIZE)
		return s->header_size;
	struct walk w[2];
	uint8_t *threads = af_xcalloc(65536 / 8, 1);
	for (int i = 0; i < 2; i++) {
		memset(threads, 0, 65536 / 8);
		walk_items(d, len, s->data, sizes[i], PREFIX_ITEMS, threads, &w[i]);
	}
	free(threads);
	if (w[0].bad != w[1].bad)
		return w[0].bad ? sizes[1] : sizes[0];
	return w[1].announced > w[0].announced ? sizes[1] : sizes[0];
}

/* Spec §3 fast path: the summary is the last item, so it is valid at p iff
 * p..p+2 = 00 00 03, u4 len at p+3, p + 7 + len == file size, and the text
 * starts with "*version\n". Only the summary's own bytes are scanned. */
static size_t find_summary_fast(const uint8_t *d, size_t len, size_t from)
{
	if (len < from + 7 + 14 || memcmp(d + len - 5, "*end\n", 5) != 0)
		return 0;
	for (size_t q = len - 14; q >= from + 7; q--) {
		if (d[q] != '*' || memcmp(d + q, "*version\n", 9) != 0)
			continue;
		size_t p = q - 7;
		if (d[p] == 0 && d[p + 1] == 0 && d[p + 2] == OP_SUMMARY && af_le(d + p + 3, 4) == len - q)
			return p;
	}
	return 0;
}

/* ---- header and summary ---- */

static int read_header(struct art *a, struct stream *s)
{
	const struct af_input *in = a->in;
	struct af_cursor c = { in->data, in->len, 4 };
	uint16_t version, offset, record_size;
	if (!af_cursor_u16(&c, &version) || !af_cursor_u16(&c, &offset) || !af_cursor_skip(&c, 8) ||
	    !af_cursor_u16(&c, &record_size))
		return af_diag_offset(a->d, in->len, "truncated header (%zu bytes, need 32)", in->len);
	s->version = version & 0x0f;
	s->header_size = record_size;
	if (offset < STREAM_HEADER_MIN)
		return af_diag_offset(a->d, 6, "data offset %u is shorter than the header", offset);
	if (offset > in->len)
		return af_diag_offset(a->d, 6, "data offset %u is past the end of the file (%zu bytes)", offset, in->len);
	if (s->version == 2 && s->header_size == 0)
		s->header_size = 10;   /* a writer that left it unset */
	size_t min = s->version == 3 ? 14 : 10;
	if (s->header_size < min)
		return af_diag_offset(a->d, 16, "record size %zu is too small for version 0xf%u (need at least %zu)",
				      s->header_size, s->version, min);
	s->data = offset;
	return 0;
}

/* Find the summary item (fast path, else a walk); sets s->summary/end. */
static void locate_summary(struct art *a, struct stream *s)
{
	const uint8_t *d = a->in->data;
	size_t len = a->in->len;
	s->end = len;
	s->summary = find_summary_fast(d, len, s->data);
	if (s->summary) {
		s->summary_len = len - s->summary - 7;
		s->end = s->summary;
		return;
	}
	struct walk w;
	uint8_t *threads = af_xcalloc(65536 / 8, 1);
	walk_items(d, len, s->data, s->record_size, SIZE_MAX, threads, &w);
	free(threads);
	if (!w.summary)
		return;
	struct item it;
	uint64_t n = peek_item((struct af_cursor){ d, len, w.summary }, &it) && !it.cut ? it.n : UINT64_MAX;
	if (n > len - w.summary - 7) {
		af_profile_note(a->p, "summary item at offset 0x%zx is cut off (the file ends inside it): clock and names from it are lost", w.summary);
		s->end = w.summary;
		return;
	}
	s->summary = w.summary;
	s->summary_len = (size_t)n;
	s->end = w.summary;
	af_profile_note(a->p, "%zu bytes after the summary item (offset 0x%zx) ignored: the summary is the last item",
			len - w.summary - 7 - (size_t)n, w.summary);
}

static int parse_summary(struct art *a, const struct stream *s)
{
	size_t text = s->summary + 7, end = 0;
	int version = 0;
	a->relist_ok = true;   /* ART >= 2023 lists every op-1 method again */
	if (art_parse_text(a, a->in->data, text + s->summary_len, text, &end, &version) < 0)
		return art_text_error_at(a, s->summary, "summary item");
	if (end != text + s->summary_len)
		af_profile_note(a->p, "%zu bytes after '*end' in the summary item ignored", text + s->summary_len - end);
	if ((unsigned)version != s->version)
		af_profile_note(a->p, "summary says version %d, header 0xf%u (header used)", version, s->version);
	return 0;
}

/* Dual clock for 0xF3; for 0xF2 the summary's clock=, else unknown. */
static int stream_clock(struct art *a, const struct stream *s)
{
	const char *clock = af_profile_get_info(a->p, "clock");
	if (s->version == 3) {
		if (clock && strcmp(clock, "dual") != 0)
			af_profile_note(a->p, "summary says clock=%s but the header says dual clock (0xf3): both clocks read", clock);
		return art_choose_clock(a, true, true, "dual");
	}
	if (clock && (strcmp(clock, "wall") == 0 || strcmp(clock, "global") == 0))
		return art_choose_clock(a, true, false, "wall");
	if (clock && strcmp(clock, "thread-cpu") == 0)
		return art_choose_clock(a, false, true, "thread-cpu");
	/* no summary (Android 6-7): the one clock is not named anywhere */
	a->use_wall = a->o->clock == AF_CLOCK_WALL;
	a->p->clock = a->use_wall ? "wall" : "thread-cpu";
	af_profile_info(a->p, "clock", "unknown (single-clock 0xf2 file with no clock= summary)");
	af_profile_note(a->p, "the file does not say which single clock it has: read as %s%s",
			a->p->clock, a->use_wall ? " (--clock wall)" : " (--clock wall to call it wall time)");
	return 0;
}

/* ---- decoding ---- */

static int op_method(struct art *a, size_t p, const char *line, size_t n)
{
	struct art_method m;
	char q[64];
	if (!art_method_line(line, n, &m))
		return af_diag_offset(a->d, p, "method item is not 'id<TAB>class<TAB>name<TAB>signature...': '%s'",
				      art_quote(q, sizeof q, line, n));
	if (m.id > UINT32_MAX)
		return af_diag_offset(a->d, p, "method id 0x%" PRIx64 " does not fit in 32 bits", m.id);
	m.id &= ~(uint64_t)3;
	art_add_method(a, &m);   /* the summary may have listed it already */
	return 0;
}

/* One escape item at c->pos, stepped over; returns 1, 0 when the file ends
 * inside it (s->cut set), or -1 with diag set. */
static int escape(struct art *a, struct stream *s, struct af_cursor *c)
{
	size_t p = c->pos;
	struct item it;
	const uint8_t *body;
	if (!peek_item(*c, &it) || (it.head && !skip_escape(c, &it, &body))) {
		s->cut = true;
		return 0;
	}
	if (!it.head)
		return af_diag_offset(a->d, p + 2, "unknown item: escape op %u (ops are 1, 2, 3; a corrupt stream, or records that are not %zu bytes)",
				      it.op, s->record_size);
	if (it.op == OP_METHOD && op_method(a, p, (const char *)body, (size_t)it.n) < 0)
		return -1;
	if (it.op == OP_THREAD) {
		art_add_listed_thread(a, it.id, (const char *)body, (size_t)it.n, true);
		s->op_threads++;
		if (it.id > s->max_op_thread)
			s->max_op_thread = it.id;
	}
	if (it.op == OP_SUMMARY)
		af_profile_note(a->p, "summary item at offset 0x%zx ignored (not the last item)", p);
	return 1;
}

static int decode(struct art *a, struct stream *s)
{
	const size_t rs = s->record_size;
	const size_t tpos = s->version == 3 && a->use_wall ? 10 : 6;
	struct af_cursor c = { a->in->data, s->end, s->data };
	size_t consumed = 0;
	while (af_cursor_left(&c)) {
		if (c.pos - consumed >= AF_INPUT_CONSUME_STEP)
			af_input_consumed(a->in, consumed = c.pos);
		const uint8_t *rec = c.data + c.pos;
		uint32_t tid = af_cursor_left(&c) >= 2 ? (uint32_t)af_le(rec, 2) : 1;
		if (tid) {
			if (!af_cursor_bytes(&c, rs, &rec)) {
				s->cut = true;
				break;
			}
			uint32_t word = (uint32_t)af_le(rec + 2, 4);
			uint32_t t = (uint32_t)af_le(rec + tpos, 4);
			art_event(a, art_thread_for(a, tid), word, t, true);
			a->records++;
			continue;
		}
		int rc = escape(a, s, &c);
		if (rc <= 0) {
			if (rc < 0)
				return -1;
			break;
		}
	}
	if (s->cut)
		af_profile_note(a->p, "the file ends inside an item at offset 0x%zx (%zu bytes): the records before it are used",
				c.pos, s->end - c.pos);
	return 0;
}

/* ---- --info ---- */

static void info_variant(struct art *a, const struct stream *s)
{
	af_profile_info(a->p, "variant", "V1 streaming 0x%x (%s, %zu-byte records%s)",
			0xf0 | s->version, s->version == 3 ? "dual clock" : "single clock", s->record_size,
			s->record_size != s->header_size ? ", not the header's size" : "");
	struct af_buf *b = &a->scratch;
	b->len = 0;
	const char *threads_key = af_profile_get_info(a->p, "summary threads");
	const char *methods_key = af_profile_get_info(a->p, "summary methods");
	bool sum_threads = threads_key && strcmp(threads_key, "0") != 0;
	bool sum_methods = methods_key && strcmp(methods_key, "0") != 0;
	if (!s->summary)
		af_buf_puts(b, s->cut ? "no summary item: cut short, or ART 6.0\xe2\x80\x93" "7.1 streaming (summary went to a .sec file)"
				      : "ART 6.0\xe2\x80\x93" "7.1 streaming (no summary item)");
	else if (sum_threads && !sum_methods)
		af_buf_puts(b, "ART 2017\xe2\x80\x93" "2022 streaming (summary lists threads)");
	else if (sum_methods && !sum_threads)
		af_buf_puts(b, "ART 2023+ streaming (summary lists every method, no threads)");
	else
		af_buf_printf(b, "streaming with a summary listing %s", sum_threads ? "threads and methods" : "neither threads nor methods");
	if (s->version == 2 && s->record_size == QUIRK_RECORD_SIZE && s->header_size != QUIRK_RECORD_SIZE)
		af_buf_printf(b, "; 14-byte records under a 0xf2 header saying %zu: ART 6\xe2\x80\x93" "13 writer", s->header_size);
	if (s->op_threads && s->max_op_thread <= s->op_threads)
		af_buf_puts(b, "; small sequential thread ids (ART 2023+)");
	af_profile_info(a->p, "era", "%.*s", (int)b->len, b->data);
	af_profile_info(a->p, "thread items", "%zu (op 2)", s->op_threads);
}

int art_read_stream(struct art *a)
{
	struct stream s = { 0 };
	if (read_header(a, &s) < 0)
		return -1;
	s.summary = find_summary_fast(a->in->data, a->in->len, s.data);
	s.record_size = choose_record_size(a, &s);
	locate_summary(a, &s);
	if (s.summary) {
		size_t before_t = a->nlisted, before_m = a->nmethods;
		if (parse_summary(a, &s) < 0)
			return -1;
		af_profile_info(a->p, "summary threads", "%zu", a->nlisted - before_t);
		af_profile_info(a->p, "summary methods", "%zu", a->nmethods - before_m);
	}
	if (stream_clock(a, &s) < 0)
		return -1;
	if (decode(a, &s) < 0)
		return -1;
	info_variant(a, &s);
	art_finish(a);
	return 0;
}
