/* read.h: the front ends. Each reads one whole input (already in memory,
 * usually mapped; the folded reader and the Perfetto reader's streaming
 * walks take a mapped file a window at a time, af_window) into a profile,
 * and shares one signature so main() can pick one from a table. On bad
 * input a reader returns -1 with diag set and leaves the profile for the
 * caller to release. */
#ifndef AF_READ_H
#define AF_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "core/diag.h"
#include "core/profile.h"

enum af_clock { AF_CLOCK_DEFAULT, AF_CLOCK_WALL, AF_CLOCK_CPU };

/* What a heap profile's frames weigh: bytes or allocations still held at
 * the last dump, allocated, or freed (AF_HEAP_NONE: not asked for). */
enum af_heap_value {
	AF_HEAP_NONE, AF_HEAP_UNRELEASED, AF_HEAP_ALLOCATED, AF_HEAP_FREED,
	AF_HEAP_UNRELEASED_COUNT, AF_HEAP_ALLOCATED_COUNT, AF_HEAP_FREED_COUNT,
};

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
	bool cpu_samples;      /* Perfetto: draw CPU samples, not slices */
	enum af_heap_value heap; /* Perfetto: draw heap profiles, weighed by this */
	const char *event;     /* perf.data, report-sample: draw this event type
				  (--event; NULL: the first) */
	const char *encoding;  /* text input in this character set (iconv's
				  name; flamegraph.pl --encoding), made UTF-8 */
	uint64_t max_input;    /* --max-input-size: the cap the caller gives
				  af_input_load (bytes) */
};

/* One of several inputs read as one (af_read_inputs): its name and the
 * line of the whole where it starts. */
struct af_part {
	const char *name;
	uint64_t first_line;   /* 1-based */
};

struct af_input {
	const uint8_t *data;
	size_t len;
	const char *name;      /* for messages */
	bool mapped;           /* data is a read-only mapping of the whole of
				  file fd (input.c), open until it is released */
	int fd;                /* only when mapped */
	const struct af_part *parts;  /* several files concatenated, or NULL */
	size_t nparts;
};

/* The file that holds line *line of in, with *line made relative to it
 * (in->name and *line unchanged for a single file). */
const char *af_input_line_source(const struct af_input *in, uint64_t *line);

/* The reader is done with data[0, upto): a mapped input's pages there stop
 * counting towards memory (a later read faults them in again from the page
 * cache, with the same bytes). Keeps peak memory to the tree, not the file,
 * for inputs larger than RAM would like. Cheap; call every few MiB. */
void af_input_consumed(const struct af_input *in, size_t upto);

/* How often readers call af_input_consumed(), in bytes. */
#define AF_INPUT_CONSUME_STEP ((size_t)16 << 20)

/* A text reader walking a mapped input front to back, straight from the
 * mapping: the pages ahead of it are made a chunk at a time in one call
 * (MADV_POPULATE_READ, where the kernel has it: a fault per page costs more
 * on a VM), those a chunk behind it dropped (af_input_consumed), so memory
 * holds two chunks of the input, not the file. Call af_input_ahead(in, a,
 * pos) whenever pos reaches a->next; other inputs are in memory already
 * (a->next is then past the end). */
struct af_ahead {
	size_t next;       /* call again when the reader reaches this offset */
	size_t ready;      /* [.., ready) made */
	size_t dropped;    /* [0, dropped) dropped */
	bool no_populate;  /* the kernel refused MADV_POPULATE_READ: faults */
};
void af_input_ahead_init(struct af_ahead *a, const struct af_input *in);
/* The reader is at byte pos: make what follows, drop what is well behind.
 * Returns 0, or -1 with diag set when the file shrank under its mapping
 * (what a read of those pages would have made a SIGBUS). */
int af_input_ahead(struct af_ahead *a, const struct af_input *in, size_t pos, struct af_diag *d);

/* A text reader's view of its input, a window at a time. A large mapped
 * file is read() into one reused buffer instead of being touched through
 * its mapping: on a VM a page fault per mapped page costs several times
 * the copy (a 235 MB file: 110 ms of CPU mapped, 21 ms read in 256 KiB
 * pieces; issue 19). Any other input is one window holding all of it. A
 * line longer than half the buffer makes the rest of the file read through
 * the mapping, so the buffer never grows. */
struct af_window {
	const uint8_t *data;   /* input bytes [at, at + len) */
	size_t len;
	uint64_t at;
	bool buffered;         /* data is the buffer (not the input's memory) */
	const struct af_input *in;
	uint8_t *buf;
	size_t cap;
};

