/* test_escape.c: af_escape_json, which tests eight bytes at a time, gives
 * what it gives a byte at a time: every byte value at every place of a
 * word, and UTF-8 sequences across the words' edges. */
#include "core/buf.h"
#include "core/escape.h"
#include "harness.h"

#include <string.h>

static char *json(struct af_buf *b, const char *s, size_t len)
{
	struct af_sink k;
	b->len = 0;
	af_sink_init(&k, af_write_buf, b);
	af_escape_json(&k, s, len);
	af_sink_finish(&k);
	return b->data;
}

void test_escape_json_words(void)
{
	struct af_buf one, got, want;
	af_buf_init(&one);
	af_buf_init(&got);
	af_buf_init(&want);
	size_t differ = 0;
	for (unsigned c = 0; c < 256; c++) {
		char ch = (char)c;
		json(&one, &ch, 1);   /* "x", its quotes included */
		for (size_t at = 0; at < 24; at++) {
			char s[24];
			memset(s, 'a', sizeof s);
			s[at] = ch;
			json(&got, s, sizeof s);
			want.len = 0;
			af_buf_putc(&want, '"');
			af_buf_add(&want, s, at);
			af_buf_add(&want, one.data + 1, one.len - 2);
			af_buf_add(&want, s + at + 1, sizeof s - at - 1);
			af_buf_putc(&want, '"');
			differ += got.len != want.len || memcmp(got.data, want.data, got.len) != 0;
		}
	}
	INT_EQ(differ, 0);
	/* a character of several bytes across the edge of a word */
	STR_EQ(json(&got, "abcdefg\xc3\xa9xyz", 12), "\"abcdefg\xc3\xa9xyz\"");
	STR_EQ(json(&got, "abcdef\xe2\x80\xa8xyz", 12), "\"abcdef\\u2028xyz\"");
	STR_EQ(json(&got, "abcdefghijklmnop</script>", 25), "\"abcdefghijklmnop\\u003c/script\\u003e\"");
	af_buf_release(&one);
	af_buf_release(&got);
	af_buf_release(&want);
}
