/* palette.h: deterministic frame colours. A colour depends only on the frame
 * name and the palette, never on random numbers or input order, so the same
 * function has the same colour in every graph and every run. A palette map
 * (flamegraph.pl's palette.map, --cp) pins colours of names across runs.
 * Differential graphs colour by change instead (af_palette_change). */
#ifndef AF_PALETTE_H
#define AF_PALETTE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "buf.h"
#include "diag.h"

enum af_palette {
	AF_PAL_HOT, AF_PAL_MEM, AF_PAL_IO, AF_PAL_WAKEUP, AF_PAL_CHAIN,
	AF_PAL_JAVA, AF_PAL_JS, AF_PAL_PERL, AF_PAL_RED, AF_PAL_GREEN,
	AF_PAL_BLUE, AF_PAL_AQUA, AF_PAL_YELLOW, AF_PAL_PURPLE, AF_PAL_ORANGE,
	AF_PAL_ANDROID, AF_PAL_COUNT,
	AF_HUE_GREY = AF_PAL_COUNT   /* not a palette: the android palette's
					process and thread roots */
};

struct af_palette_map;

struct af_palette_opts {
	enum af_palette palette;
	const char *app_package;   /* android palette: the app's own package */
	bool chosen;               /* picked by the user (--colors): not replaced
				      by a capture's default (af_palette_for) */
	bool hash;                 /* names that start alike get alike colours
				      (flamegraph.pl --hash) */
	struct af_palette_map *map; /* if set: colours looked up here first, and
				       every new colour added (--cp) */
};

/* The palette called name ("hot", "java", ...); -1 if there is none. */
int af_palette_by_name(const char *name);
const char *af_palette_name(enum af_palette p);

/* Colour of a frame called name, 0xRRGGBB. _kind also sets *kind to the
 * frame's kind (af_palette_kind), in the same pass over the name. */
uint32_t af_palette_colour(const struct af_palette_opts *o, const char *name, size_t len);
uint32_t af_palette_colour_kind(const struct af_palette_opts *o, const char *name, size_t len,
				int *kind);

/* Colour of a frame whose own weight changed by delta in a differential
 * graph: red when it grew, blue when it shrank, white when it did not, the
 * deeper the closer |delta| is to max (> 0). negate swaps red and blue. */
uint32_t af_palette_change(int64_t delta, uint64_t max, bool negate);

/* The colours of af_palette_change's scale, left to right: the largest
 * shrinking (full blue), the least shrinking (pale blue), the least growth
 * (pale red), the largest growth (full red). */
void af_palette_change_scale(uint32_t stops[4]);

/* What a palette's colours mean, for the legend. Palettes that tell kinds
 * of frames apart by hue (java, js, perl, chain, android) list them here;
 * the others (hot, mem, ..., wakeup) have one hue whose shades only tell
 * frames apart, and no kinds. */
#define AF_PALETTE_KINDS_MAX 6
struct af_palette_kind {
	enum af_palette hue;     /* the single-hue palette of the kind */
	const char *label;       /* "platform", "C++", ... (static) */
};

/* Palette p's kinds in legend order (*kinds points to static data); 0 if
 * it has none. */
size_t af_palette_kinds(enum af_palette p, const struct af_palette_kind **kinds);
/* The kind of a frame called name: an index into af_palette_kinds(), or -1
 * (a separator, or a palette without kinds). */
int af_palette_kind(const struct af_palette_opts *o, const char *name, size_t len);
/* A swatch of a kind: its hue at the middle of its range, 0xRRGGBB. */
uint32_t af_palette_swatch(enum af_palette hue);

/* The background gradient (top and bottom colour) called name: "yellow",
 * "blue", "green", "grey", or "#rrggbb" (flat). NULL: flamegraph.pl's
 * default for the palette. Returns -1 if name is none of these. */
int af_palette_background(const char *name, enum af_palette p, uint32_t *top, uint32_t *bottom);

/* The palette map: name -> colour. af_palette_map_read() adds the lines
 * "name->rgb(r,g,b)" of path (a missing file is empty: 0); -1 with diag set
 * on a line that is not one. af_palette_map_write() writes every entry in
 * that form, names in byte order, as flamegraph.pl does. */
struct af_palette_map *af_palette_map_new(void);
int af_palette_map_read(struct af_palette_map *m, const char *path, struct af_diag *d);
void af_palette_map_write(const struct af_palette_map *m, struct af_sink *out);
void af_palette_map_free(struct af_palette_map *m);

/* The most likely package of the app itself, for the android palette when
 * none is given: of the packages (first three parts, fewer for short names)
 * of dotted frame names outside the platform, the one with the most
 * distinct lifecycle callbacks the platform makes into components
 * (onCreate, onResume, onReceive, ...), else the one with the most distinct
 * methods; ties go to the first in byte order. NULL if there is none.
 * Caller frees with free(). */
struct af_tree;
char *af_palette_guess_app(const struct af_tree *t);

/* 64-bit FNV-1a, the name hash behind the colours. */
uint64_t af_hash_bytes(const void *data, size_t len);

#endif
