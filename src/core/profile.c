/* profile.c: threads, header facts and warnings; thread selection. */
#include "profile.h"
#include "buf.h"
#include "names.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The one event type named want plus a modifier (cpu-clock for the file's
 * cpu-clock:u: users type what they recorded), or -1 for none or several. */
static int pick_by_base(const char *want, size_t len, const struct af_event_name *names, size_t n)
{
	int found = -1;
	for (size_t i = 0; i < n; i++)
		if (names[i].n > len && names[i].s[len] == ':' && memcmp(names[i].s, want, len) == 0) {
			if (found >= 0)
				return -1;
			found = (int)i;
		}
	return found;
}

int af_event_pick(const char *want, const struct af_event_name *names, size_t n, struct af_diag *d)
{
	if (!want)
		return 0;
	size_t len = strlen(want);
	for (size_t i = 0; i < n; i++)
		if (names[i].n == len && memcmp(names[i].s, want, len) == 0)
			return (int)i;
	int base = pick_by_base(want, len, names, n);
	if (base >= 0)
		return base;
	struct af_buf b = { 0 };
	for (size_t i = 0; i < n; i++) {
		if (i)
			af_buf_printf(&b, ", ");
		size_t from = b.len;
		af_name_append(&b, names[i].s, names[i].n);
		af_name_finish(&b, from);
	}
	af_buf_putc(&b, 0);
	af_diag_error(d, "no event type '%s' in the file (it has: %s)", want, n ? b.data : "none");
	af_buf_release(&b);
	return -1;
}

const char *af_event_unit(struct af_event_name name)
{
	static const char *const clocks[] = { "cpu-clock", "task-clock" };
	for (size_t i = 0; i < 2; i++) {
		size_t k = strlen(clocks[i]);
		if (name.n >= k && memcmp(name.s, clocks[i], k) == 0 && (name.n == k || name.s[k] == ':'))
			return "ns";
	}
	return "events";
}

void af_profile_init(struct af_profile *p)
{
	memset(p, 0, sizeof *p);
	af_tree_init(&p->tree);
	p->unit = "samples";
}

void af_profile_release(struct af_profile *p)
{
	free(p->event);
	for (size_t i = 0; i < p->nthreads; i++)
		free(p->threads[i].name);
	for (size_t i = 0; i < p->nprocesses; i++)
		free(p->processes[i].name);
	free(p->processes);
	for (size_t i = 0; i < p->nitems; i++) {
		free(p->items[i].key);
		free(p->items[i].value);
	}
	for (size_t i = 0; i < p->nwarnings; i++)
		free(p->warnings[i].text);
	free(p->threads);
	free(p->items);
	free(p->warnings);
	af_tree_release(&p->tree);
	memset(p, 0, sizeof *p);
}

size_t af_profile_add_thread(struct af_profile *p, uint64_t tid, const char *name, size_t name_len)
{
	af_grow(&p->threads, &p->cap_threads, p->nthreads + 1, sizeof *p->threads);
	struct af_thread *th = &p->threads[p->nthreads];
	memset(th, 0, sizeof *th);
	th->tid = tid;
	th->name = af_xstrndup(name, name_len);
	th->node = AF_NONE;
	th->process_node = AF_NONE;
	return p->nthreads++;
}

size_t af_profile_add_process(struct af_profile *p, uint64_t pid, const char *name, size_t name_len,
			      uint32_t node)
{
	af_grow(&p->processes, &p->cap_processes, p->nprocesses + 1, sizeof *p->processes);
	p->processes[p->nprocesses] = (struct af_process){ pid, af_xstrndup(name, name_len), node };
	return p->nprocesses++;
}

static __attribute__((format(printf, 1, 0))) char *vformat(const char *fmt, va_list ap)
{
	struct af_buf b;
	af_buf_init(&b);
	af_buf_vprintf(&b, fmt, ap);
	return af_buf_detach(&b);
}

void af_profile_info(struct af_profile *p, const char *key, const char *fmt, ...)
{
	af_grow(&p->items, &p->cap_items, p->nitems + 1, sizeof *p->items);
	va_list ap;
	va_start(ap, fmt);
	p->items[p->nitems].key = af_xstrndup(key, strlen(key));
	p->items[p->nitems].value = vformat(fmt, ap);
	va_end(ap);
	p->nitems++;
}

void af_profile_info_kinds(struct af_profile *p, const char *key, const char *source,
			   const char *const *names, size_t n, const uint64_t *counts)
{
	struct af_buf b;
	af_buf_init(&b);
	uint64_t total = 0;
	for (size_t i = 1; i <= n; i++) {
		if (!counts[i])
			continue;
		af_buf_printf(&b, "%s%s %" PRIu64, total ? ", " : "", i < n ? names[i] : "other", counts[i]);
		total += counts[i];
	}
	if (total)
		af_profile_info(p, key, "%" PRIu64 " (%s%s%s)", total, source ? source : "",
				source ? ": " : "", b.data);
	af_buf_release(&b);
}

