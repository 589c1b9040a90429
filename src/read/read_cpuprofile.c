/* read_cpuprofile.c: V8 CPU profiles (.cpuprofile: Chrome DevTools, node
 * --cpu-prof, the Inspector's Profiler.stop; Hermes writes the same), in
 * both shapes:
 *
 *   {"nodes": [{"id", "callFrame": {"functionName", "url", "lineNumber"},
 *               "children": [ids] or "parent": id}, ...],
 *    "startTime", "endTime", "samples": [node ids], "timeDeltas": [µs]}
 *   {"head": {"functionName", "url", "lineNumber", "id",
 *             "children": [nested nodes]}, "samples", "timestamps": [µs]}
 *
 * by the rules of docs/semantics.md: a sample is its node's stack; each
 * sample weighs the time to the next (the last weighs nothing); the tree's
 * "(root)" is not a frame, "(program)", "(idle)" and "(garbage collector)"
 * are. A frame is "function (file:line)" (v8frame.h). One thread, "JavaScript",
 * weights in µs. Parsed by json.h's scanner, folded as each sample's stack
 * differs from the one before (its nearest common node). */
#include "json.h"
#include "zints.h"
#include "v8frame.h"
#include "core/fold.h"
#include "core/idmap.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum role { R_SKIP, R_TOP, R_NODES, R_NODE, R_CALLFRAME, R_CHILD_IDS, R_CHILDREN, R_SAMPLES,
	    R_DELTAS, R_TIMESTAMPS };
enum key { K_OTHER, K_NODES, K_HEAD, K_SAMPLES, K_DELTAS, K_TIMESTAMPS, K_START, K_END, K_ID,
	   K_CALLFRAME, K_CHILDREN, K_PARENT, K_FUNCTION, K_URL, K_LINE };

struct vnode {
	int64_t id, parent_id;     /* parent_id: from "parent", or -1 */
	uint32_t parent;           /* index, AF_NONE */
	uint32_t name;             /* frame name, interned */
	uint32_t depth;            /* frames above it (the root's frame not counted) */
	bool frame;                /* false for "(root)" */
};

struct i64s { int64_t *v; size_t n, cap; };

struct cpuprofile {
	struct af_json json;       /* first: the JSON scanner's context */
	struct af_profile *p;
	uint8_t role[64];
	int key;
	/* the node being read, and the nodes open around it (the old shape nests) */
	struct { int64_t id, parent_id; bool has_id; int64_t line; struct af_buf fn, url; } cur;
	uint32_t *open;
	size_t nopen, cap_open;
	struct vnode *nodes;
	size_t nnodes, cap_nodes;
	uint32_t *closed;          /* nodes with an id, as they closed (a later one of an id wins) */
	size_t nclosed, cap_closed;
	/* node index by id, made after the parse: an array when the ids are
	 * as V8 numbers them, 1 to the node count, else the id map */
	uint32_t *dense;
	size_t ndense;
	struct af_idmap by_id;
	struct i64s child_of;      /* pairs: parent index, child id ("children": [ids]) */
	struct zints samples, deltas, stamps;
	struct zints *taking;       /* an array af_json_take_ints reads, */
	struct zmark taken_from;    /* and where it stood */
	int64_t start, end;
	bool has_start, has_end, old_shape;
	struct af_buf scratch;
	uint64_t bad_numbers, unknown_samples, unknown_parents, loops, negative_deltas;
};

