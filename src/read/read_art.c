/* read_art.c: Android method traces (.trace) written by Debug.startMethodTracing:
 * the legacy (non-streaming) layout, and the dispatch to the other variants
 *
 *   *version\n<v>\n<key=value lines>*threads\n<id\tname>*methods\n<id\tclass\t...>*end\n
 *   <binary header: "SLOW", u2 version, u2 data offset, u8 start, u2 record size>
 *   <records to EOF: thread id (u1 in v1, u2), u4 method word, u4 time(s)>
 *
 * The binary header starts right after "*end\n", never at the first "SLOW"
 * in the file. Records are decoded in one loop straight into the call tree. */
#include "art.h"
#include "cursor.h"
#include "core/names.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LEGACY_HEADER_MIN = 16, RECORD_TIME_OFFSET_V3 = 6 };


/* ---- legacy binary data section ---- */

struct legacy {
	int version;
	size_t data;          /* offset of the first record */
	size_t record_size;
	size_t time_offset;   /* of the chosen clock within a record */
};

static bool looks_like_text(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != '\n' && p[i] != '\t' && (p[i] < 0x20 || p[i] > 0x7e))
			return false;
	return n > 0;
}

/* Binary bytes that an editor or a text transfer re-encoded as UTF-8 turn
 * into U+FFFD replacement characters (EF BF BD): the records are lost. */
static bool reencoded(const uint8_t *p, size_t n)
{
	unsigned found = 0;
	for (size_t i = 0; i + 2 < n && found < 2; i++)
		found += p[i] == 0xef && p[i + 1] == 0xbf && p[i + 2] == 0xbd;
	return found >= 2 || (n >= 3 && p[0] == 0xef && p[1] == 0xbf && p[2] == 0xbd);
}

static int reencoded_error(struct art *a, size_t at)
{
	return af_diag_offset(a->d, at, "the binary part holds U+FFFD replacement characters (bytes EF BF BD): "
			      "the file was saved or transferred as UTF-8 text, which destroys the records; "
			      "use the file as the device wrote it (adb pull)");
}

static int read_legacy_header(struct art *a, size_t at, int text_version, struct legacy *h)
{
	const struct af_input *in = a->in;
	struct af_cursor c = { in->data, in->len, at };
	size_t left = af_cursor_left(&c);
	if (left == 0)
		return af_diag_offset(a->d, at, "no data section after '*end' (a header-only trace has no method records)");
	if (reencoded(in->data + at, left < 256 ? left : 256))
		return reencoded_error(a, at);
	if (looks_like_text(in->data + at, left < 64 ? left : 64))
		return af_diag_offset(a->d, at, "data section after '*end' is text, not binary records (a header-only trace)");
	uint32_t magic;
	uint16_t version, offset, record_size = 0;
	if (!af_cursor_u32(&c, &magic) || !af_cursor_u16(&c, &version) || !af_cursor_u16(&c, &offset))
		return af_diag_offset(a->d, at, "truncated data section header (%zu bytes, need %d)", left, LEGACY_HEADER_MIN);
	if (magic != 0x574f4c53)
		return af_diag_offset(a->d, at, "data section does not start with 'SLOW' after '*end'");
	if (version < 1 || version > 3)
		return af_diag_offset(a->d, at + 4, "unsupported data section version %u (legacy files have 1, 2 or 3)", version);
	if (version != text_version)
		af_profile_note(a->p, "text section says version %d, data section %u (data section used)", text_version, version);
	if (offset < LEGACY_HEADER_MIN || (version == 3 && offset < 18))
		return af_diag_offset(a->d, at + 6, "data offset %u is shorter than the header", offset);
	if (offset > left)
		return af_diag_offset(a->d, at + 6, "data offset %u is past the end of the file (%zu bytes left)", offset, left);
	if (version == 3) {
		c.pos = at + 16;
		af_cursor_u16(&c, &record_size);
		if (record_size < 14)
			return af_diag_offset(a->d, at + 16, "record size %u is too small for version 3 (need at least 14)", record_size);
	}
	h->version = version;
	h->data = at + offset;
	h->record_size = version == 1 ? 9 : version == 2 ? 10 : record_size;
	return 0;
}

/* Which clocks a legacy file has: v3 both; v1/v2 the one named by clock=. */
static int legacy_clock(struct art *a, struct legacy *h)
{
	const char *clock = af_profile_get_info(a->p, "clock");
	if (h->version == 3) {
		if (art_choose_clock(a, true, true, "dual") < 0)
			return -1;
		h->time_offset = a->use_wall ? RECORD_TIME_OFFSET_V3 + 4 : RECORD_TIME_OFFSET_V3;
		return 0;
	}
	bool wall = clock && (strcmp(clock, "wall") == 0 || strcmp(clock, "global") == 0);
	if (clock && !wall && strcmp(clock, "thread-cpu") != 0)
		af_profile_note(a->p, "clock '%s' with a single time per record: read as thread-cpu", clock);
	if (art_choose_clock(a, wall, !wall, wall ? "wall" : "thread-cpu") < 0)
		return -1;
	h->time_offset = h->version == 1 ? 5 : 6;
	return 0;
}

