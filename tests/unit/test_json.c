/* test_json.c: json.c's scanner against yajl itself, which it replaced for
 * the JSON readers' speed: on hand-made corners and on thousands of
 * damaged JSON texts both must call back the same tokens with the same
 * text, end the same way (whole, cut short, not JSON) and stop at the same
 * offset when a callback refuses; and af_json_take_ints' integer arrays
 * (malformed numbers, more than 18 digits, cut short: given back). */
#include "harness.h"
#include "read/json.h"
#include "core/buf.h"
#include "core/util.h"

#include <stdlib.h>

/* The tokens called back, as text ("{ k:a s:b n:1 ]..."), and a refusal
 * at the refuse-th one (0: none). */
struct rec {
	struct af_json json;   /* first: the scanner's context */
	struct af_buf log;
	int count, refuse;
	const struct af_json_ints *take;   /* asked for each array, if set */
	int taken;
};

static int note(struct rec *r, const char *what, const void *s, size_t n)
{
	af_buf_add(&r->log, what, strlen(what));
	af_buf_add(&r->log, s, n);
	af_buf_add(&r->log, "|", 1);
	if (++r->count == r->refuse)
		return af_json_fail(&r->json, "refused");
	return 1;
}

static int r_null(void *c) { return note(c, "null", "", 0); }
static int r_bool(void *c, int b) { return note(c, b ? "true" : "false", "", 0); }
static int r_num(void *c, const char *s, size_t n) { return note(c, "n:", s, n); }
static int r_str(void *c, const unsigned char *s, size_t n) { return note(c, "s:", s, n); }
static int r_key(void *c, const unsigned char *s, size_t n) { return note(c, "k:", s, n); }
static int r_map(void *c) { return note(c, "{", "", 0); }
static int r_endmap(void *c) { return note(c, "}", "", 0); }
static int r_endarr(void *c) { return note(c, "]", "", 0); }

static int r_arr(void *c)
{
	struct rec *r = c;
	if (r->take && af_json_take_ints(&r->json, r->take))
		return 0;
	return note(c, "[", "", 0);
}

static const yajl_callbacks rec_cb = {
	.yajl_null = r_null, .yajl_boolean = r_bool, .yajl_number = r_num, .yajl_string = r_str,
	.yajl_start_map = r_map, .yajl_map_key = r_key, .yajl_end_map = r_endmap,
	.yajl_start_array = r_arr, .yajl_end_array = r_endarr,
};

struct outcome {
	int rc;             /* 0 whole, 1 cut short, -1 not JSON or refused */
	uint64_t offset;    /* for -1 */
	char *log;
};

/* yajl as json.c drove it before the scanner: the input whole, then
 * yajl_complete_parse. */
static struct outcome by_yajl(const char *s, size_t n, int refuse)
{
	struct rec r = { .refuse = refuse };
	af_buf_init(&r.log);
	yajl_handle h = yajl_alloc(&rec_cb, NULL, &r);
	yajl_config(h, yajl_dont_validate_strings, 1);
	struct outcome o = { 0, 0, NULL };
	yajl_status st = yajl_parse(h, (const unsigned char *)s, n);
	if (st != yajl_status_ok) {
		o.rc = -1;
		o.offset = yajl_get_bytes_consumed(h);
	} else if (yajl_complete_parse(h) != yajl_status_ok) {
		o.rc = r.json.failed ? -1 : 1;
		o.offset = o.rc < 0 ? n : 0;
	}
	yajl_free(h);
	af_buf_add(&r.log, "", 1);
	o.log = r.log.data;
	return o;
}

static struct outcome by_scanner(const char *s, size_t n, int refuse, const struct af_json_ints *take)
{
	struct rec r = { .refuse = refuse, .take = take };
	af_buf_init(&r.log);
	struct af_input in = { .data = (const uint8_t *)s, .len = n, .name = "t" };
	struct af_diag d;
	af_diag_init(&d, "t");
	struct outcome o = { af_json_parse(&r.json, &in, &rec_cb, &d), 0, NULL };
	o.offset = o.rc < 0 ? d.offset : 0;
	af_buf_add(&r.log, "", 1);
	o.log = r.log.data;
	return o;
}

