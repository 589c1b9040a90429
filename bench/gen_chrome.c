/* gen_chrome.c: a Chrome trace-event JSON file or a V8 .cpuprofile,
 * deterministic from a seed, for the JSON readers' bench rows.
 *
 *   gen_chrome trace EVENTS SEED > out.json
 *   gen_chrome cpuprofile SAMPLES SEED > out.cpuprofile
 *
 * trace: {"traceEvents":[...]} as Chrome writes it: metadata first, then
 * complete events (ph X, with args, written when they end, so callees come
 * before their callers) on four threads of a renderer, B/E pairs on four
 * threads of a Flutter-like process, and a few counters, instants and
 * async b/e. Each thread walks a fixed program of sections (gen.h), so
 * stacks repeat as in real captures.
 *
 * cpuprofile: V8's {"nodes":[...],"startTime","endTime","samples",
 * "timeDeltas"}: a call tree of JavaScript functions with URLs and line
 * numbers, sampled as a thread walks the program. */
#include "gen.h"

#include <string.h>

enum { THREADS = 8, MAX_DEPTH = 24, SECTIONS = 240, SPAN = 30, NAMES = 27 };

static const char *const cats[] = { "toplevel", "blink", "v8", "cc", "disabled-by-default-devtools.timeline", "ipc" };

struct xopen { unsigned section; unsigned long long ts; };

static void metadata(void)
{
	printf("{\"traceEvents\":[\n");
	printf("{\"pid\":4100,\"tid\":0,\"ts\":0,\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"process_name\",\"args\":{\"name\":\"Renderer\"}},\n");
	printf("{\"pid\":5200,\"tid\":0,\"ts\":0,\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"process_name\",\"args\":{\"name\":\"io.flutter.example\"}},\n");
	static const char *const tn[THREADS] = { "CrRendererMain", "Compositor", "ThreadPoolForegroundWorker",
		"Chrome_ChildIOThread", "1.ui", "1.raster", "1.io", "1.platform" };
	for (unsigned t = 0; t < THREADS; t++)
		printf("{\"pid\":%u,\"tid\":%u,\"ts\":0,\"ph\":\"M\",\"cat\":\"__metadata\",\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}},\n",
		       t < 4 ? 4100 : 5200, 4100 + t * 13, tn[t]);
}

static void trace(unsigned long events)
{
	struct program prog;
	program_make(&prog, SECTIONS, SPAN);
	metadata();
	struct open_section stack[THREADS][MAX_DEPTH + 1];
	struct xopen xs[THREADS][MAX_DEPTH + 1];
	unsigned depth[THREADS] = { 0 };
	unsigned long long us = 3000000000ULL;
	char name[64];
	for (unsigned long n = 0; n < events; n++) {
		unsigned t = below(THREADS);
		unsigned tid = 4100 + t * 13, pid = t < 4 ? 4100 : 5200;
		us += 1 + below(30);
		unsigned r = below(100);
		if (r < 3) {
			printf("{\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"ph\":\"C\",\"cat\":\"v8\",\"name\":\"V8.Heap\",\"args\":{\"used\":%u}},\n",
			       pid, tid, us, 1000000 + below(1000000));
			continue;
		}
		if (r < 5) {
			printf("{\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"ph\":\"%s\",\"cat\":\"loading\",\"name\":\"ResourceLoad\",\"id\":\"0x%x\",\"args\":{}},\n",
			       pid, tid, us, r == 3 ? "b" : "e", below(8));
			continue;
		}
		unsigned m = program_step(&prog, stack[t], &depth[t], MAX_DEPTH, t * 25);
		if (m != SECTION_CLOSE) {
			xs[t][depth[t] - 1] = (struct xopen){ m, us };
			if (t >= 4) {
				section_name(m, NAMES, name, sizeof name);
				printf("{\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"ph\":\"B\",\"cat\":\"%s\",\"name\":\"%s\",\"args\":{}},\n",
				       pid, tid, us, cats[m % 6], name);
			}
			continue;
		}
		struct xopen *x = &xs[t][depth[t]];
		section_name(x->section, NAMES, name, sizeof name);
		if (t >= 4)
			printf("{\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"ph\":\"E\",\"cat\":\"%s\",\"name\":\"%s\",\"args\":{}},\n",
			       pid, tid, us, cats[x->section % 6], name);
		else
			printf("{\"args\":{\"src_file\":\"../../third_party/blink/renderer/core/frame/local_frame_%u.cc\",\"src_func\":\"%s\"},"
			       "\"cat\":\"%s\",\"dur\":%llu,\"name\":\"%s\",\"ph\":\"X\",\"pid\":%u,\"tdur\":%llu,\"tid\":%u,\"ts\":%llu,\"tts\":%llu},\n",
			       x->section % 40, name, cats[x->section % 6], us - x->ts, name, pid, (us - x->ts) * 3 / 4, tid, x->ts, x->ts / 3);
	}
	printf("{\"pid\":4100,\"tid\":4100,\"ts\":%llu,\"ph\":\"I\",\"cat\":\"devtools.timeline\",\"name\":\"TracingEnd\",\"s\":\"g\",\"args\":{}}\n],\n"
	       "\"displayTimeUnit\":\"ms\",\"metadata\":{\"product-version\":\"Chrome/120.0.6099.0\"}}\n", us);
}

