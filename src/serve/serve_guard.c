/* serve_guard.c: slow clients must not keep others out.
 *
 * libmicrohttpd's timeout is an idle timeout: a client that sends a byte
 * every few seconds holds its connection, and an upload slot, forever. So
 * every connection gets a deadline, as Apache's mod_reqtimeout gives one:
 * a request's headers must arrive within --request-timeout of the previous
 * request (or of the connection); after that grace, an upload's body and a
 * response must move at --min-rate (the deadline moves on by one second per
 * --min-rate bytes). A sweep each second shuts down the connections past
 * their deadline; when connections run short, or every upload slot is
 * taken, the grace is cut to one second, so the slowest go first and
 * clients that trickle cannot lock the service.
 *
 * The sweep shuts a socket down (libmicrohttpd then sees the end of the
 * stream and closes it); it never closes one. libmicrohttpd tells us a
 * connection closed before it closes the socket, and both happen under
 * our lock, so a descriptor shut down is always the connection's own. */
#include "serve_int.h"
#include "core/util.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

struct conn {
	struct conn *prev, *next;
	struct af_guard *g;
	int fd;
	double since;             /* the request (or the wait for one) began */
	uint64_t bytes;           /* body and response bytes of this request */
	bool request;             /* its headers are in */
};

struct af_guard {
	pthread_mutex_t lock;
	struct conn *head;
	unsigned n;
	unsigned pressure_at;     /* connections from which the grace is cut */
	double grace, min_rate;
};

/* Grace under pressure, seconds. */
#define PRESSED_GRACE 1.0

struct af_guard *af_guard_new(unsigned request_timeout, uint64_t min_rate, unsigned max_conns)
{
	struct af_guard *g = calloc(1, sizeof *g);
	if (!g)
		return NULL;
	pthread_mutex_init(&g->lock, NULL);
	g->grace = request_timeout;
	g->min_rate = min_rate ? (double)min_rate : 1;
	g->pressure_at = max_conns - max_conns / 4;
	return g;
}

void af_guard_free(struct af_guard *g)
{
	if (!g)
		return;
	for (struct conn *k = g->head, *next; k; k = next) {
		next = k->next;
		free(k);
	}
	pthread_mutex_destroy(&g->lock);
	free(g);
}

static struct conn *conn_of(struct MHD_Connection *c)
{
	const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return i ? i->socket_context : NULL;
}

static void opened(struct af_guard *g, struct MHD_Connection *c, void **ctx)
{
	const union MHD_ConnectionInfo *i = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
	struct conn *k = i ? calloc(1, sizeof *k) : NULL;
	*ctx = k;
	if (!k)
		return;   /* untracked: libmicrohttpd's idle timeout still holds */
	k->g = g;
	k->fd = i->connect_fd;
	k->since = af_now();
	pthread_mutex_lock(&g->lock);
	k->next = g->head;
	if (g->head)
		g->head->prev = k;
	g->head = k;
	bool pressed = ++g->n >= g->pressure_at;
	pthread_mutex_unlock(&g->lock);
	if (pressed)
		af_guard_sweep(g, true);
}

static void closed(struct af_guard *g, void **ctx)
{
	struct conn *k = *ctx;
	if (!k)
		return;
	pthread_mutex_lock(&g->lock);
	if (k->prev)
		k->prev->next = k->next;
	else
		g->head = k->next;
	if (k->next)
		k->next->prev = k->prev;
	g->n--;
	pthread_mutex_unlock(&g->lock);
	free(k);
	*ctx = NULL;
}

void af_guard_notify(void *cls, struct MHD_Connection *c, void **socket_ctx,
		     enum MHD_ConnectionNotificationCode code)
{
	struct af_guard *g = cls;
	if (code == MHD_CONNECTION_NOTIFY_STARTED)
		opened(g, c, socket_ctx);
	else
		closed(g, socket_ctx);
}

/* Set what c waits for (or add bytes to it). */
static void set_phase(struct MHD_Connection *c, bool request, uint64_t bytes, bool add)
{
	struct conn *k = conn_of(c);
	if (!k)
		return;
	struct af_guard *g = k->g;
	pthread_mutex_lock(&g->lock);
	if (add) {
		k->bytes += bytes;
	} else {
		k->request = request;
		k->bytes = 0;
		k->since = af_now();
	}
	pthread_mutex_unlock(&g->lock);
}

void af_guard_request(struct MHD_Connection *c)
{
	set_phase(c, true, 0, false);
}

void af_guard_bytes(struct MHD_Connection *c, uint64_t n)
{
	set_phase(c, true, n, true);
}

void af_guard_idle(struct MHD_Connection *c)
{
	set_phase(c, false, 0, false);
}

unsigned af_guard_sweep(struct af_guard *g, bool pressure)
{
	unsigned shut = 0;
	double t = af_now();
	pthread_mutex_lock(&g->lock);
	double grace = pressure || g->n >= g->pressure_at ? PRESSED_GRACE : g->grace;
	if (grace > g->grace)
		grace = g->grace;
	for (struct conn *k = g->head; k; k = k->next) {
		double deadline = k->since + grace + (k->request ? (double)k->bytes / g->min_rate : 0);
		if (t > deadline && k->fd >= 0) {
			shutdown(k->fd, SHUT_RDWR);
			k->fd = -1;   /* once */
			shut++;
		}
	}
	pthread_mutex_unlock(&g->lock);
	return shut;
}