static bool is(const unsigned char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static void push(struct i64s *a, int64_t v)
{
	af_grow(&a->v, &a->cap, a->n + 1, sizeof *a->v);
	a->v[a->n++] = v;
}

static void take_ints(void *ctx, const int64_t *v, size_t n)
{
	struct cpuprofile *c = ctx;
	zints_push_n(c->taking, v, n);
}

static void take_undo(void *ctx)
{
	struct cpuprofile *c = ctx;
	zints_rewind(c->taking, c->taken_from);
}

static const struct af_json_ints take = { take_ints, take_undo };

static enum role role_now(const struct cpuprofile *c)
{
	uint64_t d = c->json.depth;
	return d == 0 || d > sizeof c->role ? R_SKIP : (enum role)c->role[d - 1];
}

static enum role child_role(const struct cpuprofile *c, bool map)
{
	if (c->json.depth == 0)
		return map ? R_TOP : R_SKIP;
	switch (role_now(c)) {
	case R_TOP:
		switch (c->key) {
		case K_NODES: return map ? R_SKIP : R_NODES;
		case K_HEAD: return map ? R_NODE : R_SKIP;
		case K_SAMPLES: return map ? R_SKIP : R_SAMPLES;
		case K_DELTAS: return map ? R_SKIP : R_DELTAS;
		case K_TIMESTAMPS: return map ? R_SKIP : R_TIMESTAMPS;
		default: return R_SKIP;
		}
	case R_NODES:
	case R_CHILDREN:
		return map ? R_NODE : R_SKIP;
	case R_NODE:
		if (c->key == K_CALLFRAME && map)
			return R_CALLFRAME;
		if (c->key == K_CHILDREN && !map)
			return R_CHILD_IDS;   /* ids, or (the old shape) nodes */
		return R_SKIP;
	case R_CHILD_IDS:
		return map ? R_NODE : R_SKIP;
	default:
		return R_SKIP;
	}
}

static void name_node(struct cpuprofile *c, uint32_t i);

/* A node opens: its entry now (the old shape's children nest in it, so
 * the node around it takes its name first). */
static void node_open(struct cpuprofile *c)
{
	uint32_t parent = c->nopen ? c->open[c->nopen - 1] : AF_NONE;
	if (parent != AF_NONE && c->nodes[parent].name == AF_NONE)
		name_node(c, parent);
	af_grow(&c->nodes, &c->cap_nodes, c->nnodes + 1, sizeof *c->nodes);
	c->nodes[c->nnodes] = (struct vnode){ .id = -1, .parent_id = -1, .parent = parent, .name = AF_NONE };
	af_grow(&c->open, &c->cap_open, c->nopen + 1, sizeof *c->open);
	c->open[c->nopen++] = (uint32_t)c->nnodes++;
	c->cur.fn.len = c->cur.url.len = 0;
	c->cur.line = -1;
}

static int open_container(struct cpuprofile *c, bool map)
{
	enum role r = child_role(c, map);
	struct zints *a = r == R_SAMPLES ? &c->samples : r == R_DELTAS ? &c->deltas
		: r == R_TIMESTAMPS ? &c->stamps : NULL;
	if (a) {   /* most of the file: read in batches if plain */
		c->taking = a;
		c->taken_from = zints_mark(a);
		if (af_json_take_ints(&c->json, &take))
			return 0;
	}
	if (r == R_NODE) {
		if (role_now(c) == R_CHILD_IDS)
			c->old_shape = true;
		node_open(c);
	}
	if (c->json.depth < sizeof c->role)
		c->role[c->json.depth] = (uint8_t)r;
	c->json.depth++;
	c->key = K_OTHER;
	return 1;
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, true);
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, false);
}

static int on_key(void *ctx, const unsigned char *s, size_t n)
{
	struct cpuprofile *c = ctx;
	switch (role_now(c)) {
	case R_TOP:
		c->key = is(s, n, "nodes") ? K_NODES : is(s, n, "head") ? K_HEAD : is(s, n, "samples") ? K_SAMPLES
			: is(s, n, "timeDeltas") ? K_DELTAS : is(s, n, "timestamps") ? K_TIMESTAMPS
			: is(s, n, "startTime") ? K_START : is(s, n, "endTime") ? K_END : K_OTHER;
		break;
	case R_NODE:
	case R_CALLFRAME:
		c->key = is(s, n, "id") ? K_ID : is(s, n, "callFrame") ? K_CALLFRAME : is(s, n, "children") ? K_CHILDREN
			: is(s, n, "parent") ? K_PARENT : is(s, n, "functionName") ? K_FUNCTION : is(s, n, "url") ? K_URL
			: is(s, n, "lineNumber") ? K_LINE : K_OTHER;
		break;
	default:
		c->key = K_OTHER;
	}
	return 1;
}

