/* gen_perfetto.c: a Perfetto trace as Android's System Trace records one,
 * deterministic from a seed.
 *
 *   gen_perfetto EVENTS SEED > out.pftrace
 *
 * A process_tree packet, then ftrace bundles as traced_probes writes them:
 * every 4 ms of trace time one packet per CPU holding that CPU's atrace
 * marks (print events, "B|pid|name" / "E|pid") of those 4 ms, so events
 * reach the reader out of time order across bundles, plus the CPU's context
 * switches as compact_sched packed arrays (what Android 11+ records), which
 * the reader skips. Threads walk a fixed program of sections (gen.h, as
 * gen_atrace.c does), so stacks repeat as in real captures, and migrate
 * between CPUs. */
#include "gen.h"

#include <string.h>

enum { CPUS = 8, PROCESSES = 24, THREADS = 160, MAX_DEPTH = 24, SECTIONS = 600, SPAN = 40,
       EVENTS_PER_BUNDLE = 256 };
enum { NSLICES = sizeof slices / sizeof *slices };

static struct program prog;

struct thread {
	unsigned tid, pid, first;   /* first: the section its loop starts from */
	struct open_section stack[MAX_DEPTH + 1];
	unsigned depth;
};

static struct thread threads[THREADS];

static void make_program(void)
{
	program_make(&prog, SECTIONS, SPAN);
	for (unsigned t = 0; t < THREADS; t++) {
		unsigned p = t % PROCESSES;
		threads[t] = (struct thread){ .tid = 1000 + p * 100 + t / PROCESSES, .pid = 1000 + p * 100,
					      .first = below(SECTIONS / 2) };
	}
}

/* ---- protobuf bytes ---- */

struct bytes { uint8_t *p; size_t n, cap; };

