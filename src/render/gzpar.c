/* gzpar.c: one gzip member deflated in chunks on two threads (gzpar.h).
 *
 * The chunks are a list the writer (the caller's thread) appends to. A
 * chunk is published (counted in `ready`) once the byte after it arrives,
 * so a published chunk is full and never the last, and the last is known
 * at the finish. Published chunks are only read. They are claimed in
 * order (`claimed`), each once, by the job, which deflates them while the
 * writer fills the next ones, or by the writer when the job falls behind
 * (or is not running: then the writer does them all); at the finish by
 * both. Whoever deflates a chunk makes the same bytes.
 *
 * A chunk's bytes follow a copy of the window before it (its dictionary),
 * so that its buffer is free once it is deflated, whatever the order the
 * chunks end in (buffers waiting for the next chunk to end were 8 to 14
 * fresh ones a run on the bench, with chunks of 256 KiB). A few buffers
 * are made at first in one block. */
#include "gzpar.h"
#include "core/job.h"
#include "core/util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

enum {
	/* the bytes before a chunk given as its dictionary: 8 KiB, not the
	 * window's 32: zlib hashes every byte of it, and the bench's 9 MB
	 * profile took 1,163M instructions with 32 KiB, 1,132M with 8 (1,130M
	 * with 4), for 2,088,313 -> 2,089,146 bytes */
	DICT = 1 << 13,
	BEHIND = 3,         /* chunks waiting when the writer deflates one itself */
	ROOM = DICT + AF_GZPAR_CHUNK,   /* a chunk's buffer: its dictionary, then its bytes */
	POOL = 16,          /* buffers made at first, in one block of 1 MB */
};
_Static_assert(ROOM <= 65536 - 262 - 1, "a chunk and its dictionary fit zlib's window");

struct chunk {
	uint8_t *raw;                /* ROOM bytes: the dictionary, then the chunk's */
	size_t len;                  /* the chunk's bytes (from raw + DICT) */
	bool dict;                   /* raw's first DICT bytes are the window before */
	struct chunk *next;          /* set before the next one is published */
	bool last, failed;
	atomic_bool done;            /* deflated: z, zlen, crc, failed are set */
	uint32_t crc;
	uint8_t *z;                  /* its deflated bytes */
	size_t zlen;
};

/* a thread's deflater (made on its first chunk, reset for each), its
 * output's room, and its place in the list */
struct worker {
	z_stream z;
	bool made;
	uint8_t *out;
	size_t room;
	struct chunk *at;            /* chunk `index` */
	size_t index;
};

struct af_gzpar {
	int level;
	struct chunk *head, *tail;   /* tail: being filled, not published */
	size_t published;            /* chunks before tail */
	atomic_size_t ready;         /* the same, for the job */
	atomic_size_t claimed;       /* chunks taken to deflate */
	struct af_job job;
	bool job_on;                 /* started and not yet joined */
	/* On its own thread, the job waits for chunks (more) until the end
	 * (ending, under lock), not returning when it has none: started
	 * again each time, it was a thread made and scheduled anew up to 15
	 * times a run on the bench */
	pthread_mutex_t lock;
	pthread_cond_t more;
	bool ending;
	struct worker mine, theirs;  /* the writer's, the job's */
	struct chunk *spent;         /* the first chunk whose raw bytes are kept */
	uint8_t *pool;               /* the first buffers, in one block */
	uint8_t **spare;             /* raw buffers to reuse */
	size_t nspare, cap_spare;
	struct af_sink *stream;      /* where chunks go once deflated (NULL: at the finish) */
	struct chunk *unsent;        /* the first chunk not written */
	uint32_t crc, len;           /* of the chunks written */
};

/* whether buffer p is one of the pool's (not to be freed alone) */
static bool pooled(const struct af_gzpar *g, const uint8_t *p)
{
	uintptr_t at = (uintptr_t)p, from = (uintptr_t)g->pool;
	return at >= from && at < from + POOL * (uintptr_t)ROOM;
}

static struct chunk *new_chunk(struct af_gzpar *g)
{
	struct chunk *c = af_xcalloc(1, sizeof *c);
	c->raw = g->nspare ? g->spare[--g->nspare] : af_xmalloc(ROOM);
	atomic_init(&c->done, false);
	return c;
}