static bool number(struct cpuprofile *c, const char *s, size_t n, int64_t *v)
{
	if (af_json_int(s, n, v))
		return true;
	c->bad_numbers++;
	return false;
}

static void node_value(struct cpuprofile *c, const char *s, size_t n, bool str)
{
	struct vnode *nd = &c->nodes[c->open[c->nopen - 1]];
	int64_t v;
	switch (c->key) {
	case K_ID:
		if (number(c, s, n, &v))
			nd->id = v;
		break;
	case K_PARENT:
		if (number(c, s, n, &v))
			nd->parent_id = v;
		break;
	case K_FUNCTION:
		af_buf_add(&c->cur.fn, s, n);
		break;
	case K_URL:
		af_buf_add(&c->cur.url, s, n);
		break;
	case K_LINE:
		if (!str && number(c, s, n, &v))
			c->cur.line = v;
		break;
	default:
		break;
	}
}

static int scalar(struct cpuprofile *c, const char *s, size_t n, bool str)
{
	int64_t v;
	switch (role_now(c)) {
	case R_TOP:
		if (c->key == K_START)
			c->has_start = number(c, s, n, &c->start);
		else if (c->key == K_END)
			c->has_end = number(c, s, n, &c->end);
		break;
	case R_NODE:
	case R_CALLFRAME:
		node_value(c, s, n, str);
		break;
	case R_CHILD_IDS:
		if (number(c, s, n, &v)) {
			push(&c->child_of, (int64_t)c->open[c->nopen - 1]);
			push(&c->child_of, v);
		}
		break;
	case R_SAMPLES:
		if (number(c, s, n, &v))
			zints_push(&c->samples, v);
		break;
	case R_DELTAS:
		if (number(c, s, n, &v))
			zints_push(&c->deltas, v);
		break;
	case R_TIMESTAMPS:
		if (number(c, s, n, &v))
			zints_push(&c->stamps, v);
		break;
	default:
		break;
	}
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	return scalar(ctx, (const char *)s, n, true);
}

static int on_number(void *ctx, const char *s, size_t n)
{
	return scalar(ctx, s, n, false);
}

static int on_other(void *ctx)
{
	(void)ctx;
	return 1;
}

static int on_bool(void *ctx, int b)
{
	(void)b;
	return on_other(ctx);
}

static void name_node(struct cpuprofile *c, uint32_t i)
{
	struct vnode *nd = &c->nodes[i];
	nd->name = af_v8_frame(&c->p->tree, &c->scratch, c->cur.fn.data, c->cur.fn.len, c->cur.url.data,
			       c->cur.url.len, c->cur.line);
	nd->frame = !af_v8_is_root(c->cur.fn.data, c->cur.fn.len, c->cur.url.len);
}

static int close_container(void *ctx)
{
	struct cpuprofile *c = ctx;
	enum role r = role_now(c);
	c->json.depth--;
	c->key = K_OTHER;
	if (r == R_CALLFRAME)
		name_node(c, c->open[c->nopen - 1]);
	if (r != R_NODE)
		return 1;
	uint32_t i = c->open[--c->nopen];
	struct vnode *nd = &c->nodes[i];
	if (nd->name == AF_NONE)
		name_node(c, i);
	if (nd->id >= 0) {
		af_grow(&c->closed, &c->cap_closed, c->nclosed + 1, sizeof *c->closed);
		c->closed[c->nclosed++] = i;
	}
	if (c->nnodes >= UINT32_MAX - 1)
		return af_json_fail(&c->json, "more than 2^32 nodes");
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_other, .yajl_boolean = on_bool, .yajl_number = on_number,
	.yajl_string = on_string, .yajl_start_map = on_start_map, .yajl_map_key = on_key,
	.yajl_end_map = close_container, .yajl_start_array = on_start_array,
	.yajl_end_array = close_container,
};

/* ---- the node tree ---- */

/* The index of nodes by id: an array when the ids are dense (V8's 1..N:
 * millions of samples look up without hashing, and the ids are filled in
 * order, not at random), else the id map; either way the node closed last
 * of an id wins. */
