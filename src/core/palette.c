/* palette.c: deterministic frame colours.
 *
 * Every palette draws from three values in [0,1) derived from a 64-bit hash
 * of the whole name, so colours are spread evenly over tens of thousands of
 * names and the same name always gets the same colour. */
#include "palette.h"
#include "idmap.h"
#include "tree.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* --hash: a value that depends mostly on the first characters of s (read
 * backwards if rev), so names that start alike get alike colours. */
static double prefix_value(const char *s, size_t len, bool rev)
{
	double v = 0, weight = 1, sum = 0;
	for (size_t i = 0; i < len && i < 8; i++) {
		unsigned c = (unsigned char)s[rev ? len - 1 - i : i];
		v += weight * (double)(c % 13) / 12;
		sum += weight;
		weight *= 0.6;
	}
	return sum > 0 ? 1 - v / sum * 0.999 : 0.5;
}

static struct hsv3 prefix3(const char *name, size_t len)
{
	double b = prefix_value(name, len, true);
	return (struct hsv3){ prefix_value(name, len, false), b, b };
}

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
	case AF_PAL_RED:    return rgb(200 + 55 * v.a, 50 + 80 * v.a, 50 + 80 * v.a);
	case AF_PAL_GREEN:  return rgb(50 + 60 * v.a, 200 + 55 * v.a, 50 + 60 * v.a);
	case AF_PAL_BLUE:   return rgb(80 + 60 * v.a, 80 + 60 * v.a, 205 + 50 * v.a);
	case AF_PAL_AQUA:   return rgb(50 + 60 * v.a, 165 + 55 * v.a, 165 + 55 * v.a);
	case AF_PAL_YELLOW: return rgb(175 + 55 * v.a, 175 + 55 * v.a, 50 + 20 * v.a);
	case AF_PAL_PURPLE: return rgb(190 + 65 * v.a, 80 + 60 * v.a, 190 + 65 * v.a);
	case AF_PAL_ORANGE: return rgb(190 + 65 * v.a, 90 + 65 * v.a, 0);
	case AF_HUE_GREY:   return rgb(170 + 30 * v.a, 170 + 30 * v.a, 170 + 30 * v.a);
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

/* Java (flamegraph.pl's kinds, in its order): JIT-compiled (_[j]) green,
 * inlined (_[i]) aqua, Java class paths and ":::" green, C++ yellow, kernel
 * (_[k]) orange, the rest (native) red. Dotted "a.b.C.m" names are Java
 * too, which flamegraph.pl misses (Android and JFR frames). */
static bool java_path(const char *s, size_t len)
{
	static const char *const roots[] = { "java/", "javax/", "jdk/", "net/", "org/", "com/", "io/", "sun/" };
	if (len && s[0] == 'L') {
		s++;
		len--;
	}
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
		if (starts(s, len, roots[i]))
			return true;
	return false;
}

static bool dotted_java(const char *s, size_t len)
{
	size_t dots = 0;
	for (size_t i = 0; i < len && s[i] != '(' && s[i] != ' '; i++) {
		if (s[i] == '/' || s[i] == ':')
			return false;
		dots += s[i] == '.' && i > 0 && s[i - 1] != '.';
	}
	return dots >= 2 && !has(s, len, ".so") && s[0] != '.' && s[0] != '[';
}

static enum af_palette java_kind(const char *s, size_t len)
{
	if (ends(s, len, "_[j]"))
		return AF_PAL_GREEN;
	if (ends(s, len, "_[i]"))
		return AF_PAL_AQUA;
	if (java_path(s, len) || has(s, len, ":::"))
		return AF_PAL_GREEN;
	if (has(s, len, "::"))
		return AF_PAL_YELLOW;
	if (ends(s, len, "_[k]"))
		return AF_PAL_ORANGE;
	if (dotted_java(s, len))
		return AF_PAL_GREEN;
	return AF_PAL_RED;
}

/* JavaScript: JIT-compiled source green, JIT builtins aqua, C++ yellow,
 * script paths green, builtins ("a:b") aqua, a missing symbol (" ") green,
 * kernel orange, the rest red. */
static enum af_palette js_kind(const char *s, size_t len)
{
	if (ends(s, len, "_[j]"))
		return has(s, len, "/") ? AF_PAL_GREEN : AF_PAL_AQUA;
	if (has(s, len, "::"))
		return AF_PAL_YELLOW;
	const char *slash = memchr(s, '/', len);
	if (slash && has(slash, len - (size_t)(slash - s), ".js"))
		return AF_PAL_GREEN;
	if (has(s, len, ":"))
		return AF_PAL_AQUA;
	if (len == 1 && s[0] == ' ')
		return AF_PAL_GREEN;
	if (has(s, len, "_[k]"))
		return AF_PAL_ORANGE;
	return AF_PAL_RED;
}

