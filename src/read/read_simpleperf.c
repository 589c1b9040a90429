/* read_simpleperf.c: simpleperf's report-sample protobuf, what Android
 * Studio's "Callstack Sample" recording saves (simpleperf
 * cmd_report_sample.proto, Apache-2.0, AOSP system/extras/simpleperf).
 *
 * Layout: "SIMPLEPERF", a little-endian u16 version, then records, each a
 * little-endian u32 length and a Record message; a zero length ends them.
 * Record fields: sample 1, lost 2, file 3, thread 4, meta_info 5,
 * context_switch 6. Files and threads usually come after the samples that
 * use them, so the records are walked twice: first files, threads and
 * meta info, then the samples, folded per process > thread.
 *
 * A sample's callchain lists the leaf first (the sampled ip), so it is
 * folded from its last entry. A frame whose symbol is unknown is named as
 * simpleperf report names it: the file and the offset, "libfoo.so[+1a2b]". */
#include "proto.h"
#include "read.h"
#include "span.h"
#include "core/idmap.h"
#include "core/names.h"
#include "core/profile.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC "SIMPLEPERF"
#define HEAD 12                 /* magic + u16 version */
#define MAX_CHAIN 65536         /* deeper callchains are cut (simpleperf stops at 512) */

struct sfile { struct af_span path; size_t first, count; };   /* symbols[first..first+count) */
/* index: in p->threads; off: an off-CPU sample waiting for its end (its
 * message, c.data NULL: none) and its time */
struct sthread {
	uint64_t tid, pid; struct af_span name; uint32_t node; size_t index;
	struct af_proto off; uint64_t off_time;
};
struct entry { uint64_t vaddr; uint32_t file; int64_t symbol; };

struct sp {
	struct af_profile *p;
	struct af_diag *d;
	const struct af_input *in;
	struct sfile *files; size_t nfiles, cap_files;
	struct af_idmap file_ids;      /* file id -> index in files */
	struct af_span *symbols; size_t nsymbols, cap_symbols;
	struct sthread *threads; size_t nthreads, cap_threads;
	struct af_idmap thread_ids;    /* tid -> index in threads */
	struct af_idmap proc_nodes;    /* pid -> process node */
	struct af_span *events; size_t nevents, cap_events;
	uint64_t drawn;                /* the event type drawn (--event) */
	const struct af_read_opts *o;
	struct af_span package;
	struct entry *chain; size_t cap_chain;
	struct af_buf scratch;
	uint64_t samples, other_event, lost, lost_samples, no_chain, bad_symbols, weight;
	bool offcpu;
	bool offcpu_mode;              /* trace_offcpu with a clock: off-CPU samples drawn */
	uint64_t offcpu_drawn, offcpu_open;
	uint64_t unwind_errors[16];    /* by Sample.UnwindingResult.ErrorCode; [NUNWIND_ERRORS]: others */
};

static int fail(struct sp *f, const struct af_proto *m)
{
	return af_diag_offset(f->d, m->error_offset, "malformed report-sample record: %s", m->error);
}

static struct af_span span_of(const struct af_proto_field *x)
{
	return (struct af_span){ x->data, x->len > 4096 ? 4096 : (uint32_t)x->len };
}

/* File: id 1, path 2, symbol 3 (repeated, already demangled). */
static int read_file(struct sp *f, struct af_proto *m)
{
	struct af_proto_field x;
	struct sfile file = { .first = f->nsymbols };
	uint64_t id = 0;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT) {
			id = x.u;
		} else if (x.num == 2 && x.wire == AF_WIRE_LEN) {
			file.path = span_of(&x);
		} else if (x.num == 3 && x.wire == AF_WIRE_LEN) {
			af_grow(&f->symbols, &f->cap_symbols, f->nsymbols + 1, sizeof *f->symbols);
			f->symbols[f->nsymbols++] = span_of(&x);
		}
	}
	if (rc < 0)
		return fail(f, m);
	file.count = f->nsymbols - file.first;
	bool found;
	uint32_t *slot = af_idmap_slot(&f->file_ids, id, &found);
	if (found) {
		f->files[*slot] = file;   /* a repeated id: the last one wins */
		return 0;
	}
	af_grow(&f->files, &f->cap_files, f->nfiles + 1, sizeof *f->files);
	*slot = (uint32_t)f->nfiles;
	f->files[f->nfiles++] = file;
	return 0;
}

