/* read_chrome.c: Chrome trace-event JSON (chrome://tracing, Perfetto UI's
 * JSON export, DevTools' Performance panel, Flutter DevTools timelines,
 * Hermes' sampling profiles),
 * parsed by chrome_parse.c and folded here by the rules of
 * docs/semantics.md:
 *
 *   - slices per (pid, tid): B opens, E closes the innermost open slice (a
 *     named E that names another slice is counted), X opens a slice that
 *     ends dur later; events are taken in time order, B and E of one time in
 *     file order, and X slices of one start longest first (Chrome writes an
 *     X when it ends, callees first). Slices open at the end close at their
 *     thread's last event.
 *   - samples + stackFrames: a sample's stack is its frame and the frame's
 *     parents; each sample weighs the time to its thread's next sample (the
 *     last weighs nothing). V8 CPU profiles' samples (Profile/ProfileChunk
 *     and CpuProfile events, chrome_profile.c) are samples of the thread
 *     their Profile event names. A file with samples draws them, not its
 *     slices.
 *   - --async: async b/e and S/F pairs (by pid, category, id and name)
 *     instead, process -> name, weighed by end - begin.
 *
 * The tree is all -> "process (pid)" -> "thread (tid)" -> frames, times in
 * µs (the file's, rounded), counted from the trace's first event. */
#include "chrome.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t us(const struct chrome *c, int64_t ns)
{
	int64_t rel = ns - c->min_ts;
	return rel > 0 ? (uint64_t)(rel + 500) / 1000 : 0;
}

/* ---- threads and processes ---- */

static uint32_t proc_node(struct chrome *c, struct chrome_proc *pr)
{
	if (pr->node == AF_NONE) {
		pr->node = af_tree_add_child(&c->p->tree, AF_ROOT, af_tree_intern_str(&c->p->tree, ""));
		pr->pindex = af_profile_add_process(c->p, (uint64_t)pr->pid, "", 0, pr->node);
	}
	return pr->node;
}

/* The thread's node, made (below its process's) when it first draws. */
static void start_thread(struct chrome *c, struct chrome_thread *th)
{
	if (th->node != AF_NONE)
		return;
	struct chrome_proc *pr = &c->procs[th->proc];
	uint32_t pnode = proc_node(c, pr);
	pr->nthreads++;
	th->node = af_tree_add_child(&c->p->tree, pnode, af_tree_intern_str(&c->p->tree, ""));
	th->fold.root = th->node;
	th->pindex = af_profile_add_thread(c->p, (uint64_t)th->tid, "", 0);
	struct af_thread *t = &c->p->threads[th->pindex];
	t->node = th->node;
	t->pid = (uint64_t)th->pid;
	t->process_node = pnode;
}

/* "name (id)" for a node, the name cleaned as a frame's. */
static void name_node(struct chrome *c, uint32_t node, const char *name, int64_t id)
{
	char buf[64];
	struct af_buf *b = &c->scratch;
	b->len = 0;
	af_buf_puts(b, name);
	snprintf(buf, sizeof buf, " (%" PRId64 ")", id);
	af_buf_puts(b, buf);
	af_tree_rename(&c->p->tree, node, af_tree_intern(&c->p->tree, b->data, b->len));
}

static void name_all(struct chrome *c)
{
	const struct af_tree *t = &c->p->tree;
	char fallback[48];
	for (size_t i = 0; i < c->nthreads; i++) {
		struct chrome_thread *th = &c->threads[i];
		if (th->node == AF_NONE)
			continue;
		snprintf(fallback, sizeof fallback, "thread-%" PRId64, th->tid);
		char *name = th->name != AF_NONE ? af_xstrndup(af_tree_name(t, th->name), af_tree_name_len(t, th->name))
			: af_xstrndup(fallback, strlen(fallback));
		struct af_thread *pt = &c->p->threads[th->pindex];
		free(pt->name);
		pt->name = name;
		pt->events = th->events;
		pt->first_time = th->fold.first;
		pt->last_time = th->fold.last;
		name_node(c, th->node, name, th->tid);
	}
	for (size_t i = 0; i < c->nprocs; i++) {
		struct chrome_proc *pr = &c->procs[i];
		if (pr->node == AF_NONE)
			continue;
		snprintf(fallback, sizeof fallback, "process-%" PRId64, pr->pid);
		char *name = pr->name != AF_NONE ? af_xstrndup(af_tree_name(t, pr->name), af_tree_name_len(t, pr->name))
			: af_xstrndup(fallback, strlen(fallback));
		struct af_process *pp = &c->p->processes[pr->pindex];
		free(pp->name);
		pp->name = name;
		name_node(c, pr->node, name, pr->pid);
	}
}

