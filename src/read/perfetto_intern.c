/* perfetto_intern.c: a Perfetto trace's packet sequences and their
 * interned data (names, frames, callstacks, mappings). An entry is kept as
 * the bytes of its message, under its iid, until its sequence clears its
 * incremental state; it is read when used, so an entry may name one that
 * comes later in the same InternedData. Bytes read through a window are
 * copied to blocks that never move (pf_keep_bytes). */
#include "perfetto_int.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

int pf_fail(struct pf *f, const struct af_proto *m)
{
	return af_diag_offset(f->d, m->error_offset, "malformed protobuf: %s", m->error);
}

struct seq *pf_seq_of(struct pf *f, uint64_t id)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->seq_ids, id, &found);
	if (!found) {
		af_grow(&f->seqs, &f->cap_seqs, f->nseqs + 1, sizeof *f->seqs);
		struct seq *s = &f->seqs[f->nseqs];
		memset(s, 0, sizeof *s);
		s->pid = s->tid = -1;
		*slot = (uint32_t)f->nseqs++;
		f->sequences++;
	}
	return &f->seqs[*slot];
}

void pf_clear_seq(struct pf *f, struct seq *s)
{
	s->generation++;
	for (int k = 0; k < I_KINDS; k++)
		af_idmap_release(&s->interned[k]);
	f->cleared++;
}

/* Bytes that last as long as the reader: s itself, or when it is in a
 * window's buffer, a copy. */
const uint8_t *pf_keep_bytes(struct pf *f, const uint8_t *s, size_t n)
{
	if (!f->copy)
		return s;
	struct kept *k = f->kept;
	if (!k || k->cap - k->used < n) {
		size_t cap = n > 65536 ? n : 65536;
		k = af_xmalloc(sizeof *k + cap);
		*k = (struct kept){ .next = f->kept, .cap = cap };
		f->kept = k;
	}
	uint8_t *at = k->data + k->used;
	if (n)
		memcpy(at, s, n);
	k->used += n;
	return at;
}

/* Keep an interned entry (its message bytes) under iid. */
void pf_intern(struct pf *f, struct seq *s, enum intern kind, const struct af_proto *m,
		   const struct af_proto_field *fl)
{
	struct af_proto e;
	struct af_proto_field x;
	af_proto_sub(m, fl, &e);
	uint64_t iid = 0;
	while (af_proto_next(&e, &x) > 0)
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			iid = x.u;
	af_grow(&f->spans, &f->cap_spans, f->nspans + 1, sizeof *f->spans);
	f->spans[f->nspans] = (struct span){ pf_keep_bytes(f, fl->data, fl->len), fl->len, e.base, .name = AF_NONE };
	af_idmap_put(&s->interned[kind], iid, (uint32_t)f->nspans++);
}

int pf_interned_data(struct pf *f, struct seq *s, const struct af_proto *pkt,
			 const struct af_proto_field *fl)
{
	static const struct { uint32_t field; enum intern kind; } kinds[] = {
		{ ID_EVENT_NAMES, I_EVENT_NAME }, { ID_FUNCTION_NAMES, I_FUNCTION_NAME },
		{ ID_FRAMES, I_FRAME }, { ID_CALLSTACKS, I_CALLSTACK },
		{ ID_MAPPING_PATHS, I_MAPPING_PATH }, { ID_MAPPINGS, I_MAPPING },
	};
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0)
		for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
			if (x.num == kinds[i].field && x.wire == AF_WIRE_LEN)
				pf_intern(f, s, kinds[i].kind, &m, &x);
	return rc < 0 ? pf_fail(f, &m) : 0;
}

/* The entry iid of a kind, or NULL. */
struct span *pf_lookup(struct pf *f, const struct seq *s, enum intern kind, uint64_t iid)
{
	if (iid == 0)   /* not set */
		return NULL;
	uint32_t i = af_idmap_get(&s->interned[kind], iid);
	if (i == AF_NONE) {
		f->unknown_iids++;
		return NULL;
	}
	return &f->spans[i];
}

/* An interned message's name (its field 2, the first of them), read at
 * its first use and kept (struct span). */
bool pf_span_name(struct span *e, const uint8_t **str, size_t *n)
{
	if (e->str_state == SPAN_UNREAD) {
		struct af_proto m;
		struct af_proto_field x;
		af_proto_init(&m, e->p, e->n, e->off);
		e->str_state = SPAN_NONE;
		while (e->str_state == SPAN_NONE && af_proto_next(&m, &x) > 0) {
			if (x.num == 2 && x.wire == AF_WIRE_LEN) {
				e->str = x.data;
				e->strn = x.len > UINT32_MAX ? UINT32_MAX : (uint32_t)x.len;
				e->str_state = SPAN_FOUND;
			}
		}
	}
	*str = e->str;
	*n = e->strn;
	return e->str_state == SPAN_FOUND;
}

uint64_t pf_span_varint(const struct span *e, uint32_t num)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_init(&m, e->p, e->n, e->off);
	uint64_t v = 0;
	while (af_proto_next(&m, &x) > 0)
		if (x.num == num && x.wire == AF_WIRE_VARINT)
			v = x.u;
	return v;
}
