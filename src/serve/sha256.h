/* sha256.h: SHA-256 (FIPS 180-4), streaming. The serve subcommand names an
 * upload by the hash of its bytes, so the same file always gets the same
 * link. No allocation; a context is a plain struct on the stack. */
#ifndef AF_SHA256_H
#define AF_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define AF_SHA256_LEN 32                   /* digest bytes */
#define AF_SHA256_HEX (2 * AF_SHA256_LEN)  /* lowercase hex digits */

struct af_sha256 {
	uint32_t h[8];         /* chaining state */
	uint64_t bytes;        /* message length so far */
	uint8_t block[64];     /* pending partial block */
	size_t used;           /* bytes in block */
};

void af_sha256_init(struct af_sha256 *c);
/* Add len bytes of message (any split gives the same digest). */
void af_sha256_update(struct af_sha256 *c, const void *data, size_t len);
/* Finish: the digest into out; the context must be re-initialised to reuse. */
void af_sha256_final(struct af_sha256 *c, uint8_t out[AF_SHA256_LEN]);
/* Finish into AF_SHA256_HEX lowercase hex digits and a NUL. */
void af_sha256_final_hex(struct af_sha256 *c, char out[AF_SHA256_HEX + 1]);

#endif
