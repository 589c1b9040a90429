/* read_art_v2.c: V2 method traces (ART 2024+, opt-in; spec §4)
 *
 *   <32-byte header: "SLOW", u2 4|5|0xF4|0xF5, u8 start (unaligned, at 6),
 *    then zeros (V2a, Android 16) or u8 start TSC at 14, u8 TSC Hz at 22 (V2b)>
 *   <packets to EOF, by their first byte>
 *     0 thread info  u4 tid, u2 len, name
 *     1 method info  u8 id (ArtMethod*), u2 len, "class\tname\tsig\tsource\n"
 *     2 entry block  u4 tid, u3 count, u4 payload size, payload
 *     3 summary      u2 len, "*version\n...elapsed-time-nsec=...*end\n"
 *
 * Entry block records are deltas from the previous record of the block:
 *   V2a: SLEB128 (method|action) [ULEB128 wall] [ULEB128 thread-cpu]
 *   V2b: SLEB128 (time<<2|action) [SLEB128 thread-cpu] [enter: SLEB128 method]
 *
 * Pass 1 walks the packets (names, methods, the summary with the clock);
 * pass 2 scans the blocks for their largest times, which with the summary's
 * elapsed-time-nsec tell whether the file counts µs or ns (§7.3); pass 3
 * decodes the blocks into the call tree. Weights are always µs. */
#include "art.h"
#include "cursor.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { V2_HEADER = 32, BLOCK_HEAD = 12 };
enum { PKT_THREAD, PKT_METHOD, PKT_BLOCK, PKT_SUMMARY };

struct v2 {
	unsigned version;        /* 4 or 5 */
	bool streaming;          /* 0xF4 / 0xF5 */
	bool v2b;                /* TSC header, time-coded records */
	uint64_t freq;           /* V2b TSC frequency in Hz */
	bool has_wall, has_cpu;  /* what the records carry */
	bool ns;                 /* times count ns (else µs) */
	size_t end;              /* packets end here (a cut file ends early) */
	size_t blocks;
	uint64_t max_wall, max_cpu;  /* largest raw times (pass 2) */
	uint64_t exits_unmatched;    /* V2b exits with an empty stack */
	size_t summary;
};

/* ---- pass 1: packets ---- */

static int summary_packet(struct art *a, size_t at, size_t text, size_t n)
{
	size_t end = 0;
	int version = 0;
	if (art_parse_text(a, a->in->data, text + n, text, &end, &version) < 0)
		return art_text_error_at(a, at, "summary packet");
	return 0;
}

static int method_packet(struct art *a, size_t at, uint64_t id, size_t text, size_t n)
{
	struct art_method m = { .id = id & ~(uint64_t)3 };
	const char *s = (const char *)a->in->data + text;
	char q[64];
	if (!art_method_fields(s, n, &m))
		return af_diag_offset(a->d, at, "method info is not 'class<TAB>name<TAB>signature<TAB>source': '%s'",
				      art_quote(q, sizeof q, s, n));
	if (!art_add_method(a, &m))
		af_profile_note(a->p, "method id 0x%" PRIx64 " described twice (first kept)", m.id);
	return 0;
}

