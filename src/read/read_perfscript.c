/* read_perfscript.c: the text `perf script` prints (Linux perf, and
 * simpleperf's report_sample.py, which prints the same layout), the input
 * of stackcollapse-perf.pl:
 *
 *   # comment lines (perf script --header)
 *   comm  pid/tid [cpu] secs.usecs: period event:
 *   \t    ip sym+0xoff (dso)          <- the leaf first
 *   \t    ip sym (dso)
 *   <blank line>
 *
 * Every field but the frames may be left out (-F): the header is read by
 * shape, not position. Its comm is the text before the first token that is
 * "pid/tid" or a number (stackcollapse-perf.pl's rule), the event the first
 * later token ending in ':' that is not the time, and the period the number
 * just before the event. A sample ends at a blank line, at the next header
 * (samples without callchains: the frame on the header line, after the
 * event) or at the end of the file.
 *
 * A frame's name is its symbol with perf's "+0x..." offset dropped; a
 * symbol "[unknown]" in a known file is "[file]" (stackcollapse-perf.pl
 * does the same); "a->b->c" (inlined calls, perf-map-agent) are three
 * frames; a symbol that is one "(group)" is not a frame, as there, but
 * "(anonymous namespace)::f", which it skips too, is. Marks as everywhere in this project (flamegraph.pl's
 * annotations): kernel frames "_[k]", JIT-compiled code "_[j]", inlined
 * frames ("(inlined)" for a file, or after "->") "_[i]".
 *
 * Roots: process "comm (pid)" > thread "comm (tid)" when the header gives
 * both ids (a process is named after its main thread, "process-N" until
 * that is seen); a thread alone ("comm (tid)") when it gives one. One
 * event type is drawn: --event's, else the first sample's (as
 * stackcollapse-perf.pl); a sample weighs its period, or 1 without one. */
#include "read.h"
#include "perfscript_int.h"
#include "core/buf.h"
#include "core/idmap.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 64           /* distinct event names kept (--info, --event) */

struct pthread {
	uint64_t pid, tid;      /* pid UINT64_MAX: not in the header */
	uint32_t comm;          /* interned */
	uint32_t node;
	uint64_t key;           /* path key of its node (its frames hang below) */
	size_t index;           /* in p->threads */
	uint32_t last_sample;   /* its last sample's cache entry (AF_NONE: none) */
};

struct pproc { uint64_t pid; uint32_t node; bool named; };

/* A frame line seen before: its bytes (in the arena), its one frame. Real
 * profiles print the same few thousand lines again and again (a caller's
 * return address and symbol are the same in every sample through it), so
 * a line is hashed and compared instead of parsed and its name built and
 * interned: 0.21 -> 0.06 s of CPU on 72 MB of real samples (bench).
 * A line's caller is nearly always the one that followed it last time
 * (next: its slot), so that line is compared first, before any hash. */
struct seen { uint64_t hash; uint32_t off, len, name, next; };
#define SEEN_MAX ((size_t)1 << 21)          /* lines kept at most */
#define SEEN_ARENA_MAX ((size_t)64 << 20)  /* bytes of them at most */

struct ps {
	struct af_profile *p;
	const struct af_input *in;
	const struct af_read_opts *o;
	struct af_diag *d;
	struct af_buf scratch;
	uint64_t line;          /* the line being read, 1-based */
	/* the sample being read */
	bool open, drawn;       /* a header was read / its event is drawn */
	struct pthread *th;
	uint64_t weight;
	uint32_t *frames;       /* name ids, leaf first */
	size_t nframes, cap_frames;
	/* threads and processes */
	struct pthread *threads;
	size_t nthreads, cap_threads;
	struct af_idmap thread_ids, proc_ids;
	struct pproc *procs;
	size_t nprocs, cap_procs;
	/* events: names seen, the one drawn */
	char *events[MAX_EVENTS];
	size_t event_len[MAX_EVENTS];
	size_t nevents, want;   /* want: index of the drawn one, or SIZE_MAX */
	bool want_fixed;        /* --event chose it before reading */
	bool periods, no_periods;
	uint64_t samples, other_event, stray, first_stray, events_over;
	struct seen *seen;      /* open addressing, a power of two long */
	size_t seen_cap, nseen;
	uint32_t last_seen;     /* the slot of the line before, if it was one */
	bool frame_line;        /* take_line read a frame line (seen_line sets it false first) */
	struct af_buf arena;
	/* whole samples seen before (perfscript_int.h); the one being read */
	struct ps_cache cache;
	struct ps_header_memo memo;   /* the header read last */
	bool sample_first;      /* the next line is the first after a drawn header */
	bool block_ok;          /* the sample's lines so far can be kept */
	size_t block_from;      /* where its frame lines begin */
	uint32_t block_lines, leaf;
	uint64_t block_key;
	char *cmdline_copy;
	uint32_t name_inl, name_unknown;
};

/* ---- frames ---- */