static void index_ids(struct cpuprofile *c)
{
	uint64_t max = 0;
	for (size_t k = 0; k < c->nclosed; k++)
		if ((uint64_t)c->nodes[c->closed[k]].id > max)
			max = (uint64_t)c->nodes[c->closed[k]].id;
	if (c->nclosed && max < 4 * (uint64_t)c->nnodes + 1024) {
		c->ndense = (size_t)max + 1;
		c->dense = af_xmalloc(c->ndense * sizeof *c->dense);
		memset(c->dense, 0xff, c->ndense * sizeof *c->dense);
		for (size_t k = 0; k < c->nclosed; k++)
			c->dense[c->nodes[c->closed[k]].id] = c->closed[k];
		return;
	}
	for (size_t k = 0; k < c->nclosed; k++)
		af_idmap_put(&c->by_id, (uint64_t)c->nodes[c->closed[k]].id, c->closed[k]);
}

static uint32_t node_of(const struct cpuprofile *c, int64_t id)
{
	if (c->dense)
		return (uint64_t)id < c->ndense ? c->dense[id] : AF_NONE;
	return af_idmap_get(&c->by_id, (uint64_t)id);
}

/* Parents from "children" lists and "parent" ids (the old shape nests). */
static void link_parents(struct cpuprofile *c)
{
	for (size_t i = 0; i + 1 < c->child_of.n; i += 2) {
		uint32_t child = node_of(c, c->child_of.v[i + 1]);
		if (child == AF_NONE)
			c->unknown_parents++;
		else if (!c->old_shape)
			c->nodes[child].parent = (uint32_t)c->child_of.v[i];
	}
	for (size_t i = 0; i < c->nnodes; i++) {
		struct vnode *nd = &c->nodes[i];
		if (nd->parent != AF_NONE || nd->parent_id < 0)
			continue;
		nd->parent = node_of(c, nd->parent_id);
		c->unknown_parents += nd->parent == AF_NONE;
	}
}

/* Each node's depth in frames, its parents first; a chain of parents that
 * loops is cut where it comes back (counted). */
static void depths(struct cpuprofile *c)
{
	enum { TODO = 0, BUSY = 1, DONE = 2 };
	uint8_t *state = af_xcalloc(c->nnodes ? c->nnodes : 1, 1);
	uint32_t *path = af_xmalloc((c->nnodes ? c->nnodes : 1) * sizeof *path);
	for (size_t i = 0; i < c->nnodes; i++) {
		size_t n = 0;
		for (uint32_t k = (uint32_t)i; k != AF_NONE && state[k] != DONE; k = c->nodes[k].parent) {
			if (state[k] == BUSY) {   /* the chain loops: cut it above the last one walked */
				c->nodes[path[n - 1]].parent = AF_NONE;
				c->loops++;
				break;
			}
			state[k] = BUSY;
			path[n++] = k;
		}
		while (n--) {
			struct vnode *nd = &c->nodes[path[n]];
			nd->depth = (nd->parent != AF_NONE ? c->nodes[nd->parent].depth : 0) + nd->frame;
			state[path[n]] = DONE;
		}
	}
	free(state);
	free(path);
}

/* ---- samples ---- */

static uint32_t depth_of(const struct cpuprofile *c, uint32_t i)
{
	return i == AF_NONE ? 0 : c->nodes[i].depth;
}

/* From the stack of node a to that of node b at time t: exit what a has
 * below their nearest common node, enter what b has (into *enter, from the
 * deepest up). */
static void move(struct cpuprofile *c, struct af_fold *f, struct af_fold_thread *th, uint32_t a,
		 uint32_t b, uint64_t t, uint32_t **enter, size_t *cap)
{
	size_t n = 0, exits = 0;
	while (a != b) {
		uint32_t da = depth_of(c, a), db = depth_of(c, b);
		if (da >= db && a != AF_NONE) {
			exits += c->nodes[a].frame;
			a = c->nodes[a].parent;
		}
		if (db >= da && b != AF_NONE && a != b) {
			if (c->nodes[b].frame) {
				af_grow(enter, cap, n + 1, sizeof **enter);
				(*enter)[n++] = c->nodes[b].name;
			}
			b = c->nodes[b].parent;
		}
	}
	while (exits--)
		af_fold_exit(f, th, 0, 0, t);
	while (n--)
		af_fold_enter(f, th, 0, (*enter)[n], t);
}

