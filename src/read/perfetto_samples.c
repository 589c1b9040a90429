/* perfetto_samples.c: CPU samples (perf_sample, streaming_profile_packet):
 * each sample's interned callstack folded root first under its thread,
 * weighted by samples (timebase_count when set); frames named by their
 * function (demangled), else mapping+offset. At the end the sample graphs'
 * threads and processes take the names the trace gave them. */
#include "perfetto_int.h"
#include "demangle.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A mapping's file: the last of its path_string_ids (7, packed or not),
 * found at the mapping's first use and kept with it (struct span). */
static bool mapping_path(struct pf *f, const struct seq *s, struct span *mp, const uint8_t **str, size_t *n)
{
	if (mp->str_state == SPAN_UNREAD) {
		uint64_t before = f->unknown_iids;
		struct span *last = NULL;
		struct af_proto m;
		struct af_proto_field x;
		af_proto_init(&m, mp->p, mp->n, mp->off);
		while (af_proto_next(&m, &x) > 0)
			if (x.num == 7 && x.wire == AF_WIRE_VARINT)
				last = pf_lookup(f, s, I_MAPPING_PATH, x.u);
		mp->str_state = last && pf_span_name(last, &mp->str, n) ? SPAN_FOUND : SPAN_NONE;
		mp->strn = mp->str_state == SPAN_FOUND ? last->strn : 0;
		mp->misses = (uint32_t)(f->unknown_iids - before);
	} else {
		f->unknown_iids += mp->misses;
	}
	*str = mp->str;
	*n = mp->strn;
	return mp->str_state == SPAN_FOUND;
}

/* A frame as people read it: its function (demangled), else its mapping's
 * file name and the offset in it. */
static void make_frame_name(struct pf *f, const struct seq *s, struct span *fr, struct af_buf *b)
{
	const uint8_t *str;
	size_t n;
	struct span *fn = pf_lookup(f, s, I_FUNCTION_NAME, pf_span_varint(fr, 2));
	if (fn && pf_span_name(fn, &str, &n) && n) {
		f->scratch.len = 0;
		if (!af_demangle((const char *)str, n, &f->scratch))
			af_buf_add(&f->scratch, str, n);
		af_name_append(b, f->scratch.data, f->scratch.len);
		return;
	}
	struct span *mp = pf_lookup(f, s, I_MAPPING, pf_span_varint(fr, 3));
	if (mp && mapping_path(f, s, mp, &str, &n))
		af_name_append(b, (const char *)str, n);
	else
		af_buf_puts(b, "[unknown]");
	af_buf_printf(b, "+0x%" PRIx64, pf_span_varint(fr, 4));
}

/* The frame frame_iid's name in the tree, made at the frame's first use
 * and kept with it (struct span). */
static uint32_t frame_name(struct pf *f, const struct seq *s, uint64_t frame_iid)
{
	struct af_buf *b = &f->frame;
	b->len = 0;
	struct span *fr = pf_lookup(f, s, I_FRAME, frame_iid);
	if (fr && fr->name != AF_NONE) {
		f->unknown_iids += fr->misses;
		return fr->name;
	}
	uint64_t before = f->unknown_iids;
	if (fr)
		make_frame_name(f, s, fr, b);
	else
		af_buf_printf(b, "[frame %" PRIu64 "]", frame_iid);
	af_name_finish(b, 0);
	uint32_t name = af_tree_intern(&f->p->tree, b->data, b->len);
	if (fr) {
		fr->name = name;
		fr->misses = (uint32_t)(f->unknown_iids - before);
	}
	return name;
}

/* The graph node of process pid (named at the end), made on first use. */
uint32_t pf_process_node(struct pf *f, int64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->sproc_nodes, (uint64_t)pid, &found);
	if (!found) {
		struct af_tree *t = &f->p->tree;
		*slot = af_tree_add_child(t, AF_ROOT, af_tree_intern_str(t, ""));
		af_profile_add_process(f->p, (uint64_t)(pid > 0 ? pid : 0), "", 0, *slot);
	}
	return *slot;
}

