/* perfetto_heap.c: heapprofd's profile packets, by process and heap:
 * unreleased, allocated or freed bytes, or the counts. A dump's numbers for
 * a callstack are totals since profiling began, so each callstack weighs
 * what its last dump said (as Perfetto's trace processor counts them): a
 * scan walk finds each callstack's last sample, the fold walk draws only
 * those. */
#include "perfetto_int.h"
#include "core/names.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

const struct pf_heap_value pf_heap_values[] = {
	[AF_HEAP_NONE] = { "bytes", "unreleased bytes" },
	[AF_HEAP_UNRELEASED] = { "bytes", "unreleased bytes" },
	[AF_HEAP_ALLOCATED] = { "bytes", "allocated bytes" },
	[AF_HEAP_FREED] = { "bytes", "freed bytes" },
	[AF_HEAP_UNRELEASED_COUNT] = { "allocations", "unreleased allocations" },
	[AF_HEAP_ALLOCATED_COUNT] = { "allocations", "allocations" },
	[AF_HEAP_FREED_COUNT] = { "allocations", "freed allocations" },
};

/* The graph of heap `name` of process pid: process > heap, the heap drawn
 * as a thread of the process. Keyed by a keyed 64-bit hash of both: two
 * heaps share one only by a collision no file can aim for. */
static struct heap *heap_of(struct pf *f, int64_t pid, const uint8_t *name, size_t n)
{
	struct af_buf *b = &f->scratch;
	b->len = 0;
	af_buf_add(b, &pid, sizeof pid);
	af_buf_add(b, name, n);
	bool found;
	uint32_t *slot = af_idmap_slot(&f->heap_ids, af_hash_keyed_bytes(b->data, b->len), &found);
	if (found)
		return &f->heaps[*slot];
	*slot = (uint32_t)f->nheaps;
	b->len = 0;
	if (n)
		af_name_append(b, (const char *)name, n > 4096 ? 4096 : n);
	else
		af_buf_puts(b, "unknown");   /* as trace processor names it */
	af_name_finish(b, 0);
	struct af_tree *t = &f->p->tree;
	uint32_t pnode = pf_process_node(f, pid);
	uint32_t node = af_tree_add_child(t, pnode, af_tree_intern(t, b->data, b->len));
	uint64_t upid = (uint64_t)(pid > 0 ? pid : 0);
	size_t ti = af_profile_add_thread(f->p, upid, b->data, b->len);
	f->p->threads[ti].node = node;
	f->p->threads[ti].pid = upid;
	f->p->threads[ti].process_node = pnode;
	af_grow(&f->heaps, &f->cap_heaps, f->nheaps + 1, sizeof *f->heaps);
	f->heaps[f->nheaps] = (struct heap){ pid, node, ti };
	return &f->heaps[f->nheaps++];
}

struct heap_sample { uint64_t callstack, allocated, freed, max, max_count, allocs, frees; bool at_max; };

/* What a sample weighs under the chosen value. Without dump_at_max the
 * unreleased part is allocated - freed; a sample freeing more than it
 * allocated (a damaged dump) counts as 0. */
static uint64_t heap_weight(struct pf *f, const struct heap_sample *hs)
{
	uint64_t a = hs->allocated, fr = hs->freed;
	switch (f->o->heap) {
	case AF_HEAP_ALLOCATED: return hs->allocated;
	case AF_HEAP_FREED: return hs->freed;
	case AF_HEAP_ALLOCATED_COUNT: return hs->allocs;
	case AF_HEAP_FREED_COUNT: return hs->frees;
	case AF_HEAP_UNRELEASED_COUNT:
		if (hs->at_max)
			return hs->max_count;
		a = hs->allocs;
		fr = hs->frees;
		break;
	default:
		if (hs->at_max)
			return hs->max;
	}
	if (fr > a) {
		f->heap_inconsistent++;
		return 0;
	}
	return a - fr;
}

/* HeapSample: callstack_id 1, self_allocated 2, self_freed 3, alloc_count
 * 5, free_count 6, self_max 8, self_max_count 9. */
static int heap_sample(struct pf *f, const struct af_proto *dump, const struct af_proto_field *fl,
		       struct heap_sample *hs)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(dump, fl, &m);
	*hs = (struct heap_sample){ 0 };
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.wire != AF_WIRE_VARINT)
			continue;
		switch (x.num) {
		case 1: hs->callstack = x.u; break;
		case 2: hs->allocated = x.u; break;
		case 3: hs->freed = x.u; break;
		case 5: hs->allocs = x.u; break;
		case 6: hs->frees = x.u; break;
		case 8: hs->max = x.u; hs->at_max = true; break;
		case 9: hs->max_count = x.u; hs->at_max = true; break;
		}
	}
	return rc < 0 ? pf_fail(f, &m) : 0;
}

