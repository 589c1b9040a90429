/* chrome_parse.c: Chrome trace-event JSON (the Trace Event Format) read by
 * callbacks (json.h, yajl's shape) into chrome.h's tables. The input is either
 *
 *   {"traceEvents": [event, ...], "samples": [...], "stackFrames": {...}, ...}
 *   [event, ...]            (the bare array, which Chrome may leave unterminated)
 *
 * Each container open has a role (the events array, an event, its args...);
 * a member's key says what its value is to its container's role, and a
 * value nobody needs is skipped whole. An event is acted on when its object
 * ends, since its members come in any order. */
#include "chrome.h"
#include "v8frame.h"
#include "core/names.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

enum role {
	R_SKIP, R_TOP, R_EVENTS, R_EVENT, R_ARGS, R_ID2, R_SAMPLES, R_SAMPLE, R_FRAMES, R_FRAME,
	/* a profile event's args.data, its cpuProfile and what they hold */
	R_DATA, R_CPUPROF, R_PNODES, R_PNODE, R_PCALLFRAME, R_PKIDS, R_PSAMPLES, R_PDELTAS, R_PCDELTAS,
};

enum key {
	K_OTHER, K_TRACE_EVENTS, K_SAMPLES, K_STACK_FRAMES, K_SYSTEM, K_PH, K_NAME, K_CAT, K_PID,
	K_TID, K_TS, K_DUR, K_TDUR, K_ID, K_ID2, K_ARGS, K_ID2_PART, K_SF, K_PARENT,
	K_DATA, K_CPUPROFILE, K_NODES, K_DELTAS, K_START, K_CALLFRAME, K_CHILDREN, K_FUNCTION, K_URL,
	K_LINE,
};

static bool is(const unsigned char *s, size_t n, const char *lit)
{
	return n == strlen(lit) && memcmp(s, lit, n) == 0;
}

static enum role role_now(const struct chrome *c)
{
	uint64_t d = c->json.depth;
	return d == 0 || d > CHROME_MAX_ROLES ? R_SKIP : (enum role)c->role[d - 1];
}

/* Below an event's args: a V8 profile's parts. */
static enum role profile_role(const struct chrome *c, bool map)
{
	switch (role_now(c)) {
	case R_ARGS:
		return map && c->key == K_DATA ? R_DATA : R_SKIP;
	case R_DATA:
	case R_CPUPROF:
		if (map)
			return c->key == K_CPUPROFILE && role_now(c) == R_DATA ? R_CPUPROF : R_SKIP;
		if (c->key == K_DELTAS)   /* the chunk's, or (CpuProfile) the profile's */
			return role_now(c) == R_DATA ? R_PDELTAS : R_PCDELTAS;
		return c->key == K_NODES ? R_PNODES : c->key == K_SAMPLES ? R_PSAMPLES : R_SKIP;
	case R_PNODES:
		return map ? R_PNODE : R_SKIP;
	case R_PNODE:
		if (map)
			return c->key == K_CALLFRAME ? R_PCALLFRAME : R_SKIP;
		return c->key == K_CHILDREN ? R_PKIDS : R_SKIP;
	default:
		return R_SKIP;
	}
}

/* The role of a container opening as the value of the current member (or
 * as an element of the current array). */
static enum role child_role(const struct chrome *c, bool map)
{
	if (c->json.depth == 0)
		return map ? R_TOP : R_EVENTS;
	switch (role_now(c)) {
	case R_TOP:
		if (c->key == K_TRACE_EVENTS && !map)
			return R_EVENTS;
		if (c->key == K_SAMPLES && !map)
			return R_SAMPLES;
		return c->key == K_STACK_FRAMES && map ? R_FRAMES : R_SKIP;
	case R_EVENTS:
		return map ? R_EVENT : R_SKIP;
	case R_EVENT:
		if (map && c->key == K_ARGS)
			return R_ARGS;
		return map && c->key == K_ID2 ? R_ID2 : R_SKIP;
	case R_SAMPLES:
		return map ? R_SAMPLE : R_SKIP;
	case R_FRAMES:
		return map ? R_FRAME : R_SKIP;
	case R_SKIP:
		return R_SKIP;   /* most containers: no second look */
	default:
		return profile_role(c, map);
	}
}

