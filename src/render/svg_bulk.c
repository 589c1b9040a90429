/* svg_bulk.c: D.z, the interactive SVG's names and frames (svg_bulk.h),
 * as page/unpack.js and frames.js read them. */
#include "svg_bulk.h"
#include "core/escape.h"
#include "core/idmap.h"
#include "core/label.h"
#include "core/util.h"

#include <stdlib.h>

/* D.n: the distinct names in order of first use; D.c: each one's colour
 * group (its colour in D.gc); JSON members on out. Fills
 * index[name id] with the position in D.n. */
static void data_names(const struct af_svg_bulk *b, uint32_t *index, struct af_sink *out)
{
	const struct af_layout *l = b->l;
	const struct af_tree *t = l->tree;
	uint32_t nnames = 0;
	for (size_t i = 0; i < t->nnames; i++)
		index[i] = AF_NONE;
	af_sink_puts(out, "\"n\":[");
	for (size_t i = 0; i < l->nframes; i++) {
		uint32_t id = l->frames[i].name;
		if (index[id] != AF_NONE)
			continue;
		index[id] = nnames;
		if (nnames++)
			af_sink_putc(out, ',');
		const char *name = af_tree_name(t, id);
		af_escape_json(out, name, af_label_shown_len(name, af_tree_name_len(t, id)));
	}
	af_sink_putc(out, ']');
	if (b->per_frame)
		return;
	af_sink_puts(out, ",\"c\":[");
	for (size_t i = 0, k = 0; i < l->nframes; i++) {
		uint32_t id = l->frames[i].name;
		if (index[id] != k)
			continue;     /* not this name's first frame */
		if (k++)
			af_sink_putc(out, ',');
		af_sink_u64(out, b->group[i]);
	}
	af_sink_putc(out, ']');
}

/* A frame's name in D.f: a callee is mostly one its caller's name has
 * called before, so it is written as its place among the names seen below
 * frames of its parent's name (in the order first seen), or, past those,
 * as a name never seen before (the next index of D.n, whose names are in
 * order of first use), or one past that plus its index. A root (depth 0)
 * is its index. frame_name() in frames.js reads it back. */
struct callees {
	struct af_idmap place;   /* parent's name << 32 | name -> place */
	uint32_t *count;         /* per parent's name: names seen below it */
	uint32_t seen;           /* names used so far */
};

static uint64_t callee_code(struct callees *c, uint32_t parent, uint32_t name)
{
	uint64_t v = name;
	if (parent != AF_NONE) {
		bool found;
		uint32_t *place = af_idmap_slot(&c->place, (uint64_t)parent << 32 | name, &found);
		if (found)
			return *place;
		*place = c->count[parent]++;
		v = name == c->seen ? *place : (uint64_t)*place + 1 + name;
	}
	c->seen += name == c->seen;
	return v;
}

/* D.f: three or four integers per frame, in pre-order: its depth and
 * where it starts, as levels popped since the previous frame
 * (depth[i-1] + 1 - depth[i]) times two, plus one when the start is not
 * where it would be if it touched its left neighbour (the previous
 * sibling's end, or the parent's start: narrow frames were left out, or
 * the parent has self weight), then that difference; its name (above);
 * its parent's width minus its own (the root: its width). Mostly
 * one-character numbers: about 3 bytes a frame at 200k frames, where the
 * widths and indices of names took 7. */
static void data_frames(const struct af_layout *l, const uint32_t *index, struct af_sink *out)
{
	size_t depths = (size_t)l->max_depth + 2;
	/* per depth: where the next frame would start, the last frame */
	uint64_t *next = af_xcalloc(depths, sizeof *next);
	size_t *path = af_xcalloc(depths, sizeof *path);
	struct callees c = { .count = af_xcalloc(l->tree->nnames ? l->tree->nnames : 1, sizeof *c.count) };
	af_idmap_init(&c.place);
	af_sink_puts(out, ",\"f\":\"");   /* a JSON string: no line continuations */
	for (size_t i = 0; i < l->nframes; i++) {
		const struct af_frame *f = &l->frames[i];
		const struct af_frame *up = f->depth ? &l->frames[path[f->depth - 1]] : NULL;
		uint32_t prev_depth = i ? l->frames[i - 1].depth : 0;
		uint64_t expect = i == 0 ? 0 : f->depth == prev_depth + 1 ? l->frames[i - 1].start
				: next[f->depth];
		uint64_t popped = i ? prev_depth + 1 - f->depth : 0;
		char rec[4 * AF_BASE32_MAX];   /* one write a frame */
		size_t n = af_base32(rec, popped * 2 + (f->start != expect));
		if (f->start != expect)
			n += af_base32_diff(rec + n, f->start, expect);
		n += af_base32(rec + n, callee_code(&c, up ? index[up->name] : AF_NONE, index[f->name]));
		n += up ? af_base32_diff(rec + n, up->width, f->width) : af_base32(rec + n, f->width);
		af_sink_write(out, rec, n);
		next[f->depth] = f->start + f->width;
		path[f->depth] = i;
	}
	af_sink_putc(out, '"');
	af_idmap_release(&c.place);
	free(c.count);
	free(path);
	free(next);
}

/* The JSON, on the job's thread (pack.h) */
static void fill(void *ctx, struct af_sink *out)
{
	const struct af_svg_bulk *b = ctx;
	uint32_t *index = af_xmalloc((b->l->tree->nnames ? b->l->tree->nnames : 1) * sizeof *index);
	af_sink_putc(out, '{');
	data_names(b, index, out);
	data_frames(b->l, index, out);
	af_sink_putc(out, '}');
	free(index);
}

void af_svg_bulk_begin(struct af_svg_bulk *b, const struct af_layout *l, const uint32_t *group,
		       bool per_frame)
{
	b->l = l;
	b->group = group;
	b->per_frame = per_frame;
	af_pack_begin(&b->pack, fill, b);
}

int af_svg_bulk_end(struct af_svg_bulk *b, struct af_sink *out, struct af_diag *d)
{
	af_sink_printf(out, ",\nzn:%zu,z:", af_pack_wait(&b->pack));
	return af_pack_end(&b->pack, out, d);
}

void af_svg_bulk_cancel(struct af_svg_bulk *b)
{
	af_pack_cancel(&b->pack);
}