/* Thread: thread_id 1, process_id 2, thread_name 3. */
static int read_thread(struct sp *f, struct af_proto *m)
{
	struct af_proto_field x;
	struct sthread th = { 0 };
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			th.tid = x.u;
		else if (x.num == 2 && x.wire == AF_WIRE_VARINT)
			th.pid = x.u;
		else if (x.num == 3 && x.wire == AF_WIRE_LEN)
			th.name = span_of(&x);
	}
	if (rc < 0)
		return fail(f, m);
	bool found;
	uint32_t *slot = af_idmap_slot(&f->thread_ids, th.tid, &found);
	if (!found) {
		af_grow(&f->threads, &f->cap_threads, f->nthreads + 1, sizeof *f->threads);
		*slot = (uint32_t)f->nthreads++;
	}
	th.node = AF_NONE;
	f->threads[*slot] = th;
	return 0;
}

/* MetaInfo: event_type 1 (repeated), app_package_name 2, trace_offcpu 6. */
static int read_meta(struct sp *f, struct af_proto *m)
{
	struct af_proto_field x;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_LEN) {
			af_grow(&f->events, &f->cap_events, f->nevents + 1, sizeof *f->events);
			f->events[f->nevents++] = span_of(&x);
		} else if (x.num == 2 && x.wire == AF_WIRE_LEN) {
			f->package = span_of(&x);
		} else if (x.num == 6 && x.wire == AF_WIRE_VARINT) {
			f->offcpu = x.u != 0;
		}
	}
	return rc < 0 ? fail(f, m) : 0;
}

/* LostSituation: sample_count 1, lost_count 2. */
static int read_lost(struct sp *f, struct af_proto *m)
{
	struct af_proto_field x;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			f->lost_samples = x.u;
		else if (x.num == 2 && x.wire == AF_WIRE_VARINT)
			f->lost = x.u;
	}
	return rc < 0 ? fail(f, m) : 0;
}

static struct af_span label(struct af_span s, struct af_buf *b, const char *fallback, uint64_t id)
{
	af_name_root(b, (const char *)s.s, s.n, fallback, id);
	return (struct af_span){ (const uint8_t *)b->data, (uint32_t)b->len };
}

static struct sthread *thread_of(struct sp *f, uint64_t tid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&f->thread_ids, tid, &found);
	if (!found) {   /* a sample of a thread without a Thread record */
		af_grow(&f->threads, &f->cap_threads, f->nthreads + 1, sizeof *f->threads);
		f->threads[f->nthreads] = (struct sthread){ .tid = tid, .pid = tid, .node = AF_NONE };
		*slot = (uint32_t)f->nthreads++;
	}
	return &f->threads[*slot];
}

/* The node of thread th, below its process's node; both made on first use. */
static uint32_t thread_node(struct sp *f, struct sthread *th)
{
	uint64_t tid = th->tid;
	bool found;
	if (th->node != AF_NONE)
		return th->node;
	struct af_tree *t = &f->p->tree;
	struct af_buf *b = &f->scratch;
	uint32_t *pslot = af_idmap_slot(&f->proc_nodes, th->pid, &found);
	if (!found) {
		/* the process is named as its main thread, when that is known */
		uint32_t k = af_idmap_get(&f->thread_ids, th->pid);
		struct af_span pname = k != AF_NONE ? f->threads[k].name : (struct af_span){ 0 };
		struct af_span s = label(pname, b, "process", th->pid);
		*pslot = af_tree_add_child(t, AF_ROOT, af_tree_intern(t, (const char *)s.s, s.n));
		af_profile_add_process(f->p, th->pid, pname.s ? (const char *)pname.s : "", pname.n, *pslot);
	}
	uint32_t pnode = *pslot;
	struct af_span s = label(th->name, b, "thread", tid);
	th->node = af_tree_add_child(t, pnode, af_tree_intern(t, (const char *)s.s, s.n));
	size_t ti = af_profile_add_thread(f->p, tid, th->name.s ? (const char *)th->name.s : "", th->name.n);
	f->p->threads[ti].node = th->node;
	f->p->threads[ti].pid = th->pid;
	f->p->threads[ti].process_node = pnode;
	th->index = ti;
	return th->node;
}

