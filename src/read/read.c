/* read.c: the table of input formats, detection, and the layers every
 * format may come wrapped in (gzip, zlib, UTF-16, a Flutter DevTools
 * snapshot's Perfetto trace) peeled before detection.
 *
 * To add a reader: write src/read_NAME.c defining `const struct af_reader
 * af_reader_NAME`, declare it in read.h, and list it below. Detection order
 * matters only between formats that can both claim an input: magic numbers
 * first, loose text formats last. */
#include "read.h"
#include "cursor.h"
#include "devtools.h"
#include "inflate.h"
#include "core/escape.h"
#include "core/merge.h"
#include "core/util.h"

#include <errno.h>
#include <iconv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- formats we recognise, to say what they are, but do not read ---- */

static bool starts(const uint8_t *data, size_t len, const char *s)
{
	size_t n = strlen(s);
	return len >= n && memcmp(data, s, n) == 0;
}

/* Android 16 TraceProfiler::Dump: an entry block first, no header. */
static enum af_sniff sniff_lowoverhead(const uint8_t *data, size_t len)
{
	if (len < 12 || data[0] != 2)
		return AF_SNIFF_NO;
	uint64_t count = af_le(data + 5, 3), size = af_le(data + 8, 4);
	return count > 0 && size >= count && size <= len - 12 ? AF_SNIFF_YES : AF_SNIFF_NO;
}

static const struct af_reader reader_lowoverhead = {
	.name = "art-lowoverhead", .what = "an ART low-overhead dump", .sniff = sniff_lowoverhead,
	.nothing = "this looks like an ART low-overhead method trace (Android 16 TraceProfiler dump, no header), which aflame-render does not read (Perfetto does)",
};

/* ---- the table ---- */

const struct af_reader *const af_readers[] = {
	&af_reader_art,
	&af_reader_perfdata,
	&af_reader_pprof,      /* before Perfetto: both open with a field 1 */
	&af_reader_atrace,
	&af_reader_chrome,
	&af_reader_cpuprofile,
	&af_reader_perfscript,
	&af_reader_folded,
	&af_reader_perfetto,
	&af_reader_simpleperf,
	&reader_lowoverhead,
	NULL,
};

const struct af_reader *af_reader_named(const char *name)
{
	for (const struct af_reader *const *r = af_readers; *r; r++)
		if ((*r)->read && strcmp((*r)->name, name) == 0)
			return *r;
	return NULL;
}

/* names[] or whats[] of the readers we read, joined as "a, b or c" */
static void join_readers(char *out, size_t size, bool whats)
{
	size_t n = 0, count = 0, i = 0;
	for (const struct af_reader *const *r = af_readers; *r; r++)
		count += (*r)->read != NULL;
	out[0] = 0;
	for (const struct af_reader *const *r = af_readers; *r && n < size; r++) {
		if (!(*r)->read)
			continue;
		const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
		int k = snprintf(out + n, size - n, "%s%s", sep, whats ? (*r)->what : (*r)->name);
		n += k > 0 ? (size_t)k : 0;
		i++;
	}
}

const char *af_reader_names(void)
{
	static char names[256];
	if (!names[0])
		join_readers(names, sizeof names, false);
	return names;
}

const char *af_reader_whats(void)
{
	static char whats[1024];
	if (!whats[0])
		join_readers(whats, sizeof whats, true);
	return whats;
}

const struct af_reader *af_detect(const struct af_input *in, struct af_diag *d)
{
	if (in->len == 0) {
		af_diag_error(d, "empty file");
		return NULL;
	}
	const struct af_reader *maybe = NULL;
	for (const struct af_reader *const *r = af_readers; *r; r++) {
		enum af_sniff s = (*r)->sniff(in->data, in->len);
		if (s == AF_SNIFF_YES) {
			maybe = *r;
			break;
		}
		if (s == AF_SNIFF_MAYBE && !maybe)
			maybe = *r;
	}
	if (maybe && !maybe->read) {
		af_diag_error(d, "%s", maybe->nothing);
		return NULL;
	}
	if (!maybe) {
		char whats[512];
		join_readers(whats, sizeof whats, true);
		af_diag_error(d, "unrecognised input: not %s", whats);
	}
	return maybe;
}

/* ---- layers peeled before detection ---- */

