/* ranges.h: sets of non-overlapping address ranges, each with a value, as
 * a process's memory maps are: a new range replaces what it overlaps,
 * splitting an older range it covers only part of (the kernel's mmap, and
 * simpleperf's ThreadTree::InsertMap). Every operation is O(log n)
 * expected, whatever order the ranges come in, and copying a set is O(n).
 *
 * All sets live in one pool (struct af_ranges); a set is a root index,
 * AF_NONE when empty. A treap: ordered by start, heaps by a priority drawn
 * from a keyed hash, so a file cannot choose a deep tree; its split and
 * merge are loops, not recursion. */
#ifndef AF_RANGES_H
#define AF_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct af_range {
	uint64_t start, end;   /* [start, end) */
	uint64_t pgoff;        /* file offset of start: moves with a split's start */
	uint32_t value;
	uint32_t left, right, prio, copy;
};

struct af_ranges {
	struct af_range *r;
	size_t n, cap;
	uint64_t seq;          /* feeds the priorities */
};

void af_ranges_init(struct af_ranges *rs);
void af_ranges_release(struct af_ranges *rs);

/* Insert [start, end) (start < end) into the set at *root, cutting the
 * ranges it overlaps. Pointers into the pool are invalid afterwards. */
void af_ranges_insert(struct af_ranges *rs, uint32_t *root, uint64_t start, uint64_t end, uint64_t pgoff,
		      uint32_t value);

/* The range of the set holding addr, or NULL. Valid until the next insert
 * or copy. */
const struct af_range *af_ranges_find(const struct af_ranges *rs, uint32_t root, uint64_t addr);

/* A copy of the set at root into *copy (AF_NONE if empty), with *n its
 * ranges; false if it has more than limit: nothing copied, *n = limit + 1
 * ranges looked at. */
bool af_ranges_copy(struct af_ranges *rs, uint32_t root, size_t limit, uint32_t *copy, size_t *n);

/* The set's ranges in address order into *out (grown with af_grow; *cap
 * its capacity), *n of them; false as af_ranges_copy() past limit. */
bool af_ranges_list(const struct af_ranges *rs, uint32_t root, size_t limit, struct af_range **out, size_t *cap,
		    size_t *n);

#endif
