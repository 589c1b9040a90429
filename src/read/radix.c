/* radix.c: least significant digit first, each pass a stable scatter.
 * Branch-free where a heap merge of the runs the events came in costs a
 * mispredicted comparison or two per event (issue 16). Digits are as wide
 * as the keys need: the bench's folds span 12 ms (24 bits of ns), two
 * passes of 12 bits, where bytes took three and a count of all four. */
#include "radix.h"

#include <string.h>

enum { MAX_BITS = 12 };   /* 4096 counts: in the L1 cache with the keys' digits */

uint64_t *af_radix_sort_high(uint64_t *a, uint64_t *tmp, size_t n, uint32_t max)
{
	unsigned bits = max ? 32 - (unsigned)__builtin_clz(max) : 0;
	unsigned passes = (bits + MAX_BITS - 1) / MAX_BITS;
	if (n < 2 || passes == 0)
		return a;
	unsigned width = (bits + passes - 1) / passes, shift = 32;
	uint64_t mask = ((uint64_t)1 << width) - 1;
	size_t count[(size_t)1 << MAX_BITS];
	for (unsigned p = 0; p < passes; p++, shift += width) {
		memset(count, 0, ((size_t)1 << width) * sizeof *count);
		for (size_t i = 0; i < n; i++)
			count[a[i] >> shift & mask]++;
		for (size_t b = 0, sum = 0; b <= mask; b++) {
			size_t c = count[b];
			count[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[a[i] >> shift & mask]++] = a[i];
		uint64_t *t = a;
		a = tmp;
		tmp = t;
	}
	return a;
}