/* UTF-16 text (Windows tools write folded stacks so) as UTF-8; unpaired
 * surrogates become U+FFFD. The byte-order mark says which end first. */
static void utf16_to_utf8(const uint8_t *p, size_t len, bool big_endian, struct af_buf *out)
{
	af_buf_reserve(out, len + len / 2);
	for (size_t i = 0; i + 1 < len; i += 2) {
		uint32_t c = big_endian ? (uint32_t)p[i] << 8 | p[i + 1] : (uint32_t)p[i + 1] << 8 | p[i];
		if (c >= 0xd800 && c < 0xdc00 && i + 3 < len) {
			uint32_t lo = big_endian ? (uint32_t)p[i + 2] << 8 | p[i + 3] : (uint32_t)p[i + 3] << 8 | p[i + 2];
			if (lo >= 0xdc00 && lo < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (lo - 0xdc00);
				i += 2;
			}
		}
		if (c >= 0xd800 && c < 0xe000)
			c = 0xfffd;
		char u[4];
		af_buf_add(out, u, af_utf8_encode(c, u));
	}
}

enum { MAX_LAYERS = 4 };

struct layers {
	struct af_buf buf[MAX_LAYERS + 1];   /* + 1: --encoding's */
	size_t n;
	char what[96];         /* "gzip > UTF-16LE", for --info */
	uint64_t trailing;     /* bytes after the compressed data, ignored */
};

static void note_layer(struct layers *l, const char *what)
{
	size_t n = strlen(l->what);
	snprintf(l->what + n, sizeof l->what - n, "%s%s", n ? " > " : "", what);
}

/* A Flutter DevTools snapshot: its traceBinary (a Perfetto trace) into b,
 * 1; 0 for one with traceEvents (the chrome reader's); else an error: the
 * other screens' snapshots (memory, network, the CPU profiler's samples)
 * are not traces. */
static int devtools(struct layers *l, struct af_input *in, struct af_buf *b, struct af_diag *d)
{
	struct af_input plain = *in;
	plain.mapped = false;   /* read again after this when it has traceEvents */
	bool events;
	char screen[32];
	int rc = af_devtools_unwrap(&plain, b, &events, screen, d);
	if (rc == 0 && !events)
		return af_diag_error(d, "a Flutter DevTools snapshot of its '%s' screen, without a trace: only "
				     "the Performance page's export (traceBinary or traceEvents) is read", screen);
	if (rc == 1)
		note_layer(l, "Flutter DevTools snapshot (traceBinary)");
	return rc;
}

/* Peel one layer off *in into l; 1 if one was peeled, 0 if none, -1 on
 * error. Offsets in messages are within the layer being peeled. */
static int peel(struct layers *l, struct af_input *in, uint64_t cap, struct af_diag *d)
{
	const uint8_t *p = in->data;
	size_t len = in->len;
	bool gzip = af_inflate_is_gzip(p, len);
	bool zlib = !gzip && len >= 2 && p[0] == 0x78 && af_inflate_is_zlib(p, len);
	bool utf16 = len >= 2 && ((p[0] == 0xff && p[1] == 0xfe) || (p[0] == 0xfe && p[1] == 0xff));
	bool snapshot = !(gzip || zlib || utf16) && af_devtools_is_snapshot(p, len);
	if (!(gzip || zlib || utf16 || snapshot) || l->n == MAX_LAYERS)
		return 0;
	if (snapshot) {
		struct af_buf *b = &l->buf[l->n];
		int rc = devtools(l, in, b, d);
		if (rc <= 0) {
			af_buf_release(b);   /* not a layer: release_layers will not see it */
			return rc;
		}
		l->n++;
		in->data = (const uint8_t *)b->data;
		in->len = b->len;
		in->mapped = false;
		return 1;
	}
	struct af_buf *b = &l->buf[l->n++];
	if (utf16) {
		utf16_to_utf8(p + 2, len - 2, p[0] == 0xfe, b);
		note_layer(l, p[0] == 0xfe ? "UTF-16BE" : "UTF-16LE");
	} else {
		size_t used;
		if (af_inflate(p, len, af_inflate_limit(in->len, cap), b, &used, d) < 0)
			return -1;
		l->trailing += len - used;
		note_layer(l, gzip ? "gzip" : "zlib");
	}
	in->data = (const uint8_t *)b->data;
	in->len = b->len;
	in->mapped = false;
	return 1;
}

