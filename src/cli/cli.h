/* cli.h: the command line, parsed: every option of the main command checked
 * against the others (usage errors print one line and exit 2; --help and
 * --version print and exit 0), so main() only runs the pipeline. */
#ifndef AF_CLI_H
#define AF_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/layout.h"
#include "core/report.h"
#include "core/transform.h"
#include "read/read.h"
#include "render/render.h"

#define AF_PROG "aflame-render"

/* VERSION from the Makefile: --version, --info, the Debian package. */
extern const char af_version[];

struct af_cli {
	char **inputs;
	size_t ninputs;
	const char *output;
	const char *per_thread;   /* --per-thread DIR */
	unsigned jobs;
	bool static_svg;
	enum af_out_format format;
	const struct af_reader *reader;  /* -f; NULL: detect */
	char **threads;
	size_t nthreads;
	char **processes;         /* -p: atrace processes to draw */
	size_t nprocesses;
	bool info;
	bool report;              /* --report, or -o .csv/.json/.html */
	enum af_report_format report_format;
	size_t top;               /* --top N */
	bool from_set, to_set;
	const char *title, *subtitle;
	const char *count_name;   /* --countname */
	const char *bgcolors;     /* --bgcolors */
	const char *total;        /* --total, read once the decimals are known */
	bool cp;                  /* --cp: colours kept in ./palette.map */
	bool diff;                /* --diff BEFORE AFTER */
	bool normalize;           /* --normalize */
	const char *nameattr;     /* --nameattr FILE */
	struct af_read_opts read;
	struct af_layout_opts layout;
	struct af_render_opts render;
	struct af_transforms tx;  /* --include, --root, --hide...; af_transforms_release() */
};

/* Parse argv into o (which it initialises). Exits on usage errors, --help
 * and --version. o->threads and o->processes are the caller's to free(). */
void af_cli_parse(struct af_cli *o, int argc, char **argv);

#endif
