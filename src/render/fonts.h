/* fonts.h: text for the cairo back end. The only font is the pinned one in
 * fonts/ (DejaVu Sans), registered with a private fontconfig configuration
 * that knows no system font and no system rule; hinting is off and glyph
 * positions are not rounded, so a PNG is the same on every machine.
 *
 * Pango font maps are not thread-safe: each thread that draws makes its own
 * struct af_text (its own FcConfig, font map and context) and uses it alone. */
#ifndef AF_FONTS_H
#define AF_FONTS_H

#include <stddef.h>
#include <pango/pangocairo.h>
#include "core/diag.h"

#define AF_FONT_FILE "DejaVuSans.ttf"
#define AF_FONT_FAMILY "DejaVu Sans"

struct af_text {
	void *config;             /* FcConfig *, private to this text */
	PangoFontMap *fontmap;
	PangoContext *context;
};

/* The directory that holds AF_FONT_FILE: $AFLAME_FONT_DIR, else
 * <binary's directory>/../share/aflame-render/fonts, else AF_FONT_DIR as
 * compiled in. Returns a string valid until exit, or NULL with diag set. */
const char *af_font_dir(struct af_diag *d);

/* A font map and pango context on the pinned font. Returns NULL with diag
 * set when the font cannot be found or loaded. Caller frees with
 * af_text_free(). */
struct af_text *af_text_new(struct af_diag *d);
void af_text_free(struct af_text *t);

#endif
