/* names.c: frame-name cleaning and Java descriptor pretty-printing. */
#include "names.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

/* Whether none of the 8 bytes of w is ';', below 0x20 or 0x7f (a
 * zero-byte test of each: bytes of 0x80 and up are none of them). */
static bool plain8(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	uint64_t semi = w ^ (ones * ';'), del = w ^ (ones * 0x7f);
	uint64_t low = (w & ~highs) + ones * (0x80 - 0x20);   /* a byte's high bit: its low 7 bits >= 0x20 */
	uint64_t bad = ((semi - ones) & ~semi) | ((del - ones) & ~del) | (~(low | w) & highs);
	return !(bad & highs);
}

void af_name_append(struct af_buf *b, const char *s, size_t len)
{
	af_buf_reserve(b, len);
	char *out = b->data + b->len;
	size_t i = 0;
	for (uint64_t w; i + 8 <= len && (memcpy(&w, s + i, 8), plain8(w)); i += 8)
		memcpy(out + i, &w, 8);   /* names are mostly plain: 8 bytes a step */
	for (; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		out[i] = c == ';' ? ':' : (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	b->len += len;
	b->data[b->len] = 0;
}

size_t af_name_cut(const char *s, size_t len)
{
	size_t cut = len < AF_NAME_MAX - 3 ? len : AF_NAME_MAX - 3;
	while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
		cut--;   /* do not split a UTF-8 sequence */
	return cut;
}

void af_name_finish(struct af_buf *b, size_t from)
{
	if (b->len - from <= AF_NAME_MAX)
		return;
	b->len = from + af_name_cut(b->data + from, b->len - from);
	af_buf_add(b, "...", 3);
}

void af_name_append_class(struct af_buf *b, const char *s, size_t len)
{
	size_t from = b->len;
	af_name_append(b, s, len);
	for (size_t i = from; i < b->len; i++)
		if (b->data[i] == '/')
			b->data[i] = '.';
}

static const char *primitive(char c)
{
	switch (c) {
	case 'Z': return "boolean";
	case 'B': return "byte";
	case 'C': return "char";
	case 'S': return "short";
	case 'I': return "int";
	case 'J': return "long";
	case 'F': return "float";
	case 'D': return "double";
	case 'V': return "void";
	default:  return NULL;
	}
}

/* One type at sig[*i]; appends its simple name. False if malformed. */
static bool one_type(struct af_buf *b, const char *sig, size_t len, size_t *i)
{
	unsigned dims = 0;
	while (*i < len && sig[*i] == '[') {
		dims++;
		(*i)++;
	}
	if (*i >= len)
		return false;
	if (sig[*i] == 'L') {
		const char *semi = memchr(sig + *i, ';', len - *i);
		if (!semi)
			return false;
		size_t start = *i + 1, end = (size_t)(semi - sig);
		for (size_t k = start; k < end; k++)
			if (sig[k] == '/' || sig[k] == '.')
				start = k + 1;
		af_name_append(b, sig + start, end - start);
		*i = end + 1;
	} else {
		const char *p = primitive(sig[*i]);
		if (!p)
			return false;
		af_buf_puts(b, p);
		(*i)++;
	}
	while (dims--)
		af_buf_puts(b, "[]");
	return true;
}

void af_name_append_params(struct af_buf *b, const char *sig, size_t len)
{
	size_t from = b->len, i = 1;
	if (len < 2 || sig[0] != '(')
		goto raw;
	af_buf_putc(b, '(');
	while (i < len && sig[i] != ')') {
		if (i > 1)
			af_buf_puts(b, ", ");
		if (!one_type(b, sig, len, &i))
			goto raw;
	}
	if (i >= len)
		goto raw;
	af_buf_putc(b, ')');
	return;
raw:
	b->len = from;
	af_name_append(b, sig, len);
}

void af_name_append_return(struct af_buf *b, const char *sig, size_t len)
{
	const char *close = memchr(sig, ')', len);
	if (!close || close + 1 >= sig + len)
		return;
	size_t from = b->len, i = (size_t)(close - sig) + 1;
	af_buf_puts(b, ": ");
	if (!one_type(b, sig, len, &i) || i != len) {
		b->len = from;
		b->data[from] = 0;
	}
}

void af_name_root(struct af_buf *b, const char *name, size_t len, const char *fallback, uint64_t id)
{
	b->len = 0;
	if (len || !fallback)
		af_name_append(b, name, len);
	else
		af_buf_printf(b, "%s-%" PRIu64, fallback, id);
	af_name_finish(b, 0);
	af_buf_printf(b, " (%" PRIu64 ")", id);
}
