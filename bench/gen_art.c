/* gen_art.c: a large, realistic ART method trace, deterministic from a seed.
 *
 *   gen_art legacy|streaming RECORDS SEED > out.trace
 *
 * Dual clock, version 3 (legacy) or 0xF3 streaming with op-1/op-2 escapes
 * and a 2017-2022 style summary. A fixed call graph of METHODS methods is
 * walked depth first on a few threads, so stacks repeat as in real code;
 * frames are left open at the end, as in every real trace. */
#include "gen.h"

#include <string.h>

enum { METHODS = 4000, THREADS = 6, CALLEES = 5, MAX_DEPTH = 64 };

struct frame {
	unsigned method, next;   /* next callee to run */
	unsigned repeat;         /* times the current callee still runs */
};

struct thread {
	unsigned tid;
	struct frame stack[MAX_DEPTH + 1];
	unsigned depth;
	uint32_t cpu, wall;
	int named;
};

/* The program: method m calls ncallees[m] fixed methods, in order, each a
 * fixed number of times (a loop) unless a branch skips it. Callees have
 * higher indices, so the graph is acyclic and depth stays bounded. */
static unsigned ncallees[METHODS], callees[METHODS][CALLEES], loops[METHODS][CALLEES];
static unsigned char method_seen[METHODS];
static const char *const thread_names[THREADS] = {
	"main", "RenderThread", "DefaultDispatcher-worker-1", "OkHttp Dispatcher", "arch_disk_io_0", "FinalizerDaemon",
};

static void put(const void *p, size_t n)
{
	fwrite(p, 1, n, stdout);
}

static void u16(unsigned v)
{
	unsigned char b[2] = { (unsigned char)v, (unsigned char)(v >> 8) };
	put(b, 2);
}

static void u32(uint32_t v)
{
	unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24) };
	put(b, 4);
}

static int method_line(unsigned m, char *out, size_t n)
{
	char cls[96], name[48];
	method_name(m, cls, sizeof cls, name, sizeof name);
	return snprintf(out, n, "%#x\t%s\t%s\t(I)V\t%s.java\n", m << 2, cls, name, classes[(m / 14) % 24]);
}

static void header(unsigned version)
{
	unsigned char h[32] = { 'S', 'L', 'O', 'W' };
	h[4] = (unsigned char)version;
	h[6] = 32;
	h[16] = 14;
	put(h, 32);
}

static void text_section(int methods)
{
	printf("*version\n3\ndata-file-overflow=false\nclock=dual\nelapsed-time-usec=0\n"
	       "clock-call-overhead-nsec=1000\nvm=art\npid=4242\n*threads\n");
	for (unsigned i = 0; i < THREADS; i++)
		printf("%u\t%s\n", 4242 + i * 17, thread_names[i]);
	printf("*methods\n");
	for (unsigned m = 0; methods && m < METHODS; m++) {
		char line[256];
		method_line(m, line, sizeof line);
		fputs(line, stdout);
	}
	printf("*end\n");
}

static void escape_method(unsigned m)
{
	char line[256];
	int n = method_line(m, line, sizeof line);
	u16(0);
	putchar(1);
	u16((unsigned)n);
	put(line, (size_t)n);
}

static void escape_thread(const struct thread *t, unsigned i)
{
	size_t n = strlen(thread_names[i]);
	u16(0);
	putchar(2);
	u16(t->tid);
	u16((unsigned)n);
	put(thread_names[i], n);
}

static void record(struct thread *t, unsigned m, unsigned action, int streaming, unsigned i)
{
	if (streaming && !t->named) {
		escape_thread(t, i);
		t->named = 1;
	}
	if (streaming && !method_seen[m]) {
		escape_method(m);
		method_seen[m] = 1;
	}
	t->cpu += 1 + below(8);
	t->wall += t->cpu % 3 + 1 + below(12);
	u16(t->tid);
	u32(m << 2 | action);
	u32(t->cpu);
	u32(t->wall);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: gen_art legacy|streaming RECORDS SEED\n");
		return 2;
	}
	int streaming = strcmp(argv[1], "streaming") == 0;
	unsigned long records = parse_arg(argv[2], "record count");
	rng_state = parse_arg(argv[3], "seed");
	for (unsigned m = 0; m < METHODS; m++) {
		ncallees[m] = m + 1 < METHODS && below(100) >= 30 ? 1 + below(CALLEES) : 0;
		for (unsigned k = 0; k < ncallees[m]; k++) {
			unsigned span = METHODS - m - 1 < 120 ? METHODS - m - 1 : 120;
			callees[m][k] = m + 1 + below(span);
			loops[m][k] = below(100) < 20 ? 2 + below(3) : 1;
		}
	}
	static char buf[1 << 20];
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	if (streaming)
		header(0xF3);
	else {
		text_section(1);
		header(3);
	}
	struct thread th[THREADS];
	memset(th, 0, sizeof th);
	for (unsigned i = 0; i < THREADS; i++)
		th[i].tid = 4242 + i * 17;
	for (unsigned long r = 0; r < records; r++) {
		unsigned i = below(THREADS * 4);
		i = i < THREADS * 2 ? 0 : i % THREADS;   /* main is busiest */
		struct thread *t = &th[i];
		if (t->depth == 0) {   /* the thread's loop picks its next event handler */
			unsigned m = i * 300 + below(40);
			t->stack[t->depth++] = (struct frame){ m, 0, 0 };
			record(t, m, 0, streaming, i);
			continue;
		}
		struct frame *f = &t->stack[t->depth - 1];
		while (f->next < ncallees[f->method] && f->repeat == 0) {
			f->repeat = below(100) < 25 ? 0 : loops[f->method][f->next];   /* a branch not taken */
			if (f->repeat == 0)
				f->next++;
		}
		if (f->next < ncallees[f->method] && t->depth < MAX_DEPTH) {
			unsigned m = callees[f->method][f->next];
			if (--f->repeat == 0)
				f->next++;
			t->stack[t->depth++] = (struct frame){ m, 0, 0 };
			record(t, m, 0, streaming, i);
		} else {
			record(t, f->method, 1, streaming, i);
			t->depth--;
		}
	}
	if (streaming) {
		/* summary (ART 2017-2022): keys and threads, no methods */
		char text[4096];
		int n = snprintf(text, sizeof text, "*version\n3\ndata-file-overflow=false\nclock=dual\n"
				 "elapsed-time-usec=0\nclock-call-overhead-nsec=1000\nvm=art\npid=4242\n*threads\n");
		for (unsigned i = 0; i < THREADS; i++)
			n += snprintf(text + n, sizeof text - (size_t)n, "%u\t%s\n", th[i].tid, thread_names[i]);
		n += snprintf(text + n, sizeof text - (size_t)n, "*methods\n*end\n");
		u16(0);
		putchar(3);
		u32((uint32_t)n);
		put(text, (size_t)n);
	}
	return fflush(stdout) != 0;
}
