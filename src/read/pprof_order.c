/* pprof_order.c: the order in which pprof_fold.c folds a batch of
 * samples. A sample's place: its thread, then the first KEY_BYTES bytes of
 * its ids from the root's end (the encodings of its outermost callers;
 * zeros past its first id), then its place in the file. Equal callers have
 * equal bytes, so the samples that share them sort together: a radix sort
 * of KEY_DIGITS + 1 digits of 32 bits, linear in the samples whatever
 * their depth.
 *
 * Samples share their outermost callers (the bench's 88,000 have 12,802
 * keys), so the keys are made distinct first (a table of them), those
 * sorted, and the samples placed by their key's rank in one stable pass:
 * the same order, the radix passes over a seventh of the samples. When the
 * keys are not that few (more than half the samples), or the table's
 * probes run long (keys aimed at one slot), the samples are sorted
 * themselves. */
#include "pprof_int.h"
#include "radix.h"
#include "core/util.h"

#include <string.h>

enum { KEY_DIGITS = 6, KEY_BYTES = 4 * KEY_DIGITS };
/* the room of either sort, a sample's bytes (sort_samples, sort_by_keys) */
_Static_assert(PP_ORDER_ROOM >= 2 * sizeof(uint64_t) + (KEY_DIGITS + 1) * sizeof(uint32_t), "room for a sort");
_Static_assert(PP_ORDER_ROOM >= (32 + 8 + 4 * (KEY_DIGITS + 1)) / 2 + 4 + 16, "room for a sort by keys");

/* samples at least for the keys to be made distinct (tests change it) */
size_t pp_distinct_min = 1024;

/* The 4 bytes of ids[0..j) that end at j, the last the highest; zeros
 * before ids[0]. */
static uint32_t key_digit(const uint8_t *ids, size_t j)
{
	if (j >= 4)
		return (uint32_t)af_le(ids + j - 4, 4);
	uint32_t v = 0;
	for (size_t b = 0; b < 4; b++)
		v = v << 8 | (j ? ids[--j] : 0);
	return v;
}

/* A sample's key: its root, then digits 1-6 two by two (the first the
 * higher half), so that the words compared in turn order keys as the
 * digits do */
struct key { uint64_t root, w[KEY_DIGITS / 2]; };

static struct key key_of(const struct pending *s)
{
	struct key k = { s->root, { 0 } };
	if (s->len >= KEY_BYTES) {   /* most: three loads */
		for (size_t d = 0; d < KEY_DIGITS / 2; d++)
			k.w[d] = af_le(s->ids + s->len - 8 * d - 8, 8);
		return k;
	}
	for (size_t d = 0; d < KEY_DIGITS; d++) {
		uint64_t v = s->len > 4 * d ? key_digit(s->ids, s->len - 4 * d) : 0;
		k.w[d / 2] |= d % 2 ? v : v << 32;
	}
	return k;
}

/* digit d (0 the most significant) of key k, as the radix sort reads it */
static uint32_t digit_of(const struct key *k, size_t d)
{
	return d == 0 ? (uint32_t)k->root : (uint32_t)(k->w[(d - 1) / 2] >> ((d - 1) % 2 ? 0 : 32));
}

/* The n keys whose digits are digits (digit-major) in their order, as
 * indices into order: stable passes from the least significant digit
 * (equal keys keep their order); a: room for 2n keys. */
static void radix_order(const uint32_t *digits, size_t n, uint64_t *a, uint32_t *order)
{
	uint64_t *tmp = a + n, *cur = a;
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
		cur = af_radix_sort_high(cur, cur == a ? tmp : a, n, max);
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)cur[i];
}

/* The samples sorted themselves */
static void sort_samples(const struct pp *f, void *room, uint32_t *order)
{
	size_t n = f->npending;
	uint64_t *a = room;
	uint32_t *digits = (uint32_t *)(a + 2 * n);
	for (size_t i = 0; i < n; i++) {
		struct key k = key_of(&f->pending[i]);
		for (size_t d = 0; d <= KEY_DIGITS; d++)
			digits[d * n + i] = digit_of(&k, d);
	}
	radix_order(digits, n, a, order);
}

enum { NO_KEY = UINT32_MAX, MAX_PROBES = 64 };

static uint64_t key_hash(const struct key *k)
{
	uint64_t h = k->root * 0x27d4eb2f165667c5ull ^ k->w[0] * 0x9e3779b97f4a7c15ull;
	h = (h ^ h >> 29) + k->w[1] * 0xc2b2ae3d27d4eb4full;
	h = (h ^ h >> 31) + k->w[2] * 0x165667b19e3779f9ull;
	return h ^ h >> 32;
}

/* The distinct keys of the samples into keys (*m of them, at most n / 2)
 * and each sample's into which[i]; false when there are more or a probe
 * ran long. slots: a power of two, 2n or more, of them. */
static bool distinct_keys(const struct pp *f, uint32_t *slots, size_t nslots, struct key *keys, size_t *m,
			  uint32_t *which)
{
	size_t n = f->npending, most = n / 2, mask = nslots - 1;
	memset(slots, 0xff, nslots * sizeof *slots);
	*m = 0;
	for (size_t i = 0; i < n; i++) {
		struct key k = key_of(&f->pending[i]);
		size_t at = key_hash(&k) & mask, probes = 0;
		uint32_t d;
		while ((d = slots[at]) != NO_KEY && memcmp(&keys[d], &k, sizeof k) != 0) {
			if (++probes > MAX_PROBES)
				return false;
			at = (at + 1) & mask;
		}
		if (d == NO_KEY) {
			if (*m == most)
				return false;
			d = slots[at] = (uint32_t)(*m)++;
			keys[d] = k;
		}
		which[i] = d;
	}
	return true;
}

/* The samples by their distinct keys' ranks, in the file's order among
 * equal keys (a counting sort), where the keys are few; false otherwise */
static bool sort_by_keys(const struct pp *f, void *room, uint32_t *order)
{
	size_t n = f->npending, nslots = 1, m;
	while (nslots < 2 * n)
		nslots *= 2;
	/* the room (pprof_int.h: PP_ORDER_ROOM a sample): keys, radix keys
	 * and digits of at most n / 2 keys, each sample's key, the slots */
	struct key *keys = room;
	uint64_t *a = (uint64_t *)(keys + n / 2);
	uint32_t *digits = (uint32_t *)(a + n), *which = digits + (KEY_DIGITS + 1) * (n / 2), *slots = which + n;
	if (!distinct_keys(f, slots, nslots, keys, &m, which))
		return false;
	for (size_t i = 0; i < m; i++)
		for (size_t d = 0; d <= KEY_DIGITS; d++)
			digits[d * m + i] = digit_of(&keys[i], d);
	uint32_t *rank = slots, *at = slots + m + 1;   /* (the slots are done with) */
	radix_order(digits, m, a, rank);           /* rank[r]: the key of rank r */
	for (size_t r = 0; r < m; r++)
		at[rank[r]] = (uint32_t)r;
	memset(rank, 0, (m + 1) * sizeof *rank);   /* then: where rank r starts */
	for (size_t i = 0; i < n; i++)
		rank[at[which[i]] + 1]++;
	for (size_t r = 0; r < m; r++)
		rank[r + 1] += rank[r];
	for (size_t i = 0; i < n; i++)
		order[rank[at[which[i]]]++] = (uint32_t)i;
	return true;
}

void pp_sample_order(const struct pp *f, void *room, uint32_t *order)
{
	if (f->npending < pp_distinct_min || !sort_by_keys(f, room, order))
		sort_samples(f, room, order);
}
