/* test_gzpar.c: the two-thread gzip writer makes one gzip member that
 * inflates to what went in, at every length around the chunk boundaries;
 * the same bytes with or without a second thread and however the input
 * is cut, or written as the chunks are deflated (af_gzpar_stream); and,
 * for one chunk or less, zlib's own gzip bytes. */
#include "render/gzpar.h"
#include "harness.h"

#include <stdlib.h>
#include <zlib.h>

/* compressible but not trivial: lines of a few words, numbers growing */
static void fill(struct af_buf *b, size_t len)
{
	uint32_t x = 12345;
	while (b->len < len) {
		x = x * 1103515245u + 12345u;
		af_buf_printf(b, "main;f%u;g%u %u\n", x >> 20, (x >> 8) % 97, (unsigned)b->len);
	}
	b->len = len;
}

/* data[0..len) through af_gzpar, added piece bytes at a time (0: whole),
 * streamed or not; the bytes out before the finish */
static size_t gzpar_as(const char *data, size_t len, size_t piece, bool stream, struct af_buf *out)
{
	struct af_gzpar *g = af_gzpar_new(1);
	struct af_sink s;
	struct af_diag d;
	af_diag_init(&d, "t");
	af_buf_init(out);
	af_sink_init(&s, af_write_buf, out);
	if (stream)
		af_gzpar_stream(g, &s);
	for (size_t at = 0; at < len;) {
		size_t n = piece && piece < len - at ? piece : len - at;
		af_gzpar_add(g, data + at, n);
		at += n;
	}
	size_t early = s.written + s.buf.len;
	INT_EQ(af_gzpar_finish(g, &s, &d), 0);
	af_sink_finish(&s);
	af_gzpar_free(g);
	return early;
}

static void gzpar(const char *data, size_t len, size_t piece, struct af_buf *out)
{
	OK(gzpar_as(data, len, piece, false, out) == 0);
}

/* gz inflates as one gzip member, all of gz, to exactly data[0..len) */
static bool one_member_of(const struct af_buf *gz, const char *data, size_t len)
{
	z_stream z = { 0 };
	if (inflateInit2(&z, 16 + 15) != Z_OK)
		return false;
	char *back = malloc(len + 1);
	z.next_in = (Bytef *)gz->data;
	z.avail_in = (uInt)gz->len;
	z.next_out = (Bytef *)back;
	z.avail_out = (uInt)len + 1;
	int zr = inflate(&z, Z_FINISH);
	bool ok = zr == Z_STREAM_END && z.avail_in == 0 && z.total_out == len && memcmp(back, data, len) == 0;
	inflateEnd(&z);
	free(back);
	return ok;
}

static bool same(const struct af_buf *a, const struct af_buf *b)
{
	return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

void test_gzpar_chunks_inflate_whole(void)
{
	const size_t C = AF_GZPAR_CHUNK;
	const size_t lens[] = { 0, 1, C - 1, C, C + 1, 2 * C, 2 * C + 1, 3 * C + C / 3 };
	struct af_buf text;
	af_buf_init(&text);
	fill(&text, 3 * C + C / 3);
	for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
		struct af_buf whole, bytewise, inline_, streamed, streamed1;
		gzpar(text.data, lens[i], 0, &whole);
		OK(one_member_of(&whole, text.data, lens[i]));
		gzpar(text.data, lens[i], 1000, &bytewise);   /* cut elsewhere than the chunks */
		OK(same(&whole, &bytewise));
		gzpar_as(text.data, lens[i], 1000, true, &streamed);
		OK(same(&whole, &streamed));
		setenv("AFLAME_NO_THREADS", "1", 1);
		gzpar(text.data, lens[i], 0, &inline_);
		/* one thread: a chunk is deflated once the byte after it comes,
		 * so some is out before the finish when there are two chunks */
		size_t early = gzpar_as(text.data, lens[i], 0, true, &streamed1);
		unsetenv("AFLAME_NO_THREADS");
		OK(same(&whole, &inline_));
		OK(same(&whole, &streamed1));
		OK(lens[i] > C ? early > 0 : early == 0);
		if (!one_member_of(&whole, text.data, lens[i]) || !same(&whole, &bytewise) || !same(&whole, &inline_) ||
		    !same(&whole, &streamed) || !same(&whole, &streamed1))
			printf("    at %zu bytes\n", lens[i]);
		af_buf_release(&whole);
		af_buf_release(&bytewise);
		af_buf_release(&inline_);
		af_buf_release(&streamed);
		af_buf_release(&streamed1);
	}
	af_buf_release(&text);
}

/* zlib's gzip at level 1 of data[0..len) */
static void zlib_gzip(const char *data, size_t len, struct af_buf *out)
{
	z_stream z = { 0 };
	INT_EQ(deflateInit2(&z, 1, Z_DEFLATED, 16 + 15, 8, Z_DEFAULT_STRATEGY), Z_OK);
	af_buf_init(out);
	af_buf_reserve(out, deflateBound(&z, len) + 32);
	z.next_in = (Bytef *)(uintptr_t)data;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out->data;
	z.avail_out = (uInt)out->cap - 1;
	INT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
	out->len = z.total_out;
	deflateEnd(&z);
}

/* One chunk: what zlib's gzip writer makes (so small profiles are the
 * bytes they were); more: different bytes (the chunks' flushes), smaller
 * than a thousandth more. */
void test_gzpar_one_chunk_is_zlibs(void)
{
	struct af_buf text, ours, theirs;
	af_buf_init(&text);
	fill(&text, 3 * AF_GZPAR_CHUNK);
	const size_t lens[] = { 0, 100, AF_GZPAR_CHUNK };
	for (size_t i = 0; i < 3; i++) {
		gzpar(text.data, lens[i], 0, &ours);
		zlib_gzip(text.data, lens[i], &theirs);
		OK(same(&ours, &theirs));
		af_buf_release(&ours);
		af_buf_release(&theirs);
	}
	gzpar(text.data, text.len, 0, &ours);
	zlib_gzip(text.data, text.len, &theirs);
	OK(!same(&ours, &theirs));
	OK(ours.len < theirs.len + theirs.len / 1000);
	af_buf_release(&ours);
	af_buf_release(&theirs);
	af_buf_release(&text);
}
