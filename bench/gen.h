/* gen.h: shared pieces of the benchmark input generators: a seeded PRNG
 * (splitmix64: deterministic on every machine), Android-like names and the
 * program of sections the atrace and Perfetto generators walk. */
#ifndef BENCH_GEN_H
#define BENCH_GEN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng_state;

static inline uint64_t rng(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline unsigned below(unsigned n)
{
	return (unsigned)(rng() % n);
}

static const char *const pkgs[] = {
	"android.view", "android.os", "android.app", "android.widget", "androidx.recyclerview.widget",
	"androidx.compose.runtime", "java.util", "java.lang", "kotlinx.coroutines", "com.example.app.feed",
	"com.example.app.net", "com.example.app.db", "okhttp3.internal", "com.google.gson",
};
static const char *const classes[] = {
	"View", "ViewGroup", "Looper", "Handler", "Choreographer", "RecyclerView", "Adapter", "Composer",
	"HashMap", "ArrayList", "Dispatcher", "FeedRepository", "HttpClient", "Dao", "Gson", "Parser",
	"Renderer", "LayoutInflater", "TextView", "Binder", "Parcel", "Cursor", "Activity", "Fragment",
};
static const char *const verbs[] = {
	"measure", "layout", "draw", "dispatch", "onBind", "inflate", "parse", "load", "query", "get",
	"put", "invoke", "run", "apply", "compose", "recompose", "resume", "create", "update", "read",
};

/* Method i's pieces: package, class (with a number) and method name. */
static inline void method_name(unsigned i, char *cls, size_t ncls, char *name, size_t nname)
{
	snprintf(cls, ncls, "%s.%s%u", pkgs[i % 14], classes[(i / 14) % 24], i / 336);
	snprintf(name, nname, "%s%u", verbs[(i * 7) % 20], i % 5);
}

static inline unsigned long parse_arg(const char *s, const char *what)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	if (*end || end == s) {
		fprintf(stderr, "bad %s '%s'\n", what, s);
		exit(2);
	}
	return v;
}

/* The arguments COUNT SEED of a generator that takes only those: the count,
 * with the seed set; a usage line and exit 2 otherwise. */
static inline unsigned long count_and_seed(int argc, char **argv, const char *usage, const char *what)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s\n", usage);
		exit(2);
	}
	unsigned long count = parse_arg(argv[1], what);
	rng_state = parse_arg(argv[2], "seed");
	return count;
}

/* ---- a program of sections (gen_atrace.c, gen_perfetto.c) ----
 * Section m opens ncallees[m] fixed sections, in order, a fixed number of
 * times (a loop) unless a branch skips one; its callees are among the
 * `span` sections after it, so nesting is bounded. Threads walk it, so
 * stacks repeat as in real captures. Both generators draw from the PRNG in
 * this order; changing it changes their output. */

enum { PROGRAM_CALLEES = 4, SECTION_CLOSE = ~0u };

struct program {
	unsigned nsections;
	unsigned *ncallees;
	unsigned (*callees)[PROGRAM_CALLEES], (*loops)[PROGRAM_CALLEES];
};

struct open_section { unsigned section, next, repeat; };

static inline void *gen_calloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	return p;
}

static inline void program_make(struct program *p, unsigned nsections, unsigned span)
{
	p->nsections = nsections;
	p->ncallees = gen_calloc(nsections, sizeof *p->ncallees);
	p->callees = gen_calloc(nsections, sizeof *p->callees);
	p->loops = gen_calloc(nsections, sizeof *p->loops);
	for (unsigned m = 0; m < nsections; m++) {
		p->ncallees[m] = m + 1 < nsections && below(100) >= 35 ? 1 + below(PROGRAM_CALLEES) : 0;
		for (unsigned k = 0; k < p->ncallees[m]; k++) {
			unsigned left = nsections - m - 1 < span ? nsections - m - 1 : span;
			p->callees[m][k] = m + 1 + below(left);
			p->loops[m][k] = below(100) < 20 ? 2 + below(3) : 1;
		}
	}
}

/* A thread's next step over its open sections stack[0..*depth): with none
 * open, one of the five from `first` (its loop: the next frame or task);
 * else the innermost one's next callee. Returns the section opened (pushed
 * onto the stack, which has room for max_depth + 1), or SECTION_CLOSE when
 * the innermost one ends instead (popped). */
static inline unsigned program_step(const struct program *p, struct open_section *stack,
				    unsigned *depth, unsigned max_depth, unsigned first)
{
	unsigned m;
	if (*depth == 0) {
		m = first + below(5);
	} else {
		struct open_section *o = &stack[*depth - 1];
		while (o->next < p->ncallees[o->section] && o->repeat == 0) {
			o->repeat = below(100) < 25 ? 0 : p->loops[o->section][o->next];
			if (o->repeat == 0)
				o->next++;
		}
		if (o->next >= p->ncallees[o->section] || *depth >= max_depth) {
			(*depth)--;
			return SECTION_CLOSE;
		}
		m = p->callees[o->section][o->next];
		if (--o->repeat == 0)
			o->next++;
	}
	stack[(*depth)++] = (struct open_section){ m, 0, 0 };
	return m;
}

/* atrace section names; gen_atrace.c uses the first 20, gen_perfetto.c all */
static const char *const slices[] = {
	"Choreographer#doFrame", "traversal", "measure", "layout", "draw", "Record View#draw()",
	"RV OnBindView", "RV CreateView", "inflate", "Lock contention on a monitor lock",
	"binder transaction", "activityStart", "bindApplication", "DrawFrame", "syncFrameState",
	"dequeueBuffer", "queueBuffer", "eglSwapBuffersWithDamageKHR", "flush commands", "GC",
	"Compose:recompose", "Handler: android.view.View$PerformClick", "OpenDexFilesFromOat",
	"postAndWait", "VerifyClass", "binder reply", "HIDL::IComposerClient::executeCommands_2_2",
};

/* Section m's name among the first nnames slices: the name, then " N" for
 * every round after the first. */
static inline void section_name(unsigned m, unsigned nnames, char *out, size_t n)
{
	if (m < nnames)
		snprintf(out, n, "%s", slices[m]);
	else
		snprintf(out, n, "%s %u", slices[m % nnames], m / nnames);
}

#endif
