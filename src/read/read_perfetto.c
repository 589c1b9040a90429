/* read_perfetto.c: Perfetto traces (protobuf), as Android 10+ writes them
 * (Android Studio's System Trace, adb shell perfetto, Traceur). A trace is a
 * sequence of TracePacket messages (field 1); reference: the protos in
 * google/perfetto protos/perfetto/trace/ and docs/perfetto.md.
 *
 * Three kinds of graph come out of one pass over the packets:
 *   slices       ftrace print events (the atrace B|pid|name marks) and
 *                track_event SLICE_BEGIN/END, folded by the slice
 *                builder (slices.h) into process > thread > slice trees;
 *   CPU samples  perf_sample and streaming_profile_packet callstacks, by
 *                thread, weighted by samples (timebase_count when set);
 *   heap         heapprofd's profile_packet dumps, by process and heap:
 *                unreleased, allocated or freed bytes, or the counts. A
 *                dump's numbers for a callstack are totals since profiling
 *                began, so each callstack weighs what its last dump said
 *                (as Perfetto's trace processor counts them).
 * Slices are the default when the trace has them, else samples, else heap.
 *
 * Interned data (names, frames, callstacks, mappings) belongs to a packet
 * sequence and is dropped when the sequence clears its incremental state;
 * entries are kept as the bytes of their message and resolved at their
 * first use, so an entry may name one that comes later in the same
 * InternedData; what it resolved to is kept with it (a frame's name, a
 * name's string, a mapping's file) and each (thread, callstack) is walked
 * once, so reading stays linear however often entries are used.
 *
 * Slice events must reach the slice builder in time order (equal times in
 * file order), but ftrace bundles are per CPU and overlap in time. They are
 * folded while the packets are read: each source (a sequence's CPU, or a
 * sequence's track events) comes in time order, so once every source has
 * passed a time (the watermark) no event before it can follow, and the
 * events up to it are folded; memory follows the open slices and the
 * tree, not the trace. A streaming walk reads a large file a window at a
 * time (af_window), so a print event's mark is read as it is gathered (a
 * B|pid|name keeps an index into the names seen, a bare E is an end) and
 * any other text kept is copied. Names reach the slice builder as they
 * come; only a thread's process must be known at its first slice. An
 * event earlier than one already folded (a source that starts late, a
 * bundle far out of order), a name that moves a thread already folded to
 * another process, or compressed packets make the reader gather every
 * event and fold them at the end instead, as if it had never streamed:
 * the builder sees the same calls either way.
 * Every length is checked by the protobuf walker. */

#include "perfetto_int.h"
#include "inflate.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int packets(struct pf *f, const uint8_t *data, size_t len, uint64_t base, int depth);

/* A group that did not inflate. Past a limit, the message names the group
 * and the documented limit that stopped it (docs/semantics.md: 64 times
 * the compressed size plus 64 MiB, for the group and for all groups of the
 * file together, or --max-input-size), not what was left of the file's
 * after the groups before it; else zlib's own message. */
static int inflate_error(struct pf *f, const struct af_proto_field *fl, uint64_t group_limit,
			 size_t got, const struct af_diag *zd)
{
	uint64_t file_limit = af_inflate_limit(f->in->len, f->o->max_input);
	if (got < group_limit && got < f->inflate_left)
		return af_diag_error(f->d, "%s", zd->msg);
	bool group = group_limit <= f->inflate_left;
	uint64_t limit = group ? group_limit : file_limit;
	const char *why = f->o->max_input && limit == f->o->max_input ? "--max-input-size"
			: limit == AF_INFLATE_MAX ? "the most any input may inflate to"
			: group ? "64 times this group's compressed size + 64 MiB"
			: "64 times the file's size + 64 MiB, for all its compressed groups together";
	return af_diag_offset(f->d, fl->offset, "compressed packets: decompressed data exceeds "
			      "%" PRIu64 " bytes (%s; zlib bomb?)", limit, why);
}

