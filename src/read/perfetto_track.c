/* perfetto_track.c: track events (SLICE_BEGIN/END, legacy 'B'/'E') and
 * what places them: track descriptors, thread and process descriptors and
 * the process tree, whose names go to the slice builder. A track event
 * before its track's descriptor is held until the descriptor comes, as
 * trace_processor reads it; one never described draws on its sequence's
 * thread, with a warning. */
#include "perfetto_int.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* ThreadDescriptor / ProcessDescriptor: pid 1, tid 2, names 5 (thread) or
 * 6 (process_name), else the first cmdline (2). */
int pf_descriptor(struct pf *f, const struct af_proto *pkt, const struct af_proto_field *fl,
		      bool thread, int64_t *pid_out, int64_t *tid_out)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	int64_t pid = -1, tid = -1;
	const uint8_t *name = NULL, *cmd = NULL;
	size_t nn = 0, nc = 0;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			pid = (int32_t)x.u;
		else if (thread && x.num == 2 && x.wire == AF_WIRE_VARINT)
			tid = af_proto_int64(x.u);
		else if (x.wire == AF_WIRE_LEN && x.num == (thread ? 5u : 6u))
			name = x.data, nn = x.len;
		else if (!thread && x.num == 2 && x.wire == AF_WIRE_LEN && !cmd)
			cmd = x.data, nc = x.len;
	}
	if (rc < 0)
		return pf_fail(f, &m);
	if (!name && cmd) {
		name = cmd;
		nn = nc;
	}
	if (thread && tid > 0 && name)
		pf_add_name(f, true, (uint64_t)tid, pid, name, nn);
	if (!thread && pid > 0 && name)
		pf_add_name(f, false, (uint64_t)pid, pid, name, nn);
	if (pid_out)
		*pid_out = pid;
	if (tid_out)
		*tid_out = tid;
	return 0;
}

/* A track-event slice begun or ended on track t, or, on a track not
 * described, on its sequence's thread (pid, tid); a global track's are
 * not drawn (docs/semantics.md). */
static void track_slice(struct pf *f, const struct track *t, int64_t pid, int64_t tid, uint32_t kind,
			uint64_t ts, const uint8_t *s, size_t n)
{
	if (t && t->pid < 0 && t->tid < 0) {
		f->global_slices += kind == EV_BEGIN;
		return;
	}
	if (t) {
		pid = t->pid;
		tid = t->tid;
	}
	if (tid < 0 && pid >= 0)
		tid = pid;   /* a process-scoped track: drawn on the process's main thread */
	if (tid < 0) {
		f->other_events++;
		return;
	}
	f->track_slices += kind == EV_BEGIN;
	if (f->draw == DRAW_SLICES)
		pf_add_event(f, kind, ts, (uint64_t)tid, pid, s, n);
}

/* A slice event on the track uuid, not described yet: held (see struct
 * held). */
static void hold(struct pf *f, uint64_t uuid, uint32_t kind, uint64_t ts, const struct seq *s,
		 const uint8_t *name, size_t n)
{
	af_grow(&f->held, &f->cap_held, f->nheld + 1, sizeof *f->held);
	uint32_t i = (uint32_t)f->nheld++;
	f->held[i] = (struct held){ ts, pf_keep_bytes(f, name, n), n, kind, s->pid, s->tid, AF_NONE, i };
	f->held_events++;
	bool found;
	uint32_t *first = af_idmap_slot(&f->held_ids, uuid, &found);
	if (!found) {
		*first = i;
		return;
	}
	struct held *h = &f->held[*first];
	f->held[h->last].next = i;
	h->last = i;
}

/* The events held for track uuid, now that it is described as t (NULL:
 * never, at the end of the walk). */
static void release_held(struct pf *f, uint64_t uuid, const struct track *t)
{
	uint32_t i = af_idmap_get(&f->held_ids, uuid);
	if (i == AF_NONE)
		return;
	af_idmap_del(&f->held_ids, uuid);
	for (; i != AF_NONE; i = f->held[i].next) {
		struct held *h = &f->held[i];
		track_slice(f, t, h->pid, h->tid, h->kind, h->ts, h->s, h->n);
		h->kind = EV_PRINT;
	}
}

/* At the end of a walk: the events whose track was never described, in
 * file order. */
void pf_release_undescribed(struct pf *f)
{
	for (size_t i = 0; i < f->nheld; i++) {
		struct held *h = &f->held[i];
		if (h->kind == EV_PRINT)
			continue;
		f->undescribed++;
		track_slice(f, NULL, h->pid, h->tid, h->kind, h->ts, h->s, h->n);
		h->kind = EV_PRINT;
	}
	af_idmap_release(&f->held_ids);
}

/* TrackDescriptor: uuid 1, process 3, thread 4; slices on it go to that
 * thread (or, for a process track, to the process's pseudo-thread). */