/* Perl: C++ yellow, Perl code green, kernel orange, the rest red. */
static enum af_palette perl_kind(const char *s, size_t len)
{
	if (has(s, len, "::"))
		return AF_PAL_YELLOW;
	if (has(s, len, "Perl") || has(s, len, ".pl"))
		return AF_PAL_GREEN;
	if (ends(s, len, "_[k]"))
		return AF_PAL_ORANGE;
	return AF_PAL_RED;
}

/* Chain graphs: the waker's frames (_[w], added by the reader above "--")
 * aqua, the blocked stack blue. */
static enum af_palette chain_kind(const char *s, size_t len)
{
	return has(s, len, "_[w]") ? AF_PAL_AQUA : AF_PAL_BLUE;
}

static const char *const framework_prefixes[] = {
	"android.", "androidx.", "java.", "javax.", "kotlin.", "kotlinx.",
	"dalvik.", "com.android.", "libcore.", "sun.", "org.apache.harmony.",
};

/* Android Studio's split: platform code orange, the app's own code green,
 * everything else (libraries) blue. */
static bool framework(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof framework_prefixes / sizeof *framework_prefixes; i++)
		if (starts(s, len, framework_prefixes[i]))
			return true;
	return false;
}

/* A process or thread root as the readers name them: "main (3142)", or
 * the graph's own root "all" (core/tree.h). */
