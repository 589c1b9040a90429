/* label.h: the text drawn on a frame, and its colour. One function for every
 * back end (the SVG's labels, cairo's PNG, PDF and static SVG); the page's
 * script has its twin in src/render/page/label.js, held to the same output
 * by tests/suites/labels.sh.
 *
 * A name too long for its frame keeps what identifies the frame. The cuts,
 * in order, until the label fits in the room given (in code points):
 *   1. a C++ or Java parameter list becomes "(…)", then template arguments
 *      "<…>" (foo<int>::bar(int, char) -> foo<…>::bar(…));
 *   2. leading qualifiers go: a path's directories (the file name stays,
 *      also for Dalvik descriptors Lcom/foo/Bar;.m -> Bar;.m), C++
 *      namespaces down to the last two names (a::b::C::m -> C::m), a dotted
 *      name's package up to its class, the first part that starts with a
 *      capital (com.foo.Bar$Inner.run -> Bar$Inner.run);
 *   3. a file's offset (libc.so+0x1f2 -> libc.so+0x…, [k][+ffee] -> [k][+…]);
 *   4. an ellipsis: at the left for qualified names (…Inner.run, the end
 *      stays), in the middle for files and plain names.
 * An ellipsis is U+2026. AF_LABEL_RIGHT is flamegraph.pl's cut instead: the
 * name's first room - 2 code points and "..".
 *
 * Code points are as core/escape.h decodes them (invalid bytes are U+FFFD),
 * which is what the page's script sees in its names. */
#ifndef AF_LABEL_H
#define AF_LABEL_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"

enum af_label_cut { AF_LABEL_SMART, AF_LABEL_RIGHT };

/* Scratch space for labels, reused from one label to the next. */
struct af_labeler {
	enum af_label_cut cut;
	uint32_t *a, *b;        /* code points: the name, a cut of it */
	int32_t *match;         /* each bracket's partner */
	size_t cap;
	struct af_buf text;     /* the last label, UTF-8 */
};

void af_labeler_init(struct af_labeler *lb, enum af_label_cut cut);
void af_labeler_release(struct af_labeler *lb);

/* The label of a frame called name (len bytes) in at most room code points
 * (room >= 1), as UTF-8 in lb->text (valid until the next call); returns its
 * length in code points: 0 (no label) when the smart cut would keep fewer than
 * AF_LABEL_MIN_KEPT characters besides its ellipses (flamegraph.pl's cut
 * draws "a.."). */
enum { AF_LABEL_MIN_KEPT = 3 };
size_t af_label(struct af_labeler *lb, const char *name, size_t len, size_t room);

/* flamegraph.pl's annotations ("_[k]" kernel, "_[j]" JIT, "_[i]" inlined,
 * "_[w]" waker) choose a colour and are not shown: the length of name
 * without one. */
size_t af_label_shown_len(const char *name, size_t len);

/* The colour of text on a frame of colour bg (0xRRGGBB): black or white,
 * whichever contrasts more (WCAG 2 contrast ratio; either is at least
 * 4.58:1 against one of them, so every label is readable). */
uint32_t af_label_ink(uint32_t bg);
/* The WCAG 2 contrast ratio of two colours, 1 to 21. */
double af_contrast(uint32_t a, uint32_t b);

#endif
