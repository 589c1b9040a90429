/* v8frame.c: V8 CPU profile frame names (v8frame.h). */
#include "v8frame.h"
#include "core/names.h"

#include <string.h>

/* ":N", without printf: a .cpuprofile names a frame per node, and
 * vsnprintf was 60% of naming one (1,460 instructions a line number). */
static void put_line(struct af_buf *b, uint64_t v)
{
	char d[24];
	size_t k = sizeof d;
	do
		d[--k] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	d[--k] = ':';
	af_buf_add(b, d + k, sizeof d - k);
}

uint32_t af_v8_frame(struct af_tree *t, struct af_buf *b, const char *fn, size_t fn_len,
		     const char *u, size_t un, int64_t line)
{
	b->len = 0;
	if (fn_len)
		af_name_append(b, fn, fn_len);
	else
		af_buf_puts(b, "(anonymous)");
	while (un && u[un - 1] == '/')
		un--;
	size_t cut = un;
	while (cut && u[cut - 1] != '/')
		cut--;
	if (un > cut) {
		af_buf_puts(b, " (");
		af_name_append(b, u + cut, un - cut);
		if (line >= 0)
			put_line(b, (uint64_t)line + 1);
		af_buf_putc(b, ')');
	}
	af_name_finish(b, 0);
	return af_tree_intern(t, b->data, b->len);
}

bool af_v8_is_root(const char *fn, size_t fn_len, size_t url_len)
{
	return fn_len == 6 && memcmp(fn, "(root)", 6) == 0 && url_len == 0;
}
