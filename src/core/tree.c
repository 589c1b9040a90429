/* tree.c: call tree nodes, child lookup, name interning, totals. */
#include "tree.h"
#include "idmap.h"
#include "names.h"
#include "palette.h"

#include <stdlib.h>
#include <string.h>

/* Names are copied into blocks that never move, so name pointers stay valid
 * while more names are interned. */
struct af_strblock {
	struct af_strblock *next;
	size_t used, cap;
	char data[];
};

enum { STRBLOCK_MIN = 64 * 1024 };

/* Both tables use the keyed, per-process hash of idmap.c: names and tree
 * shapes come from files, and a fixed hash lets a file choose colliding keys
 * that make every probe linear (a 2 MB folded file took 19 s). Nothing
 * iterates these tables to produce output, so output does not depend on the
 * secret. */
/* A child slot's home: the name's keyed hash (a file cannot predict it)
 * spread by the parent id, so (parent, name) costs no second hash. */
static size_t child_hash(uint32_t parent, uint32_t name_hash)
{
	return name_hash ^ (size_t)((uint64_t)parent * 0x9e3779b97f4a7c15ULL >> 16);
}

void af_tree_init(struct af_tree *t)
{
	memset(t, 0, sizeof *t);
	uint32_t all = af_tree_intern_str(t, "all");
	af_grow(&t->nodes, &t->cap_nodes, 1, sizeof *t->nodes);
	t->nodes[0] = (struct af_node){ all, AF_NONE, AF_NONE, AF_NONE, 0, 0 };
	t->nnodes = 1;
}

void af_tree_release(struct af_tree *t)
{
	for (struct af_strblock *b = t->blocks, *next; b; b = next) {
		next = b->next;
		free(b);
	}
	free(t->nodes);
	free(t->child_slots);
	free(t->path_slots);
	free(t->unhashed);
	free(t->names);
	free(t->name_slots);
	free(t->rank);
	free(t->starts);
	free(t->before);
	memset(t, 0, sizeof *t);
}

/* ---- names ---- */

static char *store_bytes(struct af_tree *t, const char *s, size_t len)
{
	struct af_strblock *b = t->blocks;
	if (!b || b->cap - b->used < len + 1) {
		/* a reserved size is whole huge pages, header included */
		size_t cap = t->strblock_size ? t->strblock_size - sizeof *b : STRBLOCK_MIN;
		if (cap < len + 1)
			cap = len + 1;
		b = af_xmalloc_huge(sizeof *b + cap);
		b->used = 0;
		b->cap = cap;
		b->next = t->blocks;
		t->blocks = b;
	}
	char *p = b->data + b->used;
	memcpy(p, s, len);
	p[len] = 0;
	b->used += len + 1;
	return p;
}

/* The name table with n slots (a power of two), in huge pages once a
 * large input has reserved room for its names (reserve_names). */
static void rehash_names(struct af_tree *t, size_t n)
{
	size_t bytes = n * sizeof(struct af_name_slot);
	struct af_name_slot *slots = t->strblock_size ? af_xmalloc_huge(bytes) : af_xmalloc(bytes);
	for (size_t i = 0; i < n; i++)
		slots[i].id = AF_NONE;
	for (size_t id = 0; id < t->nnames; id++) {
		size_t i = t->names[id].hash & (n - 1);
		while (slots[i].id != AF_NONE)
			i = (i + 1) & (n - 1);
		slots[i] = (struct af_name_slot){ (uint32_t)id, t->names[id].hash };
	}
	free(t->name_slots);
	t->name_slots = slots;
	t->nname_slots = n;
}

static uint32_t intern_hashed(struct af_tree *t, const char *s, size_t len, uint32_t h);

uint32_t af_tree_intern(struct af_tree *t, const char *s, size_t len)
{
	if (len > AF_NAME_MAX) {   /* one hostile name must not blow up every output */
		char cut[AF_NAME_MAX];
		size_t keep = af_name_cut(s, len);
		memcpy(cut, s, keep);
		memcpy(cut + keep, "...", 3);
		return af_tree_intern(t, cut, keep + 3);
	}
	return intern_hashed(t, s, len, (uint32_t)af_hash_keyed_bytes(s, len));
}

