/* test_read_atrace.c: the atrace front end on captures written here: the
 * line grammar's variants (atrace-format.md §3.3), the slice rules of
 * docs/semantics.md, async slices, and the containers with their limits. */
#include "harness.h"
#include "read/atrace.h"
#include "read/inflate.h"
#include "core/buf.h"
#include "support.h"

#include <stdlib.h>
#include <zlib.h>

static void run(struct read_result *res, const char *data, size_t len, bool async)
{
	struct af_read_opts o = { .async = async };
	read_input(res, data, len, "t.txt", af_reader_atrace.read, &o);
}

static void done(struct read_result *res)
{
	read_result_release(res);
}

static uint64_t warned(const struct af_profile *p, const char *prefix)
{
	const struct af_warning *w = find_warning(p, prefix);
	return w ? w->count : 0;
}

static bool parses(const char *line, struct af_ftrace_event *e)
{
	return atrace_parse_line(line, strlen(line), e);
}

static bool task_is(const struct af_ftrace_event *e, const char *s)
{
	return e->task_len == strlen(s) && memcmp(e->task, s, e->task_len) == 0;
}

/* af_scan_digits reads fewer than 8 digits 8 bytes at a time: the same
 * answers as a digit at a time, for random runs of digits, bytes around
 * '0'..'9' and any byte (past 0xf9 too), at every length. */
static bool digits_slowly(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p, *q = s, *stop = end - s > 19 ? s + 19 : end;
	uint64_t x = 0;
	for (; q < stop && af_scan_is_digit(*q); q++)
		x = x * 10 + (uint64_t)(*q - '0');
	*p = q;
	*v = x;
	return q > s && (q == end || !af_scan_is_digit(*q));
}

void test_atrace_digits_fast(void)
{
	char buf[24];
	uint64_t r = 0x9e3779b97f4a7c15ull;
	unsigned bad = 0;
	for (unsigned it = 0; it < 400000; it++) {
		size_t len = it % 24;
		for (size_t i = 0; i < len; i++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			unsigned k = (unsigned)(r >> 59);
			buf[i] = (char)(k < 22 ? '0' + k % 10 : k < 27 ? 0x3a + (r >> 40) % 6 : (r >> 32) & 0xff);
		}
		const char *p1 = buf, *p2 = buf;
		uint64_t v1 = 7, v2 = 7;
		bool a = digits_slowly(&p1, buf + len, &v1), b = af_scan_digits(&p2, buf + len, &v2);
		bad += a != b || v1 != v2 || (a && p1 != p2);
	}
	INT_EQ(bad, 0);
	const char *p = "1234567|x";
	uint64_t v;
	OK(af_scan_digits(&p, p + 9, &v));
	INT_EQ(v, 1234567);
	OK(*p == '|');
}

void test_atrace_line_variants(void)
{
	struct af_ftrace_event e;
	OK(parses("  surfaceflinger-598   (  598) [004] .... 10852.771242: tracing_mark_write: B|598|x", &e));
	OK(task_is(&e, "surfaceflinger"));
	INT_EQ(e.tid, 598);
	INT_EQ(e.tgid, 598);
	INT_EQ(e.cpu, 4);
	INT_EQ(e.ts, 10852771242ULL);
	OK(e.payload_len == 7 && memcmp(e.payload, "B|598|x", 7) == 0);
	/* (-----), a task with -digits, 5 flags */
	OK(parses("Thread-565-20059 (-----) [001] d..3. 1.5: sched_waking: comm=a pid=2", &e));
	OK(task_is(&e, "Thread-565"));
	INT_EQ(e.tid, 20059);
	INT_EQ(e.tgid, -1);
	INT_EQ(e.ts, 1500000);
	/* no TGID column, task with spaces and ':' */
	OK(parses(" Binder:640_4 x-2066  [002] d..2  7.000001: 0: E", &e));
	OK(task_is(&e, "Binder:640_4 x"));
	INT_EQ(e.tgid, -1);
	OK(e.event_len == 1 && e.event[0] == '0');
	/* no flags (pre-3.2), no space between flags and timestamp */
	OK(parses("<idle>-0 [000]  0.002188: sched_switch: a", &e));
	INT_EQ(e.ts, 2188);
	OK(parses("<...>-3 ( 3) [000] ....316.196720: tracing_mark_write: E", &e));
	INT_EQ(e.ts, 316196720);
	OK(parses("<...>-3 ( 3) [000] d...316.196740: tracing_mark_write: E", &e));
	INT_EQ(e.ts, 316196740);
	/* nanosecond timestamps are cut to µs */
	OK(parses("a-1 [000] .... 2.123456789: print: x", &e));
	INT_EQ(e.ts, 2123456);
	/* garbage */
	OK(!parses("some = 000, other = 0x4", &e));
	OK(!parses("a-1 [000] .... 2.5 tracing_mark_write: x", &e));
	OK(!parses("a-x [000] .... 2.5: tracing_mark_write: x", &e));
	OK(!parses("", &e));
}

