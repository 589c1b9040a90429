/* merge.h: several captures as one profile (`aflame-render a.trace b.trace`,
 * and each side of `--diff A1 A2 -- B1 B2`): another capture's call tree
 * added into a profile, threads and processes matched by name as --diff
 * matches them (the k-th thread called "main" of one capture goes with the
 * k-th of the other, never by id: ids differ between runs), frames below
 * them by name; self weights and calls summed. The pairing is shared with
 * the diff merge (diff.h). */
#ifndef AF_MERGE_H
#define AF_MERGE_H

#include <stdint.h>
#include "diag.h"
#include "profile.h"

/* A node of `first` that is a thread or process with no partner in
 * `second` (af_profile_pair). */
#define AF_PAIR_UNMATCHED (AF_NONE - 1)

/* For each node of first: its partner among second's thread and process
 * nodes, AF_PAIR_UNMATCHED, or AF_NONE for a node that is neither thread
 * nor process. Nodes excluded (excl, may be NULL) are left out on either
 * side. The caller frees the array. */
uint32_t *af_profile_pair(const struct af_profile *first, const uint8_t *excl1,
			  const struct af_profile *second, const uint8_t *excl2);

/* Give both profiles the same number of decimals: the one with fewer is
 * scaled up. 0, or -1 with diag set if a weight would overflow. */
int af_profile_match_decimals(struct af_profile *a, struct af_profile *b, struct af_diag *d);

/* Add the capture src into dst (src may have its decimals raised to dst's,
 * or dst to src's). dst->captures counts the captures in it. Returns 0, or
 * -1 with diag set: flame charts (time order) and comparisons are not
 * summed, nor are captures of different units. */
int af_profile_merge(struct af_profile *dst, struct af_profile *src, struct af_diag *d);

/* Divide every weight and call count by n (captures averaged): exactly
 * when every weight divides, else with two more decimals (rounded). 0, or
 * -1 with diag set. */
int af_profile_average(struct af_profile *p, unsigned n, struct af_diag *d);

#endif
