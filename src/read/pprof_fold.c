/* pprof_fold.c: a pprof profile's samples into the call tree, built as a
 * trie: the samples below a node are split by their next frame, and each
 * part goes below the child of that name, made once when the part is. A
 * node's children are then made while its samples are read, and never
 * again: no child is looked up in a table (the path table of every node
 * was 16 MiB for the bench's 10 MB profile, a cache miss a frame), and the
 * nodes are made depth first, so the walks of every back end read the node
 * array nearly in order.
 *
 * The samples start in an order that keeps together those that share
 * their callers (sorted by thread and by their first location ids from
 * the root), and each part keeps it, so a node's children are made in the
 * order in which the samples first reach them: the order of siblings, which
 * the pprof writer follows, is that of folding the samples one after
 * another in that order, as this reader did before. */
#include "pprof_int.h"
#include "radix.h"
#include "core/tree.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Samples kept at most before those are folded: a profile of many small
 * samples keeps a bounded few MiB (about 100 bytes a sample while folded), not a
 * record of every sample. */
enum { PENDING_MAX = 1 << 18 };

static size_t room_size(size_t n, size_t ids, size_t names);

static void read_job(void *arg)
{
	struct pp *f = arg;
	af_prefault_read(f->data, f->len);
}

void pp_read_ahead(struct pp *f)
{
	af_job_start(&f->reading, read_job, f);
}

void pp_read_ahead_join(struct pp *f)
{
	af_job_join(&f->reading);
}

static void prefault_job(void *arg)
{
	struct pp *f = arg;
	pp_read_ahead_join(f);   /* one job at a time */
	for (size_t i = 0; i < sizeof f->faults / sizeof *f->faults; i++)
		af_prefault(f->faults[i].p, f->faults[i].n);
}

void pp_fold_reserve(struct pp *f, uint64_t n, uint64_t bytes)
{
	size_t cap = n < PENDING_MAX ? (size_t)n : PENDING_MAX;
	if (cap > f->cap_pending) {   /* at once: no copy of it as it grows */
		free(f->pending);
		f->pending = af_xmalloc_huge(cap * sizeof *f->pending);
		f->cap_pending = cap;
	}
	/* a batch's ids: their share of the samples' bytes (all of them in
	 * one batch), a quarter more; a batch that needs more makes its own */
	uint64_t ids = n <= cap ? bytes : bytes / n * cap / 4 * 5;
	f->room_samples = cap;
	f->room_ids = (size_t)(ids + 7) & ~(size_t)7;   /* the memos after them aligned */
	f->room_names = f->p->tree.cap_names;
	f->room = af_xmalloc_huge(room_size(cap, f->room_ids, 2 * f->room_names));
	/* in the order they are first written: the tables (reserved by the
	 * caller; in 4 KiB pages below 1 MiB, a fault each), the samples' list
	 * and room, the tree's nodes */
	f->faults[0].p = f->line_fns;
	f->faults[0].n = f->cap_line_fns * sizeof *f->line_fns;
	f->faults[1].p = f->fns;
	f->faults[1].n = f->cap_fns * sizeof *f->fns;
	f->faults[2].p = f->strs;
	f->faults[2].n = f->cap_strs * sizeof *f->strs;
	f->faults[3].p = f->pending;
	f->faults[3].n = cap * sizeof *f->pending;
	f->faults[4].p = f->room;
	f->faults[4].n = room_size(cap, f->room_ids, 2 * f->room_names);
	struct af_tree *t = &f->p->tree;
	f->faults[5].p = t->nodes + t->nnodes;
	f->faults[5].n = (t->cap_nodes - t->nnodes) * sizeof *t->nodes;
	af_job_start(&f->prefault, prefault_job, f);
}

void pp_prefault_join(struct pp *f)
{
	af_job_join(&f->prefault);
}

/* The frames, after the prefault job (pp_fold_reserve): one job at a
 * time beside the reader on two cores. */
static void locate_job(void *arg)
{
	struct pp *f = arg;
	pp_prefault_join(f);
	pp_locate_all(f);
}

void pp_locate_start(struct pp *f)
{
	af_job_start(&f->locate, locate_job, f);
}

