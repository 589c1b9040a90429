/* read_perfdata.c: perf.data recordings ("PERFILE2"), as simpleperf record
 * and Linux perf write them (simpleperf record_file_format.h, record.h,
 * Apache-2.0, AOSP system/extras/simpleperf; linux/perf_event.h).
 *
 * Layout: a 104-byte header (magic, header size, attr size, three section
 * descriptors: attrs, data, event types; a 256-bit feature map), the attrs
 * (perf_event_attr + a section of ids each), the data section of records
 * (u32 type, u16 misc, u16 size), then one section descriptor per feature
 * bit set, in bit order. simpleperf's features: FILE (128) and FILE2 (132,
 * protobuf FileFeature) carry the symbol tables it embeds, META_INFO (129)
 * key/value strings (event_type_info, app_package_name, trace_offcpu).
 *
 * Features are read first (symbol tables, event names), then the records
 * in one linear walk (pread() into a window, not through the mapping):
 * MMAP/MMAP2 and COMM update the thread state as they come, each SAMPLE is
 * symbolized against it and folded per process > thread at once. An ip
 * maps through its process's maps (kept sorted by start, binary search) to
 * a file and an address in it, and through that file's sorted symbol table
 * (a bucket index by address, then binary search) to a name; unknown
 * symbols are named "file[+vaddr]" as simpleperf report does with --addrs. */
#include "perfdata_int.h"
#include "core/names.h"
#include "core/util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libunwindstack's ErrorCode (UNWINDING_RESULT records), by value */
static const char *const unwind_error_names[] = {
	"none", "memory invalid", "unwind info", "unsupported", "invalid map", "max frames exceeded",
	"repeated frame", "invalid elf", "thread does not exist", "thread timeout", "system call",
	"bad arch", "maps parse", "invalid parameter",
};
_Static_assert(sizeof unwind_error_names / sizeof *unwind_error_names == NUNWIND_ERRORS,
	       "perfdata_int.h counts these");

/* PERF_SAMPLE_READ's values as read_format lays them out (simpleperf
 * record --add-counter, perf record -e '{a,b}:S'): a group's count, the
 * times, then per counter its value, id and lost count. */
static size_t read_stride(uint64_t rf)
{
	return 8 * (1 + !!(rf & RF_ID) + !!(rf & RF_LOST));
}

static bool parse_read(const struct pd *f, struct af_cursor *c, struct sample *s)
{
	uint64_t rf = f->read_format, nr = 1;
	size_t each = read_stride(rf);
	if ((rf & RF_GROUP) && !af_cursor_u64(c, &nr))
		return false;
	if (!af_cursor_skip(c, 8 * (!!(rf & RF_TIME_ENABLED) + !!(rf & RF_TIME_RUNNING))) ||
	    nr > af_cursor_left(c) / each)
		return false;
	s->nread = nr;
	return af_cursor_bytes(c, (size_t)nr * each, &s->read);
}

static bool parse_sample(const struct pd *f, struct af_cursor *c, struct sample *s)
{
	uint64_t st = f->sample_type, v;
	*s = (struct sample){ .period = 1 };
	if ((st & S_IDENTIFIER) && !af_cursor_u64(c, &s->id))
		return false;
	if ((st & S_IP) && !af_cursor_u64(c, &s->ip))
		return false;
	if (st & S_TID) {
		uint32_t a, b;
		if (!af_cursor_u32(c, &a) || !af_cursor_u32(c, &b))
			return false;
		s->pid = a;
		s->tid = b;
	}
	if ((st & S_TIME) && !af_cursor_u64(c, &s->time))
		return false;
	if ((st & S_ADDR) && !af_cursor_u64(c, &v))
		return false;
	if ((st & S_ID) && !af_cursor_u64(c, &s->id))
		return false;
	if ((st & S_STREAM_ID) && !af_cursor_u64(c, &v))
		return false;
	if ((st & S_CPU) && !af_cursor_u64(c, &v))
		return false;
	if ((st & S_PERIOD) && !af_cursor_u64(c, &s->period))
		return false;
	if ((st & S_READ) && !parse_read(f, c, s))
		return false;
	if (st & S_CALLCHAIN) {
		if (!af_cursor_u64(c, &s->nr) || s->nr > af_cursor_left(c) / 8)
			return false;
		af_cursor_bytes(c, (size_t)s->nr * 8, &s->ips);
	}
	return true;
}

