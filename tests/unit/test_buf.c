/* test_buf.c: buffer and sink, number formatting, sticky write errors. */
#include "buf.h"
#include "harness.h"

#include <errno.h>
#include <stdlib.h>

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
