/* render_pprof.c: the call tree as a pprof profile (google/pprof's
 * profile.proto, Apache-2.0), gzip'd as `go tool pprof`, Pyroscope and
 * Parca take it, so a flame graph's stacks can go into the profiling
 * systems a team already runs.
 *
 * Every frame with self weight is one sample whose locations are its
 * stack, leaf first: the stacks and weights of the folded output, thread
 * and process roots included (as frames: a pprof reader shows the same
 * stacks). A distinct frame name is one function, and one location with
 * one line of it, both numbered alike, the most used first. One sample
 * type, named for the input's unit: µs are written as nanoseconds (times
 * 1000), so pprof shows times as times; samples, events and allocations
 * as counts, bytes as bytes. pprof's values are integers: weights with decimals (folded
 * counts such as 0.5) are refused. --format pprof (-o x.pb.gz, x.pprof)
 * writes it gzip'd, pprof-pb (-o x.pb) plain. */
#include "render.h"
#include "gzpar.h"
#include "core/pbwrite.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* the sample type for a unit, and what a weight is multiplied by */
struct ptype { const char *type, *unit; uint64_t scale; };

static struct ptype sample_type(const char *unit)
{
	static const struct { const char *ours; struct ptype t; } types[] = {
		{ "\xc2\xb5s", { "time", "nanoseconds", 1000 } },
		{ "ns", { "time", "nanoseconds", 1 } },
		{ "ms", { "time", "milliseconds", 1 } },
		{ "s", { "time", "seconds", 1 } },
		{ "bytes", { "space", "bytes", 1 } },
		{ "allocations", { "objects", "count", 1 } },
		{ "events", { "events", "count", 1 } },
	};
	for (size_t i = 0; unit && i < sizeof types / sizeof *types; i++)
		if (strcmp(unit, types[i].ours) == 0)
			return types[i].t;
	return (struct ptype){ "samples", "count", 1 };
}

/* A function id as a varint: its bytes end b, which is copied as 8, and
 * b[0] is their count (a 32-bit id is at most 5 bytes) */
struct code { uint8_t b[8]; };

/* The profile leaves in pieces as it is made, not whole at the end: the
 * bench's 9 MB were fresh pages (2,000 page faults) in a buffer grown by
 * copies, then read again from memory by zlib; a piece is still in the
 * cache. gzip'd, the pieces go to the deflater (gzpar.h), and its chunks
 * are deflated on a second thread while the next are made. Out as they
 * are made (the deflated chunks as they come), only when no sample can be
 * refused (the listed frames' weights add up below 2^63, fits): else
 * whole at the end, so that a refusal leaves no part of it on stdout. */
enum { PIECE = 1 << 16 };

/* A frame to write: its self weight, name and depth below the root
 * written: what the passes after the listing read of a node, so that they
 * read the list in order, not the nodes' array all over (the tree is read
 * once). Once listed, name is the frame's function's place in the order
 * they were met (w->fns, then codes). 16 bytes: the list is as many as
 * the nodes (the bench's: 469,505) and its pages are fresh. */
struct frame { uint64_t self; uint32_t name, depth; };

/* a function: how many times a sample names it, and when it was first met */
struct fn_use { uint64_t uses; uint32_t first, name; };