/* Both readings of s agree; the callback refusing at the 1st, 2nd, 5th
 * token too. Returns false (and says where) if not. */
static bool agree(const char *s, size_t n)
{
	static const int refusals[] = { 0, 1, 2, 5 };
	bool same = true;
	for (size_t k = 0; k < sizeof refusals / sizeof refusals[0] && same; k++) {
		struct outcome a = by_yajl(s, n, refusals[k]), b = by_scanner(s, n, refusals[k], NULL);
		same = a.rc == b.rc && a.offset == b.offset && strcmp(a.log, b.log) == 0;
		if (!same)
			printf("    %.*s (refusing at %d): yajl %d at %" PRIu64 " %s, scanner %d at %" PRIu64 " %s\n",
			       (int)(n < 80 ? n : 80), s, refusals[k], a.rc, a.offset, a.log, b.rc, b.offset, b.log);
		free(a.log);
		free(b.log);
	}
	return same;
}

static bool agree_str(const char *s)
{
	return agree(s, strlen(s));
}

/* Corners: numbers (malformed, long, at the end), words, escapes (decoded
 * by yajl), control bytes, yajl's blanks \v and \f, nesting, trailing
 * text, cut short everywhere. */
void test_json_scanner_corners(void)
{
	static const char *const texts[] = {
		"{}", "[]", "1", "-0", "0.5e+3", "12345678901234567890123", "01", "-", "1.", "1e", "1e+",
		"1.5E-7", "-a", "2.x", "[1,2,3]", "[1 2]", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}",
		"{1:2}", "{\"a\":}", "true", "tru", "trux", "nul", "[true,false,null]", "[truex]",
		"\"a\\nb\\\"c\\\\d\\/e\\u0041\\ud83d\\ude00\\ud800x\"", "\"\\x\"", "\"\\u12g4\"", "\"a\x01\"",
		"\"\x7f\xff\xfe\"", "\v\f [ 1 ,\t\r\n2 ] \f", "[[[[[[[[[[]]]]]]]]]]", "[[[{}]]", "{\"a\":[{\"b\":{}}]}",
		"{} x", "{} \"abc", "{} \"abc\"", "{} 12", "{} tr", "[1] ]", "/* c */ 1", "\xef\xbb\xbf{}",
		"{\"k\\u0000\":\"v\\u0000w\"}", "", "   ", "[", "[1", "[1,", "{\"a", "{\"a\"", "{\"a\":", "{\"a\":1",
		"[\"ab", "[\"a\\", "[\"a\\u00", "[1 \"ab", "{\"a\":1 \"b", "{\"a\" 12", "[1 2", "[1 tr", "[1 true",
		"{\"a\":1}\n", "[1e5,-0.0,0e0,1E+2]", "[-01]", "[0x1]", "[.5]", "[+1]", "[1,\"s\",{\"k\":[null]}]",
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
		OK(agree_str(texts[i]));
	/* a NUL byte, in a string and outside */
	OK(agree("[\"a\0b\"]", 7));
	OK(agree("[1,\0]", 5));
}

static uint64_t rnd_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* Damaged JSON: seeds cut, bytes dropped, changed, or JSON's tokens put
 * in at random; 20k texts, every one read alike by both. */
