/* nameattr.h: flamegraph.pl's --nameattr file, attributes for frames by
 * function name, one function a line:
 *
 *   name<TAB>attr=value<TAB>attr=value...
 *
 * The interactive SVG puts them on an element over each frame of that name
 * (an <a> when there is an href). Nothing from the file may run as script:
 * event handler attributes (on*), raw markup (flamegraph.pl's g_extra and
 * a_extra) and links other than http(s), mailto, ftp, file or relative ones
 * are refused when the file is read, and every value is escaped for XML
 * where it lands. */
#ifndef AF_NAMEATTR_H
#define AF_NAMEATTR_H

#include <stddef.h>
#include <stdint.h>
#include "core/diag.h"

struct af_attr {
	const char *key, *value;   /* NUL-terminated, UTF-8 as read */
};

/* The attributes of one name: keys unique (a later one wins, as in
 * flamegraph.pl's hash), in the order first seen. */
struct af_nameattr_entry {
	const char *name;
	size_t name_len;
	const struct af_attr *attrs;
	size_t nattrs;
	size_t line;               /* the file's line: later lines win */
};

struct af_nameattr {
	struct af_nameattr_entry *entries;   /* sorted by name, names unique */
	size_t n;
	char *text;                /* the file's bytes, cut into the strings */
	struct af_attr *attrs;
};

/* Parse data (a copy is kept) into na. -1 with diag set (line and what is
 * wrong) on a line without a tab or an attribute without '=', on a refused
 * attribute or link. */
int af_nameattr_parse(struct af_nameattr *na, const uint8_t *data, size_t len, struct af_diag *d);

/* The entry of the frame called name (len bytes), or NULL. */
const struct af_nameattr_entry *af_nameattr_find(const struct af_nameattr *na,
						 const char *name, size_t len);

/* The value of key in e, or NULL. */
const char *af_nameattr_get(const struct af_nameattr_entry *e, const char *key);

void af_nameattr_release(struct af_nameattr *na);

#endif
