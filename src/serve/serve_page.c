/* serve_page.c: what every part of the service shares to answer: the
 * content security policies, the page frame, responses with their headers,
 * and the checks on names that reach paths. Calls nothing else in serve, so
 * serve.c, serve_jobs.c and serve_upload.c all build on it. */
#include "serve_int.h"
#include "core/escape.h"
#include "render/index.h"
#include "render/render.h"

#include <inttypes.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Our own pages: script and frames from this server only, no plugins. */
const char af_serve_csp_page[] =
	"default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; "
	"frame-src 'self'; form-action 'self'; base-uri 'none'";
/* What a trace produced: runs its own inline script in an opaque origin. */
const char af_serve_csp_sandbox[] =
	"sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; "
	"style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
/* Pictures and text downloads: nothing runs at all. */
const char af_serve_csp_inert[] = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";

bool af_serve_hash_ok(const char *s, size_t len)
{
	if (len != AF_SHA256_HEX)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}

bool af_serve_file_ok(const char *name)
{
	if (strcmp(name, "report.html") == 0)
		return true;
	if (name[0] != 't' || name[1] < '0' || name[1] > '9' || (name[1] == '0' && name[2] != '.'))
		return false;
	size_t digits = strspn(name + 1, "0123456789");
	if (digits > 4)
		return false;
	const char *ext = name + 1 + digits;
	return strcmp(ext, ".svg") == 0 || strcmp(ext, ".png") == 0 || strcmp(ext, ".folded") == 0;
}

void af_serve_size(char *out, size_t size, uint64_t bytes)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	snprintf(out, size, "%" PRIu64 " %s", bytes, units[u]);
}

void af_serve_page_head(struct af_sink *out, const char *title, const char *head)
{
	af_sink_puts(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>");
	af_escape_xml(out, title);
	af_sink_puts(out, " \xc2\xb7 AFlame</title>\n<style>\n"
		     "body{font:14px/1.45 \"DejaVu Sans\",Verdana,sans-serif;margin:1em 2em;color:#222}\n"
		     "h1{font-size:1.6em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}\n"
		     "table{border-collapse:collapse}th,td{padding:2px 10px;text-align:left;vertical-align:top}\n"
		     "table.kv th{font-weight:normal;color:#555}\n"
		     "iframe{border:1px solid #ccc;max-width:100%;background:#fff}iframe.report{width:100%;height:36em}\n"
		     ".hash,.nav{color:#666;font-size:.9em}.warn{color:#8a5a00}\n"
		     ".drop{border:2px dashed #aaa;border-radius:8px;padding:2em;text-align:center;max-width:40em}\n"
		     ".drop.over{border-color:#d95000;background:#fff4ec}\n");
	af_sink_puts(out, af_index_style);
	af_sink_puts(out, "</style>\n");
	af_sink_puts(out, head ? head : "");
	af_sink_puts(out, "</head>\n<body>\n");
}

int af_serve_headers(struct MHD_Response *r, const char *type, const char *csp)
{
	return MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type) == MHD_YES &&
	       MHD_add_response_header(r, "X-Content-Type-Options", "nosniff") == MHD_YES &&
	       MHD_add_response_header(r, "Referrer-Policy", "no-referrer") == MHD_YES &&
	       MHD_add_response_header(r, "Content-Security-Policy", csp) == MHD_YES ? 0 : -1;
}

int af_serve_queue(struct MHD_Connection *c, unsigned status, struct MHD_Response *r)
{
	int rc = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return rc;
}

/* Send body (taken over) with a type, a CSP and a cache policy. */
int af_serve_send_buf(struct MHD_Connection *c, unsigned status, struct af_buf *body,
		    const char *type, const char *csp, const char *cache)
{
	size_t len = body->len;
	char *data = af_buf_detach(body);
	af_guard_bytes(c, len);
	struct MHD_Response *r = MHD_create_response_from_buffer(len, data ? data : (char *)"",
								 data ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
	if (!r) {
		free(data);
		return MHD_NO;
	}
	if (af_serve_headers(r, type, csp) < 0 ||
	    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, cache) != MHD_YES) {
		MHD_destroy_response(r);
		return MHD_NO;
	}
	if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
		MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, "5");
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD, POST");
	return af_serve_queue(c, status, r);
}

int af_serve_send_page(struct MHD_Connection *c, unsigned status, struct af_buf *body)
{
	return af_serve_send_buf(c, status, body, "text/html; charset=utf-8", af_serve_csp_page, "no-store");
}

int af_serve_send_message(struct MHD_Connection *c, unsigned status, const char *title,
			  const char *text)
{
	struct af_buf page;
	af_buf_init(&page);
	struct af_sink s;
	af_sink_init(&s, af_write_buf, &page);
	af_serve_page_head(&s, title, NULL);
	af_sink_puts(&s, "<p class=\"nav\"><a href=\"/\">Upload a trace</a></p>\n<h1>");
	af_escape_xml(&s, title);
	af_sink_puts(&s, "</h1>\n<p class=\"msg\">");
	af_escape_xml(&s, text);
	af_sink_puts(&s, "</p>\n</body>\n</html>\n");
	af_sink_finish(&s);
	return af_serve_send_page(c, status, &page);
}
