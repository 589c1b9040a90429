/* perfdata_header.c: a perf.data file's attrs (one perf_event_attr and
 * its section of sample ids each), the feature table, simpleperf's
 * META_INFO strings and the events' names. */
#include "perfdata_int.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* Names of the common events by perf_event_attr type and config, for files
 * without simpleperf's event_type_info (older simpleperf, Linux perf). */
static const char *const hw_events[] = {
	"cpu-cycles", "instructions", "cache-references", "cache-misses", "branch-instructions",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};
static const char *const sw_events[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults",
};

/* A section descriptor at off: its range, checked against the file. */
int pd_section(struct pd *f, size_t off, uint64_t *o, uint64_t *n)
{
	*o = af_le(f->data + off, 8);
	*n = af_le(f->data + off + 8, 8);
	if (*o > f->len || *n > f->len - *o)
		return pd_bad(f, off, "a section runs past the end of the file");
	return 0;
}

/* An attr's section of sample ids: where it is, and where its descriptor
 * is (for messages). */
struct ids { uint64_t off, size, at; };

static int by_offset(const void *a, const void *b)
{
	const struct ids *x = a, *y = b;
	return x->off != y->off ? (x->off < y->off ? -1 : 1) : (x->size > y->size) - (x->size < y->size);
}

/* Each attr's ids in its own part of the file, as perf and simpleperf
 * write them: two that overlap would be read once per attr (issue 36: N
 * attrs sharing one section of N ids took N^2 steps), so they are refused,
 * and the ids read are then at most the file's length over 8. */
static int check_ids(struct pd *f, struct ids *s, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (s[i].size >= 8)
			s[k++] = s[i];
	qsort(s, k, sizeof *s, by_offset);
	for (size_t i = 1; i < k; i++)
		if (s[i].off < s[i - 1].off + s[i - 1].size)
			return pd_bad(f, s[i].at > s[i - 1].at ? s[i].at : s[i - 1].at,
				      "the sample id sections of two attrs overlap");
	return 0;
}

/* One attr at file offset a (index i): its event, flags and sample ids. */
static void read_attr(struct pd *f, size_t i, size_t a, const struct ids *ids)
{
	f->attrs[i].type = af_le(f->data + a, 4);
	f->attrs[i].config = af_le(f->data + a + 8, 8);
	f->attrs[i].sample_type = af_le(f->data + a + 24, 8);
	uint64_t flags = af_le(f->data + a + 40, 8);   /* exclude_user: bit 4, exclude_kernel: 5 */
	f->attrs[i].no_user = flags >> 4 & 1;
	f->attrs[i].no_kernel = flags >> 5 & 1;
	if (i == 0) {
		f->sample_type = f->attrs[0].sample_type;
		f->read_format = af_le(f->data + a + 32, 8);
		f->sample_id_all = (af_le(f->data + a + 40, 8) >> 18) & 1;
	}
	for (uint64_t k = 0; k + 8 <= ids->size; k += 8)
		af_idmap_put(&f->attr_ids, af_le(f->data + ids->off + k, 8), (uint32_t)i);
}

int pd_read_attrs(struct pd *f)
{
	uint64_t attr_size = af_le(f->data + 16, 8), off, size;
	if (pd_section(f, 24, &off, &size) < 0)
		return -1;
	if (attr_size < ATTR_MIN + 16 || attr_size > size || size % attr_size)
		return pd_bad(f, 16, "the attr size does not divide the attr section");
	f->nattrs = (size_t)(size / attr_size);
	f->attrs = af_xcalloc(f->nattrs, sizeof *f->attrs);
	struct ids *ids = af_xcalloc(f->nattrs, sizeof *ids), *sorted = af_xcalloc(f->nattrs, sizeof *sorted);
	int rc = 0;
	for (size_t i = 0; i < f->nattrs && rc == 0; i++) {
		ids[i].at = off + i * attr_size + attr_size - 16;
		rc = pd_section(f, (size_t)ids[i].at, &ids[i].off, &ids[i].size);
	}
	if (rc == 0) {
		memcpy(sorted, ids, f->nattrs * sizeof *ids);
		rc = check_ids(f, sorted, f->nattrs);
	}
	for (size_t i = 0; i < f->nattrs && rc == 0; i++)
		read_attr(f, i, (size_t)(off + i * attr_size), &ids[i]);
	free(ids);
	free(sorted);
	return rc;
}