enum mark { M_NONE, M_KERNEL, M_JIT, M_INLINE };
/* what each mark adds to a frame's name, as the perf.data reader marks it */
static const char *const mark_suffix[] = { "", "_[k]", "_[j]", "_[i]" };

/* Bracketed "files" that are not the kernel's: the unknown one, the
 * kernel's pages mapped into user space, anonymous maps, JIT caches. */
static bool user_bracket(struct span dso)
{
	static const char *const user[] = {
		"[unknown]", "[vdso]", "[vsyscall]", "[vectors]", "[heap]", "[stack", "[vvar]",
		"[uprobes]", "[sigpage]", "[anon", "[JIT", "[jit", "[perf-",
	};
	for (size_t i = 0; i < sizeof user / sizeof *user; i++)
		if (span_starts(dso, user[i]))
			return true;
	return false;
}

/* What a frame in dso (or, without a file, at ip) is. Kernel: perf's
 * "[kernel.kallsyms]", a module ("[nf_conntrack]", "x.ko"), vmlinux; with
 * no file printed, an address in the top half of the address space. JIT:
 * perf's /tmp/perf-PID.map and jitted-*.so, ART's JIT caches as simpleperf
 * names them, and the symbol files 2018's simpleperf wrote for JIT code
 * ("./TemporaryFile-XXXXXX", made by its JITDebugReader: in
 * perf_with_interpreter_frames.data each such file is a JIT symfile map,
 * and its 49 methods are those our perf.data reader marks JIT). */
static enum mark frame_mark(struct span dso, bool has_dso, bool has_ip, uint64_t ip)
{
	if (!has_dso)
		return has_ip && ip >> 63 ? M_KERNEL : M_NONE;
	struct span b = base_name(dso);
	if (span_is(dso, "inlined"))
		return M_INLINE;
	if (span_starts(b, "perf-") && span_ends(b, ".map"))
		return M_JIT;
	if (span_starts(b, "jitted-") || span_starts(b, "TemporaryFile-") || span_starts(dso, "[JIT") ||
	    span_starts(dso, "/memfd:jit-cache") ||
	    span_starts(dso, "[anon:dalvik-jit-code-cache") || span_starts(dso, "[anon:jit-cache"))
		return M_JIT;
	if (dso.n >= 2 && dso.s[0] == '[' && dso.s[dso.n - 1] == ']' && !user_bracket(dso))
		return M_KERNEL;
	if (span_starts(b, "vmlinux") || span_ends(b, ".ko") || span_ends(b, ".ko.xz") ||
	    span_ends(b, ".ko.gz") || span_ends(b, ".ko.zst"))
		return M_KERNEL;
	return M_NONE;
}

/* The file of a frame line: the last parenthesised group, found by its
 * balanced parentheses ("(/memfd:jit-cache (deleted))" is one), preceded
 * by a blank or starting the line. rest is what comes before it. */
static bool split_dso(struct span l, struct span *rest, struct span *dso)
{
	if (!l.n || l.s[l.n - 1] != ')')
		return false;
	size_t depth = 0, i = l.n;
	while (i--) {
		depth += l.s[i] == ')';
		depth -= l.s[i] == '(';
		if (depth == 0)
			break;
	}
	if (i == SIZE_MAX || (i > 0 && !is_space(l.s[i - 1])))
		return false;
	*dso = (struct span){ l.s + i + 1, l.n - i - 2 };
	size_t r = i;
	while (r && is_space(l.s[r - 1]))
		r--;
	*rest = (struct span){ l.s, r };
	return true;
}

/* "sym+0x1f": the symbol without perf's offset. */
static struct span drop_offset(struct span sym)
{
	size_t i = sym.n;
	while (i && is_hex(sym.s[i - 1]))
		i--;
	if (i < sym.n && i >= 3 && sym.s[i - 1] == 'x' && sym.s[i - 2] == '0' && sym.s[i - 3] == '+')
		sym.n = i - 3;
	return sym;
}

static uint32_t intern_name(struct ps *f, struct span name, enum mark m)
{
	struct af_buf *b = &f->scratch;
	b->len = 0;
	af_name_append(b, name.s, name.n);
	af_name_finish(b, 0);
	af_buf_add(b, mark_suffix[m], strlen(mark_suffix[m]));
	return af_tree_intern(&f->p->tree, b->data, b->len);
}

static void push_frame(struct ps *f, uint32_t name)
{
	if (f->nframes == f->cap_frames)
		af_grow(&f->frames, &f->cap_frames, f->nframes + 1, sizeof *f->frames);
	f->frames[f->nframes++] = name;
}

/* A symbol unknown to perf: "[file]" when the file is known (as
 * stackcollapse-perf.pl names it), else "[unknown]". */