void test_json_scanner_damaged(void)
{
	static const char *const seeds[] = {
		"{\"traceEvents\":[{\"ph\":\"X\",\"pid\":1,\"tid\":\"2\",\"ts\":10.5,\"dur\":3,\"name\":\"a\\\"b\","
		"\"args\":{\"x\":[1,2,{\"y\":null}],\"z\":true}},{\"ph\":\"B\",\"ts\":-1e3,\"name\":\"\\u00e9\"}]}",
		"[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\"},\"children\":[2,3]},"
		"{\"id\":2, \"samples\" : [ 1 , 2,3 ] , \"timeDeltas\":[0.5,-7,12345678901234567890]}, false]",
	};
	static const char *const bits[] = { "\"", "\\", "{", "}", "[", "]", ",", ":", "-", ".", "e", "0", "1",
		"\\u", "\\ud800", "\x01", "\v", " ", "true", "nu", "1e", "\xff", "/" };
	char buf[512];
	int disagree = 0;
	for (int k = 0; k < 20000 && disagree < 5; k++) {
		const char *seed = seeds[rnd() % 2];
		size_t n = strlen(seed);
		memcpy(buf, seed, n);
		for (int m = 1 + (int)(rnd() % 3); m > 0; m--) {
			size_t at = rnd() % (n + 1);
			const char *b = bits[rnd() % (sizeof bits / sizeof bits[0])];
			size_t bl = strlen(b);
			switch (rnd() % 4) {
			case 0: n = at; break;
			case 1: if (at < n) { memmove(buf + at, buf + at + 1, n - at - 1); n--; } break;
			case 2: if (at < n) buf[at] = (char)rnd(); break;
			default:
				if (n + bl < sizeof buf) {
					memmove(buf + at + bl, buf + at, n - at);
					memcpy(buf + at, b, bl);
					n += bl;
				}
			}
		}
		disagree += !agree(buf, n);
	}
	INT_EQ(disagree, 0);
}

/* af_json_take_ints: a plain integer array comes as ints, not tokens;
 * anything else is given back and read as tokens (the ints undone). */
static struct af_buf taken;

static void t_ints(void *ctx, const int64_t *v, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		char s[32];
		snprintf(s, sizeof s, "%" PRId64 ",", v[i]);
		af_buf_add(&taken, s, strlen(s));
	}
}

static void t_undo(void *ctx)
{
	(void)ctx;
	af_buf_add(&taken, "undo,", 5);
}

static const struct af_json_ints take_all = { t_ints, t_undo };

static void expect_take(const char *s, int rc, const char *ints, const char *log)
{
	af_buf_init(&taken);
	struct outcome o = by_scanner(s, strlen(s), 0, &take_all);
	af_buf_add(&taken, "", 1);
	INT_EQ(o.rc, rc);
	STR_EQ(taken.data, ints);
	STR_EQ(o.log, log);
	free(o.log);
	af_buf_release(&taken);
}