static void release_layers(struct layers *l)
{
	for (size_t i = 0; i < l->n; i++)
		af_buf_release(&l->buf[i]);
}

/* A UTF-8 byte-order mark says nothing about the format: skip it. */
static void skip_utf8_bom(struct af_input *in)
{
	if (starts(in->data, in->len, "\xef\xbb\xbf")) {
		in->data += 3;
		in->len -= 3;
		in->mapped = false;
	}
}

bool af_encoding_is_utf8(const char *name)
{
	return strcasecmp(name, "utf-8") == 0 || strcasecmp(name, "utf8") == 0;
}

/* --encoding: the text from that character set to UTF-8 (iconv). A byte
 * that is no character there is an error at its offset. */
static int recode(struct layers *l, struct af_input *in, const char *encoding, struct af_diag *d)
{
	iconv_t cd = iconv_open("UTF-8", encoding);
	if (cd == (iconv_t)-1)
		return af_diag_error(d, "cannot convert from --encoding '%s'", encoding);
	struct af_buf *b = &l->buf[l->n++];
	char *src = (char *)(uintptr_t)in->data;
	size_t left = in->len;
	int rc = 0;
	af_buf_reserve(b, 0);
	while (left) {
		af_buf_reserve(b, left + 64);
		char *dst = b->data + b->len;
		size_t room = b->cap - b->len - 1;
		size_t r = iconv(cd, &src, &left, &dst, &room);
		b->len = (size_t)(dst - b->data);
		b->data[b->len] = 0;
		if (r == (size_t)-1 && errno != E2BIG) {
			rc = af_diag_offset(d, (uint64_t)(src - (const char *)in->data),
					    "not %s text (--encoding)", encoding);
			break;
		}
	}
	iconv_close(cd);
	note_layer(l, encoding);
	in->data = (const uint8_t *)b->data;
	in->len = b->len;
	in->mapped = false;
	return rc;
}

/* in with its layers peeled off into l: decompressed, UTF-8 (after
 * --encoding), without a byte-order mark. */
static int plain_input(struct layers *l, struct af_input *in, const struct af_read_opts *o,
		       struct af_diag *d)
{
	int rc;
	while ((rc = peel(l, in, o->max_input, d)) > 0)
		;
	if (rc < 0)
		return -1;
	skip_utf8_bom(in);
	if (o->encoding && !af_encoding_is_utf8(o->encoding))
		return recode(l, in, o->encoding, d);
	return 0;
}

int af_read(struct af_profile *p, const struct af_input *in, const struct af_reader *r,
	    const struct af_read_opts *o, struct af_diag *d)
{
	struct layers l = { .n = 0 };
	struct af_input plain = *in;
	int rc = plain_input(&l, &plain, o, d);
	if (rc == 0) {
		if (!r)
			r = af_detect(&plain, d);
		if (!r || !r->read)
			rc = r ? af_diag_error(d, "%s", r->nothing) : -1;
		else
			rc = r->read(p, &plain, o, d);
	}
	if (rc == 0) {
		p->format = r->name;
		if (l.what[0])
			af_profile_info(p, "compression", "%s", l.what);
		af_profile_warn(p, l.trailing, "bytes after the compressed data ignored");
		/* every back end sums weights up the tree: a sum that would
		 * wrap (times or counts near 2^64) is refused, not drawn */
		if (!af_tree_sums_fit(&p->tree))
			rc = af_diag_error(d, "the weights add up past 2^64 - 2 (times or counts "
					   "too large to draw)");
		/* an empty picture is never what the user wanted: say why */
		else if (p->tree.nnodes == 1 && !o->info_only)
			rc = af_diag_error(d, "nothing to draw: the file has %s", r->nothing);
	}
	release_layers(&l);
	return rc;
}

/* ---- several inputs read as one ---- */

/* in made plain and appended to all as whole lines; -1 if it is not folded
 * stacks (or r, when -f names another format). */
