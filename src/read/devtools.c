/* devtools.c: a Flutter DevTools snapshot's Perfetto trace (devtools.h),
 * found by json.h's callbacks: the "traceBinary" array of any
 * top-level member, each number a byte. Everything else is skipped. */
#include "devtools.h"
#include "json.h"
#include "core/util.h"

#include <string.h>

struct devtools {
	struct af_json json;     /* first: the JSON scanner's context */
	struct af_buf *out;
	bool in_binary, found, has_events, key_binary, key_screen;
	uint64_t binary_depth;
	char *screen;
};

static bool key_is(const unsigned char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static int on_key(void *ctx, const unsigned char *s, size_t n)
{
	struct devtools *t = ctx;
	t->key_binary = t->json.depth == 2 && key_is(s, n, "traceBinary");
	t->key_screen = t->json.depth == 1 && key_is(s, n, "activeScreenId");
	t->has_events |= t->json.depth == 1 && key_is(s, n, "traceEvents");
	return 1;
}

static int open_container(void *ctx, bool map)
{
	struct devtools *t = ctx;
	if (t->json.depth == 0 && !map)
		return af_json_fail(&t->json, "a DevTools snapshot is a JSON object");
	if (t->in_binary)
		return af_json_fail(&t->json, "traceBinary holds a value that is no byte");
	if (t->key_binary && !map && !t->found) {
		t->in_binary = t->found = true;
		t->binary_depth = t->json.depth + 1;
	}
	t->key_binary = t->key_screen = false;
	t->json.depth++;
	return 1;
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, true);
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, false);
}

static int on_close(void *ctx)
{
	struct devtools *t = ctx;
	if (t->in_binary && t->json.depth == t->binary_depth)
		t->in_binary = false;
	t->json.depth--;
	return 1;
}

static int on_number(void *ctx, const char *s, size_t n)
{
	struct devtools *t = ctx;
	int64_t v;
	if (!t->in_binary)
		return 1;
	if (!af_json_int(s, n, &v) || v < 0 || v > 255 || memchr(s, '.', n))
		return af_json_fail(&t->json, "traceBinary holds a number that is no byte (%.*s)",
				    (int)(n < 24 ? n : 24), s);
	char c = (char)(uint8_t)v;
	af_buf_add(t->out, &c, 1);
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	struct devtools *t = ctx;
	if (t->in_binary)
		return af_json_fail(&t->json, "traceBinary holds a value that is no byte");
	if (t->key_screen) {
		size_t k = n < 31 ? n : 31;
		memcpy(t->screen, s, k);
		t->screen[k] = 0;
	}
	t->key_screen = t->key_binary = false;
	return 1;
}

static int on_other(void *ctx)
{
	struct devtools *t = ctx;
	if (t->in_binary)
		return af_json_fail(&t->json, "traceBinary holds a value that is no byte");
	t->key_screen = t->key_binary = false;
	return 1;
}

static int on_bool(void *ctx, int b)
{
	(void)b;
	return on_other(ctx);
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_other, .yajl_boolean = on_bool, .yajl_number = on_number,
	.yajl_string = on_string, .yajl_start_map = on_start_map, .yajl_map_key = on_key,
	.yajl_end_map = on_close, .yajl_start_array = on_start_array, .yajl_end_array = on_close,
};

bool af_devtools_is_snapshot(const uint8_t *data, size_t len)
{
	size_t i = 0, head = len < 65536 ? len : 65536;
	while (i < head && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n'))
		i++;
	if (i == head || data[i] != '{')
		return false;
	static const char key[] = "\"devToolsSnapshot\"";
	for (const uint8_t *p = data + i, *end = data + head; (size_t)(end - p) >= sizeof key - 1; p++) {
		p = memchr(p, '"', (size_t)(end - p) - (sizeof key - 1) + 1);
		if (!p)
			return false;
		if (memcmp(p, key, sizeof key - 1) == 0)
			return true;
	}
	return false;
}

int af_devtools_unwrap(const struct af_input *in, struct af_buf *out, bool *has_events, char screen[32],
		       struct af_diag *d)
{
	struct devtools t = { .out = out, .screen = screen };
	screen[0] = 0;
	int rc = af_json_parse(&t.json, in, &callbacks, d);
	if (rc == 1)
		rc = af_diag_offset(d, in->len, "the file ends inside its JSON (cut short?)");
	*has_events = t.has_events;
	return rc < 0 ? -1 : t.found;
}
