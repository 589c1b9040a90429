/* slices.c: the slice builder (slices.h), shared by the atrace and
 * Perfetto readers, by the rules of docs/semantics.md:
 *
 * trace marks B|pid|name and E[|pid[|name]] are slices on the emitting
 * thread (tid 0: one thread per CPU); an E on an empty stack is ignored and
 * counted; slices still open at the end are closed at their thread's last
 * timestamp. Async S/F and G/H never enter thread stacks; with opts->async
 * they are the graph instead (process -> [track ->] name, weighted by end -
 * begin). Counters and instants are counted only. The tree is all ->
 * "process (pid)" -> "thread (tid)" -> slices; names are resolved at the
 * end from the task column, sched_switch/sched_wakeup comms and the names
 * a reader gives (PROCESS DUMP, Perfetto's process tree and descriptors).
 *
 * No allocation per event once tables have grown; times are integer µs. */
#include "scan.h"
#include "slices.h"
#include "core/fold.h"
#include "core/idmap.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- tables ---- */

struct athread {
	uint64_t tid;
	uint32_t cpu;          /* tid 0 only: each CPU's idle task is a thread */
	int64_t tgid;          /* TGID column, -1 unknown */
	int64_t dump_tgid;     /* PROCESS DUMP, -1 unknown */
	int64_t mark_pid;      /* pid of its first B, -1 */
	uint32_t comm;         /* latest kernel comm (interned), AF_NONE */
	uint32_t dump_name;    /* PROCESS DUMP thread name, AF_NONE */
	uint32_t node;         /* its node once it has a slice, AF_NONE */
	size_t pindex;         /* its index in p->threads (not in --async) */
	uint64_t events;
	struct af_fold_thread fold;
};

struct aproc {
	int64_t pid;
	uint32_t dump_name;    /* PROCESS DUMP name, AF_NONE */
	uint32_t node;         /* AF_NONE until it has a slice */
	size_t pindex;
	size_t nthreads;
};

struct aopen {             /* an async slice begun and not yet ended */
	int64_t pid;
	uint32_t track;        /* G/H: track name; S/F: AF_NONE */
	uint32_t name;         /* S: name; G: name */
	uint64_t cookie;
	uint64_t start;
	uint32_t next_free;
};

struct stats {
	uint64_t events;
	uint64_t begins, ends, unmatched_ends, name_mismatches, bad_marks, first_bad_mark;
	uint64_t async_begins, async_ends, async_orphan_ends, async_dup_begins, async_unfinished;
	uint64_t counters, instants, clock_syncs, other_marks, first_other_mark;
	uint64_t sched_names;
	uint64_t first_ts, last_ts;
	bool have_ts;
};

enum { THREADS_RECENT = 256 };

struct af_slices {
	struct af_profile *p;
	const struct af_read_opts *o;
	struct af_diag *d;
	struct af_fold fold;
	struct af_tree slice_tree;     /* --async: thread slices go here, unused */
	struct athread *threads;
	size_t nthreads, cap_threads;
	struct af_idmap by_tid;           /* tid << 20 | cpu key -> threads[] */
	/* threads found lately, by their key's low bits: most events find
	 * their thread here (key 0 is no thread's) */
	struct { uint64_t key; uint32_t index; } recent[THREADS_RECENT];
	struct aproc *procs;
	size_t nprocs, cap_procs;
	struct af_idmap by_pid;
	struct aopen *open;
	size_t nopen, cap_open;
	uint32_t free_open;
	struct af_idmap by_async;         /* async key hash -> open[] */
	struct af_buf scratch;
	uint32_t empty_name;
	struct stats st;
	struct af_slices_text text;
};

