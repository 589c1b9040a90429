/* test_radix.c: af_radix_sort_high orders by the high half, stably, for
 * keys that share bytes, differ in every byte, or all tie. */
#include "harness.h"
#include "radix.h"

#include <stdlib.h>

/* Insertion sort by the high half: stable, obviously right. */
static void reference(uint64_t *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint64_t v = a[i];
		size_t j = i;
		for (; j > 0 && a[j - 1] >> 32 > v >> 32; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static uint64_t next(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 17;
}

/* n keys whose high halves are drawn below span, low halves their index. */
static void check_span(size_t n, uint64_t span, uint64_t seed)
{
	uint64_t *a = malloc(n * sizeof *a), *tmp = malloc(n * sizeof *tmp), *want = malloc(n * sizeof *want);
	for (size_t i = 0; i < n; i++)
		a[i] = want[i] = (span ? next(&seed) % span : 0) << 32 | i;
	reference(want, n);
	const uint64_t *got = af_radix_sort_high(a, tmp, n);
	OK(got == a || got == tmp);
	OK(n == 0 || memcmp(got, want, n * sizeof *want) == 0);
	free(a);
	free(tmp);
	free(want);
}

void test_radix_sorts_stably(void)
{
	check_span(0, 10, 1);
	check_span(1, 10, 1);
	check_span(2000, 0, 2);              /* all tie: file order stands */
	check_span(2000, 7, 3);              /* many ties, one byte */
	check_span(3000, 1u << 20, 4);       /* three bytes, the top one shared */
	check_span(3000, UINT32_MAX, 5);     /* every byte */
	check_span(3000, 256, 6);            /* only the lowest byte differs */
}

void test_radix_skips_shared_bytes(void)
{
	/* keys already in order that differ only in their top byte: one pass,
	 * so the result lands in tmp */
	uint64_t a[3] = { 1ull << 56 | 2, 2ull << 56 | 0, 3ull << 56 | 1 }, tmp[3];
	const uint64_t *got = af_radix_sort_high(a, tmp, 3);
	OK(got == tmp);
	OK(got[0] == (1ull << 56 | 2) && got[1] == (2ull << 56 | 0) && got[2] == (3ull << 56 | 1));
}
