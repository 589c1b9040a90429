/* read_atrace.c: atrace / systrace captures (ftrace text with trace_marker
 * slices), by atrace-format.md §3 and the rules in docs/semantics.md:
 *
 *   <task>-<tid> [(<tgid>|-----)] [<cpu>] [<flags>] <secs>.<usecs>: <event>: <payload>
 *
 * tracing_mark_write (also "0:" and "print:") payloads B|pid|name and
 * E[|pid[|name]] are slices, S/F and G/H async slices: each event line
 * goes to the slice builder (slices.h), which holds those rules. Here: the
 * envelopes (atrace_unwrap.c), the lines (atrace_line.c), the header's
 * facts and the PROCESS DUMP's names.
 *
 * One pass over the text: lines split with memchr, no regex, no allocation
 * per line once tables have grown; times are integer µs. */
#include "atrace.h"
#include "core/util.h"

#include <inttypes.h>
#include <string.h>

/* A capture being read: the builder, and what the text says of itself. */
struct at {
	struct af_slices *r;
	struct af_slices_text *x;
	struct af_profile *p;
	struct af_diag *d;
};

/* Columns of a ps header: where PID, TID and the name are. */
struct ps_cols { int pid, tid, name, ncols; };

static size_t split_ws(const char *s, const char *end, const char **tok, size_t *len, size_t max)
{
	size_t k = 0;
	const char *p = s;
	while (k < max) {
		p = af_scan_spaces(p, end);
		if (p >= end)
			break;
		const char *q = p;
		while (q < end && *q != ' ' && *q != '\t')
			q++;
		tok[k] = p;
		len[k++] = (size_t)(q - p);
		p = q;
	}
	return k;
}

static bool ps_header(const char **tok, const size_t *len, size_t k, struct ps_cols *c)
{
	*c = (struct ps_cols){ -1, -1, -1, (int)k };
	for (size_t i = 0; i < k; i++) {
		if (len[i] == 3 && memcmp(tok[i], "PID", 3) == 0)
			c->pid = (int)i;
		else if (len[i] == 3 && memcmp(tok[i], "TID", 3) == 0)
			c->tid = (int)i;
		else if (c->name < 0 && ((len[i] == 4 && (memcmp(tok[i], "NAME", 4) == 0 || memcmp(tok[i], "COMM", 4) == 0)) ||
					 (len[i] == 3 && memcmp(tok[i], "CMD", 3) == 0)))
			c->name = (int)i;
	}
	return c->pid >= 0 && c->name >= 0;
}

static void ps_row(struct af_slices *r, const struct ps_cols *c, const char *end,
		   const char **tok, const size_t *len, size_t k)
{
	if ((int)k <= c->name || (int)k <= c->pid || (c->tid >= 0 && (int)k <= c->tid))
		return;
	uint64_t pid, tid;
	const char *p = tok[c->pid];
	if (!af_scan_digits(&p, tok[c->pid] + len[c->pid], &pid))
		return;
	/* the last column runs to the end of the line (names with spaces) */
	size_t nlen = c->name == c->ncols - 1 ? (size_t)(end - tok[c->name]) : len[c->name];
	const char *name = tok[c->name];
	if (c->tid >= 0) {
		p = tok[c->tid];
		if (!af_scan_digits(&p, tok[c->tid] + len[c->tid], &tid) || tid == 0)
			return;
		af_slices_name_thread(r, tid, (int64_t)pid, name, nlen);
	} else {
		af_slices_name_process(r, (int64_t)pid, name, nlen);
	}
}

static void process_dump(struct af_slices *r, const char *s, size_t n)
{
	const char *end = s + n;
	struct ps_cols c = { -1, -1, -1, 0 };
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		while (e > s && (e[-1] == '\r' || e[-1] == ' '))
			e--;
		const char *tok[16];
		size_t len[16];
		size_t k = split_ws(s, e, tok, len, 16);
		struct ps_cols h;
		if (k && ps_header(tok, len, k, &h))
			c = h;
		else if (c.pid >= 0)
			ps_row(r, &c, e, tok, len, k);
		s = nl ? nl + 1 : end;
	}
}

/* ---- lines ---- */

static void header_line(struct at *a, const char *s, size_t n)
{
	const char *end = s + n;
	if (n >= 5 && memcmp(s, "#####", 5) == 0 && af_scan_find(s, n, "buffer started", 14)) {
		a->x->buffer_started++;
		return;
	}
	const char *k = af_scan_find(s, n, "entries-in-buffer/entries-written:", 34);
	if (k) {
		const char *p = af_scan_spaces(k + 34, end);
		uint64_t in, out;
		if (af_scan_digits(&p, end, &in) && p < end && *p == '/' && (p++, af_scan_digits(&p, end, &out))) {
			a->x->entries_in_buffer += in;
			a->x->entries_written += out;
			a->x->have_entries = true;
		}
		const char *cpus = af_scan_find(s, n, "#P:", 3);
		if (cpus)
			af_profile_info(a->p, "cpus", "%.*s", (int)(end - cpus - 3), cpus + 3);
		return;
	}
	if (n > 10 && memcmp(s, "# tracer: ", 10) == 0)
		af_profile_info(a->p, "tracer", "%.*s", (int)(n - 10 > 40 ? 40 : n - 10), s + 10);
	else if (n > 13 && memcmp(s, "# clock_type=", 13) == 0)
		af_profile_info(a->p, "trace clock", "%.*s", (int)(n - 13 > 40 ? 40 : n - 13), s + 13);
}

