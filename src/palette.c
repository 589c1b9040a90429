/* palette.c: deterministic frame colours.
 *
 * Every palette draws from three values in [0,1) derived from a 64-bit hash
 * of the whole name, so colours are spread evenly over tens of thousands of
 * names and the same name always gets the same colour. */
#include "palette.h"

#include <string.h>

static const char *const names[AF_PAL_COUNT] = {
	"hot", "mem", "io", "wakeup", "chain", "java", "js", "perl", "red",
	"green", "blue", "aqua", "yellow", "purple", "orange", "android",
};

int af_palette_by_name(const char *name)
{
	for (int i = 0; i < AF_PAL_COUNT; i++)
		if (strcmp(name, names[i]) == 0)
			return i;
	return -1;
}

const char *af_palette_name(enum af_palette p)
{
	return (unsigned)p < AF_PAL_COUNT ? names[p] : "?";
}

uint64_t af_hash_bytes(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	/* final avalanche: FNV alone leaves similar names with similar low bits */
	h ^= h >> 31;
	h *= 0x7fb5d329728ea185ULL;
	h ^= h >> 27;
	return h;
}

struct hsv3 { double a, b, c; };

static struct hsv3 hash3(const char *name, size_t len)
{
	uint64_t h = af_hash_bytes(name, len);
	return (struct hsv3){
		(double)(h & 0x1fffff) / 0x200000,
		(double)(h >> 21 & 0x1fffff) / 0x200000,
		(double)(h >> 42 & 0x1fffff) / 0x200000,
	};
}

static uint32_t rgb(double r, double g, double b)
{
	return (uint32_t)r << 16 | (uint32_t)g << 8 | (uint32_t)b;
}

static uint32_t hued(enum af_palette p, struct hsv3 v)
{
	switch (p) {
	case AF_PAL_HOT:    return rgb(205 + 50 * v.a, 230 * v.b, 55 * v.c);
	case AF_PAL_MEM:    return rgb(0, 190 + 50 * v.b, 210 * v.a);
	case AF_PAL_IO:     return rgb(80 + 60 * v.a, 80 + 60 * v.a, 190 + 55 * v.b);
	case AF_PAL_WAKEUP: return rgb(0, 120 + 80 * v.b, 200 + 55 * v.a);
	case AF_PAL_CHAIN:  return rgb(95 + 60 * v.a, 95 + 60 * v.a, 200 + 55 * v.a);
	case AF_PAL_RED:    return rgb(200 + 55 * v.a, 50 + 80 * v.a, 50 + 80 * v.a);
	case AF_PAL_GREEN:  return rgb(50 + 60 * v.a, 200 + 55 * v.a, 50 + 60 * v.a);
	case AF_PAL_BLUE:   return rgb(80 + 60 * v.a, 80 + 60 * v.a, 205 + 50 * v.a);
	case AF_PAL_AQUA:   return rgb(50 + 60 * v.a, 165 + 55 * v.a, 165 + 55 * v.a);
	case AF_PAL_YELLOW: return rgb(175 + 55 * v.a, 175 + 55 * v.a, 50 + 20 * v.a);
	case AF_PAL_PURPLE: return rgb(190 + 65 * v.a, 80 + 60 * v.a, 190 + 65 * v.a);
	case AF_PAL_ORANGE: return rgb(190 + 65 * v.a, 90 + 65 * v.a, 0);
	default:            return rgb(205 + 50 * v.a, 230 * v.b, 55 * v.c);
	}
}

static bool has(const char *s, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++)
		if (memcmp(s + i, needle, n) == 0)
			return true;
	return false;
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

static bool ends(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

/* Java: JIT-compiled (_[j]) and Java-looking names green, inlined (_[i])
 * aqua, kernel (_[k]) orange, C++ yellow, the rest (native) red. A dotted
 * "a.b.C.m" name is Java too, which flamegraph.pl misses (Android frames). */
static enum af_palette java_kind(const char *s, size_t len)
{
	if (ends(s, len, "_[j]"))
		return AF_PAL_GREEN;
	if (ends(s, len, "_[i]"))
		return AF_PAL_AQUA;
	if (ends(s, len, "_[k]"))
		return AF_PAL_ORANGE;
	if (has(s, len, "::"))
		return AF_PAL_YELLOW;
	size_t dots = 0;
	for (size_t i = 0; i < len && s[i] != '('; i++)
		dots += s[i] == '.';
	if (has(s, len, "/") || dots >= 2 || (len && s[0] == 'L' && has(s, len, ";")))
		return AF_PAL_GREEN;
	return AF_PAL_RED;
}

static enum af_palette js_kind(const char *s, size_t len)
{
	if (ends(s, len, "_[k]"))
		return AF_PAL_ORANGE;
	if (ends(s, len, "_[j]") || has(s, len, ".js") || has(s, len, ":"))
		return AF_PAL_GREEN;
	if (has(s, len, "::"))
		return AF_PAL_YELLOW;
	if (len && s[0] == ' ')
		return AF_PAL_AQUA;
	return AF_PAL_RED;
}

static enum af_palette perl_kind(const char *s, size_t len)
{
	if (ends(s, len, "_[k]"))
		return AF_PAL_ORANGE;
	if (has(s, len, "::") || has(s, len, "Perl") || has(s, len, ".pl"))
		return AF_PAL_GREEN;
	return AF_PAL_RED;
}

static const char *const framework_prefixes[] = {
	"android.", "androidx.", "java.", "javax.", "kotlin.", "kotlinx.",
	"dalvik.", "com.android.", "libcore.", "sun.", "org.apache.harmony.",
};

/* Android Studio's split: platform code orange, the app's own code green,
 * everything else (libraries) blue. */
static enum af_palette android_kind(const struct af_palette_opts *o, const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof framework_prefixes / sizeof *framework_prefixes; i++)
		if (starts(s, len, framework_prefixes[i]))
			return AF_PAL_ORANGE;
	if (o->app_package && *o->app_package) {
		size_t n = strlen(o->app_package);
		if (len > n && memcmp(s, o->app_package, n) == 0 && (s[n] == '.' || s[n] == '$'))
			return AF_PAL_GREEN;
	}
	if (!has(s, len, "."))
		return AF_PAL_YELLOW;   /* thread roots, native frames */
	return AF_PAL_BLUE;
}

uint32_t af_palette_colour(const struct af_palette_opts *o, const char *name, size_t len)
{
	struct hsv3 v = hash3(name, len);
	switch (o->palette) {
	case AF_PAL_JAVA:    return hued(java_kind(name, len), v);
	case AF_PAL_JS:      return hued(js_kind(name, len), v);
	case AF_PAL_PERL:    return hued(perl_kind(name, len), v);
	case AF_PAL_ANDROID: return hued(android_kind(o, name, len), v);
	default:             return hued(o->palette, v);
	}
}
