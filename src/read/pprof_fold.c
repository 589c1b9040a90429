/* pprof_fold.c: a pprof profile's samples into the call tree, in an order
 * that keeps together the samples that share their callers: sorted by
 * thread and by their first location ids from the root. Folded one after
 * another in the file's order (Go's is no order of stacks), nearly every
 * frame was a lookup in a path table of every node (16 MiB for the bench's
 * 10 MB profile), a cache miss each, and each sample's new nodes landed
 * far from its callers'. In this order a sample shares most of its
 * callers with the one before, found without a lookup (fold_frames), and
 * the nodes are made depth first, so the walks of every back end read the
 * node array nearly in order. The tree is the same in any order; only the
 * order of siblings, which every drawing sorts, follows it. */
#include "pprof_int.h"
#include "radix.h"
#include "core/tree.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* Samples kept at most before those are folded: a profile of many small
 * samples keeps a bounded few MiB (80 bytes a sample while sorted), not a
 * record of every sample. */
enum { PENDING_MAX = 1 << 18 };

void pp_fold_reserve(struct pp *f, uint64_t n)
{
	size_t cap = n < PENDING_MAX ? (size_t)n : PENDING_MAX;
	if (cap > f->cap_pending) {   /* at once: no copy of it as it grows */
		free(f->pending);
		f->pending = af_xmalloc_huge(cap * sizeof *f->pending);
		f->cap_pending = cap;
	}
}

void pp_fold_later(struct pp *f, uint32_t root, uint64_t w, const uint8_t *ids, size_t len, size_t nlocs,
		   size_t nframes)
{
	if (!ids) {   /* ids not as one packed field: packed here */
		af_grow(&f->recoded, &f->cap_recoded, f->nrecoded + nlocs * 10, 1);
		size_t from = f->nrecoded;
		for (size_t i = 0; i < nlocs; i++) {
			uint64_t v = f->stack[i];
			for (; v >= 0x80; v >>= 7)
				f->recoded[f->nrecoded++] = (uint8_t)(v | 0x80);
			f->recoded[f->nrecoded++] = (uint8_t)v;
		}
		len = f->nrecoded - from;
		af_grow(&f->late, &f->cap_late, f->nlate + 2, sizeof *f->late);
		f->late[f->nlate++] = f->npending;
		f->late[f->nlate++] = from;
	}
	/* a sample of at most MAX_FRAMES frames (fold_sample): len and nframes fit */
	af_grow_huge(&f->pending, &f->cap_pending, f->npending + 1, sizeof *f->pending);
	f->pending[f->npending++] = (struct pending){ ids, w, (uint32_t)len, (uint32_t)nframes, root, 0 };
	if (f->npending == PENDING_MAX)
		pp_fold_all(f);
}

/* The key of the frames right below node (a root, a thread or a process
 * made by af_tree_add_child): keyed by the node, so no two threads share
 * their frames' keys. */
static uint64_t root_key(uint32_t node)
{
	return node == AF_ROOT ? AF_PATH_ROOT_KEY
			       : af_tree_path_key(AF_PATH_ROOT_KEY, af_hash_keyed_bytes(&node, sizeof node));
}

/* Fold n frames (root first) below root; returns the leaf's node. Frames
 * the sample folded before had from the same root keep their nodes (the
 * first `same` known to be those, names[0..same) not read); the
 * others' path keys are worked
 * out and their slots prefetched before the first is looked up, so one
 * stack's probes wait for memory together (the tree's table is far larger
 * than the caches). */
static uint32_t fold_frames(struct pp *f, uint32_t root, const struct lf *names, size_t n, size_t same)
{
	struct af_tree *t = &f->p->tree;
	if (root == f->path_root)
		while (same < n && same < f->depth && f->path[same].name == names[same].name)
			same++;
	af_grow(&f->path, &f->cap_path, n, sizeof *f->path);
	uint64_t key = same ? f->path[same - 1].key : root_key(root);
	for (size_t i = same; i < n; i++) {
		f->path[i].name = names[i].name;
		f->path[i].key = key = af_tree_path_key(key, names[i].hash);
		af_tree_path_prefetch(t, key);
	}
	uint32_t node = same ? f->path[same - 1].node : root;
	for (size_t i = same; i < n; i++)
		f->path[i].node = node = af_tree_key_child(t, node, f->path[i].key, f->path[i].name);
	f->depth = n;
	f->path_root = root;
	return node;
}

/* ---- the order ---- */

/* A sample's place: its thread, then the first KEY_BYTES bytes of its ids
 * from the root's end (the encodings of its outermost callers; zeros past
 * its first id), then its place in the file. Equal callers have equal
 * bytes, so the samples that share them sort together; how the samples
 * with equal first bytes are ordered changes no node, so the key stops
 * there: a radix sort of KEY_DIGITS + 1 digits of 32 bits, linear in the
 * samples whatever their depth. */
enum { KEY_DIGITS = 6, KEY_BYTES = 4 * KEY_DIGITS };

/* digit d (0 the most significant) of every sample, digit-major: the
 * passes read one small array each */
static uint32_t *key_digits(const struct pp *f)
{
	size_t n = f->npending;
	uint32_t *digits = af_xmalloc_huge((KEY_DIGITS + 1) * (n ? n : 1) * sizeof *digits);
	for (size_t i = 0; i < n; i++) {
		const struct pending *s = &f->pending[i];
		size_t j = s->len;
		digits[i] = s->root;
		for (int d = 1; d <= KEY_DIGITS; d++) {
			uint32_t v = 0;
			for (int b = 0; b < 4; b++)
				v = v << 8 | (j ? s->ids[--j] : 0);
			digits[(size_t)d * n + i] = v;
		}
	}
	return digits;
}

