/* serve.c: `aflame-render serve`: options, the libmicrohttpd daemon, the
 * routes and the pages that are not results.
 *
 *   GET  /                       the upload form
 *   GET  /upload.js              its drag-and-drop script
 *   POST /upload                 store, hash, queue; 303 to /trace/<hash>
 *   GET  /trace/<hash>           progress, the result page, or the error
 *   GET  /trace/<hash>/status    the same as JSON, for scripts
 *   GET  /trace/<hash>/<file>    report.html, t<N>.svg, t<N>.png, t<N>.folded
 *   GET  /favicon.ico            204, no icon (rather than a 404 in the console)
 *
 * libmicrohttpd's threads only parse requests, store uploads and send
 * files; rendering runs on the job workers (serve_jobs.c). Every response
 * says nosniff; our pages allow scripts from this server only, and what a
 * trace produced (SVGs with their script, the report) is sent with a CSP
 * sandbox, so it runs in an opaque origin and cannot act as this site. */
#include "serve.h"
#include "serve_int.h"
#include "core/escape.h"
#include "core/util.h"
#include "read/read.h"
#include "render/fonts.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG AF_SERVE_PROG

/* ---- fixed pages ---- */

static const char upload_js[] =
	"/* the upload form: a dropped file is sent like a chosen one */\n"
	"(function () {\n"
	"\tvar form = document.getElementById(\"upload\"), drop = document.getElementById(\"drop\"),\n"
	"\t\tinput = document.getElementById(\"file\"), note = document.getElementById(\"note\");\n"
	"\tfunction over(e) { e.preventDefault(); drop.className = \"drop over\"; }\n"
	"\tfunction out(e) { e.preventDefault(); drop.className = \"drop\"; }\n"
	"\tdrop.addEventListener(\"dragenter\", over);\n"
	"\tdrop.addEventListener(\"dragover\", over);\n"
	"\tdrop.addEventListener(\"dragleave\", out);\n"
	"\tdocument.addEventListener(\"dragover\", function (e) { e.preventDefault(); });\n"
	"\tdocument.addEventListener(\"drop\", function (e) { e.preventDefault(); });\n"
	"\tdrop.addEventListener(\"drop\", function (e) {\n"
	"\t\tout(e);\n"
	"\t\tif (!e.dataTransfer || !e.dataTransfer.files.length) return;\n"
	"\t\tinput.files = e.dataTransfer.files;\n"
	"\t\tsend();\n"
	"\t});\n"
	"\tfunction send() {\n"
	"\t\tnote.textContent = \"Uploading \" + input.files[0].name + \"\\u2026\";\n"
	"\t\tform.submit();\n"
	"\t}\n"
	"\tform.addEventListener(\"submit\", function (e) {\n"
	"\t\te.preventDefault();\n"
	"\t\tif (input.files.length) send();\n"
	"\t});\n"
	"})();\n";

/* More about some formats than their reader's one line says. */
static const struct { const char *reader, *more; } format_notes[] = {
	{ "art", " (<code>.trace</code>) in every variant: legacy versions 1, 2 and 3 "
	  "(<code>Debug.startMethodTracing</code>), streaming (Android Studio, <code>am profile "
	  "start --streaming</code>), and the V2 format of Android 16 and later" },
	{ "atrace", ": ftrace text, <code>atrace -z</code>, gzip, systrace HTML, trace2html JSON" },
	{ "folded", ", <code>frame;frame;frame count</code> (flamegraph.pl's input)" },
	{ "perfetto", " (<code>.perfetto-trace</code>, <code>.pftrace</code>): slices, CPU samples "
	  "and heap profiles" },
	{ "perf-data", " (<code>perf record</code>'s <code>perf.data</code>)" },
	{ "simpleperf", " (<code>simpleperf report-sample --protobuf</code>)" },
	{ "perf-script", " (<code>perf script</code>'s output)" },
	{ "pprof", " (<code>profile.proto</code>: Go's <code>pprof</code>, gperftools)" },
};

/* The formats this program reads, from the reader table (read.h), so the
 * page names each one as soon as it has a reader. */