/* The thread's waiting off-CPU sample ends at time: it weighs the time
 * since it was taken (1 if the clock went back), as simpleperf's report
 * library has it (TraceOffCpuMode MIXED_ON_OFF_CPU). Its record is read
 * again, already checked. */
static int end_offcpu(struct pd *f, struct pthread_ *th, uint64_t time)
{
	size_t at = th->offcpu_at;
	th->offcpu_at = 0;
	f->offcpu_open--;
	struct af_cursor c = { f->data + at + 8, (size_t)af_le(f->data + at + 6, 2) - 8, 0 };
	struct sample s;
	parse_sample(f, &c, &s);
	uint64_t period = time > th->offcpu_time ? time - th->offcpu_time : 1;
	return pd_fold_sample(f, th, &s, at, (uint16_t)af_le(f->data + at + 4, 2), period, true);
}

/* A sample with read values weighs, for each counter, what it counted
 * since the thread's previous sample, as perf script and simpleperf's
 * report (--add-counter) have it; so a counter that never samples itself
 * is drawn with --event too. Returns whether the drawn event's counter is
 * among the values (its delta in *period). */
static bool read_deltas(struct pd *f, const struct sample *s, uint32_t sample_attr, uint64_t *period)
{
	size_t each = read_stride(f->read_format);
	bool found = false;
	for (uint64_t i = 0; i < s->nread; i++) {
		const uint8_t *v = s->read + i * each;
		uint32_t a = sample_attr;
		if (f->read_format & RF_ID)
			a = f->nattrs > 1 ? af_idmap_get(&f->attr_ids, af_le(v + 8, 8)) : 0;
		else if (f->read_format & RF_GROUP)
			a = (uint32_t)i;   /* without ids, the group's counters come in attr order */
		bool known;
		uint32_t *slot = af_idmap_slot(&f->counter_ids, s->tid << 32 | a, &known);
		if (!known) {
			af_grow(&f->counters, &f->cap_counters, f->ncounters + 1, sizeof *f->counters);
			f->counters[f->ncounters] = 0;
			*slot = (uint32_t)f->ncounters++;
		}
		uint64_t value = af_le(v, 8), *prev = &f->counters[*slot];
		if (a == f->drawn) {
			*period = value >= *prev ? value - *prev : value;
			found = true;
		}
		*prev = value;
	}
	return found;
}

/* With trace_offcpu, a sample of another event than the first (simpleperf
 * records sched:sched_switch) is the thread going off the CPU: it waits for
 * the thread's next sample or switch-in to know how long it was off. */
static int read_sample(struct pd *f, struct af_cursor *c, uint64_t at, uint16_t misc)
{
	struct sample s;
	if (!parse_sample(f, c, &s))
		return pd_bad(f, at, "a SAMPLE record is shorter than its fields");
	uint32_t a = f->nattrs > 1 ? af_idmap_get(&f->attr_ids, s.id) : 0;
	bool offcpu = f->offcpu_mode && a != 0, drawn = a == f->drawn;
	uint64_t period = s.period;
	if (s.nread) {
		drawn = read_deltas(f, &s, a, &period);
		f->read_samples++;
	}
	if (!drawn && !offcpu) {
		f->other_event++;
		return 0;
	}
	struct pthread_ *th = pd_thread_of(f, s.tid, s.pid);
	th->pid = s.pid;
	if (th->offcpu_at && end_offcpu(f, th, s.time) < 0)
		return -1;
	if (offcpu) {
		th->offcpu_at = (size_t)at;
		th->offcpu_time = s.time;
		f->offcpu_open++;
		return 0;
	}
	return pd_fold_sample(f, th, &s, at, misc, period, false);
}

/* A SWITCH record (sample_id_all: the sample's tid and time follow the
 * empty body) of a thread coming back on the CPU ends its off-CPU sample. */
static int read_switch(struct pd *f, struct af_cursor *c, uint16_t misc)
{
	uint32_t pid = 0, tid = 0;
	uint64_t time = 0;
	if (!f->offcpu_mode || (misc & MISC_SWITCH_OUT) || !f->sample_id_all)
		return 0;
	if (!(f->sample_type & S_TID) || !(f->sample_type & S_TIME) || !af_cursor_u32(c, &pid) ||
	    !af_cursor_u32(c, &tid) || !af_cursor_u64(c, &time))
		return 0;
	uint32_t k = af_idmap_get(&f->thread_ids, tid);
	return k != AF_NONE && f->threads[k].offcpu_at ? end_offcpu(f, &f->threads[k], time) : 0;
}

