/* tree.h: the call tree every front end folds into and every back end draws.
 *
 * Nodes live in one array and refer to each other by index (uint32_t), so the
 * tree is compact, cheap to grow and free, and never walked by recursion:
 * real ART stacks are thousands of frames deep. Frame names are interned once
 * (one copy per distinct name, compared as integers). A node's weight is its
 * *self* weight; inclusive totals are computed on demand (af_tree_totals).
 *
 * Children are found by (parent, name) in one hash table, so folding an event
 * is a hash probe, never a string build. Nodes made with af_tree_add_child()
 * are outside that table (thread and process roots, whose names can change).
 * Folded stacks find their frames by path instead (af_tree_path_child).
 * Node 0 is the root; its name is "all". */
#ifndef AF_TREE_H
#define AF_TREE_H

#include <stddef.h>
#include <stdint.h>
#include "util.h"

/* 32 bytes, and the array 32-byte aligned once it is large, so a node is
 * one cache line: a slice's end adds its self time and its call to the
 * node its begin found, one line where parallel arrays took one each (the
 * Perfetto reader's tree work was waiting for memory). */
struct af_node {
	uint32_t name;          /* interned name id */
	uint32_t parent;        /* AF_NONE for the root */
	uint32_t first_child;   /* most recently added child first */
	uint32_t next_sibling;
	uint64_t self;          /* weight of this frame alone */
	uint64_t calls;         /* calls that entered it (af_tree_add_call) */
};

struct af_tree {
	struct af_node *nodes;
	size_t nnodes, cap_nodes;
	/* (parent, name) -> node, open addressing; the key is kept in the slot
	 * so a probe touches one cache line, not the node array too */
	struct af_child_slot { uint32_t parent, name, hash, node; } *child_slots;
	size_t nslots, nhashed;
	/* folded stacks: (path key, parent, name bytes) -> node, open
	 * addressing; key is the low half of the frame's path key, and the
	 * table index its low bits (so growing needs no node) */
	struct af_path_slot { uint32_t key, parent, name, node; } *path_slots;
	size_t npath_slots, npathed;
	/* path_closed once the child table has the nodes made by path and
	 * by af_tree_new_child (af_tree_child was called) and the path table
	 * is gone */
	bool path_closed;
	/* the nodes af_tree_new_child made before then: runs [from, to) */
	struct af_node_run { uint32_t from, to; } *unhashed;
	size_t nunhashed, cap_unhashed;
	/* af_tree_adopt() was used: a parent may come after its children */
	bool adopted;
	/* interned names: bytes in blocks, id -> (offset, len) */
	struct af_name { const char *str; uint32_t len; uint32_t hash; } *names;
	size_t nnames, cap_names;
	/* name hash table; the hash is kept in the slot so a probe only follows
	 * an id to its string when the hashes agree */
	struct af_name_slot { uint32_t id, hash; } *name_slots;
	size_t nname_slots;
	struct af_strblock *blocks;
	size_t strblock_size;   /* bytes of the next block (0: the small default) */
	/* name id -> rank in byte-wise sorted order, built by af_tree_name_ranks */
	uint32_t *rank;
	size_t nranked;
	/* flame charts: node -> position on the time axis (AF_NO_START if none);
	 * NULL until af_tree_set_start() is first called */
	uint64_t *starts;
	size_t cap_starts;
	/* a call was counted (af_tree_add_call): input without calls
	 * (folded) has no calls column in a report */
	bool has_calls;
	/* differential graphs: node -> self weight before the change (the
	 * first of two counts); self is the weight after. NULL unless the
	 * input had two counts (af_tree_add_before) */
	uint64_t *before;
	size_t cap_before;
};

#define AF_NO_START UINT64_MAX

#define AF_ROOT 0u

void af_tree_init(struct af_tree *t);
void af_tree_release(struct af_tree *t);   /* frees nodes, names, tables */

/* Intern a name (any bytes, not NUL-terminated); returns its id. The stored
 * copy is NUL-terminated and valid until af_tree_release(). A name longer
 * than AF_NAME_MAX is cut there (at a UTF-8 boundary) and ends in "...". */
uint32_t af_tree_intern(struct af_tree *t, const char *s, size_t len);
uint32_t af_tree_intern_str(struct af_tree *t, const char *s);
static inline const char *af_tree_name(const struct af_tree *t, uint32_t id)
{
	return t->names[id].str;
}
static inline size_t af_tree_name_len(const struct af_tree *t, uint32_t id)
{
	return t->names[id].len;
}