/* Intern a name no longer than AF_NAME_MAX whose hash h is known. */
static uint32_t intern_hashed(struct af_tree *t, const char *s, size_t len, uint32_t h)
{
	if ((t->nnames + 1) * 2 > t->nname_slots)   /* small runs start small: few pages */
		rehash_names(t, t->nname_slots ? t->nname_slots * 2 : 64);
	size_t mask = t->nname_slots - 1, i = h & mask;
	for (; t->name_slots[i].id != AF_NONE; i = (i + 1) & mask) {
		if (t->name_slots[i].hash != h)
			continue;
		const struct af_name *nm = &t->names[t->name_slots[i].id];
		if (nm->len == len && memcmp(nm->str, s, len) == 0)
			return t->name_slots[i].id;
	}
	if (t->nnames >= AF_NONE)
		AF_BUG("too many names");
	af_grow(&t->names, &t->cap_names, t->nnames + 1, sizeof *t->names);
	uint32_t id = (uint32_t)t->nnames++;
	t->names[id] = (struct af_name){ store_bytes(t, s, len), (uint32_t)len, h };
	t->name_slots[i] = (struct af_name_slot){ id, h };
	return id;
}

uint32_t af_tree_intern_str(struct af_tree *t, const char *s)
{
	return af_tree_intern(t, s, strlen(s));
}

static int cmp_names(const void *a, const void *b)
{
	const struct af_name *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->str, y->str, n);
	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

const uint32_t *af_tree_name_ranks(struct af_tree *t)
{
	if (t->rank && t->nranked == t->nnames)
		return t->rank;
	/* sort copies whose hash field holds the id: the comparator needs no context */
	struct af_name *order = af_xmalloc((t->nnames ? t->nnames : 1) * sizeof *order);
	for (size_t i = 0; i < t->nnames; i++) {
		order[i] = t->names[i];
		order[i].hash = (uint32_t)i;
	}
	qsort(order, t->nnames, sizeof *order, cmp_names);
	free(t->rank);
	t->rank = af_xmalloc((t->nnames ? t->nnames : 1) * sizeof *t->rank);
	for (size_t i = 0; i < t->nnames; i++)
		t->rank[order[i].hash] = (uint32_t)i;
	t->nranked = t->nnames;
	free(order);
	return t->rank;
}

/* ---- nodes ---- */

/* Room for cap nodes: from a MiB on af_xmalloc_huge's, 2 MiB aligned, so
 * no node straddles two cache lines (a large realloc starts 16 bytes into
 * a page, and every other node would). Nodes are filled in order, so only
 * what is used is touched. */
static void move_nodes(struct af_tree *t, size_t cap)
{
	struct af_node *room = af_xmalloc_huge(cap * sizeof *room);
	memcpy(room, t->nodes, t->nnodes * sizeof *room);
	free(t->nodes);
	t->nodes = room;
	t->cap_nodes = cap;
}

static uint32_t new_node(struct af_tree *t, uint32_t parent, uint32_t name)
{
	if (t->nnodes >= AF_NONE - 1)
		AF_BUG("too many nodes");
	if (t->nnodes == t->cap_nodes)   /* cap_nodes < AF_NONE: doubling fits */
		move_nodes(t, t->cap_nodes * 2);
	uint32_t id = (uint32_t)t->nnodes++;
	struct af_node *p = &t->nodes[parent];
	t->nodes[id] = (struct af_node){ name, parent, AF_NONE, p->first_child, 0, 0 };
	p->first_child = id;
	return id;
}

/* The root is never anyone's child, so node 0 marks an empty child slot. */
enum { EMPTY_SLOT = AF_ROOT };

static void insert_slot(struct af_child_slot *slots, size_t nslots, struct af_child_slot k)
{
	size_t mask = nslots - 1;
	size_t i = child_hash(k.parent, k.hash) & mask;
	while (slots[i].node != EMPTY_SLOT)
		i = (i + 1) & mask;
	slots[i] = k;
}

