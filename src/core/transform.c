/* transform.c: include/exclude/root/hide/collapse/merge/idle on the call
 * tree (transform.h). One iterative pre-order walk of the old tree builds a
 * new one: each old node maps to a new node (a fresh child, or the caller's
 * node when it is hidden or collapsed), and its self weight moves there
 * unless a filter drops its stack. No recursion: stacks can be 1M deep. */
#include <stdlib.h>
#include <string.h>
#include "transform.h"
#include "util.h"

/* Android idle leaves: the looper waiting for a message, Java waits and
 * sleeps, parked threads, and the native/kernel waits beneath them. Matched
 * as whole dotted words, anywhere in the leaf's name (ART names carry their
 * class; folded and perf names may carry a module). */
const char af_idle_frames_re[] =
	"(^|[^A-Za-z0-9_$])(MessageQueue\\.nativePollOnce|Object\\.wait|Thread\\.sleep"
	"|Unsafe\\.park|LockSupport\\.park[A-Za-z]*|epoll_p?wait|__epoll_pwait"
	"|futex_wait[A-Za-z_]*|__futex_wait[A-Za-z_]*|ppoll|__ppoll)([^A-Za-z0-9_$]|$)";

static const char *const re_option[AF_TX_NRE] = { "exclude", "include", "root", "hide" };

/* Bits of the per-name match cache. */
enum { M_DONE = 1, M_IDLE = 2, M_RE = 4 /* << enum af_tx_re */ };

void af_transforms_init(struct af_transforms *t)
{
	memset(t, 0, sizeof *t);
}

void af_transforms_release(struct af_transforms *t)
{
	for (int i = 0; i < AF_TX_NRE; i++)
		if (t->src[i])
			regfree(&t->re[i]);
	if (t->idle)
		regfree(&t->idle_re);
	memset(t, 0, sizeof *t);
}

int af_transforms_set(struct af_transforms *t, enum af_tx_re which, const char *re,
		      char *err, size_t errlen)
{
	if (t->src[which]) {   /* the last one given wins */
		regfree(&t->re[which]);
		t->src[which] = NULL;
	}
	int rc = regcomp(&t->re[which], re, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		regerror(rc, &t->re[which], err, errlen);
		return -1;
	}
	t->src[which] = re;
	return 0;
}

void af_transforms_set_idle(struct af_transforms *t)
{
	if (!t->idle && regcomp(&t->idle_re, af_idle_frames_re, REG_EXTENDED | REG_NOSUB) == 0)
		t->idle = true;
}

bool af_transforms_any(const struct af_transforms *t)
{
	for (int i = 0; i < AF_TX_NRE; i++)
		if (t->src[i])
			return true;
	return t->merge_threads || t->idle || t->collapse;
}

static void describe_item(struct af_buf *b, const char *what, const char *re)
{
	if (b->len)
		af_buf_puts(b, ", ");
	af_buf_puts(b, what);
	if (re)
		af_buf_printf(b, " '%s'", re);
}

void af_transforms_describe(const struct af_transforms *t, struct af_buf *b)
{
	struct af_buf tmp;
	af_buf_init(&tmp);
	if (t->merge_threads)
		describe_item(&tmp, "merge-threads", NULL);
	for (int i = AF_TX_EXCLUDE; i <= AF_TX_INCLUDE; i++)
		if (t->src[i])
			describe_item(&tmp, re_option[i], t->src[i]);
	if (t->idle)
		describe_item(&tmp, "idle", NULL);
	for (int i = AF_TX_ROOT; i < AF_TX_NRE; i++)
		if (t->src[i])
			describe_item(&tmp, re_option[i], t->src[i]);
	if (t->collapse)
		describe_item(&tmp, "collapse-recursion", NULL);
	if (tmp.len)
		af_buf_add(b, tmp.data, tmp.len);
	af_buf_release(&tmp);
}

/* ---- the walk ---- */

struct tx_walk {
	const struct af_transforms *t;
	const struct af_tree *old;
	struct af_tree *nt;
	uint8_t *match;        /* old name id -> M_* bits, filled on first use */
	uint32_t *name_map;    /* old name id -> new name id */
	uint8_t *top;          /* old node -> 1 for thread and process nodes */
	uint32_t *top_map;     /* old top node -> new node */
	const uint8_t *excluded;
	uint8_t *new_top;      /* new node -> 1 if not a frame (root, thread, process) */
	size_t cap_new_top;
	uint64_t *kept;        /* new node -> 1 if a stack was kept there */
	size_t cap_kept;
};