/* compressed_packets: a zlib stream of more packets (bounded like atrace). */
static int compressed(struct pf *f, const struct af_proto_field *fl, int depth)
{
	if (depth > 0)
		return af_diag_offset(f->d, fl->offset, "compressed packets inside compressed packets");
	af_grow(&f->inflated, &f->cap_inflated, f->ninflated + 1, sizeof *f->inflated);
	struct af_buf *b = &f->inflated[f->ninflated++];
	af_buf_init(b);
	size_t used;
	uint64_t limit = af_inflate_limit(fl->len, f->o->max_input);
	struct af_diag zd;
	af_diag_init(&zd, NULL);
	if (af_inflate(fl->data, fl->len, limit < f->inflate_left ? limit : f->inflate_left, b,
		       &used, &zd) < 0)
		return inflate_error(f, fl, limit, b->len, &zd);
	f->inflate_left -= b->len;
	f->compressed++;
	/* offsets inside are offsets in the inflated data: say so by the packet */
	return packets(f, (const uint8_t *)b->data, b->len, fl->offset, depth + 1);
}

struct packet {
	uint64_t ts, seq_id;
	bool has_seq, cleared;
	struct af_proto_field interned, payload[8];
	size_t npayload;
};

static int packet(struct pf *f, const struct af_proto *outer, const struct af_proto_field *fl, int depth)
{
	struct af_proto m;
	struct af_proto_field x;
	struct packet pk = { 0 };
	af_proto_sub(outer, fl, &m);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		switch (x.num) {
		case PKT_TIMESTAMP: pk.ts = x.u; break;
		case PKT_SEQ_ID: pk.seq_id = x.u; pk.has_seq = true; break;
		case PKT_SEQ_FLAGS: pk.cleared |= (x.u & SEQ_CLEARED) != 0; break;
		case PKT_CLEARED: pk.cleared |= x.u != 0; break;
		case PKT_DROPPED: f->dropped += x.u != 0; break;
		case PKT_INTERNED: pk.interned = x; break;
		case PKT_COMPRESSED:
			if (f->stream)   /* inflated groups stay until the end: no streaming */
				f->broken = true;
			else if (compressed(f, &x, depth) < 0)
				return -1;
			break;
		case PKT_ZSTD: f->zstd++; break;
		default:
			if (x.wire == AF_WIRE_LEN && pk.npayload < 8)
				pk.payload[pk.npayload++] = x;
		}
	}
	if (rc < 0)
		return pf_fail(f, &m);
	f->packets++;
	struct seq *s = pf_seq_of(f, pk.has_seq ? pk.seq_id : 0);
	if (pk.cleared)
		pf_clear_seq(f, s);
	if (pk.interned.data && pf_interned_data(f, s, &m, &pk.interned) < 0)
		return -1;
	for (size_t i = 0; i < pk.npayload; i++) {
		const struct af_proto_field *p = &pk.payload[i];
		switch (p->num) {
		case PKT_FTRACE: rc = pf_ftrace_bundle(f, s, &m, p); break;
		case PKT_PROCESS_TREE: rc = pf_process_tree(f, &m, p); break;
		case PKT_TRACK_EVENT: rc = pf_track_event(f, s, pk.ts, &m, p); break;
		case PKT_TRACK_DESC: rc = pf_track_descriptor(f, &m, p); break;
		case PKT_PROCESS_DESC: rc = pf_descriptor(f, &m, p, false, NULL, NULL); break;
		case PKT_THREAD_DESC: rc = pf_descriptor(f, &m, p, true, &s->pid, &s->tid); break;
		case PKT_PERF_SAMPLE: rc = pf_perf_sample(f, s, &m, p); break;
		case PKT_STREAMING_PROFILE: rc = pf_streaming_profile(f, s, &m, p); break;
		case PKT_PROFILE: rc = pf_profile_packet(f, s, &m, p); break;
		case PKT_DEFAULTS: {
			struct af_proto d, te;
			struct af_proto_field y, z;
			af_proto_sub(&m, p, &d);
			while ((rc = af_proto_next(&d, &y)) > 0)
				if (y.num == 11 && y.wire == AF_WIRE_LEN) {
					af_proto_sub(&d, &y, &te);
					while (af_proto_next(&te, &z) > 0)
						if (z.num == 11 && z.wire == AF_WIRE_VARINT)
							s->default_track = z.u;
				}
			rc = rc < 0 ? pf_fail(f, &d) : 0;
			break;
		}
		default: rc = 0;
		}
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* The end of the top-level walk m, whose last af_proto_next returned rc: a
 * file cut inside a packet is read up to it. */
static int packets_end(struct pf *f, struct af_proto *m, int rc)
{
	if (rc < 0 && m->error && strcmp(m->error, "length runs past the end of its message") == 0) {
		af_profile_note(f->p, "the file ends inside a packet at offset 0x%" PRIx64 ": the packets before it are used",
				m->error_offset);
		return 0;
	}
	return rc < 0 ? pf_fail(f, m) : 0;
}

static int packets(struct pf *f, const uint8_t *data, size_t len, uint64_t base, int depth)
{
	struct af_proto m;
	struct af_proto_field x;
	af_proto_init(&m, data, len, depth ? base : 0);
	int rc;
	while ((rc = af_proto_next(&m, &x)) > 0) {
		if (x.num == TRACE_PACKET && x.wire == AF_WIRE_LEN && packet(f, &m, &x, depth) < 0)
			return -1;
		if (!depth && pf_stream_step(f, (size_t)x.offset) < 0)
			return 0;   /* out of order: read_perfetto starts again */
	}
	return depth ? (rc < 0 ? pf_fail(f, &m) : 0) : packets_end(f, &m, rc);
}

/* Room for a top-level field's tag and length (varints of at most 10
 * bytes each): with this much in the window, a field that does not parse
 * is malformed, not cut by the window's end. */
enum { HEADER_MAX = 20 };

/* Whether w's bytes end where the input does. */
static bool window_at_end(const struct af_window *w)
{
	return w->at + w->len >= w->in->len;
}

/* A top-level field of the whole input at file offset at (a packet larger
 * than half the window, already found well-formed), read where the input
 * is mapped; x is its field. */
static int big_packet(struct pf *f, const struct af_input *in, uint64_t at, struct af_proto_field *x,
		      uint64_t *end)
{
	struct af_proto m;
	af_proto_init(&m, in->data, in->len, 0);
	m.c.pos = (size_t)at;
	if (af_proto_next(&m, x) <= 0)
		return pf_fail(f, &m);   /* (cannot be: the window read its header) */
	*end = m.c.pos;
	return x->num == TRACE_PACKET && x->wire == AF_WIRE_LEN ? packet(f, &m, x, 0) : 0;
}

/* packets() for the top level of a whole input, a window at a time: each
 * packet is read in the window when it fits in half of it, else where the
 * input is mapped (big_packet), with the offsets, messages and end of a
 * walk over the whole input. */
static int windowed_packets(struct pf *f, const struct af_input *in)
{
	struct af_window w;
	af_window_init(&w, in);
	f->copy = w.buffered;   /* (a small or unmapped input is one window) */
	size_t pos = 0;
	int rc = 0;
	for (;;) {
		if (w.len - pos < HEADER_MAX && !window_at_end(&w)) {
			if ((rc = af_window_more(&w, pos, f->d)) < 0)
				break;
			pos = 0;
		}
		struct af_proto m;
		struct af_proto_field x;
		af_proto_init(&m, w.data, w.len, w.at);
		m.c.pos = pos;
		rc = af_proto_next(&m, &x);
		uint64_t next = w.at + m.c.pos;
		if (rc < 0 && !window_at_end(&w) && strcmp(m.error, "length runs past the end of its message") == 0) {
			if (w.len - pos <= w.cap / 2) {   /* the rest of it, then again */
				rc = af_window_more(&w, pos, f->d);
				pos = 0;
				if (rc < 0)
					break;
				continue;
			}
			if (big_packet(f, in, w.at + pos, &x, &next) < 0 || af_window_seek(&w, next, f->d) < 0) {
				rc = -1;
				break;
			}
			pos = 0;
		} else if (rc <= 0) {
			rc = packets_end(f, &m, rc);
			break;
		} else {
			if (x.num == TRACE_PACKET && x.wire == AF_WIRE_LEN && packet(f, &m, &x, 0) < 0) {
				rc = -1;
				break;
			}
			pos = m.c.pos;
		}
		if (pf_stream_step(f, (size_t)x.offset) < 0) {
			rc = 0;   /* out of order: read_perfetto starts again */
			break;
		}
	}
	af_window_release(&w);
	return rc;
}

static void info(struct pf *f)
{
	static const char *const drawn[] = { "slices", "CPU samples", "heap profiles", "heap profiles" };
	struct af_profile *p = f->p;
	af_profile_info(p, "packets", "%" PRIu64 " (%" PRIu64 " compressed groups)", f->packets, f->compressed);
	af_profile_info(p, "sequences", "%" PRIu64 " (incremental state cleared %" PRIu64 " times)", f->sequences, f->cleared);
	af_profile_info(p, "ftrace events", "%" PRIu64 " (%" PRIu64 " prints)", f->ftrace, f->prints);
	af_profile_info(p, "track-event slices", "%" PRIu64, f->track_slices);
	if (f->held_events)
		af_profile_info(p, "track events before their track's descriptor", "%" PRIu64 " (held until it came)",
				f->held_events - f->undescribed);
	if (f->global_slices)
		af_profile_info(p, "track-event slices on global tracks", "%" PRIu64 " (not drawn: no thread)", f->global_slices);
	af_profile_info(p, "cpu samples", "%" PRIu64 " (weight %" PRIu64 ")", f->cpu_samples, f->sample_weight);
	af_profile_info(p, "heap profiles", "%" PRIu64 " packets, %" PRIu64 " process dumps, %zu heaps",
			f->heap_packets, f->heap_dumps, f->nheaps);
	if (f->draw == DRAW_HEAP)
		af_profile_info(p, "heap callstacks drawn", "%" PRIu64 " of %zu (each as its last dump said; %" PRIu64 " %s)",
				f->heap_drawn, f->nhstacks, f->heap_weight, pf_heap_values[f->o->heap].measure);
	af_profile_info(p, "drawn", "%s", drawn[f->draw]);
	af_profile_warn(p, f->dropped, "packets after which the tracing service dropped data");
	af_profile_warn(p, f->zstd, "zstd-compressed packet groups skipped (not supported)");
	af_profile_warn(p, f->unknown_iids, "references to interned data that the sequence does not hold");
	af_profile_warn(p, f->undescribed, "track events on a track the trace never describes (drawn on their sequence's thread, if it has one)");
	af_profile_warn(p, f->no_callstack, "samples whose callstack is not interned (drawn as [no callstack])");
	af_profile_warn(p, f->heap_lost, "heap dumps of a process that heapprofd profiled only in part (rejected, disconnected, overran or corrupted buffer, guardrail)");
	af_profile_warn(p, f->heap_inconsistent, "heap samples that freed more than they allocated (counted as 0 unreleased)");
}

static void pf_release(struct pf *f)
{
	for (size_t i = 0; i < f->nseqs; i++)
		for (int k = 0; k < I_KINDS; k++)
			af_idmap_release(&f->seqs[i].interned[k]);
	free(f->seqs);
	af_idmap_release(&f->seq_ids);
	free(f->spans);
	free(f->folds);
	af_idmap_release(&f->fold_ids);
	free(f->tracks);
	af_idmap_release(&f->track_ids);
	free(f->held);
	af_idmap_release(&f->held_ids);
	free(f->ev);
	free(f->order);
	af_slices_free(f->slices);
	free(f->sources);
	af_idmap_release(&f->source_ids);
	free(f->actors);
	af_idmap_release(&f->actor_ids);
	free(f->marks);
	af_idmap_release(&f->mark_ids);
	free(f->mark_cache);
	free(f->names);
	free(f->sthreads);
	af_idmap_release(&f->sthread_ids);
	af_idmap_release(&f->sproc_nodes);
	free(f->heaps);
	af_idmap_release(&f->heap_ids);
	free(f->hstacks);
	af_idmap_release(&f->hstack_ids);
	for (size_t i = 0; i < f->ninflated; i++)
		af_buf_release(&f->inflated[i]);
	free(f->inflated);
	af_buf_release(&f->scratch);
	af_buf_release(&f->frame);
	af_buf_release(&f->texts);
	af_buf_release(&f->texts_next);
	for (struct kept *k = f->kept, *next; k; k = next) {
		next = k->next;
		free(k);
	}
}

/* One walk over the packets, folding what `draw` says (slice events are
 * gathered in a slice walk and folded as they stream, or at the end). A
 * heap scan's findings stay for the fold that follows it. */
static int walk(struct pf *f, const struct af_input *in, enum draw draw, bool stream)
{
	struct pf keep = *f;
	f->hstacks = NULL;
	af_idmap_init(&f->hstack_ids);
	f->names = NULL;
	f->kept = NULL;
	pf_release(f);
	/* every group together is bounded as one compressed file would be */
	*f = (struct pf){ .p = keep.p, .o = keep.o, .d = keep.d, .draw = draw, .stream = stream,
			  .in = in, .flush_at = STREAM_FOLD_MIN,
			  .inflate_left = af_inflate_limit(in->len, keep.o->max_input) };
	f->kept = keep.kept;   /* the heap scan's may be there */
	free(keep.names);   /* every walk reads the names again */
	if (draw == DRAW_HEAP) {
		f->hstacks = keep.hstacks;
		f->nhstacks = keep.nhstacks;
		f->cap_hstacks = keep.cap_hstacks;
		f->hstack_ids = keep.hstack_ids;
	} else {
		free(keep.hstacks);
		af_idmap_release(&keep.hstack_ids);
	}
	int rc = stream ? windowed_packets(f, in) : packets(f, in->data, in->len, 0, 0);
	if (rc == 0)
		pf_release_undescribed(f);
	return rc;
}

/* Slices when the trace has them, else CPU samples, else heap profiles;
 * --cpu-samples or --heap choose. The profile arrives empty (af_read). */
static int read_perfetto(struct af_profile *p, const struct af_input *in,
			 const struct af_read_opts *o, struct af_diag *d)
{
	struct pf f = { .p = p, .o = o, .d = d };
	enum draw first = o->heap != AF_HEAP_NONE ? DRAW_HEAP_SCAN : o->cpu_samples ? DRAW_CPU : DRAW_SLICES;
	int rc = walk(&f, in, first, first == DRAW_SLICES);
	if (rc == 0 && f.broken) {   /* too late to stream: gather them all */
		af_profile_release(p);
		af_profile_init(p);
		rc = walk(&f, in, DRAW_SLICES, false);
	}
	if (rc == 0 && first == DRAW_SLICES && f.events == 0 && f.cpu_samples)
		rc = walk(&f, in, DRAW_CPU, false);
	else if (rc == 0 && first == DRAW_SLICES && f.events == 0 && f.heap_dumps)
		rc = walk(&f, in, DRAW_HEAP_SCAN, false);
	if (rc == 0 && f.draw == DRAW_HEAP_SCAN)
		rc = walk(&f, in, DRAW_HEAP, false);
	if (rc == 0 && f.draw == DRAW_SLICES) {
		info(&f);
		rc = pf_fold_slices(&f);
	} else if (rc == 0) {
		pf_name_samples(&f);
		p->unit = f.draw == DRAW_CPU ? "samples" : pf_heap_values[o->heap].unit;
		p->measure = f.draw == DRAW_CPU ? "CPU samples" : pf_heap_values[o->heap].measure;
		p->clock = NULL;
		info(&f);
		if (f.draw == DRAW_HEAP && f.heap_weight == 0 && !o->info_only)
			rc = af_diag_error(d, "nothing to draw: the heap profiles hold no %s at their last dumps",
					   p->measure);
	}
	pf_release(&f);
	return rc;
}

/* A protobuf Trace is repeated field 1 (TracePacket): byte 0x0A, a varint
 * length, the packet; the next packet starts with 0x0A again. */
static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	struct af_cursor c = { data, len, 0 };
	uint8_t tag;
	uint64_t n;
	for (int packets = 0; packets < 4; packets++) {
		if (af_cursor_left(&c) == 0)
			return packets > 0 ? AF_SNIFF_YES : AF_SNIFF_NO;
		if (!af_cursor_u8(&c, &tag) || tag != 0x0a || !af_cursor_uleb(&c, &n))
			return AF_SNIFF_NO;
		if (n > af_cursor_left(&c))   /* a cut capture */
			return packets > 0 || af_cursor_left(&c) > 1024 ? AF_SNIFF_YES : AF_SNIFF_NO;
		c.pos += (size_t)n;
	}
	return AF_SNIFF_YES;
}

const struct af_reader af_reader_perfetto = {
	.name = "perfetto", .what = "a Perfetto trace", .sniff = sniff,
	.read = read_perfetto, .nothing = "no slices, CPU samples or heap profiles",
};
