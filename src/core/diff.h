/* diff.h: comparing two runs (--diff BEFORE AFTER). The first run's call
 * tree is merged into the second's as `before` weights (tree.h), path by
 * path, so the second run's tree then holds both and every back end draws
 * it as a differential graph: widths from the second run, colours from the
 * change.
 *
 * Threads and processes are matched by name, never by id (ids differ
 * between runs): the k-th thread called "main" of the first run goes with
 * the k-th thread called "main" of the second (within processes matched
 * the same way for atrace). Below them, frames are matched by name.
 *
 * Work that only the first run did would have zero width in the second
 * run's graph. It is copied into a band of its own, the last child of the
 * graph's root, labelled "removed: only in FILE", its frames at full before
 * width with their callers as grey context: removed work stays visible and
 * its size comparable (see docs/diff.md). */
#ifndef AF_DIFF_H
#define AF_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "diag.h"
#include "profile.h"

struct af_diff_opts {
	bool normalize;          /* scale the first run's weights to the second's
				    total (difffolded.pl -n) */
	const char *before_name; /* the first run's file, for the band's label */
};

struct af_diff {
	uint8_t *kinds;          /* per node of the merged tree: enum af_frame_kind
				    (layout.h); nkinds entries */
	size_t nkinds;
	uint8_t *excluded;       /* the second run's exclusions, grown to every
				    node (new nodes are drawn) */
	uint32_t band;           /* the removed band's node, AF_NONE if nothing
				    was removed */
	uint64_t before_total;   /* weight of the first run's selection (after
				    normalising) */
	uint64_t before_raw;     /* ... before normalising */
	uint64_t after_total;    /* weight of the second run's selection */
	uint64_t removed_total;  /* before weight of the removed band */
	uint64_t removed_stacks; /* distinct stacks with weight in the band */
	uint32_t largest_removed;/* the heaviest removed call (a node of the
				    band, below its callers), AF_NONE if none */
};

/* Give both profiles the same number of decimals (folded counts may have
 * some): the one with fewer is scaled up. Returns 0, or -1 with diag set if
 * a weight would overflow. */
int af_diff_match_decimals(struct af_profile *before, struct af_profile *after,
			   struct af_diag *d);

/* Merge the subtree at root1 of `before` (skipping excl1 nodes; excl1 may be
 * NULL) into the subtree at root2 of `after` (excl2, which has after's node
 * count of bytes or is NULL), add the removed band, and fill df. `after`'s
 * tree gains nodes; df->excluded then has a byte for each of them. Returns
 * 0, or -1 with diag set (an input that is itself a differential or a flame
 * chart). Release df with af_diff_release(). */
int af_diff_merge(struct af_diff *df, struct af_profile *after, uint32_t root2,
		  const uint8_t *excl2, const struct af_profile *before, uint32_t root1,
		  const uint8_t *excl1, const struct af_diff_opts *o, struct af_diag *d);
void af_diff_release(struct af_diff *df);

/* Two-count folded stacks of the comparison, "a;b;c before after", one line
 * per stack with weight in either run, in byte order (difffolded.pl's
 * output, ready for flamegraph.pl). The band is left out: its stacks are
 * the lines whose after count is 0. Returns 0, or -1 if the sink failed. */
struct af_sink;
int af_diff_write_folded(struct af_tree *t, uint32_t root, const struct af_diff *df,
			 unsigned decimals, struct af_sink *out);

#endif