static inline struct af_node *af_tree_node(const struct af_tree *t, uint32_t id)
{
	return &t->nodes[id];
}

/* The child of parent named name; created (weight 0) if it does not exist. */
uint32_t af_tree_child(struct af_tree *t, uint32_t parent, uint32_t name);
/* ---- folded stacks: children by path ----
 * A frame is found by its path key: the keyed hash of every frame's bytes
 * from the root down to it, chained with af_tree_path_key(). A stack's keys,
 * and so the slots its frames live in, are known before any frame is found:
 * af_tree_path_prefetch() lets the memory system fetch them all at once,
 * where a (parent, name) key makes every probe wait for the one before
 * (input in random order misses the cache at nearly every frame). A slot
 * holds the key, parent and name, so a found frame costs one slot and a
 * compare of its name's bytes (names are few, and stay in cache). */
#define AF_PATH_ROOT_KEY 0x2d358dccaa6c78a5ULL   /* the key of AF_ROOT */
/* The key of a frame whose name hashes (af_tree_name_hash) to name_hash,
 * below a frame with key parent_key: both keyed, so a file cannot aim at
 * one slot; not symmetric, so reordered frames do not share keys. */
static inline uint64_t af_tree_path_key(uint64_t parent_key, uint64_t name_hash)
{
	__uint128_t r = (__uint128_t)(parent_key ^ 0xe7037ed1a0b428dbULL) * (name_hash ^ 0x8ebc6af09c88c6e3ULL);
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}
/* The keyed hash of a frame name as af_tree_intern() stores it (a name
 * longer than AF_NAME_MAX is cut first): af_hash_keyed_bytes() of the bytes. */
uint64_t af_tree_name_hash(const char *s, size_t len);
/* Room for `nodes` frames in the path table without growing it (a size
 * guessed from the input: the pages of a large calloc are only made when
 * touched, so an overestimate costs address space, not memory). A large
 * guess also makes room for names, in huge pages (tree.c: reserve_names). */
void af_tree_path_reserve(struct af_tree *t, size_t nodes);
static inline void af_tree_path_prefetch(const struct af_tree *t, uint64_t key)
{
	if (t->npath_slots)
		__builtin_prefetch(&t->path_slots[(uint32_t)key & (t->npath_slots - 1)]);
}
/* The child of parent named s[0..len) whose path key is key (parent's key
 * chained with name_hash, af_tree_name_hash(s, len)); created (weight 0) if
 * it does not exist. Parent must be AF_ROOT or a node made here. A tree
 * filled this way may then use af_tree_child() too: its first call moves
 * these nodes into the (parent, name) table, and later calls here go there. */
uint32_t af_tree_path_child(struct af_tree *t, uint32_t parent, uint64_t key,
			    const char *s, size_t len, uint64_t name_hash);
/* The same for an interned name: the child of parent named name whose path
 * key is key, created if it does not exist. The caller chains the keys
 * (af_tree_path_key of its parent's key and af_tree_name_key(name)) from a
 * key of its own for its outermost parent, which may be any node whose
 * children are all found by key (perf.data: a thread root made by
 * af_tree_add_child). So the keys, and the slots to prefetch, are known for
 * a whole stack before its first frame is looked up. */
uint32_t af_tree_key_child(struct af_tree *t, uint32_t parent, uint64_t key, uint32_t name);
/* An interned name's keyed hash, for af_tree_path_key(). */
static inline uint64_t af_tree_name_key(const struct af_tree *t, uint32_t name)
{
	return t->names[name].hash;
}

/* A new child of parent named name, which has no child of that name yet
 * (the caller knows: a tree built from sorted stacks, where a parent's
 * children are all made while its stacks are read). No table is probed or
 * filled: af_tree_child() finds it later, as it finds the nodes made by
 * path (its first call puts them in its table). Not for a parent whose
 * children are found by path. */
uint32_t af_tree_new_child_slow(struct af_tree *t, uint32_t parent, uint32_t name);
static inline uint32_t af_tree_new_child(struct af_tree *t, uint32_t parent, uint32_t name)
{
	size_t id = t->nnodes;   /* the common case in line: room, and the run goes on */
	if (id == t->cap_nodes || id >= AF_NONE - 1 || t->path_closed || !t->nunhashed ||
	    t->unhashed[t->nunhashed - 1].to != id)
		return af_tree_new_child_slow(t, parent, name);
	struct af_node *p = &t->nodes[parent];
	t->nodes[id] = (struct af_node){ name, parent, AF_NONE, p->first_child, 0, 0 };
	p->first_child = (uint32_t)id;
	t->nnodes = id + 1;
	t->unhashed[t->nunhashed - 1].to = (uint32_t)id + 1;
	return (uint32_t)id;
}
/* n nodes after the last, numbered as n calls of af_tree_new_child would
 * number them (and found later as those are), for nodes made elsewhere
 * (another thread's part of a fold) and moved in: the caller writes every
 * field of each, and the links of their parents. The first's id. Not
 * once af_tree_child was used. */
