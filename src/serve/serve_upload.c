/* serve_upload.c: POST /upload. The body is streamed to a temporary file
 * under --data/tmp/ while its SHA-256 is computed; nothing of it is kept in
 * memory. A browser form sends multipart/form-data (the first field with a
 * file name is the trace, read through libmicrohttpd's post processor); any
 * other content type is the file itself (curl --data-binary @app.trace).
 *
 * Limits: a Content-Length beyond --max-upload (plus room for the form's
 * headers) is refused before the body is read; a file (or a body without a
 * length) that grows beyond it is no longer written, and answered 413 once
 * the rest has been read (a body going on for DISCARD_MAX more is cut off
 * instead). At most --max-uploads uploads are received at once (503 beyond). */
#include "serve_int.h"
#include "core/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a multipart body may add around the file: boundaries, part headers,
 * a few small fields. */
#define FORM_SLACK (64 * 1024)
/* How much of an oversized body without Content-Length is read and dropped
 * before the connection is closed instead of answered. */
#define DISCARD_MAX (16 * 1024 * 1024)

struct upload {
	struct af_server *s;
	int fd;
	char *tmp;                /* temporary file, until handed to the jobs */
	struct af_sha256 sha;
	uint64_t size;            /* file bytes */
	uint64_t body;            /* request body bytes */
	struct MHD_PostProcessor *pp;   /* multipart, else NULL */
	char *field;              /* name of the form field holding the file */
	char *name;               /* the file's name as the form gave it, or NULL */
	uint64_t field_bytes;     /* of that field so far, kept or not */
	bool have_file, field_done, too_big, io_error;
};

static void store(struct upload *u, const char *data, size_t len)
{
	if (u->too_big || u->io_error || !len)
		return;
	if (u->size + len > u->s->o->max_upload) {
		u->too_big = true;
		return;
	}
	af_sha256_update(&u->sha, data, len);
	u->size += len;
	while (len) {
		ssize_t n = write(u->fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			u->io_error = true;
			return;
		}
		data += n;
		len -= (size_t)n;
	}
}

/* The post processor's callback: one piece of one form field. Only the
 * first field that carries a file name is kept; everything else is skipped. */
static enum MHD_Result on_field(void *cls, enum MHD_ValueKind kind, const char *key,
				const char *filename, const char *content_type,
				const char *transfer_encoding, const char *data, uint64_t off,
				size_t size)
{
	struct upload *u = cls;
	(void)kind, (void)content_type, (void)transfer_encoding;
	if (!filename || u->field_done)
		return MHD_YES;
	if (!u->field) {
		u->field = af_xstrndup(key ? key : "", key ? strlen(key) : 0);
		u->name = af_xstrndup(filename, strlen(filename));
		u->have_file = true;
	} else if (strcmp(key ? key : "", u->field) != 0 || off != u->field_bytes) {
		u->field_done = true;   /* the next field: the file is complete */
		return MHD_YES;
	}
	u->field_bytes += size;
	store(u, data, size);
	return MHD_YES;
}

static int send_redirect(struct MHD_Connection *c, const char *hash)
{
	struct af_buf page;
	af_buf_init(&page);
	struct af_sink s;
	af_sink_init(&s, af_write_buf, &page);
	af_serve_page_head(&s, "Uploaded", NULL);
	af_sink_printf(&s, "<p>Uploaded: <a href=\"/trace/%s\">/trace/%s</a></p>\n</body>\n</html>\n",
		       hash, hash);
	af_sink_finish(&s);
	char location[16 + AF_SHA256_HEX];
	snprintf(location, sizeof location, "/trace/%s", hash);
	struct MHD_Response *r = MHD_create_response_from_buffer(page.len, page.data,
								 MHD_RESPMEM_MUST_FREE);
	if (!r) {
		af_buf_release(&page);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, location);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/html; charset=utf-8");
	MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	int rc = MHD_queue_response(c, MHD_HTTP_SEE_OTHER, r);
	MHD_destroy_response(r);
	return rc;
}

