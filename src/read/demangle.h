/* demangle.h: native function names as people read them. C++ (Itanium ABI)
 * names are demangled by libiberty, the demangler binutils and gdb use;
 * anything else is left as it is. */
#ifndef AF_DEMANGLE_H
#define AF_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>
#include "core/buf.h"

/* Append the demangled form of name[0, len) to out and return true; false
 * (nothing appended) when name is not a mangled C++ name or does not
 * demangle. Names longer than AF_DEMANGLE_MAX are not tried. */
bool af_demangle(const char *name, size_t len, struct af_buf *out);

#define AF_DEMANGLE_MAX 4096

#endif
