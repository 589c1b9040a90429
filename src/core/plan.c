/* plan.c: the graphs of a per-thread run (plan.h). */
#include "plan.h"
#include "palette.h"
#include "util.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- names of files ---- */

void af_safe_name(struct af_buf *b, const char *s, size_t len)
{
	size_t start = b->len;
	bool gap = false;
	for (size_t i = 0; i < len && b->len - start < 64; i++) {
		unsigned char c = (unsigned char)s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '-' || c == '_' ||
			  (c == '.' && b->len > start);
		if (ok) {
			af_buf_putc(b, (char)c);
			gap = false;
		} else if (!gap && b->len > start) {
			af_buf_putc(b, '_');
			gap = true;
		}
	}
	while (b->len > start && b->data[b->len - 1] == '_')
		b->data[--b->len] = 0;
	if (b->len == start)
		af_buf_puts(b, "thread");
}

/* by string, then by where the string lives (input order): deterministic */
static int cmp_str_ptr(const void *a, const void *b)
{
	char *const *x = *(char *const *const *)a, *const *y = *(char *const *const *)b;
	int c = strcmp(*x, *y);
	return c ? c : (x > y) - (x < y);
}

void af_make_distinct(char ***names, size_t n)
{
	if (n < 2)
		return;
	qsort(names, n, sizeof *names, cmp_str_ptr);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && strcmp(*names[j], *names[i]) == 0)
			j++;
		for (size_t r = i + 1; r < j; r++) {
			char *old = *names[r];
			const char *dot = strrchr(old, '.');
			size_t stem = dot && dot != old ? (size_t)(dot - old) : strlen(old);
			struct af_buf b;
			af_buf_init(&b);
			af_buf_printf(&b, "%.*s-%zu%s", (int)stem, old, r - i + 1, old + stem);
			*names[r] = af_buf_detach(&b);
			free(old);
		}
		i = j;
	}
}

static const char *process_name(const struct af_profile *p, uint64_t pid)
{
	for (size_t i = 0; pid && i < p->nprocesses; i++)
		if (p->processes[i].pid == pid)
			return p->processes[i].name;
	return NULL;
}

static void add_graph(struct af_plan *pl, const struct af_profile *p, const struct af_thread *th,
		      const uint64_t *tot)
{
	struct af_plan_graph *g = &pl->graphs[pl->n++];
	struct af_buf stem;
	af_buf_init(&stem);
	*g = (struct af_plan_graph){ .thread = th, .name = th ? th->name : "all",
		.process = th ? process_name(p, th->pid) : NULL, .node = th ? th->node : AF_ROOT };
	g->total = tot[g->node];
	if (th) {
		af_buf_printf(&stem, "%" PRIu64 "-", th->tid);
		af_safe_name(&stem, th->name, strlen(th->name));
	} else {
		af_buf_puts(&stem, "all");
	}
	g->stem = af_buf_detach(&stem);
	pl->total += g->total;
}

int af_plan_make(struct af_plan *pl, const struct af_profile *p, char *const *specs,
		 size_t nspecs, struct af_diag *d)
{
	*pl = (struct af_plan){ NULL, 0, 0 };
	uint8_t *excluded = af_xcalloc(p->tree.nnodes, 1);
	size_t only;
	if (nspecs && af_profile_select(p, specs, nspecs, excluded, &only, d) < 0) {
		free(excluded);
		return -1;
	}
	uint64_t *tot = af_tree_totals(&p->tree);
	pl->graphs = af_xcalloc(p->nthreads ? p->nthreads : 1, sizeof *pl->graphs);
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct af_thread *th = &p->threads[i];
		if (th->node != AF_NONE && !excluded[th->node])
			add_graph(pl, p, th, tot);
	}
	if (!p->nthreads)
		add_graph(pl, p, NULL, tot);
	free(tot);
	free(excluded);
	char ***stems = af_xmalloc((pl->n ? pl->n : 1) * sizeof *stems);
	for (size_t i = 0; i < pl->n; i++)
		stems[i] = &pl->graphs[i].stem;
	af_make_distinct(stems, pl->n);
	free(stems);
	return 0;
}

static int by_total(const void *a, const void *b)
{
	const struct af_plan_graph *x = a, *y = b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	uint64_t tx = x->thread ? x->thread->tid : 0, ty = y->thread ? y->thread->tid : 0;
	return (tx > ty) - (tx < ty);
}

void af_plan_by_total(struct af_plan *pl)
{
	if (pl->n > 1)
		qsort(pl->graphs, pl->n, sizeof *pl->graphs, by_total);
}

void af_plan_release(struct af_plan *pl)
{
	for (size_t i = 0; i < pl->n; i++)
		free(pl->graphs[i].stem);
	free(pl->graphs);
	*pl = (struct af_plan){ NULL, 0, 0 };
}

/* ---- shared by the graphs of a run ---- */

/* Names only Android code has: the runtime (libart.so, its C++ namespace
 * art:: as a name's start or after a return type), the platform's paths and
 * compiled files, the framework's packages. */
static bool starts(const char *s, size_t left, const char *mark)
{
	size_t n = strlen(mark);
	return left >= n && memcmp(s, mark, n) == 0;
}

/* One pass, each mark tried only where its first byte is (this ran every
 * mark at every position: 3% of a perf script capture's CPU). */