#define HDR "# tracer: nop\n"
#define L(task, tid, cpu, ts, payload) task "-" #tid " (" #tid ") [00" #cpu "] ...1 " ts ": tracing_mark_write: " payload "\n"

void test_atrace_slice_rules(void)
{
	const char *t = HDR
		L("app", 10, 0, "1.000000", "E")                 /* empty stack: ignored */
		L("app", 10, 0, "1.000010", "B|10|outer")
		L("app", 10, 0, "1.000020", "B|10|inner")
		L("app", 10, 0, "1.000050", "E|10|other")        /* named, not the top: pops inner */
		L("app", 10, 0, "1.000060", "B|10|open")         /* open at the end */
		L("app", 10, 0, "1.000100", "C|10|counter|3")    /* the thread's last event */
		L("<idle>", 0, 1, "1.000000", "B|0|irq")
		L("<idle>", 0, 2, "1.000005", "B|0|irq")
		L("<idle>", 0, 1, "1.000007", "E|0")
		L("<idle>", 0, 2, "1.000009", "E|0");
	struct read_result r;
	run(&r, t, strlen(t), false);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded,
	       "app (10);app (10);outer 20\n"
	       "app (10);app (10);outer;inner 30\n"
	       "app (10);app (10);outer;open 40\n"
	       "swapper (0);swapper/1 (0);irq 7\n"
	       "swapper (0);swapper/2 (0);irq 4\n");
	INT_EQ(warned(&r.p, "slice ends (E) with no open slice"), 1);
	INT_EQ(warned(&r.p, "named slice ends"), 1);
	INT_EQ(warned(&r.p, "slices still open at the end"), 2);   /* outer, open */
	INT_EQ(r.p.nprocesses, 2);
	INT_EQ(r.p.nthreads, 3);
	INT_EQ(r.p.threads[0].pid, 10);
	INT_EQ(r.p.threads[0].process_node, r.p.processes[0].node);
	STR_EQ(af_profile_get_info(&r.p, "slices"), "5 B, 4 E");
	done(&r);
}

void test_atrace_names_and_pids(void)
{
	/* <...> named by sched_switch; no tgid: the B's pid is the process */
	const char *t = HDR
		"<...>-21 (-----) [000] ...1 1.0: tracing_mark_write: B|20|work|args|cat\n"
		"<...>-21 (-----) [000] ...1 1.5: tracing_mark_write: E|20|work|x|y\n"
		"main-20 [000] d..2 2.0: sched_switch: prev_comm=my main prev_pid=20 prev_prio=1 prev_state=S ==> next_comm=bg work next_pid=21 next_prio=1\n";
	struct read_result r;
	run(&r, t, strlen(t), false);
	STR_EQ(r.folded, "my main (20);bg work (21);work|args|cat 500000\n");
	INT_EQ(warned(&r.p, "named slice ends"), 0);
	done(&r);
}

void test_atrace_async(void)
{
	const char *t = HDR
		L("a", 10, 0, "1.000000", "S|10|load|1")
		L("a", 10, 0, "1.000001", "S|10|load|1")        /* repeated: first kept */
		L("b", 11, 1, "1.000010", "F|10|load|1")        /* ends on another thread */
		L("a", 10, 0, "1.000020", "G|10|net|get|5")
		L("a", 10, 0, "1.000050", "H|10|net|5")
		L("a", 10, 0, "1.000060", "F|10|nothing|2")     /* no S */
		L("a", 10, 0, "1.000070", "S|10|never|3")       /* no F */
		L("a", 10, 0, "1.000080", "B|10|slice")
		L("a", 10, 0, "1.000090", "E");
	struct read_result r;
	run(&r, t, strlen(t), true);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "a (10);load 10\na (10);net;get 30\n");
	INT_EQ(warned(&r.p, "async begins repeating"), 1);
	INT_EQ(warned(&r.p, "async ends (F/H) with no matching begin"), 1);
	INT_EQ(warned(&r.p, "async slices never ended"), 1);
	done(&r);
	run(&r, t, strlen(t), false);
	STR_EQ(r.folded, "a (10);a (10);slice 10\n");
	done(&r);
}