static uint32_t frame_name(struct sp *f, const struct entry *e)
{
	struct af_tree *t = &f->p->tree;
	struct af_buf *b = &f->scratch;
	uint32_t k = af_idmap_get(&f->file_ids, e->file);
	const struct sfile *file = k != AF_NONE ? &f->files[k] : NULL;
	b->len = 0;
	if (file && e->symbol >= 0 && (uint64_t)e->symbol < file->count) {
		const struct af_span *s = &f->symbols[file->first + (size_t)e->symbol];
		af_name_append(b, (const char *)s->s, s->n);
	} else {
		if (file && e->symbol >= 0)
			f->bad_symbols++;
		if (file && file->path.n)
			af_name_append(b, (const char *)file->path.s, file->path.n);
		else
			af_buf_printf(b, "[file %" PRIu32 "]", e->file);
		af_buf_printf(b, "[+%" PRIx64 "]", e->vaddr);
	}
	af_name_finish(b, 0);
	return af_tree_intern(t, b->data, b->len);
}

/* CallChainEntry: vaddr_in_file 1, file_id 2, symbol_id 3 (int32: -1 none). */
static int read_entry(struct sp *f, struct af_proto *m, struct entry *e)
{
	struct af_proto_field x;
	int rc;
	*e = (struct entry){ .symbol = -1 };
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			e->vaddr = x.u;
		else if (x.num == 2 && x.wire == AF_WIRE_VARINT)
			e->file = (uint32_t)x.u;
		else if (x.num == 3 && x.wire == AF_WIRE_VARINT)
			e->symbol = (int32_t)(uint32_t)x.u;
	}
	return rc < 0 ? fail(f, m) : 0;
}

/* Sample: time 1, thread_id 2, callchain 3 (into f->chain), event_count
 * 4, event_type_id 5. */
struct sample { uint64_t time, tid, count, type, unwind; size_t n; };   /* unwind: error code + 1, 0 none */

/* Sample.UnwindingResult.ErrorCode, simpleperf's reading of libunwindstack's */
static const char *const unwind_error_names[] = {
	"none", "unknown", "not enough stack", "memory invalid", "unwind info", "invalid map",
	"max frames exceeded", "repeated frame", "invalid elf",
};
#define NUNWIND_ERRORS (sizeof unwind_error_names / sizeof *unwind_error_names)

/* UnwindingResult: error_code 3 (simpleperf report-sample
 * --keep-failed-unwinding-result); returns it + 1, 0 if absent. */
static int read_unwinding(struct sp *f, struct af_proto *m, uint64_t *code)
{
	struct af_proto_field x;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0)
		if (x.num == 3 && x.wire == AF_WIRE_VARINT)
			*code = x.u < UINT64_MAX ? x.u + 1 : x.u;
	return rc < 0 ? fail(f, m) : 0;
}