int pf_track_descriptor(struct pf *f, const struct af_proto *pkt, const struct af_proto_field *fl)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_sub(pkt, fl, &m);
	uint64_t uuid = 0, parent = 0;
	struct track t = { -1, -1 };
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			uuid = x.u;
		else if (x.num == 5 && x.wire == AF_WIRE_VARINT)
			parent = x.u;
		else if (x.num == 3 && x.wire == AF_WIRE_LEN && pf_descriptor(f, &m, &x, false, &t.pid, NULL) < 0)
			return -1;
		else if (x.num == 4 && x.wire == AF_WIRE_LEN && pf_descriptor(f, &m, &x, true, &t.pid, &t.tid) < 0)
			return -1;
	}
	if (rc < 0)
		return pf_fail(f, &m);
	uint32_t pi = parent && t.pid < 0 && t.tid < 0 ? af_idmap_get(&f->track_ids, parent) : AF_NONE;
	if (pi != AF_NONE)   /* a child track (async, named) of a process: its process */
		t.pid = f->tracks[pi].pid;
	bool found;
	uint32_t *slot = af_idmap_slot(&f->track_ids, uuid, &found);
	if (!found) {
		af_grow(&f->tracks, &f->cap_tracks, f->ntracks + 1, sizeof *f->tracks);
		*slot = (uint32_t)f->ntracks++;
	}
	f->tracks[*slot] = t;
	release_held(f, uuid, &t);
	return 0;
}

/* TrackEvent: type 9, name_iid 10 / name 23, track_uuid 11, legacy_event 6
 * (phase 2: 'B', 'E'). */
int pf_track_event(struct pf *f, struct seq *s, uint64_t ts, const struct af_proto *pkt,
		       const struct af_proto_field *fl)
{
	struct af_proto m, lg;
	struct af_proto_field x, y;
	af_proto_sub(pkt, fl, &m);
	uint64_t type = 0, name_iid = 0, track = s->default_track;
	const uint8_t *name = NULL;
	size_t n = 0;
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == 9 && x.wire == AF_WIRE_VARINT)
			type = x.u;
		else if (x.num == 10 && x.wire == AF_WIRE_VARINT)
			name_iid = x.u;
		else if (x.num == 23 && x.wire == AF_WIRE_LEN)
			name = x.data, n = x.len;
		else if (x.num == 11 && x.wire == AF_WIRE_VARINT && x.u)
			track = x.u;
		else if (x.num == 6 && x.wire == AF_WIRE_LEN) {
			af_proto_sub(&m, &x, &lg);
			while ((rc = af_proto_next(&lg, &y)) > 0)
				if (y.num == 2 && y.wire == AF_WIRE_VARINT)
					type = y.u == 'B' ? 1 : y.u == 'E' ? 2 : type;
			if (rc < 0)
				return pf_fail(f, &lg);
		}
	}
	if (rc < 0)
		return pf_fail(f, &m);
	pf_set_source(f, s, UINT32_MAX);
	pf_source_at(f, ts);
	if (type != 1 && type != 2) {
		f->other_events++;
		return 0;
	}
	if (!name && name_iid) {
		struct span *e = pf_lookup(f, s, I_EVENT_NAME, name_iid);
		if (e)
			pf_span_name(e, &name, &n);
	}
	uint32_t kind = type == 1 ? EV_BEGIN : EV_END;
	uint32_t ti = track ? af_idmap_get(&f->track_ids, track) : AF_NONE;
	if (track && ti == AF_NONE)
		hold(f, track, kind, ts, s, name ? name : (const uint8_t *)"", n);
	else
		track_slice(f, ti != AF_NONE ? &f->tracks[ti] : NULL, s->pid, s->tid, kind, ts, name, n);
	return 0;
}

/* ProcessTree: processes 1 (pid 1, cmdline 3), threads 2 (tid 1, name 2,
 * tgid 3). */
int pf_process_tree(struct pf *f, const struct af_proto *pkt, const struct af_proto_field *fl)
{
	struct af_proto m, e;
	struct af_proto_field x, y;
	af_proto_sub(pkt, fl, &m);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.wire != AF_WIRE_LEN || (x.num != 1 && x.num != 2))
			continue;
		af_proto_sub(&m, &x, &e);
		int64_t id = -1, tgid = -1;
		const uint8_t *name = NULL;
		size_t n = 0;
		while ((rc = af_proto_next(&e, &y)) > 0) {
			if (y.num == 1 && y.wire == AF_WIRE_VARINT)
				id = (int32_t)y.u;
			else if (x.num == 2 && y.num == 3 && y.wire == AF_WIRE_VARINT)
				tgid = (int32_t)y.u;
			else if (y.wire == AF_WIRE_LEN && y.num == (x.num == 1 ? 3u : 2u) && !name)
				name = y.data, n = y.len;
		}
		if (rc < 0)
			return pf_fail(f, &e);
		if (id > 0 && name)
			pf_add_name(f, x.num == 2, (uint64_t)id, x.num == 2 ? tgid : id, name, n);
	}
	return rc < 0 ? pf_fail(f, &m) : 0;
}
