/* fuzz.h: the harness shared by the fuzz targets. Input byte 0 picks the
 * options; the rest is the file. Each input runs the whole pipeline: read,
 * then every back end (interactive and static SVG, folded, tree, frames,
 * the report in four formats and, for one input in four, PNG and PDF
 * through cairo) into a sink that discards. Works with libFuzzer, AFL++
 * (its libFuzzer-compatible driver) and the replay driver (replay.c). */
#ifndef AF_FUZZ_H
#define AF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include "core/plan.h"
#include "read/read.h"
#include "render/render.h"
#include "render/fonts.h"
#include "core/report.h"

enum { FUZZ_MAX_INPUT = 1 << 20, FUZZ_CAIRO_MAX = 8192 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct af_text *fuzz_text;   /* fonts, set up once per process */

static void fuzz_reports(const struct af_profile *p)
{
	struct af_report r;
	af_report_build(&r, p, AF_ROOT, NULL);
	struct af_report_opts ro = { .title = "fuzz", .unit = p->unit, .clock = p->clock,
				     .decimals = p->decimals, .top = 20 };
	for (int f = AF_REPORT_TEXT; f <= AF_REPORT_HTML; f++) {
		struct af_sink s;
		af_sink_init(&s, af_write_null, NULL);
		af_render_report(&r, (enum af_report_format)f, &ro, &s);
		af_sink_finish(&s);
	}
	af_report_release(&r);
}

/* Render p in each of formats into a sink that discards. */
static void fuzz_formats(struct af_profile *p, const enum af_out_format *formats, size_t n,
			 const uint8_t *excluded, const struct af_layout_opts *lo,
			 const struct af_render_opts *ro)
{
	for (size_t i = 0; i < n; i++) {
		struct af_sink s;
		struct af_diag d;
		af_diag_init(&d, "fuzz");
		af_sink_init(&s, af_write_null, NULL);
		af_render_to(formats[i], &p->tree, AF_ROOT, excluded, lo, ro, &s, &d);
		af_sink_finish(&s);
	}
}

/* Draw p in every format; kinds/excluded: a differential graph (diff.h). */
static void fuzz_render(struct af_profile *p, uint8_t flags, size_t size, const uint8_t *kinds,
			size_t nkinds, const uint8_t *excluded)
{
	struct af_layout_opts lo;
	struct af_render_opts ro;
	af_layout_opts_default(&lo);
	af_render_opts_default(&ro);
	lo.kinds = kinds;
	lo.nkinds = nkinds;
	lo.inverted = flags & 0x10;
	lo.chart = flags & 0x20;
	lo.width = 300;
	ro.count_name = p->unit;
	ro.decimals = p->decimals;
	static const enum af_out_format text_formats[] = {
		AF_OUT_SVG, AF_OUT_FOLDED, AF_OUT_TREE, AF_OUT_FRAMES, AF_OUT_PPROF,
	};
	static const enum af_out_format cairo_formats[] = {
		AF_OUT_SVG_STATIC, AF_OUT_PNG, AF_OUT_PDF,
	};
	af_plan_prepare_tree(&p->tree);
	fuzz_formats(p, text_formats, sizeof text_formats / sizeof *text_formats, excluded, &lo, &ro);
	/* cairo mostly costs PNG compression of tall images: small inputs only */
	if ((flags & 0xc0) != 0xc0 || size > FUZZ_CAIRO_MAX)
		return;
	if (!fuzz_text) {
		struct af_diag d;
		af_diag_init(&d, "fuzz");
		fuzz_text = af_text_new(&d);
	}
	ro.text = fuzz_text;
	fuzz_formats(p, cairo_formats, sizeof cairo_formats / sizeof *cairo_formats, excluded, &lo, &ro);
}

/* Run one input through the reader called `reader` (read.c's table) and
 * every back end. The flag bits that choose layout options also choose
 * Perfetto's CPU samples (0x10) or heap profiles (0x18, the value from the
 * top bits): readers ignore the options of other formats. */
static inline int fuzz_one(const char *reader, const uint8_t *data, size_t size)
{
	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	uint8_t flags = data[0];
	struct af_read_opts o = {
		.clock = (enum af_clock)(flags % 3),
		.signatures = flags & 0x04,
		.strict = flags & 0x08,
		.cpu_samples = (flags & 0x18) == 0x10,
		.heap = (flags & 0x18) == 0x18 ? (enum af_heap_value)(1 + (flags >> 5) % 6) : AF_HEAP_NONE,
	};
	struct af_input in = { .data = data + 1, .len = size - 1, .name = "fuzz" };
	struct af_profile p;
	struct af_diag d;
	af_profile_init(&p);
	af_diag_init(&d, "fuzz");
	if (af_read(&p, &in, af_reader_named(reader), &o, &d) == 0) {
		fuzz_render(&p, flags, size, NULL, 0, NULL);
		fuzz_reports(&p);
	} else if (!d.set) {
		__builtin_trap();   /* every failure must say why */
	}
	af_profile_release(&p);
	return 0;
}

#endif