static uint32_t unknown_name(struct ps *f, struct span dso, bool has_dso, enum mark m)
{
	if (!has_dso || span_is(dso, "unknown") || span_is(dso, "[unknown]") || !base_name(dso).n)
		return m == M_NONE ? f->name_unknown : intern_name(f, (struct span){ "[unknown]", 9 }, m);
	struct af_buf *b = &f->scratch;
	struct span base = base_name(dso);
	b->len = 0;
	af_buf_putc(b, '[');
	af_name_append(b, base.s, base.n);
	af_buf_putc(b, ']');
	af_name_finish(b, 0);
	af_buf_add(b, mark_suffix[m], strlen(mark_suffix[m]));
	return af_tree_intern(&f->p->tree, b->data, b->len);
}

/* sym's frames, leaf first: "a->b->c" is c and b (inlined into a), then a. */
static void push_symbol(struct ps *f, struct span sym, enum mark m)
{
	size_t end = sym.n;
	for (size_t i = sym.n; i-- > 1;) {
		if (sym.s[i - 1] == '-' && sym.s[i] == '>') {
			push_frame(f, intern_name(f, (struct span){ sym.s + i + 1, end - i - 1 }, M_INLINE));
			end = i - 1;
			i--;
		}
	}
	push_frame(f, intern_name(f, (struct span){ sym.s, end }, m));
}

/* Whether sym is one parenthesised group, "(comm)": stackcollapse-perf.pl
 * skips every symbol that opens with '(' as such a process name, which
 * drops C++'s "(anonymous namespace)::f" frames (46 lines of simpleperf's
 * perf_display_bitmaps.perf-script); those are frames here. */
static bool one_group(struct span sym)
{
	if (!sym.n || sym.s[0] != '(')
		return false;
	size_t depth = 0;
	for (size_t i = 0; i < sym.n; i++) {
		depth += sym.s[i] == '(';
		depth -= sym.s[i] == ')';
		if (depth == 0)
			return i == sym.n - 1;
	}
	return false;
}

/* A frame line "ip sym (dso)", any of the three left out (-F). perf and
 * simpleperf print the ip right-aligned in 16 columns after a tab: a hex
 * word is the ip if blanks pad it (pad: how many) or it fills the 16
 * columns, or the line has no tab
 * (old perf), or ip_sure (the frame after a header's event); right after
 * the tab it is the symbol (-F without ip: "\tface (/bin/x)"). */
static void take_frame(struct ps *f, struct span l, size_t pad, bool tabbed, bool ip_sure)
{
	struct span rest = l, dso = { "", 0 }, sym;
	bool has_dso = split_dso(l, &rest, &dso), has_ip = false;
	uint64_t ip = 0;
	size_t at = 0;
	struct span first = token(rest.s, rest.n, &at);
	bool hex = first.n > 0 && first.n <= 16;
	for (size_t i = 0; hex && i < first.n; i++)
		hex = is_hex(first.s[i]);
	if (hex && (ip_sure || pad || !tabbed || at >= 16)) {
		has_ip = true;
		for (size_t i = 0; i < first.n; i++)
			ip = ip << 4 | (uint64_t)(is_digit(first.s[i]) ? first.s[i] - '0' : (first.s[i] | 32) - 'a' + 10);
		while (at < rest.n && is_space(rest.s[at]))
			at++;
		sym = (struct span){ rest.s + at, rest.n - at };
	} else {
		sym = rest;
	}
	sym = drop_offset(sym);
	if (one_group(sym))     /* "(comm)": not a frame (stackcollapse-perf.pl) */
		return;
	enum mark m = frame_mark(dso, has_dso, has_ip, ip);
	if (!sym.n || span_is(sym, "[unknown]"))
		push_frame(f, unknown_name(f, dso, has_dso, m));
	else
		push_symbol(f, sym, m);
}

/* ---- threads and processes ---- */

/* "name (id)" in the scratch buffer; fallback-N without a name. */
static struct span label(struct ps *f, struct span name, const char *fallback, uint64_t id)
{
	struct af_buf *b = &f->scratch;
	af_name_root(b, name.s, name.n, fallback, id);
	return (struct span){ b->data, b->len };
}

/* The node of process pid, made the first time; named after its main
 * thread (tid == pid) once that is seen. */
static uint32_t proc_node(struct ps *f, uint64_t pid, uint64_t tid, struct span comm)
{
	struct af_tree *t = &f->p->tree;
	bool found;
	uint32_t *slot = af_idmap_slot(&f->proc_ids, pid, &found);
	if (!found) {
		*slot = (uint32_t)f->nprocs;
		if (f->nprocs == f->cap_procs)
			af_grow(&f->procs, &f->cap_procs, f->nprocs + 1, sizeof *f->procs);
		struct pproc *pr = &f->procs[f->nprocs++];
		struct span s = label(f, tid == pid ? comm : (struct span){ "", 0 }, "process", pid);
		*pr = (struct pproc){ pid, af_tree_add_child(t, AF_ROOT, af_tree_intern(t, s.s, s.n)), tid == pid };
		af_profile_add_process(f->p, pid, tid == pid ? comm.s : "", tid == pid ? comm.n : 0, pr->node);
		return pr->node;
	}
	struct pproc *pr = &f->procs[*slot];
	if (!pr->named && tid == pid) {
		struct span s = label(f, comm, "process", pid);
		af_tree_rename(t, pr->node, af_tree_intern(t, s.s, s.n));
		struct af_process *ap = &f->p->processes[*slot];
		free(ap->name);
		ap->name = af_xstrndup(comm.s, comm.n);
		pr->named = true;
	}
	return pr->node;
}