/* One packet at c->pos; false when the file ends inside it. */
static int packet(struct art *a, struct v2 *v, struct af_cursor *c)
{
	size_t at = c->pos;
	uint8_t type;
	uint32_t tid;
	uint16_t n16;
	uint64_t id, count, size;
	if (!af_cursor_u8(c, &type))
		return 0;
	switch (type) {
	case PKT_THREAD:
		if (!af_cursor_u32(c, &tid) || !af_cursor_u16(c, &n16) || !af_cursor_skip(c, n16))
			return 0;
		art_add_listed_thread(a, tid, (const char *)c->data + c->pos - n16, n16, true);
		return 1;
	case PKT_METHOD:
		if (!af_cursor_u64(c, &id) || !af_cursor_u16(c, &n16) || !af_cursor_skip(c, n16))
			return 0;
		return method_packet(a, at, id, c->pos - n16, n16) < 0 ? -1 : 1;
	case PKT_BLOCK:
		if (!af_cursor_u32(c, &tid) || !af_cursor_uint(c, 3, &count) || !af_cursor_uint(c, 4, &size) ||
		    !af_cursor_skip(c, (size_t)size))
			return 0;
		v->blocks++;
		return 1;
	case PKT_SUMMARY:
		if (!af_cursor_u16(c, &n16) || !af_cursor_skip(c, n16))
			return 0;
		if (v->summary)
			af_profile_note(a->p, "second summary packet at offset 0x%zx ignored", at);
		else
			v->summary = at;
		return v->summary == at && summary_packet(a, at, at + 3, n16) < 0 ? -1 : 1;
	default:
		return af_diag_offset(a->d, at, "unknown packet type %u (V2 packets are 0 thread, 1 method, 2 entry block, 3 summary)", type);
	}
}

static int read_packets(struct art *a, struct v2 *v)
{
	struct af_cursor c = { a->in->data, a->in->len, V2_HEADER };
	while (af_cursor_left(&c)) {
		size_t at = c.pos;
		int rc = packet(a, v, &c);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			v->end = at;
			af_profile_note(a->p, "the file ends inside a packet at offset 0x%zx (%zu bytes): the packets before it are used",
					at, a->in->len - at);
			return 0;
		}
	}
	v->end = a->in->len;
	return 0;
}

/* ---- clocks and units ---- */

static int v2_clock(struct art *a, struct v2 *v)
{
	const char *clock = af_profile_get_info(a->p, "clock");
	if (v->version == 5) {
		v->has_wall = v->has_cpu = true;
	} else if (v->v2b || (clock && strcmp(clock, "wall") == 0)) {
		v->has_wall = true;    /* V2b's time field is the TSC (wall) clock */
	} else if (clock && strcmp(clock, "thread-cpu") == 0) {
		v->has_cpu = true;
	} else {
		v->has_cpu = true;
		if (a->o->clock == AF_CLOCK_WALL) {
			v->has_cpu = false;
			v->has_wall = true;
		}
		af_profile_info(a->p, "clock", "unknown (version 4 file without a clock= summary)");
		af_profile_note(a->p, "the file does not say which single clock it has: read as %s",
				v->has_wall ? "wall (--clock wall)" : "thread-cpu (--clock wall to call it wall time)");
		a->use_wall = v->has_wall;
		a->p->clock = a->use_wall ? "wall" : "thread-cpu";
		return 0;
	}
	if (v->v2b && v->version == 5) {
		if (a->o->clock == AF_CLOCK_CPU)
			return af_diag_error(a->d, "thread-cpu times of this V2 revision (TSC header) are not documented: only the wall clock is read");
		return art_choose_clock(a, true, false, "dual (thread-cpu not read)");
	}
	return art_choose_clock(a, v->has_wall, v->has_cpu,
				v->version == 5 ? "dual" : v->has_wall ? "wall" : "thread-cpu");
}

/* µs or ns: the records' largest wall time against elapsed-time-nsec. */
static void v2_unit(struct art *a, struct v2 *v)
{
	if (v->v2b) {
		v->ns = true;
		if (v->freq)
			af_profile_info(a->p, "time unit", "TSC ticks, scaled to ns by the header's %" PRIu64 " Hz", v->freq);
		else
			af_profile_info(a->p, "time unit", "ns (no TSC frequency in the header)");
		return;
	}
	const char *e = af_profile_get_info(a->p, "elapsed-time-nsec");
	uint64_t elapsed = e ? strtoull(e, NULL, 10) : 0;
	if (!elapsed) {
		v->ns = true;
		af_profile_info(a->p, "time unit", "ns, assumed (no elapsed-time-nsec to check against; 2024 builds wrote \xc2\xb5s)");
		af_profile_note(a->p, "time unit not stated in the file: read as ns");
		return;
	}
	/* µs times span ~1000x less than elapsed ns; thread-cpu spans <= wall */
	if (v->has_wall)
		v->ns = v->max_wall > elapsed / 32;
	else
		v->ns = v->max_cpu > elapsed / 500;
	af_profile_info(a->p, "time unit", "%s (largest %s time %" PRIu64 " against elapsed-time-nsec %" PRIu64 ")",
			v->ns ? "ns" : "\xc2\xb5s, the 2024 writer (or \xc2\xb5s labelled ns, spec \xc2\xa7" "7.3)",
			v->has_wall ? "wall" : "thread-cpu", v->has_wall ? v->max_wall : v->max_cpu, elapsed);
}