static void form_formats(struct af_sink *o)
{
	af_sink_puts(o, "<h2>What it reads</h2>\n<ul id=\"formats\">\n");
	for (const struct af_reader *const *r = af_readers; *r; r++) {
		if (!(*r)->read)
			continue;
		const char *what = (*r)->what;
		af_sink_puts(o, "<li>");
		af_sink_putc(o, (char)(what[0] >= 'a' && what[0] <= 'z' ? what[0] - 'a' + 'A' : what[0]));
		af_escape_xml(o, what + 1);
		for (size_t i = 0; i < sizeof format_notes / sizeof *format_notes; i++)
			if (strcmp(format_notes[i].reader, (*r)->name) == 0)
				af_sink_puts(o, format_notes[i].more);
		af_sink_puts(o, "</li>\n");
	}
	af_sink_puts(o, "</ul>\n<p>Any of them may be compressed with gzip or zlib.</p>\n");
}

static int send_form(struct af_server *s, struct MHD_Connection *c)
{
	char limit[32];
	af_serve_size(limit, sizeof limit, s->o->max_upload);
	struct af_buf page;
	af_buf_init(&page);
	struct af_sink o;
	af_sink_init(&o, af_write_buf, &page);
	af_serve_page_head(&o, "Upload a trace", NULL);
	af_sink_printf(&o,
		"<h1>AFlame</h1>\n"
		"<p>Upload a trace; get a flame graph of every thread, a PNG and the folded stacks of "
		"each, and the method profile, at a link you can share (it is the file's SHA-256, so "
		"the same file always gets the same link).</p>\n"
		"<form id=\"upload\" method=\"post\" action=\"/upload\" enctype=\"multipart/form-data\">\n"
		"<div id=\"drop\" class=\"drop\">\n<p>Drop a file here, or choose one:</p>\n"
		"<p><input type=\"file\" id=\"file\" name=\"trace\" required=\"required\"/> "
		"<button type=\"submit\" id=\"send\">Upload</button></p>\n"
		"<p id=\"note\" class=\"nav\">At most %s.</p>\n</div>\n</form>\n", limit);
	form_formats(&o);
	af_sink_puts(&o, "<script src=\"/upload.js\"></script>\n</body>\n</html>\n");
	af_sink_finish(&o);
	return af_serve_send_page(c, MHD_HTTP_OK, &page);
}

static int send_script(struct MHD_Connection *c)
{
	struct af_buf body;
	af_buf_init(&body);
	af_buf_puts(&body, upload_js);
	return af_serve_send_buf(c, MHD_HTTP_OK, &body, "text/javascript; charset=utf-8", af_serve_csp_page, "no-cache");
}

/* /healthz: for a load balancer or a systemd watchdog script: 200 "ok"
 * while uploads can be stored (the upload directory is writable), else 503
 * naming why, so a full or read-only --data shows before an upload fails. */
static int send_health(struct af_server *s, struct MHD_Connection *c)
{
	struct af_buf body;
	af_buf_init(&body);
	bool ok = access(s->tmp_dir, W_OK | X_OK) == 0;
	af_buf_puts(&body, ok ? "ok\n" : "unhealthy: the data directory is not writable\n");
	return af_serve_send_buf(c, ok ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE, &body,
				 "text/plain; charset=utf-8", af_serve_csp_page, "no-store");
}

/* Browsers ask every site for /favicon.ico; a 404 put an error in the
 * console of every page we serve. No icon, no content, cached a day. */
static int send_no_icon(struct MHD_Connection *c)
{
	struct af_buf body;
	af_buf_init(&body);
	return af_serve_send_buf(c, MHD_HTTP_NO_CONTENT, &body, "image/x-icon", af_serve_csp_inert,
				 "public, max-age=86400");
}

/* ---- /trace/<hash> ---- */

static const char *state_name(enum af_job_state s)
{
	switch (s) {
	case AF_JOB_QUEUED: return "queued";
	case AF_JOB_RUNNING: return "running";
	case AF_JOB_DONE: return "done";
	case AF_JOB_FAILED: return "failed";
	case AF_JOB_NONE: return "unknown";
	default: assert(0); return "unknown";
	}
}