/* Without --flamechart or a time window (the usual case), what af_fold
 * would make is made here from the node tree, without a fold stack: each
 * profile node's tree node is found once, when first entered (the same
 * nodes, made in the same order), each frame entered counts a call, and
 * the time between two changes of the stack is the self time of the frame
 * on top, times clamped as af_fold clamps them. The fold's enters, exits
 * and pops were half of a sample's cost. */
struct direct {
	/* by profile node: its parent and depth << 1 | frame, 8 bytes (the
	 * nodes are 32: millions of samples walk them at random); its tree
	 * node (a non-frame's: its parent's), AF_NONE until entered; its calls
	 * and self time, added to its tree node at the end (the tree's nodes
	 * are 32 bytes too: one line a sample at random was a cache miss) */
	struct hop { uint32_t parent, depth2; } *hop;
	uint32_t *tnode;
	struct sums { uint64_t self, calls; } *sum;
	uint32_t root, leaf;  /* the profile node on top, AF_NONE if no frame */
	uint64_t since;       /* when it came on top */
	uint64_t backwards;   /* af_fold's time_backwards */
};

static void direct_init(struct direct *d, const struct cpuprofile *c, uint32_t root)
{
	size_t n = c->nnodes ? c->nnodes : 1;
	*d = (struct direct){ .root = root, .leaf = AF_NONE };
	d->hop = af_xmalloc(n * sizeof *d->hop);
	d->tnode = af_xmalloc(n * sizeof *d->tnode);
	d->sum = af_xcalloc(n, sizeof *d->sum);
	for (size_t i = 0; i < c->nnodes; i++) {
		d->hop[i] = (struct hop){ c->nodes[i].parent, c->nodes[i].depth << 1 | c->nodes[i].frame };
		d->tnode[i] = AF_NONE;
	}
}

/* The sums into the tree (saturating, as af_tree_add_self: the same
 * totals in any order). */
static void direct_finish(struct direct *d, const struct cpuprofile *c, struct af_tree *tree)
{
	for (size_t i = 0; i < c->nnodes; i++) {
		if (d->sum[i].calls)
			af_tree_add_calls(tree, d->tnode[i], d->sum[i].calls);
		if (d->sum[i].self)
			af_tree_add_self(tree, d->tnode[i], d->sum[i].self);
	}
	free(d->hop);
	free(d->tnode);
	free(d->sum);
}

static uint32_t hop_depth(const struct direct *d, uint32_t i)
{
	return i == AF_NONE ? 0 : d->hop[i].depth2 >> 1;
}

static void add_self(struct direct *d, uint64_t w)
{
	uint64_t *self = &d->sum[d->leaf].self;
	*self = *self > UINT64_MAX - w ? UINT64_MAX : *self + w;
}

/* move() for struct direct: the same walk, and af_fold's clamping of the
 * events' time t. */
