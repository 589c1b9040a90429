/* module.h: parts of the program kept in shared objects and opened on first
 * use, so a run that does not need their libraries never loads them
 * (issue 19): aflame-render-cairo.so (cairo, pango: cairo_module.h) and
 * aflame-render-serve.so (libmicrohttpd, gnutls: serve.h). Each exports one
 * entry, a struct that starts with struct af_module_head; everything else
 * in it is hidden, and it takes the rest of the program from the executable
 * that loads it (linked with --export-dynamic).
 *
 * The one search path: beside the running binary (the build tree, or any
 * copy moved with its modules), then AF_MODULE_DIR ($(PREFIX)/lib/
 * aflame-render, where make install puts them). */
#ifndef AF_MODULE_H
#define AF_MODULE_H

#include <stddef.h>

struct af_module_head {
	unsigned abi;     /* the entry's interface number, bumped on change */
	unsigned size;    /* sizeof the entry struct */
};

/* The entry `symbol` of module `file`, checked against abi and size; NULL
 * with a one-line message in err when it is missing (needed_for, e.g.
 * "serve needs", then the places looked in), unloadable or from another
 * build. */
const struct af_module_head *af_module_open(const char *file, const char *symbol, unsigned abi,
					    size_t size, const char *needed_for, char *err,
					    size_t err_size);

#endif
