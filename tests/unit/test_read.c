/* test_read.c: the reader table (detection, refusals), the layers peeled
 * before detection (gzip, zlib, UTF-16), the protobuf walker, the id map
 * and windows over a mapped input. */
#include "harness.h"
#include "support.h"
#include "core/idmap.h"
#include "read/proto.h"
#include "read/demangle.h"
#include "read/input.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

static const char folded[] = "main;a;b 3\nmain;c 2\n";

static void expect_folded(const void *data, size_t len, const char *want_format)
{
	struct read_result r;
	read_input(&r, data, len, "t", NULL, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "main;a;b 3\nmain;c 2\n");
	STR_EQ(r.p.format, want_format);
	read_result_release(&r);
}

/* deflate s as zlib (window_bits 15) or gzip (31) */
static size_t pack(uint8_t *out, size_t cap, const char *s, int window_bits)
{
	z_stream z = { 0 };
	OK(deflateInit2(&z, 6, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	z.next_in = (Bytef *)s;
	z.avail_in = (uInt)strlen(s);
	z.next_out = out;
	z.avail_out = (uInt)cap;
	OK(deflate(&z, Z_FINISH) == Z_STREAM_END);
	size_t n = z.total_out;
	deflateEnd(&z);
	return n;
}

void test_read_table(void)
{
	STR_EQ(af_reader_names(), "art, perf-data, pprof, atrace, chrome, cpuprofile, perf-script, folded, perfetto or simpleperf");
	OK(af_reader_named("art") == &af_reader_art);
	OK(af_reader_named("folded") == &af_reader_folded);
	OK(af_reader_named("perfetto") == &af_reader_perfetto);
	OK(af_reader_named("perf-data") == &af_reader_perfdata);
	OK(af_reader_named("nonsense") == NULL);
	struct read_result r;
	read_input(&r, "\x01\x02\x03 garbage", 11, "t", NULL, NULL);
	STR_EQ(r.error, "t: unrecognised input: not an ART method trace, a perf.data recording, a pprof profile, an atrace/systrace capture, a Chrome JSON trace, a .cpuprofile, perf script text, folded stacks, a Perfetto trace or a simpleperf report-sample profile");
	read_result_release(&r);
	read_input(&r, "PERFILE2\x68\0\0\0\0\0\0\0", 16, "t", NULL, NULL);
	OK(strstr(r.error, "perf.data") != NULL);
	read_result_release(&r);
}

void test_read_layers(void)
{
	uint8_t z[256];
	expect_folded(folded, strlen(folded), "folded");
	expect_folded(z, pack(z, sizeof z, folded, 31), "folded");
	expect_folded(z, pack(z, sizeof z, folded, 15), "folded");
	/* UTF-16LE and BE with their marks, and UTF-8's mark */
	uint8_t u[128];
	size_t n = strlen(folded);
	for (int be = 0; be < 2; be++) {
		u[0] = be ? 0xfe : 0xff;
		u[1] = be ? 0xff : 0xfe;
		for (size_t i = 0; i < n; i++) {
			u[2 + 2 * i + be] = (uint8_t)folded[i];
			u[2 + 2 * i + !be] = 0;
		}
		expect_folded(u, 2 + 2 * n, "folded");
	}
	char bom[64] = "\xef\xbb\xbf";
	strcat(bom, folded);
	expect_folded(bom, strlen(bom), "folded");
	/* what --info says about the layers */
	struct read_result r;
	read_input(&r, z, pack(z, sizeof z, folded, 31), "t", NULL, NULL);
	STR_EQ(af_profile_get_info(&r.p, "compression"), "gzip");
	read_result_release(&r);
	/* a corrupt gzip names its offset */
	size_t len = pack(z, sizeof z, folded, 31);
	read_input(&r, z, len / 2, "t", NULL, NULL);
	OK(r.rc < 0 && strstr(r.error, "t: ") == r.error);
	read_result_release(&r);
}

void test_proto_walk(void)
{
	/* field 1 varint 150; field 2 { field 3 "hi" }; field 5 fixed32 */
	const uint8_t msg[] = { 0x08, 0x96, 0x01, 0x12, 0x04, 0x1a, 0x02, 'h', 'i', 0x2d, 1, 0, 0, 0 };
	struct af_proto m, sub;
	struct af_proto_field f;
	af_proto_init(&m, msg, sizeof msg, 100);
	INT_EQ(af_proto_next(&m, &f), 1);
	INT_EQ(f.num, 1);
	INT_EQ(f.u, 150);
	INT_EQ(af_proto_next(&m, &f), 1);
	INT_EQ(f.num, 2);
	INT_EQ(f.wire, AF_WIRE_LEN);
	af_proto_sub(&m, &f, &sub);
	INT_EQ(af_proto_next(&sub, &f), 1);
	INT_EQ(f.num, 3);
	INT_EQ(f.len, 2);
	INT_EQ(f.offset, 105);
	INT_EQ(af_proto_next(&sub, &f), 0);
	INT_EQ(af_proto_next(&m, &f), 1);
	INT_EQ(f.u, 1);
	INT_EQ(af_proto_next(&m, &f), 0);
	/* a length past the end of its message, inside a nested message */
	const uint8_t bad[] = { 0x12, 0x03, 0x0a, 0x05, 'x' };
	af_proto_init(&m, bad, sizeof bad, 0);
	INT_EQ(af_proto_next(&m, &f), 1);
	af_proto_sub(&m, &f, &sub);
	INT_EQ(af_proto_next(&sub, &f), -1);
	INT_EQ(sub.error_offset, 2);
	STR_EQ(sub.error, "length runs past the end of its message");
	INT_EQ(af_proto_zigzag(3), -2);
	INT_EQ(af_proto_zigzag(4), 2);
}

void test_idmap(void)
{
	struct af_idmap m;
	af_idmap_init(&m);
	INT_EQ(af_idmap_get(&m, 7), AF_NONE);
	for (uint32_t i = 0; i < 100000; i++)
		af_idmap_put(&m, (uint64_t)i << 32, i);
	for (uint32_t i = 0; i < 100000; i += 2)
		af_idmap_del(&m, (uint64_t)i << 32);
	bool found;
	*af_idmap_slot(&m, 5, &found) = 42;
	OK(!found);
	OK(*af_idmap_slot(&m, 5, &found) == 42 && found);
	int wrong = 0;
	for (uint32_t i = 0; i < 100000; i++)
		wrong += af_idmap_get(&m, (uint64_t)i << 32) != (i % 2 ? i : AF_NONE);
	INT_EQ(wrong, 0);
	INT_EQ(m.n, 50001);
	af_idmap_release(&m);
}

void test_demangle(void)
{
	struct af_buf b;
	af_buf_init(&b);
	const char *m = "_ZN7android6Looper8pollOnceEiPiS1_PPv";
	OK(af_demangle(m, strlen(m), &b));
	STR_EQ(b.data, "android::Looper::pollOnce(int, int*, int*, void**)");
	b.len = 0;
	OK(!af_demangle("epoll_wait", 10, &b));
	OK(!af_demangle("_Zgarbage", 9, &b));
	INT_EQ(b.len, 0);
	af_buf_release(&b);
}

/* af_hash_keyed_until is af_hash_keyed_bytes of the bytes before the stop,
 * for every length and position (a word at a time, then the last few), and
 * reads nothing past max (the buffers are exactly max long, for ASan). */
void test_hash_until(void)
{
	int wrong = 0;
	for (size_t max = 0; max < 40; max++) {
		for (size_t stop = 0; stop <= max; stop++) {
			unsigned char *b = malloc(max ? max : 1);
			for (size_t i = 0; i < max; i++)
				b[i] = (unsigned char)(0x3a + 0x45 * i);   /* ';' is 0x3b: never */
			if (stop < max)
				b[stop] = ';';
			size_t len = 99;
			uint64_t h = af_hash_keyed_until(b, max, ';', &len);
			wrong += len != stop || h != af_hash_keyed_bytes(b, stop);
			free(b);
		}
	}
	INT_EQ(wrong, 0);
	size_t len;
	const char *s = "\x80\xbb;\xff";   /* bytes with the top bit set around it */
	af_hash_keyed_until(s, 4, ';', &len);
	INT_EQ(len, 2);
}

/* --event: an exact name first, then a name without its modifier when one
 * event type has it; several with modifiers are refused with the list */
void test_read_event_pick(void)
{
	static const struct af_event_name names[] = {
		{ "cpu-cycles:u", 12 }, { "cpu-cycles:k", 12 }, { "cpu-clock:u", 11 }, { "cache-misses", 12 },
		{ "cache-misses:u", 14 },
	};
	struct af_diag d;
	af_diag_init(&d, "t");
	INT_EQ(af_event_pick(NULL, names, 5, &d), 0);
	INT_EQ(af_event_pick("cpu-clock:u", names, 5, &d), 2);
	INT_EQ(af_event_pick("cpu-clock", names, 5, &d), 2);
	INT_EQ(af_event_pick("cache-misses", names, 5, &d), 3);   /* exact beats a modifier */
	INT_EQ(af_event_pick("cache-misses:u", names, 5, &d), 4);
	OK(!d.set);
	INT_EQ(af_event_pick("cpu", names, 5, &d), -1);            /* no prefix matching */
	OK(d.set);
	af_diag_init(&d, "t");
	INT_EQ(af_event_pick("cpu-cycles", names, 5, &d), -1);     /* :u or :k? */
	OK(strstr(d.msg, "it has: cpu-cycles:u, cpu-cycles:k, cpu-clock:u") != NULL);
}

/* A temporary file (path: a mkstemp template) of n bytes in a pattern
 * (i * mul + i / div), loaded into m, which must be a mapping; its bytes,
 * for the caller to compare with and free. */
static unsigned char *mapped_file(char *path, size_t n, size_t mul, size_t div, struct af_mapped *m,
				  struct af_diag *d)
{
	int fd = mkstemp(path);
	OK(fd >= 0);
	unsigned char *want = malloc(n);
	for (size_t i = 0; i < n; i++)
		want[i] = (unsigned char)(i * mul + i / div);
	OK(write(fd, want, n) == (ssize_t)n);
	close(fd);
	af_diag_init(d, path);
	INT_EQ(af_input_load(m, path, UINT64_MAX, d), 0);
	OK(m->in.mapped);
	return want;
}

/* af_input_ahead over a mapped file: the pages ahead of the reader made,
 * those well behind dropped (the bytes read again through the mapping
 * are the file's), a call due again half a chunk on and never past the
 * end; a file that shrank under its mapping is an error, not a SIGBUS. An
 * input read into memory needs no call. */
void test_input_ahead(void)
{
	char path[] = "/tmp/af-ahead-XXXXXX";
	size_t n = 5 << 20;
	struct af_mapped m;
	struct af_diag d;
	unsigned char *want = mapped_file(path, n, 13, 4093, &m, &d);
	struct af_ahead a;
	af_input_ahead_init(&a, &m.in);
	INT_EQ(a.next, 0);
	size_t calls = 0;
	for (size_t pos = 0; pos < n; pos += 4096) {
		if (pos >= a.next) {
			INT_EQ(af_input_ahead(&a, &m.in, pos, &d), 0);
			OK(a.ready > pos && a.dropped <= pos && a.next > pos);
			calls++;
		}
		OK(memcmp(m.in.data + pos, want + pos, 4096) == 0);
	}
	OK(calls >= 8 && calls <= 12);   /* every half MiB */
	OK(a.dropped >= n - (2 << 20));
	OK(memcmp(m.in.data, want, n) == 0);   /* dropped pages come back from the file */
	OK(truncate(path, 1 << 20) == 0);
	af_input_ahead_init(&a, &m.in);
	OK(af_input_ahead(&a, &m.in, 0, &d) == 0);   /* the first MiB is there */
	INT_EQ(af_input_ahead(&a, &m.in, 1 << 20, &d), -1);
	OK(strstr(d.msg, "shrank") != NULL);
	af_input_release(&m);
	unlink(path);
	struct af_input heap = { .data = want, .len = n };
	af_input_ahead_init(&a, &heap);
	INT_EQ(a.next, SIZE_MAX);
	free(want);
}

/* af_window over a mapped file larger than one window: every byte once,
 * in order, whatever is kept; a line longer than half the buffer goes on
 * through the mapping; a file that shrinks after it was mapped is an error
 * at the offset where its bytes ran out, not a crash. */
void test_window(void)
{
	char path[] = "/tmp/af-window-XXXXXX";
	size_t n = 3 << 20;
	struct af_mapped m;
	struct af_diag d;
	unsigned char *want = mapped_file(path, n, 7, 251, &m, &d);
	struct af_window w;
	af_window_init(&w, &m.in);
	OK(w.buffered);
	size_t keep = 0, rounds = 0;
	bool mapped_rest = false;
	int rc;
	while ((rc = af_window_more(&w, keep, &d)) > 0) {
		/* the window holds the input's bytes at its offset */
		OK(w.at + w.len <= n && memcmp(w.data, want + w.at, w.len) == 0);
		mapped_rest |= !w.buffered;
		/* keep a little, or (the 5th time) more than half the buffer */
		keep = ++rounds == 5 ? w.len / 4 : w.len - w.len / 8;
	}
	INT_EQ(rc, 0);
	OK(mapped_rest);
	INT_EQ(w.at + w.len, n);
	af_window_release(&w);
	/* truncated under the mapping: the next read finds nothing */
	OK(truncate(path, 1 << 20) == 0);
	af_window_init(&w, &m.in);
	keep = 0;
	while ((rc = af_window_more(&w, keep, &d)) > 0)
		keep = w.len;
	INT_EQ(rc, -1);
	OK(strstr(d.msg, "shrank") != NULL);
	af_window_release(&w);
	af_input_release(&m);
	unlink(path);
	free(want);
}