static void rehash_children(struct af_tree *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 4096;
	/* zeroed: an empty slot is node 0; a table of a MiB or more in huge
	 * pages (its slots are touched at random: in 4 KiB pages a fault each,
	 * 4,000 of them for the Perfetto bench's tree) */
	struct af_child_slot *slots = af_xcalloc_huge(n, sizeof *slots);
	for (size_t i = 0; i < t->nslots; i++) {
		const struct af_child_slot *c = &t->child_slots[i];
		if (c->node != EMPTY_SLOT)
			insert_slot(slots, n, *c);
	}
	free(t->child_slots);
	t->child_slots = slots;
	t->nslots = n;
}

static void close_paths(struct af_tree *t);
static void hash_node(struct af_tree *t, uint32_t id);

uint32_t af_tree_child(struct af_tree *t, uint32_t parent, uint32_t name)
{
	if (!t->path_closed)
		close_paths(t);
	if ((t->nhashed + 1) * 2 > t->nslots)
		rehash_children(t);
	uint32_t h = t->names[name].hash;
	size_t mask = t->nslots - 1, i = child_hash(parent, h) & mask;
	for (struct af_child_slot *c; (c = &t->child_slots[i])->node != EMPTY_SLOT; i = (i + 1) & mask)
		if (c->parent == parent && c->name == name)
			return c->node;
	uint32_t id = new_node(t, parent, name);
	t->child_slots[i] = (struct af_child_slot){ parent, name, h, id };
	t->nhashed++;
	return id;
}

/* ---- children by path (folded stacks) ---- */

uint64_t af_tree_name_hash(const char *s, size_t len)
{
	if (len <= AF_NAME_MAX)
		return af_hash_keyed_bytes(s, len);
	char cut[AF_NAME_MAX];
	size_t keep = af_name_cut(s, len);
	memcpy(cut, s, keep);
	memcpy(cut + keep, "...", 3);
	return af_hash_keyed_bytes(cut, keep + 3);
}

static void rehash_paths(struct af_tree *t, size_t n)
{
	if (n > (size_t)UINT32_MAX + 1)   /* the index comes from a 32-bit key */
		n = (size_t)UINT32_MAX + 1;
	if (n <= t->npath_slots)
		return;
	/* zeroed: an empty slot is node 0 (see rehash_children) */
	struct af_path_slot *slots = af_xcalloc_huge(n, sizeof *slots);
	size_t mask = n - 1;
	for (size_t i = 0; i < t->npath_slots; i++) {
		const struct af_path_slot *c = &t->path_slots[i];
		if (c->node == EMPTY_SLOT)
			continue;
		size_t j = c->key & mask;
		while (slots[j].node != EMPTY_SLOT)
			j = (j + 1) & mask;
		slots[j] = *c;
	}
	free(t->path_slots);
	t->path_slots = slots;
	t->npath_slots = n;
}

/* A large input's names: their records, their table and their bytes get
 * room at once, in huge pages. Grown from a small start, each size of those
 * was fresh 4 KiB pages, a page fault each (15-25 us on this VM): about 450
 * faults for the 60 MB bench file, a tenth of its run (issue 19). The
 * guess is a name per 4 nodes (the bench has one per 11, perf's collapsed
 * stacks about one per 3); a smaller input keeps the small start, as a
 * huge page costs more than the few pages it would use. */
enum { NAMES_RESERVED_MIN = 65536 };   /* a MiB of records */

static void reserve_names(struct af_tree *t, size_t nodes)
{
	size_t names = nodes / 4;
	if (names < NAMES_RESERVED_MIN / 2)
		return;
	if (names < NAMES_RESERVED_MIN)
		names = NAMES_RESERVED_MIN;
	if (names > t->cap_names) {
		struct af_name *room = af_xmalloc_huge(names * sizeof *room);
		memcpy(room, t->names, t->nnames * sizeof *room);
		free(t->names);
		t->names = room;
		t->cap_names = names;
	}
	/* bytes: 32 a name, in 2 to 8 MiB blocks */
	const size_t huge = (size_t)2 << 20;
	size_t block = names * 32 < 4 * huge ? names * 32 : 4 * huge;
	t->strblock_size = (block + huge - 1) & ~(huge - 1);
	size_t slots = t->nname_slots ? t->nname_slots : 64;
	while (slots < names * 2)
		slots *= 2;
	if (slots > t->nname_slots)
		rehash_names(t, slots);
}

