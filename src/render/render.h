/* render.h: the back ends, and the one place that chooses among them.
 * Each graphical back end draws a finished layout into a sink and shares
 * one signature; none reads the tree except for frame names. The text back
 * ends write the tree itself. af_render_to() picks by output format, from
 * the table of formats in render.c. */
#ifndef AF_RENDER_H
#define AF_RENDER_H

#include <stdbool.h>
#include "core/buf.h"
#include "core/diag.h"
#include "core/label.h"
#include "core/layout.h"

struct af_nameattr;

struct af_render_opts {
	const char *title;       /* "Flame Graph" when NULL */
	const char *subtitle;    /* e.g. "in.trace · wall clock · µs"; may be NULL */
	const char *count_name;  /* unit in tooltips: "µs", "samples" */
	unsigned decimals;       /* weights are fixed point: divide by 10^decimals */
	const char *font_family; /* first family named in CSS */
	double font_width;       /* average glyph advance as a fraction of size (0.59) */
	double factor;           /* counts shown are weights times this (1;
				    flamegraph.pl --factor) */
	const char *name_type;   /* before the frame in the details line, e.g.
				    "Function:"; NULL: nothing */
	const char *notes;       /* an XML comment in the SVG, or NULL */
	uint32_t bg_top, bg_bottom; /* background gradient, 0xRRGGBB */
	bool no_js;              /* interactive SVG without its script (tests) */
	bool right_cut;          /* labels cut as flamegraph.pl does ("abc..")
				    instead of keeping the method (core/label.h) */
	double scale;            /* cairo PNG: device pixels per px (1; 2 for HiDPI) */
	struct af_text *text;    /* cairo: this thread's fonts (fonts.h); NULL: make one */
	const struct af_nameattr *nameattr; /* interactive SVG: attributes or
				    links by frame name (--nameattr); NULL: none */
	uint64_t max_output;     /* folded and tree dumps (whose lines repeat
				    callers or indent by depth): refuse one longer
				    than this many bytes, before writing (0: no
				    limit; default AF_OUTPUT_MAX_DEFAULT;
				    --max-output-size, serve's per-result budget) */
};

void af_render_opts_default(struct af_render_opts *o);

/* The one-line refusal of a dump over max_output bytes (--max-output-size):
 * what is "folded" or "tree". Returns -1. */
int af_output_too_large(struct af_diag *d, const char *what, uint64_t size, uint64_t max);

/* A weight as people read it: "1.23 s", "4.5 ms", "12 µs" when unit is µs,
 * else the number and the unit (markup-escaped). Weights are fixed point
 * with `decimals` digits. */
void af_sink_weight(struct af_sink *out, uint64_t w, unsigned decimals, const char *unit);


typedef int af_renderer_fn(const struct af_layout *l, const struct af_render_opts *o,
			   struct af_sink *out, struct af_diag *d);

af_renderer_fn af_render_svg;     /* interactive SVG with embedded script */
af_renderer_fn af_render_frames;  /* one text line per frame (render_frames.c) */

/* Pictures through cairo and pango (render_cairo.c), one drawing function
 * for every surface: PNG (image surface; title in a tEXt chunk), PDF (title
 * as document title) and static SVG (glyphs as paths, no script). Same
 * geometry, colours, titles and labels as af_render_svg; labels are fitted
 * with the pinned font's real glyph widths. */
enum af_cairo_format { AF_CAIRO_PNG, AF_CAIRO_PDF, AF_CAIRO_SVG };
int af_render_cairo(const struct af_layout *l, const struct af_render_opts *o,
		    enum af_cairo_format fmt, struct af_sink *out, struct af_diag *d);

/* Text back ends read the tree itself (they need every frame, however
 * narrow). Folded: one line per distinct stack "a;b;c weight", where a node
 * gets a line if it has self weight or no children (so zero-weight leaves
 * survive); stacks in byte-wise order. Tree: an indented dump with inclusive
 * and self weights, for tests and for people. Both start at root's children
 * and skip excluded nodes. Weights are fixed point with `decimals` digits. */
int af_write_folded(struct af_tree *t, uint32_t root, const uint8_t *excluded,
		    unsigned decimals, struct af_sink *out);
int af_write_tree(struct af_tree *t, uint32_t root, const uint8_t *excluded,
		  unsigned decimals, struct af_sink *out);