void test_json_take_ints(void)
{
	expect_take("{\"s\":[1,-2, 30 ,\n4]}", 0, "1,-2,30,4,", "{|k:s|}|");
	expect_take("{\"s\":[]}", 0, "", "{|k:s|}|");
	/* 18 digits are taken, 19 given back (no overflow) */
	expect_take("{\"s\":[123456789012345678]}", 0, "123456789012345678,", "{|k:s|}|");
	expect_take("{\"s\":[1,1234567890123456789]}", 0, "undo,", "{|k:s|[|n:1|n:1234567890123456789|]|}|");
	/* malformed numbers and non-integers: given back, yajl's reading */
	expect_take("{\"s\":[1,2.5]}", 0, "undo,", "{|k:s|[|n:1|n:2.5|]|}|");
	expect_take("{\"s\":[1,01]}", -1, "undo,", "{|k:s|[|n:1|n:0|");
	expect_take("{\"s\":[1,-]}", -1, "undo,", "{|k:s|[|n:1|");
	expect_take("{\"s\":[1,\"2\"]}", 0, "undo,", "{|k:s|[|n:1|s:2|]|}|");
	/* the short path (1 to 7 digits and ',', 8 bytes left) and the
	 * general one side by side: blanks after a ',', 8 digits, signs,
	 * zeros, a leading zero, an empty element */
	expect_take("{\"s\":[1, 2,\n3,12345678,-5,0,0,7654321,9]}                 ", 0,
		    "1,2,3,12345678,-5,0,0,7654321,9,", "{|k:s|}|");
	expect_take("{\"s\":[1,2,3,4,05,6,7]}                 ", -1, "undo,",
		    "{|k:s|[|n:1|n:2|n:3|n:4|n:0|");
	expect_take("{\"s\":[1,2,3,4,,5,6,7]}                 ", -1, "undo,", "{|k:s|[|n:1|n:2|n:3|n:4|");
	expect_take("{\"s\":[1,2,3,]}                 ", -1, "undo,", "{|k:s|[|n:1|n:2|n:3|");
	/* cut short: given back, then the file ends inside */
	expect_take("{\"s\":[1,2", 1, "undo,", "{|k:s|[|n:1|n:2|");
	expect_take("{\"s\":[1,2,", 1, "undo,", "{|k:s|[|n:1|n:2|");
	/* more than a batch (512) */
	struct af_buf big, want;
	af_buf_init(&big);
	af_buf_init(&want);
	af_buf_add(&big, "{\"s\":[", 6);
	for (int i = 0; i < 1500; i++) {
		char s[16];
		snprintf(s, sizeof s, "%s%d", i ? "," : "", i * 7 - 3);
		af_buf_add(&big, s, strlen(s));
		snprintf(s, sizeof s, "%d,", i * 7 - 3);
		af_buf_add(&want, s, strlen(s));
	}
	af_buf_add(&big, "]}", 3);
	af_buf_add(&want, "", 1);
	expect_take(big.data, 0, want.data, "{|k:s|}|");
	af_buf_release(&big);
	af_buf_release(&want);
}

/* af_json_ns and af_json_int: the plain integers (up to 18 digits and a
 * '-') read without decimal(), the rest through it; the limits alike. */
void test_json_numbers(void)
{
	static const struct { const char *s; bool ok; int64_t ns, v; } cases[] = {
		{ "0", true, 0, 0 }, { "-0", true, 0, 0 }, { "12", true, 12000, 12 }, { "-7", true, -7000, -7 },
		{ "007", true, 7000, 7 }, { "+5", true, 5000, 5 }, { "1.5", true, 1500, 1 }, { "-2.5", true, -2500, -2 },
		{ "1e3", true, 1000000, 1000 }, { "0.0004", true, 0, 0 }, { "0.0005", true, 1, 0 },
		{ "4611686018427387", true, 4611686018427387000, 4611686018427387 },   /* 2^62 / 1000, cut */
		{ "123456789012345678", false, 0, 123456789012345678 },               /* 18 digits: ns too big */
		/* 19 digits: decimal() keeps 18 and scales (as before) */
		{ "4611686018427387904", false, 0, 4611686018427387900 },
		{ "1234567890123456789", false, 0, 1234567890123456780 }, { "99999999999999999999", false, 0, 0 },
		{ "", false, 0, 0 }, { "-", false, 0, 0 }, { "--5", false, 0, 0 }, { "5x", false, 0, 0 },
		{ "3000012345", true, 3000012345000, 3000012345 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int64_t ns = -1, v = -1;
		const char *s = cases[i].s;
		bool ok_ns = af_json_ns(s, strlen(s), &ns), ok_v = af_json_int(s, strlen(s), &v);
		if (cases[i].ok != ok_ns || (ok_ns && ns != cases[i].ns))
			printf("    af_json_ns(\"%s\"): %d %" PRId64 "\n", s, ok_ns, ns);
		OK(cases[i].ok == ok_ns && (!ok_ns || ns == cases[i].ns));
		bool want_v = cases[i].ok || cases[i].v != 0;
		if (want_v != ok_v || (ok_v && v != cases[i].v))
			printf("    af_json_int(\"%s\"): %d %" PRId64 "\n", s, ok_v, v);
		OK(want_v == ok_v && (!ok_v || v == cases[i].v));
	}
}