/* The thread (tid, cpu) not among the recent ones: found, or made. */
static struct athread *thread_find(struct af_slices *r, uint64_t key, size_t c, uint64_t tid, uint32_t cpu)
{
	uint32_t i = af_idmap_get(&r->by_tid, key);
	if (i != AF_NONE) {
		r->recent[c].key = key;
		r->recent[c].index = i;
		return &r->threads[i];
	}
	af_grow(&r->threads, &r->cap_threads, r->nthreads + 1, sizeof *r->threads);
	struct athread *th = &r->threads[r->nthreads];
	*th = (struct athread){ .tid = tid, .cpu = cpu, .tgid = -1, .dump_tgid = -1, .mark_pid = -1,
				.comm = AF_NONE, .dump_name = AF_NONE, .node = AF_NONE, .pindex = SIZE_MAX };
	af_fold_thread_init(&th->fold, AF_NONE);
	af_idmap_put(&r->by_tid, key, (uint32_t)r->nthreads);
	r->nthreads++;
	return th;
}

static inline struct athread *thread_at(struct af_slices *r, uint64_t tid, uint32_t cpu)
{
	uint64_t key = tid << 20 | (tid == 0 ? (uint64_t)cpu + 1 : 0);
	size_t c = (size_t)(tid ^ tid >> 8 ^ cpu) & (THREADS_RECENT - 1);
	if (r->recent[c].key == key)
		return &r->threads[r->recent[c].index];
	return thread_find(r, key, c, tid, cpu);
}

static struct aproc *proc_at(struct af_slices *r, int64_t pid)
{
	uint32_t i = af_idmap_get(&r->by_pid, (uint64_t)pid);
	if (i != AF_NONE)
		return &r->procs[i];
	af_grow(&r->procs, &r->cap_procs, r->nprocs + 1, sizeof *r->procs);
	struct aproc *pr = &r->procs[r->nprocs];
	*pr = (struct aproc){ .pid = pid, .dump_name = AF_NONE, .node = AF_NONE, .pindex = SIZE_MAX };
	af_idmap_put(&r->by_pid, (uint64_t)pid, (uint32_t)r->nprocs);
	r->nprocs++;
	return pr;
}

/* The process's node in the graph, made on first use (named at the end). */
static uint32_t proc_node(struct af_slices *r, struct aproc *pr)
{
	if (pr->node == AF_NONE) {
		pr->node = af_tree_add_child(&r->p->tree, AF_ROOT, r->empty_name);
		pr->pindex = af_profile_add_process(r->p, (uint64_t)pr->pid, "", 0, pr->node);
	}
	return pr->node;
}

static bool placeholder_comm(const char *s, size_t n)
{
	return n == 0 || (n == 5 && memcmp(s, "<...>", 5) == 0) ||
	       (n == 9 && memcmp(s, "<unknown>", 9) == 0) || (n == 6 && memcmp(s, "<idle>", 6) == 0);
}

static void set_comm(struct af_slices *r, struct athread *th, const char *s, size_t n)
{
	if (th->tid == 0 || placeholder_comm(s, n))
		return;
	if (th->comm != AF_NONE && af_tree_name_len(&r->p->tree, th->comm) == n &&
	    memcmp(af_tree_name(&r->p->tree, th->comm), s, n) == 0)
		return;
	th->comm = af_tree_intern(&r->p->tree, s, n);
}

/* A slice or async name, cleaned for every output, interned. */
/* A slice's name as a frame, interned in tree t. */
static uint32_t name_in(struct af_slices *r, struct af_tree *t, const char *s, size_t n)
{
	if (n == 0)
		return af_tree_intern_str(t, "[empty slice name]");
	r->scratch.len = 0;
	af_name_append(&r->scratch, s, n);
	af_name_finish(&r->scratch, 0);
	return af_tree_intern(t, r->scratch.data, r->scratch.len);
}

static uint32_t frame_name(struct af_slices *r, const char *s, size_t n)
{
	return name_in(r, &r->p->tree, s, n);
}

/* ---- thread slices ---- */

