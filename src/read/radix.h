/* radix.h: a stable sort of 64-bit keys by their high 32 bits, for putting
 * events gathered in file order into time order (read_perfetto.c): the high
 * half is the time since the earliest, the low half whose it is (its index),
 * so equal times keep file order. */
#ifndef AF_RADIX_H
#define AF_RADIX_H

#include <stddef.h>
#include <stdint.h>

/* Sort a[0..n) by a[i] >> 32, stably, where no key's high half is above
 * max; tmp has room for n keys. Returns the sorted array: a or tmp (the
 * other one is scratch). Linear: a count and a scatter pass per digit of
 * up to 12 bits that max has (two for times within 16 ms in ns). */
uint64_t *af_radix_sort_high(uint64_t *a, uint64_t *tmp, size_t n, uint32_t max);

#endif
