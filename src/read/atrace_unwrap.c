/* atrace_unwrap.c: the envelopes around atrace/systrace ftrace text
 * (atrace-format.md §3.1), peeled one layer at a time, at most
 * ATRACE_MAX_LAYERS deep:
 *
 *   gzip (1f 8b) / zlib (78 ..)        inflate (bounded), all streams
 *   "...TRACE:\n"                      atrace's stdout banner: skip it;
 *                                      "TRACE:\r\n" means adb's pty turned
 *                                      every \n into \r\n: undo that first
 *   <html>                             systrace: 2012 linuxPerfData JS string,
 *                                      systrace.py trace-data blocks (+ PROCESS
 *                                      DUMP), trace2html viewer-data base64
 *   {"systemTraceEvents": "..."}       JSON string of ftrace text
 *   cpus=N                             trace-cmd's first line: dropped
 *   lines ending in \n\                a JS string body: unescaped
 *
 * Decoded layers live in t->owned until atrace_text_release(). */
#include "atrace.h"
#include "inflate.h"
#include "core/escape.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

struct span { const char *p; size_t n; };

static bool starts(struct span s, const char *lit)
{
	size_t k = strlen(lit);
	return s.n >= k && memcmp(s.p, lit, k) == 0;
}

static bool starts_icase(struct span s, const char *lit)
{
	size_t k = strlen(lit);
	if (s.n < k)
		return false;
	for (size_t i = 0; i < k; i++) {
		char c = s.p[i];
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != lit[i])
			return false;
	}
	return true;
}

static const char *find(struct span s, const char *lit)
{
	size_t k = strlen(lit);
	return s.n >= k ? af_scan_find(s.p, s.n, lit, k) : NULL;
}

static struct span skip_space(struct span s)
{
	while (s.n && (*s.p == ' ' || *s.p == '\t' || *s.p == '\r' || *s.p == '\n')) {
		s.p++;
		s.n--;
	}
	return s;
}

static struct span from(struct span s, const char *at)
{
	return (struct span){ at, s.n - (size_t)(at - s.p) };
}

static struct af_buf *new_layer(struct atrace_text *t)
{
	if (t->nowned >= sizeof t->owned / sizeof *t->owned)
		AF_BUG("too many decoded layers");
	struct af_buf *b = &t->owned[t->nowned++];
	af_buf_init(b);
	return b;
}

static void note(struct atrace_text *t, const char *what)
{
	size_t n = strlen(t->container);
	snprintf(t->container + n, sizeof t->container - n, "%s%s", n ? " > " : "", what);
}

/* ---- string escapes ---- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void put_utf8(struct af_buf *b, uint32_t cp)
{
	char u[4];
	af_buf_add(b, u, af_utf8_encode(cp, u));
}

static int hex_n(const char *p, size_t n)
{
	int v = 0;
	for (size_t i = 0; i < n; i++) {
		int h = hexval(p[i]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* Decode a JS or JSON string body from s up to its closing quote (or the
 * end of s) into b. A backslash before a newline is a line continuation. */
static void unescape(struct af_buf *b, struct span s, char quote)
{
	const char *p = s.p, *end = s.p + s.n;
	af_buf_reserve(b, s.n);
	while (p < end) {
		const char *q = p;
		while (q < end && *q != '\\' && *q != quote)
			q++;
		af_buf_add(b, p, (size_t)(q - p));
		if (q >= end || *q == quote)
			return;
		p = q + 1;
		if (p >= end)
			return;
		char c = *p++;
		switch (c) {
		case 'n': af_buf_putc(b, '\n'); break;
		case 't': af_buf_putc(b, '\t'); break;
		case 'r': af_buf_putc(b, '\r'); break;
		case 'b': af_buf_putc(b, '\b'); break;
		case 'f': af_buf_putc(b, '\f'); break;
		case '\r':
			if (p < end && *p == '\n')
				p++;
			break;
		case '\n':
			break;
		case 'x':
			if (end - p >= 2 && hex_n(p, 2) >= 0) {
				put_utf8(b, (uint32_t)hex_n(p, 2));
				p += 2;
			}
			break;
		case 'u': {
			int cp = end - p >= 4 ? hex_n(p, 4) : -1;
			if (cp < 0)
				break;
			p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
				int lo = hex_n(p + 2, 4);
				if (lo >= 0xdc00 && lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					p += 6;
				}
			}
			put_utf8(b, (uint32_t)cp);
			break;
		}
		default:
			af_buf_putc(b, c);   /* \" \\ \/ \' */
		}
	}
}

