/* input.h: an input file in memory. Regular files are mapped (no copy),
 * their descriptor kept open for af_window (read.h); standard input and
 * pipes are read into a buffer. */
#ifndef AF_INPUT_H
#define AF_INPUT_H

#include "read.h"

struct af_mapped {
	struct af_input in;
	void *map;          /* mmap'd region, or NULL */
	size_t map_len;
	unsigned char *heap;/* malloc'd copy, or NULL */
};

/* The default of --max-input-size: larger than any trace we have seen,
 * small enough that /dev/zero or an endless pipe stops with a message. */
#define AF_INPUT_MAX_DEFAULT ((uint64_t)8 << 30)

/* Load path ("-" = stdin). An input longer than max bytes (a regular file,
 * or a pipe, FIFO or device read to its end) is refused, as is one whose
 * buffer cannot be allocated. Returns 0, or -1 with diag set. */
int af_input_load(struct af_mapped *m, const char *path, uint64_t max, struct af_diag *d);
void af_input_release(struct af_mapped *m);

#endif