static void move_direct(struct cpuprofile *c, struct direct *d, struct af_fold_thread *th, uint32_t a,
			uint32_t b, uint64_t t, uint32_t **enter, size_t *cap)
{
	size_t n = 0, events = 0;
	uint32_t to = b;
	while (a != b) {
		uint32_t da = hop_depth(d, a), db = hop_depth(d, b);
		if (da >= db && a != AF_NONE) {
			events += d->hop[a].depth2 & 1;
			a = d->hop[a].parent;
		}
		if (db >= da && b != AF_NONE && a != b) {
			events += d->hop[b].depth2 & 1;
			if (n == *cap)   /* (af_grow's call was 3% of the bench's samples) */
				af_grow(enter, cap, n + 1, sizeof **enter);
			(*enter)[n++] = b;
			b = d->hop[b].parent;
		}
	}
	uint32_t up = a == AF_NONE ? d->root : d->tnode[a];
	while (n--) {
		uint32_t v = (*enter)[n];
		bool frame = d->hop[v].depth2 & 1;
		if (d->tnode[v] == AF_NONE)
			d->tnode[v] = frame ? af_tree_child(&c->p->tree, up, c->nodes[v].name) : up;
		up = d->tnode[v];
		d->sum[v].calls += frame;
	}
	if (!events)
		return;
	if (!th->started) {
		th->started = true;
		th->first = th->last = t;
	} else if (t < th->last) {   /* each event is clamped and counted */
		d->backwards += events;
		t = th->last;
	} else {
		th->last = t;
	}
	if (d->leaf != AF_NONE)
		add_self(d, t - d->since);
	d->since = t;
	d->leaf = hop_depth(d, to) ? to : AF_NONE;
}

/* The next n samples' node ids and times in µs (startTime plus the
 * deltas so far, or the timestamps). */
static void next_samples(struct cpuprofile *c, struct zcursor *sample_at, struct zcursor *time_at,
			 int64_t *acc, int64_t *ids, int64_t *times, size_t n)
{
	zints_read(&c->samples, sample_at, ids, n);
	zints_read(c->stamps.n ? &c->stamps : &c->deltas, time_at, times, n);
	if (c->stamps.n)
		return;
	uint64_t sum = (uint64_t)*acc;
	for (size_t i = 0; i < n; i++)
		times[i] = (int64_t)(sum += (uint64_t)times[i]);   /* wraps, never UB */
	*acc = (int64_t)sum;
}

static void fold(struct cpuprofile *c, const struct af_read_opts *o, uint32_t root)
{
	struct af_fold f = { .tree = &c->p->tree, .timeline = o->timeline, .window = o->window,
			     .from = o->from, .to = o->to };
	struct af_fold_thread th;
	af_fold_thread_init(&th, root);
	struct direct d = { .root = root, .leaf = AF_NONE };
	if (!o->timeline && !o->window && c->nnodes < (size_t)1 << 31)   /* (depth << 1 fits) */
		direct_init(&d, c, root);
	size_t n = c->samples.n, times = c->stamps.n ? c->stamps.n : c->deltas.n;
	n = n < times ? n : times;
	int64_t acc = c->has_start && !c->stamps.n ? c->start : 0, first = 0, last = 0;
	uint32_t prev = AF_NONE, *enter = NULL;
	size_t cap = 0;
	struct zcursor time_at = { 0, 0, 0 }, sample_at = { 0, 0, 0 };
	enum { RUN = 256 };
	int64_t ids[RUN], when[RUN];
	uint64_t unknown = 0, negative = 0;
	for (size_t i = 0; i < n; i++) {
		if (i % RUN == 0)
			next_samples(c, &sample_at, &time_at, &acc, ids, when, n - i < RUN ? n - i : RUN);
		int64_t t = when[i % RUN];
		if (i == 0)
			first = last = t;
		negative += t < last;
		last = t > last ? t : last;
		uint32_t node = node_of(c, ids[i % RUN]);
		unknown += node == AF_NONE;
		uint64_t at = t > first ? (uint64_t)t - (uint64_t)first : 0;
		if (d.tnode)
			move_direct(c, &d, &th, prev, node, at, &enter, &cap);
		else
			move(c, &f, &th, prev, node, at, &enter, &cap);
		if (!th.started) {
			th.started = true;
			th.first = th.last = at;
		} else if (at > th.last) {
			th.last = at;
		}
		prev = node;
	}
	c->unknown_samples += unknown;
	c->negative_deltas += negative;
	if (d.tnode && d.leaf != AF_NONE)   /* af_fold_finish closes all at the last time */
		add_self(&d, th.last - d.since);
	if (d.tnode)
		direct_finish(&d, c, &c->p->tree);
	af_fold_finish(&f, &th);
	free(enter);
	c->p->threads[0].events = n;
	c->p->threads[0].first_time = th.first;
	c->p->threads[0].last_time = th.last;
	if (n)
		af_profile_info(c->p, "time span", "%" PRId64 " µs", (int64_t)((uint64_t)last - (uint64_t)first));
	af_profile_warn(c->p, f.stats.time_backwards + d.backwards, "samples earlier than the one before (clamped)");
	af_fold_release(&f);
}