static void event_reset(struct chrome *c)
{
	struct chrome_event *e = &c->ev;
	e->ph = 0;
	e->has_ts = e->has_dur = e->has_tdur = e->has_id = e->has_pid = e->has_tid = e->has_sf = false;
	e->name.len = e->cat.len = e->arg_name.len = 0;
	struct chrome_pending *pd = &c->pend;
	pd->nnodes = pd->nkids = pd->nsamples = pd->ndeltas = pd->ncdeltas = 0;
	pd->has_start = false;
}

/* A profile node opens: its entry now (its children's ids point at it). */
static void pnode_open(struct chrome *c)
{
	struct chrome_pending *pd = &c->pend;
	af_grow(&pd->nodes, &pd->cap_nodes, pd->nnodes + 1, sizeof *pd->nodes);
	pd->nodes[pd->nnodes++] = (struct chrome_pnode){ .id = -1, .parent = -1, .name = AF_NONE };
	pd->fn.len = pd->url.len = 0;
	pd->line = -1;
}

static int open_container(struct chrome *c, bool map)
{
	enum role r = child_role(c, map);
	if (c->json.depth == 0)
		c->object_form = map;
	if (r == R_EVENT || r == R_SAMPLE || r == R_FRAME)
		event_reset(c);
	else if (r == R_PNODE)
		pnode_open(c);
	if (c->json.depth < CHROME_MAX_ROLES)
		c->role[c->json.depth] = (uint8_t)r;
	c->json.depth++;
	c->key = K_OTHER;
	return 1;
}

static int on_start_map(void *ctx)
{
	return open_container(ctx, true);
}

static int on_start_array(void *ctx)
{
	return open_container(ctx, false);
}

static enum key event_key(const unsigned char *s, size_t n)
{
	switch (n) {
	case 2:
		return is(s, n, "ph") ? K_PH : is(s, n, "ts") ? K_TS : is(s, n, "id") ? K_ID
			: is(s, n, "sf") ? K_SF : K_OTHER;
	case 3:
		return is(s, n, "pid") ? K_PID : is(s, n, "tid") ? K_TID : is(s, n, "cat") ? K_CAT
			: is(s, n, "dur") ? K_DUR : is(s, n, "id2") ? K_ID2 : K_OTHER;
	case 4:
		return is(s, n, "name") ? K_NAME : is(s, n, "args") ? K_ARGS : is(s, n, "tdur") ? K_TDUR : K_OTHER;
	default:
		return K_OTHER;
	}
}

static int on_key(void *ctx, const unsigned char *s, size_t n)
{
	struct chrome *c = ctx;
	switch (role_now(c)) {
	case R_TOP:
		c->key = is(s, n, "traceEvents") ? K_TRACE_EVENTS : is(s, n, "samples") ? K_SAMPLES
			: is(s, n, "stackFrames") ? K_STACK_FRAMES : is(s, n, "systemTraceEvents") ? K_SYSTEM
			: K_OTHER;
		break;
	case R_EVENT:
	case R_SAMPLE:
		c->key = event_key(s, n);
		break;
	case R_ARGS:
		c->key = is(s, n, "name") ? K_NAME : is(s, n, "data") ? K_DATA : K_OTHER;
		break;
	case R_DATA:
	case R_CPUPROF:
		c->key = is(s, n, "cpuProfile") ? K_CPUPROFILE : is(s, n, "nodes") ? K_NODES
			: is(s, n, "samples") ? K_SAMPLES : is(s, n, "timeDeltas") ? K_DELTAS
			: is(s, n, "startTime") ? K_START : K_OTHER;
		break;
	case R_PNODE:
	case R_PCALLFRAME:
		c->key = is(s, n, "id") ? K_ID : is(s, n, "parent") ? K_PARENT : is(s, n, "callFrame") ? K_CALLFRAME
			: is(s, n, "children") ? K_CHILDREN : is(s, n, "functionName") ? K_FUNCTION
			: is(s, n, "url") ? K_URL : is(s, n, "lineNumber") ? K_LINE : K_OTHER;
		break;
	case R_ID2:
		c->key = is(s, n, "local") || is(s, n, "global") ? K_ID2_PART : K_OTHER;
		break;
	case R_FRAMES:
		c->frame_key = chrome_frame_key((const char *)s, n);
		break;
	case R_FRAME:
		c->key = is(s, n, "name") ? K_NAME : is(s, n, "parent") ? K_PARENT : K_OTHER;
		break;
	default:
		c->key = K_OTHER;
	}
	return 1;
}

