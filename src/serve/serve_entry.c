/* serve_entry.c: the one symbol aflame-render-serve.so exports (serve.h).
 * Built only into the module. */
#include "serve.h"

extern __attribute__((visibility("default"))) const struct af_serve_entry af_serve_entry;

const struct af_serve_entry af_serve_entry = {
	.head = { AF_SERVE_ABI, sizeof af_serve_entry },
	.main = af_serve_main,
};
