/* test_read_art_stream.c: the streaming and V2 readers, and damage to every
 * variant. Traces come from tests/tools/art_writer.py (run through popen,
 * from the repository root as tests/run.sh does) or are built here byte by
 * byte (spec §3-5, §8). Damaged files must give exit-1 errors that say
 * where, or a warning and the records before the damage; never a crash or
 * a hang (run under ASan/UBSan by `make check`'s second pass). */
#include "harness.h"
#include "read/read.h"
#include "core/buf.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void run_bytes(struct read_result *res, const uint8_t *data, size_t len, enum af_clock clock)
{
	struct af_read_opts o = { .clock = clock };
	read_input(res, data, len, "t.trace", NULL, &o);
}

static void done(struct read_result *res)
{
	read_result_release(res);
}

/* The writer's output for `args`; false (and a note) if python3 is missing. */
static bool writer(struct af_buf *b, const char *args)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "python3 tests/tools/art_writer.py %s tests/tools/desc/basic.desc 2>/dev/null", args);
	af_buf_init(b);
	FILE *f = popen(cmd, "r");
	if (!f)
		return false;
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		af_buf_add(b, chunk, n);
	if (pclose(f) != 0 || b->len == 0) {
		printf("    note: '%s' failed (python3 missing?): writer-based checks skipped\n", cmd);
		af_buf_release(b);
		return false;
	}
	return true;
}

static bool read_file(struct af_buf *b, const char *path)
{
	af_buf_init(b);
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		af_buf_add(b, chunk, n);
	fclose(f);
	return true;
}

/* An error is one line that says where: a byte offset, or a line of a text
 * section ("t.trace:7: ..."); or it names what the file is instead. */
static bool error_ok(const char *e)
{
	if (!e[0] || strchr(e, '\n'))
		return false;
	if (strstr(e, "offset 0x") || (strncmp(e, "t.trace:", 8) == 0 && e[8] >= '0' && e[8] <= '9'))
		return true;
	return strstr(e, "empty file") || strstr(e, "clock") || strstr(e, "not an ART") ||
	       strstr(e, "nothing to draw") ||
	       strstr(e, "unrecognised") || strstr(e, "this is a") || strstr(e, "this looks like");
}

struct damage { size_t cuts, cut_errors, cut_warned, flips, flip_errors, bad; };

static void try_damaged(struct damage *dm, const uint8_t *data, size_t len, bool is_cut, size_t at)
{
	struct read_result res;
	run_bytes(&res, data, len, AF_CLOCK_DEFAULT);
	if (res.rc < 0 && !error_ok(res.error)) {
		if (dm->bad++ < 5)
			printf("    damage at %zu (%s): unhelpful error '%s'\n", at, is_cut ? "cut" : "flip", res.error);
	}
	if (is_cut) {
		dm->cuts++;
		dm->cut_errors += res.rc < 0;
		dm->cut_warned += res.rc == 0 && res.p.nwarnings > 0;
	} else {
		dm->flips++;
		dm->flip_errors += res.rc < 0;
	}
	done(&res);
}

/* One damaged input: the first `len` bytes of f, with byte `at` xored
 * with x (x = 0: a plain cut). */
static void one_damage(struct damage *dm, const struct af_buf *f, uint8_t *copy, size_t len,
		       size_t at, uint8_t x)
{
	memcpy(copy, f->data, len);
	if (x)
		copy[at] ^= x;
	try_damaged(dm, copy, len, x == 0, x ? at : len);
}

static const uint8_t xors[] = { 0xff, 0x01, 0x80 };

/* Every damage in turn; with `isolate`, each in a child process, stopping
 * at the first that kills it (to name the input that crashes). */
