/* output.h: output files that appear whole or not at all. Output is written
 * to a temporary file beside the target and renamed over it on success; on
 * failure, and on SIGINT/SIGTERM, the temporary file is removed. "-" means
 * standard output, which is never removed. A device or FIFO is written in
 * place; a symlink's target is replaced, not the link. Outputs may be open
 * in several threads at once (one struct af_output per thread).
 *
 * An output reports into its caller's diag, given to af_output_open(): its
 * errors, from opening to committing, name the output file, and as
 * everywhere the first error wins, so a render error recorded there before
 * the output gave up is the one the caller prints. */
#ifndef AF_OUTPUT_H
#define AF_OUTPUT_H

#include <stdio.h>
#include <stdbool.h>
#include "buf.h"
#include "diag.h"

struct af_output {
	const char *path;     /* target as given; "-" for stdout */
	const char *name;     /* how errors name it: path, unless opened with
				 af_output_open_as() */
	struct af_diag *diag; /* the caller's, where errors go */
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

/* Open path; returns 0, or -1 with an error in d (e.g. the directory does
 * not exist). Until the output is committed or aborted, d must live and
 * receives its errors. */
int af_output_open(struct af_output *o, const char *path, struct af_diag *d);
/* The same, with errors naming the output `name` rather than its path (a
 * service shows the file's name, not where its data lives). */
int af_output_open_as(struct af_output *o, const char *path, const char *name,
		      struct af_diag *d);
/* Flush, close and rename into place; on any error removes the temporary
 * file and returns -1 with the error recorded. */
int af_output_commit(struct af_output *o);
/* Give up: close and remove the temporary file. A write error the sink met
 * is recorded (if nothing was before): it may be why the writer stopped. */
void af_output_abort(struct af_output *o);
/* The end of writing: commit if rc is 0 (everything written), else abort.
 * Returns 0, or -1 when either failed. */
int af_output_close(struct af_output *o, int rc);

#endif
