/* serve_int.h: the parts of the serve subcommand (serve.c: options, daemon,
 * routes and pages; serve_upload.c: POST /upload; serve_jobs.c: the render
 * queue and what it writes under --data/<hash>/; serve_page.c: responses,
 * the page frame and name checks, which the others build on).
 *
 * Invariants: a hash is exactly 64 lowercase hex digits (af_serve_hash_ok)
 * before it is used in a path; files under --data/<hash>/ have fixed names
 * (af_serve_file_ok) and appear whole (output.h); rendering happens only on
 * the job workers, never on libmicrohttpd's threads. */
#ifndef AF_SERVE_INT_H
#define AF_SERVE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <microhttpd.h>
#include "sha256.h"
#include "core/buf.h"
#include "render/render.h"

#define AF_SERVE_PROG "aflame-render"

struct af_serve_opts {
	const char *bind;         /* numeric IPv4 or IPv6 address */
	unsigned port;            /* 0: any free port (printed at start) */
	const char *data;         /* --data DIR */
	unsigned jobs;            /* render workers */
	uint64_t max_upload;      /* bytes of one uploaded file */
	unsigned max_uploads;     /* uploads receiving at once */
	unsigned max_threads;     /* graphs drawn per upload */
	unsigned max_seconds;     /* time per upload: checked per file, the job killed 5 s later */
	uint64_t max_memory;      /* address space of each render, bytes; 0: no limit */
	uint64_t max_input;       /* bytes an upload may inflate to */
	uint64_t max_result;      /* bytes of files one result may write */
	uint64_t max_data;        /* bytes of results kept; 0: no limit */
	unsigned max_age;         /* days a result is kept; 0: no limit */
	unsigned request_timeout; /* seconds for a request's headers, and the grace
				     before --min-rate applies */
	uint64_t min_rate;        /* bytes per second an upload or a response must keep */
};

/* The most jobs waiting to render; a new upload beyond it gets 503. */
#define AF_SERVE_MAX_QUEUE 256
/* The profile table is left out of a result whose call tree has more nodes
 * than this: building it takes about 200 bytes per node (report.c). */
#define AF_SERVE_REPORT_MAX_NODES 1000000

/* ---- shared helpers (serve_page.c) ---- */

/* s is exactly AF_SHA256_HEX lowercase hex digits. */
bool af_serve_hash_ok(const char *s, size_t len);
/* name is a file a result directory may hold and the server may serve:
 * "report.html" or "t<N>.svg|png|folded" with N < 10000 in plain decimal. */
bool af_serve_file_ok(const char *name);
/* A byte count for people: "100 MiB", "512 KiB", "17 bytes". */
void af_serve_size(char *out, size_t size, uint64_t bytes);
/* The start of every HTML page up to and including <body>: charset, the
 * shared style, the title (escaped), then head (markup, may be NULL). Pages
 * are well-formed XML as well as HTML, so tests can check them with xmllint. */
void af_serve_page_head(struct af_sink *out, const char *title, const char *head);

/* ---- jobs (serve_jobs.c) ---- */

enum af_job_state { AF_JOB_NONE, AF_JOB_QUEUED, AF_JOB_RUNNING, AF_JOB_DONE, AF_JOB_FAILED };

struct af_job_status {
	enum af_job_state state;
	unsigned done, total;     /* files written / to write (while running) */
	unsigned retry_in;        /* failed writing the result: seconds until a
				     visit queues it again (0: failed for good) */
	char msg[320];            /* AF_JOB_FAILED: the one-line error */
};

struct af_jobs;

/* Start the render workers. Returns NULL if no thread could start. Caller
 * stops and frees them with af_jobs_stop(). */
struct af_jobs *af_jobs_start(const struct af_serve_opts *o);
/* Stop: a job being rendered is abandoned after its current file (it is
 * picked up again after a restart); waits for the workers. */
void af_jobs_stop(struct af_jobs *j);

enum af_submit { AF_SUBMIT_OK, AF_SUBMIT_BUSY, AF_SUBMIT_IO };
/* Adopt the finished upload at tmp_path, whose SHA-256 is hash: moved to
 * --data/<hash>/input and queued, or removed when that hash is already
 * known (the result is reused). BUSY: the queue is full (tmp removed).
 * name: the file's name as uploaded (may be NULL): its last path segment,
 * at most 255 bytes, is kept as text in --data/<hash>/name for the result
 * page, never used as a path. */
enum af_submit af_jobs_submit(struct af_jobs *j, const char *hash, const char *tmp_path,
			      const char *name);
/* What is known about hash (validated by the caller): from memory, else
 * from --data/<hash>/ (a result left by an earlier run; an upload whose
 * rendering was cut short is queued again). */