/* One pending old node and what its caller left it. */
struct tx_item {
	uint32_t old;
	uint32_t parent;   /* new node of the caller */
	uint32_t base;     /* new node of the nearest thread/process (or root) */
	uint8_t incl, excl, rooted;
};

static unsigned name_match(struct tx_walk *w, uint32_t name)
{
	if (w->match[name] & M_DONE)
		return w->match[name];
	const char *s = af_tree_name(w->old, name);
	unsigned m = M_DONE;
	for (int i = 0; i < AF_TX_NRE; i++)
		if (w->t->src[i] && regexec(&w->t->re[i], s, 0, NULL, 0) == 0)
			m |= (unsigned)M_RE << i;
	if (w->t->idle && regexec(&w->t->idle_re, s, 0, NULL, 0) == 0)
		m |= M_IDLE;
	w->match[name] = (uint8_t)m;
	return m;
}

static uint32_t new_name(struct tx_walk *w, uint32_t name)
{
	if (w->name_map[name] == AF_NONE)
		w->name_map[name] = af_tree_intern(w->nt, af_tree_name(w->old, name),
						   af_tree_name_len(w->old, name));
	return w->name_map[name];
}

static void mark_top(struct tx_walk *w, uint32_t node)
{
	if (node >= w->cap_new_top) {
		size_t old = w->cap_new_top;
		af_grow(&w->new_top, &w->cap_new_top, (size_t)node + 1, 1);
		memset(w->new_top + old, 0, w->cap_new_top - old);
	}
	w->new_top[node] = 1;
}

static bool is_new_top(const struct tx_walk *w, uint32_t node)
{
	return node < w->cap_new_top && w->new_top[node];
}

/* A thread or process node: kept as it is, or dissolved into the root. */
static uint32_t place_top(struct tx_walk *w, struct tx_item *it)
{
	uint32_t n = it->parent;
	if (!w->t->merge_threads) {
		n = af_tree_add_child(w->nt, it->parent, new_name(w, w->old->nodes[it->old].name));
		mark_top(w, n);
	}
	w->top_map[it->old] = n;
	it->base = n;
	it->incl = it->excl = it->rooted = 0;
	return n;
}

/* A frame: where it lands in the new tree; *keep: whether its self weight
 * (the stacks ending here) survives the filters. */
static uint32_t place_frame(struct tx_walk *w, struct tx_item *it, bool *keep)
{
	const struct af_transforms *t = w->t;
	uint32_t name = w->old->nodes[it->old].name;
	unsigned m = name_match(w, name);
	it->incl |= !!(m & (M_RE << AF_TX_INCLUDE));
	it->excl |= !!(m & (M_RE << AF_TX_EXCLUDE));
	uint32_t parent = it->parent;
	if (t->src[AF_TX_ROOT] && !it->rooted && (m & (M_RE << AF_TX_ROOT))) {
		it->rooted = 1;
		parent = it->base;   /* the stack starts again here */
	}
	*keep = (!t->src[AF_TX_INCLUDE] || it->incl) && !it->excl
		&& (!t->src[AF_TX_ROOT] || it->rooted) && !(m & M_IDLE);
	if (t->src[AF_TX_ROOT] && !it->rooted)
		return it->base;     /* above the root frame: nothing kept */
	if (m & (M_RE << AF_TX_HIDE))
		return parent;
	uint32_t nn = new_name(w, name);
	if (t->collapse && !is_new_top(w, parent) && w->nt->nodes[parent].name == nn)
		return parent;
	return af_tree_child(w->nt, parent, nn);
}

static void mark_kept(struct tx_walk *w, uint32_t node)
{
	if (node >= w->cap_kept) {
		size_t old = w->cap_kept;
		af_grow(&w->kept, &w->cap_kept, (size_t)node + 1, sizeof *w->kept);
		memset(w->kept + old, 0, (w->cap_kept - old) * sizeof *w->kept);
	}
	w->kept[node] = 1;
}

static void move_weight(struct tx_walk *w, uint32_t old, uint32_t n, bool fresh)
{
	struct af_tree *nt = w->nt;
	mark_kept(w, n);
	nt->nodes[n].self += w->old->nodes[old].self;
	if (w->old->before)
		af_tree_add_before(nt, n, af_tree_before(w->old, old));
	uint64_t calls = fresh ? af_tree_calls(w->old, old) : 0;
	if (calls)   /* a frame merged into its caller was not a new call */
		af_tree_add_calls(nt, n, calls);
}