struct pw {
	struct af_sink *out;
	struct af_gzpar *gz;             /* NULL: written plain */
	bool pieces;                     /* sent in pieces (gzip'd, or fits) */
	bool fits;                       /* the frames listed weigh less than 2^63: none refused */
	struct af_tree *t;
	const uint8_t *excluded;
	struct af_buf b;
	struct frame *order;             /* the frames written, depth first */
	struct frame *order_room;        /* where order is, to free */
	size_t norder;
	uint32_t maxdepth;               /* the deepest frame's depth */
	uint32_t *names;                 /* function id - 1 -> name id */
	struct fn_use *fns;              /* the functions in the order met */
	uint32_t *met;                   /* name id -> 1 + its place in fns (0: not met) */
	uint32_t nfns;
	struct code *codes;              /* the functions as met -> their ids' varints */
	/* The stack being written as a sample's location ids, leaf first: its
	 * frames' varints ending at the end of stack, the root's last, so a
	 * sample's ids are the last upto[depth] bytes, one copy; a frame
	 * written at depth d goes in front of the first upto[d - 1] bytes. */
	uint8_t *stack;
	size_t cap_stack;
	size_t *upto;                    /* by depth: the ids' bytes from the root to it */
	uint64_t scale, most, total;     /* most: INT64_MAX / scale */
};

/* sum += self * scale; false (sum kept) when that is past 2^63 - 1. most
 * is INT64_MAX / scale (a division a node was a sixth of the listing's
 * time) */
static bool add_weight(uint64_t *sum, uint64_t self, uint64_t scale, uint64_t most)
{
	if (self > most || self * scale > (uint64_t)INT64_MAX - *sum)
		return false;
	*sum += self * scale;
	return true;
}

/* room in front of the stack's last `used` bytes, which move to the end */
static void grow_stack(struct pw *w, size_t used)
{
	size_t cap = w->cap_stack ? w->cap_stack : 256;
	while (cap < used + sizeof w->codes->b) {
		if (cap > SIZE_MAX / 2)
			AF_BUG("pprof stack size overflow");
		cap *= 2;
	}
	uint8_t *room = af_xmalloc(cap);
	if (used)
		memcpy(room + cap - used, w->stack + w->cap_stack - used, used);
	free(w->stack);
	w->stack = room;
	w->cap_stack = cap;
}

/* One sample: the stack's last ids bytes weighing self, as
 * af_pb_open, af_pb_packed (location ids, leaf first), af_pb_uint (the
 * value) and af_pb_close write it, built in place with its length known
 * first (those moved every sample of more than 127 bytes to fit it). */
static int write_sample(struct pw *w, size_t ids, uint64_t self, struct af_diag *d)
{
	if (!add_weight(&w->total, self, w->scale, w->most))
		return af_diag_error(d, "the weights add up past what a pprof value holds (2^63 - 1)");
	uint64_t v = self * w->scale;
	size_t body = 2 + af_pb_varint_len(ids) + ids + af_pb_varint_len(v);
	af_buf_reserve(&w->b, 11 + body);
	uint8_t *start = (uint8_t *)w->b.data + w->b.len, *p = start;
	*p++ = 2 << 3 | 2;   /* sample, length-delimited */
	p += af_pb_put_varint(p, body);
	*p++ = 1 << 3 | 2;   /* location_id, packed */
	p += af_pb_put_varint(p, ids);
	memcpy(p, w->stack + w->cap_stack - ids, ids);
	p += ids;
	*p++ = 2 << 3;       /* value */
	p += af_pb_put_varint(p, v);
	w->b.len += (size_t)(p - start);
	w->b.data[w->b.len] = 0;
	return 0;
}

/* w->b's bytes out, to the deflater when gzip'd (level 1, as the profile
 * is written once and read by programs: level 6 took several times longer
 * for a tenth less). w->b is left empty. */
static void drain(struct pw *w)
{
	if (w->gz)
		af_gzpar_add(w->gz, w->b.data, w->b.len);
	else
		af_sink_write(w->out, w->b.data, w->b.len);
	w->b.len = 0;
}

/* A piece out once the buffer holds one (only between messages) */
static void piece(struct pw *w)
{
	if (w->pieces && w->b.len >= PIECE)
		drain(w);
}

/* The frames are every node below root that is not excluded, depth
 * first, children in the order they were added (w->order). A node's
 * children are listed the last added first. Walking all of them before
 * the first (to turn their order round) read each node twice, the first
 * time out of order: cache misses, most of the listing's time. */