uint64_t chrome_frame_key(const char *s, size_t n)
{
	int64_t v;
	if (n && n < 19 && s[0] != '-' && af_json_int(s, n, &v) && memchr(s, '.', n) == NULL)
		return (uint64_t)v;
	return af_hash_keyed_bytes(s, n) | (uint64_t)1 << 63;
}

/* A pid or tid: a number, or a string that names one; any other string
 * stands for an id of its own above every 32-bit one, numbered in the order
 * the strings first appear (not by their hash, whose key changes from run
 * to run: the id is printed in the thread's root). */
static int64_t pid_value(struct chrome *c, const char *s, size_t n)
{
	int64_t v;
	if (af_json_int(s, n, &v))
		return v;
	c->st.bad_numbers += n == 0;
	bool found;
	uint32_t *slot = af_idmap_slot(&c->string_ids, af_hash_keyed_bytes(s, n), &found);
	if (!found) {
		uint32_t id = *slot = (uint32_t)c->string_ids.n - 1;
		af_grow(&c->string_names, &c->cap_string_names, (size_t)id + 1, sizeof *c->string_names);
		c->scratch.len = 0;
		af_name_append(&c->scratch, s, n);
		af_name_finish(&c->scratch, 0);
		c->string_names[id] = af_tree_intern(&c->p->tree, c->scratch.data, c->scratch.len);
		return (int64_t)((uint64_t)id | (uint64_t)1 << 32);
	}
	return (int64_t)((uint64_t)*slot | (uint64_t)1 << 32);
}

/* The name a process or thread has from its id: the string that stood for
 * it (until metadata names it), else none. */
static uint32_t id_name(const struct chrome *c, int64_t id)
{
	uint64_t i = (uint64_t)id - ((uint64_t)1 << 32);
	return id >= 0 && i < c->string_ids.n ? c->string_names[i] : AF_NONE;
}

static void set_ts(struct chrome *c, const char *s, size_t n, int64_t *to, bool *has)
{
	if (af_json_ns(s, n, to))
		*has = true;
	else
		c->st.bad_numbers++;
}

/* A scalar member of an event or sample (strings and numbers alike). */
static void event_value(struct chrome *c, const char *s, size_t n)
{
	struct chrome_event *e = &c->ev;
	switch (c->key) {
	case K_PH: e->ph = n ? s[0] : 0; break;
	case K_NAME: af_buf_add(&e->name, s, n); break;
	case K_CAT: af_buf_add(&e->cat, s, n); break;
	case K_PID: e->pid = pid_value(c, s, n); e->has_pid = true; break;
	case K_TID: e->tid = pid_value(c, s, n); e->has_tid = true; break;
	case K_TS: set_ts(c, s, n, &e->ts, &e->has_ts); break;
	case K_DUR: set_ts(c, s, n, &e->dur, &e->has_dur); break;
	case K_TDUR: set_ts(c, s, n, &e->tdur, &e->has_tdur); break;
	case K_ID: e->id = af_hash_keyed_bytes(s, n); e->has_id = true; break;
	case K_SF: e->sf = chrome_frame_key(s, n); e->has_sf = true; break;
	default: break;
	}
}