/* The graph node of thread tid, made on its first sample; counts it. */
static uint32_t sample_thread(struct pf *f, uint64_t tid, int64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->sthread_ids, tid, &found);
	if (found) {
		f->p->threads[f->sthreads[*slot].index].events++;
		return f->sthreads[*slot].node;
	}
	struct af_tree *t = &f->p->tree;
	uint32_t empty = af_tree_intern_str(t, "");
	uint32_t pnode = pf_process_node(f, pid);
	af_grow(&f->sthreads, &f->cap_sthreads, f->nsthreads + 1, sizeof *f->sthreads);
	uint32_t node = af_tree_add_child(t, pnode, empty);
	size_t ti = af_profile_add_thread(f->p, tid, "", 0);
	f->sthreads[f->nsthreads] = (struct sample_thread){ tid, pid, node, ti };
	*af_idmap_slot(&f->sthread_ids, tid, &found) = (uint32_t)f->nsthreads++;
	f->p->threads[ti].events = 1;
	f->p->threads[ti].node = node;
	f->p->threads[ti].pid = (uint64_t)(pid > 0 ? pid : 0);
	f->p->threads[ti].process_node = pnode;
	return node;
}

/* The frames of callstack cs under node, root first: the leaf's node. */
static uint32_t walk_callstack(struct pf *f, const struct seq *s, uint32_t node, const struct span *cs)
{
	struct af_tree *t = &f->p->tree;
	struct af_proto m;
	struct af_proto_field x;
	af_proto_init(&m, cs->p, cs->n, cs->off);
	while (af_proto_next(&m, &x) > 0) {
		if (x.num == 2 && x.wire == AF_WIRE_VARINT) {
			node = af_tree_child(t, node, frame_name(f, s, x.u));
		} else if (x.num == 2 && x.wire == AF_WIRE_LEN) {   /* packed */
			struct af_cursor c = { x.data, x.len, 0 };
			uint64_t v;
			bool bad = false;
			while (af_proto_packed_next(&c, &v, &bad))
				node = af_tree_child(t, node, frame_name(f, s, v));
		}
	}
	return node;
}

/* The frames of callstack iid under node, root first: the leaf's node.
 * Each (node, callstack) is walked once and its leaf kept (pf.folds):
 * samples repeat callstacks, and a walk costs the callstack's depth
 * (issue 36: a 16k-frame callstack in 16k samples took 36 s). */
uint32_t pf_fold_callstack(struct pf *f, const struct seq *s, uint32_t node, uint64_t iid)
{
	struct af_tree *t = &f->p->tree;
	const struct span *cs = pf_lookup(f, s, I_CALLSTACK, iid);
	if (!cs) {
		f->no_callstack++;
		return af_tree_child(t, node, af_tree_intern_str(t, "[no callstack]"));
	}
	uint32_t key[2] = { node, (uint32_t)(cs - f->spans) };
	bool found;
	uint32_t *slot = af_idmap_slot(&f->fold_ids, af_hash_keyed_bytes(key, sizeof key), &found);
	if (found && f->folds[*slot].node == key[0] && f->folds[*slot].span == key[1]) {
		f->unknown_iids += f->folds[*slot].misses;
		return f->folds[*slot].leaf;
	}
	uint64_t before = f->unknown_iids;
	uint32_t leaf = walk_callstack(f, s, node, cs);
	if (!found) {   /* (a collision of keyed hashes: walked each time) */
		af_grow(&f->folds, &f->cap_folds, f->nfolds + 1, sizeof *f->folds);
		f->folds[f->nfolds] = (struct fold){ key[0], key[1], leaf, (uint32_t)(f->unknown_iids - before) };
		*slot = (uint32_t)f->nfolds++;
	}
	return leaf;
}

/* One sample of callstack iid on thread tid, weighing w. */
static void fold_sample(struct pf *f, const struct seq *s, uint64_t tid, int64_t pid, uint64_t iid,
			uint64_t w)
{
	f->cpu_samples++;
	f->sample_weight = f->sample_weight > UINT64_MAX - w ? UINT64_MAX : f->sample_weight + w;
	if (f->draw != DRAW_CPU)
		return;
	af_tree_add_self(&f->p->tree, pf_fold_callstack(f, s, sample_thread(f, tid, pid), iid), w);
}