int pd_read_feature_table(struct pd *f)
{
	uint64_t doff, dsize;
	if (pd_section(f, 40, &doff, &dsize) < 0)
		return -1;
	size_t at = (size_t)(doff + dsize);
	for (unsigned b = 0; b < NFEAT; b++) {
		if (!(f->data[72 + b / 8] >> (b % 8) & 1))
			continue;
		if (f->len - at < 16)
			return pd_bad(f, at, "the feature table runs past the end of the file");
		if (pd_section(f, at, &f->feat_off[b], &f->feat_size[b]) < 0)
			return -1;
		f->feat[b] = true;
		at += 16;
	}
	return 0;
}

/* META_INFO: NUL-terminated key and value strings, in pairs. */
void pd_read_meta(struct pd *f)
{
	const uint8_t *s = f->data + f->feat_off[FEAT_META_INFO];
	size_t n = (size_t)f->feat_size[FEAT_META_INFO], i = 0;
	while (i < n) {
		struct af_span k = pd_cstr(s + i, n - i);
		i += k.n + 1;
		if (i >= n)
			break;
		struct af_span v = pd_cstr(s + i, n - i);
		i += v.n + 1;
		if (af_span_eq(k, (struct af_span){ (const uint8_t *)"app_package_name", 16 }))
			f->package = v;
		else if (af_span_eq(k, (struct af_span){ (const uint8_t *)"trace_offcpu", 12 }))
			f->offcpu = v;
		else if (af_span_eq(k, (struct af_span){ (const uint8_t *)"event_type_info", 15 }))
			f->event_info = v;
	}
	/* event_type_info: "name,type,config" lines, one per attr in order */
	const uint8_t *e = f->event_info.s, *end = e ? e + f->event_info.n : e;   /* none: NULL, no offset */
	for (size_t a = 0; e && e < end && a < f->nattrs; a++) {
		const uint8_t *nl = memchr(e, '\n', (size_t)(end - e));
		const uint8_t *line_end = nl ? nl : end;
		const uint8_t *comma = memchr(e, ',', (size_t)(line_end - e));
		f->attrs[a].event = (struct af_span){ e, (uint32_t)((comma ? comma : line_end) - e) };
		e = line_end + 1;
	}
}

/* The attrs' event names: simpleperf's event_type_info, else the common
 * events by type and config, else "event N"; then, as simpleperf's
 * GetEventNameByAttr, ":u" for an attr that leaves out the kernel and ":k"
 * for one that leaves out user space, so that `-e cache-misses,cache-misses:u`
 * gives two names --event can tell apart (perf_with_ip_zero_in_callchain.data;
 * report_lib_test.py names perf_with_trace_offcpu_v2.data's event cpu-clock:u). */
void pd_name_events(struct pd *f)
{
	f->enames = af_xcalloc(f->nattrs ? f->nattrs : 1, sizeof *f->enames);
	struct af_buf *b = &f->scratch;
	for (size_t i = 0; i < f->nattrs; i++) {
		struct attr *at = &f->attrs[i];
		b->len = 0;
		if (at->event.n)
			af_buf_add(b, at->event.s, at->event.n);
		else if (at->type == 0 && at->config < sizeof hw_events / sizeof *hw_events)
			af_buf_printf(b, "%s", hw_events[at->config]);
		else if (at->type == 1 && at->config < sizeof sw_events / sizeof *sw_events)
			af_buf_printf(b, "%s", sw_events[at->config]);
		else
			af_buf_printf(b, "event %zu", i + 1);
		if (at->no_kernel != at->no_user)
			af_buf_printf(b, "%s", at->no_kernel ? ":u" : ":k");
		at->name = af_xstrndup(b->data, b->len);
		f->enames[i] = (struct af_event_name){ at->name, b->len };
	}
}