/* pprof (render_pprof.c): every stack of the folded output as a sample of
 * a Profile protobuf with one sample type named for unit (the profile's:
 * "µs" written as nanoseconds, "ns", "samples", "bytes", ...), gzip'd or
 * not. Weights with decimals are refused (pprof's values are integers). */
int af_write_pprof(struct af_tree *t, uint32_t root, const uint8_t *excluded, unsigned decimals,
		   const char *unit, bool gzip, struct af_sink *out, struct af_diag *d);

/* ---- the output table ---- */

enum af_out_format {
	AF_OUT_AUTO, AF_OUT_SVG, AF_OUT_SVG_STATIC, AF_OUT_PNG, AF_OUT_PDF,
	AF_OUT_FOLDED, AF_OUT_TREE, AF_OUT_FRAMES, AF_OUT_PPROF, AF_OUT_PPROF_PB
};

/* A back end that writes the tree itself, not a layout (it needs every
 * frame, however narrow). */
typedef int af_writer_fn(struct af_tree *t, uint32_t root, const uint8_t *excluded,
			 const struct af_render_opts *o, struct af_sink *out, struct af_diag *d);

/* One output format, declared by its back end (render_<format>.c, or
 * cairo_load.c for the cairo module's) and listed in render.c's table, as
 * the readers are in read.c's: --format, -o's extension, --help, a batch's
 * file names and index, serve's files and the completion read it. */
struct af_backend {
	enum af_out_format format;
	const char *name;        /* --format's: "svg" */
	const char *const *exts; /* the extensions -o knows it by, NULL-ended
				    ({ "folded", "txt", NULL }): -o takes the
				    first format in the table that lists one; the
				    first is the one a batch or serve writes */
	const char *label;       /* a link's text for people: "SVG", "folded" */
	bool cairo;              /* drawn through the cairo module: needs fonts
				    (fonts.h) */
	bool image;              /* a browser shows it as an image (<img>) */
	bool live;               /* interactive: an index shows it live, not as
				    a picture (render/index.h) */
	bool diff;               /* can write a comparison (--diff) */
	af_renderer_fn *draw;    /* from a layout; or */
	af_writer_fn *write;     /* from the tree */
};

extern const struct af_backend af_backend_svg, af_backend_svg_static, af_backend_png,
	af_backend_pdf, af_backend_folded, af_backend_tree, af_backend_frames, af_backend_pprof,
	af_backend_pprof_pb;
/* The table, in --help's order, NULL-ended. */
extern const struct af_backend *const af_backends[];

/* The back end of format f (the first, SVG, for AF_OUT_AUTO). */
const struct af_backend *af_backend_of(enum af_out_format f);
/* "svg", "svg-static"...; AF_OUT_AUTO if none. */
enum af_out_format af_out_format_named(const char *name);
/* From a path's extension; AF_OUT_AUTO when it has none we know. */
enum af_out_format af_out_format_from_path(const char *path);
/* The names, as --help lists them: "svg, svg-static, ... or frames"; with
 * only those that can write a comparison (--diff). Static. */
const char *af_out_format_names(void);
const char *af_out_format_diff_names(void);
/* Every extension -o knows, once each: "svg png ..." (sep " "), or
 * ".svg, .png, ..." for people (sep ", ", dot "."). Static. */
const char *af_out_format_extensions(void);
const char *af_out_format_extensions_shown(void);
/* The extension a batch or serve gives files of format f, without the dot. */
const char *af_out_format_ext(enum af_out_format f);
/* Drawn through cairo (PNG, PDF, static SVG): needs fonts (fonts.h). */
bool af_out_format_cairo(enum af_out_format f);

/* The report's format (--report) from a path's extension: .txt, .csv,
 * .json, .html or .htm; -1 for none of them. */
int af_report_format_from_path(const char *path);
/* ".txt, .csv, .json or .html", and "txt csv json html htm". Static. */
const char *af_report_extensions_shown(void);
const char *af_report_extensions(void);

/* Lay out (unless f is a text format) and write one graph of the subtree at
 * root, skipping excluded nodes (may be NULL). Returns 0, or -1 with diag
 * set (or with only the sink's error, which the output reports). Reads the
 * tree only, so several threads may share it, once af_plan_prepare_tree()
 * (batch.h) has run on it. */
int af_render_to(enum af_out_format f, struct af_tree *t, uint32_t root,
		 const uint8_t *excluded, const struct af_layout_opts *lo,
		 const struct af_render_opts *ro, struct af_sink *out, struct af_diag *d);

#endif