static struct pthread *new_thread(struct ps *f, uint64_t pid, uint64_t tid, uint32_t comm_id, struct span comm)
{
	struct af_tree *t = &f->p->tree;
	uint32_t parent = pid != UINT64_MAX ? proc_node(f, pid, tid, comm) : AF_ROOT;
	struct span s = tid != UINT64_MAX ? label(f, comm, "thread", tid)
					  : (struct span){ comm.n ? comm.s : "[unknown]", comm.n ? comm.n : 9 };
	if (tid == UINT64_MAX) {   /* no ids: the comm alone, made safe */
		f->scratch.len = 0;
		af_name_append(&f->scratch, s.s, s.n);
		af_name_finish(&f->scratch, 0);
		s = (struct span){ f->scratch.data, f->scratch.len };
	}
	uint32_t node = af_tree_add_child(t, parent, af_tree_intern(t, s.s, s.n));
	if (f->nthreads == f->cap_threads)
		af_grow(&f->threads, &f->cap_threads, f->nthreads + 1, sizeof *f->threads);
	struct pthread *th = &f->threads[f->nthreads++];
	*th = (struct pthread){ pid, tid, comm_id, node, 0, 0, AF_NONE };
	/* keyed by its node (unique), so no two threads share frames' keys */
	th->key = af_tree_path_key(AF_PATH_ROOT_KEY, af_hash_keyed_bytes(&node, sizeof node));
	th->index = af_profile_add_thread(f->p, tid == UINT64_MAX ? 0 : tid, comm.s, comm.n);
	f->p->threads[th->index].node = node;
	f->p->threads[th->index].pid = pid == UINT64_MAX ? 0 : pid;
	f->p->threads[th->index].process_node = parent == AF_ROOT ? AF_NONE : parent;
	return th;
}

/* The thread (pid, tid, comm): a comm that changes (exec) is a new root,
 * as stackcollapse-perf.pl keeps it apart. */
static struct pthread *thread_of(struct ps *f, uint64_t pid, uint64_t tid, struct span comm)
{
	uint32_t comm_id = af_tree_intern(&f->p->tree, comm.s, comm.n);
	struct pthread *last = f->th;
	if (last && last->tid == tid && last->pid == pid && last->comm == comm_id)
		return last;
	uint64_t k[3] = { pid, tid, comm_id };
	uint64_t key = af_hash_keyed_bytes(k, sizeof k);
	for (;; key++) {   /* a collision of the keyed hash: the next key */
		bool found;
		uint32_t *slot = af_idmap_slot(&f->thread_ids, key, &found);
		if (!found) {
			*slot = (uint32_t)f->nthreads;
			return new_thread(f, pid, tid, comm_id, comm);
		}
		struct pthread *th = &f->threads[*slot];
		if (th->tid == tid && th->pid == pid && th->comm == comm_id)
			return th;
	}
}

/* ---- samples ---- */

static void fold_sample(struct ps *f)
{
	struct af_tree *t = &f->p->tree;
	uint32_t node = f->th->node;
	uint64_t key = f->th->key;
	for (size_t i = f->nframes; i-- > 0;) {
		key = af_tree_path_key(key, af_tree_name_key(t, f->frames[i]));
		node = af_tree_key_child(t, node, key, f->frames[i]);
	}
	f->leaf = node;
	af_tree_add_self(t, node, f->weight);
	f->p->threads[f->th->index].events++;
	f->samples++;
}

static void end_sample(struct ps *f)
{
	if (f->open && f->drawn)
		fold_sample(f);
	f->open = f->drawn = false;
	f->nframes = 0;
}

/* The index of event name e among those seen (added if new; SIZE_MAX past
 * MAX_EVENTS). */
static size_t event_index(struct ps *f, struct span e)
{
	for (size_t i = 0; i < f->nevents; i++)
		if (f->event_len[i] == e.n && memcmp(f->events[i], e.s, e.n) == 0)
			return i;
	if (f->nevents == MAX_EVENTS) {
		f->events_over++;
		return SIZE_MAX;
	}
	f->events[f->nevents] = af_xstrndup(e.s, e.n);
	f->event_len[f->nevents] = e.n;
	return f->nevents++;
}

static bool event_is(const struct ps *f, size_t i, struct span e)
{
	return i < f->nevents && f->event_len[i] == e.n && memcmp(f->events[i], e.s, e.n) == 0;
}