/* ---- base64 (trace2html viewer-data) ---- */

static int b64val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+' || c == '-')
		return 62;
	if (c == '/' || c == '_')
		return 63;
	return -1;
}

/* False at a character that is neither base64 nor white space. */
static bool base64_decode(struct af_buf *b, struct span s)
{
	uint32_t acc = 0;
	int bits = 0;
	af_buf_reserve(b, s.n / 4 * 3 + 3);
	for (size_t i = 0; i < s.n; i++) {
		char c = s.p[i];
		if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
			continue;
		if (c == '=')
			break;
		int v = b64val(c);
		if (v < 0)
			return false;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			b->data[b->len++] = (char)(acc >> bits);
			if (b->len + 1 >= b->cap)
				af_buf_reserve(b, 64);
		}
	}
	b->data[b->len] = 0;
	return true;
}

/* ---- HTML ---- */

/* The next <script> element of the HTML itself, from *at on: its opening
 * tag and its body, and *at moved past it; false when there is none. A
 * script's body ends at the first "</script" (HTML never nests them), and
 * comments are stepped over, so text inside a script (the trace viewer's
 * own JavaScript holds '<script class="trace-data" ...>' in a string) is
 * never taken for a tag. */
static bool next_script(struct span s, const char **at, struct span *tag, struct span *body)
{
	const char *end = s.p + s.n;
	for (const char *p = *at; p < end && (p = memchr(p, '<', (size_t)(end - p))); p++) {
		struct span r = from(s, p);
		if (starts(r, "<!--")) {
			const char *c = find(from(s, p + 4), "-->");
			if (!c)
				return false;
			p = c + 2;
			continue;
		}
		if (!starts_icase(r, "<script") || r.n < 8 ||
		    (r.p[7] != '>' && r.p[7] != ' ' && r.p[7] != '\t' && r.p[7] != '\n'))
			continue;
		const char *gt = memchr(p, '>', (size_t)(end - p));
		if (!gt)
			return false;
		*tag = (struct span){ p, (size_t)(gt + 1 - p) };
		struct span rest = from(s, gt + 1);
		const char *close = find(rest, "</script");
		*body = (struct span){ rest.p, close ? (size_t)(close - rest.p) : rest.n };
		*at = close ? close + 8 : end;
		return true;
	}
	return false;
}

/* The body of the first script of the HTML whose opening tag holds attr. */
static bool script_with(struct span s, const char *attr, struct span *body)
{
	struct span tag;
	for (const char *at = s.p; next_script(s, &at, &tag, body);)
		if (find(tag, attr))
			return true;
	return false;
}

static bool first_line_is_ftrace(struct span s)
{
	s = skip_space(s);
	if (starts(s, "# tracer") || starts(s, "TRACE:"))
		return true;
	const char *nl = memchr(s.p, '\n', s.n);
	struct af_ftrace_event e;
	return s.n && atrace_parse_line(s.p, nl ? (size_t)(nl - s.p) : s.n, &e);
}

static void note_block(struct atrace_text *t, const char *what)
{
	size_t n = strlen(t->blocks);
	snprintf(t->blocks + n, sizeof t->blocks - n, "%s%s", n ? ", " : "", what);
}