void af_tree_reserve(struct af_tree *t, size_t nodes)
{
	reserve_names(t, nodes);
	/* the node array too, so it is not copied to grow */
	if (nodes > t->cap_nodes && nodes < AF_NONE)
		move_nodes(t, nodes);
}

void af_tree_path_reserve(struct af_tree *t, size_t nodes)
{
	/* small inputs get a small table: a zeroed page is a page fault, and
	 * on a small run page faults are most of the CPU (issue 19) */
	size_t n = 64;
	while (n / 2 < nodes && n <= SIZE_MAX / 4 / sizeof *t->path_slots)
		n *= 2;
	if (!t->path_closed)
		rehash_paths(t, n);
	af_tree_reserve(t, nodes);
}

/* The first (parent, name) lookup: every node made by path or by
 * af_tree_new_child goes into the child table, which serves all lookups
 * from then on. The path table and the runs hold exactly those nodes
 * (thread roots made by af_tree_add_child between them are in neither). */
static void close_paths(struct af_tree *t)
{
	t->path_closed = true;
	struct af_path_slot *slots = t->path_slots;
	size_t n = t->npath_slots;
	t->path_slots = NULL;
	t->npath_slots = t->npathed = 0;
	for (size_t i = 0; i < n; i++)
		if (slots[i].node != EMPTY_SLOT)
			hash_node(t, slots[i].node);
	free(slots);
	for (size_t r = 0; r < t->nunhashed; r++)
		for (uint32_t id = t->unhashed[r].from; id < t->unhashed[r].to; id++)
			hash_node(t, id);
	free(t->unhashed);
	t->unhashed = NULL;
	t->nunhashed = t->cap_unhashed = 0;
}

uint32_t af_tree_new_child_slow(struct af_tree *t, uint32_t parent, uint32_t name)
{
	uint32_t id = new_node(t, parent, name);
	if (t->path_closed) {
		hash_node(t, id);
	} else if (t->nunhashed && t->unhashed[t->nunhashed - 1].to == id) {
		t->unhashed[t->nunhashed - 1].to = id + 1;   /* most come one after another */
	} else {
		af_grow(&t->unhashed, &t->cap_unhashed, t->nunhashed + 1, sizeof *t->unhashed);
		t->unhashed[t->nunhashed++] = (struct af_node_run){ id, id + 1 };
	}
	return id;
}

uint32_t af_tree_new_nodes(struct af_tree *t, size_t n)
{
	uint32_t id = (uint32_t)t->nnodes;
	if (t->path_closed || n > AF_NONE - 1 - t->nnodes)
		AF_BUG("too many nodes, or nodes made after af_tree_child");
	if (n == 0)
		return id;
	if (t->nnodes + n > t->cap_nodes)
		move_nodes(t, t->nnodes + n > t->cap_nodes * 2 ? t->nnodes + n : t->cap_nodes * 2);
	t->nnodes += n;
	if (t->nunhashed && t->unhashed[t->nunhashed - 1].to == id) {
		t->unhashed[t->nunhashed - 1].to = id + (uint32_t)n;
	} else {
		af_grow(&t->unhashed, &t->cap_unhashed, t->nunhashed + 1, sizeof *t->unhashed);
		t->unhashed[t->nunhashed++] = (struct af_node_run){ id, id + (uint32_t)n };
	}
	return id;
}

/* The bytes of name id are s[0..len) */
static bool same_name(const struct af_tree *t, uint32_t id, const char *s, size_t len)
{
	return t->names[id].len == len && memcmp(t->names[id].str, s, len) == 0;
}

/* Room for one more node in the path table. */
static void path_room(struct af_tree *t)
{
	if ((t->npathed + 1) * 2 > t->npath_slots)
		rehash_paths(t, t->npath_slots ? t->npath_slots * 2 : 4096);
}

/* A new child of parent named name, in the empty path slot i (key k). */
static uint32_t path_add(struct af_tree *t, size_t i, uint32_t k, uint32_t parent, uint32_t name)
{
	uint32_t id = new_node(t, parent, name);
	t->path_slots[i] = (struct af_path_slot){ k, parent, name, id };
	t->npathed++;
	return id;
}

