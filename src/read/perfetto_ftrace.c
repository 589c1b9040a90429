/* perfetto_ftrace.c: FtraceEventBundles, and the slice events and names
 * the reader gathers for the slice builder. Most of a large trace is ftrace
 * print events (atrace's trace marks): their fields are read in place
 * (proto.h's fast path) when they have the layout traced_probes writes,
 * else by the protobuf walker, which reports malformed bytes. A mark's text
 * is read once, as it is gathered: a "B|pid|name" keeps an index into the
 * names seen, a bare "E" is an end; any other text is kept for the
 * builder. Events are gathered per source (a sequence's CPU, or its track
 * events), each in time order, for perfetto_fold.c. */
#include "perfetto_int.h"
#include "core/names.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* The index of (tid, pid) in actors[], found or made (pf_add_event has
 * checked the last one). */
uint32_t pf_actor_of(struct pf *f, uint64_t tid, int64_t pid)
{
	uint64_t key[2] = { tid, (uint64_t)pid };
	bool found;
	uint32_t *slot = af_idmap_slot(&f->actor_ids, af_hash_keyed_bytes(key, sizeof key), &found);
	if (!found) {
		af_grow(&f->actors, &f->cap_actors, f->nactors + 1, sizeof *f->actors);
		f->actors[f->nactors] = (struct actor){ tid, pid };
		*slot = (uint32_t)f->nactors++;
	}
	return f->last_actor = *slot;
}

/* The events read next come from sequence s's ftrace CPU cpu (UINT32_MAX:
 * its track events). */
void pf_set_source(struct pf *f, const struct seq *s, uint32_t cpu)
{
	f->source_key = (uint64_t)(s - f->seqs) << 32 | cpu;
	f->source = AF_NONE;
}

/* The current source has come to time ts. */
void pf_source_at(struct pf *f, uint64_t ts)
{
	if (!f->stream)
		return;
	if (f->source == AF_NONE) {
		bool found;
		uint32_t *slot = af_idmap_slot(&f->source_ids, f->source_key, &found);
		if (!found) {
			af_grow(&f->sources, &f->cap_sources, f->nsources + 1, sizeof *f->sources);
			*slot = (uint32_t)f->nsources++;
		}
		f->source = *slot;
	}
	f->sources[f->source] = (struct source){ ts, f->flushes };
}

/* Slots of pf.mark_cache: a trace repeats a few thousand names millions
 * of times, and the keyed hash and probe of mark_ids cost more than the
 * rest of reading a mark. A slot is found by a cheap hash and checked by
 * comparing the name, so a collision (chosen by a hostile file or not)
 * only sends the name on to mark_ids. */
enum { MARK_CACHE_BITS = 12, MARK_CACHE = 1 << MARK_CACHE_BITS };

static inline size_t mark_slot(const char *s, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t h = (uint64_t)n * k, w;
	size_t i = 0;
	for (; n - i >= 8; i += 8) {
		memcpy(&w, s + i, 8);
		h = (h ^ w) * k;
	}
	if (n >= 8 && i < n) {   /* the last 8 bytes, overlapping */
		memcpy(&w, s + n - 8, 8);
		h = (h ^ w) * k;
	} else if (i < n) {
		for (w = 0; i < n; i++)
			w = w << 8 | (unsigned char)s[i];
		h = (h ^ w) * k;
	}
	return (size_t)(h >> (64 - MARK_CACHE_BITS));
}

/* The index in marks[] of a mark's name s[0..n), or AF_NONE when another
 * name has its hash. */
static uint32_t mark_name(struct pf *f, const char *s, size_t n)
{
	if (!f->mark_cache) {
		f->mark_cache = af_xmalloc(MARK_CACHE * sizeof *f->mark_cache);
		memset(f->mark_cache, 0xff, MARK_CACHE * sizeof *f->mark_cache);   /* AF_NONE */
	}
	uint32_t *c = &f->mark_cache[mark_slot(s, n)];
	if (*c != AF_NONE && f->marks[*c].n == n && memcmp(f->marks[*c].s, s, n) == 0)
		return *c;
	bool found;
	uint32_t *slot = af_idmap_slot(&f->mark_ids, af_hash_keyed_bytes(s, n), &found);
	if (found) {
		const struct mark_name *m = &f->marks[*slot];
		return m->n == n && memcmp(m->s, s, n) == 0 ? (*c = *slot) : AF_NONE;
	}
	af_grow(&f->marks, &f->cap_marks, f->nmarks + 1, sizeof *f->marks);
	f->marks[f->nmarks] = (struct mark_name){ pf_keep_bytes(f, (const uint8_t *)s, n), (uint32_t)n, AF_NONE };
	return *c = *slot = (uint32_t)f->nmarks++;
}