static void walk(struct tx_walk *w)
{
	const struct af_tree *old = w->old;
	struct tx_item *stack = af_xcalloc(old->nnodes + 1, sizeof *stack);
	size_t sp = 0;
	mark_top(w, AF_ROOT);
	if (old->nodes[AF_ROOT].self)
		move_weight(w, AF_ROOT, AF_ROOT, false);
	for (uint32_t c = old->nodes[AF_ROOT].first_child; c != AF_NONE; c = old->nodes[c].next_sibling)
		stack[sp++] = (struct tx_item){ .old = c, .parent = AF_ROOT, .base = AF_ROOT };
	while (sp) {
		struct tx_item it = stack[--sp];
		if (w->t->merge_threads && w->top[it.old] && w->excluded && w->excluded[it.old])
			continue;   /* a thread left out of the merged graph */
		bool keep = !w->t->src[AF_TX_INCLUDE] && !w->t->src[AF_TX_ROOT]
			&& old->nodes[it.old].self;   /* a thread's own weight: no frames */
		uint32_t n = w->top[it.old] ? place_top(w, &it) : place_frame(w, &it, &keep);
		if (keep)
			move_weight(w, it.old, n, n != it.parent);
		for (uint32_t c = old->nodes[it.old].first_child; c != AF_NONE;
		     c = old->nodes[c].next_sibling)
			stack[sp++] = (struct tx_item){ .old = c, .parent = n, .base = it.base,
				.incl = it.incl, .excl = it.excl, .rooted = it.rooted };
	}
	free(stack);
}

/* Thread and process nodes, the excluded bytes and the root onto the new tree. */
static bool remap(struct tx_walk *w, struct af_profile *p, uint8_t **excluded, uint32_t *root)
{
	for (size_t i = 0; i < p->nthreads; i++) {
		struct af_thread *th = &p->threads[i];
		th->node = th->node != AF_NONE ? w->top_map[th->node] : AF_NONE;
		th->process_node = th->process_node != AF_NONE ? w->top_map[th->process_node] : AF_NONE;
	}
	for (size_t i = 0; i < p->nprocesses; i++)
		p->processes[i].node = w->top_map[p->processes[i].node];
	/* nodes that only lead to dropped stacks are left out */
	uint8_t *nex = af_xcalloc(w->nt->nnodes + 1, 1);
	uint64_t *kept = af_xcalloc(w->nt->nnodes + 1, sizeof *kept);
	if (w->kept)
		memcpy(kept, w->kept, (w->cap_kept < w->nt->nnodes ? w->cap_kept : w->nt->nnodes)
		       * sizeof *kept);
	af_tree_sum_up(w->nt, kept);
	for (uint32_t i = 0; i < w->nt->nnodes; i++)
		nex[i] = kept[i] == 0;
	nex[AF_ROOT] = 0;
	if (*excluded && !w->t->merge_threads)
		for (uint32_t i = 0; i < w->old->nnodes; i++)
			if (w->top[i] && (*excluded)[i])
				nex[w->top_map[i]] = 1;
	free(*excluded);
	*excluded = nex;
	*root = w->t->merge_threads || *root == AF_ROOT ? AF_ROOT : w->top_map[*root];
	bool left = kept[*root] != 0;
	free(kept);
	return left;
}

bool af_transforms_apply(const struct af_transforms *t, struct af_profile *p,
			 uint8_t **excluded, uint32_t *root)
{
	struct af_tree nt;
	af_tree_init(&nt);
	struct tx_walk w = {
		.t = t, .old = &p->tree, .nt = &nt, .excluded = *excluded,
		.match = af_xcalloc(p->tree.nnames + 1, 1),
		.name_map = af_xmalloc((p->tree.nnames + 1) * sizeof *w.name_map),
		.top = af_xcalloc(p->tree.nnodes + 1, 1),
		.top_map = af_xmalloc((p->tree.nnodes + 1) * sizeof *w.top_map),
	};
	memset(w.name_map, 0xff, (p->tree.nnames + 1) * sizeof *w.name_map);
	memset(w.top_map, 0xff, (p->tree.nnodes + 1) * sizeof *w.top_map);
	for (size_t i = 0; i < p->nthreads; i++)
		if (p->threads[i].node != AF_NONE)
			w.top[p->threads[i].node] = 1;
	for (size_t i = 0; i < p->nprocesses; i++)
		w.top[p->processes[i].node] = 1;
	walk(&w);
	bool left = remap(&w, p, excluded, root);
	af_tree_release(&p->tree);
	p->tree = nt;
	free(w.match);
	free(w.name_map);
	free(w.top);
	free(w.top_map);
	free(w.new_top);
	free(w.kept);
	return left;
}