static int parse_sample(struct sp *f, struct af_proto *m, struct sample *s)
{
	struct af_proto_field x;
	int rc;
	*s = (struct sample){ .count = 1 };
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT) {
			s->time = x.u;
		} else if (x.num == 2 && x.wire == AF_WIRE_VARINT) {
			s->tid = (uint32_t)x.u;
		} else if (x.num == 3 && x.wire == AF_WIRE_LEN && s->n < MAX_CHAIN) {
			struct af_proto e;
			af_proto_sub(m, &x, &e);
			af_grow(&f->chain, &f->cap_chain, s->n + 1, sizeof *f->chain);
			if (read_entry(f, &e, &f->chain[s->n++]) < 0)
				return -1;
		} else if (x.num == 4 && x.wire == AF_WIRE_VARINT) {
			s->count = x.u;
		} else if (x.num == 5 && x.wire == AF_WIRE_VARINT) {
			s->type = x.u;
		} else if (x.num == 6 && x.wire == AF_WIRE_LEN) {
			struct af_proto u;
			af_proto_sub(m, &x, &u);
			if (read_unwinding(f, &u, &s->unwind) < 0)
				return -1;
		}
	}
	return rc < 0 ? fail(f, m) : 0;
}

/* Fold the sample in f->chain weighing count; an off-CPU one gets a leaf
 * "[off-cpu]". */
static int fold_sample(struct sp *f, struct sthread *th, const struct sample *s, uint64_t count, uint64_t at,
		       bool offcpu)
{
	if (count > UINT64_MAX - f->weight)
		return af_diag_offset(f->d, at, "the sample weights add up past 2^64");
	f->samples++;
	f->offcpu_drawn += offcpu;
	f->weight += count;
	struct af_tree *t = &f->p->tree;
	uint32_t node = thread_node(f, th);
	f->p->threads[th->index].events++;
	size_t n = s->n;
	if (n == 0) {
		f->no_chain++;
		node = af_tree_child(t, node, af_tree_intern_str(t, "[no callchain]"));
	}
	while (n > 0)
		node = af_tree_child(t, node, frame_name(f, &f->chain[--n]));
	if (offcpu)
		node = af_tree_child(t, node, af_tree_intern_str(t, "[off-cpu]"));
	af_tree_add_self(t, node, count);
	return 0;
}

/* The thread's waiting off-CPU sample ends at time: it weighs the time
 * since it was taken (1 if the clock went back), as simpleperf's report
 * library has it (TraceOffCpuMode MIXED_ON_OFF_CPU). Its message is
 * parsed again (into f->chain). */
static int end_offcpu(struct sp *f, struct sthread *th, uint64_t time)
{
	struct af_proto m = th->off;
	struct sample s;
	th->off.c.data = NULL;
	f->offcpu_open--;
	if (parse_sample(f, &m, &s) < 0)
		return -1;
	return fold_sample(f, th, &s, time > th->off_time ? time - th->off_time : 1, m.base, true);
}

/* With trace_offcpu, a sample of another event type than the first
 * (simpleperf records sched:sched_switch) is the thread going off the CPU:
 * it waits for the thread's next sample or switch-on to know for how long. */
static int read_sample(struct sp *f, struct af_proto *m)
{
	struct af_proto saved = *m;
	struct sample s;
	if (parse_sample(f, m, &s) < 0)
		return -1;
	if (s.unwind > 1)   /* counted here, once: an off-CPU sample is parsed again */
		f->unwind_errors[s.unwind - 1 < NUNWIND_ERRORS ? s.unwind - 1 : NUNWIND_ERRORS]++;
	bool offcpu = f->offcpu_mode && s.type != 0;
	if (s.type != f->drawn && !offcpu) {
		f->other_event++;
		return 0;
	}
	struct sthread *th = thread_of(f, s.tid);
	if (th->off.c.data) {   /* ends it, and reads the sample again: f->chain was reused */
		*m = saved;
		if (end_offcpu(f, th, s.time) < 0 || parse_sample(f, m, &s) < 0)
			return -1;
	}
	if (offcpu) {
		th->off = saved;
		th->off_time = s.time;
		f->offcpu_open++;
		return 0;
	}
	return fold_sample(f, th, &s, s.count, m->base, false);
}

