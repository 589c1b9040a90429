/* render.c: defaults shared by the back ends. */
#include "render.h"
#include "escape.h"

#include <stdlib.h>
#include <string.h>

void af_render_opts_default(struct af_render_opts *o)
{
	memset(o, 0, sizeof *o);
	o->count_name = "samples";
	o->font_family = "DejaVu Sans";
	o->font_width = 0.59;
	o->factor = 1;
	o->bg_top = 0xeeeeee;
	o->bg_bottom = 0xeeeeb0;
	o->scale = 1;
}

void af_sink_weight(struct af_sink *out, uint64_t w, unsigned decimals, const char *unit)
{
	double v = (double)w;
	for (unsigned i = 0; i < decimals; i++)
		v /= 10;
	if (strcmp(unit, "\xc2\xb5s") == 0) {
		if (v >= 1e6)
			af_sink_printf(out, "%.2f s", v / 1e6);
		else if (v >= 1e3)
			af_sink_printf(out, "%.1f ms", v / 1e3);
		else
			af_sink_printf(out, "%.0f \xc2\xb5s", v);
		return;
	}
	af_sink_fixed(out, v, (int)decimals);
	af_sink_putc(out, ' ');
	af_escape_xml(out, unit);
}
