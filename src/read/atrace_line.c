/* atrace_line.c: one ftrace event line split into its columns
 * (atrace-format.md §3.3), for the reader and the container sniffing:
 *
 *   <task>-<tid> [(<tgid>|-----)] [<cpu>] [<flags>] <secs>.<usecs>: <event>: <payload>
 *
 * Task names may hold spaces and dashes: the tid is the last "-<digits>"
 * before the columns that follow it. */
#include "atrace.h"

#include <stdint.h>
#include <string.h>

static bool is_flag(char c)
{
	return c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_hexflag(char c)
{
	return c == '.' || af_scan_is_digit(c) || (c >= 'a' && c <= 'f');
}

/* "(  640)", "( 3)", "(-----)": the TGID column. */
static bool tgid_column(const char **pp, const char *end, int64_t *tgid)
{
	const char *p = af_scan_spaces(*pp + 1, end);
	uint64_t v;
	*tgid = -1;
	if (p < end && *p == '-') {
		while (p < end && *p == '-')
			p++;
	} else if (af_scan_digits(&p, end, &v)) {
		*tgid = (int64_t)v;
	}
	p = af_scan_spaces(p, end);
	if (p >= end || *p != ')')
		return false;
	*pp = p + 1;
	return true;
}

/* irq flags: 4 characters, a 5th on newer kernels, none on old ones; the
 * timestamp may follow with no space ("....316.196720"). */
static const char *flags(const char *p, const char *end)
{
	if (p >= end || af_scan_is_digit(*p))
		return p;   /* no flags */
	if (end - p < 5 || !is_flag(p[0]) || !is_flag(p[1]) || !is_flag(p[2]) || !is_hexflag(p[3]))
		return NULL;
	p += 4;
	/* a 5th flag character; a digit only when a space follows it */
	if (p < end && is_hexflag(*p) && (!af_scan_is_digit(*p) || (p + 1 < end && p[1] == ' ')))
		p++;
	return af_scan_spaces(p, end);
}

/* secs.frac as µs: extra digits are dropped, fewer are padded. */
static bool timestamp(const char **pp, const char *end, uint64_t *us)
{
	const char *p = *pp;
	uint64_t secs;
	if (!af_scan_digits(&p, end, &secs) || p >= end || *p != '.' || secs > UINT64_MAX / 2000000)
		return false;
	p++;
	uint64_t frac = 0;
	int n = 0;
	const char *f = p;
	while (p < end && af_scan_is_digit(*p)) {
		if (n < 6) {
			frac = frac * 10 + (uint64_t)(*p - '0');
			n++;
		}
		p++;
	}
	if (p == f)
		return false;
	for (; n < 6; n++)
		frac *= 10;
	*us = secs * 1000000 + frac;
	*pp = p;
	return true;
}

/* Everything after "-<tid>" that the grammar needs; false if no match. */
static bool after_dash(const char *p, const char *end, struct af_ftrace_event *e)
{
	if (!af_scan_digits(&p, end, &e->tid) || p >= end || (*p != ' ' && *p != '\t'))
		return false;
	p = af_scan_spaces(p, end);
	e->tgid = -1;
	if (p < end && *p == '(' && !tgid_column(&p, end, &e->tgid))
		return false;
	p = af_scan_spaces(p, end);
	uint64_t cpu;
	if (p >= end || *p != '[')
		return false;
	p++;
	if (!af_scan_digits(&p, end, &cpu) || p >= end || *p != ']' || cpu > 0xfffff)
		return false;
	e->cpu = (uint32_t)cpu;
	p = flags(af_scan_spaces(p + 1, end), end);
	if (!p || !timestamp(&p, end, &e->ts) || p + 1 >= end || p[0] != ':' || p[1] != ' ')
		return false;
	p = af_scan_spaces(p + 1, end);
	const char *name = p;
	while (p < end && *p != ' ')
		p++;
	if (p == name || p[-1] != ':')   /* the event name ends in ':' */
		return false;
	e->event = name;
	e->event_len = (size_t)(p - 1 - name);
	p = af_scan_spaces(p, end);
	const char *q = end;
	while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
		q--;
	e->payload = p;
	e->payload_len = (size_t)(q - p);
	return true;
}

bool atrace_parse_line(const char *s, size_t n, struct af_ftrace_event *e)
{
	const char *end = s + n, *p = s;
	/* the task may contain '-' and digits: the first "-<tid>" followed by
	 * the rest of the grammar is the one (as Perfetto's regex search) */
	while ((p = memchr(p, '-', (size_t)(end - p))) != NULL) {
		if (after_dash(p + 1, end, e)) {
			const char *t = s;
			while (t < p && (*t == ' ' || *t == '\t'))
				t++;
			e->task = t;
			e->task_len = (size_t)(p - t);
			return true;
		}
		p++;
	}
	return false;
}