/* ContextSwitch: switch_on 1, time 2, thread_id 3. A thread back on the
 * CPU ends its off-CPU sample. */
static int read_switch(struct sp *f, struct af_proto *m)
{
	struct af_proto_field x;
	uint64_t on = 0, time = 0, tid = 0;
	int rc;
	while ((rc = af_proto_next(m, &x)) > 0) {
		if (x.num == 1 && x.wire == AF_WIRE_VARINT)
			on = x.u;
		else if (x.num == 2 && x.wire == AF_WIRE_VARINT)
			time = x.u;
		else if (x.num == 3 && x.wire == AF_WIRE_VARINT)
			tid = (uint32_t)x.u;
	}
	if (rc < 0)
		return fail(f, m);
	uint32_t k = af_idmap_get(&f->thread_ids, tid);
	if (!f->offcpu_mode || !on || k == AF_NONE || !f->threads[k].off.c.data)
		return 0;
	return end_offcpu(f, &f->threads[k], time);
}

/* One walk over the records: pass 0 reads files, threads, meta and lost
 * counts; pass 1 the samples. */
static int walk(struct sp *f, int pass)
{
	const uint8_t *data = f->in->data;
	size_t len = f->in->len, pos = HEAD;
	while (pos < len) {
		if (len - pos < 4)
			return af_diag_offset(f->d, pos, "the file ends inside a record length");
		uint64_t n = af_le(data + pos, 4);
		if (n == 0)
			return 0;
		if (n > len - pos - 4)
			return af_diag_offset(f->d, pos, "a record of %" PRIu64 " bytes runs past the end of the file", n);
		struct af_proto rec, m;
		struct af_proto_field x;
		af_proto_init(&rec, data + pos + 4, (size_t)n, pos + 4);
		int rc;
		while ((rc = af_proto_next(&rec, &x)) > 0) {
			if (x.wire != AF_WIRE_LEN)
				continue;
			af_proto_sub(&rec, &x, &m);
			if (pass == 1 && x.num == 1)
				rc = read_sample(f, &m);
			else if (pass == 1 && x.num == 6)
				rc = read_switch(f, &m);
			else if (pass == 0 && x.num == 2)
				rc = read_lost(f, &m);
			else if (pass == 0 && x.num == 3)
				rc = read_file(f, &m);
			else if (pass == 0 && x.num == 4)
				rc = read_thread(f, &m);
			else if (pass == 0 && x.num == 5)
				rc = read_meta(f, &m);
			if (rc < 0)
				return -1;
		}
		if (rc < 0)
			return fail(f, &rec);
		pos += 4 + (size_t)n;
	}
	af_profile_note(f->p, "the file has no end record (a zero length): it may be cut short");
	return 0;
}

static void info(struct sp *f)
{
	struct af_profile *p = f->p;
	struct af_buf *b = &f->scratch;
	b->len = 0;
	for (size_t i = 0; i < f->nevents; i++) {
		if (i)
			af_buf_printf(b, ", ");
		size_t from = b->len;
		af_name_append(b, (const char *)f->events[i].s, f->events[i].n);
		af_name_finish(b, from);
	}
	af_profile_info(p, "version", "%u", (unsigned)af_le(f->in->data + 10, 2));
	if (f->nevents > 1 && f->o->event) {
		af_buf_printf(b, " (");
		size_t from = b->len;
		af_name_append(b, (const char *)f->events[f->drawn].s, f->events[f->drawn].n);
		af_name_finish(b, from);
		af_buf_printf(b, " is drawn)");
	} else if (f->nevents > 1) {
		af_buf_printf(b, " (the first is drawn)");
	}
	af_profile_info(p, "event types", "%.*s", (int)b->len, b->data);
	af_profile_info(p, "samples", "%" PRIu64 " drawn, %" PRIu64 " of other event types", f->samples,
			f->other_event);
	af_profile_info(p, "lost samples", "%" PRIu64 " of %" PRIu64, f->lost, f->lost_samples);
	af_profile_info(p, "threads", "%zu", f->nthreads);
	size_t with = 0;
	for (size_t i = 0; i < f->nfiles; i++)
		with += f->files[i].count > 0;
	af_profile_info(p, "files", "%zu (%zu with symbols)", f->nfiles, with);
	if (f->package.n)
		af_profile_info(p, "app package", "%.*s", (int)f->package.n, (const char *)f->package.s);
	if (f->offcpu)
		af_profile_info(p, "trace offcpu", "yes");
	if (f->offcpu_mode)
		af_profile_info(p, "off-cpu samples", "%" PRIu64 " drawn (marked [off-cpu], weighing the time to the "
				"thread's next sample or switch-on), %" PRIu64 " with neither (left out)",
				f->offcpu_drawn, f->offcpu_open);
	/* the samples simpleperf says did not unwind, by kind */
	af_profile_info_kinds(f->p, "unwinding failures", NULL, unwind_error_names, NUNWIND_ERRORS,
			      f->unwind_errors);
	if (f->no_chain)
		af_profile_warn(p, f->no_chain, "samples without a callchain");
	if (f->bad_symbols)
		af_profile_warn(p, f->bad_symbols, "frames naming a symbol their file does not have");
}

