/* art.h: state shared by the ART method-trace readers: legacy files
 * (read_art.c), V1 streaming (read_art_stream.c) and V2 (read_art_v2.c) fill
 * the same method and thread tables and fold events through art_event, so
 * the stack rules of docs/semantics.md hold for every variant. Internal to
 * the ART front end. Reference: shared/docs/art-trace-format.md. */
#ifndef AF_ART_H
#define AF_ART_H

#include <stdint.h>
#include <stdbool.h>
#include "read.h"
#include "core/buf.h"
#include "core/fold.h"
#include "core/idmap.h"

/* A method as listed (text line, streaming op 1, V2 method-info). Strings
 * point into the input; the frame name is interned on first use. */
struct art_method {
	uint64_t id;             /* method word with the action bits cleared */
	const char *cls, *name, *sig;
	uint32_t cls_len, name_len, sig_len;
	uint32_t frame;          /* interned frame name, AF_NONE until used */
	bool unknown;            /* referenced by records but never listed */
};

struct art_listed_thread {
	uint64_t id;
	const char *name;
	uint32_t name_len;
	bool at_first_event;     /* streaming op 2 / V2 thread info: the name at
				  * the thread's first event, with the record id */
};

struct art_thread {
	uint64_t record_id;      /* thread id as the records give it */
	size_t index;            /* in profile->threads */
	struct af_fold_thread fold;
	uint32_t last_raw;       /* previous raw 32-bit time on the chosen clock */
	uint64_t high;           /* wrap-arounds seen, times 2^32 */
	bool seen;
	uint64_t same_time;      /* events stamped like the previous one */
	uint32_t ngaps;          /* gaps sampled into art.gaps */
};

/* Gaps between distinct timestamps kept to estimate a sampling interval:
 * the first ART_GAPS_PER_THREAD of each thread, ART_GAPS_MAX in all. */
enum { ART_GAPS_PER_THREAD = 256, ART_GAPS_MAX = 16384 };

struct art {
	struct af_profile *p;
	const struct af_input *in;
	const struct af_read_opts *o;
	struct af_diag *d;
	struct af_fold fold;
	struct art_method *methods;
	size_t nmethods, cap_methods;
	struct af_idmap method_ids;  /* method id -> methods[] index */
	/* direct-mapped cache in front of method_ids: the few thousand methods a
	 * trace really calls stay in L1/L2 instead of a probe each */
	struct art_method_cache { uint64_t id; uint32_t index; } *mcache;
	struct art_listed_thread *listed;
	size_t nlisted, cap_listed;
	/* listed[] indexed for art_thread_for, so a trace listing 100k threads
	 * is not a scan per new thread: id -> first entry (by at_first_event),
	 * and id & record mask -> first entry not at a first event. Built up to
	 * listed_indexed lazily; rebuilt if record_id_bits changes. */
	struct af_idmap listed_exact[2], listed_trunc;
	size_t listed_indexed;
	unsigned listed_bits;
	struct art_thread *threads;  /* one per thread with events */
	size_t nthreads, cap_threads;
	struct af_idmap thread_ids;  /* record thread id -> threads[] index */
	unsigned record_id_bits; /* 8 (v1) or 16 */
	bool use_wall;           /* weigh by wall clock (else thread-cpu) */
	bool relist_ok;          /* a method listed again is expected (streaming
				  * summary of ART >= 2023 repeats op-1 lines) */
	uint64_t unknown_methods, unknown_threads, action3, records;
	uint64_t *gaps;          /* ART_GAPS_MAX, allocated on first use */
	size_t ngaps;
	struct af_buf scratch;
};

void art_init(struct art *a, struct af_profile *p, const struct af_input *in,
	      const struct af_read_opts *o, struct af_diag *d);
void art_release(struct art *a);

/* Add a listed method; false (diag not set) if the id is already listed. */
bool art_add_method(struct art *a, const struct art_method *m);
/* Index of the method with this id, adding an "unknown" one if not listed. */
uint32_t art_method_index(struct art *a, uint64_t id);
/* Frame name of method i, interned on first use. */
uint32_t art_method_frame(struct art *a, uint32_t i);

/* A method line's fields after the id: "class\tname\tsignature[\tsource...]"
 * (a trailing "\n" is ignored); false if there is no class. The strings
 * point into s. */
bool art_method_fields(const char *s, size_t n, struct art_method *m);
/* A whole method line "id\tclass\tname\tsignature..." (id in hex, "0x"
 * optional); false if malformed. m->id is the id as written: callers check
 * that it fits in 32 bits, then clear the action bits. */
bool art_method_line(const char *s, size_t n, struct art_method *m);

/* List a thread id with its name (which must outlive the reader). A name
 * given at_first_event (streaming op 2, V2 thread info) wins over a name from
 * a thread list for the same record id; a thread list gives the full tid. */
void art_add_listed_thread(struct art *a, uint64_t id, const char *name, size_t len,
			   bool at_first_event);
/* The state of the thread with this record id, created on its first event. */
struct art_thread *art_thread_for(struct art *a, uint64_t record_id);

/* Decide the clock from the file's clock and the user's choice; -1 with
 * diag set when the user asked for a clock the file does not have. */
int art_choose_clock(struct art *a, bool has_wall, bool has_cpu, const char *file_clock);

/* Fold one event (method word = id | action) at a time on the chosen clock;
 * wraps: the time is a raw 32-bit field to unwrap (V1), else 64-bit (V2). */
void art_event(struct art *a, struct art_thread *th, uint64_t word, uint64_t time, bool wraps);

/* Parse the text key section from `pos` ("*version\n..." up to and
 * including "*end\n"); sets *end_pos to the byte after it. Used for legacy
 * files and for streaming summaries (which may list threads and methods). */
int art_parse_text(struct art *a, const uint8_t *data, size_t len, size_t base,
		   size_t *end_pos, int *version);

/* Quote at most 60 bytes of s for a message: control and non-ASCII bytes
 * become '?', so a message stays one printable line. Returns out. */
const char *art_quote(char *out, size_t size, const char *s, size_t n);

/* After art_parse_text failed on a text embedded in a binary item (a
 * streaming summary, a V2 summary packet): report the item's byte offset,
 * with the line within the text, instead of a file line number. */
int art_text_error_at(struct art *a, size_t offset, const char *what);

/* Close open frames, record thread facts and warnings in the profile. */
void art_finish(struct art *a);

/* The variant readers, called by read_art once the magic and version say
 * which one it is; -1 with diag set on bad input. */
int art_read_stream(struct art *a);
int art_read_v2(struct art *a);

#endif