/* Whether the text after a header's event is a frame ("ip sym (dso)"),
 * not a tracepoint's fields. */
static bool inline_frame(struct span r)
{
	size_t at = 0;
	struct span t = token(r.s, r.n, &at);
	bool hex = t.n > 0 && t.n <= 16;
	for (size_t i = 0; hex && i < t.n; i++)
		hex = is_hex(t.s[i]);
	return hex && at < r.n && r.s[r.n - 1] == ')';
}

static int take_header(struct ps *f, const char *s, size_t n, size_t raw, bool prescan)
{
	struct ps_header h;
	struct ps_memo *m;   /* what was made of these fields before, if anything */
	if (ps_parse_header(&f->memo, f->d, f->line, s, n, raw, &h, &m) < 0)
		return -1;
	struct span e = h.has_event ? h.event : (struct span){ "", 0 };
	if (prescan) {
		f->open = true;   /* the lines up to a blank one are its frames */
		event_index(f, e);
		return 0;
	}
	f->open = true;
	if (f->want == SIZE_MAX)
		f->want = event_index(f, e);
	f->drawn = event_is(f, f->want, e);
	if (!f->drawn) {
		f->other_event++;
		if (!f->want_fixed)
			event_index(f, e);   /* for --info */
		return 0;
	}
	if (h.has_period)
		f->periods = true;
	else
		f->no_periods = true;
	f->weight = h.has_period ? h.period : 1;
	f->th = m->thread != AF_NONE ? &f->threads[m->thread] : thread_of(f, h.pid, h.tid, h.comm);
	m->thread = (uint32_t)(f->th - f->threads);
	if (h.rest.n && inline_frame(h.rest))
		take_frame(f, h.rest, 0, false, true);
	f->sample_first = f->nframes == 0;   /* frames on lines of their own: maybe seen before */
	m->whole = f->sample_first;
	return 0;
}

/* A header line at s (no sample open, so a line that is no frame, comment
 * or blank line is a header) that is one read before but for the digits
 * of its time, cpu or period, and whose samples are drawn with their frames
 * on lines of their own: the sample opened as take_header opens it, from
 * what was made of that line. Its length with its newline, or 0 if it is
 * not such a line. */
static size_t header_again(struct ps *f, const char *s, size_t avail)
{
	size_t n;
	uint64_t period = 0;
	if (s[0] == '#' || s[0] == '\t' || s[0] == '\n')   /* a comment, a frame, a blank line */
		return 0;
	struct ps_memo *m = ps_header_again(&f->memo, s, avail, &n, &period);
	if (!m || !m->whole)
		return 0;
	f->line++;
	f->last_seen = AF_NONE;
	f->open = f->drawn = true;
	f->nframes = 0;
	f->weight = m->h.has_period ? period : 1;
	f->th = &f->threads[m->thread];
	f->sample_first = true;
	return n + 1;
}

/* "# cmdline : perf record ...": kept for --info. */
static void comment(struct ps *f, const char *s, size_t n)
{
	static const char key[] = "# cmdline : ";
	if (!f->cmdline_copy && n > sizeof key - 1 && memcmp(s, key, sizeof key - 1) == 0)
		f->cmdline_copy = af_xstrndup(s + sizeof key - 1, n - (sizeof key - 1));
}

static int take_line(struct ps *f, const char *s, size_t n, bool prescan)
{
	size_t raw = n;
	f->line++;
	while (n && is_space(s[n - 1]))
		n--;
	if (memchr(s, 0, n))
		return af_diag_line(f->d, f->line, 0, "a NUL byte: not perf script text");
	if (n == 0) {
		end_sample(f);
		return 0;
	}
	if (s[0] == '#') {
		comment(f, s, n);
		return 0;
	}
	/* frames open with a tab (perf, simpleperf), or nothing (old perf);
	 * a header has its ids and a field ending in ':' */
	bool header = s[0] != '\t' && (!f->open || ps_header_shaped(s, n));
	if (header) {
		end_sample(f);
		return take_header(f, s, n, raw, prescan);
	}
	if (!f->open) {   /* a frame after the blank line that ended its sample */
		if (!f->stray++)
			f->first_stray = f->line;
		return 0;
	}
	if (f->drawn) {
		size_t i = 0, tab = s[0] == '\t';
		while (i < n && is_space(s[i]))
			i++;
		f->frame_line = true;
		take_frame(f, (struct span){ s + i, n - i }, i - tab, tab, false);
	}
	return 0;
}

/* ---- frame lines seen before ---- */

static struct seen *seen_slot(const struct ps *f, uint64_t hash, const char *s, size_t n, bool *hit)
{
	size_t mask = f->seen_cap - 1;
	for (size_t i = (size_t)hash & mask;; i = (i + 1) & mask) {
		struct seen *e = &f->seen[i];
		if (!e->len) {
			*hit = false;
			return e;
		}
		if (e->hash == hash && e->len == n && memcmp(f->arena.data + e->off, s, n) == 0) {
			*hit = true;
			return e;
		}
	}
}