static struct af_event_name event_name(const struct sp *f, size_t i)
{
	return (struct af_event_name){ (const char *)f->events[i].s, f->events[i].n };
}

/* --event among the MetaInfo's event types (their index is the samples'
 * event_type_id). */
static int pick_event(struct sp *f)
{
	struct af_event_name *names = af_xcalloc(f->nevents ? f->nevents : 1, sizeof *names);
	for (size_t i = 0; i < f->nevents; i++)
		names[i] = event_name(f, i);
	int k = af_event_pick(f->o->event, names, f->nevents, f->d);
	free(names);
	f->drawn = k < 0 ? 0 : (uint64_t)k;
	/* simpleperf's report library draws off-CPU samples only beside a
	 * clock event */
	f->offcpu_mode = f->offcpu && k == 0 && f->nevents > 1 && strcmp(af_event_unit(event_name(f, 0)), "ns") == 0;
	return k < 0 ? -1 : 0;
}

static void sp_release(struct sp *f)
{
	free(f->files);
	free(f->symbols);
	free(f->threads);
	free(f->events);
	free(f->chain);
	af_idmap_release(&f->file_ids);
	af_idmap_release(&f->thread_ids);
	af_idmap_release(&f->proc_nodes);
	af_buf_release(&f->scratch);
}

static int read_simpleperf(struct af_profile *p, const struct af_input *in, const struct af_read_opts *o,
			   struct af_diag *d)
{
	struct sp f = { .p = p, .d = d, .in = in, .o = o };
	af_idmap_init(&f.file_ids);
	af_idmap_init(&f.thread_ids);
	af_idmap_init(&f.proc_nodes);
	int rc = -1;
	if (in->len < HEAD)
		af_diag_offset(d, in->len, "the file ends inside the SIMPLEPERF header");
	else if (walk(&f, 0) == 0 && pick_event(&f) == 0 && walk(&f, 1) == 0)
		rc = 0;
	if (rc == 0) {
		p->unit = f.nevents ? af_event_unit(event_name(&f, f.drawn)) : "samples";
		p->clock = NULL;
		if (f.nevents && !p->event) {
			struct af_event_name e = event_name(&f, f.drawn);
			p->event = af_xstrndup(e.s, e.n);
		}
		info(&f);
	}
	sp_release(&f);
	return rc;
}

static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	return len >= strlen(MAGIC) && memcmp(data, MAGIC, strlen(MAGIC)) == 0 ? AF_SNIFF_YES : AF_SNIFF_NO;
}

const struct af_reader af_reader_simpleperf = {
	.name = "simpleperf", .what = "a simpleperf report-sample profile", .sniff = sniff,
	.read = read_simpleperf, .nothing = "no samples",
};