static void push_i64(struct chrome *c, int64_t **a, size_t *n, size_t *cap, const char *s, size_t len,
		     bool ns)
{
	int64_t v;
	if (!(ns ? af_json_ns(s, len, &v) : af_json_int(s, len, &v))) {
		c->st.bad_numbers++;
		return;
	}
	af_grow(a, cap, *n + 1, sizeof **a);
	(*a)[(*n)++] = v;
}

/* A scalar of a profile event's args (see chrome.h). */
static void profile_value(struct chrome *c, enum role r, const char *s, size_t n, bool str)
{
	struct chrome_pending *pd = &c->pend;
	struct chrome_pnode *nd = pd->nnodes ? &pd->nodes[pd->nnodes - 1] : NULL;
	int64_t v;
	if ((r == R_DATA || r == R_CPUPROF) && c->key == K_START) {
		pd->has_start = af_json_ns(s, n, &pd->start);
		c->st.bad_numbers += !pd->has_start;
	} else if (r == R_PSAMPLES) {
		push_i64(c, &pd->samples, &pd->nsamples, &pd->cap_samples, s, n, false);
	} else if (r == R_PDELTAS) {
		push_i64(c, &pd->deltas, &pd->ndeltas, &pd->cap_deltas, s, n, true);
	} else if (r == R_PCDELTAS) {
		push_i64(c, &pd->cdeltas, &pd->ncdeltas, &pd->cap_cdeltas, s, n, true);
	} else if (r == R_PKIDS && nd && af_json_int(s, n, &v)) {
		af_grow(&pd->kids, &pd->cap_kids, pd->nkids + 2, sizeof *pd->kids);
		pd->kids[pd->nkids++] = (int64_t)(pd->nnodes - 1);
		pd->kids[pd->nkids++] = v;
	} else if ((r == R_PNODE || r == R_PCALLFRAME) && nd) {
		switch (c->key) {
		case K_ID: if (af_json_int(s, n, &v)) nd->id = v; break;
		case K_PARENT: if (af_json_int(s, n, &v)) nd->parent = v; break;
		case K_FUNCTION: af_buf_add(&pd->fn, s, n); break;
		case K_URL: af_buf_add(&pd->url, s, n); break;
		case K_LINE: if (!str && af_json_int(s, n, &v)) pd->line = v; break;
		default: break;
		}
	}
}

static int scalar(struct chrome *c, const char *s, size_t n, bool str)
{
	enum role r = role_now(c);
	switch (r) {
	case R_EVENT:
	case R_SAMPLE:
		event_value(c, s, n);
		break;
	case R_ARGS:
		if (c->key == K_NAME)
			af_buf_add(&c->ev.arg_name, s, n);
		break;
	case R_ID2:
		if (c->key == K_ID2_PART) {
			c->ev.id = af_hash_keyed_bytes(s, n) ^ 0x1d2;
			c->ev.has_id = true;
		}
		break;
	case R_FRAME:
		if (c->key == K_NAME)
			af_buf_add(&c->ev.name, s, n);
		else if (c->key == K_PARENT) {
			c->ev.sf = chrome_frame_key(s, n);
			c->ev.has_sf = true;
		}
		break;
	case R_TOP:
		c->st.system_trace_events += c->key == K_SYSTEM;
		break;
	case R_SKIP:
		break;
	default:
		profile_value(c, r, s, n, str);
		break;
	}
	return 1;
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	return scalar(ctx, (const char *)s, n, true);
}

static int on_number(void *ctx, const char *s, size_t n)
{
	return scalar(ctx, s, n, false);
}

static int on_other(void *ctx)
{
	struct chrome *c = ctx;
	if (c->json.depth == 0)
		return af_json_fail(&c->json, "JSON but not trace events (a lone value)");
	return 1;
}

static int on_bool(void *ctx, int b)
{
	(void)b;
	return on_other(ctx);
}

/* ---- what an event adds ---- */