const char *af_profile_get_info(const struct af_profile *p, const char *key)
{
	for (size_t i = 0; i < p->nitems; i++)
		if (strcmp(p->items[i].key, key) == 0)
			return p->items[i].value;
	return NULL;
}

static __attribute__((format(printf, 4, 0))) void add_warning(struct af_profile *p, uint64_t count,
							    bool note, const char *fmt, va_list ap)
{
	for (size_t i = 0; i < p->nwarnings; i++) {
		struct af_warning *w = &p->warnings[i];
		if (w->kind == fmt && w->note == note) {
			w->count = w->count > UINT64_MAX - count ? UINT64_MAX : w->count + count;
			return;
		}
	}
	af_grow(&p->warnings, &p->cap_warnings, p->nwarnings + 1, sizeof *p->warnings);
	p->warnings[p->nwarnings++] = (struct af_warning){ vformat(fmt, ap), count, fmt, note };
}

void af_profile_warn(struct af_profile *p, uint64_t count, const char *fmt, ...)
{
	if (!count)
		return;
	va_list ap;
	va_start(ap, fmt);
	add_warning(p, count, false, fmt, ap);
	va_end(ap);
}

void af_profile_note(struct af_profile *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_warning(p, 1, true, fmt, ap);
	va_end(ap);
}

char *af_warning_line(const struct af_warning *w)
{
	struct af_buf b;
	af_buf_init(&b);
	if (!w->note)
		af_buf_printf(&b, "%" PRIu64 " %s", w->count, w->text);
	else if (w->count > 1)
		af_buf_printf(&b, "%s (%" PRIu64 " times; the first shown)", w->text, w->count);
	else
		af_buf_puts(&b, w->text);
	return af_buf_detach(&b);
}

/* A spec names a thread by its name, or by its id when all digits. */
static bool spec_matches(const char *spec, const struct af_thread *th)
{
	if (strcmp(spec, th->name) == 0)
		return true;
	char *end;
	if (spec[0] < '0' || spec[0] > '9')
		return false;
	unsigned long long v = strtoull(spec, &end, 10);
	return *end == 0 && v == th->tid;
}

int af_profile_select(const struct af_profile *p, char *const *specs, size_t nspecs,
		      uint8_t *excluded, size_t *only_thread, struct af_diag *d)
{
	uint8_t *chosen = af_xcalloc(p->nthreads ? p->nthreads : 1, 1);
	for (size_t s = 0; s < nspecs; s++) {
		bool found = false;
		for (size_t i = 0; i < p->nthreads; i++) {
			if (p->threads[i].node != AF_NONE && spec_matches(specs[s], &p->threads[i])) {
				chosen[i] = 1;
				found = true;
			}
		}
		if (!found) {
			free(chosen);
			return af_diag_error(d, "no thread with events matches '%s' (see --info)", specs[s]);
		}
	}
	int count = 0;
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct af_thread *th = &p->threads[i];
		if (th->node == AF_NONE)
			continue;
		if (chosen[i]) {
			count++;
			*only_thread = i;
			if (th->process_node != AF_NONE)
				excluded[th->process_node] = 0;
		} else {
			excluded[th->node] = 1;
		}
	}
	/* a process node is drawn only when one of its threads is */
	for (size_t i = 0; i < p->nthreads; i++) {
		const struct af_thread *th = &p->threads[i];
		if (th->process_node == AF_NONE || th->node == AF_NONE)
			continue;
		bool any = false;
		for (size_t j = 0; j < p->nthreads; j++)
			if (p->threads[j].process_node == th->process_node && chosen[j])
				any = true;
		if (!any)
			excluded[th->process_node] = 1;
	}
	free(chosen);
	return count;
}

static bool spec_matches_process(const char *spec, const struct af_process *pr)
{
	if (strcmp(spec, pr->name) == 0)
		return true;
	char *end;
	if (spec[0] < '0' || spec[0] > '9')
		return false;
	unsigned long long v = strtoull(spec, &end, 10);
	return *end == 0 && v == pr->pid;
}

int af_profile_select_processes(const struct af_profile *p, char *const *specs, size_t nspecs,
				uint8_t *excluded, size_t *only_process, struct af_diag *d)
{
	uint8_t *chosen = af_xcalloc(p->nprocesses ? p->nprocesses : 1, 1);
	for (size_t s = 0; s < nspecs; s++) {
		bool found = false;
		for (size_t i = 0; i < p->nprocesses; i++) {
			if (spec_matches_process(specs[s], &p->processes[i])) {
				chosen[i] = 1;
				found = true;
			}
		}
		if (!found) {
			free(chosen);
			return af_diag_error(d, "no process with events matches '%s' (see --info)", specs[s]);
		}
	}
	int count = 0;
	for (size_t i = 0; i < p->nprocesses; i++) {
		if (chosen[i]) {
			count++;
			*only_process = i;
		} else {
			excluded[p->processes[i].node] = 1;
		}
	}
	free(chosen);
	return count;
}