/* V2b ticks to ns without overflowing 64 bits. */
static uint64_t ticks_ns(uint64_t t, uint64_t freq)
{
	if (!freq)
		return t;
	if (freq > 10000000000ULL)
		return (uint64_t)((long double)t * 1e9L / (long double)freq);
	return t / freq * 1000000000ULL + t % freq * 1000000000ULL / freq;
}

/* ---- passes 2 and 3: entry blocks ---- */

struct block {
	size_t at;              /* packet offset, for messages */
	uint32_t tid;
	uint64_t count;
	struct af_cursor c;     /* over the payload only */
};

static int bad_record(struct art *a, const struct block *b, uint64_t i)
{
	return af_diag_offset(a->d, b->c.pos, "entry block at offset 0x%zx: record %" PRIu64 " of %" PRIu64 " is cut off or malformed at the end of its payload",
			      b->at, i + 1, b->count);
}

static int block_v2a(struct art *a, struct v2 *v, struct block *b, bool fold)
{
	uint64_t word = 0, wall = 0, cpu = 0, dw = 0, dc = 0;
	int64_t dm;
	struct art_thread *th = fold ? art_thread_for(a, b->tid) : NULL;
	for (uint64_t i = 0; i < b->count; i++) {
		if (!af_cursor_sleb(&b->c, &dm) || (v->has_wall && !af_cursor_uleb(&b->c, &dw)) ||
		    (v->has_cpu && !af_cursor_uleb(&b->c, &dc)))
			return bad_record(a, b, i);
		if (wall > UINT64_MAX - dw || cpu > UINT64_MAX - dc)   /* deltas that wrap: damage */
			return af_diag_offset(a->d, b->c.pos, "entry block at offset 0x%zx: record %" PRIu64 " of %" PRIu64 " takes its times past 2^64",
					      b->at, i + 1, b->count);
		word += (uint64_t)dm;
		wall += dw;
		cpu += dc;
		if (!fold) {
			v->max_wall = wall > v->max_wall ? wall : v->max_wall;
			v->max_cpu = cpu > v->max_cpu ? cpu : v->max_cpu;
			continue;
		}
		uint64_t t = a->use_wall ? wall : cpu;
		art_event(a, th, word, v->ns ? t / 1000 : t, false);
		a->records++;
	}
	return 0;
}

static int block_v2b(struct art *a, struct v2 *v, struct block *b, bool fold)
{
	uint64_t value = 0, method = 0;
	int64_t d;
	struct art_thread *th = fold ? art_thread_for(a, b->tid) : NULL;
	for (uint64_t i = 0; i < b->count; i++) {
		if (!af_cursor_sleb(&b->c, &d))
			return bad_record(a, b, i);
		value += (uint64_t)d;
		unsigned action = (unsigned)(value & 3);
		if ((v->has_cpu && !af_cursor_sleb(&b->c, &d)))
			return bad_record(a, b, i);
		if (action == 0) {
			if (!af_cursor_sleb(&b->c, &d))
				return bad_record(a, b, i);
			method += (uint64_t)d;
		}
		if (!fold)
			continue;
		uint64_t t = ticks_ns(value >> 2, v->freq) / 1000;
		uint64_t word = method;
		if (action) {   /* exits carry no method: it is the top of the stack */
			if (!th->fold.depth) {
				v->exits_unmatched++;
				continue;
			}
			word = a->methods[th->fold.stack[th->fold.depth - 1].method].id;
		}
		art_event(a, th, (word & ~(uint64_t)3) | action, t, false);
		a->records++;
	}
	return 0;
}

