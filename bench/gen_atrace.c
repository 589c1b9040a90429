/* gen_atrace.c: an atrace capture (ftrace text with Trace.beginSection /
 * endSection marks), deterministic from a seed.
 *
 *   gen_atrace LINES SEED > out.txt
 *
 * A TGID-column header as atrace writes it, then B/E marks nested on a few
 * threads of two processes, interleaved with sched_switch lines. */
#include "gen.h"

#include <string.h>

enum { THREADS = 8, MAX_DEPTH = 12 };

static const char *const slices[] = {
	"Choreographer#doFrame", "traversal", "measure", "layout", "draw", "Record View#draw()",
	"RV OnBindView", "RV CreateView", "inflate", "Lock contention on a monitor lock",
	"binder transaction", "activityStart", "bindApplication", "DrawFrame", "syncFrameState",
	"dequeueBuffer", "queueBuffer", "eglSwapBuffersWithDamageKHR", "flush commands", "GC",
};

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: gen_atrace LINES SEED\n");
		return 2;
	}
	unsigned long lines = parse_arg(argv[1], "line count");
	rng_state = parse_arg(argv[2], "seed");
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
	unsigned depth[THREADS] = { 0 };
	unsigned long long us = 100000000ULL;   /* 100 s of uptime, in µs */
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
		int begin = depth[t] == 0 || (depth[t] < MAX_DEPTH && below(100) < 52);
		if (begin) {
			printf("%16s-%-5u (%5u) [%03u] ...1 %s: tracing_mark_write: B|%u|%s\n",
			       comm[t], tid, pid, t, when, pid, slices[(depth[t] * 5 + below(4) + t) % 20]);
			depth[t]++;
		} else {
			printf("%16s-%-5u (%5u) [%03u] ...1 %s: tracing_mark_write: E|%u\n",
			       comm[t], tid, pid, t, when, pid);
			depth[t]--;
		}
	}
	return fflush(stdout) != 0;
}