/* A sample of callstack iid in the heap whose key is hkey: the scan keeps
 * its weight as the callstack's latest; the fold draws it if it is the
 * last and weighs something. */
static void heap_stack(struct pf *f, const struct seq *s, uint64_t hkey, int64_t pid,
		       const uint8_t *name, size_t n, uint64_t iid, uint64_t w)
{
	uint64_t key[4] = { hkey, (uint64_t)(s - f->seqs), s->generation, iid };
	uint64_t ordinal = ++f->heap_ordinal;
	bool found;
	uint32_t *slot = af_idmap_slot(&f->hstack_ids, af_hash_keyed_bytes(key, sizeof key), &found);
	if (f->draw == DRAW_HEAP_SCAN) {
		if (!found) {
			*slot = (uint32_t)f->nhstacks;
			af_grow(&f->hstacks, &f->cap_hstacks, f->nhstacks + 1, sizeof *f->hstacks);
			f->nhstacks++;
		}
		f->hstacks[*slot] = (struct heap_stack){ ordinal, w };
		return;
	}
	if (!found || f->hstacks[*slot].last != ordinal || w == 0)
		return;
	f->heap_weight = f->heap_weight > UINT64_MAX - w ? UINT64_MAX : f->heap_weight + w;
	const struct heap *h = heap_of(f, pid, name, n);
	f->p->threads[h->thread].events++;   /* callstacks drawn */
	f->heap_drawn++;
	af_tree_add_self(&f->p->tree, pf_fold_callstack(f, s, h->node, iid), w);
}

/* ProcessHeapSamples: pid 1, samples 2, heap_name 11; the flags saying the
 * profile is incomplete (4 rejected, 6 disconnected, 7 buffer overran,
 * 8 buffer corrupted, 10 guardrail) are counted. */
static int heap_dump(struct pf *f, const struct seq *s, const struct af_proto *pkt,
		     const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	int64_t pid = 0;
	const uint8_t *name = NULL;
	size_t n = 0;
	bool lost = false;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			pid = (int32_t)x.u;
		else if (x.num == 11 && x.wire == AF_WIRE_LEN)
			name = x.data, n = x.len;
		else if (x.wire == AF_WIRE_VARINT && x.u && (x.num == 4 || (x.num >= 6 && x.num <= 8) || x.num == 10))
			lost = true;
	}
	if (rc < 0)
		return pf_fail(f, &m);
	f->heap_dumps++;
	f->heap_lost += lost;
	if (f->draw != DRAW_HEAP_SCAN && f->draw != DRAW_HEAP)
		return 0;
	struct af_buf *b = &f->scratch;   /* the heap's key */
	b->len = 0;
	af_buf_add(b, &pid, sizeof pid);
	af_buf_add(b, name, n);
	uint64_t hkey = af_hash_keyed_bytes(b->data, b->len);
	af_proto_sub(pkt, fl, &m);
	struct heap_sample hs;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num != 2 || x.wire != AF_WIRE_LEN)
			continue;
		if (heap_sample(f, &m, &x, &hs) < 0)
			return -1;
		f->heap_samples++;
		heap_stack(f, s, hkey, pid, name, n, hs.callstack, heap_weight(f, &hs));
	}
	return rc < 0 ? pf_fail(f, &m) : 0;
}

/* ProfilePacket: Android 10 carries its own strings (function names and
 * paths both), frames, callstacks and mappings, kept as the sequence's
 * interned data; later versions intern them in InternedData. */
int pf_profile_packet(struct pf *f, struct seq *s, const struct af_proto *pkt,
			  const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.wire != AF_WIRE_LEN)
			continue;
		if (x.num == PROF_STRINGS) {
			pf_intern(f, s, I_FUNCTION_NAME, &m, &x);
			pf_intern(f, s, I_MAPPING_PATH, &m, &x);
		} else if (x.num == PROF_FRAMES)
			pf_intern(f, s, I_FRAME, &m, &x);
		else if (x.num == PROF_CALLSTACKS)
			pf_intern(f, s, I_CALLSTACK, &m, &x);
		else if (x.num == PROF_MAPPINGS)
			pf_intern(f, s, I_MAPPING, &m, &x);
	}
	if (rc < 0)
		return pf_fail(f, &m);
	f->heap_packets++;
	af_proto_sub(pkt, fl, &m);
	while ((rc = af_proto_next(&m, &x)) > 0)
		if (x.num == PROF_DUMPS && x.wire == AF_WIRE_LEN && heap_dump(f, s, &m, &x) < 0)
			return -1;
	return rc < 0 ? pf_fail(f, &m) : 0;
}
