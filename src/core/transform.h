/* transform.h: transforms of the call tree between thread selection and
 * layout, so every back end, the report and --format folded see them.
 *
 * They apply in one fixed order (docs/transforms.md):
 *   1. --merge-threads   thread and process roots dissolve into the root
 *   2. --exclude, --include, --idle   drop whole stacks
 *   3. --root            re-root each stack at its outermost match
 *   4. --hide            remove matching frames (callees go to the caller)
 *   5. --collapse-recursion   a frame called directly by itself merges
 * Filters (2, 3) test the frames as read; --hide and --collapse-recursion
 * change only the shape, never the total. One pass rebuilds the tree; each
 * regex is matched once per distinct name id, never per node visit. */
#ifndef AF_TRANSFORM_H
#define AF_TRANSFORM_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "profile.h"

enum af_tx_re { AF_TX_EXCLUDE, AF_TX_INCLUDE, AF_TX_ROOT, AF_TX_HIDE, AF_TX_NRE };

struct af_transforms {
	regex_t re[AF_TX_NRE];
	const char *src[AF_TX_NRE]; /* the regex as given; NULL if unused */
	regex_t idle_re;
	bool merge_threads, idle, collapse;
};

void af_transforms_init(struct af_transforms *t);
void af_transforms_release(struct af_transforms *t);
/* Compile one regex (POSIX extended). 0, or -1 with the reason in err. */
int af_transforms_set(struct af_transforms *t, enum af_tx_re which, const char *re,
		      char *err, size_t errlen);
/* --idle: drop stacks whose leaf is a known idle frame (af_idle_frames_re). */
void af_transforms_set_idle(struct af_transforms *t);
bool af_transforms_any(const struct af_transforms *t);
/* "exclude 'x', root '^b$', hide 'a', collapse-recursion": what applies, in
 * order, for --info and the subtitle. */
void af_transforms_describe(const struct af_transforms *t, struct af_buf *b);

/* Rebuild p's tree with the transforms. *excluded (a byte per node, may be
 * NULL) and *root (AF_ROOT, a thread or a process node) are mapped onto the
 * new tree; with --merge-threads excluded subtrees are dropped and the root
 * is the tree's root. Thread and process nodes in p follow. Returns false
 * when no stack is left below *root. */
bool af_transforms_apply(const struct af_transforms *t, struct af_profile *p,
			 uint8_t **excluded, uint32_t *root);

/* The leaf frames --idle drops, as one POSIX extended regex. */
extern const char af_idle_frames_re[];

#endif
