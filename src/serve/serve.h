/* serve.h: `aflame-render serve`, the AFlame web service in this binary:
 * upload a trace in a browser, get every thread's flame graph at a link
 * named by the file's SHA-256. Built on libmicrohttpd; see docs/serve.md. */
#ifndef AF_SERVE_H
#define AF_SERVE_H

/* Run the subcommand: argv[0] is "serve", the rest its options. Parses
 * them (usage errors exit 2), serves until SIGINT or SIGTERM and returns
 * the process exit status: 0 after a clean stop, 1 if it could not start. */
int af_serve_main(int argc, char **argv);

/* The service lives in a module (module.h), aflame-render-serve.so, so that
 * libmicrohttpd, gnutls and theirs load only for `serve`: serve_load.c
 * defines af_serve_main in the program and calls the module's. */
#include "core/module.h"

#define AF_SERVE_MODULE "aflame-render-serve.so"
#define AF_SERVE_ENTRY "af_serve_entry"
#define AF_SERVE_ABI 1   /* bumped when the entry changes */

struct af_serve_entry {
	struct af_module_head head;   /* AF_SERVE_ABI */
	int (*main)(int argc, char **argv);
};

#endif