static void json_string(struct af_buf *b, const char *s)
{
	af_buf_putc(b, '"');
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			af_buf_printf(b, "\\%c", ch);
		else if (ch < 0x20 || ch == '<' || ch == '>' || ch == '&')
			af_buf_printf(b, "\\u%04x", ch);
		else
			af_buf_putc(b, (char)ch);
	}
	af_buf_putc(b, '"');
}

static int send_status(struct MHD_Connection *c, const struct af_job_status *st)
{
	struct af_buf b;
	af_buf_init(&b);
	af_buf_printf(&b, "{\"state\":\"%s\",\"done\":%u,\"total\":%u", state_name(st->state),
		      st->done, st->total);
	if (st->state == AF_JOB_FAILED) {
		af_buf_puts(&b, ",\"error\":");
		json_string(&b, st->msg);
		if (st->retry_in)
			af_buf_printf(&b, ",\"retry_in\":%u", st->retry_in);
	}
	af_buf_puts(&b, "}\n");
	return af_serve_send_buf(c, st->state == AF_JOB_NONE ? MHD_HTTP_NOT_FOUND : MHD_HTTP_OK, &b,
			"application/json", af_serve_csp_inert, "no-store");
}

static int send_progress(struct MHD_Connection *c, const char *hash, const struct af_job_status *st)
{
	struct af_buf page;
	af_buf_init(&page);
	struct af_sink o;
	af_sink_init(&o, af_write_buf, &page);
	af_serve_page_head(&o, "Rendering", "<meta http-equiv=\"refresh\" content=\"1\"/>\n");
	af_sink_printf(&o, "<p class=\"nav\"><a href=\"/\">Upload another trace</a></p>\n"
		       "<h1>Rendering\xe2\x80\xa6</h1>\n<p class=\"hash\">sha256 %s</p>\n<p id=\"progress\">", hash);
	if (st->state == AF_JOB_QUEUED)
		af_sink_puts(&o, "Waiting for a free worker.");
	else if (!st->total)
		af_sink_puts(&o, "Reading the trace.");
	else
		af_sink_printf(&o, "Written %u of %u files.", st->done, st->total);
	af_sink_printf(&o, "</p>\n<p>This page reloads itself until the graphs are ready "
		       "(<a href=\"/trace/%s/status\">status</a>).</p>\n</body>\n</html>\n", hash);
	af_sink_finish(&o);
	return af_serve_send_page(c, MHD_HTTP_OK, &page);
}

/* 422 for an upload that cannot be read; 503 while a result that could not
 * be written (the disk, not the upload) waits to be tried again. */
static int send_failure(struct MHD_Connection *c, const struct af_job_status *st)
{
	if (st->retry_in)
		return af_serve_send_message(c, MHD_HTTP_SERVICE_UNAVAILABLE,
					     "The result could not be written", st->msg);
	return af_serve_send_message(c, MHD_HTTP_UNPROCESSABLE_CONTENT, "This file could not be read",
				     st->msg);
}

static const char *type_of(const char *name, const char **csp, bool *attachment)
{
	const char *ext = strrchr(name, '.');
	*attachment = false;
	*csp = af_serve_csp_sandbox;
	if (strcmp(ext, ".svg") == 0)
		return "image/svg+xml";
	if (strcmp(ext, ".html") == 0)
		return "text/html; charset=utf-8";
	*csp = af_serve_csp_inert;
	if (strcmp(ext, ".png") == 0)
		return "image/png";
	*attachment = true;
	return "text/plain; charset=utf-8";
}

/* A file of a result, by fixed name only; never follows a link. */
static int send_file(struct af_server *s, struct MHD_Connection *c, const char *hash,
		     const char *name, bool page)
{
	struct af_buf path;
	af_buf_init(&path);
	af_buf_printf(&path, "%s/%.64s/%s", s->o->data, hash, name);
	int fd = open(path.data, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	af_buf_release(&path);
	struct stat st;
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return af_serve_send_message(c, MHD_HTTP_NOT_FOUND, "Not found", "There is no such file.");
	af_guard_bytes(c, (uint64_t)st.st_size);
	struct MHD_Response *r = MHD_create_response_from_fd((uint64_t)st.st_size, fd);
	if (!r) {
		close(fd);
		return MHD_NO;
	}
	const char *csp;
	bool attachment;
	const char *type = page ? "text/html; charset=utf-8" : type_of(name, &csp, &attachment);
	if (page) {
		csp = af_serve_csp_page;
		attachment = false;
	}
	af_serve_headers(r, type, csp);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, page ? "no-cache" : "max-age=86400");
	if (attachment) {
		char disp[128];
		snprintf(disp, sizeof disp, "attachment; filename=\"%.12s-%s\"", hash, name);
		MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_DISPOSITION, disp);
	}
	return af_serve_queue(c, MHD_HTTP_OK, r);
}