static void seen_grow(struct ps *f)
{
	struct seen *old = f->seen;
	size_t cap = f->seen_cap;
	f->seen_cap = cap ? cap * 2 : 4096;
	f->seen = af_xcalloc(f->seen_cap, sizeof *f->seen);
	for (size_t i = 0; i < cap; i++) {
		if (!old[i].len)
			continue;
		size_t k = (size_t)old[i].hash & (f->seen_cap - 1);
		while (f->seen[k].len)
			k = (k + 1) & (f->seen_cap - 1);
		f->seen[k] = old[i];
		f->seen[k].next = AF_NONE;   /* the slots moved */
	}
	free(old);
	f->last_seen = AF_NONE;
}

/* The line after the last one seen: the slot of the line s[0..avail)
 * begins with if it is the one that followed last time, else AF_NONE. */
static uint32_t predicted(const struct ps *f, const char *s, size_t avail)
{
	uint32_t k = f->last_seen != AF_NONE ? f->seen[f->last_seen].next : AF_NONE;
	if (k == AF_NONE)
		return AF_NONE;
	const struct seen *e = &f->seen[k];
	if (e->len >= avail || s[e->len] != '\n' || memcmp(f->arena.data + e->off, s, e->len) != 0)
		return AF_NONE;
	return k;
}

/* Line slot k (AF_NONE: none kept) comes after the last one. */
static void seen_after(struct ps *f, uint32_t k)
{
	if (f->last_seen != AF_NONE && k != AF_NONE)
		f->seen[f->last_seen].next = k;
	f->last_seen = k;
}

/* A line s[0..n) (no newline) that hashes to hash, in a drawn sample,
 * opening with a tab or a blank: its frame from the frame lines seen
 * before, else read and, if it was a frame line (not a header: old perf
 * does not indent frames with a tab) that made one frame, kept. */
static int seen_line(struct ps *f, const char *s, size_t n, uint64_t hash)
{
	bool hit = false;
	struct seen *e = f->seen_cap ? seen_slot(f, hash, s, n, &hit) : NULL;
	if (hit) {
		f->line++;
		push_frame(f, e->name);
		seen_after(f, (uint32_t)(e - f->seen));
		return 0;
	}
	size_t before = f->nframes;
	f->frame_line = false;
	if (take_line(f, s, n, false) < 0)
		return -1;
	if (!f->frame_line || f->nframes != before + 1 || f->nseen >= SEEN_MAX ||
	    f->arena.len + n > SEEN_ARENA_MAX) {
		seen_after(f, AF_NONE);
		return 0;
	}
	if (2 * (f->nseen + 1) > f->seen_cap) {
		seen_grow(f);
		e = seen_slot(f, hash, s, n, &hit);
	}
	*e = (struct seen){ hash, (uint32_t)f->arena.len, (uint32_t)n, f->frames[before], AF_NONE };
	af_buf_add(&f->arena, s, n);
	f->nseen++;
	seen_after(f, (uint32_t)(e - f->seen));
	return 0;
}

/* ---- whole samples seen before ---- */

enum { KEY_BYTES = 32 };   /* a sample's first bytes, which find it */


/* The first line of a drawn sample, at s[0..avail): if the sample's frame
 * lines are those of one seen before below the same thread, the sample
 * ends where that one did (the same bytes, read in the same state, make
 * the same frames): its weight is added there and *used is set to its
 * bytes and the blank line's. Else the sample is read line by line and
 * noted (note_line) to be kept. */
static bool sample_seen(struct ps *f, const char *s, size_t avail, size_t at, size_t *used)
{
	if (s[0] != '\t')
		return false;
	/* a third of the bench's samples are their thread's last one again
	 * (a loop, an idle thread): that one is tried first, then the one
	 * that came after it last time (a loop of a few stacks) */
	uint64_t key = 0;
	uint32_t last = f->th->last_sample;
	const struct ps_cached *e = ps_cache_again(&f->cache, last, f->th->node, s, avail);
	if (!e)
		e = ps_cache_again(&f->cache, ps_cache_after(&f->cache, last), f->th->node, s, avail);
	if (!e) {
		/* its first bytes (a sample of a line or less also has the blank
		 * line and the next header's first bytes there, so is seldom found) */
		key = ps_mix(s, avail < KEY_BYTES ? avail : KEY_BYTES, f->th->key);
		e = ps_cache_find(&f->cache, key, f->th->node, s, avail);
	}
	if (!e) {
		f->block_ok = true;
		f->block_from = at;
		f->block_lines = 0;
		f->block_key = key;
		f->leaf = AF_NONE;
		return false;
	}
	f->th->last_sample = (uint32_t)(e - f->cache.e);
	ps_cache_follows(&f->cache, last, f->th->last_sample);
	f->line += e->lines + 1;
	af_tree_add_self(&f->p->tree, e->leaf, f->weight);
	f->p->threads[f->th->index].events++;
	f->samples++;
	f->open = f->drawn = false;
	f->last_seen = AF_NONE;
	*used = e->len + 1;
	return true;
}

