/* batch.h: batches, --per-thread DIR over one or several inputs, on -j
 * worker threads, each file rendered by af_render_to() (render.h).
 *
 * A batch writes one file per selected thread of each input,
 * "<tid>-<name>.<ext>" with the name reduced to [A-Za-z0-9._-], plus
 * DIR/index.html listing them all. One input writes into DIR itself;
 * several inputs write into DIR/<input base name without extension>/ (made
 * safe the same way, "-2", "-3"... added when two inputs share a name), so
 * outputs of different inputs never collide. Every file appears whole or not
 * at all (output.h). A failed input or file is reported on stderr and the
 * others are still written; the run then fails. */
#ifndef AF_BATCH_H
#define AF_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include "core/layout.h"
#include "core/profile.h"
#include "read/read.h"
#include "render/render.h"

struct af_batch_opts {
	const char *prog;              /* program name for messages */
	const char *dir;               /* --per-thread DIR */
	enum af_out_format format;
	unsigned jobs;                 /* worker threads; 0: one per processor, at most 8 */
	char *const *threads;          /* -t specs; none: every thread */
	size_t nthreads;
	const char *title, *subtitle;  /* overrides of the defaults */
	const struct af_reader *reader;  /* -f; NULL: detect */
	struct af_read_opts read;
	struct af_layout_opts layout;
	struct af_render_opts render;
	bool progress;                 /* a progress line when stderr is a terminal */
};

/* Run a batch over inputs[0..ninputs). Prints warnings and errors to stderr.
 * Returns 0 if every input was read and every file written, else 1. */
int af_batch_run(const struct af_batch_opts *o, char *const *inputs, size_t ninputs);

#endif