static int route_trace(struct af_server *s, struct MHD_Connection *c, const char *rest)
{
	const char *slash = strchr(rest, '/');
	size_t len = slash ? (size_t)(slash - rest) : strlen(rest);
	if (!af_serve_hash_ok(rest, len))
		return af_serve_send_message(c, MHD_HTTP_BAD_REQUEST, "Not a trace link",
					     "A trace link is /trace/ and 64 lowercase hex digits.");
	char hash[AF_SHA256_HEX + 1];
	memcpy(hash, rest, AF_SHA256_HEX);
	hash[AF_SHA256_HEX] = 0;
	const char *file = slash ? slash + 1 : "";
	struct af_job_status st;
	if (*file && strcmp(file, "status") != 0) {
		if (!af_serve_file_ok(file))
			return af_serve_send_message(c, MHD_HTTP_NOT_FOUND, "Not found", "There is no such file.");
		return send_file(s, c, hash, file, false);
	}
	af_jobs_status(s->jobs, hash, &st);
	if (*file)
		return send_status(c, &st);
	switch (st.state) {
	case AF_JOB_NONE:
		return af_serve_send_message(c, MHD_HTTP_NOT_FOUND, "No such trace",
					     "Nothing was uploaded with this hash.");
	case AF_JOB_QUEUED:
	case AF_JOB_RUNNING:
		return send_progress(c, hash, &st);
	case AF_JOB_FAILED:
		return send_failure(c, &st);
	case AF_JOB_DONE:
		return send_file(s, c, hash, "index.html", true);
	default:
		assert(0);
		return MHD_NO;
	}
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *data,
			      size_t *size, void **ctx)
{
	struct af_server *s = cls;
	(void)version;
	if (!*ctx)   /* the first call of a request: its headers are in */
		af_guard_request(c);
	bool get = strcmp(method, MHD_HTTP_METHOD_GET) == 0 || strcmp(method, MHD_HTTP_METHOD_HEAD) == 0;
	if (strcmp(url, "/upload") == 0 && strcmp(method, MHD_HTTP_METHOD_POST) == 0)
		return (enum MHD_Result)af_serve_upload(s, c, data, size, ctx);
	if (!get)
		return (enum MHD_Result)af_serve_send_message(c, MHD_HTTP_METHOD_NOT_ALLOWED,
			"Method not allowed", "Use GET, or POST to /upload.");
	if (strcmp(url, "/") == 0)
		return (enum MHD_Result)send_form(s, c);
	if (strcmp(url, "/upload.js") == 0)
		return (enum MHD_Result)send_script(c);
	if (strcmp(url, "/healthz") == 0)
		return (enum MHD_Result)send_health(s, c);
	if (strcmp(url, "/favicon.ico") == 0)
		return (enum MHD_Result)send_no_icon(c);
	if (strncmp(url, "/trace/", 7) == 0)
		return (enum MHD_Result)route_trace(s, c, url + 7);
	return (enum MHD_Result)af_serve_send_message(c, MHD_HTTP_NOT_FOUND, "Not found",
						      "There is no such page.");
}

static void completed(void *cls, struct MHD_Connection *c, void **ctx,
		      enum MHD_RequestTerminationCode why)
{
	(void)why;
	af_serve_upload_done(cls, *ctx);
	*ctx = NULL;
	af_guard_idle(c);
}

/* ---- options ---- */