void pp_tables_ready(struct pp *f)
{
	af_job_join(&f->locate);
}

/* Pack f->stack[0..nlocs) into recoded; the bytes' offset there (*len: how many) */
static size_t recode(struct pp *f, size_t nlocs, size_t *len)
{
	af_grow(&f->recoded, &f->cap_recoded, f->nrecoded + nlocs * 10, 1);
	size_t from = f->nrecoded;
	for (size_t i = 0; i < nlocs; i++) {
		uint64_t v = f->stack[i];
		for (; v >= 0x80; v >>= 7)
			f->recoded[f->nrecoded++] = (uint8_t)(v | 0x80);
		f->recoded[f->nrecoded++] = (uint8_t)v;
	}
	*len = f->nrecoded - from;
	return from;
}

/* The sample kept in pending, not folded yet */
static void keep(struct pp *f, uint32_t root, uint64_t w, const uint8_t *ids, size_t len, size_t nlocs,
		 uint64_t at)
{
	if (!ids) {   /* ids not as one packed field: packed here */
		size_t from = recode(f, nlocs, &len);
		af_grow(&f->late, &f->cap_late, f->nlate + 2, sizeof *f->late);
		f->late[f->nlate++] = f->npending;
		f->late[f->nlate++] = from;
	}
	if (f->npending == f->cap_pending)
		af_grow_huge(&f->pending, &f->cap_pending, f->npending + 1, sizeof *f->pending);
	f->pending[f->npending++] = (struct pending){ ids, w, at, (uint32_t)len, root };
}

int pp_fold_later(struct pp *f, uint32_t root, uint64_t w, const uint8_t *ids, size_t len, size_t nlocs,
		  uint64_t at)
{
	keep(f, root, w, ids, len, nlocs, at);
	return f->npending == PENDING_MAX ? pp_fold_all(f) : 0;
}

/* recoded is where it stays now: the samples kept there point into it */
static void place_recoded(struct pp *f)
{
	for (size_t i = 0; i < f->nlate; i += 2)
		f->pending[f->late[i]].ids = f->recoded + f->late[i + 1];
	f->nlate = 0;
}

/* How many bytes at the end of b's ids are the end of a's too, from a
 * varint's start: those ids are the same callers. */
static uint32_t shared_end(const struct pending *a, const struct pending *b)
{
	const uint8_t *x = a->ids + a->len, *y = b->ids + b->len;
	size_t k = 0, most = a->len < b->len ? a->len : b->len;
	for (; k + 8 <= most; k += 8) {   /* 8 bytes a step: the last byte is the highest */
		uint64_t u = af_le(x - k - 8, 8), v = af_le(y - k - 8, 8);
		if (u != v) {
			k += (size_t)__builtin_clzll(u ^ v) / 8;
			goto cut;
		}
	}
	while (k < most && x[-1 - (ptrdiff_t)k] == y[-1 - (ptrdiff_t)k])
		k++;
cut:;
	bool whole = (k == a->len || x[-1 - (ptrdiff_t)k] < 0x80) && (k == b->len || y[-1 - (ptrdiff_t)k] < 0x80);
	if (whole || k == 0)
		return (uint32_t)k;
	const uint8_t *p = y - k;   /* a varint cut: from the end of its last byte on */
	while (*p >= 0x80)
		p++;
	return (uint32_t)(y - p - 1);
}

/* ---- the trie ---- */

enum { END = UINT32_MAX, BAD = UINT32_MAX - 1 };   /* no next sample or frame; a bad id */

/* A sample while folded: its location ids ids[0..left) still to read,
 * from the end, and nmulti frames of the last read at frames[multi...).
 * The first of a run: samples it to `last` in the order, whose ids read so
 * far are the same bytes as its own (and so the same frames), which go
 * where it goes, unread (their cur is not kept up); next: the first of
 * the next run below the same node. */
struct cur { const uint8_t *ids; uint64_t weight; uint32_t len, left, multi, nmulti, next, last; };

/* The samples below a node at a depth, listed as runs: those of a root
 * (name END), or of the child of node named name, made when they are
 * folded (depth first: a subtree's nodes are one run of the array); a
 * kid, a child being given the part of a group's samples below it. */