/* ---- slices ---- */

/* Time order; at one time B and E in file order before X, X longest first. */
static int rec_order(const void *a, const void *b)
{
	const struct chrome_rec *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	int cx = x->ph == 'X', cy = y->ph == 'X';
	if (cx != cy)
		return cx - cy;
	if (cx && x->dur != y->dur)
		return x->dur > y->dur ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* recs grouped by thread (in file order within each), then each thread's
 * sorted: *starts[i] is where thread i's begin (nthreads + 1 entries). */
static struct chrome_rec *by_thread(struct chrome *c, size_t **starts)
{
	size_t *at = af_xcalloc(c->nthreads + 1, sizeof *at);
	for (size_t i = 0; i < c->nrecs; i++)
		at[c->recs[i].thread + 1]++;
	for (size_t t = 0; t < c->nthreads; t++)
		at[t + 1] += at[t];
	struct chrome_rec *out = af_xmalloc((c->nrecs ? c->nrecs : 1) * sizeof *out);
	size_t *fill = af_xmalloc((c->nthreads + 1) * sizeof *fill);
	memcpy(fill, at, (c->nthreads + 1) * sizeof *fill);
	for (size_t i = 0; i < c->nrecs; i++)
		out[fill[c->recs[i].thread]++] = c->recs[i];
	free(fill);
	for (size_t t = 0; t < c->nthreads; t++) {
		size_t n = at[t + 1] - at[t];
		bool sorted = true;
		for (size_t i = 1; i < n && sorted; i++)
			sorted = rec_order(&out[at[t] + i - 1], &out[at[t] + i]) <= 0;
		if (!sorted)
			qsort(out + at[t], n, sizeof *out, rec_order);
	}
	*starts = at;
	return out;
}

struct open_slice { bool x; uint64_t end; };

struct slice_stack {
	struct open_slice *s;
	size_t n, cap;
};

/* Close the X slices on top that ended by time t. */
static void close_x(struct chrome *c, struct af_fold *f, struct chrome_thread *th,
		    struct slice_stack *st, uint64_t t)
{
	(void)c;
	while (st->n && st->s[st->n - 1].x && st->s[st->n - 1].end <= t) {
		af_fold_exit(f, &th->fold, 0, 0, st->s[st->n - 1].end);
		st->n--;
	}
}

static void push(struct slice_stack *st, bool x, uint64_t end)
{
	af_grow(&st->s, &st->cap, st->n + 1, sizeof *st->s);
	st->s[st->n++] = (struct open_slice){ x, end };
}

static void fold_rec(struct chrome *c, struct af_fold *f, struct chrome_thread *th,
		     struct slice_stack *st, const struct chrome_rec *r)
{
	uint64_t t = us(c, r->ts);
	close_x(c, f, th, st, t);
	if (r->ph == 'E') {
		if (st->n == 0) {
			c->st.unmatched_ends++;
			return;
		}
		if (r->name != AF_NONE && th->fold.stack[th->fold.depth - 1].name != r->name)
			c->st.name_mismatches++;
		af_fold_exit(f, &th->fold, 0, 0, t);
		st->n--;
		return;
	}
	uint64_t end = r->ph == 'X' ? us(c, r->ts + r->dur) : 0;
	if (r->ph == 'X' && end == t) {
		c->st.zero_x++;   /* no time: nothing to draw */
		return;
	}
	start_thread(c, th);
	af_fold_enter(f, &th->fold, 0, r->name, t);
	push(st, r->ph == 'X', end);
}

/* The slices of every thread; open ones close at their end (X) or at the
 * thread's last event (B). */
static void fold_slices(struct chrome *c, struct af_fold *f)
{
	size_t *at;
	struct chrome_rec *recs = by_thread(c, &at);
	struct slice_stack st = { NULL, 0, 0 };
	for (size_t t = 0; t < c->nthreads; t++) {
		struct chrome_thread *th = &c->threads[t];
		st.n = 0;
		for (size_t i = at[t]; i < at[t + 1]; i++)
			fold_rec(c, f, th, &st, &recs[i]);
		while (st.n) {
			struct open_slice *o = &st.s[st.n - 1];
			c->st.open_at_end += !o->x;
			af_fold_exit(f, &th->fold, 0, 0, o->x ? o->end : th->fold.last);
			st.n--;
		}
		if (th->node != AF_NONE)
			af_fold_finish(f, &th->fold);
	}
	free(st.s);
	free(recs);
	free(at);
}

/* ---- samples ---- */

static int sample_order(const void *a, const void *b)
{
	const struct chrome_sample *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Each frame's parent as an index into frames[] (AF_NONE: none, or one the
 * table lacks: counted, the chain ends there), chains that loop cut where
 * they come back (each loop counted once): a sample's stack is then one
 * walk up, never longer than the frames above it. */
static uint32_t *frame_parents(struct chrome *c)
{
	enum { TODO = 0, BUSY = 1, DONE = 2 };
	size_t n = c->nframes ? c->nframes : 1;
	uint32_t *up = af_xmalloc(n * sizeof *up), *path = af_xmalloc(n * sizeof *path);
	uint8_t *state = af_xcalloc(n, 1);
	for (size_t i = 0; i < c->nframes; i++) {
		uint64_t k = c->frames[i].parent;
		up[i] = k == CHROME_NO_FRAME ? AF_NONE : af_idmap_get(&c->frame_index, k);
		c->st.unknown_frames += k != CHROME_NO_FRAME && up[i] == AF_NONE;
	}
	for (size_t i = 0; i < c->nframes; i++) {
		size_t m = 0;
		for (uint32_t k = (uint32_t)i; k != AF_NONE && state[k] != DONE; k = up[k]) {
			if (state[k] == BUSY) {
				up[path[m - 1]] = AF_NONE;
				c->st.frame_loops++;
				break;
			}
			state[k] = BUSY;
			path[m++] = k;
		}
		while (m)
			state[path[--m]] = DONE;
	}
	free(state);
	free(path);
	return up;
}

/* The names of sample s's stack, outermost first, into *stack; its depth.
 * A frame without a name (a V8 profile's "(root)") is none. */
static size_t sample_stack(struct chrome *c, const uint32_t *up, uint64_t key, uint32_t **stack,
			   size_t *cap)
{
	size_t n = 0;
	uint32_t i = key == CHROME_NO_FRAME ? AF_NONE : af_idmap_get(&c->frame_index, key);
	c->st.unknown_frames += key != CHROME_NO_FRAME && i == AF_NONE;
	for (; i != AF_NONE; i = up[i]) {
		if (c->frames[i].name == AF_NONE)
			continue;
		af_grow(stack, cap, n + 1, sizeof **stack);
		(*stack)[n++] = c->frames[i].name;
	}
	for (size_t j = 0; j < n / 2; j++) {
		uint32_t x = (*stack)[j];
		(*stack)[j] = (*stack)[n - 1 - j];
		(*stack)[n - 1 - j] = x;
	}
	return n;
}

/* Each thread's samples in time order: a frame lasts from the first sample
 * that has it to the next sample that does not (at the same depth under
 * the same frames), so each sample weighs the time to the next. */
static void fold_samples(struct chrome *c, struct af_fold *f)
{
	qsort(c->samples, c->nsamples, sizeof *c->samples, sample_order);
	uint32_t *up = frame_parents(c);
	uint32_t *cur = NULL, *prev = NULL;
	size_t cap_cur = 0, cap_prev = 0, nprev = 0;
	bool unknown = false;
	for (size_t i = 0; i < c->nsamples; i++) {
		const struct chrome_sample *s = &c->samples[i];
		struct chrome_thread *th = &c->threads[s->thread];
		bool first = i == 0 || s->thread != c->samples[i - 1].thread;
		nprev = first ? 0 : nprev;
		start_thread(c, th);
		uint64_t t = us(c, s->ts);
		size_t n = nprev, k = 0;
		if (!first && s->frame == c->samples[i - 1].frame) {
			c->st.unknown_frames += unknown;   /* a run of one frame: one stack */
			k = n;
		} else {
			uint64_t was = c->st.unknown_frames;
			n = sample_stack(c, up, s->frame, &cur, &cap_cur);
			unknown = c->st.unknown_frames > was;
			while (k < n && k < nprev && cur[k] == prev[k])
				k++;
		}
		for (size_t j = nprev; j > k; j--)
			af_fold_exit(f, &th->fold, 0, 0, t);
		for (size_t j = k; j < n; j++)
			af_fold_enter(f, &th->fold, 0, cur[j], t);
		if (n == 0 && !th->fold.started) {
			th->fold.started = true;
			th->fold.first = th->fold.last = t;
		} else if (t > th->fold.last) {
			th->fold.last = t;
		}
		if (k != n || n != nprev) {   /* a new stack: it is the one before the next */
			uint32_t *x = prev;
			prev = cur;
			cur = x;
			size_t cx = cap_prev;
			cap_prev = cap_cur;
			cap_cur = cx;
		}
		nprev = n;
		if (i + 1 == c->nsamples || c->samples[i + 1].thread != s->thread)
			af_fold_finish(f, &th->fold);
	}
	free(cur);
	free(prev);
	free(up);
}

/* ---- async ---- */

static int async_order(const void *a, const void *b)
{
	const struct chrome_async *x = a, *y = b;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Pairs of begin and end in time order: process -> name, end - begin. */
static void fold_async(struct chrome *c)
{
	qsort(c->async, c->nasync, sizeof *c->async, async_order);
	struct af_idmap open;
	af_idmap_init(&open);
	for (size_t i = 0; i < c->nasync; i++) {
		const struct chrome_async *a = &c->async[i];
		bool found;
		uint32_t *slot = af_idmap_slot(&open, a->key, &found);
		if (a->begin) {
			if (found)
				c->st.async_dups++;   /* keep the first, as atrace does */
			else
				*slot = (uint32_t)i;
			continue;
		}
		if (!found) {
			c->st.async_orphans++;
			af_idmap_del(&open, a->key);
			continue;
		}
		const struct chrome_async *b = &c->async[*slot];
		af_idmap_del(&open, a->key);
		uint32_t node = af_tree_child(&c->p->tree, proc_node(c, &c->procs[b->proc]), b->name);
		af_tree_add_self(&c->p->tree, node, us(c, a->ts) - us(c, b->ts));
	}
	c->st.async_unfinished = open.n;
	af_idmap_release(&open);
}

/* ---- --info ---- */

static void report(struct chrome *c, bool samples)
{
	struct af_profile *p = c->p;
	const struct chrome_stats *s = &c->st;
	af_profile_info(p, "container", "%s", c->object_form ? "JSON object (traceEvents)" : "JSON array");
	af_profile_info(p, "events", "%" PRIu64, s->events);
	if (c->have_ts)
		af_profile_info(p, "time span", "%" PRIu64 " µs", us(c, c->max_ts));
	af_profile_info(p, "slices", "%" PRIu64 " B, %" PRIu64 " E, %" PRIu64 " X%s", s->slices_b, s->slices_e,
			s->slices_x, samples && c->nrecs ? " (not drawn: the samples are)" : "");
	af_profile_info(p, "async", "%" PRIu64 " begun (b/S), %" PRIu64 " ended (e/F)%s", s->async_begins,
			s->async_ends, c->o->async ? "" : " (--async draws them)");
	af_profile_info(p, "samples", "%" PRIu64 ", %" PRIu64 " stack frames", s->samples, s->frames);
	if (s->profiles || s->profile_chunks)
		af_profile_info(p, "V8 CPU profiles", "%" PRIu64 " (%" PRIu64 " chunks), %" PRIu64 " samples",
				s->profiles, s->profile_chunks, s->profile_samples);
	af_profile_info(p, "metadata events", "%" PRIu64, s->metadata);
	af_profile_info(p, "counters", "%" PRIu64, s->counters);
	af_profile_info(p, "instants", "%" PRIu64 " (and %" PRIu64 " async)", s->instants, s->instants_async);
	af_profile_info(p, "flow events", "%" PRIu64, s->flows);
	for (size_t i = 0; i < c->nprocs; i++) {
		const struct chrome_proc *pr = &c->procs[i];
		if (pr->node == AF_NONE)
			continue;
		char key[48];
		snprintf(key, sizeof key, "process %" PRId64, pr->pid);
		af_profile_info(p, key, "%s, %zu thread%s drawn", p->processes[pr->pindex].name, pr->nthreads,
				pr->nthreads == 1 ? "" : "s");
	}
	if (s->system_trace_events)
		af_profile_note(p, "the file's systemTraceEvents (ftrace text) are not drawn: -f atrace draws them");
	af_profile_warn(p, s->no_ph, "events without \"ph\" (ignored)");
	af_profile_warn(p, s->no_ts, "events or samples without \"ts\" (or \"sf\") (ignored)");
	af_profile_warn(p, s->bad_numbers, "numbers that could not be read (\"ts\", \"dur\", ids)");
	af_profile_warn(p, s->other, "events of unknown phases (ignored)");
	af_profile_warn(p, s->samples_ph, "P (sample) events without a samples table (ignored)");
	af_profile_warn(p, s->unmatched_ends, "slice ends (E) with no open slice on their thread (ignored)");
	af_profile_warn(p, s->name_mismatches, "slice ends (E) naming another slice than the open one (closed it anyway)");
	af_profile_warn(p, s->open_at_end, "slices still open at the end (closed at their thread's last event)");
	af_profile_warn(p, s->zero_x, "complete slices (X) shorter than 0.5 µs (not drawn)");
	af_profile_warn(p, c->fold_stats.time_backwards, "events earlier than their thread's previous one (clamped)");
	af_profile_warn(p, s->unknown_frames, "samples or stack frames naming a frame that stackFrames lacks (cut there)");
	af_profile_warn(p, s->frame_loops, "stack frames whose parents loop (cut where they come back)");
	af_profile_warn(p, s->profile_orphans, "V8 profile samples of no Profile event (ignored)");
	af_profile_warn(p, s->profile_dups, "Profile events repeating a profile's id (the first kept)");
	af_profile_warn(p, s->profile_unpaired, "V8 profile samples and timeDeltas that do not pair up (ignored)");
	af_profile_warn(p, s->profile_backwards, "V8 profile samples earlier than the one before (drawn at its time)");
	if (c->o->async) {
		af_profile_warn(p, s->async_unfinished, "async slices never ended (not drawn)");
		af_profile_warn(p, s->async_orphans, "async ends with no matching begin (ignored)");
		af_profile_warn(p, s->async_dups, "async begins repeating an open one (the first kept)");
	}
}

static int read_chrome(struct af_profile *p, const struct af_input *in, const struct af_read_opts *o,
		       struct af_diag *d)
{
	struct chrome *c = af_xmalloc(sizeof *c);
	chrome_init(c, p, o);
	p->unit = "µs";
	p->clock = "wall";
	int rc = chrome_parse(c, in, d);
	if (rc == 0)
		chrome_profiles_resolve(c);
	bool samples = c->nsamples > 0 && c->nframes > 0;
	if (rc == 0) {
		struct af_fold f = { .tree = &p->tree, .timeline = o->timeline, .window = o->window,
				     .from = o->from, .to = o->to };
		if (o->async)
			fold_async(c);
		else if (samples)
			fold_samples(c, &f);
		else
			fold_slices(c, &f);
		c->fold_stats = f.stats;
		af_fold_release(&f);
		name_all(c);
		report(c, samples);
	}
	chrome_release(c);
	free(c);
	return rc;
}

/* ---- detection ---- */

static const char *find(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	for (const char *p = s, *end = s + n; (size_t)(end - p) >= k; p++) {
		p = memchr(p, lit[0], (size_t)(end - p) - k + 1);
		if (!p)
			return NULL;
		if (memcmp(p, lit, k) == 0)
			return p;
	}
	return NULL;
}

static size_t skip_ws(const char *s, size_t n, size_t i)
{
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	return i;
}

/* Sure for an array of objects with "ph" (an event), or an object with
 * "traceEvents" in its first 64 KiB; one holding "systemTraceEvents" there
 * is atrace's (ftrace text in JSON) unless it also has events. */
static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	const char *s = (const char *)data;
	size_t i = skip_ws(s, len, 0), head = len < 65536 ? len : 65536;
	if (i == len || (s[i] != '[' && s[i] != '{'))
		return AF_SNIFF_NO;
	if (s[i] == '[') {
		size_t j = skip_ws(s, len, i + 1);
		if (j < len && s[j] == ']')
			return AF_SNIFF_MAYBE;
		return j < len && s[j] == '{' && find(s + j, head - j, "\"ph\"") ? AF_SNIFF_YES : AF_SNIFF_NO;
	}
	const char *te = find(s, head, "\"traceEvents\"");
	if (!te)
		return AF_SNIFF_NO;
	if (find(s, head, "\"systemTraceEvents\"")) {
		size_t j = skip_ws(s, head, (size_t)(te - s) + 13);
		j = j < head && s[j] == ':' ? skip_ws(s, head, j + 1) : j;
		j = j < head && s[j] == '[' ? skip_ws(s, head, j + 1) : j;
		return j < head && s[j] == '{' ? AF_SNIFF_YES : AF_SNIFF_NO;
	}
	return AF_SNIFF_YES;
}

const struct af_reader af_reader_chrome = {
	.name = "chrome", .what = "a Chrome JSON trace", .sniff = sniff,
	.read = read_chrome, .nothing = "no slices (B/E or X events), samples or async events to draw",
};
