/* options.h: the option table of the main command, one entry an option (git's
 * parse-options is the model): its long and short name, its value's name,
 * its help text and what it sets. cli.c parses argv through it; --help and
 * the completion helper (contrib/aflame-render.bash-completion asks
 * `aflame-render --completion-helper`) print it. docs/design.md, "Adding an
 * option", says how to add one. */
#ifndef AF_OPTIONS_H
#define AF_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "cli.h"

struct af_option;
typedef void af_option_fn(struct af_cli *o, const struct af_option *opt, const char *arg);

/* What an option does with its value (or, without one, when given). */
enum af_opt_kind {
	AF_OPT_TRUE,     /* bool field (and field2, if any) = true */
	AF_OPT_TEXT,     /* const char * field = the value */
	AF_OPT_NUMBER,   /* double field = the value, a number from min to max */
	AF_OPT_CALL,     /* fn(o, opt, value): anything else */
	AF_OPT_IGNORED,  /* accepted and ignored (flamegraph.pl's --random) */
};

/* What the completion offers for the option's value. */
enum af_opt_complete {
	AF_COMPLETE_NOTHING,   /* free text or a number */
	AF_COMPLETE_FILE,      /* any file */
	AF_COMPLETE_DIR,       /* a directory */
	AF_COMPLETE_WORDS,     /* the words words() lists */
	AF_COMPLETE_OUTPUT,    /* a file with one of the extensions words() lists */
	AF_COMPLETE_CHARSET,   /* a character set iconv knows */
};

#define AF_OPT_NO_FIELD ((size_t)-1)

struct af_option {
	const char *name;        /* long name, lower case, without "--" */
	char short_name;         /* 0: none */
	const char *arg;         /* its value's name in --help ("FILE"); NULL: none */
	/* --help's text: lines broken with '\n' (each indented to the text's
	 * column), "@READERS@" and "@OUTPUTS@" replaced by the input and output
	 * formats' names; NULL: shown on the line of the entry before ("--from
	 * T, --to T"). */
	const char *help;
	/* the rest is named in each entry (the macros of options.c) */
	enum af_opt_kind kind;
	size_t field, field2;    /* offsetof(struct af_cli, ...); AF_OPT_NO_FIELD */
	double min, max;         /* AF_OPT_NUMBER's range */
	af_option_fn *fn;        /* AF_OPT_CALL */
	int aux;                 /* for fn: e.g. which regex */
	enum af_opt_complete complete;
	const char *(*words)(void); /* space-separated: values or extensions */
	bool hidden;             /* not in --help (the completion helper) */
};

/* The table, in --help's order, ended by an entry without a name. */
extern const struct af_option af_options[];

/* Set what opt sets from arg (NULL for an option without a value); exits
 * with a usage error when the value is not one it takes. */
void af_option_apply(struct af_cli *o, const struct af_option *opt, const char *arg);

/* The whole --help text, options from the table. */
void af_options_help(FILE *out);
/* The usage line(s) alone, for the error of a run without input. */
void af_options_usage_line(FILE *out);

/* One line on stderr, the --help hint, exit 2. */
_Noreturn __attribute__((format(printf, 1, 2))) void af_usage_error(const char *fmt, ...);

/* Checked numbers for the options' values (usage errors otherwise). */
double af_opt_number(const char *opt, const char *s, double min, double max);
double af_opt_whole(const char *opt, const char *s, double min, double max);

#endif