static bool damage_loop(struct damage *dm, const struct af_buf *f, size_t step, bool isolate)
{
	uint8_t *copy = af_xmalloc(f->len + 1);
	bool ok = true;
	for (size_t i = 0; ok && i < f->len * 4; i += step) {
		size_t at = i / 4, k = i % 4;
		size_t len = k == 0 ? at : f->len;
		uint8_t x = k == 0 ? 0 : xors[k - 1];
		if (!isolate) {
			one_damage(dm, f, copy, len, at, x);
			continue;
		}
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			one_damage(dm, f, copy, len, at, x);
			_exit(0);
		}
		int status = 0;
		waitpid(pid, &status, 0);
		if (!WIFEXITED(status)) {
			printf("    crash (signal %d) reading the input %s at offset %zu%s\n",
			       WIFSIGNALED(status) ? WTERMSIG(status) : 0, x ? "with this byte xored" : "cut",
			       at, x == 0xff ? " (xor 0xff)" : x == 1 ? " (xor 0x01)" : x == 0x80 ? " (xor 0x80)" : "");
			ok = false;
		}
	}
	free(copy);
	return ok;
}

/* Under the sanitizers about every 4th of the plain sweep's damages, an odd
 * step so that cuts and all three flips still occur; the fuzz targets go
 * deeper under sanitizers. */
static size_t sanitized_step(size_t step)
{
	return under_sanitizers() ? step * 4 + 1 : step;
}

/* Cut at every `step`-th offset and flip bytes there (three ways). The
 * reading runs in a child process so that a crash fails this test with the
 * input that caused it instead of killing the test runner. */