enum block { B_UNUSED, B_CGROUP, B_PROCDUMP, B_JSON, B_EMPTY, B_FTRACE, B_FTRACE_JSON, B_OTHER };

static enum block block_kind(struct span b)
{
	bool json = starts(b, "{") || starts(b, "[");
	if (starts(b, "CGROUP DUMP"))
		return B_CGROUP;
	if (starts(b, "PROCESS DUMP"))
		return B_PROCDUMP;
	if (json)
		return find(b, "\"systemTraceEvents\"") ? B_FTRACE_JSON : B_JSON;
	if (!b.n)
		return B_EMPTY;
	return first_line_is_ftrace(b) ? B_FTRACE : B_OTHER;
}

/* systrace.py (2015+): after the viewer, one trace-data script per agent,
 * in any order: PROCESS DUMP (ps output: names of processes and threads),
 * the ftrace text, JSON from other agents, a cgroup dump. The ftrace block
 * is the first whose text is ftrace (or JSON holding it); failing that, the
 * first other block, which may be encoded (compressed systrace). */
static bool html_trace_data(struct atrace_text *t, struct span s, struct span *out)
{
	static const char *const what[] = {
		[B_UNUSED] = "another block (not used)", [B_CGROUP] = "cgroup dump (not used)",
		[B_PROCDUMP] = "PROCESS DUMP", [B_JSON] = "JSON trace events (not used)",
		[B_EMPTY] = "empty block", [B_FTRACE] = "ftrace text", [B_FTRACE_JSON] = "JSON with ftrace text",
		[B_OTHER] = "encoded ftrace text",
	};
	const char *chosen = NULL;
	struct span tag, body;
	for (int pass = 0; pass < 2 && !chosen; pass++)   /* plain ftrace first, then any other */
		for (const char *at = s.p; !chosen && next_script(s, &at, &tag, &body);) {
			enum block k = block_kind(skip_space(body));
			if (find(tag, "class=\"trace-data\"") && (k == B_FTRACE || k == B_FTRACE_JSON || (pass && k == B_OTHER)))
				chosen = body.p;
		}
	for (const char *at = s.p; next_script(s, &at, &tag, &body);) {
		if (!find(tag, "class=\"trace-data\""))
			continue;
		struct span b = skip_space(body);
		enum block k = block_kind(b);
		if (k == B_PROCDUMP) {
			t->procdump = b.p;
			t->procdump_len = b.n;
		}
		if ((k == B_FTRACE || k == B_FTRACE_JSON || k == B_OTHER) && body.p != chosen)
			k = B_UNUSED;
		if (body.p == chosen)
			*out = b;   /* ftrace text, or a layer the caller peels */
		note_block(t, what[k]);
	}
	return chosen != NULL;
}

static int unwrap_html(struct atrace_text *t, struct span s, struct span *out, struct af_diag *d)
{
	struct span body;
	if (script_with(s, "id=\"viewer-data\"", &body)) {
		struct af_buf *b = new_layer(t);
		if (!base64_decode(b, body))
			return af_diag_error(d, "systrace HTML: viewer-data is not base64");
		note(t, "trace2html viewer-data (base64)");
		*out = (struct span){ b->data, b->len };
		return 0;
	}
	if (html_trace_data(t, s, out)) {
		note(t, t->procdump ? "systrace HTML trace-data (with PROCESS DUMP)" : "systrace HTML trace-data");
		return 0;
	}
/* "var linuxPerfData = "\" (the name also appears in the viewer's code) */
	for (const char *var = s.p; (var = find(from(s, var), "linuxPerfData")); var++) {
		struct span v = skip_space(from(s, var + strlen("linuxPerfData")));
		if (!starts(v, "="))
			continue;
		v = skip_space(from(v, v.p + 1));
		if (starts(v, "\"")) {
			const char *q = v.p;
			struct af_buf *b = new_layer(t);
			unescape(b, from(s, q + 1), '"');
			note(t, "systrace HTML linuxPerfData (2012)");
			*out = (struct span){ b->data, b->len };
			return 0;
		}
	}
	return af_diag_error(d, "HTML file without systrace data (no linuxPerfData, trace-data or viewer-data script)");
}

