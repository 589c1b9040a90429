/* test_zints.c: zints.c's lists (a .cpuprofile's samples and times): values
 * pushed one at a time and in runs (zints_push_n) read back in order in
 * runs (zints_read), in and across blocks, widths from 1 to 10 bytes, and
 * a rewind. */
#include "harness.h"
#include "read/zints.h"

#include <stdlib.h>

static int64_t value(size_t i)
{
	switch (i % 5) {
	case 0: return (int64_t)(i * 7);
	case 1: return -(int64_t)i;
	case 2: return INT64_MIN + (int64_t)i;
	case 3: return INT64_MAX - (int64_t)i;
	default: return (int64_t)(i * 2654435761u % 100000);
	}
}

void test_zints_runs_and_blocks(void)
{
	enum { N = 1500000 };   /* a 10-byte value in five: past several 4 MiB blocks */
	struct zints a = { 0 };
	int64_t *v = malloc(N * sizeof *v);
	for (size_t i = 0; i < N; i++)
		v[i] = value(i);
	size_t at = 0, run = 1;
	while (at < N) {   /* runs of 1, 2, 3... 700 values, and single pushes */
		size_t m = run < N - at ? run : N - at;
		if (run % 3 == 0)
			for (size_t k = 0; k < m; k++)
				zints_push(&a, v[at + k]);
		else
			zints_push_n(&a, v + at, m);
		at += m;
		run = run % 700 + 1;
	}
	INT_EQ(a.n, N);
	OK(a.nblk > 2);
	/* read back in runs of 1 to 300, across blocks */
	struct zcursor r = { 0, 0, 0 };
	int64_t got[300];
	size_t wrong = 0;
	for (size_t i = 0, m = 1; i < N; i += m, m = m % 300 + 1) {
		m = m < N - i ? m : N - i;
		zints_read(&a, &r, got, m);
		for (size_t k = 0; k < m; k++)
			wrong += got[k] != v[i + k];
	}
	INT_EQ(wrong, 0);
	/* a rewind to a mark drops what came after it, blocks too */
	struct zints b = { 0 };
	zints_push_n(&b, v, 1000);
	struct zmark m = zints_mark(&b);
	zints_push_n(&b, v + 1000, N - 1000);
	zints_rewind(&b, m);
	zints_push(&b, 42);
	struct zcursor d = { 0, 0, 0 };
	zints_read(&b, &d, got, 1);
	wrong += got[0] != v[0];
	for (size_t i = 1; i < 1000; i += 111) {
		size_t len = i + 111 < 1000 ? 111 : 1000 - i;
		zints_read(&b, &d, got, len);
		for (size_t k = 0; k < len; k++)
			wrong += got[k] != v[i + k];
	}
	INT_EQ(wrong, 0);
	zints_read(&b, &d, got, 1);
	INT_EQ(got[0], 42);
	INT_EQ(b.n, 1001);
	zints_release(&a);
	zints_release(&b);
	free(v);
}