/* The tree walked as listed, depth first, each frame put down after those
 * below it, the list filled from its end: backwards, that is the order
 * wanted. */
struct visit { uint64_t self; uint32_t name, next; };

static void walk_frames(struct pw *w, uint32_t root)
{
	const struct af_node *nodes = w->t->nodes;
	size_t k = w->t->nnodes, n = 0, cap = 0;
	uint64_t sum = 0;
	w->fits = true;
	struct visit *path = NULL;   /* the nodes from the top down to the one walked */
	uint32_t c = nodes[root].first_child;
	for (;;) {
		while (c != AF_NONE) {   /* down the first child not excluded */
			const struct af_node *nd = &nodes[c];
			if (w->excluded && w->excluded[c]) {
				c = nd->next_sibling;
				continue;
			}
			if (n == cap)
				af_grow(&path, &cap, n + 1, sizeof *path);
			path[n++] = (struct visit){ nd->self, nd->name, nd->next_sibling };
			c = nd->first_child;
		}
		if (!n)
			break;
		struct visit v = path[--n];   /* all below it are listed */
		w->order_room[--k] = (struct frame){ v.self, v.name, (uint32_t)n };
		w->fits = w->fits && add_weight(&sum, v.self, w->scale, w->most);
		if (n > w->maxdepth)
			w->maxdepth = (uint32_t)n;
		c = v.next;
	}
	free(path);
	w->order = w->order_room + k;
	w->norder = w->t->nnodes - k;
}

/* The place in w->fns of the function named name, met now if not before */
static uint32_t meet(struct pw *w, uint32_t name)
{
	if (!w->met[name]) {
		w->fns[w->nfns] = (struct fn_use){ 0, w->nfns, name };
		w->met[name] = ++w->nfns;
	}
	return w->met[name] - 1;
}

/* The samples that name each function, for a list the walk made: a
 * frame is named by every sample at or below it, counted from the leaves
 * up, the list backwards: a frame's count is its own and the sum of those
 * one deeper since the last frame as deep as it or less (its children's).
 * Frames then name their functions' places in w->fns. */
static void count_uses(struct pw *w)
{
	uint32_t *acc = af_xcalloc((size_t)w->maxdepth + 2, sizeof *acc);
	uint64_t *uses = af_xcalloc(w->t->nnames ? w->t->nnames : 1, sizeof *uses);
	for (size_t k = w->norder; k-- > 0;) {
		const struct frame *f = &w->order[k];
		uint32_t below = (f->self != 0) + acc[f->depth + 1];
		acc[f->depth + 1] = 0;
		acc[f->depth] += below;
		uses[f->name] += below;
	}
	for (size_t k = 0; k < w->norder; k++) {
		uint32_t name = w->order[k].name, fn = meet(w, name);
		w->fns[fn].uses = uses[name];
		w->order[k].name = fn;
	}
	free(acc);
	free(uses);
}

/* A node on the way down in scan_frames: its first child, the last of its
 * children met so far, whether it is left out, else its function's place
 * in w->fns and the samples at or below it so far */
struct open { uint32_t node, first, last, fn, below; bool out; };

/* Whether e, all below it met, is a node whose list of children is those
 * met; its count goes to its function and its parent's */
static bool close_node(struct pw *w, const struct open *e, struct open *parent)
{
	if (!e->out) {
		w->fns[e->fn].uses += e->below;
		parent->below += e->below;
	}
	return e->first == e->last;
}

/* The nodes after root in the array's order, when that is the order
 * wanted, read once and in place (a reader that builds the tree depth
 * first, as the pprof one, makes it so): each node's parent is one of the
 * nodes above it on the way down (all of its subtree then follows it),
 * and each node's list of children is those met, the last met first (its
 * first child the last met, a child's next sibling the child met before
 * it). The functions are met and their uses counted on the way (a node's
 * count is complete when the way goes back up past it). False, nothing
 * listed or met, when that is not so. */
