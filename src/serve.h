/* serve.h: `aflame-render serve`, the AFlame web service in this binary:
 * upload a trace in a browser, get every thread's flame graph at a link
 * named by the file's SHA-256. Built on libmicrohttpd; see docs/serve.md. */
#ifndef AF_SERVE_H
#define AF_SERVE_H

/* Run the subcommand: argv[0] is "serve", the rest its options. Parses
 * them (usage errors exit 2), serves until SIGINT or SIGTERM and returns
 * the process exit status: 0 after a clean stop, 1 if it could not start. */
int af_serve_main(int argc, char **argv);

#endif