static bool root_frame(const char *s, size_t len)
{
	size_t i = len;
	if (len == 3 && memcmp(s, "all", 3) == 0)
		return true;
	if (!len || s[len - 1] != ')')
		return false;
	for (i = len - 1; i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9'; i--)
		;
	return i >= 3 && i < len - 1 && s[i - 1] == '(' && s[i - 2] == ' ';
}

/* Android Studio's kinds: the platform orange, the app's own code green,
 * other Java and Kotlin code (libraries) blue, native code yellow, the
 * kernel purple, the root and process and thread roots grey. */
static enum af_palette android_kind(const struct af_palette_opts *o, const char *s, size_t len)
{
	if (ends(s, len, "_[k]") || starts(s, len, "[kernel"))
		return AF_PAL_PURPLE;
	if (root_frame(s, len))
		return AF_HUE_GREY;
	/* the app first: its package may look like the platform's
	 * (com.android.simpleperf.debuggable) */
	if (o->app_package && *o->app_package) {
		size_t n = strlen(o->app_package);
		if (len > n && memcmp(s, o->app_package, n) == 0 && (s[n] == '.' || s[n] == '$'))
			return AF_PAL_GREEN;
	}
	if (framework(s, len))
		return AF_PAL_ORANGE;
	return dotted_java(s, len) ? AF_PAL_BLUE : AF_PAL_YELLOW;
}

/* The hue a frame called name gets: its kind in palettes that tell kinds
 * apart, the palette's own hue in the others. */
static enum af_palette hue_of(const struct af_palette_opts *o, const char *name, size_t len)
{
	switch (o->palette) {
	case AF_PAL_JAVA:    return java_kind(name, len);
	case AF_PAL_JS:      return js_kind(name, len);
	case AF_PAL_PERL:    return perl_kind(name, len);
	case AF_PAL_WAKEUP:  return AF_PAL_AQUA;
	case AF_PAL_CHAIN:   return chain_kind(name, len);
	case AF_PAL_ANDROID: return android_kind(o, name, len);
	default:             return o->palette;
	}
}

/* Separators of chain and merged graphs are grey in every palette. */
static bool separator(const char *name, size_t len)
{
	return (len == 2 && name[0] == '-' && name[1] == '-') || (len == 1 && name[0] == '-');
}

static int kind_index(enum af_palette p, enum af_palette hue);

/* The colour, and if kind is not NULL the kind (af_palette_kind). */
static uint32_t computed(const struct af_palette_opts *o, const char *name, size_t len, int *kind)
{
	if (separator(name, len)) {
		if (kind)
			*kind = -1;
		return len == 2 ? 0xa0a0a0 : 0xc8c8c8;
	}
	struct hsv3 v = o->hash ? prefix3(name, len) : hash3(name, len);
	enum af_palette hue = hue_of(o, name, len);
	if (kind)
		*kind = kind_index(o->palette, hue);
	return hued(hue, v);
}

/* ---- what the colours mean (the legend) ---- */

/* Each palette's kinds in legend order: the kind functions above, hue by
 * hue. A palette not listed (hot, mem, ..., wakeup) has one hue whose shades
 * only tell frames apart. */
static const struct af_palette_kind java_kinds[] = {
	{ AF_PAL_GREEN, "Java" }, { AF_PAL_AQUA, "inlined" }, { AF_PAL_YELLOW, "C++" },
	{ AF_PAL_ORANGE, "kernel" }, { AF_PAL_RED, "native" },
};
static const struct af_palette_kind js_kinds[] = {
	{ AF_PAL_GREEN, "JavaScript" }, { AF_PAL_AQUA, "builtin" }, { AF_PAL_YELLOW, "C++" },
	{ AF_PAL_ORANGE, "kernel" }, { AF_PAL_RED, "native" },
};
static const struct af_palette_kind perl_kinds[] = {
	{ AF_PAL_GREEN, "Perl" }, { AF_PAL_YELLOW, "C++" }, { AF_PAL_ORANGE, "kernel" },
	{ AF_PAL_RED, "native" },
};
static const struct af_palette_kind chain_kinds[] = {
	{ AF_PAL_BLUE, "blocked" }, { AF_PAL_AQUA, "waker" },
};
static const struct af_palette_kind android_kinds[] = {
	{ AF_PAL_ORANGE, "platform" }, { AF_PAL_GREEN, "app" }, { AF_PAL_BLUE, "third party" },
	{ AF_PAL_YELLOW, "native" }, { AF_PAL_PURPLE, "kernel" }, { AF_HUE_GREY, "threads" },
};

size_t af_palette_kinds(enum af_palette p, const struct af_palette_kind **kinds)
{
#define KINDS(k) (*kinds = (k), sizeof (k) / sizeof *(k))
	switch (p) {
	case AF_PAL_JAVA:    return KINDS(java_kinds);
	case AF_PAL_JS:      return KINDS(js_kinds);
	case AF_PAL_PERL:    return KINDS(perl_kinds);
	case AF_PAL_CHAIN:   return KINDS(chain_kinds);
	case AF_PAL_ANDROID: return KINDS(android_kinds);
	default:             *kinds = NULL; return 0;
	}
#undef KINDS
}

/* Which of palette p's kinds has this hue; -1 if none. */
static int kind_index(enum af_palette p, enum af_palette hue)
{
	const struct af_palette_kind *k;
	size_t n = af_palette_kinds(p, &k);
	for (size_t i = 0; i < n; i++)
		if (k[i].hue == hue)
			return (int)i;
	return -1;
}

int af_palette_kind(const struct af_palette_opts *o, const char *name, size_t len)
{
	if (separator(name, len))
		return -1;
	return kind_index(o->palette, hue_of(o, name, len));
}

uint32_t af_palette_swatch(enum af_palette hue)
{
	return hued(hue, (struct hsv3){ 0.5, 0.5, 0.5 });
}

/* A change of mag out of max in red (up) or blue: from a pale shade (mag
 * near 0) to full colour (mag = max). */
static uint32_t change_shade(double mag, double max, bool up)
{
	uint32_t k = (uint32_t)(210 * (max - mag) / max);
	return up ? 0xff0000 | k << 8 | k : k << 16 | k << 8 | 0xff;
}

uint32_t af_palette_change(int64_t delta, uint64_t max, bool negate)
{
	if (negate)
		delta = -delta;
	if (delta == 0 || max == 0)
		return 0xffffff;
	double mag = delta < 0 ? -(double)delta : (double)delta;
	if (mag > (double)max)
		mag = (double)max;
	return change_shade(mag, (double)max, delta > 0);
}

void af_palette_change_scale(uint32_t stops[4])
{
	stops[0] = change_shade(1, 1, false);
	stops[1] = change_shade(0, 1, false);
	stops[2] = change_shade(0, 1, true);
	stops[3] = change_shade(1, 1, true);
}

int af_palette_background(const char *name, enum af_palette p, uint32_t *top, uint32_t *bottom)
{
	static const struct { const char *name; uint32_t top, bottom; } bgs[] = {
		{ "yellow", 0xeeeeee, 0xeeeeb0 }, { "blue", 0xeeeeee, 0xe0e0ff },
		{ "green", 0xeef2ee, 0xe0ffe0 }, { "grey", 0xf8f8f8, 0xe8e8e8 },
	};
	if (!name) {
		name = p == AF_PAL_MEM ? "green"
		     : p == AF_PAL_IO || p == AF_PAL_WAKEUP || p == AF_PAL_CHAIN ? "blue"
		     : p >= AF_PAL_RED && p <= AF_PAL_ORANGE ? "grey" : "yellow";
	}
	for (size_t i = 0; i < sizeof bgs / sizeof *bgs; i++) {
		if (strcmp(name, bgs[i].name) == 0) {
			*top = bgs[i].top;
			*bottom = bgs[i].bottom;
			return 0;
		}
	}
	if (name[0] == '#' && strlen(name) == 7 && strspn(name + 1, "0123456789abcdefABCDEF") == 6) {
		*top = *bottom = (uint32_t)strtoul(name + 1, NULL, 16);
		return 0;
	}
	return -1;
}

/* ---- palette map ---- */

struct af_palette_map {
	struct entry { char *name; size_t len; uint32_t colour; } *e;
	size_t n, cap;
	uint32_t *slots;     /* entry index + 1; 0 empty */
	size_t nslots;
};

struct af_palette_map *af_palette_map_new(void)
{
	return af_xcalloc(1, sizeof(struct af_palette_map));
}

void af_palette_map_free(struct af_palette_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].name);
	free(m->e);
	free(m->slots);
	free(m);
}