static bool scan_frames(struct pw *w, uint32_t root)
{
	const struct af_node *nodes = w->t->nodes;
	const uint8_t *excluded = w->excluded;
	size_t n = 1, cap = 16, k = 0, end = w->t->nnodes;
	uint32_t deepest = 0;
	uint64_t sum = 0, scale = w->scale, most = w->most;
	bool fits = true;
	struct open *up = af_xmalloc(cap * sizeof *up);
	up[0] = (struct open){ root, nodes[root].first_child, AF_NONE, 0, 0, false };
	bool ok = true;
	for (size_t i = (size_t)root + 1; i < end && ok; i++) {
		const struct af_node *nd = &nodes[i];
		while (up[n - 1].node != nd->parent && ok) {   /* up to its parent */
			n--;
			ok = n ? close_node(w, &up[n], &up[n - 1]) : up[0].first == up[0].last;
			if (!n)
				break;
		}
		if (!n || !ok)   /* past root's subtree, or not in order */
			break;
		if (nd->next_sibling != up[n - 1].last) {
			ok = false;
			break;
		}
		struct open *p = &up[n - 1];
		p->last = (uint32_t)i;
		struct open e = { (uint32_t)i, nd->first_child, AF_NONE, 0, nd->self != 0,
				  p->out || (excluded && excluded[i]) };
		if (!e.out) {
			e.fn = meet(w, nd->name);
			w->order_room[k++] = (struct frame){ nd->self, e.fn, (uint32_t)(n - 1) };
			fits = fits && add_weight(&sum, nd->self, scale, most);
			deepest = n - 1 > deepest ? (uint32_t)(n - 1) : deepest;
		}
		if (n == cap)
			af_grow(&up, &cap, n + 1, sizeof *up);
		up[n++] = e;
	}
	for (; n && ok; n--)
		ok = n > 1 ? close_node(w, &up[n - 1], &up[n - 2]) : up[0].first == up[0].last;
	free(up);
	w->order = w->order_room;
	w->norder = ok ? k : 0;
	w->maxdepth = ok ? deepest : 0;
	w->fits = fits;
	return ok;
}

static void list_frames(struct pw *w, uint32_t root)
{
	/* made at their largest at once: grown by doubling, the list was
	 * copies into fresh pages */
	size_t names = w->t->nnames ? w->t->nnames : 1;
	w->order_room = af_xmalloc_huge(w->t->nnodes * sizeof *w->order_room);
	w->fns = af_xmalloc(names * sizeof *w->fns);
	w->met = af_xcalloc(names, sizeof *w->met);
	if (!scan_frames(w, root)) {
		memset(w->met, 0, names * sizeof *w->met);
		w->nfns = 0;
		walk_frames(w, root);
		count_uses(w);
	}
}

/* fns (in the order met) by use, the most used first, ties in the order
 * met: a stable radix sort of the uses' complements, a byte a pass, the
 * bytes all alike skipped (qsort took 16.7M instructions on the bench's
 * 23,034 functions) */
