/* perfscript_cache.c: the perf script reader's cache of whole samples.
 * Real captures print the same stack again and again, byte for byte (of
 * the samples in FlameGraph's perf-numa file 76% repeat an earlier one, of
 * speedscope's system-wide one 94%, of perf-vertx 13%): a sample whose
 * frame lines are those of one read before, below the same thread, ends at
 * the same node, so the reader adds its weight there without reading its
 * frames, making their names or finding them in the tree. Bytes are
 * compared in full, never a hash alone; memory is capped (emptied when
 * full); the entries tried for a key are few, so a file of stacks that
 * share long beginnings costs a bounded number of compares a sample. The
 * keys' low bits pick a bucket of a table of its own (an idmap hashed
 * them again and cost a fifth of the finds' instructions). */
#include "perfscript_int.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* entries of one key compared before giving up, and entries of a bucket
 * looked at (those of other keys too: keys are the reader's keyed hashes,
 * so a bucket holds few, but a bound is a bound) */
enum { TRIES = 8, WALK = 32 };

static size_t test_max;   /* tests only: what a test set, 0 if none */

size_t ps_cache_max(void)
{
	return test_max ? test_max : PS_CACHE_MAX;
}

void ps_cache_test_max(size_t max)
{
	test_max = max;
}

void ps_cache_init(struct ps_cache *c, size_t max)
{
	memset(c, 0, sizeof *c);
	c->max = max;
}

void ps_cache_release(struct ps_cache *c)
{
	free(c->buckets);
	free(c->arena);
	free(c->e);
	memset(c, 0, sizeof *c);
}

void ps_cache_expect(struct ps_cache *c, size_t bytes)
{
	af_grow_huge(&c->arena, &c->arena_cap, bytes < c->max ? bytes : c->max, 1);
}

static uint32_t *bucket(const struct ps_cache *c, uint64_t key)
{
	return &c->buckets[key & (c->nbuckets - 1)];
}

const struct ps_cached *ps_cache_find(struct ps_cache *c, uint64_t key, uint32_t thread, const char *s,
				      size_t avail)
{
	if (!c->n)
		return NULL;
	uint32_t *head = bucket(c, key), prev = AF_NONE;
	unsigned tries = 0, walked = 0;
	for (uint32_t i = *head; i != AF_NONE && tries < TRIES && walked++ < WALK; prev = i, i = c->e[i].next) {
		struct ps_cached *e = &c->e[i];
		if (e->key != key)
			continue;
		tries++;
		if (!ps_same_sample(c, e, thread, s, avail))
			continue;
		if (prev != AF_NONE) {   /* to the front: the stacks that repeat stay first */
			c->e[prev].next = e->next;
			e->next = *head;
			*head = i;
		}
		return e;
	}
	return NULL;
}

/* What the cache holds, in bytes: the arena, its entries and their
 * buckets (at most four a entry). */
static size_t held(const struct ps_cache *c, size_t more_bytes)
{
	return c->arena_len + more_bytes + (c->n + 1) * (sizeof *c->e + 4 * sizeof *c->buckets);
}

/* Buckets for more entries (twice as many, from 1024), the entries chained
 * in them again, newest first. */
static void more_buckets(struct ps_cache *c)
{
	free(c->buckets);
	c->nbuckets = c->nbuckets ? 2 * c->nbuckets : 1024;
	c->buckets = af_xmalloc(c->nbuckets * sizeof *c->buckets);
	memset(c->buckets, 0xff, c->nbuckets * sizeof *c->buckets);   /* AF_NONE */
	for (size_t i = 0; i < c->n; i++) {
		uint32_t *head = bucket(c, c->e[i].key);
		c->e[i].next = *head;
		*head = (uint32_t)i;
	}
}

uint32_t ps_cache_put(struct ps_cache *c, uint64_t key, uint32_t thread, const char *s, size_t len, uint32_t lines,
		      uint32_t leaf)
{
	if (len == 0 || len > c->max / 4 || len > UINT32_MAX)
		return AF_NONE;
	if (held(c, len) > c->max) {   /* full: begin again with the samples that follow */
		if (c->nbuckets)
			memset(c->buckets, 0xff, c->nbuckets * sizeof *c->buckets);   /* AF_NONE */
		c->arena_len = 0;
		c->n = 0;
		c->resets++;
	}
	if (c->n == c->cap)
		af_grow(&c->e, &c->cap, c->n + 1, sizeof *c->e);
	if (2 * (c->n + 1) > c->nbuckets)
		more_buckets(c);
	uint32_t *head = bucket(c, key);
	c->e[c->n] = (struct ps_cached){ c->arena_len, (uint32_t)len, lines, thread, leaf, *head, AF_NONE, key };
	*head = (uint32_t)c->n++;
	af_grow_huge(&c->arena, &c->arena_cap, c->arena_len + len, 1);
	memcpy(c->arena + c->arena_len, s, len);
	c->arena_len += len;
	return *head;
}