static int send_too_big(struct af_server *s, struct MHD_Connection *c)
{
	char size[32], text[160];
	af_serve_size(size, sizeof size, s->o->max_upload);
	snprintf(text, sizeof text, "The file is larger than this server's limit of %s per upload "
		 "(--max-upload).", size);
	return af_serve_send_message(c, MHD_HTTP_CONTENT_TOO_LARGE, "File too large", text);
}

static enum MHD_Result count_length(void *cls, enum MHD_ValueKind kind, const char *key,
				    const char *value)
{
	(void)kind;
	(void)value;
	if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
		++*(unsigned *)cls;
	return MHD_YES;
}

/* The first call: headers only. Answer now or set up the upload. */
static int begin(struct af_server *s, struct MHD_Connection *c, void **ctx)
{
	const char *type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_TYPE);
	const char *length = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
	bool multipart = type && strncasecmp(type, "multipart/form-data", 19) == 0;
	if (type && strncasecmp(type, "application/x-www-form-urlencoded", 33) == 0)
		return af_serve_send_message(c, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE, "Unsupported upload",
					     "Send the trace as multipart/form-data (the upload form) "
					     "or as the request body itself.");
	/* two Content-Length headers: a proxy in front may have framed the
	 * body by the other one (request smuggling, RFC 9112 6.3) */
	unsigned lengths = 0;
	MHD_get_connection_values(c, MHD_HEADER_KIND, count_length, &lengths);
	if (lengths > 1)
		return af_serve_send_message(c, MHD_HTTP_BAD_REQUEST, "Bad upload",
					     "The request has more than one Content-Length header.");
	/* both a length and a transfer coding: a proxy may frame the body by
	 * the one, this server by the other (RFC 9112 6.3: an error) */
	if (length && MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING))
		return af_serve_send_message(c, MHD_HTTP_BAD_REQUEST, "Bad upload",
					     "The request has both Content-Length and Transfer-Encoding.");
	if (length) {
		char *end;
		errno = 0;
		unsigned long long n = strtoull(length, &end, 10);
		if (errno || *end || n > s->o->max_upload + (multipart ? FORM_SLACK : 0))
			return send_too_big(s, c);
	}
	if (__atomic_add_fetch(&s->uploads, 1, __ATOMIC_SEQ_CST) > s->o->max_uploads) {
		__atomic_sub_fetch(&s->uploads, 1, __ATOMIC_SEQ_CST);
		if (s->guard)   /* make room: uploads that trickle go now */
			af_guard_sweep(s->guard, true);
		return af_serve_send_message(c, MHD_HTTP_SERVICE_UNAVAILABLE, "Busy",
					     "Too many uploads at once; try again in a moment.");
	}
	struct upload *u = af_xcalloc(1, sizeof *u);
	u->s = s;
	u->fd = -1;
	af_sha256_init(&u->sha);
	*ctx = u;   /* from here on af_serve_upload_done() cleans up */
	u->fd = af_serve_upload_temp(s->tmp_dir, &u->tmp);
	if (u->fd < 0) {
		free(u->tmp);
		u->tmp = NULL;
		return af_serve_send_message(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "Server error",
					     "The upload could not be stored.");
	}
	if (multipart && !(u->pp = MHD_create_post_processor(c, 64 * 1024, on_field, u)))
		return af_serve_send_message(c, MHD_HTTP_BAD_REQUEST, "Bad upload",
					     "The form data has no valid boundary.");
	return MHD_YES;
}

