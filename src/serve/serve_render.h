/* serve_render.h: one job's result, made in its render child: the graphs
 * and the profile table (serve_render.c), then the result page that lists
 * them (serve_result.c). Private to those two files; serve_jobs.c calls
 * af_serve_render() (serve_int.h). */
#ifndef AF_SERVE_RENDER_H
#define AF_SERVE_RENDER_H

#include "serve_int.h"
#include "core/profile.h"
#include "render/render.h"

/* A graph's files: its interactive SVG, its PNG and its folded stacks; their
 * formats in af_serve_files[] (extensions, labels from the output table). */
enum { AF_SF_SVG, AF_SF_PNG, AF_SF_FOLDED, AF_SF_N };

/* Frames drawn per graph at most: an SVG costs about 300 bytes a frame, and
 * a browser slows down well before a million. Beyond it --minwidth is raised
 * (by 4x at a time) and the page says so. */
#define AF_SERVE_MAX_FRAMES 50000

struct af_serve_thread {
	const char *name;         /* owned by the profile */
	uint64_t tid;
	const char *process;      /* its process name, or NULL */
	uint32_t node;
	uint64_t total;
	bool whole;               /* no threads (folded): the whole graph */
	bool drawn;               /* within --max-threads and --max-seconds */
	double width, height;     /* of the SVG */
	double min_width;         /* > 0: raised to keep the SVG within the frames */
	char *error[AF_SF_N];     /* why the SVG, PNG, folded file is missing */
};

struct af_serve_render {
	const struct af_serve_opts *o;
	struct af_text **text;    /* the worker's fonts, made on first PNG */
	struct af_serve_progress *sp;
	const char *hash;
	char *upload_name;        /* the uploaded file's name (--data/<hash>/name), or NULL */
	struct af_profile p;
	struct af_serve_thread *recs;
	size_t nrecs, ndrawn;
	uint64_t total;           /* of every thread listed */
	struct af_buf subtitle;
	struct af_palette_opts palette;   /* as the command line's default (af_palette_for) */
	char *app;                /* the app's package that palette names, or NULL */
	char *report_error;
	uint64_t budget;          /* bytes this result may still write (--max-result) */
	uint64_t file_bytes;      /* of the file being written */
	bool file_cut;            /* that file went over the budget: left out */
	bool cut;                 /* a file was left out: over the budget */
	bool out_of_time;
	bool write_failed;        /* a file could not be written: tried again later */
	double start;
};

/* AF_OUT_SVG, AF_OUT_PNG, AF_OUT_FOLDED: t<N>.<ext> is each one's file. */
extern const enum af_out_format af_serve_files[AF_SF_N];

/* The result page, --data/<hash>/index.html; 0 or -1 with d set. */
int af_serve_write_page(struct af_serve_render *r, struct af_diag *d);

#endif