static const char usage_text[] =
	"usage: " PROG " serve --data DIR [--bind ADDR] [--port N] [-j N]\n"
	"           [--max-upload SIZE] [--max-uploads N] [--max-threads N] [--max-seconds S]\n"
	"           [--max-memory SIZE] [--max-input-size SIZE] [--max-result SIZE]\n"
	"           [--max-data SIZE] [--max-age DAYS]\n"
	"           [--request-timeout S] [--min-rate RATE]\n"
	"\n"
	"Serve the AFlame web page: upload a trace and get every thread's flame graph,\n"
	"PNG and folded stacks and the method profile at /trace/<sha256 of the file>.\n"
	"Stops on SIGINT or SIGTERM. It reads what aflame-render reads:\n"
	"%s.\n"
	"\n"
	"      --data DIR          keep uploads and results here (made if missing)\n"
	"      --bind ADDR         listen on this IPv4 or IPv6 address (default: 127.0.0.1,\n"
	"                          this machine only)\n"
	"      --port N            TCP port (default: 8192; 0: any free port)\n"
	"  -j, --jobs N            render on N threads (default: 2)\n"
	"      --max-upload SIZE   largest file accepted, bytes or with K, M, G\n"
	"                          (default: 256M)\n"
	"      --max-uploads N     uploads received at once (default: 32)\n"
	"      --max-threads N     threads drawn per upload, most time first (default: 64)\n"
	"      --max-seconds S     render time per upload (default: 300)\n"
	"      --max-memory SIZE   address space of each render (default: no limit)\n"
	"      --max-input-size SIZE  most an upload may inflate to (default: 1G)\n"
	"      --max-result SIZE   bytes of files one upload's result may take; files\n"
	"                          beyond it are left out, and its page says so\n"
	"                          (default: 512M)\n"
	"      --max-data SIZE     keep results within SIZE, removing the oldest\n"
	"                          (default: no limit)\n"
	"      --max-age DAYS      remove results older than DAYS (default: no limit)\n"
	"      --request-timeout S  time for a request's headers, and before --min-rate\n"
	"                          applies (default: 20)\n"
	"      --min-rate RATE     bytes per second an upload or a download must keep,\n"
	"                          or with K or M (default: 1K)\n"
	"  -h, --help              print this help\n"
	"\n"
	"Exit status: 0 after a clean stop, 1 if it cannot start, 2 bad usage.\n";

/* The usage, naming every format the reader table reads, folded to 80
 * columns. */
static void print_usage(void)
{
	struct af_buf list;
	af_buf_init(&list);
	af_buf_puts(&list, "  ");
	af_buf_wrap(&list, af_reader_whats(), 2, 2, 78);
	printf(usage_text, list.data);
	af_buf_release(&list);
}

static _Noreturn __attribute__((format(printf, 1, 2))) void usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, PROG " serve: ");
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '" PROG " serve --help' for more information.\n");
	exit(2);
}

static unsigned long long parse_count(const char *opt, const char *s, unsigned long long min,
				      unsigned long long max, bool units)
{
	char *end;
	errno = 0;
	unsigned long long v = s[0] >= '0' && s[0] <= '9' ? strtoull(s, &end, 10) : 0;
	if (s[0] < '0' || s[0] > '9')
		end = (char *)s;
	unsigned shift = 0;
	if (units && end != s && *end && !end[1]) {
		const char *u = strchr("KkMmGg", *end);
		if (u) {
			shift = 10 * (unsigned)(1 + (u - "KkMmGg") / 2);
			end++;
		}
	}
	if (errno || end == s || *end || v > (max >> shift) || (v << shift) < min)
		usage_error("invalid %s '%s' (expected a whole number from %llu to %llu%s)", opt, s,
			    min, max, units ? ", or with K, M or G" : "");
	return v << shift;
}

enum { OPT_BIND = 256, OPT_DATA, OPT_MAX_AGE, OPT_MAX_DATA, OPT_MAX_INPUT, OPT_MAX_MEMORY,
       OPT_MAX_RESULT, OPT_MAX_SECONDS, OPT_MAX_THREADS, OPT_MAX_UPLOAD, OPT_MAX_UPLOADS, OPT_MIN_RATE, OPT_PORT,
       OPT_REQUEST_TIMEOUT };