static int read_blocks(struct art *a, struct v2 *v, bool fold)
{
	struct af_cursor c = { a->in->data, v->end, V2_HEADER };
	while (af_cursor_left(&c)) {
		uint8_t type = c.data[c.pos];
		uint64_t len, size = 0, tid = 0;
		struct block b = { .at = c.pos };
		if (type == PKT_BLOCK) {
			c.pos++;   /* pass 1 checked that the whole block is there */
			af_cursor_uint(&c, 4, &tid);
			af_cursor_uint(&c, 3, &b.count);
			af_cursor_uint(&c, 4, &size);
			b.tid = (uint32_t)tid;
			b.c = (struct af_cursor){ c.data, c.pos + (size_t)size, c.pos };
			int rc = v->v2b ? block_v2b(a, v, &b, fold) : block_v2a(a, v, &b, fold);
			if (rc < 0)
				return -1;
			if (af_cursor_left(&b.c) && !fold)
				af_profile_note(a->p, "entry block at offset 0x%zx: %zu bytes after its %" PRIu64 " records ignored",
						b.at, af_cursor_left(&b.c), b.count);
			c.pos += (size_t)size;
			continue;
		}
		/* pass 1 checked these packets: step over them */
		static const unsigned len_at[] = { 5, 9, 0, 1 }, head[] = { 7, 11, 0, 3 };
		len = af_le(c.data + c.pos + len_at[type], 2);
		c.pos += head[type] + (size_t)len;
	}
	return 0;
}

/* ---- entry ---- */

static int read_header(struct art *a, struct v2 *v)
{
	const uint8_t *d = a->in->data;
	if (a->in->len < V2_HEADER)
		return af_diag_offset(a->d, a->in->len, "truncated V2 header (%zu bytes, need 32)", a->in->len);
	unsigned version = (unsigned)af_le(d + 4, 2);
	v->version = version & 0x0f;
	v->streaming = (version & 0xf0) == 0xf0;
	bool zero = true;
	for (size_t i = 14; i < V2_HEADER; i++)
		zero &= d[i] == 0;
	v->v2b = !zero;
	v->freq = af_le(d + 22, 8);
	af_profile_info(a->p, "variant", "V2%s %s 0x%x (%s clock)", v->v2b ? "b" : "a",
			v->streaming ? "streaming" : "file", version, v->version == 5 ? "dual" : "single");
	af_profile_info(a->p, "era", "%s", v->v2b ? "ART 2026+ V2 revision with a TSC frequency in the header (as Perfetto reads it; provisional)"
					      : "ART 2024+ V2, the Android 16 encoding (opt-in trace format)");
	af_profile_info(a->p, "start time", "%" PRIu64, af_le(d + 6, 8));
	if (v->v2b)
		af_profile_info(a->p, "tsc frequency", "%" PRIu64 " Hz", v->freq);
	return 0;
}

int art_read_v2(struct art *a)
{
	struct v2 v = { 0 };
	a->record_id_bits = 32;   /* real Linux tids */
	if (read_header(a, &v) < 0 || read_packets(a, &v) < 0 || v2_clock(a, &v) < 0)
		return -1;
	if (read_blocks(a, &v, false) < 0)
		return -1;
	v2_unit(a, &v);
	af_profile_info(a->p, "entry blocks", "%zu", v.blocks);
	if (read_blocks(a, &v, true) < 0)
		return -1;
	af_profile_warn(a->p, v.exits_unmatched, "exits with an empty stack (this V2 revision gives exits no method: ignored)");
	art_finish(a);
	return 0;
}