static int append_folded(struct af_buf *all, uint64_t *lines, const struct af_input *in,
			 const struct af_reader *r, const struct af_read_opts *o, struct af_diag *d)
{
	struct layers l = { .n = 0 };
	struct af_input plain = *in;
	int rc = plain_input(&l, &plain, o, d);
	if (rc == 0 && !r && plain.len)
		r = af_detect(&plain, d);
	if (rc == 0 && plain.len && r != &af_reader_folded)
		rc = r ? af_diag_error(d, "several inputs make one graph only when they are of one "
				       "format: this is %s, the first is folded stacks (or use "
				       "--per-thread DIR)", r->what) : -1;
	if (rc == 0) {
		af_buf_add(all, plain.data, plain.len);
		for (size_t i = 0; i < plain.len; i++)
			*lines += plain.data[i] == '\n';
		if (plain.len && plain.data[plain.len - 1] != '\n') {
			af_buf_putc(all, '\n');
			++*lines;
		}
	}
	release_layers(&l);
	return rc;
}

int af_read_inputs(struct af_profile *p, const struct af_input *ins, size_t n,
		   const struct af_reader *r, const struct af_read_opts *o, struct af_diag *d)
{
	if (n == 1)
		return af_read(p, &ins[0], r, o, d);
	struct af_buf all;
	af_buf_init(&all);
	struct af_part *parts = af_xcalloc(n, sizeof *parts);
	uint64_t lines = 0;
	int rc = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		parts[i] = (struct af_part){ .name = ins[i].name, .first_line = lines + 1 };
		af_diag_init(d, ins[i].name);
		rc = append_folded(&all, &lines, &ins[i], r, o, d);
	}
	if (rc == 0) {
		af_diag_init(d, ins[0].name);
		struct af_input one = {
			.data = (const uint8_t *)all.data, .len = all.len, .name = ins[0].name,
			.parts = parts, .nparts = n,
		};
		struct af_read_opts utf8 = *o;   /* each input is UTF-8 already */
		utf8.encoding = NULL;
		rc = af_read(p, &one, &af_reader_folded, &utf8, d);
	}
	af_buf_release(&all);
	free(parts);
	return rc;
}

/* ---- several captures merged ---- */

/* Capture i of the first's format (first) read into q and merged into p. */
static int add_capture(struct af_profile *p, const struct af_input *in, const struct af_reader *r,
		       const struct af_reader *first, const struct af_read_opts *o,
		       af_capture_fn *read_one, void *ctx, struct af_diag *d)
{
	struct af_profile q;
	af_profile_init(&q);
	af_diag_init(d, in->name);
	int rc = af_read(&q, in, r, o, d);
	if (rc == 0 && strcmp(q.format, first->name) != 0)
		rc = af_diag_error(d, "several inputs make one graph only when they are of one "
				   "format: this is %s, the first is %s (or use --per-thread DIR)",
				   af_reader_named(q.format)->what, first->what);
	if (rc == 0 && read_one)
		read_one(ctx, &q, in->name);
	if (rc == 0)
		rc = af_profile_merge(p, &q, d);
	af_profile_release(&q);
	return rc;
}

int af_read_captures(struct af_profile *p, const struct af_input *ins, size_t n,
		     const struct af_reader *r, const struct af_read_opts *o,
		     af_capture_fn *read_one, void *ctx, struct af_diag *d)
{
	int rc = n > 1 && ins[0].len == 0 ? 0 : af_read(p, &ins[0], r, o, d);
	if (n > 1 && (ins[0].len == 0 || (rc == 0 && p->format == af_reader_folded.name))) {
		af_profile_release(p);   /* concatenated, as flamegraph.pl reads them */
		af_profile_init(p);
		rc = af_read_inputs(p, ins, n, r, o, d);
		p->captures = (unsigned)n;
		if (rc == 0 && read_one)
			read_one(ctx, p, ins[0].name);
		return rc;
	}
	if (rc == 0 && read_one)
		read_one(ctx, p, ins[0].name);
	if (rc == 0 && n > 1 && (o->info_only || o->timeline))
		rc = af_diag_error(d, "%s takes one capture at a time (%zu given), or several of "
				   "folded stacks", o->info_only ? "--info" : "--flamechart", n);
	const struct af_reader *first = rc == 0 ? af_reader_named(p->format) : NULL;
	for (size_t i = 1; i < n && rc == 0; i++)
		rc = add_capture(p, &ins[i], r, first, o, read_one, ctx, d);
	return rc;
}
