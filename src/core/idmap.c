/* idmap.c: the id map and its keyed hash. */
#include "idmap.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>

static uint64_t secret[2];
static pthread_once_t secret_once = PTHREAD_ONCE_INIT;

static void draw_secret(void)
{
	if (getrandom(secret, sizeof secret, GRND_NONBLOCK) != (ssize_t)sizeof secret) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		secret[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
		secret[1] = (uint64_t)(uintptr_t)&ts ^ (uint64_t)ts.tv_sec << 32;
	}
	secret[0] |= 1;
	secret[1] |= 1;
}

/* wyhash's multiply-fold: both halves of the 128-bit product */
static inline uint64_t mum(uint64_t a, uint64_t b)
{
	__uint128_t r = (__uint128_t)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

uint64_t af_hash64(uint64_t x)
{
	pthread_once(&secret_once, draw_secret);
	return mum(mum(x ^ secret[0], secret[1] ^ 0xe7037ed1a0b428dbULL), 0xa0761d6478bd642fULL);
}

/* Bytes (frame names): 8 at a time through the same keyed fold, the length
 * mixed in last so "a" and "a\0" differ. */
uint64_t af_hash_keyed_bytes(const void *data, size_t len)
{
	pthread_once(&secret_once, draw_secret);
	const unsigned char *p = data;
	uint64_t h = secret[0];
	for (; len - (size_t)(p - (const unsigned char *)data) >= 8; p += 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = mum(h ^ w, secret[1] ^ 0xe7037ed1a0b428dbULL);
	}
	uint64_t tail = 0;
	size_t rest = len - (size_t)(p - (const unsigned char *)data);
	if (rest)   /* (an empty name may be NULL: memcpy from NULL is undefined) */
		memcpy(&tail, p, rest);
	h = mum(h ^ tail ^ 0x8ebc6af09c88c6e3ULL, secret[1] ^ (uint64_t)len);
	return mum(h, 0xa0761d6478bd642fULL);
}

/* af_hash_keyed_bytes over the bytes before the first `stop` (or all max
 * bytes), found in the same pass: a word at a time, the stop byte looked for
 * in each word as it is hashed (SWAR: a byte equal to stop becomes zero, and
 * the lowest zero byte of a word is found exactly). Big-endian machines take
 * memchr and a second pass. */
uint64_t af_hash_keyed_until(const void *data, size_t max, unsigned char stop, size_t *len)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	pthread_once(&secret_once, draw_secret);
	const unsigned char *start = data, *p = start, *end = start + max;
	const uint64_t ones = 0x0101010101010101ULL, pattern = ones * stop;
	uint64_t h = secret[0], tail = 0;
	size_t n;
	for (;; p += 8) {
		if (end - p < 8) {   /* the last few bytes of the input */
			const unsigned char *e = memchr(p, stop, (size_t)(end - p));
			size_t k = (size_t)((e ? e : end) - p);
			memcpy(&tail, p, k);
			n = (size_t)(p - start) + k;
			break;
		}
		uint64_t w, x;
		memcpy(&w, p, 8);
		x = w ^ pattern;
		uint64_t zero = (x - ones) & ~x & 0x8080808080808080ULL;
		if (zero) {
			unsigned k = (unsigned)__builtin_ctzll(zero) >> 3;
			tail = k ? w & (~0ULL >> (64 - 8 * k)) : 0;
			n = (size_t)(p - start) + k;
			break;
		}
		h = mum(h ^ w, secret[1] ^ 0xe7037ed1a0b428dbULL);
	}
	*len = n;
	h = mum(h ^ tail ^ 0x8ebc6af09c88c6e3ULL, secret[1] ^ (uint64_t)n);
	return mum(h, 0xa0761d6478bd642fULL);
#else
	const unsigned char *e = memchr(data, stop, max);
	*len = e ? (size_t)(e - (const unsigned char *)data) : max;
	return af_hash_keyed_bytes(data, *len);
#endif
}

void af_hash_fix_secret(uint64_t a, uint64_t b)
{
	pthread_once(&secret_once, draw_secret);
	secret[0] = a | 1;
	secret[1] = b | 1;
}

static size_t find(const struct af_idmap *m, uint64_t key)
{
	size_t mask = m->cap - 1, i = (size_t)af_hash64(key) & mask;
	while (m->vals[i] != AF_NONE && m->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

uint32_t af_idmap_get(const struct af_idmap *m, uint64_t key)
{
	return m->cap ? m->vals[find(m, key)] : AF_NONE;
}

static void grow(struct af_idmap *m)
{
	struct af_idmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 256;
	if (!af_mul_ok(m->cap, sizeof *m->keys))
		AF_BUG("id map too large");
	m->keys = af_xmalloc(m->cap * sizeof *m->keys);
	m->vals = af_xmalloc(m->cap * sizeof *m->vals);
	memset(m->vals, 0xff, m->cap * sizeof *m->vals);
	for (size_t i = 0; i < old.cap; i++) {
		if (old.vals[i] != AF_NONE) {
			size_t s = find(m, old.keys[i]);
			m->keys[s] = old.keys[i];
			m->vals[s] = old.vals[i];
		}
	}
	af_idmap_release(&old);
}

uint32_t *af_idmap_slot(struct af_idmap *m, uint64_t key, bool *found)
{
	if ((m->n + 1) * 2 > m->cap)
		grow(m);
	size_t s = find(m, key);
	*found = m->vals[s] != AF_NONE;
	if (!*found) {
		m->n++;
		m->keys[s] = key;
	}
	return &m->vals[s];
}

void af_idmap_put(struct af_idmap *m, uint64_t key, uint32_t val)
{
	bool found;
	*af_idmap_slot(m, key, &found) = val;
}

void af_idmap_del(struct af_idmap *m, uint64_t key)
{
	if (!m->cap)
		return;
	size_t mask = m->cap - 1, i = find(m, key);
	if (m->vals[i] == AF_NONE)
		return;
	m->vals[i] = AF_NONE;
	m->n--;
	for (size_t j = (i + 1) & mask; m->vals[j] != AF_NONE; j = (j + 1) & mask) {
		size_t home = (size_t)af_hash64(m->keys[j]) & mask;
		/* move j back to i unless its home lies cyclically in (i, j] */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->vals[j] = AF_NONE;
			i = j;
		}
	}
}

void af_idmap_release(struct af_idmap *m)
{
	free(m->keys);
	free(m->vals);
	af_idmap_init(m);
}
