/* test_buf.c: buffer and sink, number formatting, sticky write errors. */
#include "core/buf.h"
#include "harness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int collect(void *ctx, const void *data, size_t len)
{
	af_buf_add(ctx, data, len);
	return 0;
}

static int failing(void *ctx, const void *data, size_t len)
{
	(void)ctx;
	(void)data;
	(void)len;
	errno = ENOSPC;
	return -1;
}

void test_buf_fixed_numbers(void)
{
	struct af_buf b;
	af_buf_init(&b);
	struct af_sink s;
	af_sink_init(&s, collect, &b);
	af_sink_fixed(&s, 12.5, 1);
	af_sink_putc(&s, ' ');
	af_sink_fixed(&s, 3.0, 2);
	af_sink_putc(&s, ' ');
	af_sink_fixed(&s, -0.25, 2);
	af_sink_putc(&s, ' ');
	af_sink_fixed(&s, 0.04, 1);
	af_sink_putc(&s, ' ');
	af_sink_fixed(&s, 1199.96, 1);
	af_sink_putc(&s, ' ');
	af_sink_u64(&s, 18446744073709551615ULL);
	INT_EQ(af_sink_finish(&s), 0);
	STR_EQ(b.data, "12.5 3 -0.25 0 1200 18446744073709551615");
	af_buf_release(&b);
}

void test_buf_sink_large_and_sticky_error(void)
{
	struct af_buf b;
	af_buf_init(&b);
	struct af_sink s;
	af_sink_init(&s, collect, &b);
	for (int i = 0; i < 100000; i++)
		af_sink_puts(&s, "0123456789");
	af_sink_printf(&s, "%s", "end");
	INT_EQ(af_sink_finish(&s), 0);
	INT_EQ(b.len, 1000003);
	af_buf_release(&b);
	af_sink_init(&s, failing, NULL);
	for (int i = 0; i < 100000; i++)
		af_sink_puts(&s, "0123456789");
	INT_EQ(af_sink_finish(&s), -1);
	INT_EQ(errno, ENOSPC);
}

/* af_sink_fixed rounds as llround did (half away from zero, on the scaled
 * double exactly as it is), without libm */
void test_buf_fixed_rounds_half_away(void)
{
	struct af_buf b;
	af_buf_init(&b);
	struct af_sink s;
	af_sink_init(&s, collect, &b);
	const double v[] = { 0.5, 2.5, 0.49999999999999994, 1.005, -2.5, 4503599627370495.5 / 1e6, 0.125 };
	const int d[] = { 0, 0, 0, 2, 0, 6, 2 };
	for (size_t i = 0; i < sizeof v / sizeof *v; i++) {
		af_sink_fixed(&s, v[i], d[i]);
		af_sink_putc(&s, ' ');
	}
	INT_EQ(af_sink_finish(&s), 0);
	/* 1.005 is 1.00499999999999989...: 100.49999999999999 scaled */
	STR_EQ(b.data, "1 3 0 1 -3 4503599627.370496 0.13 ");
	af_buf_release(&b);
}

/* pieces of 16 KiB and more are written from where they are (the buffer
 * flushed first): the bytes still come out in order */
void test_buf_sink_large_pieces_in_order(void)
{
	struct af_buf b, want;
	af_buf_init(&b);
	af_buf_init(&want);
	struct af_sink s;
	af_sink_init(&s, collect, &b);
	char *big = malloc(70000);
	for (size_t n = 1; n <= 70000; n = n * 3 + 1) {
		memset(big, (int)('a' + n % 26), n);
		af_sink_putc(&s, '<');
		af_sink_write(&s, big, n);
		af_sink_putc(&s, '>');
		af_buf_putc(&want, '<');
		af_buf_add(&want, big, n);
		af_buf_putc(&want, '>');
	}
	INT_EQ(af_sink_finish(&s), 0);
	INT_EQ(b.len, want.len);
	OK(memcmp(b.data, want.data, want.len) == 0);
	free(big);
	af_buf_release(&b);
	af_buf_release(&want);
}
