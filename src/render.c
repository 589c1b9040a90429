/* render.c: defaults shared by the back ends. */
#include "render.h"

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
