/* output.h: output files that appear whole or not at all. Output is written
 * to a temporary file beside the target and renamed over it on success; on
 * failure, and on SIGINT/SIGTERM, the temporary file is removed. "-" means
 * standard output, which is never removed. A device or FIFO is written in
 * place; a symlink's target is replaced, not the link. Outputs may be open
 * in several threads at once (one struct af_output per thread). */
#ifndef AF_OUTPUT_H
#define AF_OUTPUT_H

#include <stdio.h>
#include <stdbool.h>
#include "buf.h"
#include "diag.h"

struct af_output {
	const char *path;     /* target as given; "-" for stdout */
	char *target;         /* where a symlinked path points, or NULL */
	char *tmp;            /* temporary path, NULL for stdout */
	FILE *fp;
	struct af_sink sink;
	int slot;             /* for the signal handler; -1 if none */
};

/* Once at start, before any thread: install the signal handlers that remove
 * unfinished outputs, and note the umask (new files get 0666 & ~umask;
 * a replaced file keeps its mode). */
void af_output_install_signals(void);

/* Open; returns 0, or -1 with diag set (e.g. the directory does not exist). */
int af_output_open(struct af_output *o, const char *path, struct af_diag *d);
/* Flush, close and rename into place; on any error removes the temporary
 * file and returns -1 with diag set. */
int af_output_commit(struct af_output *o, struct af_diag *d);
/* Give up: close and remove the temporary file. */
void af_output_abort(struct af_output *o);

#endif