static void report(struct cpuprofile *c)
{
	struct af_profile *p = c->p;
	af_profile_info(p, "shape", "%s", c->old_shape || c->stamps.n ? "head + timestamps (older V8)" : "nodes + timeDeltas");
	af_profile_info(p, "nodes", "%zu", c->nnodes);
	af_profile_info(p, "samples", "%zu", c->samples.n);
	size_t times = c->stamps.n ? c->stamps.n : c->deltas.n;
	af_profile_warn(p, c->samples.n > times ? c->samples.n - times : times - c->samples.n,
			"samples and times that do not pair up (the extra ones ignored)");
	af_profile_warn(p, c->unknown_samples, "samples naming no node (drawn as nothing)");
	af_profile_warn(p, c->unknown_parents, "children or parents naming no node");
	af_profile_warn(p, c->loops, "node parents that loop (cut)");
	af_profile_warn(p, c->bad_numbers, "numbers that could not be read");
}

static void release(struct cpuprofile *c)
{
	free(c->open);
	free(c->nodes);
	free(c->child_of.v);
	zints_release(&c->samples);
	zints_release(&c->deltas);
	zints_release(&c->stamps);
	af_idmap_release(&c->by_id);
	free(c->closed);
	free(c->dense);
	af_buf_release(&c->cur.fn);
	af_buf_release(&c->cur.url);
	af_buf_release(&c->scratch);
}

static int read_cpuprofile(struct af_profile *p, const struct af_input *in, const struct af_read_opts *o,
			   struct af_diag *d)
{
	struct cpuprofile *c = af_xcalloc(1, sizeof *c);
	c->p = p;
	af_buf_init(&c->cur.fn);
	af_buf_init(&c->cur.url);
	af_buf_init(&c->scratch);
	p->unit = "µs";
	p->clock = "wall";
	int rc = af_json_parse(&c->json, in, &callbacks, d);
	if (rc == 1)
		rc = af_diag_offset(d, in->len, "the file ends inside its JSON (cut short?)");
	if (rc == 0) {
		index_ids(c);
		link_parents(c);
		depths(c);
		size_t t = af_profile_add_thread(p, 0, "JavaScript", 10);
		uint32_t root = af_tree_add_child(&p->tree, AF_ROOT, af_tree_intern_str(&p->tree, "JavaScript (0)"));
		p->threads[t].node = root;
		fold(c, o, root);
		report(c);
	}
	release(c);
	free(c);
	return rc;
}

/* ---- detection ---- */

static const char *find(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);
	for (const char *q = s, *end = s + n; (size_t)(end - q) >= k; q++) {
		q = memchr(q, lit[0], (size_t)(end - q) - k + 1);
		if (!q)
			return NULL;
		if (memcmp(q, lit, k) == 0)
			return q;
	}
	return NULL;
}

/* An object whose first 64 KiB name a node's "callFrame" (or the old
 * shape's "head" with "functionName") and no "traceEvents" (a DevTools
 * trace embeds profiles: the chrome reader's). */
static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	const char *s = (const char *)data;
	size_t i = 0, head = len < 65536 ? len : 65536;
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	if (i == len || s[i] != '{' || find(s, head, "\"traceEvents\""))
		return AF_SNIFF_NO;
	if (find(s, head, "\"nodes\"") && find(s, head, "\"callFrame\""))
		return AF_SNIFF_YES;
	return find(s, head, "\"head\"") && find(s, head, "\"functionName\"") ? AF_SNIFF_YES : AF_SNIFF_NO;
}

const struct af_reader af_reader_cpuprofile = {
	.name = "cpuprofile", .what = "a .cpuprofile", .sniff = sniff,
	.read = read_cpuprofile, .nothing = "no samples",
};