/* The name in b as a frame name, interned in the profile's tree. */
static uint32_t intern(struct chrome *c, const struct af_buf *b, const char *none)
{
	if (b->len == 0)
		return af_tree_intern_str(&c->p->tree, none);
	struct af_buf *s = &c->scratch;
	s->len = 0;
	af_name_append(s, b->data, b->len);
	af_name_finish(s, 0);
	return af_tree_intern(&c->p->tree, s->data, s->len);
}

static void see_ts(struct chrome *c, int64_t ts)
{
	if (!c->have_ts) {
		c->have_ts = true;
		c->min_ts = c->max_ts = ts;
	}
	if (ts < c->min_ts)
		c->min_ts = ts;
	if (ts > c->max_ts)
		c->max_ts = ts;
}

static void slice_event(struct chrome *c, struct chrome_event *e)
{
	uint32_t th = chrome_thread(c, e->has_pid ? e->pid : 0, e->has_tid ? e->tid : 0);
	uint32_t name = e->ph == 'E' && e->name.len == 0 ? AF_NONE : intern(c, &e->name, "(unnamed)");
	/* an X without "dur" lasts its thread time, as speedscope reads it */
	int64_t dur = e->ph != 'X' ? 0 : e->has_dur ? e->dur : e->has_tdur ? e->tdur : 0;
	dur = dur > 0 ? dur : 0;
	c->st.slices_b += e->ph == 'B';
	c->st.slices_e += e->ph == 'E';
	c->st.slices_x += e->ph == 'X';
	af_grow(&c->recs, &c->cap_recs, c->nrecs + 1, sizeof *c->recs);
	c->recs[c->nrecs++] = (struct chrome_rec){ e->ts, dur, th, name, (uint32_t)c->seq, e->ph };
	see_ts(c, e->ts);
	if (dur)
		see_ts(c, e->ts + dur);
	c->threads[th].events++;
}

static void async_event(struct chrome *c, struct chrome_event *e)
{
	int64_t pid = e->has_pid ? e->pid : 0;
	uint32_t name = intern(c, &e->name, "(unnamed)");
	uint64_t key = af_hash64((uint64_t)pid ^ af_hash64(e->has_id ? e->id : 0));
	key = af_hash64(key ^ af_hash_keyed_bytes(e->cat.data, e->cat.len) ^ (uint64_t)name << 20);
	bool begin = e->ph == 'b' || e->ph == 'S';
	c->st.async_begins += begin;
	c->st.async_ends += !begin;
	af_grow(&c->async, &c->cap_async, c->nasync + 1, sizeof *c->async);
	c->async[c->nasync++] = (struct chrome_async){ e->ts, key, chrome_proc(c, pid), name,
						       (uint32_t)c->seq, begin };
}

static void metadata(struct chrome *c, struct chrome_event *e)
{
	c->st.metadata++;
	int64_t pid = e->has_pid ? e->pid : 0;
	if (e->arg_name.len == 0)
		return;
	/* the index first: making the entry may move the table */
	if (e->name.len == 12 && memcmp(e->name.data, "process_name", 12) == 0) {
		uint32_t i = chrome_proc(c, pid);
		c->procs[i].name = intern(c, &e->arg_name, "");
	} else if (e->name.len == 11 && memcmp(e->name.data, "thread_name", 11) == 0) {
		uint32_t i = chrome_thread(c, pid, e->has_tid ? e->tid : 0);
		c->threads[i].name = intern(c, &e->arg_name, "");
	}
}

