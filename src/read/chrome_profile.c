/* chrome_profile.c: V8 CPU profiles inside Chrome trace-event JSON (the JS
 * sampler of DevTools' Performance panel and of Chrome/WebView traces; see
 * chrome.h): a profile event's nodes become stackFrames entries and its
 * samples wait, with their time deltas, until the parse ends; then each
 * profile's samples are timed (its startTime plus the deltas, in file
 * order of its chunks) and become samples of the thread its Profile event
 * names, so they fold as the other samples do: each weighs the time to the
 * thread's next sample. A profile's last sample weighs nothing (an empty
 * sample ends it there, so the gap to a later profile on the thread is not
 * drawn), as in a .cpuprofile. */
#include "chrome.h"
#include "core/util.h"

#include <stdlib.h>

/* A profile's key: its pid and id (ids are a process's own); without an
 * id, its thread (as Chrome's older events name it), and for a CpuProfile
 * event the event itself (each holds a whole profile). */
static uint64_t profile_key(const struct chrome *c, const struct chrome_event *e, bool whole)
{
	uint64_t pid = (uint64_t)(e->has_pid ? e->pid : 0), k;
	if (e->has_id)
		k = af_hash64(pid ^ af_hash64(e->id ^ 0x9e0f));
	else
		k = af_hash64(pid ^ af_hash64((uint64_t)(e->has_tid ? e->tid : 0) ^ 0x7a3d));
	return whole ? af_hash64(k ^ c->seq) : k;
}

static uint64_t node_key(uint64_t profile, int64_t id)
{
	uint64_t k = af_hash64(profile ^ af_hash64((uint64_t)id)) | (uint64_t)1 << 63;
	return k == CHROME_NO_FRAME ? k - 1 : k;
}

/* The profile a Profile or CpuProfile event begins (the first of a key). */
static void profile_begin(struct chrome *c, const struct chrome_event *e, uint64_t key, uint32_t th)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&c->vprof_index, key, &found);
	if (found) {
		c->st.profile_dups++;
		return;
	}
	*slot = (uint32_t)c->nvprofs;
	int64_t start = c->pend.has_start ? c->pend.start : e->has_ts ? e->ts : 0;
	af_grow(&c->vprofs, &c->cap_vprofs, c->nvprofs + 1, sizeof *c->vprofs);
	c->vprofs[c->nvprofs++] = (struct chrome_vprofile){ .key = key, .thread = th, .elapsed = start,
							    .last = start, .last_frame = CHROME_NO_FRAME };
	c->st.profiles++;
}

/* The event's nodes as frames: parents from "parent" ids or from the
 * parents' "children" lists. */
static void keep_nodes(struct chrome *c, uint64_t key)
{
	const struct chrome_pending *pd = &c->pend;
	size_t first = c->nframes;
	for (size_t i = 0; i < pd->nnodes; i++) {
		const struct chrome_pnode *nd = &pd->nodes[i];
		if (nd->id < 0)
			continue;
		uint64_t k = node_key(key, nd->id);
		af_grow(&c->frames, &c->cap_frames, c->nframes + 1, sizeof *c->frames);
		c->frames[c->nframes] = (struct chrome_frame){ k, nd->parent >= 0 ? node_key(key, nd->parent)
							       : CHROME_NO_FRAME, nd->name };
		af_idmap_put(&c->frame_index, k, (uint32_t)c->nframes);
		c->nframes++;
		c->st.frames++;
	}
	for (size_t i = 0; i + 1 < pd->nkids; i += 2) {
		const struct chrome_pnode *parent = &pd->nodes[pd->kids[i]];
		uint32_t child = af_idmap_get(&c->frame_index, node_key(key, pd->kids[i + 1]));
		if (parent->id >= 0 && child != AF_NONE && child >= first)
			c->frames[child].parent = node_key(key, parent->id);
	}
}

