/* input.h: an input file in memory. Regular files are mapped (no copy);
 * standard input and pipes are read into a buffer. */
#ifndef AF_INPUT_H
#define AF_INPUT_H

#include "read.h"

struct af_mapped {
	struct af_input in;
	void *map;          /* mmap'd region, or NULL */
	size_t map_len;
	unsigned char *heap;/* malloc'd copy, or NULL */
};

/* Load path ("-" = stdin). Returns 0, or -1 with diag set. */
int af_input_load(struct af_mapped *m, const char *path, struct af_diag *d);
void af_input_release(struct af_mapped *m);

#endif