/* PerfSample: pid 2, tid 3, callstack_iid 4, timebase_count 6. */
int pf_perf_sample(struct pf *f, const struct seq *s, const struct af_proto *pkt,
		       const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	uint64_t pid = 0, tid = 0, iid = 0, count = 0;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.wire != AF_WIRE_VARINT)
			continue;
		if (x.num == 2)
			pid = x.u;
		else if (x.num == 3)
			tid = x.u;
		else if (x.num == 4)
			iid = x.u;
		else if (x.num == 6)
			count = x.u;
	}
	if (rc < 0)
		return pf_fail(f, &m);
	if (iid)   /* a sample without a callstack is a skipped one, or a counter */
		fold_sample(f, s, tid, (int64_t)pid, iid, count ? count : 1);
	return 0;
}

/* StreamingProfilePacket: callstack_iid 1 (repeated, maybe packed), on the
 * sequence's thread. */
int pf_streaming_profile(struct pf *f, const struct seq *s, const struct af_proto *pkt,
			     const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	uint64_t tid = s->tid > 0 ? (uint64_t)s->tid : 0;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT) {
			fold_sample(f, s, tid, s->pid, x.u, 1);
		} else if (x.num == 1 && x.wire == AF_WIRE_LEN) {
			struct af_cursor c = { x.data, x.len, 0 };
			uint64_t v;
			bool bad = false;
			while (af_proto_packed_next(&c, &v, &bad))
				fold_sample(f, s, tid, s->pid, v, 1);
			if (bad)
				return af_diag_offset(f->d, x.offset, "malformed protobuf: packed callstack ids cut short");
		}
	}
	return rc < 0 ? pf_fail(f, &m) : 0;
}

/* Name the sample graphs' threads and processes from what the trace said;
 * a heap's graph is named after its heap already. */
void pf_name_samples(struct pf *f)
{
	struct af_tree *t = &f->p->tree;
	/* each name to its thread or process through an index, not a scan
	 * of them all (issue 36: names x threads) */
	struct af_idmap proc_at;   /* process node -> p->processes[] */
	af_idmap_init(&proc_at);
	for (size_t j = 0; j < f->p->nprocesses; j++)
		af_idmap_put(&proc_at, f->p->processes[j].node, (uint32_t)j);
	for (size_t i = 0; i < f->nnames; i++) {
		const struct name *n = &f->names[i];
		char **name = NULL;
		if (n->thread && f->draw == DRAW_CPU) {
			uint32_t k = af_idmap_get(&f->sthread_ids, n->id);
			name = k != AF_NONE ? &f->p->threads[f->sthreads[k].index].name : NULL;
		} else if (!n->thread) {
			uint32_t node = af_idmap_get(&f->sproc_nodes, n->id);
			uint32_t j = node != AF_NONE ? af_idmap_get(&proc_at, node) : AF_NONE;
			name = j != AF_NONE ? &f->p->processes[j].name : NULL;
		}
		if (name) {
			free(*name);
			*name = af_xstrndup((const char *)n->s, n->n);
		}
	}
	af_idmap_release(&proc_at);
	struct af_buf *b = &f->scratch;
	for (size_t j = 0; j < f->p->nthreads && f->draw == DRAW_CPU; j++) {
		struct af_thread *th = &f->p->threads[j];
		if (!th->name[0]) {
			b->len = 0;
			af_buf_printf(b, "thread-%" PRIu64, th->tid);
			free(th->name);
			th->name = af_xstrndup(b->data, b->len);
		}
		af_name_root(b, th->name, strlen(th->name), NULL, th->tid);
		af_tree_rename(t, th->node, af_tree_intern(t, b->data, b->len));
	}
	for (size_t j = 0; j < f->p->nprocesses; j++) {
		struct af_process *pr = &f->p->processes[j];
		af_name_root(b, pr->name, strlen(pr->name), "process", pr->pid);
		af_tree_rename(t, pr->node, af_tree_intern(t, b->data, b->len));
	}
}