/* The last call: the whole body has been read. */
static int finish(struct af_server *s, struct MHD_Connection *c, struct upload *u)
{
	bool multipart = u->pp != NULL;
	bool form_ok = true;
	if (u->pp) {
		form_ok = MHD_destroy_post_processor(u->pp) == MHD_YES;
		u->pp = NULL;
	}
	if (u->too_big)
		return send_too_big(s, c);
	if (u->io_error)
		return af_serve_send_message(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "Server error",
					     "The upload could not be stored.");
	if (multipart && !form_ok)   /* no closing boundary: the file may be cut short */
		return af_serve_send_message(c, MHD_HTTP_BAD_REQUEST, "Bad upload",
					     "The form data was cut short or malformed.");
	if (multipart && !u->have_file)
		return af_serve_send_message(c, MHD_HTTP_BAD_REQUEST, "No file",
					     "The form held no file: choose a trace to upload.");
	if (!u->size)
		return af_serve_send_message(c, MHD_HTTP_BAD_REQUEST, "Empty file",
					     "The uploaded file is empty.");
	char hash[AF_SHA256_HEX + 1];
	af_sha256_final_hex(&u->sha, hash);
	/* the file stays open, and locked, until it is moved or removed */
	enum af_submit rc = af_jobs_submit(s->jobs, hash, u->tmp, u->name);
	close(u->fd);
	u->fd = -1;
	free(u->tmp);
	u->tmp = NULL;   /* moved or removed by af_jobs_submit */
	if (rc == AF_SUBMIT_BUSY)
		return af_serve_send_message(c, MHD_HTTP_SERVICE_UNAVAILABLE, "Busy",
					     "Too many traces are waiting to be rendered; try again later.");
	if (rc == AF_SUBMIT_IO)
		return af_serve_send_message(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "Server error",
					     "The upload could not be stored.");
	return send_redirect(c, hash);
}

int af_serve_upload(struct af_server *s, struct MHD_Connection *c, const char *data,
		    size_t *size, void **ctx)
{
	struct upload *u = *ctx;
	if (!u)
		return begin(s, c, ctx);
	if (!*size)
		return finish(s, c, u);
	u->body += *size;
	af_guard_bytes(c, *size);
	if (u->pp) {
		if (MHD_post_process(u->pp, data, *size) != MHD_YES)
			u->field_done = true;   /* malformed: stop storing, answer at the end */
	} else {
		store(u, data, *size);
	}
	*size = 0;
	if (u->body > s->o->max_upload + FORM_SLACK)   /* only without Content-Length */
		u->too_big = true;
	/* libmicrohttpd takes no response while a body arrives: the rest of an
	 * oversized one is read and dropped (so the 413 can be sent), up to a
	 * bound beyond which the connection is just closed */
	if (u->body > s->o->max_upload + FORM_SLACK + DISCARD_MAX)
		return MHD_NO;
	return MHD_YES;
}

int af_serve_upload_temp(const char *tmp_dir, char **path)
{
	size_t n = strlen(tmp_dir) + 32;
	for (int tries = 0; tries < 3; tries++) {
		*path = af_xmalloc(n);
		snprintf(*path, n, "%s/upload.XXXXXX", tmp_dir);
		int fd = mkstemp(*path);   /* mkostemp is not POSIX; children close it anyway */
		if (fd < 0)
			break;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		/* a server starting meanwhile may have taken it for a leftover,
		 * between its creation and the lock: then it is not ours to use */
		struct stat held, there;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &held) == 0 &&
		    stat(*path, &there) == 0 && held.st_dev == there.st_dev && held.st_ino == there.st_ino)
			return fd;
		close(fd);
		free(*path);
	}
	*path = NULL;
	return -1;
}

void af_serve_remove_leftovers(const char *tmp_dir)
{
	DIR *d = opendir(tmp_dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (strncmp(e->d_name, "upload.", 7) != 0)
			continue;
		int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			continue;
		struct stat st;
		if (flock(fd, LOCK_EX | LOCK_NB) == 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
			unlinkat(dirfd(d), e->d_name, 0);
		close(fd);
	}
	if (d)
		closedir(d);
}

void af_serve_upload_done(struct af_server *s, void *ctx)
{
	struct upload *u = ctx;
	if (!u)
		return;
	if (u->pp)
		MHD_destroy_post_processor(u->pp);
	if (u->fd >= 0)
		close(u->fd);
	if (u->tmp) {
		unlink(u->tmp);
		free(u->tmp);
	}
	free(u->field);
	free(u->name);
	free(u);
	__atomic_sub_fetch(&s->uploads, 1, __ATOMIC_SEQ_CST);
}
