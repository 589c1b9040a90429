/* read.c: input format detection and dispatch to the front ends. */
#include "read.h"
#include "art.h"

#include <string.h>

static bool starts(const struct af_input *in, const char *s)
{
	size_t n = strlen(s);
	return in->len >= n && memcmp(in->data, s, n) == 0;
}

/* Folded stacks: the first non-blank, non-comment line ends in a count. */
/* Folded stacks: the first non-blank, non-comment line ends in a count.
 * That line is found whole, however long (one stack can be megabytes). */
static bool looks_folded(const struct af_input *in)
{
	const uint8_t *p = in->data, *end = p + in->len;
	while (p < end) {
		const uint8_t *nl = memchr(p, '\n', (size_t)(end - p));
		const uint8_t *e = nl ? nl : end;
		while (e > p && (e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (e > p && *p != '#') {
			const uint8_t *k = e;
			while (k > p && ((k[-1] >= '0' && k[-1] <= '9') || k[-1] == '.'))
				k--;
			return k < e && k > p && (k[-1] == ' ' || k[-1] == '\t') && !memchr(p, 0, (size_t)(e - p));
		}
		p = nl ? nl + 1 : end;
	}
	return false;
}

enum af_format af_detect_format(const struct af_input *in, struct af_diag *d)
{
	if (in->len == 0) {
		af_diag_error(d, "empty file");
		return AF_FORMAT_AUTO;
	}
	if (starts(in, "*version\n") || starts(in, "*version\r\n") || starts(in, "SLOW"))
		return AF_FORMAT_ART;
	if (starts(in, "SIMPLEPERF") && art_identify_foreign(in, d))
		return AF_FORMAT_AUTO;
	int atrace = af_atrace_sniff(in);
	if (atrace == 2)
		return AF_FORMAT_ATRACE;
	if (looks_folded(in))
		return AF_FORMAT_FOLDED;
	/* other things Android Studio saves as .trace: Perfetto, ART dumps */
	if (art_identify_foreign(in, d))
		return AF_FORMAT_AUTO;
	if (atrace == 1)   /* JSON: the reader says whether it holds ftrace text */
		return AF_FORMAT_ATRACE;
	af_diag_error(d, "unrecognised input: not an ART method trace, an atrace/systrace capture or folded stacks");
	return AF_FORMAT_AUTO;
}

static af_reader_fn *reader_for(enum af_format fmt, const char **what)
{
	switch (fmt) {
	case AF_FORMAT_ART:
		*what = "no method records";
		return af_read_art;
	case AF_FORMAT_FOLDED:
		*what = "no stacks";
		return af_read_folded;
	case AF_FORMAT_ATRACE:
		*what = "no slices (Trace.beginSection/endSection marks)";
		return af_read_atrace;
	case AF_FORMAT_AUTO:
	default:
		return NULL;
	}
}

int af_read(struct af_profile *p, const struct af_input *in, enum af_format fmt,
	    const struct af_read_opts *o, struct af_diag *d)
{
	if (fmt == AF_FORMAT_AUTO)
		fmt = af_detect_format(in, d);
	const char *nothing;
	af_reader_fn *read = reader_for(fmt, &nothing);
	if (!read || read(p, in, o, d) < 0)
		return -1;
	/* an empty picture is never what the user wanted: say why */
	if (p->tree.nnodes == 1 && !o->info_only)
		return af_diag_error(d, "nothing to draw: the file has %s", nothing);
	return 0;
}