uint32_t af_tree_path_child(struct af_tree *t, uint32_t parent, uint64_t key,
			    const char *s, size_t len, uint64_t name_hash)
{
	if (t->path_closed)
		return af_tree_child(t, parent, af_tree_intern(t, s, len));
	/* a cut name is compared as interned (every long frame with the same
	 * first AF_NAME_MAX bytes is one frame, as af_tree_intern makes it) */
	uint32_t name = len > AF_NAME_MAX ? af_tree_intern(t, s, len) : AF_NONE;
	path_room(t);
	uint32_t k = (uint32_t)key;
	size_t mask = t->npath_slots - 1, i = k & mask;
	for (struct af_path_slot *c; (c = &t->path_slots[i])->node != EMPTY_SLOT; i = (i + 1) & mask) {
		if (c->key == k && c->parent == parent &&
		    (name != AF_NONE ? c->name == name : same_name(t, c->name, s, len)))
			return c->node;
	}
	if (name == AF_NONE)
		name = intern_hashed(t, s, len, (uint32_t)name_hash);
	return path_add(t, i, k, parent, name);
}

uint32_t af_tree_key_child(struct af_tree *t, uint32_t parent, uint64_t key, uint32_t name)
{
	if (t->path_closed)
		return af_tree_child(t, parent, name);
	path_room(t);
	uint32_t k = (uint32_t)key;
	size_t mask = t->npath_slots - 1, i = k & mask;
	for (struct af_path_slot *c; (c = &t->path_slots[i])->node != EMPTY_SLOT; i = (i + 1) & mask)
		if (c->key == k && c->parent == parent && c->name == name)
			return c->node;
	return path_add(t, i, k, parent, name);
}

uint32_t af_tree_add_child(struct af_tree *t, uint32_t parent, uint32_t name)
{
	return new_node(t, parent, name);
}

uint32_t af_tree_child_last(struct af_tree *t, uint32_t parent, uint32_t name)
{
	uint32_t last = t->nodes[parent].first_child;   /* children are prepended */
	if (last != AF_NONE && t->nodes[last].name == name)
		return last;
	return new_node(t, parent, name);
}

void af_tree_set_start(struct af_tree *t, uint32_t node, uint64_t start)
{
	if (node >= t->cap_starts) {
		size_t old = t->cap_starts;
		af_grow(&t->starts, &t->cap_starts, (size_t)node + 1, sizeof *t->starts);
		for (size_t i = old; i < t->cap_starts; i++)
			t->starts[i] = AF_NO_START;
	}
	t->starts[node] = start;
}

void af_tree_add_before(struct af_tree *t, uint32_t node, uint64_t w)
{
	if (!t->before || node >= t->cap_before) {
		size_t old = t->cap_before;
		af_grow(&t->before, &t->cap_before, (size_t)node + 1, sizeof *t->before);
		memset(t->before + old, 0, (t->cap_before - old) * sizeof *t->before);
	}
	t->before[node] += w;
}

void af_tree_rename(struct af_tree *t, uint32_t node, uint32_t name)
{
	t->nodes[node].name = name;
}

/* Slot index holding node id, or SIZE_MAX if it is not in the table. */
static size_t find_slot(const struct af_tree *t, uint32_t id)
{
	if (!t->nslots)
		return SIZE_MAX;
	size_t mask = t->nslots - 1;
	size_t i = child_hash(t->nodes[id].parent, t->names[t->nodes[id].name].hash) & mask;
	for (; t->child_slots[i].node != EMPTY_SLOT; i = (i + 1) & mask)
		if (t->child_slots[i].node == id)
			return i;
	return SIZE_MAX;
}

/* Empty slot i (backward-shift deletion, so linear probing needs no
 * tombstones): later entries of the same probe run move back into the gap. */
static void unhash_slot(struct af_tree *t, size_t i)
{
	size_t mask = t->nslots - 1;
	for (size_t j = i;;) {
		t->child_slots[i].node = EMPTY_SLOT;
		for (;;) {
			j = (j + 1) & mask;
			struct af_child_slot k = t->child_slots[j];
			if (k.node == EMPTY_SLOT) {
				t->nhashed--;
				return;
			}
			size_t home = child_hash(k.parent, k.hash) & mask;
			/* k stays unless its home lies cyclically in (i, j] */
			bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
			if (!stays) {
				t->child_slots[i] = k;
				i = j;
				break;
			}
		}
	}
}