static int read_mmap(struct pd *f, struct af_cursor *c, uint64_t at, uint32_t type, uint16_t misc)
{
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	if (!af_cursor_u32(c, &pid) || !af_cursor_u32(c, &tid) || !af_cursor_u64(c, &addr) ||
	    !af_cursor_u64(c, &len) || !af_cursor_u64(c, &pgoff) ||
	    (type == REC_MMAP2 && !af_cursor_skip(c, 32)) || af_cursor_left(c) == 0)
		return pd_bad(f, at, "an MMAP record is shorter than its fields");
	if (len == 0 || addr > UINT64_MAX - len)
		return 0;
	struct map m = { .path = pd_keep(f, pd_cstr(c->data + c->pos, af_cursor_left(c))), .file = AF_NONE };
	if (type == REC_MMAP2)   /* prot, 24 bytes into the 32 after pgoff */
		m.jit = af_le(c->data + c->pos - 8, 4) & PROT_JIT_SYMFILE_MAP;
	bool kernel = (misc & CPUMODE_MASK) == CPUMODE_KERNEL || pid == UINT32_MAX;
	pd_add_map(f, kernel ? KERNEL_PID : pid, addr, addr + len, pgoff, m);
	return 0;
}

static int read_comm(struct pd *f, struct af_cursor *c, uint64_t at)
{
	uint32_t pid, tid;
	if (!af_cursor_u32(c, &pid) || !af_cursor_u32(c, &tid) || af_cursor_left(c) == 0)
		return pd_bad(f, at, "a COMM record is shorter than its fields");
	struct pthread_ *th = pd_thread_of(f, tid, pid);
	th->pid = pid;
	if (th->node == AF_NONE)   /* a thread already drawn keeps its first name */
		th->name = pd_keep(f, pd_cstr(c->data + c->pos, af_cursor_left(c)));
	return 0;
}

/* UNWINDING_RESULT (simpleperf record --keep-failed-unwinding-result): a
 * sample whose DWARF unwinding failed, with libunwindstack's error code
 * (after the time and the time unwinding took). */
static void read_unwinding(struct pd *f, struct af_cursor *c)
{
	uint64_t time, used, code;
	if (af_cursor_u64(c, &time) && af_cursor_u64(c, &used) && af_cursor_u64(c, &code))
		f->unwind_errors[code < NUNWIND_ERRORS ? code : NUNWIND_ERRORS]++;
}

static int read_record(struct pd *f, struct af_cursor *c, size_t pos, uint32_t type, uint16_t misc)
{
	switch (type) {
	case REC_SAMPLE: return read_sample(f, c, pos, misc);
	case REC_MMAP: case REC_MMAP2: return read_mmap(f, c, pos, type, misc);
	case REC_COMM: return read_comm(f, c, pos);
	case REC_SWITCH: return read_switch(f, c, misc);
	case REC_FORK: return pd_read_fork(f, c, pos);
	case REC_LOST:
		if (c->len >= 16)
			f->lost += af_le(c->data + 8, 8);
		return 0;
	case REC_SP_UNWINDING_RESULT:
		read_unwinding(f, c);
		return 0;
	default:
		f->simpleperf_records += type >= REC_SIMPLEPERF;
		return 0;
	}
}

/* The bytes of the record at h, left bytes before the data section ends:
 * perf's u16 size, or for simpleperf's own records (from 32768) a u32 in
 * two halves where misc would be (simpleperf_record_header); an AUXTRACE
 * record's data follows it, sized by its first field. NULL, or what is
 * wrong. */
static const char *extent(const uint8_t *h, size_t left, uint32_t type, uint64_t *n, uint64_t *whole)
{
	*n = type >= REC_SIMPLEPERF ? af_le(h + 4, 2) << 16 | af_le(h + 6, 2) : af_le(h + 6, 2);
	if (*n < 8 || *n > left)
		return *n < 8 ? "a record shorter than its header" : "a record runs past the data section";
	*whole = *n;
	if (type == REC_AUXTRACE && *n >= 16 && af_le(h + 8, 8) > left - *n)
		return "an AUXTRACE record's data runs past the data section";
	if (type == REC_AUXTRACE && *n >= 16)
		*whole += af_le(h + 8, 8);
	return NULL;
}