/* A print event: a trace mark of thread tid. Its text is read here, once:
 * a "B|pid|name" mark keeps its name's index in marks[] (a name seen
 * before costs a hash probe and no copy), a bare end is an end; any other
 * text is kept for the slice builder to read as atrace text. */
static void print_event(struct pf *f, uint64_t ts, uint64_t tid, const uint8_t *s, size_t n)
{
	if (f->draw != DRAW_SLICES)
		return;
	struct af_mark m;
	int kind = af_mark_parse((const char *)s, n, &m);
	uint32_t name;
	if (kind == 'E' && m.n == 0) {
		pf_add_event(f, EV_END, ts, tid, -1, NULL, 0);
	} else if (kind == 'B' && m.pid >= 0 && m.pid <= INT32_MAX && m.n <= AF_NAME_MAX &&
		   (name = mark_name(f, m.text, m.n)) != AF_NONE) {
		pf_add_event(f, EV_MARK_BEGIN, ts, tid, -1, NULL, 0)->u.mark.name = name;
		f->ev[f->nev - 1].u.mark.pid = (int32_t)m.pid;
	} else {
		pf_add_event(f, EV_PRINT, ts, tid, -1, s, n);
	}
}

/* A name for a thread or process, kept for the slice builder (made at the
 * first fold, with every name so far), or given to it at once when it is
 * there already (streaming). A name that moves a thread whose slices were
 * already folded under another process makes the reader start again
 * without streaming: a fold at the end knows every name first. */
void pf_add_name(struct pf *f, bool thread, uint64_t id, int64_t pid, const uint8_t *s, size_t n)
{
	af_grow(&f->names, &f->cap_names, f->nnames + 1, sizeof *f->names);
	uint32_t len = n > 4096 ? 4096 : (uint32_t)n;
	struct name *nm = &f->names[f->nnames++];
	*nm = (struct name){ id, pid, pf_keep_bytes(f, s, len), len, thread };
	if (!f->slices || f->draw != DRAW_SLICES)
		return;
	if (thread)
		f->broken |= af_slices_name_thread(f->slices, id, pid, (const char *)nm->s, len);
	else
		af_slices_name_process(f->slices, (int64_t)id, (const char *)nm->s, len);
}

/* field numbers (ftrace_event_bundle.proto, ftrace_event.proto, ftrace.proto) */
enum {
	BUNDLE_CPU = 1, BUNDLE_EVENT = 2,
	FEV_TIMESTAMP = 1, FEV_PID = 2, FEV_PRINT = 3,
	PRINT_IP = 1, PRINT_BUF = 2,
};

/* An FtraceEvent's fields that matter, as the walk below reads them. */
struct fev { uint64_t ts, tid; const uint8_t *buf; size_t n; };

/* The event's timestamp (1), pid (2) and print (3) text (its field 2),
 * the last of each as the walk keeps them; false when the bytes need the
 * walker (a tag of more than one byte, anything malformed). Most of a
 * large trace is these. */
static bool ftrace_event_fast(const uint8_t *p, const uint8_t *end, struct fev *e)
{
	/* First the layout traced_probes writes for a print: timestamp,
	 * pid, print { ip, buf }, each once, in that order (lengths of one
	 * byte: a mark of up to 127 bytes). */
	const uint8_t *r = p;
	if (r < end && *r++ == AF_PROTO_TAG(FEV_TIMESTAMP, AF_WIRE_VARINT) && af_proto_fast_varint(&r, end, &e->ts) &&
	    r < end && *r++ == AF_PROTO_TAG(FEV_PID, AF_WIRE_VARINT) && af_proto_fast_varint(&r, end, &e->tid) &&
	    r < end && *r++ == AF_PROTO_TAG(FEV_PRINT, AF_WIRE_LEN) && af_proto_len_to_end(&r, end) &&
	    r < end && *r++ == AF_PROTO_TAG(PRINT_IP, AF_WIRE_VARINT) && (r = af_proto_skip_value(r, end, AF_WIRE_VARINT)) &&
	    r < end && *r++ == AF_PROTO_TAG(PRINT_BUF, AF_WIRE_LEN) && af_proto_len_to_end(&r, end)) {
		e->buf = r;
		e->n = (size_t)(end - r);
		return true;
	}
	/* Any other order or fields: */
	*e = (struct fev){ 0 };
	while (p && p < end) {
		unsigned tag = *p++;
		if (tag >= 0x80 || tag < 8)
			return false;
		if (tag == AF_PROTO_TAG(FEV_TIMESTAMP, AF_WIRE_VARINT)) {
			p = af_proto_fast_varint(&p, end, &e->ts) ? p : NULL;
		} else if (tag == AF_PROTO_TAG(FEV_PID, AF_WIRE_VARINT)) {
			p = af_proto_fast_varint(&p, end, &e->tid) ? p : NULL;
		} else if (tag == AF_PROTO_TAG(FEV_PRINT, AF_WIRE_LEN)) {
			const uint8_t *q = NULL, *qend = af_proto_len_value(p, end, &q);
			if (!qend)
				return false;
			for (p = qend; q && q < qend;) {
				unsigned t = *q++;
				if (t >= 0x80 || t < 8)
					return false;
				if (t == AF_PROTO_TAG(PRINT_BUF, AF_WIRE_LEN)) {
					const uint8_t *d, *dend = af_proto_len_value(q, qend, &d);
					if (dend) {
						e->buf = d;
						e->n = (size_t)(dend - d);
					}
					q = dend;
				} else {
					q = af_proto_skip_value(q, qend, t & 7);
				}
			}
			if (!q)
				return false;
		} else {
			p = af_proto_skip_value(p, end, tag & 7);
		}
	}
	return p != NULL;
}

