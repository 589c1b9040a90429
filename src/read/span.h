/* span.h: a run of an input's bytes (a name, a path) kept by pointer and
 * length instead of copied, as the binary readers that share it (perf.data,
 * simpleperf) hold their files' strings; valid while the input is. */
#ifndef AF_SPAN_H
#define AF_SPAN_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct af_span {
	const uint8_t *s;
	uint32_t n;
};

static inline bool af_span_eq(struct af_span a, struct af_span b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.s, b.s, a.n) == 0);
}

#endif