/* One node a section reached by a path: the tree V8 builds. */
struct node { unsigned id, parent, section, nchildren, cap; unsigned *children; };

static void cpuprofile(unsigned long samples)
{
	struct program prog;
	program_make(&prog, SECTIONS, SPAN);
	size_t cap = 1 << 16, n = 2;
	struct node *nodes = gen_calloc(cap, sizeof *nodes);
	nodes[1] = (struct node){ .id = 1, .section = ~0u };   /* (root) */
	unsigned *sample = gen_calloc(samples, sizeof *sample);
	struct open_section stack[MAX_DEPTH + 1];
	unsigned path[MAX_DEPTH + 2] = { 1 }, depth = 0;
	for (unsigned long s = 0; s < samples; s++) {
		for (unsigned k = below(6); k-- > 0;) {
			unsigned m = program_step(&prog, stack, &depth, MAX_DEPTH, below(4) * 25);
			if (m == SECTION_CLOSE)
				continue;
			unsigned parent = path[depth - 1], found = 0;
			for (unsigned c = 0; c < nodes[parent].nchildren && !found; c++)
				if (nodes[nodes[parent].children[c]].section == m)
					found = nodes[parent].children[c];
			if (!found) {
				if (n == cap) {
					nodes = realloc(nodes, (cap *= 2) * sizeof *nodes);
					if (!nodes)
						exit(1);
				}
				found = (unsigned)n;
				nodes[n++] = (struct node){ .id = found, .parent = parent, .section = m };
				struct node *p = &nodes[parent];
				if (p->nchildren == p->cap) {
					p->children = realloc(p->children, (p->cap = p->cap * 2 + 4) * sizeof *p->children);
					if (!p->children)
						exit(1);
				}
				p->children[p->nchildren++] = found;
			}
			path[depth] = found;
		}
		sample[s] = depth ? path[depth] : 1;
	}
	printf("{\"nodes\":[");
	char cls[64], meth[64];
	for (size_t i = 1; i < n; i++) {
		struct node *nd = &nodes[i];
		if (nd->section == ~0u)
			printf("{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"scriptId\":\"0\",\"url\":\"\",\"lineNumber\":-1,\"columnNumber\":-1},\"hitCount\":0");
		else {
			method_name(nd->section, cls, sizeof cls, meth, sizeof meth);
			printf(",\n{\"id\":%u,\"callFrame\":{\"functionName\":\"%s\",\"scriptId\":\"%u\",\"url\":\"https://example.com/static/js/%s.js\","
			       "\"lineNumber\":%u,\"columnNumber\":%u},\"hitCount\":%u",
			       nd->id, meth, 10 + nd->section % 50, cls, nd->section * 7 % 900, nd->section * 13 % 80, below(5));
		}
		if (nd->nchildren) {
			printf(",\"children\":[");
			for (unsigned c = 0; c < nd->nchildren; c++)
				printf("%s%u", c ? "," : "", nd->children[c]);
			printf("]");
		}
		printf("}");
	}
	unsigned long long start = 84220000000ULL, t = start;
	printf("],\n\"startTime\":%llu,\"samples\":[", start);
	for (unsigned long s = 0; s < samples; s++)
		printf("%s%u", s ? "," : "", sample[s]);
	printf("],\n\"timeDeltas\":[");
	for (unsigned long s = 0; s < samples; s++) {
		unsigned d = 100 + below(1200);
		t += d;
		printf("%s%u", s ? "," : "", d);
	}
	printf("],\"endTime\":%llu}\n", t);
}

int main(int argc, char **argv)
{
	if (argc != 4 || (strcmp(argv[1], "trace") && strcmp(argv[1], "cpuprofile"))) {
		fprintf(stderr, "usage: gen_chrome trace|cpuprofile COUNT SEED\n");
		return 2;
	}
	unsigned long count = parse_arg(argv[2], "count");
	rng_state = parse_arg(argv[3], "seed");
	static char buf[1 << 20];
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	if (argv[1][0] == 't')
		trace(count);
	else
		cpuprofile(count);
	return fflush(stdout) != 0;
}