struct af_gzpar *af_gzpar_new(int level)
{
	struct af_gzpar *g = af_xcalloc(1, sizeof *g);
	g->level = level;
	g->pool = af_xmalloc_huge(POOL * (size_t)ROOM);
	af_grow(&g->spare, &g->cap_spare, POOL, sizeof *g->spare);
	for (size_t i = POOL; i-- > 0;)   /* taken from the end: the block's start first */
		g->spare[g->nspare++] = g->pool + i * (size_t)ROOM;
	g->head = g->tail = g->spent = g->unsent = new_chunk(g);
	atomic_init(&g->ready, 0);
	atomic_init(&g->claimed, 0);
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->more, NULL);
	g->mine.at = g->theirs.at = g->head;
	return g;
}

/* w's deflater reset for chunk c */
static bool start(struct worker *w, const struct chunk *c, int level)
{
	bool ok = w->made ? deflateReset(&w->z) == Z_OK
		: (w->made = deflateInit2(&w->z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
	if (ok && !w->out) {   /* one deflate call's bound, and a sync flush's empty stored block */
		w->room = deflateBound(&w->z, AF_GZPAR_CHUNK) + 16;
		w->out = af_xmalloc(w->room);
	}
	if (ok && c->dict)
		ok = deflateSetDictionary(&w->z, c->raw, DICT) == Z_OK;
	return ok;
}

/* c raw-deflated with the window before it as dictionary, and its CRC */
static void deflate_chunk(struct worker *w, struct chunk *c, int level)
{
	c->crc = (uint32_t)crc32(0, c->raw + DICT, (uInt)c->len);
	c->failed = !start(w, c, level);
	if (!c->failed) {
		w->z.next_in = c->raw + DICT;
		w->z.avail_in = (uInt)c->len;
		w->z.next_out = w->out;
		w->z.avail_out = (uInt)w->room;
		int zr = deflate(&w->z, c->last ? Z_FINISH : Z_SYNC_FLUSH);
		c->zlen = w->room - w->z.avail_out;
		c->failed = c->last ? zr != Z_STREAM_END : zr != Z_OK || w->z.avail_in || !w->z.avail_out;
		c->z = af_xmalloc(c->zlen ? c->zlen : 1);
		memcpy(c->z, w->out, c->zlen);
	}
	atomic_store_explicit(&c->done, true, memory_order_release);
}

/* Claim the next published chunk and deflate it; false when none is left. */
static bool deflate_one(struct af_gzpar *g, struct worker *w)
{
	size_t ready = atomic_load_explicit(&g->ready, memory_order_acquire);
	size_t i = atomic_load_explicit(&g->claimed, memory_order_relaxed);
	do {
		if (i >= ready)
			return false;
	} while (!atomic_compare_exchange_weak_explicit(&g->claimed, &i, i + 1, memory_order_relaxed,
							 memory_order_relaxed));
	while (w->index < i) {   /* chunks below ready are linked */
		w->at = w->at->next;
		w->index++;
	}
	deflate_chunk(w, w->at, g->level);
	return true;
}

/* Whether a published chunk is left to claim */
static bool claimable(struct af_gzpar *g)
{
	return atomic_load_explicit(&g->claimed, memory_order_relaxed) <
	       atomic_load_explicit(&g->ready, memory_order_acquire);
}

static void job_fn(void *arg)
{
	struct af_gzpar *g = arg;
	for (;;) {
		while (deflate_one(g, &g->theirs))
			;
		if (!af_job_threaded(&g->job))   /* on the caller's thread: never wait */
			return;
		pthread_mutex_lock(&g->lock);
		while (!g->ending && !claimable(g))
			pthread_cond_wait(&g->more, &g->lock);
		bool end = g->ending && !claimable(g);
		pthread_mutex_unlock(&g->lock);
		if (end)
			return;
	}
}

/* The job told of a change: a chunk published, or the end (ending) */
static void wake(struct af_gzpar *g, bool end)
{
	pthread_mutex_lock(&g->lock);
	g->ending = g->ending || end;
	pthread_cond_signal(&g->more);
	pthread_mutex_unlock(&g->lock);
}

/* The job on what is published, unless it is still busy. */
static void help(struct af_gzpar *g)
{
	if (g->job_on && af_job_threaded(&g->job)) {
		wake(g, false);
		return;
	}
	if (g->job_on)   /* it ran here: nothing to wait for */
		af_job_join(&g->job);
	af_job_start(&g->job, job_fn, g);
	g->job_on = true;
}

/* The job to its end (the chunks published deflated) and joined */
static void stop_job(struct af_gzpar *g)
{
	if (!g->job_on)
		return;
	if (af_job_threaded(&g->job))
		wake(g, true);
	af_job_join(&g->job);
	g->job_on = false;
}

/* The raw buffers of chunks deflated are reused: a few stay in the
 * cache, where fresh ones would each be page faults. spent moves past
 * those freed in a row; the few published after it are looked at each
 * time. */
static void reuse(struct af_gzpar *g)
{
	for (struct chunk *c = g->spent; c != g->tail; c = c->next) {
		if (c->raw && atomic_load_explicit(&c->done, memory_order_acquire)) {
			af_grow(&g->spare, &g->cap_spare, g->nspare + 1, sizeof *g->spare);
			g->spare[g->nspare++] = c->raw;
			c->raw = NULL;
		}
		if (c == g->spent && !c->raw)
			g->spent = c->next;
	}
}

/* The chunks deflated since the last written, in order, their deflated
 * bytes freed (the header before the first): false at a chunk whose
 * deflate failed. */
static bool send(struct af_gzpar *g, struct af_sink *out)
{
	for (struct chunk *c = g->unsent; c && atomic_load_explicit(&c->done, memory_order_acquire);
	     c = g->unsent) {
		if (c->failed)
			return false;
		if (c == g->head) {   /* zlib's: no name, no time, the level's flag, Unix */
			uint8_t head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0,
					     (uint8_t)(g->level == 9 ? 2 : g->level < 2 ? 4 : 0), 3 };
			af_sink_write(out, head, sizeof head);
		}
		af_sink_write(out, c->z, c->zlen);
		g->crc = (uint32_t)crc32_combine(g->crc, c->crc, (z_off_t)c->len);
		g->len += (uint32_t)c->len;
		free(c->z);
		c->z = NULL;
		g->unsent = c->next;
	}
	return true;
}

static void publish(struct af_gzpar *g)
{
	reuse(g);
	struct chunk *c = new_chunk(g);
	memcpy(c->raw, g->tail->raw + ROOM - DICT, DICT);   /* the tail is full */
	c->dict = true;
	g->tail->next = c;
	g->tail = c;
	atomic_store_explicit(&g->ready, ++g->published, memory_order_release);
	help(g);
	if (g->published - atomic_load_explicit(&g->claimed, memory_order_relaxed) >= BEHIND)
		deflate_one(g, &g->mine);
	if (g->stream)
		send(g, g->stream);
}

void af_gzpar_stream(struct af_gzpar *g, struct af_sink *out)
{
	g->stream = out;
}

void af_gzpar_add(struct af_gzpar *g, const void *data, size_t len)
{
	const uint8_t *p = data;
	while (len) {
		if (g->tail->len == AF_GZPAR_CHUNK)
			publish(g);
		size_t n = AF_GZPAR_CHUNK - g->tail->len;
		if (n > len)
			n = len;
		memcpy(g->tail->raw + DICT + g->tail->len, p, n);
		g->tail->len += n;
		p += n;
		len -= n;
	}
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int af_gzpar_finish(struct af_gzpar *g, struct af_sink *out, struct af_diag *d)
{
	g->tail->last = true;
	atomic_store_explicit(&g->ready, ++g->published, memory_order_release);
	if (g->job_on && af_job_threaded(&g->job))
		wake(g, true);   /* it deflates what is left with this thread, then returns */
	else if (g->published > 1)   /* one chunk: no second thread for it */
		help(g);
	while (deflate_one(g, &g->mine))
		;
	stop_job(g);
	bool ok = true;
	for (struct chunk *c = g->unsent; c && ok; c = c->next)   /* then nothing more is written */
		ok = !c->failed;
	if (!ok || !send(g, out))
		return af_diag_error(d, "gzip compression failed");
	uint8_t tail[8];   /* CRC-32 and length mod 2^32, little-endian */
	put_le32(tail, g->crc);
	put_le32(tail + 4, g->len);
	af_sink_write(out, tail, sizeof tail);
	return 0;
}

static void end_worker(struct worker *w)
{
	if (w->made)
		deflateEnd(&w->z);
	free(w->out);
}

void af_gzpar_free(struct af_gzpar *g)
{
	if (!g)
		return;
	stop_job(g);   /* stopped before the finish: the job may be reading */
	pthread_mutex_destroy(&g->lock);
	pthread_cond_destroy(&g->more);
	for (struct chunk *c = g->head, *next; c; c = next) {
		next = c->next;
		if (!pooled(g, c->raw))
			free(c->raw);
		free(c->z);
		free(c);
	}
	for (size_t i = 0; i < g->nspare; i++)
		if (!pooled(g, g->spare[i]))
			free(g->spare[i]);
	free(g->spare);
	free(g->pool);
	end_worker(&g->mine);
	end_worker(&g->theirs);
	free(g);
}
