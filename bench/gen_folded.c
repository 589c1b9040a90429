/* gen_folded.c: folded stacks like a Java profiler's, deterministic from a seed.
 *
 *   gen_folded STACKS DEPTH SEED [random] > out.folded
 *
 * Each line is a distinct stack of about DEPTH frames. Stacks come from a
 * depth-first walk of a fixed call graph, so neighbouring lines share long
 * prefixes, as stackcollapse output does (FlameGraph's example-perf-stacks
 * through stackcollapse-perf.pl: lines of 25-1853 bytes, median 1085, 28
 * frames of 32 bytes; here median ~1180 bytes, ~33 frames of ~35 bytes).
 * With "random", the same lines come out in a random order (a seeded
 * shuffle, the same on every machine), as concatenated files and many
 * collapsers give: a line then shares little with the one before.
 *
 * How much a line shares with the one before decides the reader's speed,
 * so the call graph is shaped to share as real profiles do: a fixed chain
 * of 10 frames at the root (thread start-up), 2 callees a level down to
 * 13, then 40; the walk mostly climbs back up to five frames, one step
 * in 10 to anywhere. Frames shared with the line before, in file order
 * and shuffled: here 29.4 and 10.9 of 33.5 (88% and 33%); FlameGraph's
 * example-perf-stacks 26.0 and 10.2 of 27.5 (95%, 37%); three real ART
 * traces of the tests' corpus, folded, 70-88% and 11-55%. (The walk
 * before shared 86% and 63%: its random-order rows were easier than real
 * input.) */
#include "gen.h"

#include <stdint.h>
#include <string.h>

enum { METHODS = 20000, MAX_DEPTH = 128 };

static char names[METHODS][160];

/* One generated line: its frames (method numbers) and its count. */
struct stack {
	uint16_t frame[MAX_DEPTH];
	uint8_t len;
	uint16_t count;
};

/* The next stack of the walk: keep a prefix of the last one, descend again. */
static void next_stack(struct stack *s, unsigned long depth)
{
	unsigned len = s->len;
	unsigned keep = !len ? 0 : below(10) == 0 ? below(len) : len - 1 - below(len < 5 ? len : 5);
	len = keep;
	unsigned target = (unsigned)depth - 4 + below(9);
	if (target > MAX_DEPTH)
		target = MAX_DEPTH;
	while (len < target) {
		unsigned parent = len ? s->frame[len - 1] : 0;
		unsigned next = (parent * 13 + 1 + below(len < 10 ? 1 : len < 13 ? 2 : 40)) % METHODS;
		s->frame[len++] = (uint16_t)next;
	}
	s->len = (uint8_t)len;
	s->count = (uint16_t)(1 + below(400));
}

static void print_stack(const struct stack *s)
{
	for (unsigned i = 0; i < s->len; i++) {
		if (i)
			putchar(';');
		fputs(names[s->frame[i]], stdout);
	}
	printf(" %u\n", s->count);
}

/* Every stack first (compactly: ~70 bytes a line), then a Fisher-Yates
 * shuffle of their order from the same seeded generator. */
static void print_shuffled(unsigned long stacks, unsigned long depth)
{
	struct stack *all = malloc((stacks ? stacks : 1) * sizeof *all);
	uint32_t *order = malloc((stacks ? stacks : 1) * sizeof *order);
	if (!all || !order || stacks > UINT32_MAX) {
		fprintf(stderr, "gen_folded: out of memory\n");
		exit(1);
	}
	struct stack s = { .len = 0 };
	for (unsigned long i = 0; i < stacks; i++) {
		next_stack(&s, depth);
		all[i] = s;
		order[i] = (uint32_t)i;
	}
	for (unsigned long i = stacks; i > 1; i--) {
		unsigned long j = (unsigned long)(rng() % i);
		uint32_t t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (unsigned long i = 0; i < stacks; i++)
		print_stack(&all[order[i]]);
	free(all);
	free(order);
}

int main(int argc, char **argv)
{
	if ((argc != 4 && argc != 5) || (argc == 5 && strcmp(argv[4], "random") != 0)) {
		fprintf(stderr, "usage: gen_folded STACKS DEPTH SEED [random]\n");
		return 2;
	}
	unsigned long stacks = parse_arg(argv[1], "stack count");
	unsigned long depth = parse_arg(argv[2], "depth");
	rng_state = parse_arg(argv[3], "seed");
	if (depth < 2 || depth > MAX_DEPTH) {
		fprintf(stderr, "depth must be 2..%d\n", MAX_DEPTH);
		return 2;
	}
	for (unsigned m = 0; m < METHODS; m++) {
		char cls[96], name[48];
		method_name(m, cls, sizeof cls, name, sizeof name);
		snprintf(names[m], sizeof names[m], "%s.%s", cls, name);
	}
	static char buf[1 << 20];
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	if (argc == 5) {
		print_shuffled(stacks, depth);
	} else {
		struct stack s = { .len = 0 };
		for (unsigned long i = 0; i < stacks; i++) {
			next_stack(&s, depth);
			print_stack(&s);
		}
	}
	return fflush(stdout) != 0;
}
