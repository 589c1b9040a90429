/* idmap.h: one map from 64-bit ids (thread ids, method ids, interning ids,
 * track uuids) to 32-bit indices, for every reader. Open addressing with
 * backward-shift deletion. The hash is keyed with a per-process random
 * secret, so ids chosen to collide cannot make lookups linear; nothing
 * iterates the map, so output never depends on the secret. */
#ifndef AF_IDMAP_H
#define AF_IDMAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "util.h"

struct af_idmap {
	uint64_t *keys;
	uint32_t *vals;    /* AF_NONE = empty slot */
	size_t cap, n;
};

/* A zeroed struct is an empty map; af_idmap_init() makes one. */
static inline void af_idmap_init(struct af_idmap *m)
{
	*m = (struct af_idmap){ NULL, NULL, 0, 0 };
}
void af_idmap_release(struct af_idmap *m);

/* The value stored for key, or AF_NONE. */
uint32_t af_idmap_get(const struct af_idmap *m, uint64_t key);
/* Store val (not AF_NONE) for key, replacing any value. */
void af_idmap_put(struct af_idmap *m, uint64_t key, uint32_t val);
/* The value slot of key, made (holding AF_NONE, *found false) if absent;
 * valid until the next put or slot call. */
uint32_t *af_idmap_slot(struct af_idmap *m, uint64_t key, bool *found);
/* Forget key (nothing if absent). */
void af_idmap_del(struct af_idmap *m, uint64_t key);

/* A keyed hash of a 64-bit value (the per-process secret is drawn on first
 * use); for other tables whose keys come from files. */
uint64_t af_hash64(uint64_t x);
/* The same keyed hash over bytes (names from files). */
uint64_t af_hash_keyed_bytes(const void *data, size_t len);
/* The same hash of the bytes of data before the first `stop` byte (all max
 * bytes if there is none), in one pass that also finds it: *len is set to
 * their count. Equal to af_hash_keyed_bytes(data, *len). */
uint64_t af_hash_keyed_until(const void *data, size_t max, unsigned char stop, size_t *len);
/* Tests only: a fixed secret, so a test can build keys that collide under
 * it and show that the per-process secret spreads them again. */
void af_hash_fix_secret(uint64_t a, uint64_t b);

#endif