/* The same fields by the protobuf walker, which reports malformed bytes. */
static int ftrace_event_walk(struct pf *f, const struct af_proto *bundle, const struct af_proto_field *fl,
			     struct fev *e)
{
	struct af_proto m, pr;
	struct af_proto_field x, y;
	af_proto_sub(bundle, fl, &m);
	*e = (struct fev){ 0 };
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == FEV_TIMESTAMP && x.wire == AF_WIRE_VARINT)
			e->ts = x.u;
		else if (x.num == FEV_PID && x.wire == AF_WIRE_VARINT)
			e->tid = x.u;
		else if (x.num == FEV_PRINT && x.wire == AF_WIRE_LEN) {
			af_proto_sub(&m, &x, &pr);
			while ((rc = af_proto_next(&pr, &y)) > 0)
				if (y.num == PRINT_BUF && y.wire == AF_WIRE_LEN) {
					e->buf = y.data;
					e->n = y.len;
				}
			if (rc < 0)
				return pf_fail(f, &pr);
		}
	}
	return rc < 0 ? pf_fail(f, &m) : 0;
}

/* One FtraceEvent read: print events are trace marks; the rest are counted. */
static void take_event(struct pf *f, const struct fev *e)
{
	f->ftrace++;
	if (e->buf) {
		f->prints++;
		print_event(f, e->ts, e->tid, e->buf, e->n);
	} else {
		f->other_events++;
	}
}

/* The events at m's position that ftrace_event_fast reads, taken in place
 * without the walker's field records: true if there were any, *ts the last
 * one's time. The first one it cannot read is left for the walker. */
static bool fast_events(struct pf *f, struct af_proto *m, uint64_t *ts)
{
	const uint8_t *p = m->c.data + m->c.pos, *end = m->c.data + m->c.len, *start = p, *d, *dend;
	struct fev e;
	while (p < end && *p == AF_PROTO_TAG(BUNDLE_EVENT, AF_WIRE_LEN) && (dend = af_proto_len_value(p + 1, end, &d)) &&
	       ftrace_event_fast(d, dend, &e)) {
		take_event(f, &e);
		*ts = e.ts;
		p = dend;
	}
	m->c.pos = (size_t)(p - m->c.data);
	return p != start;
}

/* FtraceEventBundle: cpu 1, events 2 (one CPU's, in time order). */
int pf_ftrace_bundle(struct pf *f, const struct seq *s, const struct af_proto *pkt,
			 const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	pf_set_source(f, s, UINT32_MAX - 1);   /* until the bundle says its CPU */
	/* The source's time is what its latest event says when the walk
	 * next looks (after the packet): set once per run of its events. */
	uint64_t ts = 0;
	bool any = false;
	int rc;
	while (((any |= fast_events(f, &m, &ts)), rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == BUNDLE_CPU && x.wire == AF_WIRE_VARINT) {
			if (any)
				pf_source_at(f, ts);
			any = false;
			pf_set_source(f, s, x.u < UINT32_MAX - 1 ? (uint32_t)x.u : UINT32_MAX - 2);
		} else if (x.num == BUNDLE_EVENT && x.wire == AF_WIRE_LEN) {   /* one fast_events left */
			struct fev e;
			if (ftrace_event_walk(f, &m, &x, &e) < 0)
				return -1;
			take_event(f, &e);
			ts = e.ts;
			any = true;
		}
	}
	if (any)
		pf_source_at(f, ts);
	return rc < 0 ? pf_fail(f, &m) : 0;
}