static int record_extent(struct pd *f, const uint8_t *h, size_t pos, size_t end, uint32_t type, uint64_t *n,
			 uint64_t *whole)
{
	const char *why = extent(h, end - pos, type, n, whole);
	return why ? pd_bad(f, pos, why) : 0;
}

/* The attr of the data section's first sample (0 if none): drawn when no
 * --event says which, as simpleperf's stackcollapse.py filters for the
 * first event type it sees, so a recording whose first event type has no
 * samples still draws the one that has. Damage stops the look quietly:
 * read_records() reports it. */
static size_t first_sampled(struct pd *f)
{
	uint64_t off, size;
	if (pd_section(f, 40, &off, &size) < 0)
		return 0;
	size_t pos = (size_t)off, end = (size_t)(off + size);
	while (end - pos >= 8) {
		const uint8_t *h = f->data + pos;
		uint32_t type = (uint32_t)af_le(h, 4);
		uint64_t n, whole;
		if (extent(h, end - pos, type, &n, &whole))
			return 0;
		if (type == REC_SAMPLE) {
			struct af_cursor c = { h + 8, (size_t)n - 8, 0 };
			struct sample s;
			uint32_t a = parse_sample(f, &c, &s) ? af_idmap_get(&f->attr_ids, s.id) : AF_NONE;
			return a != AF_NONE ? a : 0;
		}
		pos += (size_t)whole;
	}
	return 0;
}

/* The n bytes at input offset pos, from the window (moved on to them if
 * they are not all in it), or NULL with the diag set if the file cannot be
 * read. The data section is read with pread() into one buffer, not through
 * the mapping: a page fault costs about 15 us on the build machine. */
static const uint8_t *window_at(struct pd *f, struct af_window *w, size_t pos, size_t n)
{
	if (pos - w->at > w->len) {   /* past the window: an AUXTRACE record's data skipped */
		const struct af_input *in = w->in;
		af_window_release(w);
		af_window_init_at(w, in, pos);
	}
	while (w->len - (pos - w->at) < n) {
		int rc = af_window_more(w, pos - (size_t)w->at, f->d);
		if (rc <= 0) {
			if (rc == 0)
				pd_bad(f, pos, "a record runs past the end of the file");
			return NULL;
		}
	}
	return w->data + (pos - w->at);
}

static int read_records(struct pd *f)
{
	uint64_t off, size;
	if (pd_section(f, 40, &off, &size) < 0)
		return -1;
	size_t pos = (size_t)off, end = (size_t)(off + size);
	struct af_window w;
	af_window_init_at(&w, f->in, off);
	int rc = 0;
	while (pos < end && rc == 0) {
		if (end - pos < 8) {
			rc = pd_bad(f, pos, "the data section ends inside a record header");
			break;
		}
		const uint8_t *h = window_at(f, &w, pos, 8);
		uint32_t type = h ? (uint32_t)af_le(h, 4) : 0;
		uint64_t rsize = 0, whole = 0;
		if (!h || record_extent(f, h, pos, end, type, &rsize, &whole) < 0 ||
		    !(h = window_at(f, &w, pos, (size_t)rsize))) {
			rc = -1;
			break;
		}
		uint16_t misc = type >= REC_SIMPLEPERF ? 0 : (uint16_t)af_le(h + 4, 2);
		struct af_cursor c = { h + 8, (size_t)rsize - 8, 0 };
		rc = read_record(f, &c, pos, type, misc);
		pos += (size_t)whole;
	}
	af_window_release(&w);
	return rc;
}

/* --info: samples whose stack did not unwind, by kind. */
static void unwinding_info(struct pd *f)
{
	af_profile_info_kinds(f->p, "unwinding failures", "simpleperf's UNWINDING_RESULT records",
			      unwind_error_names, NUNWIND_ERRORS, f->unwind_errors);
	if (f->empty_chains)
		af_profile_warn(f->p, f->empty_chains, "samples without a callchain (drawn at their ip)");
	if (f->chains_off_map)
		af_profile_warn(f->p, f->chains_off_map, "callchains whose outermost caller is outside every map "
				"(unwinding stopped early)");
}