struct group { uint32_t node, name, head, depth, samples; uint64_t upto; };
struct kid { uint32_t name, head, tail, samples; };
/* which kid of the current group a name is (when gen is the group's) */
struct memo { uint32_t gen, kid; };

struct trie {
	struct pp *f;
	struct af_tree *t;
	struct cur *cur;
	uint32_t *share;               /* bytes at the end of a sample's ids that are the one before's */
	uint32_t *lower;               /* the next sample that shares less, or END */
	uint32_t fresh;                /* nodes from this one on are this batch's */
	uint32_t gen;
	uint64_t frames, most;         /* frames folded, and at most */
	struct memo *memo;             /* by name */
	uint8_t *ids;                  /* the samples' ids, copied in their order */
	struct kid *kids; size_t cap_kids;
	struct group *stack; size_t nstack, cap_stack;   /* upto: samples in stack[0..i] */
	/* a part of the fold given to a job (fold_apart), and, in that part,
	 * its nodes: own[i], numbered i, their parent, child and sibling
	 * too; a child of a node of the tree (of the groups it was given,
	 * the first `given` of its stack) is linked to it when they are moved
	 * into the tree, after the rest (graft) */
	struct trie *part;
	struct af_job job;
	int rc;
	bool apart, own_memos;
	size_t given;
	struct af_node *own; size_t nown, cap_own;
	struct link { uint32_t parent, node; } *links; size_t nlinks, cap_links;
};

/* The varint of ids[0..*left) that ends at its end, *left moved to its
 * start; false if longer than 10 bytes. The last byte of the ids is the
 * end of one (fast_sample). */
static inline bool back_id(const uint8_t *ids, uint32_t *left, uint64_t *v)
{
	uint32_t n = *left;
	if (n >= 4) {   /* ids of one to three bytes, most of a profile's */
		uint32_t w = (uint32_t)af_le(ids + n - 4, 4), stop = ~w & 0x00808080u;
		if (stop) {
			unsigned skip = 32 - (unsigned)__builtin_clz(stop);   /* 8, 16 or 24 bits */
			*left = n - 4 + skip / 8;
			w >>= skip;
			*v = (w & 0x7f) | (w >> 1 & 0x3f80) | (w >> 2 & 0x1fc000);
			return true;
		}
	}
	uint32_t from = n - 1;
	while (from && ids[from - 1] >= 0x80)
		from--;
	*left = from;
	return af_proto_unpack(ids + from, n - from, v) == 1;
}

/* The next frame of sample c from the root; END past its leaf, BAD for an
 * id the profile does not have or too long. */
static inline uint32_t next_frame(const struct pp *f, struct cur *c)
{
	if (c->nmulti) {
		c->nmulti--;
		return f->frames[c->multi++].name;
	}
	uint64_t id;
	if (!c->left)
		return END;
	if (!back_id(c->ids, &c->left, &id))
		return BAD;
	struct lf v = pp_location(f, id);
	if (!(v.name & MULTI))
		return v.name;
	if (v.name == AF_NONE)
		return BAD;
	c->multi = (v.name & ~MULTI) + 1;
	c->nmulti = v.hash - 1;
	return f->frames[v.name & ~MULTI].name;
}

/* A new node of a part folded apart, below its node parent */
static inline uint32_t own_child(struct trie *b, uint32_t parent, uint32_t name)
{
	if (b->nown == b->cap_own)
		af_grow_huge(&b->own, &b->cap_own, b->nown + 1, sizeof *b->own);
	uint32_t id = (uint32_t)b->nown++;
	struct af_node *p = &b->own[parent];
	b->own[id] = (struct af_node){ name, parent, AF_NONE, p->first_child, 0, 0 };
	p->first_child = id;
	return id;
}

