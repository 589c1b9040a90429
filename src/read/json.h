/* json.h: JSON for the readers of JSON formats (Chrome trace events,
 * .cpuprofile, DevTools snapshots): a scanner of the whole input that calls
 * a reader back as yajl's streaming parser does (the same yajl_callbacks,
 * at the same tokens, with the same text), because yajl itself cost 66% of
 * the instructions of reading a Chrome trace. yajl (Debian libyajl-dev,
 * linked statically: libyajl_s.a) still decodes strings with escapes and
 * reads again text that is not JSON, for its message and offset. A
 * callback's refusal (af_json_fail) stops the scan. Numbers are handed over
 * as text; af_json_ns and af_json_int read them. Strings are not checked
 * for UTF-8: names are cleaned where they land (core/names.h,
 * core/escape.h). */
#ifndef AF_JSON_H
#define AF_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <yajl/yajl_parse.h>
#include "read.h"

struct af_json_ints;

struct af_json {
	char fail[160];        /* a callback's refusal, "" when none */
	bool failed;
	uint64_t depth;        /* containers open now: the reader's count */
	/* af_json_take_ints: the array asked for, one given back */
	const struct af_json_ints *take;
	bool given_back;
	/* the scanner's: its containers (1 an object), and yajl decoding a
	 * string with escapes into dec_s */
	uint8_t *stack;
	size_t cap_stack;
	yajl_handle dec;
	const unsigned char *dec_s;
	size_t dec_n;
};

/* An array of integers read without yajl (af_json_take_ints): ints gets
 * them a batch at a time; undo drops all it got for this array. */
struct af_json_ints {
	void (*ints)(void *ctx, const int64_t *v, size_t n);
	void (*undo)(void *ctx);
};

/* Parse in with callbacks cb (all nine of yajl's that take text; ctx: the
 * reader's, which must begin with a struct af_json). Returns 0 when the
 * whole input was one JSON value (with whitespace around it), 1 when the
 * input ended inside the value (the caller decides whether that is
 * acceptable; a number the input ends with is called back first, as yajl
 * does), -1 with diag set for text that is not JSON (yajl's message and
 * offset) or a refusal. */
int af_json_parse(struct af_json *j, const struct af_input *in, const yajl_callbacks *cb,
		  struct af_diag *d);

/* Refuse the input: the parse stops, and af_json_parse reports msg at the
 * offset just past the token called back (where yajl stopped). Returns 0
 * (a callback's "stop"). */
int af_json_fail(struct af_json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* From a start_array callback, for an array that is a member of the
 * top-level object: returns true if the array is taken (the callback then
 * returns 0, and nothing else; the array's end is not called back). A
 * long array of integers (a .cpuprofile's samples and timeDeltas, most of
 * its bytes) is read to t->ints a batch at a time, not a callback each,
 * and the scan goes on past its ']'. An array holding anything but
 * integers of up to 18 digits (no fraction or exponent), commas and JSON's
 * blanks, or cut short, is given back: t->undo is called, then the scan
 * reads the array from its '[' (the start_array callback comes again, and
 * this returns false), so that values and errors are as for any array. */
bool af_json_take_ints(struct af_json *j, const struct af_json_ints *t);

/* A decimal number of microseconds ("12", "-3.5", "1.2e3", with or without
 * quotes' contents) as nanoseconds, rounded. False if it is not a number or
 * is beyond ±2^62 ns. */
bool af_json_ns(const char *s, size_t n, int64_t *ns);
/* A decimal integer (an id, a count); a fraction is dropped. False if it is
 * not a number or does not fit in 63 bits. */
bool af_json_int(const char *s, size_t n, int64_t *v);

#endif