/* Line s (at input offset at) of a sample being noted was read: a frame
 * line (it opened with a tab and the sample is still open) is counted; a
 * blank line "\n" ends the sample, which is kept; any other line (a
 * comment, blanks, a header) ends the noting. */
static void note_line(struct ps *f, const char *base, size_t at)
{
	if (base[at] == '\t' && f->open) {
		f->block_lines++;
		return;
	}
	f->block_ok = false;
	if (base[at] == '\n' && f->leaf != AF_NONE && f->block_lines) {
		uint32_t i = ps_cache_put(&f->cache, f->block_key, f->th->node, base + f->block_from, at - f->block_from,
					  f->block_lines, f->leaf);
		ps_cache_follows(&f->cache, f->th->last_sample, i);
		f->th->last_sample = i;
	}
}

/* Every line of the input, straight from its memory (a mapped file made
 * and dropped a chunk at a time, af_input_ahead); with prescan, only the
 * headers' event names. A header that is its thread's last but for its
 * digits opens its sample from what that one held (header_again); a drawn
 * sample seen before is taken whole (sample_seen); a frame line of one
 * that was not is hashed while its end is found (one pass) and looked up
 * among the lines seen. */
static int read_lines(struct ps *f, bool prescan)
{
	const char *base = (const char *)f->in->data;
	size_t len = f->in->len, pos = 0, used;
	struct af_ahead ahead;
	af_input_ahead_init(&ahead, f->in);
	int rc = 0;
	f->line = 0;
	f->last_seen = AF_NONE;
	f->block_ok = f->sample_first = false;
	while (rc == 0 && pos < len) {
		if (pos >= ahead.next && af_input_ahead(&ahead, f->in, pos, f->d) < 0)
			return -1;
		if (!f->open && !prescan && (used = header_again(f, base + pos, len - pos)) != 0) {
			pos += used;
			continue;
		}
		if (f->sample_first) {
			f->sample_first = false;
			if (sample_seen(f, base + pos, len - pos, pos, &used)) {
				pos += used;
				continue;
			}
		}
		const char *nl = NULL;
		size_t at = pos;
		uint32_t k;
		bool framed = f->drawn && (base[pos] == '\t' || base[pos] == ' ');   /* maybe a frame line */
		if (framed && (k = predicted(f, base + pos, len - pos)) != AF_NONE) {
			f->line++;
			push_frame(f, f->seen[k].name);
			seen_after(f, k);
			nl = base + pos + f->seen[k].len;
		} else if (framed) {
			size_t n;
			uint64_t h = af_hash_keyed_until(base + pos, len - pos, '\n', &n);
			nl = n < len - pos ? base + pos + n : NULL;   /* NULL: the last line, no newline */
			rc = nl ? seen_line(f, base + pos, n, h) : take_line(f, base + pos, n, prescan);
		} else {
			nl = memchr(base + pos, '\n', len - pos);
			f->last_seen = AF_NONE;
			rc = take_line(f, base + pos, (size_t)((nl ? nl : base + len) - base) - pos, prescan);
		}
		if (f->block_ok && rc == 0)
			note_line(f, base, at);
		pos = nl ? (size_t)(nl - base) + 1 : len;
	}
	if (rc == 0)
		end_sample(f);
	return rc;
}

/* ---- the reader ---- */

/* --event: the event types are collected first, so that a name without
 * its modifier picks as for perf.data (af_event_pick). */
static int pick_event(struct ps *f)
{
	if (read_lines(f, true) < 0)
		return -1;
	struct af_event_name names[MAX_EVENTS];
	for (size_t i = 0; i < f->nevents; i++)
		names[i] = (struct af_event_name){ f->events[i], strlen(f->events[i]) };
	int k = af_event_pick(f->o->event, names, f->nevents, f->d);
	if (k < 0)
		return -1;
	f->want = (size_t)k;
	f->want_fixed = true;
	f->open = f->drawn = false;
	return 0;
}

