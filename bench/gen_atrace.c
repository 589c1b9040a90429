/* gen_atrace.c: an atrace capture (ftrace text with Trace.beginSection /
 * endSection marks), deterministic from a seed.
 *
 *   gen_atrace LINES SEED > out.txt
 *
 * A TGID-column header as atrace writes it, then B/E marks nested on a few
 * threads of two processes, interleaved with sched_switch lines. Each thread
 * walks a fixed program of sections (gen.h), so stacks repeat as in real
 * captures. */
#include "gen.h"

#include <string.h>

enum { THREADS = 8, MAX_DEPTH = 24, SECTIONS = 240, SPAN = 30, NAMES = 20 };

int main(int argc, char **argv)
{
	unsigned long lines = count_and_seed(argc, argv, "gen_atrace LINES SEED", "line count");
	struct program prog;
	program_make(&prog, SECTIONS, SPAN);
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
	struct open_section stack[THREADS][MAX_DEPTH + 1];
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
		unsigned m = program_step(&prog, stack[t], &depth[t], MAX_DEPTH, t * 25);
		if (m == SECTION_CLOSE) {
			printf("%16s-%-5u (%5u) [%03u] ...1 %s: tracing_mark_write: E|%u\n",
			       comm[t], tid, pid, t, when, pid);
			continue;
		}
		section_name(m, NAMES, name, sizeof name);
		printf("%16s-%-5u (%5u) [%03u] ...1 %s: tracing_mark_write: B|%u|%s\n",
		       comm[t], tid, pid, t, when, pid, name);
	}
	return fflush(stdout) != 0;
}