/* ---- JSON ---- */

static int unwrap_json(struct atrace_text *t, struct span s, struct span *out, struct af_diag *d)
{
	const char *key = find(s, "\"systemTraceEvents\"");
	if (!key) {
		if (find(s, "\"traceEvents\""))
			return af_diag_error(d, "JSON trace without \"systemTraceEvents\": a Chrome JSON trace has no ftrace text to read (-f chrome reads its events)");
		return af_diag_error(d, "JSON without \"systemTraceEvents\": no ftrace text to read");
	}
	struct span v = skip_space(from(s, key + strlen("\"systemTraceEvents\"")));
	if (v.n && *v.p == ':')
		v = skip_space(from(v, v.p + 1));
	if (!v.n || *v.p != '"')
		return af_diag_offset(d, (uint64_t)(v.p - s.p), "\"systemTraceEvents\" is not a string of ftrace text");
	struct af_buf *b = new_layer(t);
	unescape(b, from(v, v.p + 1), '"');
	note(t, "JSON systemTraceEvents");
	*out = (struct span){ b->data, b->len };
	return 0;
}

/* ---- atrace's TRACE: banner and adb's line-ending damage ---- */

/* "TRACE:" at the start of a line within the first 4 KiB; *body set after
 * its line end, *damage to 1 for "\r\n", 2 for "\r\r\n". */
static bool find_trace_banner(struct span s, struct span *body, int *damage)
{
	struct span head = { s.p, s.n < 4096 ? s.n : 4096 };
	for (const char *at = head.p; (at = find(from(head, at), "TRACE:")); at += 6) {
		if (at != s.p && at[-1] != '\n')
			continue;
		struct span r = from(s, at + 6);
		*damage = starts(r, "\r\r\n") ? 2 : starts(r, "\r\n") ? 1 : 0;
		if (*damage == 0 && !starts(r, "\n") && r.n)
			continue;
		*body = from(s, r.p + (*damage == 2 ? 3 : *damage == 1 ? 2 : r.n ? 1 : 0));
		return true;
	}
	return false;
}

/* Replace every "\r\n" (damage 1) or "\r\r\n" (damage 2) with "\n". */
static struct span undo_crlf(struct atrace_text *t, struct span s, int damage)
{
	struct af_buf *b = new_layer(t);
	af_buf_reserve(b, s.n);
	const char *p = s.p, *end = s.p + s.n;
	size_t k = damage == 2 ? 3 : 2;
	const char *pat = damage == 2 ? "\r\r\n" : "\r\n";
	while (p < end) {
		const char *q = memchr(p, '\r', (size_t)(end - p));
		if (!q) {
			af_buf_add(b, p, (size_t)(end - p));
			break;
		}
		af_buf_add(b, p, (size_t)(q - p));
		if ((size_t)(end - q) >= k && memcmp(q, pat, k) == 0) {
			af_buf_putc(b, '\n');
			p = q + k;
		} else {
			af_buf_putc(b, '\r');
			p = q + 1;
		}
	}
	note(t, damage == 2 ? "adb \\r\\r\\n line ends" : "adb \\r\\n line ends");
	return (struct span){ b->data, b->len };
}

static int inflate_layer(struct atrace_text *t, struct span *s, const struct af_input *in,
			 const char *what, struct af_diag *d)
{
	struct af_buf *b = new_layer(t);
	uint64_t limit = af_inflate_limit(in->len, t->inflate_cap);
	size_t used;
	if (af_inflate((const uint8_t *)s->p, s->n, limit, b, &used, d) < 0)
		return -1;
	note(t, what);
	*s = (struct span){ b->data, b->len };
	return 0;
}