static void hash_node(struct af_tree *t, uint32_t id)
{
	if ((t->nhashed + 1) * 2 > t->nslots)
		rehash_children(t);
	const struct af_node *n = &t->nodes[id];
	insert_slot(t->child_slots, t->nslots,
		    (struct af_child_slot){ n->parent, n->name, t->names[n->name].hash, id });
	t->nhashed++;
}

uint32_t af_tree_adopt(struct af_tree *t, uint32_t parent, uint32_t name)
{
	if (!t->path_closed)
		close_paths(t);
	t->adopted = true;
	uint32_t kids = t->nodes[parent].first_child;
	t->nodes[parent].first_child = AF_NONE;
	uint32_t n = new_node(t, parent, name);
	t->nodes[n].first_child = kids;
	for (uint32_t c = kids; c != AF_NONE; c = t->nodes[c].next_sibling) {
		size_t slot = find_slot(t, c);
		if (slot != SIZE_MAX)
			unhash_slot(t, slot);
		t->nodes[c].parent = n;
		if (slot != SIZE_MAX)
			hash_node(t, c);
	}
	hash_node(t, n);
	return n;
}

size_t af_tree_nchildren(const struct af_tree *t, uint32_t node)
{
	size_t n = 0;
	for (uint32_t c = t->nodes[node].first_child; c != AF_NONE; c = t->nodes[c].next_sibling)
		n++;
	return n;
}

uint64_t *af_tree_totals(const struct af_tree *t)
{
	uint64_t *tot = af_xmalloc_huge(t->nnodes * sizeof *tot);
	for (size_t i = 0; i < t->nnodes; i++)
		tot[i] = t->nodes[i].self;
	af_tree_sum_up(t, tot);
	return tot;
}

/* Each node adds itself to its parent, after all of its own children have.
 * Nodes are made after their parent, so back to front in the array is such
 * an order: one pass through memory, where following first_child and
 * next_sibling jumps about (a cache miss a node on large trees). Adoption
 * gives a parent made after its children; such a tree is walked in
 * post-order without recursion: down through first_child, up through
 * parent. Either way the sums saturate, so their order does not matter. */
void af_tree_sum_up(const struct af_tree *t, uint64_t *tot)
{
	if (!t->adopted) {
		for (size_t i = t->nnodes; i-- > 1;) {
			uint32_t p = t->nodes[i].parent;
			tot[p] = tot[p] > UINT64_MAX - tot[i] ? UINT64_MAX : tot[p] + tot[i];
		}
		return;
	}
	uint32_t n = AF_ROOT;
	while (t->nodes[n].first_child != AF_NONE)
		n = t->nodes[n].first_child;
	for (;;) {
		uint32_t p = t->nodes[n].parent;
		if (p == AF_NONE)
			break;
		tot[p] = tot[p] > UINT64_MAX - tot[n] ? UINT64_MAX : tot[p] + tot[n];
		uint32_t s = t->nodes[n].next_sibling;
		if (s == AF_NONE) {
			n = p;
			continue;
		}
		n = s;
		while (t->nodes[n].first_child != AF_NONE)
			n = t->nodes[n].first_child;
	}
}

/* Every node descends from the root and weights are never negative, so no
 * inclusive weight exceeds the root's, the sum of every self weight: one
 * pass, and no array of totals (on a large tree its fresh pages were a
 * page fault per 4 KiB). */
bool af_tree_sums_fit(const struct af_tree *t)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < t->nnodes; i++) {
		uint64_t w = t->nodes[i].self;
		if (w >= UINT64_MAX - sum)
			return false;
		sum += w;
	}
	return true;
}

uint32_t af_tree_max_depth(const struct af_tree *t, uint32_t node)
{
	uint32_t best = 0, depth = 0, n = node;
	for (;;) {
		if (depth > best)
			best = depth;
		if (t->nodes[n].first_child != AF_NONE) {
			n = t->nodes[n].first_child;
			depth++;
			continue;
		}
		while (n != node && t->nodes[n].next_sibling == AF_NONE) {
			n = t->nodes[n].parent;
			depth--;
		}
		if (n == node)
			return best;
		n = t->nodes[n].next_sibling;
	}
}