static const struct option long_options[] = {
	{ "bind", required_argument, NULL, OPT_BIND },
	{ "data", required_argument, NULL, OPT_DATA },
	{ "help", no_argument, NULL, 'h' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "max-age", required_argument, NULL, OPT_MAX_AGE },
	{ "max-data", required_argument, NULL, OPT_MAX_DATA },
	{ "max-input-size", required_argument, NULL, OPT_MAX_INPUT },
	{ "max-memory", required_argument, NULL, OPT_MAX_MEMORY },
	{ "max-result", required_argument, NULL, OPT_MAX_RESULT },
	{ "max-seconds", required_argument, NULL, OPT_MAX_SECONDS },
	{ "max-threads", required_argument, NULL, OPT_MAX_THREADS },
	{ "max-upload", required_argument, NULL, OPT_MAX_UPLOAD },
	{ "max-uploads", required_argument, NULL, OPT_MAX_UPLOADS },
	{ "min-rate", required_argument, NULL, OPT_MIN_RATE },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "request-timeout", required_argument, NULL, OPT_REQUEST_TIMEOUT },
	{ NULL, 0, NULL, 0 },
};

static void parse_args(struct af_serve_opts *o, int argc, char **argv)
{
	*o = (struct af_serve_opts){ .bind = "127.0.0.1", .port = 8192, .jobs = 2,
		.max_upload = 256ull << 20, .max_uploads = 32, .max_threads = 64, .max_seconds = 300,
		.max_input = 1ull << 30, .max_result = 512ull << 20, .request_timeout = 20, .min_rate = 1024 };
	int c;
	while ((c = getopt_long(argc, argv, "hj:", long_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			print_usage();
			exit(0);
		case 'j':
			o->jobs = (unsigned)parse_count("--jobs", optarg, 1, 32, false);
			break;
		case OPT_BIND:
			o->bind = optarg;
			break;
		case OPT_DATA:
			o->data = optarg;
			break;
		case OPT_MAX_SECONDS:
			o->max_seconds = (unsigned)parse_count("--max-seconds", optarg, 1, 86400, false);
			break;
		case OPT_MAX_THREADS:
			o->max_threads = (unsigned)parse_count("--max-threads", optarg, 1, 10000, false);
			break;
		case OPT_MAX_UPLOAD:
			o->max_upload = parse_count("--max-upload", optarg, 1, 1ull << 40, true);
			break;
		case OPT_MAX_UPLOADS:
			o->max_uploads = (unsigned)parse_count("--max-uploads", optarg, 1, 1000, false);
			break;
		case OPT_MAX_AGE:
			o->max_age = (unsigned)parse_count("--max-age", optarg, 1, 100000, false);
			break;
		case OPT_MAX_DATA:
			o->max_data = parse_count("--max-data", optarg, 1, 1ull << 50, true);
			break;
		case OPT_MAX_INPUT:
			o->max_input = parse_count("--max-input-size", optarg, 1, 1ull << 40, true);
			break;
		case OPT_MAX_RESULT:
			o->max_result = parse_count("--max-result", optarg, 1, 1ull << 50, true);
			break;
		case OPT_MAX_MEMORY:
			o->max_memory = parse_count("--max-memory", optarg, 64ull << 20, 1ull << 50, true);
			break;
		case OPT_MIN_RATE:
			o->min_rate = parse_count("--min-rate", optarg, 1, 1ull << 40, true);
			break;
		case OPT_REQUEST_TIMEOUT:
			o->request_timeout = (unsigned)parse_count("--request-timeout", optarg, 1, 3600, false);
			break;
		case OPT_PORT:
			o->port = (unsigned)parse_count("--port", optarg, 0, 65535, false);
			break;
		default:
			fprintf(stderr, "Try '" PROG " serve --help' for more information.\n");
			exit(2);
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->data || !*o->data)
		usage_error("--data DIR is required (where uploads and results are kept)");
}

/* ---- running ---- */

static int make_dir(const char *path)
{
	struct stat st;
	if (mkdir(path, 0755) == 0 || (errno == EEXIST && stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
		return 0;
	fprintf(stderr, PROG " serve: cannot make directory '%s': %s\n", path,
		strerror(errno == EEXIST ? ENOTDIR : errno));
	return -1;
}

/* --data and --data/tmp; uploads a killed server left unfinished removed
 * (not another live server's: those are locked while they are received). */
static char *prepare_data(const char *data)
{
	if (make_dir(data) < 0)
		return NULL;
	size_t n = strlen(data) + 8;
	char *tmp = af_xmalloc(n);
	snprintf(tmp, n, "%s/tmp", data);
	if (make_dir(tmp) < 0 || access(tmp, W_OK) < 0) {
		if (errno)
			fprintf(stderr, PROG " serve: cannot write in '%s': %s\n", tmp, strerror(errno));
		free(tmp);
		return NULL;
	}
	af_serve_remove_leftovers(tmp);
	return tmp;
}

union addr {
	struct sockaddr sa;
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
};

static int parse_bind(const struct af_serve_opts *o, union addr *a, bool *v6)
{
	memset(a, 0, sizeof *a);
	*v6 = false;
	if (inet_pton(AF_INET, o->bind, &a->v4.sin_addr) == 1) {
		a->v4.sin_family = AF_INET;
		a->v4.sin_port = htons((uint16_t)o->port);
		return 0;
	}
	if (inet_pton(AF_INET6, o->bind, &a->v6.sin6_addr) == 1) {
		a->v6.sin6_family = AF_INET6;
		a->v6.sin6_port = htons((uint16_t)o->port);
		*v6 = true;
		return 0;
	}
	return -1;
}

/* Connections one address may hold (behind a reverse proxy, every user's). */
#define PER_IP_CONNECTIONS 128
/* Housekeeping: slow connections each second, retention each minute. */
#define RETAIN_EVERY 60

static struct MHD_Daemon *start_daemon(struct af_server *s, const union addr *a, bool v6)
{
	unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG | (v6 ? MHD_USE_IPv6 : 0);
	return MHD_start_daemon(flags, (uint16_t)s->o->port, NULL, NULL, handle, s,
		MHD_OPTION_SOCK_ADDR, &a->sa,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)4,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)256,
		MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)PER_IP_CONNECTIONS,
		MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024),
		MHD_OPTION_NOTIFY_COMPLETED, completed, s,
		MHD_OPTION_NOTIFY_CONNECTION, af_guard_notify, s->guard,
		MHD_OPTION_END);
}