/* The samples and their deltas: args.data.timeDeltas (a chunk's), else
 * the cpuProfile's own (a CpuProfile event; some writers put a whole
 * profile, deltas and all, into one chunk and repeat them in args.data). */
static void keep_samples(struct chrome *c, uint64_t key)
{
	const struct chrome_pending *pd = &c->pend;
	const int64_t *deltas = pd->ndeltas ? pd->deltas : pd->cdeltas;
	size_t nd = pd->ndeltas ? pd->ndeltas : pd->ncdeltas;
	size_t n = pd->nsamples < nd ? pd->nsamples : nd;
	c->st.profile_unpaired += pd->nsamples + nd - 2 * n;
	for (size_t i = 0; i < n; i++) {
		af_grow(&c->psamples, &c->cap_psamples, c->npsamples + 1, sizeof *c->psamples);
		c->psamples[c->npsamples++] = (struct chrome_psample){ key, node_key(key, pd->samples[i]),
								       deltas[i] };
	}
}

void chrome_profile_event(struct chrome *c, const struct chrome_event *e, enum chrome_pkind kind,
			  uint32_t thread)
{
	bool chunk = kind == CHROME_PROFILE_CHUNK;
	uint64_t key = profile_key(c, e, kind == CHROME_CPU_PROFILE);
	if (!chunk)
		profile_begin(c, e, key, thread);
	c->st.profile_chunks += chunk;
	keep_nodes(c, key);
	keep_samples(c, key);
}

static void add_sample(struct chrome *c, int64_t ts, uint64_t frame, uint32_t thread, uint32_t seq)
{
	af_grow(&c->samples, &c->cap_samples, c->nsamples + 1, sizeof *c->samples);
	c->samples[c->nsamples++] = (struct chrome_sample){ ts, frame, thread, seq };
	c->threads[thread].events++;
	if (ts < c->min_ts || !c->have_ts) {
		c->min_ts = ts;
		c->max_ts = c->have_ts ? c->max_ts : ts;
		c->have_ts = true;
	}
	if (ts > c->max_ts)
		c->max_ts = ts;
}

/* Each sample's time is its profile's elapsed time (a negative delta
 * counts back, as V8 meant, but no sample is drawn before the one before
 * it: speedscope's rule); a run of samples of one node is one sample. */
void chrome_profiles_resolve(struct chrome *c)
{
	uint32_t seq = c->seq < UINT32_MAX ? (uint32_t)c->seq : UINT32_MAX;
	for (size_t i = 0; i < c->npsamples; i++) {
		const struct chrome_psample *ps = &c->psamples[i];
		uint32_t v = af_idmap_get(&c->vprof_index, ps->profile);
		if (v == AF_NONE) {
			c->st.profile_orphans++;
			continue;
		}
		struct chrome_vprofile *vp = &c->vprofs[v];
		vp->elapsed += ps->delta;
		c->st.profile_backwards += vp->elapsed < vp->last;
		int64_t t = vp->elapsed > vp->last ? vp->elapsed : vp->last;
		c->st.profile_samples++;
		if (!vp->sampled || ps->frame != vp->last_frame)
			add_sample(c, t, ps->frame, vp->thread, seq < UINT32_MAX ? seq++ : seq);
		vp->sampled = true;
		vp->last = t;
		vp->last_frame = ps->frame;
	}
	for (size_t i = 0; i < c->nvprofs; i++)
		if (c->vprofs[i].sampled)
			add_sample(c, c->vprofs[i].last, CHROME_NO_FRAME, c->vprofs[i].thread,
				   seq < UINT32_MAX ? seq++ : seq);
	free(c->psamples);
	c->psamples = NULL;
	c->npsamples = c->cap_psamples = 0;
}

void chrome_pending_release(struct chrome_pending *pd)
{
	free(pd->nodes);
	free(pd->kids);
	free(pd->samples);
	free(pd->deltas);
	free(pd->cdeltas);
	af_buf_release(&pd->fn);
	af_buf_release(&pd->url);
}