void test_atrace_refusals(void)
{
	struct read_result r;
	const char *sched = HDR "a-1 [000] .... 1.0: sched_wakeup: comm=b pid=2 prio=1 target_cpu=000\n";
	run(&r, sched, strlen(sched), false);
	INT_EQ(r.rc, -1);
	OK(strstr(r.error, "no slices to draw: 1 ftrace events") != NULL);
	done(&r);
	const char *json = "{\"traceEvents\": [{\"ph\": \"X\"}]}";
	run(&r, json, strlen(json), false);
	STR_EQ(r.error, "t.txt: JSON trace without \"systemTraceEvents\": a Chrome JSON trace has no ftrace text to read (-f chrome reads its events)");
	done(&r);
	const char *html = "<!DOCTYPE html><html><body>hello</body></html>";
	run(&r, html, strlen(html), false);
	OK(strstr(r.error, "HTML file without systrace data") != NULL);
	done(&r);
}

void test_atrace_containers(void)
{
	const char *want = "x (5);x (5);s 2\n";
	struct read_result r;
	/* JSON string with escapes */
	const char *json = "{\"systemTraceEvents\": \"# tracer: nop\\nx-5 [000] .... 1.000001: tracing_mark_write: B|5|s\\n"
			   "x-5 [000] .... 1.000003: tracing_mark_write: E\\n\"}";
	run(&r, json, strlen(json), false);
	STR_EQ(r.folded, want);
	done(&r);
	/* 2012 systrace JS string, and its body alone */
	const char *js = "<!DOCTYPE html>\n<script>if(linuxPerfData){}</script>\n<script>\n  var linuxPerfData = \"\\\n"
			 "# tracer: nop\\n\\\nx-5 [000] 1.000001: 0: B|5|s\\n\\\nx-5 [000] 1.000003: 0: E\\n\";\n</script>\n";
	run(&r, js, strlen(js), false);
	STR_EQ(r.folded, want);
	done(&r);
	const char *body = strstr(js, "# tracer");
	run(&r, body, strlen(body), false);
	STR_EQ(r.folded, want);
	done(&r);
	/* adb CRLF damage in plain text, trace-cmd's cpus= line */
	const char *crlf = "\r\nx-5 [000] .... 1.000001: tracing_mark_write: B|5|s\r\nx-5 [000] .... 1.000003: tracing_mark_write: E\r\n";
	run(&r, crlf, strlen(crlf), false);
	STR_EQ(r.folded, want);
	done(&r);
	const char *cmd = "cpus=4\nx-5 [000] .... 1.000001: tracing_mark_write: B|5|s\nx-5 [000] .... 1.000003: tracing_mark_write: E\n";
	run(&r, cmd, strlen(cmd), false);
	STR_EQ(r.folded, want);
	done(&r);
}

static size_t deflate_into(uint8_t *out, size_t cap, const char *s)
{
	uLongf n = (uLongf)cap;
	OK(compress2(out, &n, (const Bytef *)s, strlen(s), 6) == Z_OK);
	return n;
}

void test_inflate_streams_and_limit(void)
{
	uint8_t z[512];
	size_t a = deflate_into(z, sizeof z, "hello ");
	size_t b = deflate_into(z + a, sizeof z - a, "world");
	struct af_buf out;
	af_buf_init(&out);
	struct af_diag d;
	af_diag_init(&d, "z");
	size_t used;
	INT_EQ(af_inflate(z, a + b, 1000, &out, &used, &d), 0);
	STR_EQ(out.data, "hello world");
	INT_EQ(used, a + b);
	out.len = 0;
	INT_EQ(af_inflate(z, a + b, 8, &out, &used, &d), -1);
	STR_EQ(d.msg, "decompressed data exceeds 8 bytes (zlib bomb?)");
	af_diag_init(&d, "z");
	out.len = 0;
	INT_EQ(af_inflate(z, a - 3, 1000, &out, &used, &d), -1);
	OK(strstr(d.msg, "truncated") != NULL);
	af_buf_release(&out);
	OK(af_inflate_limit(1000, 0) == (64u << 20) + 64000);
	OK(af_inflate_limit(SIZE_MAX / 2, 0) == AF_INFLATE_MAX);
	OK(af_inflate_limit(1000, 1 << 20) == 1 << 20);
	OK(af_inflate_limit(SIZE_MAX / 2, (uint64_t)16 << 30) == AF_INFLATE_MAX);
}