static void damage_all(struct damage *dm, const struct af_buf *f, size_t step)
{
	step = sanitized_step(step);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		damage_loop(dm, f, step, false);
		_exit(dm->bad ? 2 : 0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	if (WIFEXITED(status)) {
		dm->bad += WEXITSTATUS(status) != 0;
		dm->cut_errors = dm->cut_warned = 1;   /* counted in the child */
		return;
	}
	OK(!"reading damaged inputs crashed");
	struct damage again = { 0 };
	damage_loop(&again, f, step, true);
}

void test_art_stream_damage_every_variant(void)
{
	static const char *const variants[] = {
		"legacy1 --clock thread-cpu", "legacy2 --clock wall", "legacy3",
		"stream6", "stream6 --clock wall", "stream2017", "stream2017 --clock wall",
		"stream2023", "stream2023 --clock thread-cpu",
		"v2a", "v2a --unit us --clock wall", "v2a --streaming --no-summary",
		"v2b", "v2b --streaming --clock wall",
	};
	for (size_t v = 0; v < sizeof variants / sizeof *variants; v++) {
		struct af_buf f;
		if (!writer(&f, variants[v]))
			return;
		struct damage dm = { 0 };
		damage_all(&dm, &f, 2);
		INT_EQ(dm.bad, 0);
		if (dm.bad)
			printf("    variant '%s'\n", variants[v]);
		af_buf_release(&f);
	}
}

void test_art_stream_damage_ffx(void)
{
	struct af_buf f;
	if (!read_file(&f, "tests/data/art/ffx-art-streaming.trace")) {
		OK(!"tests/data/art/ffx-art-streaming.trace readable");
		return;
	}
	struct damage dm = { 0 };
	damage_all(&dm, &f, 13331);
	INT_EQ(dm.bad, 0);
	/* inputs that once crashed (found by an earlier, denser sweep) */
	static const struct { size_t at; uint8_t x; } seen[] = { { 376403, 0xff } };
	for (size_t i = 0; i < sizeof seen / sizeof *seen; i++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			uint8_t *copy = af_xmalloc(f.len);
			struct damage one = { 0 };
			one_damage(&one, &f, copy, f.len, seen[i].at, seen[i].x);
			_exit(one.bad ? 2 : 0);
		}
		int status = 0;
		waitpid(pid, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			printf("    ffx-art-streaming.trace with byte %zu xored with 0x%02x: %s %d\n", seen[i].at, seen[i].x,
			       WIFSIGNALED(status) ? "crash, signal" : "bad error, status",
			       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		OK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	af_buf_release(&f);
}

void test_art_stream_cut_mid_record_keeps_records(void)
{
	struct af_buf f;
	if (!writer(&f, "stream2017"))
		return;
	/* cuts inside records and items: read with a warning, never refused */
	size_t warned = 0;
	for (size_t cut = 100; cut < 300 && cut < f.len; cut++) {
		struct read_result res;
		run_bytes(&res, (const uint8_t *)f.data, cut, AF_CLOCK_DEFAULT);
		OK(res.rc == 0 || strstr(res.error, "nothing to draw"));
		if (res.rc == 0 && find_warning(&res.p, "the file ends inside an item at offset")) {
			warned++;
			OK(res.folded && res.folded[0]);
		}
		done(&res);
	}
	OK(warned > 50);
	af_buf_release(&f);
}

/* ---- byte-built streams ---- */

static void put(struct af_buf *b, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		af_buf_putc(b, (char)(i < 8 ? v >> (8 * i) & 0xff : 0));
}

static void stream_header(struct af_buf *b, unsigned version, unsigned record_size)
{
	af_buf_init(b);
	af_buf_add(b, "SLOW", 4);
	put(b, version, 2);
	put(b, 32, 2);
	put(b, 0, 8);
	put(b, record_size, 2);
	put(b, 0, 14);
}

static void op_method(struct af_buf *b, const char *line)
{
	put(b, 0, 2);
	put(b, 1, 1);
	put(b, strlen(line), 2);
	af_buf_puts(b, line);
}

static void op_thread(struct af_buf *b, unsigned id, const char *name)
{
	put(b, 0, 2);
	put(b, 2, 1);
	put(b, id, 2);
	put(b, strlen(name), 2);
	af_buf_puts(b, name);
}

static void record(struct af_buf *b, unsigned tid, uint32_t word, uint32_t cpu, uint32_t wall)
{
	put(b, tid, 2);
	put(b, word, 4);
	put(b, cpu, 4);
	put(b, wall, 4);
}

static void op_summary(struct af_buf *b, const char *text)
{
	put(b, 0, 2);
	put(b, 3, 1);
	put(b, strlen(text), 4);
	af_buf_puts(b, text);
}

void test_art_stream_names_and_summary(void)
{
	/* op-2 name (at the first event) wins over the summary's (truncated,
	 * at stop); a thread named only in the summary still gets its name */
	struct af_buf b;
	stream_header(&b, 0xf3, 14);
	op_method(&b, "0\tcom.a.B\trun\t()V\tB.java\n");
	op_thread(&b, 7, "ReferenceQueueDaemon");
	record(&b, 7, 0, 0, 0);
	record(&b, 7, 1, 5, 10);
	record(&b, 9, 0, 0, 3);
	record(&b, 9, 1, 1, 4);
	op_summary(&b, "*version\n3\nclock=dual\nvm=art\npid=7\n*threads\n7\tReferenceQueueD\n9\tonly-in-summary\n*methods\n*end\n");
	struct read_result res;
	run_bytes(&res, (const uint8_t *)b.data, b.len, AF_CLOCK_DEFAULT);
	INT_EQ(res.rc, 0);
	STR_EQ(res.folded, "ReferenceQueueDaemon (7);com.a.B.run 10\nonly-in-summary (9);com.a.B.run 1\n");
	OK(find_warning(&res.p, "unknown thread ids") == NULL);
	STR_EQ(af_profile_get_info(&res.p, "era"), "ART 2017\xe2\x80\x93" "2022 streaming (summary lists threads)");
	done(&res);
	/* bytes after the summary: found by the walk, the rest ignored */
	af_buf_add(&b, "junk", 4);
	run_bytes(&res, (const uint8_t *)b.data, b.len, AF_CLOCK_CPU);
	INT_EQ(res.rc, 0);
	STR_EQ(res.folded, "ReferenceQueueDaemon (7);com.a.B.run 5\nonly-in-summary (9);com.a.B.run 1\n");
	OK(find_warning(&res.p, "4 bytes after the summary item") != NULL);
	done(&res);
	af_buf_release(&b);
}

void test_art_stream_errors(void)
{
	struct af_buf b;
	stream_header(&b, 0xf3, 14);
	op_method(&b, "0\tcom.a.B\trun\t()V\tB.java\n");
	put(&b, 0, 2);
	put(&b, 9, 1);   /* no such escape op */
	put(&b, 0, 8);
	struct read_result res;
	run_bytes(&res, (const uint8_t *)b.data, b.len, AF_CLOCK_DEFAULT);
	INT_EQ(res.rc, -1);
	STR_EQ(res.error, "t.trace: offset 0x40: unknown item: escape op 9 (ops are 1, 2, 3; a corrupt stream, or records that are not 14 bytes)");
	done(&res);
	af_buf_release(&b);
	stream_header(&b, 0xf3, 14);
	op_method(&b, "zz\n");
	run_bytes(&res, (const uint8_t *)b.data, b.len, AF_CLOCK_DEFAULT);
	STR_EQ(res.error, "t.trace: offset 0x20: method item is not 'id<TAB>class<TAB>name<TAB>signature...': 'zz?'");
	done(&res);
	af_buf_release(&b);
	stream_header(&b, 0xf3, 3);
	run_bytes(&res, (const uint8_t *)b.data, b.len, AF_CLOCK_DEFAULT);
	STR_EQ(res.error, "t.trace: offset 0x10: record size 3 is too small for version 0xf3 (need at least 14)");
	done(&res);
	af_buf_release(&b);
}

static void expect_detect(const void *data, size_t len, const char *want)
{
	struct read_result res;
	run_bytes(&res, data, len, AF_CLOCK_DEFAULT);
	INT_EQ(res.rc, -1);
	STR_EQ(res.error, want);
	done(&res);
}

void test_art_detect_foreign_and_unsupported(void)
{
	/* Perfetto: TracePacket fields (0x0A, varint length, bytes) */
	const uint8_t perfetto[] = { 0x0a, 0x03, 0x08, 0x96, 0x01, 0x0a, 0x02, 0x10, 0x01 };
	expect_detect(perfetto, sizeof perfetto,
		      "t.trace: no slices to draw: 0 events but no slices (no atrace B|pid|name marks in ftrace print events, no track-event slices); try --cpu-samples");
	expect_detect("SIMPLEPERF\x00\x01", 12,
		      "t.trace: nothing to draw: the file has no samples");
	uint8_t h[32] = { 'S', 'L', 'O', 'W', 0xf6, 0 };
	expect_detect(h, sizeof h, "t.trace: offset 0x4: ART long-running-methods trace (version 0xf6, low-overhead tracing, 2025+): not a Debug.startMethodTracing trace and not supported (Perfetto reads it)");
	h[4] = 0xf1;
	expect_detect(h, sizeof h, "t.trace: offset 0x4: streaming version 0xf1 (1-byte thread ids) was never written by ART and is not supported");
	h[4] = 3;
	expect_detect(h, sizeof h, "t.trace: offset 0x0: a bare data section (version 3) without its '*version' text part: join it with its .header/.sec text first");
	/* Android 16 TraceProfiler::Dump: an entry block first, no header */
	const uint8_t dump[] = { 2, 0x10, 0x27, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0x04, 0x08 };
	expect_detect(dump, sizeof dump, "t.trace: this looks like an ART low-overhead method trace (Android 16 TraceProfiler dump, no header), which aflame-render does not read (Perfetto does)");
	expect_detect("SLOW\xf3", 5, "t.trace: offset 0x4: truncated header (5 bytes, need 32)");
}

void test_art_v2_units_and_exits(void)
{
	struct af_buf f;
	if (!writer(&f, "v2a --unit us"))
		return;
	struct read_result res;
	run_bytes(&res, (const uint8_t *)f.data, f.len, AF_CLOCK_DEFAULT);
	INT_EQ(res.rc, 0);
	const char *unit = af_profile_get_info(&res.p, "time unit");
	OK(unit && strncmp(unit, "\xc2\xb5s", 3) == 0);
	done(&res);
	af_buf_release(&f);
	/* V2b: exits carry no method; dual-clock files are read on wall only */
	if (!writer(&f, "v2b"))
		return;
	run_bytes(&res, (const uint8_t *)f.data, f.len, AF_CLOCK_CPU);
	INT_EQ(res.rc, -1);
	STR_EQ(res.error, "t.trace: thread-cpu times of this V2 revision (TSC header) are not documented: only the wall clock is read");
	done(&res);
	af_buf_release(&f);
}
