/* gen_atrace.c: an atrace capture (ftrace text with Trace.beginSection /
 * endSection marks), deterministic from a seed.
 *
 *   gen_atrace LINES SEED > out.txt
 *
 * A TGID-column header as atrace writes it, then B/E marks nested on a few
 * threads of two processes, interleaved with sched_switch lines. Each thread
 * runs a fixed program of sections, so stacks repeat as in real captures. */
#include "gen.h"

#include <string.h>

enum { THREADS = 8, MAX_DEPTH = 24 };

static const char *const slices[] = {
	"Choreographer#doFrame", "traversal", "measure", "layout", "draw", "Record View#draw()",
	"RV OnBindView", "RV CreateView", "inflate", "Lock contention on a monitor lock",
	"binder transaction", "activityStart", "bindApplication", "DrawFrame", "syncFrameState",
	"dequeueBuffer", "queueBuffer", "eglSwapBuffersWithDamageKHR", "flush commands", "GC",
};

enum { SECTIONS = 240, CALLEES = 4 };

/* The program, as in gen_art.c: section m opens ncallees[m] fixed sections,
 * in order, a fixed number of times (a loop) unless a branch skips one.
 * Callees have higher numbers, so nesting is bounded. */
static unsigned ncallees[SECTIONS], callees[SECTIONS][CALLEES], loops[SECTIONS][CALLEES];

struct open { unsigned section, next, repeat; };

static void section_name(unsigned m, char *out, size_t n)
{
	if (m < 20)
		snprintf(out, n, "%s", slices[m]);
	else
		snprintf(out, n, "%s %u", slices[m % 20], m / 20);
}

static void make_program(void)
{
	for (unsigned m = 0; m < SECTIONS; m++) {
		ncallees[m] = m + 1 < SECTIONS && below(100) >= 35 ? 1 + below(CALLEES) : 0;
		for (unsigned k = 0; k < ncallees[m]; k++) {
			unsigned span = SECTIONS - m - 1 < 30 ? SECTIONS - m - 1 : 30;
			callees[m][k] = m + 1 + below(span);
			loops[m][k] = below(100) < 20 ? 2 + below(3) : 1;
		}
	}
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen_atrace LINES SEED\n");
		return 2;
	}
	unsigned long lines = parse_arg(argv[1], "line count");
	rng_state = parse_arg(argv[2], "seed");
	make_program();
	static char buf[1 << 20];
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	printf("# tracer: nop\n#\n# entries-in-buffer/entries-written: %lu/%lu   #P:8\n#\n"
	       "#                                      _-----=> irqs-off\n"
	       "#           TASK-PID    TGID   CPU#  ||||    TIMESTAMP  FUNCTION\n"
	       "#              | |        |      |   ||||       |         |\n", lines, lines);
	static const char *const comm[THREADS] = {
		"com.example.app", "RenderThread", "hwuiTask1", "DefaultDispatch",
		"surfaceflinger", "binder:612_2", "RenderEngine", "app",
	};
	struct open stack[THREADS][MAX_DEPTH + 1];
	unsigned depth[THREADS] = { 0 };
	unsigned long long us = 100000000ULL;   /* 100 s of uptime, in µs */
	char name[64];
	for (unsigned long n = 0; n < lines; n++) {
		unsigned t = below(THREADS);
		unsigned tid = 2000 + t * 7, pid = t < 4 ? 2000 : 612;
		us += 1 + below(40);
		char when[32];
		snprintf(when, sizeof when, "%llu.%06llu", us / 1000000, us % 1000000);
		if (below(10) == 0) {
			printf("%16s-%-5u (%5u) [%03u] d..3 %s: sched_switch: prev_comm=%s prev_pid=%u prev_prio=120 "
			       "prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120\n",
			       comm[t], tid, pid, t, when, comm[t], tid);
			continue;
		}
		unsigned m;
		if (depth[t] == 0) {   /* the thread's loop: its next frame or task */
			m = t * 25 + below(5);
		} else {
			struct open *o = &stack[t][depth[t] - 1];
			while (o->next < ncallees[o->section] && o->repeat == 0) {
				o->repeat = below(100) < 25 ? 0 : loops[o->section][o->next];
				if (o->repeat == 0)
					o->next++;
			}
			if (o->next >= ncallees[o->section] || depth[t] >= MAX_DEPTH) {
				printf("%16s-%-5u (%5u) [%03u] ...1 %s: tracing_mark_write: E|%u\n",
				       comm[t], tid, pid, t, when, pid);
				depth[t]--;
				continue;
			}
			m = callees[o->section][o->next];
			if (--o->repeat == 0)
				o->next++;
		}
		section_name(m, name, sizeof name);
		stack[t][depth[t]++] = (struct open){ m, 0, 0 };
		printf("%16s-%-5u (%5u) [%03u] ...1 %s: tracing_mark_write: B|%u|%s\n",
		       comm[t], tid, pid, t, when, pid, name);
	}
	return fflush(stdout) != 0;
}