/* The samples' indices in the order above (stable passes from the least
 * significant digit: equal keys keep the file's order). */
static uint32_t *sample_order(const struct pp *f)
{
	size_t n = f->npending;
	uint32_t *digits = key_digits(f);
	uint64_t *a = af_xmalloc_huge(2 * (n ? n : 1) * sizeof *a), *tmp = a + n, *cur = a;
	for (size_t i = 0; i < n; i++)
		a[i] = i;
	for (int d = KEY_DIGITS; d >= 0; d--) {
		const uint32_t *digit = digits + (size_t)d * n;
		uint32_t max = 0;
		for (size_t i = 0; i < n; i++) {
			uint32_t k = (uint32_t)cur[i], v = digit[k];
			cur[i] = (uint64_t)v << 32 | k;
			max |= v;
		}
		uint64_t *sorted = af_radix_sort_high(cur, cur == a ? tmp : a, n, max);
		cur = sorted;
	}
	/* a small array of its own: the keys' pages go back before the tree grows */
	uint32_t *order = af_xmalloc((n ? n : 1) * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)cur[i];
	free(a);
	free(digits);
	return order;
}

/* How many bytes at the end of s's ids are the end of the previous
 * sample's too, from a varint's start (0 for another thread): those ids
 * are its callers' and need no decoding. */
static size_t shared_end(const struct pp *f, const struct pending *s)
{
	if (!f->prev_ids || s->root != f->prev_root)
		return 0;
	const uint8_t *a = s->ids + s->len, *b = f->prev_ids + f->prev_len;
	size_t k = 0, most = s->len < f->prev_len ? s->len : f->prev_len;
	for (; k + 8 <= most; k += 8) {   /* 8 bytes a step: the last byte is the highest */
		uint64_t x, y;
		memcpy(&x, a - k - 8, 8);
		memcpy(&y, b - k - 8, 8);
		if (x != y) {
			k += (size_t)__builtin_clzll(x ^ y) / 8;
			goto cut;
		}
	}
	while (k < most && a[-1 - (ptrdiff_t)k] == b[-1 - (ptrdiff_t)k])
		k++;
cut:;
	bool whole = (k == s->len || a[-1 - (ptrdiff_t)k] < 0x80) && (k == f->prev_len || b[-1 - (ptrdiff_t)k] < 0x80);
	if (whole || k == 0)
		return k;
	const uint8_t *p = a - k;   /* a varint cut: from the end of its last byte on */
	while (*p >= 0x80)
		p++;
	return (size_t)(a - p - 1);
}

/* Fold sample s: its locations from the last (the root), each one's
 * frames root-most first. The ids it shares at the root's end with the
 * sample before (sorted, most of them) are those frames already folded:
 * only the rest is decoded (fold_sample read them: known, whole). */
static void fold_one(struct pp *f, const struct pending *s)
{
	size_t k = shared_end(f, s), shared = 0, at = s->len - k;
	for (; at + 8 <= s->len; at += 8) {   /* a varint's last byte is below 0x80 */
		uint64_t x;
		memcpy(&x, s->ids + at, 8);
		shared += (size_t)__builtin_popcountll(~x & 0x8080808080808080ull);
	}
	for (; at < s->len; at++)
		shared += s->ids[at] < 0x80;
	size_t nlocs = af_proto_unpack(s->ids, s->len - k, f->stack), same = f->prev_frames[shared], n = same;
	struct lf *names = f->names;   /* room for the most frames (pp_fold_all) */
	for (size_t i = nlocs; i-- > 0;) {
		struct lf v = pp_location(f, f->stack[i]);
		if (v.name & MULTI) {
			memcpy(names + n, f->frames + (v.name & ~MULTI), v.hash * sizeof *names);
			n += v.hash;
		} else {
			names[n++] = v;
		}
		shared++;
		f->prev_frames[shared] = (uint32_t)n;
	}
	f->prev_ids = s->ids;
	f->prev_len = s->len;
	f->prev_root = s->root;
	af_tree_add_self(&f->p->tree, fold_frames(f, s->root, names, n, same), s->weight);
}

void pp_fold_all(struct pp *f)
{
	size_t most = 0;
	for (size_t i = 0; i < f->nlate; i += 2)   /* recoded is where it stays now */
		f->pending[f->late[i]].ids = f->recoded + f->late[i + 1];
	size_t frames = 0;
	for (size_t i = 0; i < f->npending; i++) {
		most = f->pending[i].len > most ? f->pending[i].len : most;
		frames = f->pending[i].nframes > frames ? f->pending[i].nframes : frames;
	}
	af_grow(&f->stack, &f->cap_stack, most, sizeof *f->stack);   /* a value a byte at most */
	af_grow(&f->names, &f->cap_names, frames, sizeof *f->names);
	af_grow(&f->prev_frames, &f->cap_prev_frames, most + 1, sizeof *f->prev_frames);
	f->prev_frames[0] = 0;
	f->prev_ids = NULL;   /* the last batch's recoded ids are gone */
	uint32_t *order = sample_order(f);
	/* in this order the samples' records and ids are read at random:
	 * each fetched some samples ahead, its record first */
	enum { AHEAD = 8 };
	for (size_t i = 0; i < f->npending; i++) {
		if (i + 2 * AHEAD < f->npending)
			__builtin_prefetch(&f->pending[order[i + 2 * AHEAD]]);
		if (i + AHEAD < f->npending) {
			const struct pending *s = &f->pending[order[i + AHEAD]];
			__builtin_prefetch(s->ids);
			__builtin_prefetch(s->ids + s->len - 1);
		}
		fold_one(f, &f->pending[order[i]]);
	}
	free(order);
	f->npending = f->nrecoded = f->nlate = 0;   /* their room serves the next ones */
}