/* The same below node parent of the tree: linked to it in graft */
static uint32_t own_tree_child(struct trie *b, uint32_t parent, uint32_t name)
{
	if (b->nown == b->cap_own)
		af_grow_huge(&b->own, &b->cap_own, b->nown + 1, sizeof *b->own);
	uint32_t id = (uint32_t)b->nown++;
	if (b->nlinks == b->cap_links)
		af_grow(&b->links, &b->cap_links, b->nlinks + 1, sizeof *b->links);
	b->links[b->nlinks++] = (struct link){ parent, id };
	b->own[id] = (struct af_node){ name, 0, AF_NONE, AF_NONE, 0, 0 };
	return id;
}

/* The child of node named name: new, unless node is of an earlier batch,
 * whose children may be in the tree already. */
static inline uint32_t child(struct trie *b, uint32_t node, uint32_t name)
{
	if (b->apart)
		return own_child(b, node, name);
	return node >= b->fresh ? af_tree_new_child(b->t, node, name) : af_tree_child(b->t, node, name);
}

static inline void add_self(struct trie *b, uint32_t node, uint64_t w)
{
	if (!b->apart) {
		af_tree_add_self(b->t, node, w);
		return;
	}
	uint64_t *self = &b->own[node].self;
	*self = *self > UINT64_MAX - w ? UINT64_MAX : *self + w;
}

static inline void push(struct trie *b, uint32_t node, uint32_t name, uint32_t head, uint32_t depth, uint32_t samples)
{
	if (b->nstack == b->cap_stack)
		af_grow(&b->stack, &b->cap_stack, b->nstack + 1, sizeof *b->stack);
	uint64_t upto = (b->nstack ? b->stack[b->nstack - 1].upto : 0) + samples;
	b->stack[b->nstack++] = (struct group){ node, name, head, depth, samples, upto };
}

/* One sample below node at depth: the rest of its frames, one below the
 * other. -1 for a bad id or too many frames. */
static int fold_alone(struct trie *b, uint32_t node, struct cur *c, uint32_t depth)
{
	for (uint32_t name; (name = next_frame(b->f, c)) != END;) {
		if (name == BAD || ++depth > MAX_FRAMES)
			return -1;
		node = child(b, node, name);
		b->frames++;
	}
	add_self(b, node, c->weight);
	return 0;
}

/* The kid of the current group for name, made if it is the first. */
static uint32_t kid_of(struct trie *b, uint32_t name, uint32_t k, size_t *nk)
{
	struct memo *m = &b->memo[name];
	if (m->gen == b->gen)
		return m->kid;
	if (*nk == b->cap_kids)
		af_grow(&b->kids, &b->cap_kids, *nk + 1, sizeof *b->kids);
	*m = (struct memo){ b->gen, (uint32_t)*nk };
	b->kids[*nk] = (struct kid){ name, k, k, 0 };
	return (uint32_t)(*nk)++;
}

/* Run k of a group, after its first sample read its next frame (ended:
 * it had none; before it had read `used` bytes, and had nmulti frames at
 * frames[multi...]): the samples of the run whose ids are not the same as
 * those it read (share) start a run of their own, next in the group, from
 * that state. The first of them is found by jumps (lower) over those
 * sharing as much as one before them. */
static void split_run(struct trie *b, uint32_t k, bool ended, uint32_t used, uint32_t multi, uint32_t nmulti)
{
	struct cur *r = &b->cur[k];
	uint32_t x = k + 1, read = ended ? UINT32_MAX : r->len - r->left;
	while (x <= r->last && b->share[x] >= read)
		x = b->lower[x];
	if (x > r->last)
		return;
	struct cur *s = &b->cur[x];
	s->left = s->len - used;
	s->multi = multi;
	s->nmulti = nmulti;
	s->last = r->last;
	s->next = r->next;
	r->next = x;
	r->last = x - 1;
}

/* The samples of group g, split by their next frame in their order, each
 * part listed below its child (to fold next); those with none left end at
 * g's node. A run's first sample reads for it (split_run). */