static void info(struct pd *f)
{
	struct af_profile *p = f->p;
	struct af_buf *b = &f->scratch;
	b->len = 0;
	for (size_t i = 0; i < f->nattrs; i++) {
		if (i)
			af_buf_printf(b, ", ");
		size_t from = b->len;
		af_name_append(b, f->enames[i].s, f->enames[i].n);
		af_name_finish(b, from);
	}
	if (f->nattrs > 1 && (f->o->event || f->drawn)) {
		af_buf_printf(b, " (");
		size_t from = b->len;
		af_name_append(b, f->enames[f->drawn].s, f->enames[f->drawn].n);
		af_name_finish(b, from);
		af_buf_printf(b, f->o->event ? " is drawn)" : " is drawn: the first sample's)");
	} else if (f->nattrs > 1) {
		af_buf_printf(b, " (the first is drawn)");
	}
	af_profile_info(p, "event types", "%.*s", (int)b->len, b->data);
	af_profile_info(p, "samples", "%" PRIu64 " drawn, %" PRIu64 " of other event types", f->samples,
			f->other_event);
	if (f->offcpu_mode)
		af_profile_info(p, "off-cpu samples", "%" PRIu64 " drawn (marked [off-cpu], weighing the time to the "
				"thread's next sample or switch-in), %" PRIu64 " with neither (left out)",
				f->offcpu_drawn, f->offcpu_open);
	af_profile_info(p, "lost samples", "%" PRIu64, f->lost);
	af_profile_info(p, "threads", "%zu", f->nthreads);
	size_t with = 0;
	for (size_t i = 0; i < f->nfiles; i++)
		with += f->files[i].count > 0;
	af_profile_info(p, "files", "%zu (%zu with symbols)", f->nfiles, with);
	if (f->package.n)
		af_profile_info(p, "app package", "%.*s", (int)f->package.n, (const char *)f->package.s);
	if (f->offcpu.n)
		af_profile_info(p, "trace offcpu", "%.*s", (int)f->offcpu.n, (const char *)f->offcpu.s);
	if (f->no_map)
		af_profile_warn(p, f->no_map, "frames outside every mapped file");
	if (f->no_symbol)
		af_profile_warn(p, f->no_symbol, "frames without a symbol (named file[+address])");
	unwinding_info(f);
	if (f->read_samples)
		af_profile_info(p, "counter values", "%" PRIu64 " samples read their group's counters: each weighs "
				"what the drawn counter counted since the thread's previous sample", f->read_samples);
	if (f->forks_copied || f->forks_uncopied)
		af_profile_info(p, "forks", "%" PRIu64 " new processes given their parent's maps", f->forks_copied);
	if (f->forks_uncopied)
		af_profile_warn(p, f->forks_uncopied, "new processes not given their parent's maps (too many maps "
				"copied already)");
	if (f->simpleperf_records)
		af_profile_info(p, "simpleperf records", "%" PRIu64 " (not read)", f->simpleperf_records);
}

static void pd_release(struct pd *f)
{
	af_ranges_release(&f->ranges);
	free(f->roots);
	free(f->listed);
	for (size_t i = 0; i < f->nthreads; i++) {
		free(f->threads[i].stack);
		free(f->threads[i].chain);
	}
	free(f->raw);
	for (size_t i = 0; i < f->nowned; i++)
		free(f->owned[i]);
	free(f->owned);
	free(f->maps);
	for (size_t i = 0; i < f->nattrs; i++)
		free(f->attrs[i].name);
	free(f->attrs);
	free(f->enames);
	free(f->files);
	free(f->syms);
	free(f->threads);
	free(f->chain);
	free(f->sym_names);
	free(f->sym_keys);
	free(f->buckets);
	free(f->ipcache_mem);
	af_idmap_release(&f->attr_ids);
	af_idmap_release(&f->file_by_hash);
	af_idmap_release(&f->maps_by_pid);
	af_idmap_release(&f->counter_ids);
	free(f->counters);
	af_idmap_release(&f->thread_ids);
	af_idmap_release(&f->proc_nodes);
	af_idmap_release(&f->dex_names);
	af_buf_release(&f->scratch);
}

