/* gen_folded.c: folded stacks like a Java profiler's, deterministic from a seed.
 *
 *   gen_folded STACKS DEPTH SEED > out.folded
 *
 * Each line is a distinct stack of about DEPTH frames. Stacks come from a
 * depth-first walk of a fixed call graph, so neighbouring lines share long
 * prefixes, as stackcollapse output does. */
#include "gen.h"

#include <string.h>

enum { METHODS = 20000, MAX_DEPTH = 128 };

static char names[METHODS][160];

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: gen_folded STACKS DEPTH SEED\n");
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
	unsigned stack[MAX_DEPTH];
	unsigned len = 0;
	for (unsigned long s = 0; s < stacks; s++) {
		/* keep a prefix, then descend again: a depth-first walk */
		unsigned keep = len ? len - 1 - below(len < 8 ? len : 8) : 0;
		len = keep;
		unsigned target = (unsigned)depth - 4 + below(9);
		if (target > MAX_DEPTH)
			target = MAX_DEPTH;
		while (len < target) {
			unsigned parent = len ? stack[len - 1] : 0;
			unsigned next = (parent * 13 + 1 + below(len < 4 ? 3 : 40)) % METHODS;
			stack[len++] = next;
		}
		for (unsigned i = 0; i < len; i++) {
			if (i)
				putchar(';');
			fputs(names[stack[i]], stdout);
		}
		printf(" %u\n", 1 + below(400));
	}
	return fflush(stdout) != 0;
}