uint32_t af_tree_new_nodes(struct af_tree *t, size_t n);
/* Room for `nodes` nodes and their names (af_tree_path_reserve without
 * its path table). */
void af_tree_reserve(struct af_tree *t, size_t nodes);

/* A new child that af_tree_child() will never return (thread/process roots). */
uint32_t af_tree_add_child(struct af_tree *t, uint32_t parent, uint32_t name);
/* A new child of parent named name that takes over all of parent's other
 * children (ART orphan exit: a method entered before tracing began becomes
 * the caller of everything its thread did so far). Returns the new node. */
uint32_t af_tree_adopt(struct af_tree *t, uint32_t parent, uint32_t name);
/* Flame charts keep calls in time order: the child of parent named name
 * only if it is parent's most recent child, else a new one (so a call merges
 * with the one just before it, never with an earlier one). */
uint32_t af_tree_child_last(struct af_tree *t, uint32_t parent, uint32_t name);
/* Timelines: the node's position on the time axis, in weight units from the
 * start of its graph. Nodes without one are placed after their siblings. */
void af_tree_set_start(struct af_tree *t, uint32_t node, uint64_t start);
static inline uint64_t af_tree_start(const struct af_tree *t, uint32_t node)
{
	return t->starts && node < t->cap_starts ? t->starts[node] : AF_NO_START;
}

/* Call counts: n more calls entered node / how many did (0 if none) /
 * whether any call was counted in the tree. */
static inline void af_tree_add_calls(struct af_tree *t, uint32_t node, uint64_t n)
{
	t->nodes[node].calls += n;
	t->has_calls = true;
}
static inline void af_tree_add_call(struct af_tree *t, uint32_t node)
{
	af_tree_add_calls(t, node, 1);
}
static inline uint64_t af_tree_calls(const struct af_tree *t, uint32_t node)
{
	return t->nodes[node].calls;
}
static inline bool af_tree_has_calls(const struct af_tree *t)
{
	return t->has_calls;
}

/* Differential graphs: add w to node's weight before the change (makes
 * the array on first use, every other node's before weight 0) / read it. */
void af_tree_add_before(struct af_tree *t, uint32_t node, uint64_t w);
static inline uint64_t af_tree_before(const struct af_tree *t, uint32_t node)
{
	return t->before && node < t->cap_before ? t->before[node] : 0;
}

/* Rename a node made by af_tree_add_child(). */
void af_tree_rename(struct af_tree *t, uint32_t node, uint32_t name);

/* Number of children of node. */
size_t af_tree_nchildren(const struct af_tree *t, uint32_t node);

/* Inclusive weight of every node (self + all descendants), indexed by node
 * id. Caller frees with free(). Iterative post-order, any depth. */
uint64_t *af_tree_totals(const struct af_tree *t);
/* Add w to a node's self weight, held at UINT64_MAX instead of wrapping
 * (weights come from files); af_tree_sums_fit() then refuses the tree. */
static inline void af_tree_add_self(struct af_tree *t, uint32_t node, uint64_t w)
{
	uint64_t *self = &t->nodes[node].self;
	*self = *self > UINT64_MAX - w ? UINT64_MAX : *self + w;
}
/* Whether every node's inclusive weight (self plus descendants) is below
 * UINT64_MAX: the sums every back end makes cannot wrap. One pass. */
bool af_tree_sums_fit(const struct af_tree *t);
/* The same for any per-node weights: w[node] becomes w[node] plus the w of
 * all its descendants (w has one entry per node), held at UINT64_MAX. */
void af_tree_sum_up(const struct af_tree *t, uint64_t *w);

/* Rank of every name in byte-wise (strcmp) order, so that siblings can be
 * sorted by comparing integers. Valid until the next af_tree_intern(). */
const uint32_t *af_tree_name_ranks(struct af_tree *t);

/* Depth of the deepest node below (and counting) `node`; root = 0. */
uint32_t af_tree_max_depth(const struct af_tree *t, uint32_t node);

#endif