static int fold_group(struct trie *b, struct group g)
{
	struct cur *cur = b->cur;
	if (cur[g.head].next == END && cur[g.head].last == g.head)
		return fold_alone(b, g.node, &cur[g.head], g.depth);
	if (++b->gen == 0) {   /* every memo stale again */
		memset(b->memo, 0, b->t->nnames * sizeof *b->memo);
		b->gen = 1;
	}
	size_t nk = 0;
	for (uint32_t k = g.head; k != END; k = cur[k].next) {
		struct cur *c = &cur[k];
		uint32_t used = c->len - c->left, multi = c->multi, nmulti = c->nmulti;
		uint32_t name = next_frame(b->f, c);
		if (name == BAD)
			return -1;
		split_run(b, k, name == END, used, multi, nmulti);
		if (name == END) {   /* a run of one: the next sample's ids are longer */
			add_self(b, g.node, c->weight);
			continue;
		}
		b->frames += c->last - k + 1;
		size_t made = nk;
		uint32_t kid = kid_of(b, name, k, &nk);
		if (nk == made)
			cur[b->kids[kid].tail].next = k;
		b->kids[kid].tail = k;
		b->kids[kid].samples += c->last - k + 1;
	}
	if (nk && g.depth >= MAX_FRAMES)
		return -1;
	while (nk--) {   /* the first child on top: folded first */
		cur[b->kids[nk].tail].next = END;
		push(b, g.node, b->kids[nk].name, b->kids[nk].head, g.depth + 1, b->kids[nk].samples);
	}
	return 0;
}

/* The samples in order (cur, from pending by order), a run of those of
 * each root, each's shared bytes with the one before it noted, and the
 * next sample that shares fewer; their ids copied to b->ids, at bytes. */
static void list_samples(struct trie *b, const uint32_t *order, size_t n, size_t at)
{
	const struct pending *pd = b->f->pending;
	uint32_t end = (uint32_t)n - 1;
	for (size_t i = n; i-- > 0;) {
		/* the order is the file's shuffled: fetch ahead what a cache miss
		 * each would otherwise wait for (a sample's entry, then its ids) */
		if (i >= 16)
			__builtin_prefetch(&pd[order[i - 16]]);
		if (i >= 8 && pd[order[i - 8]].len) {   /* (a sample of no frames has no ids) */
			const struct pending *ahead = &pd[order[i - 8]];
			__builtin_prefetch(ahead->ids);
			__builtin_prefetch(ahead->ids + ahead->len - 1);
		}
		const struct pending *s = &pd[order[i]], *before = i ? &pd[order[i - 1]] : NULL;
		bool first = !before || before->root != s->root;
		at -= s->len;   /* ids copied in the order: the fold reads them so */
		if (s->len)
			memcpy(b->ids + at, s->ids, s->len);
		b->cur[i] = (struct cur){ b->ids + at, s->weight, s->len, s->len, 0, 0, END, end };
		b->share[i] = first ? 0 : shared_end(before, s);
		if (first) {
			push(b, s->root, END, (uint32_t)i, 0, end - (uint32_t)i + 1);
			end = (uint32_t)i - 1;
		}
	}
	uint32_t *up = b->lower + n, nup = 0;   /* those after i, shares rising */
	for (size_t i = n; i-- > 0;) {
		while (nup && b->share[up[nup - 1]] >= b->share[i])
			nup--;
		b->lower[i] = nup ? up[nup - 1] : END;
		up[nup++] = (uint32_t)i;
	}
}

static void fold_apart(struct trie *b);
static struct memo *batch_memos(struct pp *f, size_t names, bool apart, bool *own);

/* Fold the samples listed, depth first; -1 if one is refused (a bad id,
 * too many frames), with the tree part made. A part of them may go to a
 * job (fold_apart). */
static int fold_lists(struct trie *b)
{
	while (b->nstack) {
		if (!b->part && !b->apart)
			fold_apart(b);
		struct group g = b->stack[--b->nstack];
		if (g.name != END) {
			bool given = b->nstack < b->given;   /* its node is the tree's */
			if (given)
				b->given = b->nstack;
			g.node = given ? own_tree_child(b, g.node, g.name) : child(b, g.node, g.name);
		}
		if (fold_group(b, g) < 0 || b->frames > b->most)
			return -1;
	}
	return 0;
}