static bool android_name(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		const char *p = s + i;
		size_t left = len - i;
		switch (*p) {
		case 'a':
			if (((i == 0 && len > 5) || (i > 0 && p[-1] == ' ')) && starts(p, left, "art::"))
				return true;
			if (starts(p, left, "android."))
				return true;
			break;
		case 'l': if (starts(p, left, "libart.so")) return true; break;
		case 'd': if (starts(p, left, "dalvik.")) return true; break;
		case '/':
			if (starts(p, left, "/system/") || starts(p, left, "/apex/") ||
			    starts(p, left, "/data/app/"))
				return true;
			break;
		case '.':
			if (starts(p, left, ".oat") || starts(p, left, ".odex") || starts(p, left, ".vdex"))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

bool af_android_capture(const struct af_profile *p)
{
	if (!p->format || strcmp(p->format, "folded") == 0 || strcmp(p->format, "atrace") == 0)
		return false;
	if (strcmp(p->format, "art") == 0 || strcmp(p->format, "simpleperf") == 0)
		return true;
	if (p->clock)     /* Perfetto's slices: trace marks, not code */
		return false;
	for (size_t i = 0; i < p->tree.nnames; i++)
		if (android_name(p->tree.names[i].str, p->tree.names[i].len))
			return true;
	return false;
}

void af_plan_prepare_tree(struct af_tree *t)
{
	/* interning an existing name can still grow the table once; after
	 * this call it cannot, and the ranks stay valid */
	af_tree_intern_str(t, "all");
	af_tree_intern_str(t, "all");
	af_tree_name_ranks(t);
}

/* "a.trace" ("standard input" for "-"), or for several captures
 * "a.trace + 2 more · 3 captures" ("average of 3 captures" when averaged) */
static void inputs_named(struct af_buf *b, const char *input, const struct af_profile *p)
{
	af_buf_puts(b, strcmp(input, "-") == 0 ? "standard input" : af_base_name(input));
	if (p->captures > 1)
		af_buf_printf(b, " + %u more \xc2\xb7 %s%u captures", p->captures - 1,
			      p->averaged ? "average of " : "", p->captures);
}

/* An Android app's process is named after its package ("com.example.app",
 * or "com.example.app:remote" for another of its processes): a process
 * name shaped like a package whose code is in the capture names the app
 * better than any count of methods (an app under com.android. would
 * otherwise be taken for the platform). */
static size_t package_len(const char *s)
{
	size_t n = strcspn(s, ":"), dots = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == '.' && i > 0 && i + 1 < n && s[i - 1] != '.')
			dots++;
		else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
			return 0;
	}
	return dots ? n : 0;
}

struct pkg { const char *s; size_t n, methods; };

static int cmp_pkg(const void *a, const void *b)
{
	const struct pkg *x = a, *y = b;
	size_t n = x->n < y->n ? x->n : y->n;
	int c = memcmp(x->s, y->s, n);
	return c ? c : (x->n > y->n) - (x->n < y->n);
}

/* The package-named process with the most frames of its package's code
 * (each frame name's prefixes up to a dot looked up: linear in names). */
static char *app_of_processes(const struct af_profile *p)
{
	struct pkg *k = af_xmalloc((p->nprocesses ? p->nprocesses : 1) * sizeof *k);
	size_t n = 0;
	for (size_t i = 0; i < p->nprocesses; i++) {
		size_t len = p->processes[i].name ? package_len(p->processes[i].name) : 0;
		if (len)
			k[n++] = (struct pkg){ p->processes[i].name, len, 0 };
	}
	qsort(k, n, sizeof *k, cmp_pkg);
	for (size_t i = 0; n && i < p->tree.nnames; i++) {
		const char *s = p->tree.names[i].str;
		size_t len = p->tree.names[i].len, dots = 0;
		for (size_t j = 1; j < len && dots < 8; j++) {
			if (s[j] != '.')
				continue;
			dots++;
			struct pkg want = { s, j, 0 }, *hit = bsearch(&want, k, n, sizeof *k, cmp_pkg);
			if (hit)
				hit->methods++;
		}
	}
	struct pkg *best = NULL;
	for (size_t i = 0; i < n; i++)
		if (k[i].methods && (!best || k[i].methods > best->methods))
			best = &k[i];
	char *app = best ? af_xstrndup(best->s, best->n) : NULL;
	free(k);
	return app;
}

void af_palette_for(struct af_palette_opts *o, const struct af_profile *p, char **app)
{
	*app = NULL;
	if (!o->chosen && af_android_capture(p))
		o->palette = AF_PAL_ANDROID;
	if (o->palette != AF_PAL_ANDROID || o->app_package)
		return;
	const char *named = af_profile_get_info(p, "app package");
	*app = named ? af_xstrndup(named, strlen(named)) : app_of_processes(p);
	if (!*app)
		*app = af_palette_guess_app(&p->tree);
	o->app_package = *app;
}

void af_default_subtitle(struct af_buf *b, const char *input, const struct af_profile *p,
			 const char *count_name)
{
	inputs_named(b, input, p);
	if (p->clock)
		af_buf_printf(b, " \xc2\xb7 %s clock \xc2\xb7 %s", p->clock, p->unit);
	else if (p->measure)
		af_buf_printf(b, " \xc2\xb7 %s", p->measure);
	else if (p->event)   /* sampled: the event, what its periods count */
		af_buf_printf(b, " \xc2\xb7 %s \xc2\xb7 %s", p->event, p->unit);
	else                 /* folded stacks: what their counts count */
		af_buf_printf(b, " \xc2\xb7 %s", count_name ? count_name : p->unit);
}
