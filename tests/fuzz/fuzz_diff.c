/* fuzz_diff.c: --diff BEFORE AFTER, and the same two files as captures of
 * one graph. The input (after the options byte) is the two files, split at
 * the first NUL byte; each is read with detection, merged as main.c does,
 * drawn in every text format, written as two-count folded stacks, and
 * compared as method profiles; read again, the second is added to the first
 * as several captures are (core/merge.h), averaged and drawn. */
#include "fuzz.h"
#include "core/diff.h"
#include "core/merge.h"

#include <string.h>

static bool read_one(struct af_profile *p, const uint8_t *data, size_t len, const struct af_read_opts *o)
{
	struct af_input in = { .data = data, .len = len, .name = "fuzz" };
	struct af_diag d;
	af_diag_init(&d, "fuzz");
	af_profile_init(p);
	if (af_read(p, &in, NULL, o, &d) == 0)
		return true;
	if (!d.set)
		__builtin_trap();   /* every failure must say why */
	return false;
}

static void compare(struct af_profile *before, struct af_profile *after, uint8_t flags)
{
	struct af_diag d;
	af_diag_init(&d, "fuzz");
	if (af_diff_match_decimals(before, after, &d) < 0)
		return;
	struct af_report rep[2];
	af_report_build(&rep[0], before, AF_ROOT, NULL);
	af_report_build(&rep[1], after, AF_ROOT, NULL);
	struct af_report_diff rd;
	af_report_diff_build(&rd, &rep[0], &rep[1], flags & 0x40, flags & 0x80, 20);
	struct af_report_opts ro = { .title = "fuzz", .unit = after->unit, .decimals = after->decimals, .top = 20 };
	for (int f = AF_REPORT_TEXT; f <= AF_REPORT_HTML; f++) {
		struct af_sink s;
		af_sink_init(&s, af_write_null, NULL);
		af_render_report_diff(&rd, (enum af_report_format)f, &ro, &s);
		af_sink_finish(&s);
	}
	af_report_diff_release(&rd);
	af_report_release(&rep[0]);
	af_report_release(&rep[1]);

	struct af_diff df;
	struct af_diff_opts dopt = { .normalize = flags & 0x80, .before_name = "before" };
	if (af_diff_merge(&df, after, AF_ROOT, NULL, before, AF_ROOT, NULL, &dopt, &d) == 0) {
		struct af_sink s;
		af_sink_init(&s, af_write_null, NULL);
		af_diff_write_folded(&after->tree, AF_ROOT, &df, after->decimals, &s);
		af_sink_finish(&s);
		fuzz_render(after, flags, FUZZ_CAIRO_MAX + 1, df.kinds, df.nkinds, df.excluded);
	}
	af_diff_release(&df);
}

/* `aflame-render --average X Y`: Y merged into X, averaged, drawn; a
 * refusal must say why. */
static void captures(const uint8_t *x, size_t xn, const uint8_t *y, size_t yn,
		     const struct af_read_opts *o, uint8_t flags)
{
	struct af_profile p, q;
	bool ok = read_one(&p, x, xn, o);
	ok = read_one(&q, y, yn, o) && ok;   /* both read: both to release */
	if (ok) {
		struct af_diag d;
		af_diag_init(&d, "fuzz");
		if (af_profile_merge(&p, &q, &d) == 0 && af_profile_average(&p, 2, &d) == 0)
			fuzz_render(&p, flags, FUZZ_CAIRO_MAX + 1, NULL, 0, NULL);
		else if (!d.set)
			__builtin_trap();
	}
	af_profile_release(&p);
	af_profile_release(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	uint8_t flags = data[0];
	const uint8_t *sep = memchr(data + 1, 0, size - 1);
	if (!sep)
		return 0;
	struct af_read_opts o = { .clock = (enum af_clock)(flags % 3), .signatures = flags & 0x04 };
	struct af_profile before, after;
	bool b = read_one(&before, data + 1, (size_t)(sep - data - 1), &o);
	bool a = read_one(&after, sep + 1, size - (size_t)(sep + 1 - data), &o);
	if (a && b)
		compare(&before, &after, flags);
	af_profile_release(&before);
	af_profile_release(&after);
	if (a && b)
		captures(data + 1, (size_t)(sep - data - 1), sep + 1, size - (size_t)(sep + 1 - data),
			 &o, flags);
	return 0;
}
