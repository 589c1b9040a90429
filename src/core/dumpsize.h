/* dumpsize.h: how long the text dumps whose size can outgrow their input
 * would be, counted before a byte is written: folded stacks repeat every
 * frame's callers on its line (nested slices each with self time: 278 KB of
 * Perfetto made 96 MB), the indented tree indents by depth (one 100k-deep
 * stack: 10 GB). A writer compares the count with its limit
 * (--max-output-size) and refuses the dump whole, so no partial file is
 * left. One walk, no recursion, sums held at UINT64_MAX. */
#ifndef AF_DUMPSIZE_H
#define AF_DUMPSIZE_H

#include <stdbool.h>
#include <stdint.h>
#include "tree.h"

/* The default limit of those dumps (bytes). */
#define AF_OUTPUT_MAX_DEFAULT ((uint64_t)2 << 30)

/* Folded stacks below root ("a;b;c count\n" for each node with self weight
 * or no children; excluded nodes and their subtrees, and the subtree at
 * skip (AF_NONE: none), left out). two_counts: "a;b;c before after\n" for
 * each node with either weight (--diff's folded output). */
uint64_t af_folded_size(const struct af_tree *t, uint32_t root, const uint8_t *excluded, uint32_t skip,
			unsigned decimals, bool two_counts);

/* The indented tree below root ("  name [T total, S self]\n", two blanks a
 * level below the first), tot: the inclusive weights (af_tree_totals). */
uint64_t af_tree_dump_size(const struct af_tree *t, uint32_t root, const uint8_t *excluded,
			   const uint64_t *tot, unsigned decimals);

#endif