/* First slice of a thread: its process and its node. */
static void start_thread(struct af_slices *r, struct athread *th, int64_t mark_pid)
{
	th->mark_pid = mark_pid;
	if (r->o->async) {
		th->node = af_tree_add_child(&r->slice_tree, AF_ROOT, 0);
		th->fold.root = th->node;
		return;
	}
	int64_t pid = th->tid == 0 ? 0 : th->tgid >= 0 ? th->tgid : th->dump_tgid >= 0 ? th->dump_tgid : mark_pid;
	struct aproc *pr = proc_at(r, pid);
	uint32_t pnode = proc_node(r, pr);
	pr->nthreads++;
	th->node = af_tree_add_child(&r->p->tree, pnode, r->empty_name);
	th->fold.root = th->node;
	th->pindex = af_profile_add_thread(r->p, th->tid, "", 0);
	r->p->threads[th->pindex].node = th->node;
	r->p->threads[th->pindex].pid = (uint64_t)pid;
	r->p->threads[th->pindex].process_node = pnode;
}

/* A slice named name (in the fold's tree: the profile's, or with --async
 * the unused one whose names must be its own) begins. */
static void begin_slice(struct af_slices *r, struct athread *th, int64_t pid, uint32_t name, uint64_t ts)
{
	r->st.begins++;
	if (th->node == AF_NONE)
		start_thread(r, th, pid);
	af_fold_enter(&r->fold, &th->fold, 0, name, ts);
}

/* Does an E's name (after "E|pid|") name the open slice? Chromium appends
 * "|args|category" to both, so the part before the first '|' also counts. */
static bool same_name(struct af_slices *r, const char *top, size_t top_len, const char *s, size_t n)
{
	r->scratch.len = 0;
	af_name_append(&r->scratch, s, n);
	af_name_finish(&r->scratch, 0);
	if (r->scratch.len == top_len && memcmp(r->scratch.data, top, top_len) == 0)
		return true;
	const char *a = memchr(r->scratch.data, '|', r->scratch.len), *b = memchr(top, '|', top_len);
	size_t al = a ? (size_t)(a - r->scratch.data) : r->scratch.len, bl = b ? (size_t)(b - top) : top_len;
	return al == bl && memcmp(r->scratch.data, top, al) == 0;
}

static void end_slice(struct af_slices *r, struct athread *th, const char *name, size_t n, uint64_t ts)
{
	r->st.ends++;
	if (th->node == AF_NONE || th->fold.depth == 0) {
		r->st.unmatched_ends++;
		return;
	}
	uint32_t top = th->fold.stack[th->fold.depth - 1].node;
	if (n && top != AF_NONE) {
		const struct af_tree *t = r->fold.tree;
		uint32_t id = r->fold.tree->nodes[top].name;
		if (!same_name(r, af_tree_name(t, id), af_tree_name_len(t, id), name, n))
			r->st.name_mismatches++;
	}
	af_fold_exit(&r->fold, &th->fold, 0, 0, ts);
}

/* ---- async slices ---- */