static void info(struct ps *f)
{
	struct af_profile *p = f->p;
	struct af_buf *b = &f->scratch;
	b->len = 0;
	for (size_t i = 0; i < f->nevents; i++) {
		if (i)
			af_buf_printf(b, ", ");
		size_t from = b->len;
		af_name_append(b, f->events[i][0] ? f->events[i] : "(none)", f->events[i][0] ? strlen(f->events[i]) : 6);
		af_name_finish(b, from);
	}
	if (f->nevents > 1 && f->want < f->nevents) {
		size_t from = b->len;
		af_buf_printf(b, " (");
		af_name_append(b, f->events[f->want], strlen(f->events[f->want]));
		af_name_finish(b, from + 2);
		af_buf_printf(b, f->want_fixed ? " is drawn)" : " is drawn: the first sample's)");
	}
	af_profile_info(p, "event types", "%.*s", (int)b->len, b->data);
	af_profile_info(p, "samples", "%" PRIu64 " drawn, %" PRIu64 " of other event types", f->samples,
			f->other_event);
	af_profile_info(p, "weights", "%s", f->no_periods ? (f->periods ? "the period where printed, else 1 a sample"
									 : "1 a sample (no periods printed)")
							  : "the period of each sample");
	af_profile_info(p, "threads", "%zu", f->nthreads);
	if (f->nprocs)
		af_profile_info(p, "processes", "%zu", f->nprocs);
	if (f->cmdline_copy) {
		b->len = 0;
		af_name_append(b, f->cmdline_copy, strlen(f->cmdline_copy));
		af_name_finish(b, 0);
		af_profile_info(p, "cmdline", "%.*s", (int)b->len, b->data);
	}
	af_profile_warn(p, f->stray, "frame lines after the blank line that ended their sample skipped "
			"(first: line %" PRIu64 ")", f->first_stray);
	af_profile_warn(p, f->events_over, "samples of event types past the first %d (not drawn)", MAX_EVENTS);
}

static void ps_release(struct ps *f)
{
	af_buf_release(&f->scratch);
	af_buf_release(&f->arena);
	ps_cache_release(&f->cache);
	ps_header_memo_release(&f->memo);
	free(f->seen);
	free(f->frames);
	free(f->threads);
	free(f->procs);
	af_idmap_release(&f->thread_ids);
	af_idmap_release(&f->proc_ids);
	for (size_t i = 0; i < f->nevents; i++)
		free(f->events[i]);
	free(f->cmdline_copy);
}

static int read_perfscript(struct af_profile *p, const struct af_input *in, const struct af_read_opts *o,
			   struct af_diag *d)
{
	struct ps f = { .p = p, .in = in, .o = o, .d = d, .want = SIZE_MAX, .last_seen = AF_NONE };
	af_idmap_init(&f.thread_ids);
	af_idmap_init(&f.proc_ids);
	ps_cache_init(&f.cache, ps_cache_max());
	/* a guess: the bench's distinct samples are 1/60 of its text (pages
	 * are made only where samples are kept) */
	ps_cache_expect(&f.cache, in->len / 32);
	f.name_unknown = af_tree_intern_str(&p->tree, "[unknown]");
	/* real perf script output makes a node per 2-20 KiB of text (most
	 * samples repeat a path); the table grows past this if need be */
	af_tree_path_reserve(&p->tree, in->len / 16384);
	int rc = o->event ? pick_event(&f) : 0;
	if (rc == 0)
		rc = read_lines(&f, false);
	if (rc == 0) {
		bool periods = f.periods && !f.no_periods && f.want < f.nevents;
		p->unit = periods ? af_event_unit((struct af_event_name){ f.events[f.want], strlen(f.events[f.want]) })
				  : "samples";
		p->clock = NULL;
		/* the event drawn, for the subtitle (as perf.data's reader) */
		if (f.want < f.nevents && !p->event)
			p->event = af_xstrndup(f.events[f.want], strlen(f.events[f.want]));
		info(&f);
	}
	ps_release(&f);
	return rc;
}

/* ---- detection ---- */

/* A frame line: opening with a tab, or an address, a blank, then more
 * (old perf: not indented). */
static bool frame_shaped(const char *s, size_t n)
{
	if (n > 1 && s[0] == '\t')
		return true;
	size_t at = 0;
	struct span t = token(s, n, &at);
	bool hex = t.n > 0 && t.n <= 16;
	for (size_t i = 0; hex && i < t.n; i++)
		hex = is_hex(t.s[i]);
	return hex && at < n && is_space(s[at]);
}


/* Among the first 64 lines that are not blank or comments: headers, and
 * either frames after them or (samples without callchains) headers only,
 * each with its frame. No NUL byte. */
static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	const char *p = (const char *)data, *end = p + len;
	unsigned seen = 0, headers = 0, frames = 0;
	bool after_header = false;
	while (p < end && seen < 64) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;
		size_t n = (size_t)(e - p);
		if (memchr(p, 0, n))
			return AF_SNIFF_NO;
		while (n && is_space(p[n - 1]))
			n--;
		if (n && p[0] != '#') {
			seen++;
			if (ps_header_shaped(p, n)) {
				headers++;
				after_header = true;
			} else if (frame_shaped(p, n)) {
				frames += after_header;
			} else {
				after_header = false;
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (!headers)
		return AF_SNIFF_NO;
	return (frames && (headers + frames) * 4 >= seen * 3) || headers * 4 >= seen * 3 ? AF_SNIFF_YES : AF_SNIFF_NO;
}

const struct af_reader af_reader_perfscript = {
	.name = "perf-script", .what = "perf script text", .sniff = sniff,
	.read = read_perfscript, .nothing = "no samples",
};