void af_jobs_status(struct af_jobs *j, const char *hash, struct af_job_status *st);
/* Remove --data/<hash>/ (for retention) unless a server is rendering it or
 * this one has it queued. Returns 0 when removed, 1 when in use, -1 on an
 * error. */
int af_jobs_forget(struct af_jobs *j, const char *hash);

/* ---- one job's result, in its render child (serve_render.c) ---- */

/* The progress of the job a child renders, on a page shared with the worker. */
struct af_serve_progress {
	volatile unsigned done, total;
};

struct af_text;
/* Read --data/<hash>/input and write the result's files and page. text: the
 * worker's fonts (made on the first PNG). Returns 0 (rendered), -1 (bad
 * input: *msg says why) or -2 (a file could not be written). */
int af_serve_render(const struct af_serve_opts *o, struct af_text **text, const char *hash,
		    struct af_serve_progress *sp, char **msg);

/* ---- retention (serve_retain.c) ---- */

/* Apply --max-age, then --max-data (oldest results first) to --data; a
 * result in use is kept. Logs what it removed on stderr. */
void af_retain_sweep(struct af_jobs *j, const struct af_serve_opts *o);

/* ---- slow clients (serve_guard.c) ---- */

/* Every connection has a deadline: its request's headers within
 * --request-timeout, an upload's body and a response at --min-rate after
 * that grace. A sweep shuts down the connections past it; when connections
 * or upload slots run short, the grace shrinks for the slowest, so clients
 * that trickle cannot keep others out. */
struct af_guard;

/* max_conns: the connections one address may open (pressure from 3/4). */
struct af_guard *af_guard_new(unsigned request_timeout, uint64_t min_rate, unsigned max_conns);
void af_guard_free(struct af_guard *g);
/* libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION callback (cls: the guard). */
void af_guard_notify(void *cls, struct MHD_Connection *c, void **socket_ctx,
		     enum MHD_ConnectionNotificationCode code);
/* The request on c has its headers (the handler's first call). */
void af_guard_request(struct MHD_Connection *c);
/* n more bytes of c's request body, or of its response, are expected. */
void af_guard_bytes(struct MHD_Connection *c, uint64_t n);
/* The request on c was answered: it waits for the next one's headers. */
void af_guard_idle(struct MHD_Connection *c);
/* Shut down connections past their deadline; returns how many. With
 * pressure, the grace is cut to a second. */
unsigned af_guard_sweep(struct af_guard *g, bool pressure);

/* ---- uploads (serve_upload.c) ---- */

struct af_server;

/* The access handler's work for POST /upload (libmicrohttpd's calling
 * convention: *ctx is NULL on the first call; upload_data and *size carry
 * each piece of the body; a final call with *size 0). */
int af_serve_upload(struct af_server *s, struct MHD_Connection *c, const char *data,
		    size_t *size, void **ctx);
/* The request ended (answered or not): release what *ctx holds. */
void af_serve_upload_done(struct af_server *s, void *ctx);
/* A new temporary file for an upload in tmp_dir (*path, caller frees),
 * held under an flock for as long as it is open, so that another server on
 * the same --data knows it is being received. Returns its descriptor, or
 * -1. */
int af_serve_upload_temp(const char *tmp_dir, char **path);
/* Remove the uploads in tmp_dir that no live process holds: those of a
 * server that was killed. Another server's uploads in progress stay. */
void af_serve_remove_leftovers(const char *tmp_dir);

struct af_server {
	const struct af_serve_opts *o;
	struct af_jobs *jobs;
	char *tmp_dir;            /* <data>/tmp: uploads being received */
	unsigned uploads;         /* being received; atomic */
	struct af_guard *guard;
};

/* Queue an HTML page (body is a whole page, taken over and freed) with
 * status and the page security headers. Returns libmicrohttpd's result. */
int af_serve_send_page(struct MHD_Connection *c, unsigned status, struct af_buf *body);

/* Content security policies: our own pages; what a trace produced (its
 * script runs in an opaque origin); pictures and downloads (nothing runs). */
extern const char af_serve_csp_page[], af_serve_csp_sandbox[], af_serve_csp_inert[];
/* Add the headers every response carries (type, nosniff, no referrer, csp);
 * -1 if one could not be added. */
int af_serve_headers(struct MHD_Response *r, const char *type, const char *csp);
/* Queue r and drop our reference to it. */
int af_serve_queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r);
/* Send body (taken over) with a type, a CSP and a cache policy. */
int af_serve_send_buf(struct MHD_Connection *c, unsigned status, struct af_buf *body,
		      const char *type, const char *csp, const char *cache);
/* A short page "<h1>title</h1><p>text</p>" (both escaped) with a link home. */
int af_serve_send_message(struct MHD_Connection *c, unsigned status, const char *title,
			  const char *text);

#endif