static uint64_t cookie_value(const char *s, size_t n)
{
	uint64_t v = 0;
	bool numeric = n > 0 && n < 20;
	for (size_t i = (n && s[0] == '-'); i < n && numeric; i++) {
		numeric = af_scan_is_digit(s[i]);
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (numeric)
		return s[0] == '-' ? (uint64_t)-(int64_t)v : v;
	uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-1a: any bytes are a cookie */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ULL;
	return h;
}

static uint64_t async_key(int64_t pid, uint32_t track, uint32_t name, uint64_t cookie)
{
	return af_hash64(af_hash64(af_hash64((uint64_t)pid) ^ ((uint64_t)track << 32 | name)) ^ cookie);
}

static void async_begin(struct af_slices *r, int64_t pid, uint32_t track, uint32_t name, uint64_t cookie, uint64_t ts)
{
	r->st.async_begins++;
	uint32_t key_name = track == AF_NONE ? name : AF_NONE;
	uint64_t key = async_key(pid, track, key_name, cookie);
	if (af_idmap_get(&r->by_async, key) != AF_NONE) {
		r->st.async_dup_begins++;   /* Perfetto's "unnestable": keep the first */
		return;
	}
	uint32_t i;
	if (r->free_open != AF_NONE) {
		i = r->free_open;
		r->free_open = r->open[i].next_free;
	} else {
		af_grow(&r->open, &r->cap_open, r->nopen + 1, sizeof *r->open);
		i = (uint32_t)r->nopen++;
	}
	r->open[i] = (struct aopen){ pid, track, name, cookie, ts, AF_NONE };
	af_idmap_put(&r->by_async, key, i);
}

static void async_end(struct af_slices *r, int64_t pid, uint32_t track, uint32_t name, uint64_t cookie, uint64_t ts)
{
	r->st.async_ends++;
	uint64_t key = async_key(pid, track, track == AF_NONE ? name : AF_NONE, cookie);
	uint32_t i = af_idmap_get(&r->by_async, key);
	struct aopen *o = i != AF_NONE ? &r->open[i] : NULL;
	if (!o || o->pid != pid || o->track != track || o->cookie != cookie) {
		r->st.async_orphan_ends++;
		return;
	}
	if (r->o->async) {
		struct af_tree *t = &r->p->tree;
		uint32_t node = proc_node(r, proc_at(r, pid));
		if (track != AF_NONE)
			node = af_tree_child(t, node, track);
		node = af_tree_child(t, node, o->name);
		af_tree_add_self(t, node, ts > o->start ? ts - o->start : 0);
	}
	af_idmap_del(&r->by_async, key);
	o->next_free = r->free_open;
	r->free_open = i;
}

/* ---- trace_marker payloads ---- */

/* Split "pid|rest": false if pid is not a number. */
static bool mark_pid(const char **s, const char *end, int64_t *pid, bool *more)
{
	uint64_t v;
	const char *p = *s;
	if (!af_scan_digits(&p, end, &v) || (p < end && *p != '|'))
		return false;
	*pid = (int64_t)v;
	*more = p < end;
	*s = p + (p < end);
	return true;
}

/* The last '|'-separated field of [s, end) (the cookie), and what precedes it. */
static bool last_field(const char *s, const char *end, const char **mid_end, const char **last)
{
	const char *q = end;
	while (q > s && q[-1] != '|')
		q--;
	if (q == s)
		return false;
	*mid_end = q - 1;
	*last = q;
	return true;
}

static void bad_mark(struct af_slices *r)
{
	if (!r->st.bad_marks++)
		r->st.first_bad_mark = r->text.lines;
}

static void async_mark(struct af_slices *r, char kind, int64_t pid, const char *s, const char *end, uint64_t ts)
{
	const char *mid, *cookie;
	if (!last_field(s, end, &mid, &cookie)) {
		bad_mark(r);
		return;
	}
	uint64_t c = cookie_value(cookie, (size_t)(end - cookie));
	if (kind == 'S' || kind == 'F') {
		uint32_t name = frame_name(r, s, (size_t)(mid - s));
		if (kind == 'S')
			async_begin(r, pid, AF_NONE, name, c, ts);
		else
			async_end(r, pid, AF_NONE, name, c, ts);
		return;
	}
	/* G|pid|track|name|cookie, H|pid|track|cookie or H|pid|track|name|cookie */
	const char *bar = memchr(s, '|', (size_t)(mid - s));
	const char *track_end = bar ? bar : mid;
	uint32_t track = frame_name(r, s, (size_t)(track_end - s));
	if (kind == 'G') {
		if (!bar) {
			bad_mark(r);
			return;
		}
		async_begin(r, pid, track, frame_name(r, bar + 1, (size_t)(mid - bar - 1)), c, ts);
	} else {
		async_end(r, pid, track, AF_NONE, c, ts);
	}
}

int af_mark_parse(const char *s, size_t len, struct af_mark *m)
{
	const char *end = s + len;
	if (end - s >= 2 && end[-2] == '\\' && end[-1] == 'n')
		end -= 2;   /* an escaped trailing newline (catapult strips it too) */
	while (end > s && (end[-1] == '\n' || end[-1] == '\0'))
		end--;
	*m = (struct af_mark){ .pid = -1 };
	if (end - s == 1 && s[0] == 'E')
		return 'E';
	if (end - s < 2 || s[1] != '|') {
		bool sync = (size_t)(end - s) >= 23 && memcmp(s, "trace_event_clock_sync:", 23) == 0;
		return sync ? AF_MARK_CLOCK_SYNC : AF_MARK_OTHER;
	}
	const char *f = s + 2;
	if (!mark_pid(&f, end, &m->pid, &m->more))
		return AF_MARK_BAD;
	m->text = f;
	m->end = end;
	m->n = m->more ? (size_t)(end - f) : 0;
	return (unsigned char)s[0];
}

static void other_mark(struct af_slices *r)
{
	if (!r->st.other_marks++)
		r->st.first_other_mark = r->text.lines;
}

static void mark(struct af_slices *r, struct athread *th, const struct af_ftrace_event *e)
{
	const char *s = e->payload, *end = s + e->payload_len;
	if (e->event_len == 5 && !(end - s >= 2 && s[1] == '|')) {
		/* print: "<ip symbol>: B|..." as trace-cmd shows it */
		const char *c = af_scan_find(s, (size_t)(end - s), ": ", 2);
		if (c)
			s = af_scan_spaces(c + 2, end);
	}
	struct af_mark m;
	int kind = af_mark_parse(s, (size_t)(end - s), &m);
	switch (kind) {
	case 'B':
		begin_slice(r, th, m.pid, name_in(r, r->fold.tree, m.text, m.n), e->ts);
		break;
	case 'E':
		end_slice(r, th, m.text, m.n, e->ts);
		break;
	case 'S': case 'F': case 'G': case 'H':
		if (!m.more)
			bad_mark(r);
		else
			async_mark(r, (char)kind, m.pid, m.text, m.end, e->ts);
		break;
	case 'C':
		r->st.counters++;
		break;
	case 'I': case 'N':
		r->st.instants++;
		break;
	case AF_MARK_CLOCK_SYNC:
		r->st.clock_syncs++;
		break;
	case AF_MARK_BAD:
		bad_mark(r);
		break;
	default:
		other_mark(r);
	}
}

/* ---- names from sched events and the PROCESS DUMP ---- */

/* "<key>=<comm> <next>=<pid>": the comm may contain spaces. */
static void comm_pid(struct af_slices *r, const char *s, const char *end, const char *key, const char *next)
{
	size_t kl = strlen(key), nl = strlen(next);
	const char *k = af_scan_find(s, (size_t)(end - s), key, kl);
	if (!k)
		return;
	const char *comm = k + kl;
	const char *n = af_scan_find(comm, (size_t)(end - comm), next, nl);
	if (!n)
		return;
	const char *p = n + nl;
	uint64_t tid;
	if (!af_scan_digits(&p, end, &tid) || tid == 0)
		return;
	r->st.sched_names++;
	set_comm(r, thread_at(r, tid, 0), comm, (size_t)(n - comm));
}

static bool event_is(const struct af_ftrace_event *e, const char *name)
{
	size_t n = strlen(name);
	return e->event_len == n && memcmp(e->event, name, n) == 0;
}

static void sched_names(struct af_slices *r, const struct af_ftrace_event *e)
{
	const char *s = e->payload, *end = s + e->payload_len;
	if (event_is(e, "sched_switch")) {
		comm_pid(r, s, end, "prev_comm=", " prev_pid=");
		comm_pid(r, s, end, "next_comm=", " next_pid=");
	} else if (event_is(e, "sched_wakeup") || event_is(e, "sched_waking") || event_is(e, "sched_wakeup_new")) {
		comm_pid(r, s, end, "comm=", " pid=");
	}
}

/* ---- events ---- */

/* Count an event of thread tid at ts (µs) and make ts count from the
 * capture's first event, so that --from/--to and flame-chart positions
 * start at the capture's start. Returns the thread. */
static struct athread *touch(struct af_slices *r, uint64_t tid, uint32_t cpu, uint64_t *ts)
{
	r->st.events++;
	if (!r->st.have_ts) {
		r->st.have_ts = true;
		r->st.first_ts = *ts;
	}
	if (*ts > r->st.last_ts)
		r->st.last_ts = *ts;
	*ts = *ts >= r->st.first_ts ? *ts - r->st.first_ts : 0;
	struct athread *th = thread_at(r, tid, cpu);
	th->events++;
	if (!th->fold.started) {
		th->fold.started = true;
		th->fold.first = th->fold.last = *ts;
	} else if (*ts > th->fold.last) {
		th->fold.last = *ts;
	}
	return th;
}

void af_slices_ftrace(struct af_slices *r, struct af_ftrace_event *e)
{
	struct athread *th = touch(r, e->tid, e->cpu, &e->ts);
	if (e->tgid >= 0)
		th->tgid = e->tgid;
	set_comm(r, th, e->task, e->task_len);
	if (event_is(e, "tracing_mark_write") || event_is(e, "0") || event_is(e, "print"))
		mark(r, th, e);
	else if (e->event_len > 6 && memcmp(e->event, "sched_", 6) == 0)
		sched_names(r, e);
}

void af_slices_begin(struct af_slices *r, uint64_t tid, int64_t pid, uint64_t ts, const char *name, size_t n)
{
	struct athread *th = touch(r, tid, 0, &ts);
	if (pid >= 0 && th->tgid < 0)
		th->tgid = pid;
	begin_slice(r, th, pid, name_in(r, r->fold.tree, name, n), ts);
}

uint32_t af_slices_name(struct af_slices *r, const char *name, size_t n)
{
	return name_in(r, r->fold.tree, name, n);
}

void af_slices_mark_begin(struct af_slices *r, uint64_t tid, int64_t pid, uint64_t ts, uint32_t name)
{
	struct athread *th = touch(r, tid, 0, &ts);
	begin_slice(r, th, pid, name, ts);
}

void af_slices_end(struct af_slices *r, uint64_t tid, uint64_t ts)
{
	struct athread *th = touch(r, tid, 0, &ts);
	end_slice(r, th, NULL, 0, ts);
}

bool af_slices_name_thread(struct af_slices *r, uint64_t tid, int64_t pid, const char *name, size_t n)
{
	if (tid == 0)
		return false;
	struct athread *th = thread_at(r, tid, 0);
	bool moved = false;
	if (pid >= 0) {
		/* placed at its first slice by an earlier name or its marks
		 * (start_thread), where this one would have put it elsewhere */
		moved = th->node != AF_NONE && !r->o->async && th->tgid < 0 &&
			r->p->threads[th->pindex].pid != (uint64_t)pid;
		th->dump_tgid = pid;
	}
	if (n)
		th->dump_name = af_tree_intern(&r->p->tree, name, n);
	return moved;
}

void af_slices_name_process(struct af_slices *r, int64_t pid, const char *name, size_t n)
{
	if (n)
		proc_at(r, pid)->dump_name = af_tree_intern(&r->p->tree, name, n);
}

/* ---- the end: names, counts ---- */

static void thread_name(struct af_slices *r, const struct athread *th, struct af_buf *b)
{
	const struct af_tree *t = &r->p->tree;
	b->len = 0;
	if (th->tid == 0)
		af_buf_printf(b, "swapper/%" PRIu32, th->cpu);
	else if (th->comm != AF_NONE)
		af_buf_add(b, af_tree_name(t, th->comm), af_tree_name_len(t, th->comm));
	else if (th->dump_name != AF_NONE)
		af_buf_add(b, af_tree_name(t, th->dump_name), af_tree_name_len(t, th->dump_name));
	else
		af_buf_printf(b, "thread-%" PRIu64, th->tid);
}

static void process_name(struct af_slices *r, const struct aproc *pr, struct af_buf *b)
{
	const struct af_tree *t = &r->p->tree;
	b->len = 0;
	uint32_t main_thread = pr->pid > 0 ? af_idmap_get(&r->by_tid, (uint64_t)pr->pid << 20) : AF_NONE;
	const struct athread *mt = main_thread != AF_NONE ? &r->threads[main_thread] : NULL;
	uint32_t id = pr->dump_name != AF_NONE ? pr->dump_name
		: mt && mt->comm != AF_NONE ? mt->comm
		: mt && mt->dump_name != AF_NONE ? mt->dump_name : AF_NONE;
	if (pr->pid == 0)
		af_buf_puts(b, "swapper");
	else if (id != AF_NONE)
		af_buf_add(b, af_tree_name(t, id), af_tree_name_len(t, id));
	else
		af_buf_printf(b, "process-%" PRId64, pr->pid);
}

/* Rename a graph node "name (id)", cleaned like every frame name. */
static void name_node(struct af_slices *r, uint32_t node, const struct af_buf *name, uint64_t id)
{
	struct af_buf *b = &r->scratch;
	af_name_root(b, name->data, name->len, NULL, id);
	af_tree_rename(&r->p->tree, node, af_tree_intern(&r->p->tree, b->data, b->len));
}

static void finish_threads(struct af_slices *r)
{
	struct af_buf name;
	af_buf_init(&name);
	for (size_t i = 0; i < r->nthreads; i++) {
		struct athread *th = &r->threads[i];
		if (th->node == AF_NONE)
			continue;
		af_fold_finish(&r->fold, &th->fold);
		if (th->pindex == SIZE_MAX)
			continue;
		struct af_thread *pt = &r->p->threads[th->pindex];
		thread_name(r, th, &name);
		free(pt->name);
		pt->name = af_xstrndup(name.data, name.len);
		pt->events = th->events;
		pt->first_time = th->fold.first;
		pt->last_time = th->fold.last;
		name_node(r, th->node, &name, th->tid);
	}
	for (size_t i = 0; i < r->nprocs; i++) {
		struct aproc *pr = &r->procs[i];
		if (pr->node == AF_NONE)
			continue;
		process_name(r, pr, &name);
		struct af_process *pp = &r->p->processes[pr->pindex];
		free(pp->name);
		pp->name = af_xstrndup(name.data, name.len);
		name_node(r, pr->node, &name, (uint64_t)pr->pid);
	}
	af_buf_release(&name);
}

void af_slices_report(struct af_slices *r)
{
	struct af_profile *p = r->p;
	const struct stats *s = &r->st;
	const struct af_slices_text *x = &r->text;
	if (s->have_ts)
		af_profile_info(p, "time span", "%" PRIu64 " µs", s->last_ts - s->first_ts);
	af_profile_info(p, "slices", "%" PRIu64 " B, %" PRIu64 " E", s->begins, s->ends);
	af_profile_info(p, "async slices", "%" PRIu64 " begun (S/G), %" PRIu64 " ended (F/H)", s->async_begins, s->async_ends);
	af_profile_info(p, "counters", "%" PRIu64, s->counters);
	af_profile_info(p, "instants", "%" PRIu64, s->instants);
	af_profile_info(p, "clock sync marks", "%" PRIu64, s->clock_syncs);
	af_profile_info(p, "names from sched events", "%" PRIu64, s->sched_names);
	if (x->have_entries)
		af_profile_info(p, "entries in buffer/written", "%" PRIu64 "/%" PRIu64, x->entries_in_buffer, x->entries_written);
	for (size_t i = 0; i < r->nprocs; i++) {
		const struct aproc *pr = &r->procs[i];
		if (pr->node == AF_NONE)
			continue;
		char key[40];
		snprintf(key, sizeof key, "process %" PRId64, pr->pid);
		if (r->o->async)
			af_profile_info(p, key, "%s", p->processes[pr->pindex].name);
		else
			af_profile_info(p, key, "%s, %zu thread%s with slices", p->processes[pr->pindex].name,
					pr->nthreads, pr->nthreads == 1 ? "" : "s");
	}
	af_profile_warn(p, x->skipped, "lines that are not ftrace events skipped (first: line %" PRIu64 ")", x->first_skipped);
	af_profile_warn(p, s->unmatched_ends, "slice ends (E) with no open slice on their thread (ignored)");
	af_profile_warn(p, s->name_mismatches, "named slice ends (E|pid|name) that did not match the open slice (closed it anyway)");
	af_profile_warn(p, r->fold.stats.closed_at_end, "slices still open at the end (closed at their thread's last event)");
	af_profile_warn(p, r->fold.stats.time_backwards, "events earlier than the previous one on their thread (clamped)");
	if (x->lines) {   /* text: say where; Perfetto print events have no lines */
		af_profile_warn(p, s->bad_marks, "malformed trace marks (first: line %" PRIu64 ")", s->first_bad_mark);
		af_profile_warn(p, s->other_marks, "trace marks of no known kind (first: line %" PRIu64 ")", s->first_other_mark);
	} else {
		af_profile_warn(p, s->bad_marks, "malformed trace marks");
		af_profile_warn(p, s->other_marks, "trace marks of no known kind");
	}
	af_profile_warn(p, s->async_unfinished, "async slices never ended%s", r->o->async ? " (not drawn)" : "");
	af_profile_warn(p, s->async_orphan_ends, "async ends (F/H) with no matching begin (ignored)");
	af_profile_warn(p, s->async_dup_begins, "async begins repeating an open one (the first kept)");
	if (x->entries_written > x->entries_in_buffer)
		af_profile_warn(p, x->entries_written - x->entries_in_buffer,
				"events overwritten in the kernel buffer (entries-written above entries-in-buffer): the start is missing");
	af_profile_warn(p, x->buffer_started, "CPU buffers that wrapped ('##### CPU n buffer started'): the start is missing");
}

struct af_slices *af_slices_new(struct af_profile *p, const struct af_read_opts *o,
				       struct af_diag *d)
{
	struct af_slices *r = af_xcalloc(1, sizeof *r);
	*r = (struct af_slices){ .p = p, .o = o, .d = d, .free_open = AF_NONE };
	p->unit = "µs";
	p->clock = "wall";
	af_tree_init(&r->slice_tree);
	r->fold.tree = o->async ? &r->slice_tree : &p->tree;
	r->fold.timeline = o->timeline;
	r->fold.window = o->window;
	r->fold.from = o->from;
	r->fold.to = o->to;
	r->empty_name = af_tree_intern_str(&p->tree, "");
	af_buf_init(&r->scratch);
	return r;
}

int af_slices_finish(struct af_slices *r, const char *no_slices)
{
	r->st.async_unfinished = r->by_async.n;
	finish_threads(r);
	af_slices_report(r);
	if (r->o->info_only)
		return 0;
	if (!r->o->async && r->st.begins == 0)
		return af_diag_error(r->d, "no slices to draw: %" PRIu64 " %s", r->st.events, no_slices);
	if (r->o->async && r->p->tree.nnodes <= 1)
		return af_diag_error(r->d, "no async slices to draw: %" PRIu64 " begun (S/G), %" PRIu64 " ended (F/H) with a matching begin",
				     r->st.async_begins, r->st.async_ends - r->st.async_orphan_ends);
	return 0;
}

struct af_slices_text *af_slices_text(struct af_slices *r)
{
	return &r->text;
}

uint64_t af_slices_events(const struct af_slices *r)
{
	return r->st.events;
}

void af_slices_free(struct af_slices *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nthreads; i++)
		free(r->threads[i].fold.stack);
	free(r->threads);
	free(r->procs);
	free(r->open);
	af_fold_release(&r->fold);
	af_idmap_release(&r->by_tid);
	af_idmap_release(&r->by_pid);
	af_idmap_release(&r->by_async);
	af_buf_release(&r->scratch);
	af_tree_release(&r->slice_tree);
	free(r);
}