static size_t map_find(const struct af_palette_map *m, const char *name, size_t len)
{
	size_t mask = m->nslots - 1, h = (size_t)af_hash_keyed_bytes(name, len) & mask;
	for (;; h = (h + 1) & mask) {
		uint32_t k = m->slots[h];
		if (!k || (m->e[k - 1].len == len && memcmp(m->e[k - 1].name, name, len) == 0))
			return h;
	}
}

/* Set name's colour (replacing an earlier one, as a later line does). */
static void map_put(struct af_palette_map *m, const char *name, size_t len, uint32_t colour)
{
	if (2 * (m->n + 1) > m->nslots) {
		free(m->slots);
		m->nslots = m->nslots ? 2 * m->nslots : 64;
		m->slots = af_xcalloc(m->nslots, sizeof *m->slots);
		for (size_t i = 0; i < m->n; i++)
			m->slots[map_find(m, m->e[i].name, m->e[i].len)] = (uint32_t)i + 1;
	}
	size_t h = map_find(m, name, len);
	if (m->slots[h]) {
		m->e[m->slots[h] - 1].colour = colour;
		return;
	}
	af_grow(&m->e, &m->cap, m->n + 1, sizeof *m->e);
	m->e[m->n] = (struct entry){ af_xstrndup(name, len), len, colour };
	m->slots[h] = (uint32_t)++m->n;
}

/* "rgb(r,g,b)" with r, g, b in 0..255 */
static bool parse_rgb(const char *s, uint32_t *colour)
{
	unsigned r, g, b;
	int end = 0;
	if (sscanf(s, "rgb(%3u,%3u,%3u)%n", &r, &g, &b, &end) != 3 || s[end] || r > 255 || g > 255 || b > 255)
		return false;
	*colour = r << 16 | g << 8 | b;
	return true;
}