/* Serve until SIGINT or SIGTERM. */
static int run(struct af_server *s)
{
	union addr a;
	bool v6;
	if (parse_bind(s->o, &a, &v6) < 0)
		usage_error("invalid --bind '%s' (expected a numeric IPv4 or IPv6 address)", s->o->bind);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);   /* every thread started below inherits it */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);   /* a file size limit fails the write, like a full disk */
	if (!(s->guard = af_guard_new(s->o->request_timeout, s->o->min_rate, PER_IP_CONNECTIONS)) ||
	    !(s->jobs = af_jobs_start(s->o))) {
		fprintf(stderr, PROG " serve: cannot start the render threads\n");
		af_guard_free(s->guard);
		return 1;
	}
	struct MHD_Daemon *d = start_daemon(s, &a, v6);
	if (!d) {
		fprintf(stderr, PROG " serve: cannot listen on %s port %u: %s\n", s->o->bind,
			s->o->port, strerror(errno));
		af_jobs_stop(s->jobs);
		af_guard_free(s->guard);
		return 1;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	unsigned port = info ? info->port : s->o->port;
	printf(PROG " serve: listening on http://%s%s%s:%u/ (data in %s)\n", v6 ? "[" : "", s->o->bind,
	       v6 ? "]" : "", port, s->o->data);
	fflush(stdout);
	int sig = -1;
	for (unsigned tick = 0; sig < 0; tick++) {
		if (tick % RETAIN_EVERY == 0)
			af_retain_sweep(s->jobs, s->o);
		af_guard_sweep(s->guard, false);
		sig = sigtimedwait(&set, NULL, &(struct timespec){ .tv_sec = 1 });
	}
	fprintf(stderr, PROG " serve: %s: stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
	MHD_stop_daemon(d);        /* answers nothing more; unfinished uploads removed */
	af_jobs_stop(s->jobs);     /* a render in progress stops after its current file */
	af_guard_free(s->guard);
	return 0;
}

int af_serve_main(int argc, char **argv)
{
	struct af_serve_opts o;
	parse_args(&o, argc, argv);
	struct af_server s = { .o = &o };
	if (!(s.tmp_dir = prepare_data(o.data)))
		return 1;
	int rc = run(&s);
	free(s.tmp_dir);
	return rc;
}