/* The first window of in (empty when buffered; call af_window_more). */
void af_window_init(struct af_window *w, const struct af_input *in);
/* The same from byte `from` of the input on (a binary format's section). */
void af_window_init_at(struct af_window *w, const struct af_input *in, uint64_t from);
/* Drop data[0..keep), keep the rest and add what follows it: data[keep]
 * becomes data[0]. Returns 1 if bytes were added, 0 at the end of the
 * input, -1 with diag set if the file cannot be read or has shrunk. */
int af_window_more(struct af_window *w, size_t keep, struct af_diag *d);
/* Drop the window and go on from input offset `to` (past a record that
 * was read elsewhere): af_window_more's returns. */
int af_window_seek(struct af_window *w, uint64_t to, struct af_diag *d);
void af_window_release(struct af_window *w);

typedef int af_reader_fn(struct af_profile *p, const struct af_input *in,
			 const struct af_read_opts *o, struct af_diag *d);

/* How sure a reader is, from the first bytes, that an input is its format. */
enum af_sniff { AF_SNIFF_NO, AF_SNIFF_MAYBE, AF_SNIFF_YES };

/* One input format. Each reader's file defines its descriptor; read.c lists
 * them in detection order. Detection, -f, --help, --info's format line and
 * the refusal of formats we only recognise all come from that list. */
struct af_reader {
	const char *name;      /* -f NAME, --info's format: "art" */
	const char *what;      /* in messages and --help: "an ART method trace" */
	/* on the whole input (decompressed); never reads past len */
	enum af_sniff (*sniff)(const uint8_t *data, size_t len);
	af_reader_fn *read;    /* NULL: recognised, not read: `nothing` says why */
	const char *nothing;   /* what a file with nothing to draw lacks
				  ("no method records"), or the refusal */
};

extern const struct af_reader af_reader_art;
extern const struct af_reader af_reader_atrace;
extern const struct af_reader af_reader_chrome;
extern const struct af_reader af_reader_cpuprofile;
extern const struct af_reader af_reader_folded;
extern const struct af_reader af_reader_perfdata;
extern const struct af_reader af_reader_perfetto;
extern const struct af_reader af_reader_pprof;
extern const struct af_reader af_reader_perfscript;
extern const struct af_reader af_reader_simpleperf;

/* The readers in detection order, NULL-terminated. */
extern const struct af_reader *const af_readers[];

/* The reader called name (-f), or NULL. Refused formats have none. */
const struct af_reader *af_reader_named(const char *name);

/* "art, atrace or folded": the names -f takes, for usage text. Static. */
const char *af_reader_names(void);
/* "an ART method trace, ... or folded stacks": what each reader reads,
 * for the help texts and serve's pages, so they name every format. Static. */
const char *af_reader_whats(void);

/* Tell the format from the bytes: the first reader sure of it, else the
 * first that may be it. NULL when the input is not something we read, with
 * diag set to say what it is. */
const struct af_reader *af_detect(const struct af_input *in, struct af_diag *d);

/* Read `in` with reader r (detected when NULL). A gzip or zlib input is
 * inflated first (bounded), and UTF-16 text with a byte-order mark made
 * UTF-8, so every reader reads compressed files. A file with nothing to
 * draw is an error that says so (unless info_only). Sets p->format. */
int af_read(struct af_profile *p, const struct af_input *in, const struct af_reader *r,
	    const struct af_read_opts *o, struct af_diag *d);

/* True for the names of UTF-8 (--encoding utf-8 changes nothing). */
bool af_encoding_is_utf8(const char *name);

/* Read n inputs as one, as flamegraph.pl reads several files: each is
 * inflated and made UTF-8 on its own, and must hold folded stacks (other
 * formats are not concatenated: an error naming the file); their lines
 * are then read in order as one file, messages naming the file and its own
 * line. n == 1 is af_read(). d's source is set to the file at fault. */
int af_read_inputs(struct af_profile *p, const struct af_input *ins, size_t n,
		   const struct af_reader *r, const struct af_read_opts *o, struct af_diag *d);

/* Several captures read as one profile: folded stacks as af_read_inputs()
 * reads them, any other format one capture at a time, each of the first's
 * format, merged into p (core/merge.h: threads and processes by name,
 * weights summed; p->captures says how many). read_one(ctx, q, name), if
 * given, sees each capture's profile once it is read (for its warnings;
 * folded stacks: once, the whole). n == 1 is af_read(). --info and
 * --flamechart take one capture of a format other than folded stacks. */
typedef void af_capture_fn(void *ctx, const struct af_profile *q, const char *name);
int af_read_captures(struct af_profile *p, const struct af_input *ins, size_t n,
		     const struct af_reader *r, const struct af_read_opts *o,
		     af_capture_fn *read_one, void *ctx, struct af_diag *d);

#endif
