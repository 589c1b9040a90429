/* render_frames.c: the layout as text, one line per drawn frame (--format
 * frames), for tests and scripts that compare graphs frame by frame:
 *
 *   # depth x width samples name
 *   0 10.0 1180.0 9700 all
 *   1 10.0 955.3 7900 main
 *
 * Frames in pre-order (a frame's callees follow it). x and width are the
 * rectangle in px as drawn: x is the left edge rounded to 0.1, width the
 * rounded right edge minus the rounded left edge, both with printf's "%.1f"
 * (flamegraph.pl's <rect> values). samples is the frame's exact weight,
 * fixed point with the input's decimals; --factor does not change it.
 * Differential graphs add a column after samples: delta, the change of the
 * frame's own weight (after - before). The name is the rest of the line,
 * bytes as read (annotations such as "_[k]" kept). Comparisons of two runs
 * (--diff) give instead "samples before after delta colour kind": both
 * runs' inclusive weights, the change the colour shows, the colour
 * (#rrggbb) and the kind (plain, removed, context, band). */
#include "render.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* v / 10^decimals, exactly */
static void put_fixed(struct af_sink *out, uint64_t v, unsigned decimals, bool neg)
{
	uint64_t unit = 1;
	for (unsigned i = 0; i < decimals; i++)
		unit *= 10;
	if (neg && v)
		af_sink_putc(out, '-');
	af_sink_u64(out, v / unit);
	if (decimals)
		af_sink_printf(out, ".%0*" PRIu64, (int)decimals, v % unit);
}

int af_render_frames(const struct af_layout *l, const struct af_render_opts *o,
		     struct af_sink *out, struct af_diag *d)
{
	(void)d;
	static const char *const kinds[] = { "plain", "removed", "context", "band" };
	af_sink_puts(out, l->compare ? "# depth x width samples before after delta colour kind name\n"
		     : l->differential ? "# depth x width samples delta name\n"
		     : "# depth x width samples name\n");
	for (size_t i = 0; i < l->nframes; i++) {
		const struct af_frame *f = &l->frames[i];
		char x1[48], x2[48];
		snprintf(x1, sizeof x1, "%.1f", f->x);
		snprintf(x2, sizeof x2, "%.1f", f->x + f->w);
		char w[48];
		snprintf(w, sizeof w, "%.1f", strtod(x2, NULL) - strtod(x1, NULL));
		af_sink_printf(out, "%" PRIu32 " %s %s ", f->depth, x1, w);
		put_fixed(out, f->width, o->decimals, false);
		if (l->compare) {
			af_sink_putc(out, ' ');
			put_fixed(out, f->before, o->decimals, false);
			af_sink_putc(out, ' ');
			put_fixed(out, f->after, o->decimals, false);
		}
		if (l->differential) {
			af_sink_putc(out, ' ');
			put_fixed(out, f->delta < 0 ? (uint64_t)-(f->delta + 1) + 1 : (uint64_t)f->delta,
				  o->decimals, f->delta < 0);
		}
		if (l->compare)
			af_sink_printf(out, " #%06" PRIx32 " %s", f->colour, kinds[f->kind & 3]);
		af_sink_putc(out, ' ');
		af_sink_write(out, af_tree_name(l->tree, f->name), af_tree_name_len(l->tree, f->name));
		af_sink_putc(out, '\n');
	}
	return 0;
}

const struct af_backend af_backend_frames = {
	.format = AF_OUT_FRAMES, .name = "frames",
	.exts = (const char *const[]){ "frames", NULL }, .label = "frames",
	.diff = true, .draw = af_render_frames,
};