static void one_line(struct at *a, const char *s, size_t n)
{
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0)
		return;
	if (s[0] == '#') {
		header_line(a, s, n);
		return;
	}
	struct af_ftrace_event e;
	if (!atrace_parse_line(s, n, &e)) {
		size_t i = 0;
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i < n && !a->x->skipped++)
			a->x->first_skipped = a->x->lines;
		return;
	}
	af_slices_ftrace(a->r, &e);
}

static int read_text(struct at *a, const struct atrace_text *t, const struct af_input *in)
{
	if (t->procdump)
		process_dump(a->r, t->procdump, t->procdump_len);
	const char *s = t->data, *end = s + t->len;
	/* plain text is the mapped input itself: release what has been read */
	const char *base = (const char *)in->data, *consumed = s;
	bool in_map = s >= base && end <= base + in->len;
	while (s < end) {
		if (in_map && (size_t)(s - consumed) >= AF_INPUT_CONSUME_STEP)
			af_input_consumed(in, (size_t)((consumed = s) - base));
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);
		a->x->lines++;
		one_line(a, s, n);
		s += n + 1;
	}
	uint64_t events = af_slices_events(a->r);
	af_profile_info(a->p, "container", "%s", t->container);
	if (t->blocks[0])
		af_profile_info(a->p, "trace-data blocks", "%s", t->blocks);
	af_profile_info(a->p, "lines", "%" PRIu64, a->x->lines);
	af_profile_info(a->p, "ftrace events", "%" PRIu64, events);
	if (events == 0) {   /* --info too: a capture with nothing in it is no success */
		af_slices_report(a->r);
		return af_diag_error(a->d, "no ftrace events in %" PRIu64 " lines (%s): not an atrace capture", a->x->lines, t->container);
	}
	return af_slices_finish(a->r, "ftrace events but no 'B|pid|name' trace marks (a kernel-only capture? record atrace categories such as gfx, view, am)");
}

static int read_atrace(struct af_profile *p, const struct af_input *in,
		       const struct af_read_opts *o, struct af_diag *d)
{
	struct at a = { .r = af_slices_new(p, o, d), .p = p, .d = d };
	a.x = af_slices_text(a.r);
	struct atrace_text t;
	memset(&t, 0, sizeof t);
	t.inflate_cap = o->max_input;
	int rc = atrace_unwrap(&t, in, d);
	if (rc == 0)
		rc = read_text(&a, &t, in);
	atrace_text_release(&t);
	af_slices_free(a.r);
	return rc;
}

/* ---- detection ---- */

/* Sure for TRACE:, HTML, "# tracer", trace-cmd and ftrace event lines;
 * JSON only maybe (the reader then says whether it holds ftrace text). */
static enum af_sniff sniff(const uint8_t *data, size_t n)
{
	const char *s = (const char *)data;
	size_t head = n < 4096 ? n : 4096;
	for (const char *at = s; (at = af_scan_find(at, head - (size_t)(at - s), "TRACE:", 6)); at += 6)
		if (at == s || at[-1] == '\n')
			return AF_SNIFF_YES;
	size_t i = 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
		i++;
	if (i < n && (s[i] == '{' || s[i] == '['))
		return AF_SNIFF_MAYBE;
	if (i < n && s[i] == '<' && i + 1 < n && (s[i + 1] == '!' || s[i + 1] == 'h' || s[i + 1] == 'H'))
		return AF_SNIFF_YES;   /* HTML; "<...>-123" and "<idle>-0" are task names */
	if (n - i >= 8 && (memcmp(s + i, "# tracer", 8) == 0 || memcmp(s + i, "cpus=", 5) == 0))
		return AF_SNIFF_YES;
	/* the first line that is not a comment is an event line */
	size_t scan = n < 65536 ? n : 65536;
	for (size_t at = 0; at < scan;) {
		const char *nl = memchr(s + at, '\n', scan - at);
		size_t len = (size_t)((nl ? nl : s + scan) - (s + at));
		const char *line = s + at;
		at += len + 1;
		size_t k = len;
		while (k && (line[k - 1] == '\r' || line[k - 1] == ' '))
			k--;
		if (k >= 3 && memcmp(line + k - 3, "\\n\\", 3) == 0)
			k -= 3;   /* a JS string body */
		size_t j = 0;
		while (j < k && (line[j] == ' ' || line[j] == '\t'))
			j++;
		if (j == k || line[0] == '#')
			continue;
		struct af_ftrace_event e;
		return atrace_parse_line(line, k, &e) ? AF_SNIFF_YES : AF_SNIFF_NO;
	}
	return AF_SNIFF_NO;
}

const struct af_reader af_reader_atrace = {
	.name = "atrace", .what = "an atrace/systrace capture", .sniff = sniff,
	.read = read_atrace, .nothing = "no slices (Trace.beginSection/endSection marks)",
};
