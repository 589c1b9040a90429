/* serve_load.c: af_serve_main for the program: opens aflame-render-serve.so
 * (module.h) and runs the service's own, so that only `serve` loads
 * libmicrohttpd and gnutls. */
#include "core/module.h"
#include "serve/serve.h"

#include <limits.h>
#include <stdio.h>

int af_serve_main(int argc, char **argv)
{
	char err[PATH_MAX + 300];
	const struct af_serve_entry *e = (const struct af_serve_entry *)af_module_open(
		AF_SERVE_MODULE, AF_SERVE_ENTRY, AF_SERVE_ABI, sizeof *e, "serve needs", err, sizeof err);
	if (!e) {
		fprintf(stderr, "aflame-render: %s\n", err);
		return 1;
	}
	return e->main(argc, argv);
}
