/* read.h: the front ends. Each reads one whole input (already in memory,
 * usually mapped) into a profile, and shares one signature so main() can
 * pick one from a table. On bad input a reader returns -1 with diag set and
 * leaves the profile for the caller to release. */
#ifndef AF_READ_H
#define AF_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "profile.h"
#include "diag.h"

enum af_clock { AF_CLOCK_DEFAULT, AF_CLOCK_WALL, AF_CLOCK_CPU };

struct af_read_opts {
	enum af_clock clock;   /* ART: which time to weigh frames by */
	bool signatures;       /* ART: append parameter types to frame names */
	bool returns;          /* ART: and the return type, ": int" (reports) */
	bool strict;           /* folded: a malformed line is an error */
	bool info_only;        /* --info: a file with nothing to draw is not an error */
	bool reverse;          /* folded: frames of each stack in reverse order
				  (flamegraph.pl --reverse) */
	bool mark_wakers;      /* folded: frames after the first "--" frame get
				  "_[w]" (flamegraph.pl --colors chain) */
	bool timeline;         /* flame chart: ART every call its own node at its
				  entry time; folded: input order, consecutive
				  identical stacks merged (flamegraph.pl --flamechart) */
	bool window;           /* keep only the time in [from, to) (µs; ART wall:
				  since the trace start, cpu: since the thread's
				  first event; atrace: since the capture's first
				  event), clipping frames to it */
	uint64_t from, to;
	bool async;            /* atrace: draw async slices (S/F, G/H), not threads */
};

struct af_input {
	const uint8_t *data;
	size_t len;
	const char *name;      /* for messages */
	bool mapped;           /* data is a read-only file mapping (input.c) */
};

/* The reader is done with data[0, upto): a mapped input's pages there stop
 * counting towards memory (a later read faults them in again from the page
 * cache, with the same bytes). Keeps peak memory to the tree, not the file,
 * for inputs larger than RAM would like. Cheap; call every few MiB. */
void af_input_consumed(const struct af_input *in, size_t upto);

/* How often readers call af_input_consumed(), in bytes. */
#define AF_INPUT_CONSUME_STEP ((size_t)16 << 20)

enum af_format { AF_FORMAT_AUTO, AF_FORMAT_ART, AF_FORMAT_FOLDED, AF_FORMAT_ATRACE };

typedef int af_reader_fn(struct af_profile *p, const struct af_input *in,
			 const struct af_read_opts *o, struct af_diag *d);

af_reader_fn af_read_art;
af_reader_fn af_read_folded;
af_reader_fn af_read_atrace;

/* How much the bytes look like an atrace/systrace capture: 2 surely (gzip,
 * zlib, TRACE:, HTML, "# tracer", an ftrace event line), 1 maybe (JSON, to
 * be refused with a clear message if it holds no ftrace text), 0 not. */
int af_atrace_sniff(const struct af_input *in);

/* Tell the format from the first bytes. Returns AF_FORMAT_AUTO when the
 * input is not something we read, with diag set to say what it is. */
enum af_format af_detect_format(const struct af_input *in, struct af_diag *d);

/* Read `in` with the reader for `fmt` (detected when AF_FORMAT_AUTO). A
 * file with nothing to draw is an error that says so (unless info_only). */
int af_read(struct af_profile *p, const struct af_input *in, enum af_format fmt,
	    const struct af_read_opts *o, struct af_diag *d);

#endif