static int read_all(struct pd *f)
{
	if (f->len < HEADER_SIZE)
		return af_diag_offset(f->d, f->len, "the file ends inside the perf.data header");
	if (af_le(f->data + 8, 8) < HEADER_SIZE)
		return pd_bad(f, 8, "the header size is smaller than 104 bytes");
	if (pd_read_attrs(f) < 0 || pd_read_feature_table(f) < 0)
		return -1;
	if (f->feat[FEAT_META_INFO])
		pd_read_meta(f);
	pd_name_events(f);
	int drawn = af_event_pick(f->o->event, f->enames, f->nattrs, f->d);
	if (drawn < 0)
		return -1;
	f->drawn = (size_t)drawn;
	bool offcpu = af_span_eq(f->offcpu, (struct af_span){ (const uint8_t *)"true", 4 });
	if (!f->o->event && f->nattrs > 1 && !offcpu)   /* off-CPU recordings draw their clock event */
		f->drawn = first_sampled(f);
	/* simpleperf's report library draws off-CPU samples only beside a
	 * clock event (it refuses older recordings with another) */
	f->offcpu_mode = offcpu && f->drawn == 0 && f->nattrs > 1 && strcmp(af_event_unit(f->enames[0]), "ns") == 0;
	if (offcpu && !f->offcpu_mode)
		af_profile_note(f->p, "recorded with --trace-offcpu: off-CPU samples are drawn only with the first "
				"event type, when that is cpu-clock or task-clock (as simpleperf reads them)");
	f->offcpu_name = af_tree_intern_str(&f->p->tree, "[off-cpu]");
	if (f->feat[FEAT_FILE] && pd_read_files(f, FEAT_FILE) < 0)
		return -1;
	if (!f->feat[FEAT_FILE] && f->feat[FEAT_FILE2] && pd_read_files(f, FEAT_FILE2) < 0)
		return -1;
	size_t nsyms = f->nsyms ? f->nsyms : 1;
	f->sym_names = af_xmalloc(nsyms * 3 * sizeof *f->sym_names);
	memset(f->sym_names, 0xff, nsyms * 3 * sizeof *f->sym_names);
	f->sym_keys = af_xmalloc(nsyms * sizeof *f->sym_keys);
	for (size_t i = 0; i < f->nsyms; i++)
		f->sym_keys[i] = (struct symkey){ f->syms[i].addr, (uint32_t)f->syms[i].len, f->syms[i].tramp };
	pd_index_syms(f);
	f->ipcache_bits = IPCACHE_MIN_BITS;
	while (f->ipcache_bits < IPCACHE_MAX_BITS && (f->len >> 10) > ((size_t)1 << f->ipcache_bits))
		f->ipcache_bits++;
	f->ipcache_mem = af_xcalloc_huge(((size_t)1 << f->ipcache_bits) + 1, sizeof *f->ipcache);
	f->ipcache = (struct ipslot *)(((uintptr_t)f->ipcache_mem + 63) & ~(uintptr_t)63);
	f->maps_gen = 1;   /* slots start at generation 0: empty */
	f->copy_budget = ((uint64_t)1 << 21) + f->len / 64;
	/* the tree's table and nodes from the data's size, so they never grow
	 * (a rehash touches every slot twice): a node per 256 bytes, more than
	 * real and generated recordings make (one per 360-550) */
	af_tree_path_reserve(&f->p->tree, (size_t)(f->len / 256));
	return read_records(f);
}

static int read_perfdata(struct af_profile *p, const struct af_input *in, const struct af_read_opts *o,
			 struct af_diag *d)
{
	struct pd f = { .p = p, .d = d, .in = in, .o = o, .data = in->data, .len = in->len };
	af_idmap_init(&f.attr_ids);
	af_idmap_init(&f.file_by_hash);
	af_idmap_init(&f.maps_by_pid);
	af_idmap_init(&f.counter_ids);
	af_ranges_init(&f.ranges);
	af_idmap_init(&f.thread_ids);
	af_idmap_init(&f.proc_nodes);
	af_idmap_init(&f.dex_names);
	int rc = read_all(&f);
	if (rc == 0) {
		p->unit = f.nattrs ? af_event_unit(f.enames[f.drawn]) : "events";
		p->clock = NULL;
		if (f.nattrs && !p->event)
			p->event = af_xstrndup(f.enames[f.drawn].s, f.enames[f.drawn].n);
		info(&f);
	}
	pd_release(&f);
	return rc;
}

static enum af_sniff sniff(const uint8_t *data, size_t len)
{
	return len >= 8 && memcmp(data, MAGIC, 8) == 0 ? AF_SNIFF_YES : AF_SNIFF_NO;
}

const struct af_reader af_reader_perfdata = {
	.name = "perf-data", .what = "a perf.data recording", .sniff = sniff,
	.read = read_perfdata, .nothing = "no samples",
};