static void sort_by_use(struct fn_use *sorted, size_t n)
{
	struct fn_use *fns = sorted, *tmp = af_xmalloc((n ? n : 1) * sizeof *tmp);
	for (unsigned shift = 0; shift < 64; shift += 8) {
		size_t count[256] = { 0 };
		for (size_t i = 0; i < n; i++)
			count[(uint8_t)(~fns[i].uses >> shift)]++;
		if (n == 0 || count[(uint8_t)(~fns[0].uses >> shift)] == n)
			continue;
		for (size_t b = 0, at = 0; b < 256; b++) {
			size_t c = count[b];
			count[b] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			tmp[count[(uint8_t)(~fns[i].uses >> shift)]++] = fns[i];
		struct fn_use *t = fns;
		fns = tmp;
		tmp = t;
	}
	if (fns != sorted) {   /* an odd number of passes */
		memcpy(sorted, fns, n * sizeof *fns);
		tmp = fns;
	}
	free(tmp);
}

/* Function (and location) ids by how often the samples name them, the
 * most named first: the ids most written are the 1- and 2-byte varints
 * (the bench's profile: 6.5 -> 5.6 MB of ids, a tenth less to deflate).
 * Ties go to the first met. */
static void number_functions(struct pw *w)
{
	sort_by_use(w->fns, w->nfns);
	w->codes = af_xmalloc((w->nfns ? w->nfns : 1) * sizeof *w->codes);
	for (uint32_t k = 0; k < w->nfns; k++) {
		w->names[k] = w->fns[k].name;
		struct code *c = &w->codes[w->fns[k].first];
		c->b[0] = (uint8_t)af_pb_varint_len(k + 1);
		af_pb_put_varint(c->b + sizeof c->b - c->b[0], k + 1);
	}
	free(w->met);
	free(w->fns);
	w->met = NULL;
	w->fns = NULL;
	w->upto = af_xmalloc(((size_t)w->maxdepth + 1) * sizeof *w->upto);
}

/* Each frame with self weight a sample, in the order listed: a frame's
 * stack is the one before it up to its parent's depth, and its function's
 * varint in front. The loop keeps what it reads of w in locals: a store
 * of bytes may alias any of w's fields, which were read again after each. */
static int write_samples(struct pw *w, struct af_diag *d)
{
	const struct code *codes = w->codes;
	size_t *upto = w->upto;
	uint8_t *end = w->stack + w->cap_stack;   /* the stack ends here */
	size_t cap = w->cap_stack;
	for (const struct frame *f = w->order, *last = f + w->norder; f < last; f++) {
		size_t used = f->depth ? upto[f->depth - 1] : 0;
		if (cap < used + sizeof codes->b) {
			grow_stack(w, used);
			end = w->stack + w->cap_stack;
			cap = w->cap_stack;
		}
		const struct code *c = &codes[f->name];
		memcpy(end - used - sizeof c->b, c->b, sizeof c->b);
		used += c->b[0];
		upto[f->depth] = used;
		if (f->self) {
			int rc = write_sample(w, used, f->self, d);
			if (rc)
				return rc;
			piece(w);
		}
	}
	return 0;
}

/* Function id k's location (of one line, the function), or the function
 * (its name the string k + 2), as af_pb_open/uint/close write them, put
 * in place: each is shorter than 128 bytes, so one length byte. */
static void put_location(struct pw *w, uint32_t k)
{
	af_buf_reserve(&w->b, 16);
	uint8_t *start = (uint8_t *)w->b.data + w->b.len, *p = start;
	size_t n = af_pb_varint_len(k);
	*p++ = 4 << 3 | 2;                  /* location */
	*p++ = (uint8_t)(2 * n + 4);
	*p++ = 1 << 3;                      /* its id */
	p += af_pb_put_varint(p, k);
	*p++ = 4 << 3 | 2;                  /* its line */
	*p++ = (uint8_t)(n + 1);
	*p++ = 1 << 3;                      /* the function's id */
	p += af_pb_put_varint(p, k);
	w->b.len += (size_t)(p - start);
	w->b.data[w->b.len] = 0;
}

static void put_function(struct pw *w, uint32_t k)
{
	af_buf_reserve(&w->b, 16);
	uint8_t *start = (uint8_t *)w->b.data + w->b.len, *p = start;
	size_t n = af_pb_varint_len(k), m = af_pb_varint_len((uint64_t)k + 2);
	*p++ = 5 << 3 | 2;                  /* function */
	*p++ = (uint8_t)(n + m + 2);
	*p++ = 1 << 3;                      /* its id */
	p += af_pb_put_varint(p, k);
	*p++ = 2 << 3;                      /* its name */
	p += af_pb_put_varint(p, (uint64_t)k + 2);
	w->b.len += (size_t)(p - start);
	w->b.data[w->b.len] = 0;
}

/* Locations, functions and the string table: "", the sample type's two
 * strings, then each function's name. In pieces, as the samples. */
static void write_tables(struct pw *w, struct ptype pt)
{
	for (uint32_t k = 1; k <= w->nfns; k++) {
		put_location(w, k);
		piece(w);
	}
	for (uint32_t k = 1; k <= w->nfns; k++) {
		put_function(w, k);
		piece(w);
	}
	af_pb_bytes(&w->b, 6, "", 0);
	af_pb_str(&w->b, 6, pt.type);
	af_pb_str(&w->b, 6, pt.unit);
	for (uint32_t k = 0; k < w->nfns; k++) {
		uint32_t name = w->names[k];
		af_pb_bytes(&w->b, 6, af_tree_name(w->t, name), af_tree_name_len(w->t, name));
		piece(w);
	}
}

int af_write_pprof(struct af_tree *t, uint32_t root, const uint8_t *excluded, unsigned decimals,
		   const char *unit, bool gzip, struct af_sink *out, struct af_diag *d)
{
	if (decimals)
		return af_diag_error(d, "pprof values are integers, and these weights have %u decimal%s "
				     "(folded counts such as 0.5)", decimals, decimals > 1 ? "s" : "");
	struct ptype pt = sample_type(unit);
	struct pw w = { .out = out, .gz = gzip ? af_gzpar_new(1) : NULL,
			.t = t, .excluded = excluded, .scale = pt.scale,
			.most = (uint64_t)INT64_MAX / pt.scale };
	af_buf_init(&w.b);
	w.names = af_xcalloc(t->nnames ? t->nnames : 1, sizeof *w.names);
	size_t m = af_pb_open(&w.b, 1);
	af_pb_uint(&w.b, 1, 1);
	af_pb_uint(&w.b, 2, 2);
	af_pb_close(&w.b, m);
	list_frames(&w, root);
	w.pieces = gzip || w.fits;
	if (gzip && w.fits)   /* no sample refused: the deflated chunks out as they come */
		af_gzpar_stream(w.gz, out);
	number_functions(&w);
	int rc = write_samples(&w, d);
	if (rc == 0) {
		write_tables(&w, pt);
		drain(&w);
		if (gzip)
			rc = af_gzpar_finish(w.gz, out, d);
	}
	af_gzpar_free(w.gz);
	af_buf_release(&w.b);
	free(w.names);
	free(w.upto);
	free(w.stack);
	free(w.codes);
	free(w.order_room);
	return rc < 0 ? -1 : out->error ? -1 : 0;
}

/* ---- their entries in the output table (render.h) ---- */

static int write_gzip(struct af_tree *t, uint32_t root, const uint8_t *excluded,
		      const struct af_render_opts *o, struct af_sink *out, struct af_diag *d)
{
	return af_write_pprof(t, root, excluded, o->decimals, o->count_name, true, out, d);
}

static int write_plain(struct af_tree *t, uint32_t root, const uint8_t *excluded,
		       const struct af_render_opts *o, struct af_sink *out, struct af_diag *d)
{
	return af_write_pprof(t, root, excluded, o->decimals, o->count_name, false, out, d);
}

/* gzip'd, as go tool pprof -proto and runtime/pprof write it */
const struct af_backend af_backend_pprof = {
	.format = AF_OUT_PPROF, .name = "pprof",
	.exts = (const char *const[]){ "pb.gz", "pprof", NULL }, .label = "pprof",
	.write = write_gzip,
};

/* the same protobuf, not compressed */
const struct af_backend af_backend_pprof_pb = {
	.format = AF_OUT_PPROF_PB, .name = "pprof-pb",
	.exts = (const char *const[]){ "pb", NULL }, .label = "pprof (plain)",
	.write = write_plain,
};
