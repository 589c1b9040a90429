/* support.h: helpers shared by the unit tests: read an input the way the
 * program does and look at the result as folded stacks, an error line, or
 * the profile's warnings. */
#ifndef AF_TEST_SUPPORT_H
#define AF_TEST_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "read/read.h"

struct read_result {
	int rc;                /* the reader's return value */
	char *folded;          /* every stack, as --format folded (NULL on error) */
	char error[300];       /* the one-line message, as main prints it */
	struct af_profile p;
};

/* Read len bytes called name with reader (NULL: detect as the program does)
 * and options o (NULL: defaults). Release with read_result_release(). */
void read_input(struct read_result *res, const void *data, size_t len, const char *name,
		af_reader_fn *reader, const struct af_read_opts *o);
void read_result_release(struct read_result *res);

/* The stacks below root as folded text; caller frees with free(). */
char *folded_below(struct af_tree *t, uint32_t root);
/* The same, leaving out nodes with excluded[node] != 0 (may be NULL). */
char *folded_skipping(struct af_tree *t, uint32_t root, const uint8_t *excluded);

/* Under the sanitizers (make check sets AFLAME_SANITIZED for the sanitized
 * build's run) every reading costs several times more: sweeps and timing
 * checks there use smaller inputs; the plain run keeps the full ones. */
bool under_sanitizers(void);

/* The warning whose text starts with prefix, or NULL. */
const struct af_warning *find_warning(const struct af_profile *p, const char *prefix);

#endif