static void event_end(struct chrome *c)
{
	struct chrome_event *e = &c->ev;
	c->st.events++;
	c->seq++;
	bool timed = strchr("BEXbeSF", e->ph) != NULL;
	if (e->ph && timed && !e->has_ts) {
		c->st.no_ts++;
		return;
	}
	const unsigned char *name = (const unsigned char *)e->name.data;
	int kind = is(name, e->name.len, "CpuProfile") ? CHROME_CPU_PROFILE
		: e->ph != 'P' ? -1 : is(name, e->name.len, "Profile") ? CHROME_PROFILE
		: is(name, e->name.len, "ProfileChunk") ? CHROME_PROFILE_CHUNK : -1;
	if (kind >= 0) {
		uint32_t th = kind == CHROME_PROFILE_CHUNK ? AF_NONE
			: chrome_thread(c, e->has_pid ? e->pid : 0, e->has_tid ? e->tid : 0);
		chrome_profile_event(c, e, (enum chrome_pkind)kind, th);
		return;
	}
	switch (e->ph) {
	case 0: c->st.no_ph++; break;
	case 'B': case 'E': case 'X': slice_event(c, e); break;
	case 'b': case 'e': case 'S': case 'F': async_event(c, e); break;
	case 'n': case 'T': case 'p': c->st.instants_async++; break;
	case 'M': metadata(c, e); break;
	case 'i': case 'I': case 'R': c->st.instants++; break;
	case 'C': c->st.counters++; break;
	case 's': case 't': case 'f': c->st.flows++; break;
	case 'P': c->st.samples_ph++; break;
	default: c->st.other++;
	}
}

static void sample_end(struct chrome *c)
{
	struct chrome_event *e = &c->ev;
	c->seq++;
	if (!e->has_ts || !e->has_sf) {
		c->st.no_ts++;
		return;
	}
	int64_t pid = e->has_pid ? e->pid : 0;
	if (!e->has_pid && e->has_tid) {   /* Chrome's samples name no pid: the tid's */
		uint32_t t = af_idmap_get(&c->tid_index, (uint64_t)e->tid);
		pid = t != AF_NONE ? c->threads[t].pid : 0;
	}
	uint32_t th = chrome_thread(c, pid, e->has_tid ? e->tid : 0);
	af_grow(&c->samples, &c->cap_samples, c->nsamples + 1, sizeof *c->samples);
	c->samples[c->nsamples++] = (struct chrome_sample){ e->ts, e->sf, th, (uint32_t)c->seq };
	c->st.samples++;
	see_ts(c, e->ts);
	c->threads[th].events++;
}

static void frame_end(struct chrome *c)
{
	struct chrome_event *e = &c->ev;
	af_grow(&c->frames, &c->cap_frames, c->nframes + 1, sizeof *c->frames);
	c->frames[c->nframes] = (struct chrome_frame){ c->frame_key, e->has_sf ? e->sf : CHROME_NO_FRAME,
						      intern(c, &e->name, "(unnamed)") };
	af_idmap_put(&c->frame_index, c->frame_key, (uint32_t)c->nframes);
	c->nframes++;
	c->st.frames++;
}

/* A profile node ends: its frame name ("(root)" none). */
static void pnode_end(struct chrome *c)
{
	struct chrome_pending *pd = &c->pend;
	struct chrome_pnode *nd = &pd->nodes[pd->nnodes - 1];
	if (!af_v8_is_root(pd->fn.data, pd->fn.len, pd->url.len))
		nd->name = af_v8_frame(&c->p->tree, &c->scratch, pd->fn.data, pd->fn.len, pd->url.data,
				       pd->url.len, pd->line);
}

static int close_container(void *ctx)
{
	struct chrome *c = ctx;
	enum role r = role_now(c);
	c->json.depth--;
	c->key = K_OTHER;
	if (c->seq >= UINT32_MAX - 1)
		return af_json_fail(&c->json, "more than 2^32 events");
	if (r == R_EVENT)
		event_end(c);
	else if (r == R_SAMPLE)
		sample_end(c);
	else if (r == R_FRAME)
		frame_end(c);
	else if (r == R_PNODE)
		pnode_end(c);
	return 1;
}

static const yajl_callbacks callbacks = {
	.yajl_null = on_other, .yajl_boolean = on_bool, .yajl_number = on_number,
	.yajl_string = on_string, .yajl_start_map = on_start_map, .yajl_map_key = on_key,
	.yajl_end_map = close_container, .yajl_start_array = on_start_array,
	.yajl_end_array = close_container,
};

