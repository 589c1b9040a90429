/* gen.h: shared pieces of the benchmark input generators: a seeded PRNG
 * (splitmix64: deterministic on every machine) and Android-like names. */
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

#endif
