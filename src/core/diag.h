/* diag.h: the first error of a run, with where it happened.
 * Parsers and renderers never print and never exit: they fill a struct
 * af_diag and return -1. The first error wins (later ones would only be
 * consequences); main() prints it as one line and exits 1. */
#ifndef AF_DIAG_H
#define AF_DIAG_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

enum af_where { AF_WHERE_NONE, AF_WHERE_OFFSET, AF_WHERE_LINE };

struct af_diag {
	const char *source;    /* file name as the user gave it ("-" = stdin) */
	enum af_where where;
	uint64_t offset;       /* byte offset, AF_WHERE_OFFSET */
	uint64_t line;         /* 1-based line, AF_WHERE_LINE */
	unsigned col;          /* 1-based column or 0 */
	bool set;
	char msg[240];
};

void af_diag_init(struct af_diag *d, const char *source);

/* Record an error at a byte offset, a line, or with no position.
 * Does nothing if an error is already recorded. Always returns -1. */
int af_diag_offset(struct af_diag *d, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int af_diag_line(struct af_diag *d, uint64_t line, unsigned col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int af_diag_error(struct af_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* An error about another file than d's source (the output, say): the same
 * rule, and if it is the first, the message names `source` instead, which
 * must then live as long as d is read. */
int af_diag_error_in(struct af_diag *d, const char *source, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Format "source: offset 0x1a2c: message" (no program name, no newline). */
void af_diag_format(const struct af_diag *d, char *out, size_t size);

#endif
