/* demangle.c: af_demangle over libiberty's cplus_demangle. */
#include "demangle.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>
#include <libiberty/demangle.h>

bool af_demangle(const char *name, size_t len, struct af_buf *out)
{
	if (len < 3 || len > AF_DEMANGLE_MAX || name[0] != '_' || name[1] != 'Z')
		return false;
	char z[AF_DEMANGLE_MAX + 1];
	memcpy(z, name, len);
	z[len] = 0;
	/* DMGL_PARAMS: "f(int)", as perf and simpleperf show native frames */
	char *d = cplus_demangle(z, DMGL_PARAMS | DMGL_ANSI);
	if (!d)
		return false;
	af_buf_puts(out, d);
	free(d);
	return true;
}
