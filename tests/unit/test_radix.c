/* test_radix.c: af_radix_sort_high orders by the high half, stably, for
 * keys of one digit, several, all 32 bits, or all tied. */
#include "harness.h"
#include "read/radix.h"

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
	const uint64_t *got = af_radix_sort_high(a, tmp, n, span ? (uint32_t)(span - 1) : 0);
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
	check_span(2000, 0, 2);                     /* all tie: file order stands */
	check_span(2000, 7, 3);                     /* many ties, one narrow digit */
	check_span(3000, 1u << 12, 4);              /* one full digit */
	check_span(3000, (1u << 12) + 1, 5);        /* just past it: two digits */
	check_span(3000, 1u << 24, 6);              /* two full digits */
	check_span(3000, (uint64_t)UINT32_MAX + 1, 7);   /* every bit: three */
}

void test_radix_passes_follow_max(void)
{
	/* one digit (max under 4096): one pass, the result in tmp; max 0: no
	 * pass, the keys as they were */
	uint64_t a[3] = { 9ull << 32 | 0, 2ull << 32 | 1, 9ull << 32 | 2 }, tmp[3];
	const uint64_t *got = af_radix_sort_high(a, tmp, 3, 9);
	OK(got == tmp);
	OK(got[0] == (2ull << 32 | 1) && got[1] == (9ull << 32 | 0) && got[2] == (9ull << 32 | 2));
	uint64_t z[2] = { 1, 0 }, ztmp[2];
	OK(af_radix_sort_high(z, ztmp, 2, 0) == z && z[0] == 1 && z[1] == 0);
}
