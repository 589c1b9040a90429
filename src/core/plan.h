/* plan.h: the graphs of a per-thread run, one plan for --per-thread
 * (batch.c) and serve (serve_jobs.c): one graph per selected thread with
 * events, in the profile's thread order, or one of the whole graph when the
 * input has no threads; each with its total, its process and a file-name
 * stem "<tid>-<name>" that is safe in a path and distinct within the plan. */
#ifndef AF_PLAN_H
#define AF_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "diag.h"
#include "palette.h"
#include "profile.h"

struct af_plan_graph {
	const struct af_thread *thread;  /* NULL: the whole graph (no threads) */
	const char *name;                /* the thread's name, or "all" */
	const char *process;             /* its process's name, or NULL */
	uint32_t node;                   /* the graph's root */
	uint64_t total;                  /* inclusive weight */
	char *stem;                      /* file name without extension */
};

struct af_plan {
	struct af_plan_graph *graphs;
	size_t n;
	uint64_t total;                  /* of every graph */
};

/* Plan the graphs of p: the threads specs select (-t; none: every thread).
 * Names point into p, valid while it lives. Returns 0, or -1 with diag set
 * when a spec matches no thread. Release with af_plan_release(). */
int af_plan_make(struct af_plan *pl, const struct af_profile *p, char *const *specs,
		 size_t nspecs, struct af_diag *d);
/* Order the graphs by total, most first (ties by thread id). */
void af_plan_by_total(struct af_plan *pl);
void af_plan_release(struct af_plan *pl);

/* Everything that af_render_to() would otherwise compute lazily in the tree
 * (name ranks, the "all" name), so that threads can then share it. */
void af_plan_prepare_tree(struct af_tree *t);

/* Whether p is a capture of Android code that Android Studio would colour
 * (ART, simpleperf; perf.data, Perfetto samples or heaps and other sampled
 * profiles whose frames name Android's runtime, paths or framework); not
 * folded stacks, atrace or Perfetto slices. */
bool af_android_capture(const struct af_profile *p);

/* The palette for p unless one was chosen: Android Studio's (android) for
 * Android captures, else as it is (hot for folded stacks and Linux perf).
 * With android and no app package given, the app's package from the
 * recording (simpleperf names it) or guessed (af_palette_guess_app): *app
 * then holds it (caller frees; NULL if none is set). */
void af_palette_for(struct af_palette_opts *o, const struct af_profile *p, char **app);

/* The default subtitle of an input: "file · clock · unit" for a profile
 * with a clock, "file · what is measured" with a measure, "file · event ·
 * unit" with an event, else "file · count_name" (folded stacks: "samples",
 * or --countname's; count_name NULL: the profile's unit). The file is
 * "standard input" for "-"; for several captures "file + N more · M
 * captures" (or "average of M captures"). */
void af_default_subtitle(struct af_buf *b, const char *input, const struct af_profile *p,
			 const char *count_name);

/* Append s reduced to [A-Za-z0-9._-]: every run of other bytes becomes one
 * '_', no leading '.', at most 64 bytes; "thread" if nothing is left. */
void af_safe_name(struct af_buf *b, const char *s, size_t len);
/* Make the strings *names[0..n) distinct by adding "-2", "-3"... before
 * the last '.' (or at the end) of repeats; repeats are freed and replaced. */
void af_make_distinct(char ***names, size_t n);

#endif
