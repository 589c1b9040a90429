/* svg_bulk.h: the interactive SVG's bulk data, D.z: the distinct frame
 * names (D.n), their colour groups (D.c) and the frames (D.f) as JSON,
 * deflated in base64 (pack.h). Made whole on a second thread, from the
 * layout and the colour groups, which stay unchanged until it is ended,
 * while the caller writes the rest of the file: at 58k frames (the pprof
 * bench) the JSON is 8 ms and its deflating 20, the paths, the blends'
 * image and the labels beside them 15. */
#ifndef AF_SVG_BULK_H
#define AF_SVG_BULK_H

#include <stdbool.h>
#include <stdint.h>
#include "pack.h"
#include "core/layout.h"

struct af_svg_bulk {
	const struct af_layout *l;
	const uint32_t *group;   /* frame -> colour group (not read if per_frame) */
	bool per_frame;          /* groups are per frame (D.c is not written) */
	struct af_pack pack;
};

void af_svg_bulk_begin(struct af_svg_bulk *b, const struct af_layout *l, const uint32_t *group,
		       bool per_frame);
/* Waits for it and writes the members ",\nzn:<JSON bytes>,z:<literal>" on
 * out; 0, or -1 with an error on d. */
int af_svg_bulk_end(struct af_svg_bulk *b, struct af_sink *out, struct af_diag *d);
/* waits for it and drops it (the file failed otherwise) */
void af_svg_bulk_cancel(struct af_svg_bulk *b);

#endif