/* ---- a part apart ----
 * The groups at the bottom of the stack are folded last, after all that
 * the groups above them make: their nodes come last, one run. Once they
 * hold about half the samples listed, a job folds them meanwhile (on the
 * second core) into nodes of its own, numbered from 0 in the order the
 * fold would make them, and those are moved into the tree after the rest
 * (graft): the same nodes, in the same places, as one fold makes. */

/* samples: fewer are not worth a thread (tests change it: pprof_int.h) */
size_t pp_apart_min = 4096;

static void part_job(void *arg)
{
	struct trie *p = arg;
	memset(p->memo, 0, (p->t->nnames ? p->t->nnames : 1) * sizeof *p->memo);
	p->rc = fold_lists(p);
}

/* Give the bottom groups to a job if they hold 40-60% of the samples
 * listed; only in the first batch (a node of an earlier one may have the
 * child: af_tree_child) and below a root (a root's own weight is the
 * tree's). */
static void fold_apart(struct trie *b)
{
	size_t n = b->nstack, lo = 0, hi = n - 1;
	uint64_t total = b->stack[n - 1].upto;
	if (b->fresh || b->t->path_closed || n < 2 || total < pp_apart_min || b->stack[0].name == END)
		return;
	while (lo < hi) {   /* the first j with stack[0..j] holding half */
		size_t mid = (lo + hi) / 2;
		if (b->stack[mid].upto * 2 < total)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t j = lo + 1;   /* the groups given: stack[0..j) */
	if (j == n || b->stack[lo].upto * 5 > total * 3)
		j--;
	if (j == 0 || b->stack[j - 1].upto * 5 < total * 2)
		return;
	struct trie *p = af_xcalloc(1, sizeof *p);
	*p = (struct trie){ .f = b->f, .t = b->t, .cur = b->cur, .share = b->share, .lower = b->lower,
			    .most = b->most, .ids = b->ids, .apart = true, .given = j };
	p->memo = batch_memos(b->f, b->t->nnames ? b->t->nnames : 1, true, &p->own_memos);   /* zeroed by the job */
	/* its nodes: their share of the room left in the tree's, a quarter
	 * more (grown by doubling, each size was a copy into fresh pages) */
	size_t left = b->t->cap_nodes - b->t->nnodes;
	af_grow_huge(&p->own, &p->cap_own, (size_t)((double)left * (double)b->stack[j - 1].upto / (double)total * 1.25) + 1,
		     sizeof *p->own);
	p->stack = af_xmalloc(j * sizeof *p->stack);
	p->nstack = p->cap_stack = j;
	memcpy(p->stack, b->stack, j * sizeof *p->stack);
	memmove(b->stack, b->stack + j, (n - j) * sizeof *b->stack);
	b->nstack = n - j;
	b->part = p;
	af_job_start(&p->job, part_job, p);
}

static void free_part(struct trie *p)
{
	if (p->own_memos)
		free(p->memo);
	free(p->stack);
	free(p->kids);
	free(p->own);
	free(p->links);
	free(p);
}

/* The part's nodes into the tree after the rest, as the fold would have
 * made them there: its numbers moved past the tree's, and each child of
 * a node of the tree put first among that node's children, in the order
 * made. */
static void graft(struct trie *b, const struct trie *p)
{
	struct af_tree *t = b->t;
	uint32_t base = af_tree_new_nodes(t, p->nown);
	struct af_node *to = t->nodes + base;
	for (size_t i = 0; i < p->nown; i++) {
		struct af_node x = p->own[i];
		x.parent += base;
		x.first_child += x.first_child != AF_NONE ? base : 0;
		x.next_sibling += x.next_sibling != AF_NONE ? base : 0;
		to[i] = x;
	}
	for (size_t i = 0; i < p->nlinks; i++) {
		struct af_node *up = &t->nodes[p->links[i].parent], *x = &to[p->links[i].node];
		x->parent = p->links[i].parent;
		x->next_sibling = up->first_child;
		up->first_child = base + p->links[i].node;
	}
}

/* fold_lists, and the part given to a job joined and moved in */
static int fold_all_lists(struct trie *b)
{
	int rc = fold_lists(b);
	struct trie *p = b->part;
	if (!p)
		return rc;
	af_job_join(&p->job);
	if (rc == 0 && p->rc == 0) {
		b->frames += p->frames;
		rc = b->frames > b->most ? -1 : 0;
		if (rc == 0)
			graft(b, p);
	} else {
		rc = -1;
	}
	free_part(p);
	b->part = NULL;
	return rc;
}

/* ---- checks ---- */

/* A location id at *q, before end: the varint as af_proto_unpack reads
 * it, 4 bytes at a time where 4 are left (ids of up to 4 bytes, most of a
 * profile's, without a loop); false if cut short or too long. */
static inline bool next_id(const uint8_t **q, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *q;
	if (end - p >= 4) {
		uint32_t w = (uint32_t)af_le(p, 4), stop = ~w & 0x80808080u;
		if (stop) {
			unsigned bits = (unsigned)__builtin_ctz(stop) + 1;   /* 8, 16, 24 or 32 */
			w &= (uint32_t)(((uint64_t)1 << bits) - 1);
			*v = (w & 0x7f) | (w >> 1 & 0x3f80) | (w >> 2 & 0x1fc000) | (w >> 3 & 0xfe00000);
			*q = p + bits / 8;
			return true;
		}
	}
	const uint8_t *e = end - p > 10 ? p + 10 : end, *last = p;
	while (last < e && *last >= 0x80)
		last++;
	if (last == e || af_proto_unpack(p, (size_t)(last + 1 - p), v) != 1)
		return false;
	*q = last + 1;
	return true;
}

int pp_frames_of(const struct pp *f, const uint8_t *ids, size_t len, size_t *n, uint64_t *bad)
{
	const uint8_t *p = ids, *end = ids + len;
	size_t total = 0;
	while (p < end) {
		uint64_t id;
		if (!next_id(&p, end, &id))
			return -1;
		size_t k = pp_location_frames(f, id);
		if (k == 0)
			return *bad = id, 1;
		total += k;
	}
	*n = total;
	return 0;
}

/* what fold_sample had counted before a sample: pp_fold_check's */
struct tally { uint64_t weight, folded, frames; };

/* The checks of the sample at offset at of weight w whose ids are
 * ids[0..len), as fold_sample made them in the file's order before they
 * moved here: its locations, its weight, its frames, its count. */
static int check_one(struct pp *f, const uint8_t *ids, size_t len, uint64_t at, uint64_t w, struct tally *t)
{
	size_t n;
	uint64_t bad;
	int rc = pp_frames_of(f, ids, len, &n, &bad);
	if (rc < 0)   /* as the walker says it of a sample read in place */
		return pp_bad(f, at, "packed varints cut short");
	if (rc > 0)
		return af_diag_offset(f->d, at, "malformed pprof profile: a sample names location %" PRIu64
				      ", which the profile does not have", bad);
	if (w > UINT64_MAX - t->weight)
		return af_diag_offset(f->d, at, "the sample values add up past 2^64");
	/* a few bytes of ids may name locations of many lines: bounded, so
	 * the work stays linear in the file */
	t->frames += n;
	if (n > MAX_FRAMES || t->frames > 64 * (uint64_t)f->len + (1u << 20))
		return af_diag_offset(f->d, at, "malformed pprof profile: a sample of %zu frames, or the samples' "
				      "stacks far larger than the file", n);
	if (t->folded >= UINT32_MAX - 1)   /* as when they were numbered in 32 bits */
		return af_diag_offset(f->d, at, "more than 2^32 samples: not read");
	t->weight += w;
	t->folded++;
	return 0;
}

/* The checks of the samples kept, in order; *t what they count. */
static int check_kept(struct pp *f, struct tally *t)
{
	pp_tables_ready(f);   /* the locations' frames */
	place_recoded(f);
	*t = (struct tally){ f->batch_weight, f->batch_folded, f->frames_total };
	for (size_t i = 0; i < f->npending; i++) {
		const struct pending *s = &f->pending[i];
		if (check_one(f, s->ids, s->len, s->at, s->weight, t) < 0)
			return -1;
	}
	return 0;
}

int pp_fold_check(struct pp *f)
{
	struct tally t;
	return check_kept(f, &t);
}

int pp_fold_refuse(struct pp *f, uint64_t w, const uint8_t *ids, size_t len, size_t nlocs, uint64_t at)
{
	struct tally t;
	if (check_kept(f, &t) < 0)
		return -1;
	if (!ids)
		ids = f->recoded + recode(f, nlocs, &len);
	if (check_one(f, ids, len, at, w, &t) < 0)
		return -1;
	return pp_bad(f, at, "a sample refused");   /* not reached: the caller saw why */
}

/* ---- the room ---- */

/* A batch's room, a sample's bytes: the sort's (pprof_order.c), then in
 * the same place the fold's (state, share, lower twice); and the order */
#define SORT_ROOM PP_ORDER_ROOM
#define FOLD_ROOM (sizeof(struct cur) + 3 * sizeof(uint32_t))
#define SAMPLE_ROOM ((SORT_ROOM > FOLD_ROOM ? SORT_ROOM : FOLD_ROOM) + sizeof(uint32_t))

/* n samples, ids bytes of their ids (8-byte aligned), names memos (of
 * the fold's names, twice: a part apart has its own): the keys or states,
 * the order, the ids, the memos
 * (af_xmalloc_huge: huge pages once large; 4 KiB pages were a fault each) */
static size_t room_size(size_t n, size_t ids, size_t names)
{
	return (n ? n : 1) * SAMPLE_ROOM + ids + names * sizeof(struct memo);
}

/* The room of this batch's keys, states, order and ids: f->room's, else
 * one of its own (*own) */
static uint8_t *batch_room(struct pp *f, size_t ids, bool *own)
{
	size_t n = f->npending;
	*own = n > f->room_samples || ids > f->room_ids;
	return *own ? af_xmalloc_huge(room_size(n, ids, 0)) : f->room;
}

/* The memos of names names: f->room's (the fold's, or a part's apart),
 * else their own (*own); zeroed by the caller */
static struct memo *batch_memos(struct pp *f, size_t names, bool apart, bool *own)
{
	size_t at = (f->room_samples ? f->room_samples : 1) * SAMPLE_ROOM + f->room_ids;
	*own = names > f->room_names;
	at += apart ? f->room_names * sizeof(struct memo) : 0;
	return *own ? af_xmalloc(names * sizeof(struct memo)) : (struct memo *)(f->room + at);
}

int pp_fold_all(struct pp *f)
{
	place_recoded(f);
	size_t n = f->npending, m = n ? n : 1, ids = 0;
	for (size_t i = 0; i < n; i++)
		ids += f->pending[i].len;
	struct af_tree *t = &f->p->tree;
	bool own, own_memos;
	uint8_t *room = batch_room(f, ids, &own);
	uint32_t *order = (uint32_t *)(room + m * (SAMPLE_ROOM - sizeof(uint32_t)));
	pp_sample_order(f, room, order);
	struct trie b = { .f = f, .t = t, .most = 64 * (uint64_t)f->len + (1u << 20) - f->frames_total };
	b.cur = (struct cur *)room;   /* where the sort's keys were */
	b.share = (uint32_t *)(b.cur + m);
	b.lower = b.share + m;
	b.ids = (uint8_t *)(order + m);
	list_samples(&b, order, n, ids);
	/* the fold reads the frames and the tree pp_locate_all made */
	pp_tables_ready(f);
	/* the first batch: every node with frames below it is new */
	b.fresh = f->batches++ ? (uint32_t)t->nnodes : 0;
	b.memo = batch_memos(f, t->nnames ? t->nnames : 1, false, &own_memos);
	memset(b.memo, 0, (t->nnames ? t->nnames : 1) * sizeof *b.memo);
	int rc = fold_all_lists(&b);
	if (own_memos)
		free(b.memo);
	if (own)
		free(room);
	free(b.kids);
	free(b.stack);
	if (rc < 0)   /* which sample, and why: as they were checked before */
		return pp_fold_check(f) < 0 ? -1 : pp_bad(f, 0, "a sample refused");
	f->frames_total += b.frames;
	f->batch_weight = f->weight;
	f->batch_folded = f->folded;
	f->npending = f->nrecoded = 0;   /* their room serves the next ones */
	return 0;
}