int chrome_parse(struct chrome *c, const struct af_input *in, struct af_diag *d)
{
	int rc = af_json_parse(&c->json, in, &callbacks, d);
	if (rc == 1 && !c->object_form && c->json.depth == 1) {
		/* the bare array's "]" may be missing (the format allows it:
		 * Chrome writes it last, and a trace cut short lacks it) */
		af_profile_info(c->p, "array end", "missing (the trace was not terminated)");
		return 0;
	}
	if (rc == 1)
		return af_diag_offset(d, in->len, "the file ends inside a JSON %s (cut short?)",
				      c->json.depth > 1 ? "event" : "value");
	return rc;
}

/* ---- tables ---- */

uint32_t chrome_proc(struct chrome *c, int64_t pid)
{
	bool found;
	uint32_t *slot = af_idmap_slot(&c->proc_index, (uint64_t)pid, &found);
	if (found)
		return *slot;
	*slot = (uint32_t)c->nprocs;
	af_grow(&c->procs, &c->cap_procs, c->nprocs + 1, sizeof *c->procs);
	c->procs[c->nprocs] = (struct chrome_proc){ .pid = pid, .name = id_name(c, pid), .node = AF_NONE,
						    .pindex = SIZE_MAX };
	return (uint32_t)c->nprocs++;
}

uint32_t chrome_thread(struct chrome *c, int64_t pid, int64_t tid)
{
	uint64_t key = (uint64_t)pid < (1ull << 32) && (uint64_t)tid < (1ull << 32)
		? (uint64_t)pid << 32 | (uint64_t)tid
		: af_hash64((uint64_t)pid) ^ (uint64_t)tid;
	if (c->last_thread != AF_NONE && c->last_key == key)
		return c->last_thread;
	bool found;
	uint32_t *slot = af_idmap_slot(&c->thread_index, key, &found);
	if (!found) {
		*slot = (uint32_t)c->nthreads;
		uint32_t proc = chrome_proc(c, pid);
		af_grow(&c->threads, &c->cap_threads, c->nthreads + 1, sizeof *c->threads);
		c->threads[c->nthreads] = (struct chrome_thread){ .pid = pid, .tid = tid, .proc = proc,
			.name = id_name(c, tid), .node = AF_NONE, .pindex = SIZE_MAX };
		af_fold_thread_init(&c->threads[c->nthreads].fold, AF_NONE);
		af_idmap_put(&c->tid_index, (uint64_t)tid, (uint32_t)c->nthreads);
		c->nthreads++;
		slot = af_idmap_slot(&c->thread_index, key, &found);
	}
	c->last_key = key;
	c->last_thread = *slot;
	return *slot;
}

void chrome_init(struct chrome *c, struct af_profile *p, const struct af_read_opts *o)
{
	memset(c, 0, sizeof *c);
	c->p = p;
	c->o = o;
	c->last_thread = AF_NONE;
	af_buf_init(&c->ev.name);
	af_buf_init(&c->ev.cat);
	af_buf_init(&c->ev.arg_name);
	af_buf_init(&c->scratch);
	af_buf_init(&c->pend.fn);
	af_buf_init(&c->pend.url);
}

void chrome_release(struct chrome *c)
{
	for (size_t i = 0; i < c->nthreads; i++)
		free(c->threads[i].fold.stack);
	free(c->recs);
	free(c->async);
	free(c->samples);
	free(c->frames);
	free(c->procs);
	free(c->threads);
	af_idmap_release(&c->frame_index);
	af_idmap_release(&c->proc_index);
	af_idmap_release(&c->thread_index);
	af_idmap_release(&c->tid_index);
	af_idmap_release(&c->string_ids);
	free(c->string_names);
	af_idmap_release(&c->vprof_index);
	free(c->psamples);
	free(c->vprofs);
	chrome_pending_release(&c->pend);
	af_buf_release(&c->ev.name);
	af_buf_release(&c->ev.cat);
	af_buf_release(&c->ev.arg_name);
	af_buf_release(&c->scratch);
}
