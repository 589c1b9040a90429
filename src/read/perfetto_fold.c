/* perfetto_fold.c: the gathered slice events folded by the slice builder
 * (slices.h) in time order, equal times in file order: sorted on their
 * time when they are few and span under 4.3 s, else merged from the runs
 * they came in. While streaming, the events every source has passed (the
 * watermark) are folded as the walk goes, so memory follows the open
 * slices and the tree, not the trace. */
#include "perfetto_int.h"
#include "radix.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* Events in time order, equal times in file order, without sorting them
 * all: they come as runs already in order (an ftrace bundle is one CPU's
 * events; only bundles overlap), so a merge of the runs with a heap holds
 * just the runs open at one time. A run joins the heap when the merge
 * reaches its first time; runs are ordered by that time once. */
struct run { uint64_t ts; size_t at, end; };   /* ts: ev[at].ts, the next event's */

/* A run in the heap, with the key of its next event kept beside it (a
 * comparison reads no run). */
struct head { uint64_t ts; size_t at, run; };

struct merge {
	const struct pev *ev;
	struct run *runs;                     /* by first time, then file order */
	size_t nruns, next;                   /* runs[next] is the next to join */
	struct head *heap;                    /* least first */
	size_t nheap;
};

/* a's next event comes before b's (equal times: file order). */
static inline bool head_before(const struct head *a, const struct head *b)
{
	return a->ts != b->ts ? a->ts < b->ts : a->at < b->at;
}

static void heap_push(struct merge *g, size_t r)
{
	struct head h = { g->runs[r].ts, g->runs[r].at, r };
	size_t i = g->nheap++;
	for (; i > 0 && head_before(&h, &g->heap[(i - 1) / 2]); i = (i - 1) / 2)
		g->heap[i] = g->heap[(i - 1) / 2];
	g->heap[i] = h;
}

/* Put h in heap[0]'s place and move it down to where it belongs. h comes
 * by value: written into heap[0] field by field and read back whole, it
 * would stall on the stores. */
static inline void heap_sift_down(struct merge *g, struct head h)
{
	size_t i = 0, n = g->nheap;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && head_before(&g->heap[c + 1], &g->heap[c]))
			c++;
		if (!head_before(&g->heap[c], &h))
			break;
		g->heap[i] = g->heap[c];
		i = c;
	}
	g->heap[i] = h;
}

static int by_first(const void *a, const void *b)
{
	const struct run *x = a, *y = b;   /* not yet begun: at is the start */
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

static void merge_init(struct merge *g, const struct pev *ev, size_t n)
{
	*g = (struct merge){ .ev = ev };
	size_t cap = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || ev[i].ts < ev[i - 1].ts) {
			af_grow(&g->runs, &cap, g->nruns + 1, sizeof *g->runs);
			g->runs[g->nruns++] = (struct run){ ev[i].ts, i, i };
		}
		g->runs[g->nruns - 1].end = i + 1;
	}
	if (g->nruns > 1)
		qsort(g->runs, g->nruns, sizeof *g->runs, by_first);
	g->heap = af_xcalloc(g->nruns ? g->nruns : 1, sizeof *g->heap);
}

/* The next event in time order, or NULL when none is left at or before
 * time upto. */
static const struct pev *merge_next(struct merge *g, uint64_t upto)
{
	while (g->next < g->nruns) {   /* runs whose first event comes now join */
		const struct run *r = &g->runs[g->next];
		struct head h = { r->ts, r->at, g->next };
		if (g->nheap && !head_before(&h, &g->heap[0]))
			break;
		heap_push(g, g->next++);
	}
	if (g->nheap == 0 || g->heap[0].ts > upto)
		return NULL;
	struct head h = g->heap[0];
	const struct pev *e = &g->ev[h.at];
	if (++h.at < g->runs[h.run].end) {
		h.ts = g->ev[h.at].ts;
		heap_sift_down(g, h);
	} else if (--g->nheap) {
		heap_sift_down(g, g->heap[g->nheap]);
	}
	return e;
}

static void merge_release(struct merge *g)
{
	free(g->runs);
	free(g->heap);
}

/* ns to the µs the slice builder counts in, rounded */
static uint64_t us(uint64_t ns)
{
	return ns <= UINT64_MAX - 500 ? (ns + 500) / 1000 : ns / 1000 + (ns % 1000 >= 500);   /* one division */
}

/* The slice builder, made with every name on first use: the same calls
 * whether the events are folded as they stream or at the end. */
static struct af_slices *slices_of(struct pf *f)
{
	if (f->slices)
		return f->slices;
	struct af_slices *r = f->slices = af_slices_new(f->p, f->o, f->d);
	for (size_t i = 0; i < f->nnames; i++) {
		const struct name *n = &f->names[i];
		if (n->thread)
			af_slices_name_thread(r, n->id, n->pid, (const char *)n->s, n->n);
		else
			af_slices_name_process(r, (int64_t)n->id, (const char *)n->s, n->n);
	}
	return r;
}

/* The text of a gathered event. */
static const char *ev_text(const struct pf *f, const struct pev *e)
{
	if (!f->copy)
		return (const char *)e->u.s;
	return f->texts.data ? f->texts.data + e->u.at : "";
}

