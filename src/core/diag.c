/* diag.c: first-error-wins diagnostics. */
#include "diag.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void af_diag_init(struct af_diag *d, const char *source)
{
	memset(d, 0, sizeof *d);
	d->source = source;
}

/* The one place every error passes through (a breakpoint here sees all). */
__attribute__((format(printf, 3, 0)))
static int set(struct af_diag *d, enum af_where where, const char *fmt, va_list ap)
{
	if (d->set)
		return -1;
	d->set = true;
	d->where = where;
	vsnprintf(d->msg, sizeof d->msg, fmt, ap);
	return -1;
}

int af_diag_offset(struct af_diag *d, uint64_t offset, const char *fmt, ...)
{
	if (!d->set)
		d->offset = offset;
	va_list ap;
	va_start(ap, fmt);
	set(d, AF_WHERE_OFFSET, fmt, ap);
	va_end(ap);
	return -1;
}

int af_diag_line(struct af_diag *d, uint64_t line, unsigned col, const char *fmt, ...)
{
	if (!d->set) {
		d->line = line;
		d->col = col;
	}
	va_list ap;
	va_start(ap, fmt);
	set(d, AF_WHERE_LINE, fmt, ap);
	va_end(ap);
	return -1;
}

int af_diag_error(struct af_diag *d, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set(d, AF_WHERE_NONE, fmt, ap);
	va_end(ap);
	return -1;
}

int af_diag_error_in(struct af_diag *d, const char *source, const char *fmt, ...)
{
	if (!d->set)
		d->source = source;
	va_list ap;
	va_start(ap, fmt);
	set(d, AF_WHERE_NONE, fmt, ap);
	va_end(ap);
	return -1;
}

void af_diag_format(const struct af_diag *d, char *out, size_t size)
{
	const char *src = d->source ? d->source : "-";
	switch (d->where) {
	case AF_WHERE_OFFSET:
		snprintf(out, size, "%s: offset 0x%" PRIx64 ": %s", src, d->offset, d->msg);
		break;
	case AF_WHERE_LINE:
		if (d->col)
			snprintf(out, size, "%s:%" PRIu64 ":%u: %s", src, d->line, d->col, d->msg);
		else
			snprintf(out, size, "%s:%" PRIu64 ": %s", src, d->line, d->msg);
		break;
	case AF_WHERE_NONE:
		snprintf(out, size, "%s: %s", src, d->msg);
		break;
	default:
		snprintf(out, size, "%s: %s", src, d->msg);
	}
}