static void read_records(struct art *a, const struct legacy *h)
{
	const uint8_t *p = a->in->data + h->data;
	size_t n = (a->in->len - h->data) / h->record_size;
	size_t word_at = h->version == 1 ? 1 : 2;
	a->record_id_bits = h->version == 1 ? 8 : 16;
	size_t step = AF_INPUT_CONSUME_STEP / h->record_size;
	for (size_t i = 0; i < n; i++, p += h->record_size) {
		if (i % step == step - 1)
			af_input_consumed(a->in, (size_t)(p - a->in->data));
		uint32_t tid = h->version == 1 ? p[0] : (uint32_t)af_le(p, 2);
		uint32_t word = (uint32_t)af_le(p + word_at, 4);
		uint32_t t = (uint32_t)af_le(p + h->time_offset, 4);
		art_event(a, art_thread_for(a, tid), word, t, true);
	}
	a->records = n;
	size_t partial = (a->in->len - h->data) % h->record_size;
	af_profile_warn(a->p, partial ? 1 : 0, "trailing partial record (%zu bytes) ignored", partial);
}

static int read_legacy(struct art *a)
{
	size_t end;
	int text_version = 0;
	if (art_parse_text(a, a->in->data, a->in->len, 0, &end, &text_version) < 0)
		return -1;
	struct legacy h = { 0 };
	if (read_legacy_header(a, end, text_version, &h) < 0 || legacy_clock(a, &h) < 0)
		return -1;
	af_profile_info(a->p, "variant", "legacy v%d (%zu-byte records)", h.version, h.record_size);
	read_records(a, &h);
	art_finish(a);
	return 0;
}

/* ---- variant dispatch (spec §0, §8) ---- */

static int read_slow(struct art *a)
{
	if (reencoded(a->in->data + 4, a->in->len - 4 < 256 ? a->in->len - 4 : 256))
		return reencoded_error(a, 4);
	unsigned v = (unsigned)af_le(a->in->data + 4, 2);
	if (v == 0xf2 || v == 0xf3)
		return art_read_stream(a);
	if (v == 4 || v == 5 || v == 0xf4 || v == 0xf5)
		return art_read_v2(a);
	if (v == 0xf6)
		return af_diag_offset(a->d, 4, "ART long-running-methods trace (version 0xf6, low-overhead tracing, 2025+): not a Debug.startMethodTracing trace and not supported (Perfetto reads it)");
	if (v == 0xf1)
		return af_diag_offset(a->d, 4, "streaming version 0xf1 (1-byte thread ids) was never written by ART and is not supported");
	if (v >= 1 && v <= 3)
		return af_diag_offset(a->d, 0, "a bare data section (version %u) without its '*version' text part: join it with its .header/.sec text first", v);
	return af_diag_offset(a->d, 4, "unsupported ART trace version 0x%x (known: 0xf2, 0xf3 streaming; 4, 5, 0xf4, 0xf5 V2)", v);
}

static int read_art(struct af_profile *p, const struct af_input *in,
		const struct af_read_opts *o, struct af_diag *d)
{
	struct art a;
	art_init(&a, p, in, o, d);
	int rc;
	if (in->len >= 9 && memcmp(in->data, "*version\n", 9) == 0)
		rc = read_legacy(&a);
	else if (in->len >= 6 && memcmp(in->data, "SLOW", 4) == 0)
		rc = read_slow(&a);
	else if (in->len >= 4 && memcmp(in->data, "SLOW", 4) == 0)
		rc = af_diag_offset(d, 4, "truncated header (%zu bytes, need 32)", in->len);
	else
		rc = af_diag_offset(d, 0, "not an ART method trace: no '*version' text section or 'SLOW' header");
	art_release(&a);
	return rc;
}

static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	if ((len >= 9 && memcmp(data, "*version\n", 9) == 0) ||
	    (len >= 10 && memcmp(data, "*version\r\n", 10) == 0) || (len >= 4 && memcmp(data, "SLOW", 4) == 0))
		return AF_SNIFF_YES;
	return AF_SNIFF_NO;
}

const struct af_reader af_reader_art = {
	.name = "art", .what = "an ART method trace", .sniff = sniff,
	.read = read_art, .nothing = "no method records",
};