int af_palette_map_read(struct af_palette_map *m, const char *path, struct af_diag *d)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		return errno == ENOENT ? 0 : af_diag_error(d, "cannot read '%s': %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned lineno = 0;
	int rc = 0;
	while (rc == 0 && (n = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if (n == 0)
			continue;
		/* the last "->": names may contain one (C++ operator->) */
		char *arrow = NULL;
		for (char *p = line; (p = strstr(p, "->")) != NULL; p++)
			arrow = p;
		uint32_t colour;
		if (!arrow || !parse_rgb(arrow + 2, &colour)) {
			af_diag_init(d, path);
			rc = af_diag_line(d, lineno, 0, "expected 'name->rgb(r,g,b)'");
		} else {
			map_put(m, line, (size_t)(arrow - line), colour);
		}
	}
	free(line);
	fclose(fp);
	return rc;
}

static int cmp_entries(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a, *y = *(const struct entry *const *)b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, n);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

void af_palette_map_write(const struct af_palette_map *m, struct af_sink *out)
{
	const struct entry **sorted = af_xmalloc((m->n ? m->n : 1) * sizeof *sorted);
	for (size_t i = 0; i < m->n; i++)
		sorted[i] = &m->e[i];
	qsort(sorted, m->n, sizeof *sorted, cmp_entries);
	for (size_t i = 0; i < m->n; i++) {
		uint32_t c = sorted[i]->colour;
		af_sink_write(out, sorted[i]->name, sorted[i]->len);
		af_sink_printf(out, "->rgb(%u,%u,%u)\n", c >> 16, c >> 8 & 255, c & 255);
	}
	free(sorted);
}

uint32_t af_palette_colour_kind(const struct af_palette_opts *o, const char *name, size_t len,
				int *kind)
{
	if (!o->map)
		return computed(o, name, len, kind);
	struct af_palette_map *m = o->map;
	if (m->nslots) {
		uint32_t k = m->slots[map_find(m, name, len)];
		if (k) {
			if (kind)
				*kind = af_palette_kind(o, name, len);
			return m->e[k - 1].colour;
		}
	}
	uint32_t c = computed(o, name, len, kind);
	map_put(m, name, len, c);
	return c;
}

uint32_t af_palette_colour(const struct af_palette_opts *o, const char *name, size_t len)
{
	return af_palette_colour_kind(o, name, len, NULL);
}

/* ---- the app's package ---- */

static bool framework(const char *s, size_t len);

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The package of a dotted name outside the platform (all but its class and
 * method, at most three parts), as its length; 0 when it has none. With
 * method set, *method is the method's part. */
static size_t package_of(const char *s, size_t len, const char **method, size_t *method_len)
{
	size_t parts = 1, cut[3] = { 0 }, end = 0, last = 0;
	/* not the platform's, not a process or thread root ("com.example.app
	 * (100)" names no class or method) */
	if (framework(s, len) || root_frame(s, len))
		return 0;
	while (end < len && s[end] != '(' && s[end] != ' ' && s[end] != '/' && s[end] != ':')
		end++;
	for (size_t k = 0; k < end; k++) {
		if (s[k] == '.') {
			if (parts <= 3)
				cut[parts - 1] = k;
			parts++;
			last = k;
		}
	}
	/* package.Class.method: the package is all but the last two, and at
	 * least two parts ("com" alone would take in the platform's
	 * com.android. as the app's) */
	if (parts < 4 || cut[0] == 0)
		return 0;
	*method = s + last + 1;
	*method_len = end - last - 1;
	return cut[(parts - 2 < 3 ? parts - 2 : 3) - 1];
}

/* A callback the platform makes into an app's own components (an Activity,
 * Application, Service, Fragment or BroadcastReceiver): libraries seldom
 * define these, so the package that does is the app's. */
static bool lifecycle_method(const char *m, size_t len)
{
	static const char *const callbacks[] = {
		"onCreate", "onStart", "onResume", "onCreateView", "onReceive",
		"onBind", "onStartCommand", "onHandleIntent",
	};
	for (size_t i = 0; i < sizeof callbacks / sizeof *callbacks; i++)
		if (strlen(callbacks[i]) == len && memcmp(m, callbacks[i], len) == 0)
			return true;
	return false;
}

/* The package most often in pkgs[0..n) (sorted), ties to the first. */
static const char *most_common(char **pkgs, size_t n)
{
	const char *best = NULL;
	size_t best_n = 0;
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(pkgs[i], pkgs[j]) == 0; j++)
			;
		if (j - i > best_n) {
			best = pkgs[i];
			best_n = j - i;
		}
	}
	return best;
}

char *af_palette_guess_app(const struct af_tree *t)
{
	char **pkgs = af_xmalloc((t->nnames ? t->nnames : 1) * sizeof *pkgs);
	size_t n = 0, callbacks = 0;
	for (size_t i = 0; i < t->nnames; i++) {
		const char *m;
		size_t mlen, cut = package_of(t->names[i].str, t->names[i].len, &m, &mlen);
		if (!cut)
			continue;
		char *pkg = af_xstrndup(t->names[i].str, cut);
		if (lifecycle_method(m, mlen)) {   /* callbacks first: they decide */
			pkgs[n++] = pkgs[callbacks];
			pkgs[callbacks++] = pkg;
		} else {
			pkgs[n++] = pkg;
		}
	}
	size_t counted = callbacks ? callbacks : n;
	qsort(pkgs, counted, sizeof *pkgs, cmp_str);
	const char *best = most_common(pkgs, counted);
	char *app = best ? af_xstrndup(best, strlen(best)) : NULL;
	for (size_t i = 0; i < n; i++)
		free(pkgs[i]);
	free(pkgs);
	return app;
}
