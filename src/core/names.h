/* names.h: frame names as they appear in every output. A frame name never
 * contains ';' (the folded-stack separator) or control characters, and is
 * at most AF_NAME_MAX bytes (a longer one is cut at a UTF-8 boundary and
 * ends in "..."), so one hostile name cannot blow up every output. */
#ifndef AF_NAMES_H
#define AF_NAMES_H

#include <stddef.h>
#include "buf.h"

#define AF_NAME_MAX 4096

/* How many bytes of a too-long name to keep before "...": at most
 * AF_NAME_MAX - 3, never splitting a UTF-8 sequence. */
size_t af_name_cut(const char *s, size_t len);

/* Append s to b with ';' made ':' and control characters made '?'. */
void af_name_append(struct af_buf *b, const char *s, size_t len);
/* Cut b (holding a name from byte `from` on) to AF_NAME_MAX bytes. */
void af_name_finish(struct af_buf *b, size_t from);

/* A thread's or process's root frame, "name (id)", into b (replacing what
 * it held): the name cleaned as every frame name is, fallback-id when the
 * name is empty (fallback NULL: the empty name). */
void af_name_root(struct af_buf *b, const char *name, size_t len, const char *fallback, uint64_t id);

/* Java: "a/b/C" or "a.b.C" as "a.b.C". */
void af_name_append_class(struct af_buf *b, const char *s, size_t len);
/* "(Ljava/lang/String;[II)V" as "(String, int[], int)": parameter types
 * only, simple class names, as Android Studio shows them. An unparsable
 * descriptor is appended as it is (sanitised). */
void af_name_append_params(struct af_buf *b, const char *sig, size_t len);
/* "(I)Ljava/lang/String;" as ": String", the return type after the
 * parameters (method profiles tell bridge methods apart by it); nothing if
 * the descriptor has no well-formed return type. */
void af_name_append_return(struct af_buf *b, const char *sig, size_t len);

#endif
