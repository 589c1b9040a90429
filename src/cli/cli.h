/* cli.h: the command line, parsed: every option of the main command (the
 * table in options.c) checked against the others (usage errors print one
 * line and exit 2; --help and --version print and exit 0), so main() only
 * runs the pipeline. */
#ifndef AF_CLI_H
#define AF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include "run.h"

/* What the command line asked for: one run's options (run.h), and what
 * only main() and the checks here use. */
struct af_cli {
	struct af_run_opts run;   /* one graph, report, --info or --diff */
	const char *per_thread;   /* --per-thread DIR */
	unsigned jobs;
	bool static_svg;
	bool from_set, to_set;
	const char *bgcolors;     /* --bgcolors */
	bool diff;                /* --diff BEFORE AFTER */
	const char *nameattr;     /* --nameattr FILE */
	size_t cap_threads, cap_processes;  /* of run.threads, run.processes */
};

/* Parse argv into o (which it initialises). Exits on usage errors, --help
 * and --version. o->run.threads and o->run.processes are the caller's to
 * free(). */
void af_cli_parse(struct af_cli *o, int argc, char **argv);

#endif