static void put(struct bytes *b, const void *s, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			exit(1);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void varint(struct bytes *b, uint64_t v)
{
	uint8_t out[10];
	size_t n = 0;
	do {
		out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	put(b, out, n);
}

static void field_varint(struct bytes *b, unsigned num, uint64_t v)
{
	varint(b, (uint64_t)num << 3);
	varint(b, v);
}

static void field_bytes(struct bytes *b, unsigned num, const void *s, size_t n)
{
	varint(b, (uint64_t)num << 3 | 2);
	varint(b, n);
	put(b, s, n);
}

/* ---- the trace ---- */

static void process_tree(struct bytes *out)
{
	struct bytes tree = { 0 }, e = { 0 };
	char name[64];
	for (unsigned p = 0; p < PROCESSES; p++) {
		e.n = 0;
		field_varint(&e, 1, 1000 + p * 100);
		snprintf(name, sizeof name, p == 0 ? "system_server" : "com.example.app%u", p);
		field_bytes(&e, 3, name, strlen(name));
		field_bytes(&tree, 1, e.p, e.n);
	}
	for (unsigned t = 0; t < THREADS; t++) {
		e.n = 0;
		field_varint(&e, 1, threads[t].tid);
		snprintf(name, sizeof name, t < PROCESSES ? "main" : t < 2 * PROCESSES ? "RenderThread" : "worker-%u", t);
		field_bytes(&e, 2, name, strlen(name));
		field_varint(&e, 3, threads[t].pid);
		field_bytes(&tree, 2, e.p, e.n);
	}
	struct bytes pkt = { 0 };
	field_bytes(&pkt, 2, tree.p, tree.n);
	field_bytes(out, 1, pkt.p, pkt.n);
	free(tree.p);
	free(e.p);
	free(pkt.p);
}

/* The next mark of thread t into buf: B (opens a section) or E. */
static size_t next_mark(struct thread *t, char *buf, size_t size)
{
	unsigned m = program_step(&prog, t->stack, &t->depth, MAX_DEPTH, t->first);
	if (m == SECTION_CLOSE)
		return (size_t)snprintf(buf, size, "E|%u\n", t->pid);
	char name[64];
	section_name(m, NSLICES, name, sizeof name);
	return (size_t)snprintf(buf, size, "B|%u|%s\n", t->pid, name);
}

/* compact_sched of one bundle: n switches as packed arrays (timestamps as
 * deltas, states, next pids, prios, comm indices) and an intern table. */
static void compact_sched(struct bytes *bundle, unsigned n, const unsigned *tids)
{
	struct bytes cs = { 0 }, arr = { 0 };
	static const char *const comms[] = { "main", "RenderThread", "worker", "swapper/0" };
	for (unsigned i = 0; i < 4; i++)
		field_bytes(&cs, 5, comms[i], strlen(comms[i]));
	unsigned field[] = { 1, 2, 3, 4, 6 };
	for (unsigned f = 0; f < 5; f++) {
		arr.n = 0;
		for (unsigned i = 0; i < n; i++)
			varint(&arr, f == 0 ? 2000 + below(90000) : f == 1 ? below(3) : f == 2 ? tids[i] : f == 3 ? 120 : below(4));
		field_bytes(&cs, field[f], arr.p, arr.n);
	}
	field_bytes(bundle, 4, cs.p, cs.n);
	free(cs.p);
	free(arr.p);
}

/* A thread to run on a CPU: one not running on another CPU, so each
 * thread's marks stay in time order however its CPUs' bundles interleave. */
static unsigned pick_thread(const unsigned *running, unsigned cpu)
{
	for (;;) {
		unsigned t = below(THREADS), c;
		for (c = 0; c < CPUS && (c == cpu || running[c] != t); c++)
			;
		if (c == CPUS)
			return t;
	}
}

struct cpu {
	struct bytes bundle;
	unsigned tids[EVENTS_PER_BUNDLE], switches;
};

/* The CPU's bundle as one packet on its own sequence, then a fresh one. */
static void flush(struct bytes *out, struct cpu *cpu, unsigned c)
{
	struct bytes pkt = { 0 };
	if (cpu->switches)
		compact_sched(&cpu->bundle, cpu->switches, cpu->tids);
	field_bytes(&pkt, 1, cpu->bundle.p, cpu->bundle.n);
	field_varint(&pkt, 10, 1 + c);   /* trusted_packet_sequence_id */
	field_bytes(out, 1, pkt.p, pkt.n);
	free(pkt.p);
	cpu->bundle.n = 0;
	cpu->switches = 0;
	field_varint(&cpu->bundle, 1, c);
}

int main(int argc, char **argv)
{
	unsigned long events = count_and_seed(argc, argv, "gen_perfetto EVENTS SEED", "event count");
	make_program();
	static char obuf[1 << 20];
	setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
	static struct cpu cpus[CPUS];
	struct bytes out = { 0 }, ev = { 0 }, print = { 0 };
	process_tree(&out);
	unsigned running[CPUS];
	for (unsigned c = 0; c < CPUS; c++) {
		running[c] = c;
		field_varint(&cpus[c].bundle, 1, c);
	}
	uint64_t ts = 5000000000ULL, next_read = ts + 4000000;   /* boot time, ns */
	char mark[96];
	for (unsigned long n = 0; n < events; n++) {
		unsigned c = below(CPUS);
		struct cpu *cpu = &cpus[c];
		if (below(12) == 0) {   /* a context switch */
			running[c] = pick_thread(running, c);
			if (cpu->switches < EVENTS_PER_BUNDLE)
				cpu->tids[cpu->switches++] = threads[running[c]].tid;
		}
		struct thread *t = &threads[running[c]];
		ts += 100 + below(5000);
		print.n = 0;
		field_varint(&print, 1, 0xffffffc0100a0000ULL + below(64));
		field_bytes(&print, 2, mark, next_mark(t, mark, sizeof mark));
		ev.n = 0;
		field_varint(&ev, 1, ts);
		field_varint(&ev, 2, t->tid);
		field_bytes(&ev, 3, print.p, print.n);
		field_bytes(&cpu->bundle, 2, ev.p, ev.n);
		if (ts >= next_read) {   /* traced_probes reads every CPU's buffer */
			for (unsigned k = 0; k < CPUS; k++)
				flush(&out, &cpus[k], k);
			next_read = ts + 4000000;
			fwrite(out.p, 1, out.n, stdout);
			out.n = 0;
		}
	}
	for (unsigned k = 0; k < CPUS; k++) {
		flush(&out, &cpus[k], k);
		free(cpus[k].bundle.p);
	}
	fwrite(out.p, 1, out.n, stdout);
	free(out.p);
	free(ev.p);
	free(print.p);
	return fflush(stdout) != 0;
}
