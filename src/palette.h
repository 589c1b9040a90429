/* palette.h: deterministic frame colours. A colour depends only on the frame
 * name and the palette, never on random numbers or input order, so the same
 * function has the same colour in every graph and every run. */
#ifndef AF_PALETTE_H
#define AF_PALETTE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

enum af_palette {
	AF_PAL_HOT, AF_PAL_MEM, AF_PAL_IO, AF_PAL_WAKEUP, AF_PAL_CHAIN,
	AF_PAL_JAVA, AF_PAL_JS, AF_PAL_PERL, AF_PAL_RED, AF_PAL_GREEN,
	AF_PAL_BLUE, AF_PAL_AQUA, AF_PAL_YELLOW, AF_PAL_PURPLE, AF_PAL_ORANGE,
	AF_PAL_ANDROID, AF_PAL_COUNT
};

struct af_palette_opts {
	enum af_palette palette;
	const char *app_package;   /* android palette: the app's own package */
};

/* The palette called name ("hot", "java", ...); -1 if there is none. */
int af_palette_by_name(const char *name);
const char *af_palette_name(enum af_palette p);

/* Colour of a frame called name, 0xRRGGBB. */
uint32_t af_palette_colour(const struct af_palette_opts *o, const char *name, size_t len);

/* 64-bit FNV-1a, the name hash behind the colours. */
uint64_t af_hash_bytes(const void *data, size_t len);

#endif