static void fold_event(struct pf *f, struct af_slices *r, const struct pev *e)
{
	const struct actor *a = &f->actors[e->actor];
	uint32_t kind = e->n_kind & 3, n = e->n_kind >> 2;
	if (kind == EV_PRINT) {
		struct af_ftrace_event ae = { .tid = a->tid, .tgid = -1, .ts = us(e->ts),
			.event = "tracing_mark_write", .event_len = 18,
			.payload = ev_text(f, e), .payload_len = n };
		af_slices_ftrace(r, &ae);
	} else if (kind == EV_BEGIN) {
		af_slices_begin(r, a->tid, a->pid, us(e->ts), ev_text(f, e), n);
	} else if (kind == EV_MARK_BEGIN) {
		struct mark_name *m = &f->marks[e->u.mark.name];
		if (m->name == AF_NONE)
			m->name = af_slices_name(r, (const char *)m->s, m->n);
		af_slices_mark_begin(r, a->tid, e->u.mark.pid, us(e->ts), m->name);
	} else {
		af_slices_end(r, a->tid, us(e->ts));
	}
}

/* Sorting costs 16 bytes an event: batches up to this many (every batch of
 * a streaming walk, in practice, and small traces read at once). */
enum { SORT_MAX = 1 << 20 };

/* Fold the gathered events at or before time upto in time order (equal
 * times in file order) by sorting them on their time since the earliest:
 * false, with nothing folded, when that does not fit 32 bits (they span
 * 4.3 s or more) or they are too many. */
static bool fold_sorted(struct pf *f, struct af_slices *r, uint64_t upto)
{
	size_t m = 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (size_t i = 0; i < f->nev; i++) {
		uint64_t ts = f->ev[i].ts;
		if (ts <= upto) {
			m++;
			lo = ts < lo ? ts : lo;
			hi = ts > hi ? ts : hi;
		}
	}
	if (m == 0)
		return true;
	if (m > SORT_MAX || hi - lo > UINT32_MAX || f->nev > UINT32_MAX)
		return false;
	af_grow(&f->order, &f->cap_order, 2 * m, sizeof *f->order);
	for (size_t i = 0, j = 0; i < f->nev; i++)
		if (f->ev[i].ts <= upto)
			f->order[j++] = (f->ev[i].ts - lo) << 32 | i;
	const uint64_t *order = af_radix_sort_high(f->order, f->order + m, m, (uint32_t)(hi - lo));
	for (size_t j = 0; j < m; j++)
		fold_event(f, r, &f->ev[(uint32_t)order[j]]);
	f->folded = hi;
	f->folded_any = true;
	return true;
}

/* The same by merging the runs the events came in (memory for a run, not
 * an event). */
static void fold_merged(struct pf *f, struct af_slices *r, uint64_t upto)
{
	struct merge g;
	merge_init(&g, f->ev, f->nev);
	for (const struct pev *e; (e = merge_next(&g, upto));) {
		fold_event(f, r, e);
		f->folded = e->ts;
		f->folded_any = true;
	}
	merge_release(&g);
}

/* Fold the gathered events at or before time upto, in time order (equal
 * times in file order), and keep the rest in file order. */
static void fold_upto(struct pf *f, uint64_t upto)
{
	if (f->nev == 0)
		return;
	struct af_slices *r = slices_of(f);
	if (!fold_sorted(f, r, upto))
		fold_merged(f, r, upto);
	size_t kept = 0;
	f->texts_next.len = 0;
	for (size_t i = 0; i < f->nev; i++) {
		struct pev e = f->ev[i];
		if (e.ts <= upto)
			continue;
		if (f->copy && pf_has_text(e.n_kind & 3)) {   /* the texts of the events kept move to the front */
			size_t at = f->texts_next.len;
			af_buf_add(&f->texts_next, ev_text(f, &e), e.n_kind >> 2);
			e.u.at = at;
		}
		f->ev[kept++] = e;
	}
	f->nev = kept;
	if (f->copy) {
		struct af_buf t = f->texts;
		f->texts = f->texts_next;
		f->texts_next = t;
	}
}

/* Past this many kept events a source that has been quiet since the last
 * fold no longer holds the watermark back (an idle CPU would keep every
 * event in memory). If it comes back with an old event, the reader starts
 * again without streaming. */
enum { STREAM_QUIET_AFTER = 1 << 19 };
/* Mapped input is let go of in steps of this, one step behind the walk. */
#define STREAM_CONSUME_STEP ((size_t)4 << 20)

/* The time every source has passed: no event can come before it unless a
 * source starts late or goes back, which add_event catches. */
static uint64_t watermark(const struct pf *f)
{
	bool crowded = f->nev > STREAM_QUIET_AFTER;
	uint64_t w = UINT64_MAX;
	bool any = false;
	for (size_t i = 0; i < f->nsources; i++) {
		const struct source *src = &f->sources[i];
		if (crowded && src->flush != f->flushes)
			continue;
		w = src->last < w ? src->last : w;
		any = true;
	}
	return any ? w : 0;
}

/* After each packet of a streaming walk (at: its offset): fold what the
 * watermark has passed, let go of the input read long ago. -1 when the
 * walk cannot stream on (an event too late, a name too late, compressed
 * packets). */
int pf_stream_step(struct pf *f, size_t at)
{
	if (!f->stream)
		return 0;
	if (f->broken)
		return -1;
	if (f->nev >= f->flush_at) {
		fold_upto(f, watermark(f));
		f->flushes++;
		size_t more = f->nev > f->nsources ? f->nev : f->nsources;
		f->flush_at = f->nev + (more > STREAM_FOLD_MIN ? more : STREAM_FOLD_MIN);
	}
	if (at - f->consumed >= 2 * STREAM_CONSUME_STEP) {
		f->consumed = at - STREAM_CONSUME_STEP;
		af_input_consumed(f->in, f->consumed);
	}
	return 0;
}

int pf_fold_slices(struct pf *f)
{
	fold_upto(f, UINT64_MAX);
	return af_slices_finish(slices_of(f), "events but no slices (no atrace B|pid|name marks in ftrace print events, no track-event slices); try --cpu-samples");
}
