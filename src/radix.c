/* radix.c: least significant byte first, each pass a stable scatter.
 * Branch-free where a heap merge of the runs the events came in costs a
 * mispredicted comparison or two per event (issue 16). */
#include "radix.h"

#include <string.h>

enum { DIGITS = 4, RADIX = 256 };

static unsigned digit(uint64_t key, unsigned d)
{
	return (unsigned)(key >> (32 + 8 * d)) & (RADIX - 1);
}

uint64_t *af_radix_sort_high(uint64_t *a, uint64_t *tmp, size_t n)
{
	if (n < 2)
		return a;
	size_t count[DIGITS][RADIX];
	memset(count, 0, sizeof count);
	for (size_t i = 0; i < n; i++)
		for (unsigned d = 0; d < DIGITS; d++)
			count[d][digit(a[i], d)]++;
	for (unsigned d = 0; d < DIGITS; d++) {
		size_t *at = count[d];
		if (at[digit(a[0], d)] == n)
			continue;   /* every key has this byte: the order stands */
		for (size_t b = 0, sum = 0; b < RADIX; b++) {
			size_t c = at[b];
			at[b] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[at[digit(a[i], d)]++] = a[i];
		uint64_t *t = a;
		a = tmp;
		tmp = t;
	}
	return a;
}