/* Lines ending in a literal \n\ : the body of a JS string (2012 systrace). */
static bool js_escaped(struct span s)
{
	const char *nl = memchr(s.p, '\n', s.n < 65536 ? s.n : 65536);
	return nl && nl - s.p >= 3 && memcmp(nl - 3, "\\n\\", 3) == 0;
}

/* ---- the layers ---- */

enum peel { PEEL_DONE, PEEL_AGAIN, PEEL_ERROR };

static enum peel peel(struct atrace_text *t, struct span *s, const struct af_input *in, struct af_diag *d)
{
	const uint8_t *u = (const uint8_t *)s->p;
	if (af_inflate_is_gzip(u, s->n))
		return inflate_layer(t, s, in, "gzip", d) < 0 ? PEEL_ERROR : PEEL_AGAIN;
	if (s->n >= 2 && u[0] == 0x78 && af_inflate_is_zlib(u, s->n))
		return inflate_layer(t, s, in, "zlib", d) < 0 ? PEEL_ERROR : PEEL_AGAIN;
	struct span body;
	int damage;
	if (find_trace_banner(*s, &body, &damage)) {
		note(t, "TRACE:");
		*s = damage ? undo_crlf(t, body, damage) : body;
		if (s->n && s->p[0] == '\n')
			*s = from(*s, s->p + 1);
		return PEEL_AGAIN;
	}
	if (starts(*s, "\r\r\n") || starts(*s, "\r\n")) {
		*s = undo_crlf(t, *s, starts(*s, "\r\r\n") ? 2 : 1);
		return PEEL_AGAIN;
	}
	struct span v = skip_space(*s);
	if (starts(v, "\xef\xbb\xbf")) {   /* UTF-8 byte order mark */
		*s = from(v, v.p + 3);
		return PEEL_AGAIN;
	}
	if (starts(v, "<") && !first_line_is_ftrace(v)) {   /* not "<...>-123 [000]" */
		if (!starts_icase(v, "<!doctype html") && !starts_icase(v, "<html") && !find(v, "<script")) {
			af_diag_error(d, "markup that is not systrace HTML");
			return PEEL_ERROR;
		}
		return unwrap_html(t, v, s, d) < 0 ? PEEL_ERROR : PEEL_AGAIN;
	}
	if (starts(v, "{") || starts(v, "["))
		return unwrap_json(t, v, s, d) < 0 ? PEEL_ERROR : PEEL_AGAIN;
	if (starts(v, "cpus=")) {
		const char *nl = memchr(v.p, '\n', v.n);
		*s = nl ? from(v, nl + 1) : from(v, v.p + v.n);
		note(t, "trace-cmd");
		return PEEL_DONE;
	}
	if (js_escaped(*s)) {
		struct af_buf *b = new_layer(t);
		unescape(b, *s, '"');
		note(t, "JS string");
		*s = (struct span){ b->data, b->len };
		return PEEL_DONE;
	}
	return PEEL_DONE;
}

int atrace_unwrap(struct atrace_text *t, const struct af_input *in, struct af_diag *d)
{
	struct span s = { (const char *)in->data, in->len };
	for (int layer = 0;; layer++) {
		if (layer == ATRACE_MAX_LAYERS)
			return af_diag_error(d, "more than %d nested containers", ATRACE_MAX_LAYERS);
		enum peel r = peel(t, &s, in, d);
		if (r == PEEL_ERROR)
			return -1;
		if (r == PEEL_DONE)
			break;
	}
	if (!t->container[0])
		note(t, "plain text");
	t->data = s.p;
	t->len = s.n;
	return 0;
}

void atrace_text_release(struct atrace_text *t)
{
	for (size_t i = 0; i < t->nowned; i++)
		af_buf_release(&t->owned[i]);
	t->nowned = 0;
}
