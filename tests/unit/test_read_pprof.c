/* test_read_pprof.c: the pprof reader's rules on profiles built here with
 * the protobuf writer (core/pbwrite.h), read through the reader table:
 * which sample type is drawn (--event, default_sample_type, else the
 * last), leaf-first samples and innermost-first lines, labels as roots,
 * packed or unpacked ids, the checks pprof itself makes (string indices,
 * ids, values per sample) as errors at their offsets, and detection
 * beside Perfetto traces, which also open with a field 1. */
#include "harness.h"
#include "support.h"
#include "core/pbwrite.h"
#include "read/pprof_int.h"
#include "read/proto.h"
#include "render/gzpar.h"
#include "render/render.h"

#include <stdlib.h>
#include <zlib.h>

/* strings of every profile here */
static const char *const strs[] = {
	"", "samples", "count", "cpu", "nanoseconds", "main", "work", "inl", "pid", "tid", "thread", "app",
	"worker", "libx.so", "thread_id",
};
enum { S_SAMPLES = 1, S_COUNT, S_CPU, S_NS, S_MAIN, S_WORK, S_INL, S_PID, S_TID, S_THREAD, S_APP, S_WORKER,
       S_LIBX, S_THREAD_ID, NSTRS };

static void vtype(struct af_buf *b, uint32_t field, uint64_t type, uint64_t unit)
{
	size_t m = af_pb_open(b, field);
	af_pb_uint(b, 1, type);
	af_pb_uint(b, 2, unit);
	af_pb_close(b, m);
}

/* functions 1 main, 2 work, 3 inl; location 1: main; 2: inl inlined into
 * work (lines innermost first); 3: libx.so at 0x500 + 0x20 (file offset
 * 0x100) with no function */
static void tables(struct af_buf *b, size_t nstrs)
{
	for (uint64_t i = 1; i <= 3; i++) {
		size_t m = af_pb_open(b, 5);
		af_pb_uint(b, 1, i);
		af_pb_uint(b, 2, S_MAIN + i - 1);
		af_pb_close(b, m);
	}
	size_t m = af_pb_open(b, 3);
	af_pb_uint(b, 1, 1);
	af_pb_uint(b, 2, 0x500);
	af_pb_uint(b, 3, 0x600);
	af_pb_uint(b, 4, 0x100);
	af_pb_uint(b, 5, S_LIBX);
	af_pb_close(b, m);
	const uint64_t lines[3][2] = { { 1, 0 }, { 3, 2 }, { 0, 0 } };
	for (uint64_t i = 0; i < 3; i++) {
		m = af_pb_open(b, 4);
		af_pb_uint(b, 1, i + 1);
		if (i == 2) {
			af_pb_uint(b, 2, 1);
			af_pb_uint(b, 3, 0x520);
		}
		for (int k = 0; k < 2 && lines[i][k]; k++) {
			size_t l = af_pb_open(b, 4);
			af_pb_uint(b, 1, lines[i][k]);
			af_pb_close(b, l);
		}
		af_pb_close(b, m);
	}
	for (size_t i = 0; i < nstrs; i++)
		af_pb_str(b, 6, strs[i]);
}

/* a sample: location ids leaf first (packed or not), two values, labels
 * (key, str, num; str 0: a number) */
static void sample(struct af_buf *b, const uint64_t *locs, size_t n, bool packed, uint64_t samples, int64_t ns,
		   const uint64_t (*labels)[3], size_t nlabels)
{
	size_t m = af_pb_open(b, 2);
	if (packed)
		af_pb_packed(b, 1, locs, n);
	else
		for (size_t i = 0; i < n; i++)
			af_pb_uint(b, 1, locs[i]);
	uint64_t v[2] = { samples, (uint64_t)ns };
	af_pb_packed(b, 2, v, 2);
	for (size_t i = 0; i < nlabels; i++) {
		size_t l = af_pb_open(b, 3);
		af_pb_uint(b, 1, labels[i][0]);
		if (labels[i][1])
			af_pb_uint(b, 2, labels[i][1]);
		else
			af_pb_uint(b, 3, labels[i][2]);
		af_pb_close(b, l);
	}
	af_pb_close(b, m);
}

static void run(struct read_result *r, const struct af_buf *b, const char *event)
{
	struct af_read_opts o = { .event = event };
	read_input(r, b->data, b->len, "t.pb", NULL, &o);
}

/* Leaf first: the sample's last location is the root; a location's lines
 * innermost first, so the function inlined is the deeper frame; a
 * location without a function is its mapping's file and file offset.
 * Packed and unpacked ids fold alike. The last sample type is drawn;
 * default_sample_type names another; --event picks by name. */
void test_pprof_frames_and_types(void)
{
	struct af_buf b;
	af_buf_init(&b);
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	vtype(&b, 1, S_CPU, S_NS);
	const uint64_t a[] = { 2, 1 }, c[] = { 3, 1 };
	sample(&b, a, 2, true, 1, 300, NULL, 0);
	sample(&b, a, 2, false, 2, 400, NULL, 0);
	sample(&b, c, 2, true, 5, 7, NULL, 0);
	tables(&b, NSTRS);
	struct read_result r;
	run(&r, &b, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.p.format, "pprof");
	STR_EQ(r.folded, "main;libx.so+0x120 7\nmain;work;inl 700\n");
	STR_EQ(r.p.unit, "ns");
	STR_EQ(r.p.measure, "CPU time");
	read_result_release(&r);
	run(&r, &b, "samples");
	STR_EQ(r.folded, "main;libx.so+0x120 5\nmain;work;inl 3\n");
	STR_EQ(r.p.unit, "samples");
	read_result_release(&r);
	af_pb_uint(&b, 14, S_SAMPLES);          /* default_sample_type: samples */
	run(&r, &b, NULL);
	STR_EQ(r.folded, "main;libx.so+0x120 5\nmain;work;inl 3\n");
	read_result_release(&r);
	af_buf_release(&b);
}

/* pid/tid/thread labels (and thread_id, as a number or a decimal string)
 * make process > thread roots; a process is named as its main thread;
 * without a pid the thread is a root; a sample without labels starts at
 * its frames. Values of 0 draw nothing; negative ones are left out,
 * counted. */
void test_pprof_labels_as_roots(void)
{
	struct af_buf b;
	af_buf_init(&b);
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	vtype(&b, 1, S_CPU, S_NS);
	const uint64_t a[] = { 1 };
	const uint64_t main_thread[][3] = { { S_PID, 0, 10 }, { S_TID, 0, 10 }, { S_THREAD, S_APP, 0 } };
	const uint64_t worker[][3] = { { S_PID, 0, 10 }, { S_TID, 0, 11 }, { S_THREAD, S_WORKER, 0 } };
	const uint64_t alone[][3] = { { S_THREAD_ID, 0, 12 } };
	sample(&b, a, 1, true, 1, 5, main_thread, 3);
	sample(&b, a, 1, true, 1, 6, worker, 3);
	sample(&b, a, 1, true, 1, 7, alone, 1);
	sample(&b, a, 1, true, 1, 8, NULL, 0);
	sample(&b, a, 1, true, 1, 0, NULL, 0);
	sample(&b, a, 1, true, 1, -9, NULL, 0);
	tables(&b, NSTRS);
	struct read_result r;
	run(&r, &b, NULL);
	INT_EQ(r.rc, 0);
	STR_EQ(r.folded, "app (10);app (10);main 5\napp (10);worker (11);main 6\nmain 8\nthread-12 (12);main 7\n");
	INT_EQ(r.p.nthreads, 3);
	INT_EQ(r.p.nprocesses, 1);
	STR_EQ(r.p.processes[0].name, "app");
	const struct af_warning *w = find_warning(&r.p, "samples with a negative value left out");
	OK(w && w->count == 1);
	STR_EQ(af_profile_get_info(&r.p, "samples"), "4 drawn, 1 with a value of 0");
	read_result_release(&r);
	af_buf_release(&b);
}

/* What pprof refuses is refused, at the offset of the message at fault:
 * a string index past the table, a table not opening with "", an id 0 or
 * repeated, a sample with another number of values than sample types, a
 * location or function that is not there; sums past 2^64. */
void test_pprof_checks(void)
{
	struct af_buf b;
	struct read_result r;
	af_buf_init(&b);
	size_t at = b.len;
	vtype(&b, 1, S_SAMPLES, 99);
	tables(&b, NSTRS);
	run(&r, &b, NULL);
	char want[160];
	snprintf(want, sizeof want, "t.pb: offset 0x%zx: malformed pprof profile: string index 99 past the string "
		 "table (%d strings)", at + 2, NSTRS);
	STR_EQ(r.error, want);
	read_result_release(&r);

	b.len = 0;
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	tables(&b, 0);
	af_pb_str(&b, 6, "x");
	run(&r, &b, NULL);
	OK(strstr(r.error, "the string table does not start with an empty string") != NULL);
	read_result_release(&r);

	b.len = 0;
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	at = b.len;
	size_t m = af_pb_open(&b, 5);
	af_pb_uint(&b, 1, 2);
	af_pb_close(&b, m);
	tables(&b, NSTRS);                       /* function 2 again */
	run(&r, &b, NULL);
	OK(strstr(r.error, "a second function with id 2") != NULL);
	read_result_release(&r);

	b.len = 0;
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	at = b.len;
	const uint64_t a[] = { 1 }, none[] = { 4 };
	sample(&b, a, 1, true, 1, 2, NULL, 0);   /* two values, one type */
	tables(&b, NSTRS);
	run(&r, &b, NULL);
	snprintf(want, sizeof want, "t.pb: offset 0x%zx: malformed pprof profile: a sample has 2 values for 1 sample "
		 "types", at + 2);
	STR_EQ(r.error, want);
	read_result_release(&r);

	b.len = 0;
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	vtype(&b, 1, S_CPU, S_NS);
	sample(&b, none, 1, true, 1, 2, NULL, 0);
	tables(&b, NSTRS);
	run(&r, &b, NULL);
	OK(strstr(r.error, "a sample names location 4, which the profile does not have") != NULL);
	read_result_release(&r);

	b.len = 0;
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	vtype(&b, 1, S_CPU, S_NS);
	sample(&b, a, 1, true, 1, INT64_MAX, NULL, 0);
	sample(&b, a, 1, true, 1, INT64_MAX, NULL, 0);
	sample(&b, a, 1, true, 1, INT64_MAX, NULL, 0);
	tables(&b, NSTRS);
	run(&r, &b, NULL);
	OK(strstr(r.error, "add up past 2^64") != NULL);
	read_result_release(&r);
	af_buf_release(&b);
}

/* A pprof profile and a Perfetto trace both open with field 1: each is
 * detected as what it is. */
void test_pprof_detection(void)
{
	struct af_buf b;
	af_buf_init(&b);
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	tables(&b, NSTRS);
	struct af_input in = { .data = (const uint8_t *)b.data, .len = b.len, .name = "t" };
	struct af_diag d;
	af_diag_init(&d, "t");
	OK(af_detect(&in, &d) == &af_reader_pprof);
	b.len = 0;                               /* a Perfetto trace: one packet, a timestamp and a sequence id */
	size_t m = af_pb_open(&b, 1);
	af_pb_uint(&b, 8, 1000);
	af_pb_uint(&b, 10, 1);
	af_pb_close(&b, m);
	in = (struct af_input){ .data = (const uint8_t *)b.data, .len = b.len, .name = "t" };
	OK(af_detect(&in, &d) == &af_reader_perfetto);
	af_buf_release(&b);
}

/* ---- the pprof back end ---- */

/* write the tree of res as pprof (plain), into *out */
static int write_pprof(struct read_result *res, const uint8_t *excluded, uint32_t root, struct af_buf *out,
		       char *err, size_t errlen)
{
	struct af_sink s;
	struct af_diag d;
	af_diag_init(&d, "out.pb");
	af_buf_init(out);
	af_sink_init(&s, af_write_buf, out);
	int rc = af_write_pprof(&res->p.tree, root, excluded, res->p.decimals, res->p.unit, false, &s, &d);
	af_sink_finish(&s);
	if (rc < 0)
		af_diag_format(&d, err, errlen);
	return rc;
}

/* What the back end writes, this reader reads back as the same stacks and
 * weights (thread roots as frames); µs become nanoseconds (times 1000);
 * an excluded thread and the part above root are left out; weights with
 * decimals are refused; leaves of weight 0 are no samples. */
void test_pprof_write_round_trip(void)
{
	static const char folded[] = "main;a;b 3\nmain;c 2\nother;x 5\nmain;z 0\n";
	struct read_result in, back;
	struct af_buf pb;
	char err[200];
	read_input(&in, folded, sizeof folded - 1, "t.folded", NULL, NULL);
	INT_EQ(write_pprof(&in, NULL, AF_ROOT, &pb, err, sizeof err), 0);
	read_input(&back, pb.data, pb.len, "out.pb", NULL, NULL);
	STR_EQ(back.p.format, "pprof");
	STR_EQ(back.folded, "main;a;b 3\nmain;c 2\nother;x 5\n");
	STR_EQ(back.p.unit, "samples");
	read_result_release(&back);
	af_buf_release(&pb);
	/* other excluded, and from main down */
	struct af_tree *t = &in.p.tree;
	uint8_t *excluded = calloc(t->nnodes, 1);
	uint32_t main_node = t->nodes[AF_ROOT].first_child, other = AF_NONE;
	for (uint32_t c = t->nodes[AF_ROOT].first_child; c != AF_NONE; c = t->nodes[c].next_sibling)
		if (strcmp(af_tree_name(t, t->nodes[c].name), "other") == 0)
			other = c;
		else
			main_node = c;
	excluded[other] = 1;
	INT_EQ(write_pprof(&in, excluded, AF_ROOT, &pb, err, sizeof err), 0);
	read_input(&back, pb.data, pb.len, "out.pb", NULL, NULL);
	STR_EQ(back.folded, "main;a;b 3\nmain;c 2\n");
	read_result_release(&back);
	af_buf_release(&pb);
	INT_EQ(write_pprof(&in, NULL, main_node, &pb, err, sizeof err), 0);
	read_input(&back, pb.data, pb.len, "out.pb", NULL, NULL);
	STR_EQ(back.folded, "a;b 3\nc 2\n");
	read_result_release(&back);
	af_buf_release(&pb);
	free(excluded);
	/* µs as nanoseconds */
	in.p.unit = "\xc2\xb5s";
	INT_EQ(write_pprof(&in, NULL, AF_ROOT, &pb, err, sizeof err), 0);
	read_input(&back, pb.data, pb.len, "out.pb", NULL, NULL);
	STR_EQ(back.folded, "main;a;b 3000\nmain;c 2000\nother;x 5000\n");
	STR_EQ(back.p.unit, "ns");
	read_result_release(&back);
	af_buf_release(&pb);
	read_result_release(&in);
	/* decimals */
	read_input(&in, "a 0.5\n", 6, "t.folded", NULL, NULL);
	INT_EQ(write_pprof(&in, NULL, AF_ROOT, &pb, err, sizeof err), -1);
	STR_EQ(err, "out.pb: pprof values are integers, and these weights have 1 decimal (folded counts such as 0.5)");
	af_buf_release(&pb);
	read_result_release(&in);
}

/* Function and location ids go by how often the samples name them, most
 * first (a in 4 samples, b in 3: ids 1 and 2, their names the string
 * table's first after the sample type's, though x and y are met first); a stack
 * of 3,000 frames (2-byte ids, 6 KB: the ids' stack grows in front) and
 * one branching off it halfway read back whole. */
void test_pprof_write_numbered_by_use(void)
{
	static const char folded[] = "x 1\ny;a;b 1\na;b;c 1\na;b;d 1\na;e 1\n";
	struct read_result in, back;
	struct af_buf pb, text;
	char err[200];
	read_input(&in, folded, sizeof folded - 1, "t.folded", NULL, NULL);
	INT_EQ(write_pprof(&in, NULL, AF_ROOT, &pb, err, sizeof err), 0);
	static const char strings[] = "\x32\x00\x32\x07" "samples\x32\x05" "count\x32\x01" "a\x32\x01" "b\x32";
	bool found = false;
	for (size_t i = 0; !found && i + sizeof strings - 1 <= pb.len; i++)
		found = memcmp(pb.data + i, strings, sizeof strings - 1) == 0;
	OK(found);
	read_input(&back, pb.data, pb.len, "out.pb", NULL, NULL);
	STR_EQ(back.folded, "a;b;c 1\na;b;d 1\na;e 1\nx 1\ny;a;b 1\n");
	read_result_release(&back);
	af_buf_release(&pb);
	read_result_release(&in);
	af_buf_init(&text);
	for (int i = 0; i < 3000; i++)
		af_buf_printf(&text, "f%d;", i);
	size_t half = text.len / 2;
	af_buf_puts(&text, "leaf 5\n");
	af_buf_add(&text, text.data, half);
	af_buf_puts(&text, "branch 7\n");
	read_input(&in, text.data, text.len, "t.folded", NULL, NULL);
	INT_EQ(write_pprof(&in, NULL, AF_ROOT, &pb, err, sizeof err), 0);
	read_input(&back, pb.data, pb.len, "out.pb", NULL, NULL);
	STR_EQ(back.folded, in.folded);
	read_result_release(&back);
	af_buf_release(&pb);
	read_result_release(&in);
	af_buf_release(&text);
}

/* node id of the first node named `name` (AF_NONE: none) */
static uint32_t node_named(const struct af_tree *t, const char *name)
{
	for (uint32_t i = 0; i < t->nnodes; i++)
		if (i != AF_ROOT && strcmp(af_tree_name(t, t->nodes[i].name), name) == 0)
			return i;
	return AF_NONE;
}

/* The frames are listed in the same order, children in the order added,
 * whether the nodes were made depth first (then read in the array's
 * order) or not (x made before a's last children: the tree is walked):
 * the same bytes, whole, with a part excluded and from a root down; and a
 * node its parent no longer lists (whose next sibling is checked) is left
 * out as the walk leaves it. */
void test_pprof_write_node_orders(void)
{
	static const char *const folded[2] = {
		"a;b;c 1\nx 2\na;b;d 3\na;e 4\nx;y 5\n",   /* x before d */
		"a;b;c 1\na;b;d 3\na;e 4\nx 2\nx;y 5\n",   /* depth first */
	};
	struct read_result in[2];
	struct af_buf pb[2];
	char err[200];
	for (int k = 0; k < 2; k++)
		read_input(&in[k], folded[k], strlen(folded[k]), "t.folded", NULL, NULL);
	OK(node_named(&in[0].p.tree, "x") < node_named(&in[0].p.tree, "d"));
	OK(node_named(&in[1].p.tree, "x") > node_named(&in[1].p.tree, "e"));
	for (int cut = 0; cut < 3; cut++) {   /* whole, b excluded, from a down */
		for (int k = 0; k < 2; k++) {
			struct af_tree *t = &in[k].p.tree;
			uint8_t *excluded = calloc(t->nnodes, 1);
			excluded[node_named(t, "b")] = cut == 1;
			uint32_t root = cut == 2 ? node_named(t, "a") : AF_ROOT;
			INT_EQ(write_pprof(&in[k], excluded, root, &pb[k], err, sizeof err), 0);
			free(excluded);
		}
		OK(pb[0].len == pb[1].len && memcmp(pb[0].data, pb[1].data, pb[0].len) == 0);
		struct read_result back;
		read_input(&back, pb[0].data, pb[0].len, "out.pb", NULL, NULL);
		STR_EQ(back.folded, cut == 0 ? "a;b;c 1\na;b;d 3\na;e 4\nx 2\nx;y 5\n"
		       : cut == 1 ? "a;e 4\nx 2\nx;y 5\n" : "b;c 1\nb;d 3\ne 4\n");
		read_result_release(&back);
		for (int k = 0; k < 2; k++)
			af_buf_release(&pb[k]);
	}
	for (int k = 0; k < 2; k++)
		read_result_release(&in[k]);
	/* a node whose parent lists it no more (c, between b and d) is no frame */
	read_input(&in[0], "a;b 1\na;c 2\na;d 3\n", 18, "t.folded", NULL, NULL);
	struct af_tree *t = &in[0].p.tree;
	t->nodes[node_named(t, "d")].next_sibling = node_named(t, "b");
	INT_EQ(write_pprof(&in[0], NULL, AF_ROOT, &pb[0], err, sizeof err), 0);
	struct read_result back;
	read_input(&back, pb[0].data, pb[0].len, "out.pb", NULL, NULL);
	STR_EQ(back.folded, "a;b 1\na;d 3\n");
	read_result_release(&back);
	af_buf_release(&pb[0]);
	read_result_release(&in[0]);
}

/* A nested message longer than 127 bytes gets a longer length in front of
 * it on closing (the message moved), inside another; packed varints of
 * every width. */
void test_pbwrite_lengths(void)
{
	struct af_buf b;
	af_buf_init(&b);
	size_t outer = af_pb_open(&b, 1), inner = af_pb_open(&b, 2);
	char big[300];
	memset(big, 'x', sizeof big);
	af_pb_bytes(&b, 3, big, sizeof big);
	af_pb_close(&b, inner);
	uint64_t v[] = { 0, 127, 128, 16384, UINT64_MAX };
	af_pb_packed(&b, 4, v, 5);
	af_pb_close(&b, outer);
	struct af_proto m, in, in2;
	struct af_proto_field f;
	af_proto_init(&m, (const uint8_t *)b.data, b.len, 0);
	INT_EQ(af_proto_next(&m, &f), 1);
	INT_EQ(f.num, 1);
	INT_EQ(f.len, b.len - 3);                /* tag + a two-byte length */
	af_proto_sub(&m, &f, &in);
	INT_EQ(af_proto_next(&in, &f), 1);
	INT_EQ(f.num, 2);
	af_proto_sub(&in, &f, &in2);
	INT_EQ(af_proto_next(&in2, &f), 1);
	INT_EQ(f.len, 300);
	OK(f.len == 300 && f.data[0] == 'x' && f.data[299] == 'x');
	INT_EQ(af_proto_next(&in, &f), 1);
	INT_EQ(f.num, 4);
	struct af_cursor c = { f.data, f.len, 0 };
	uint64_t x = 1;
	bool broken = false;
	for (int i = 0; i < 5; i++) {
		OK(af_proto_packed_next(&c, &x, &broken));
		OK(x == v[i]);
	}
	OK(!af_proto_packed_next(&c, &x, &broken) && !broken);
	INT_EQ(af_proto_next(&m, &f), 0);
	af_buf_release(&b);
}

/* af_proto_unpack: every width from one byte to ten, the two- and
 * three-byte ones (read without a loop) at the end of the bytes too; a
 * value cut short anywhere, or of eleven bytes, is SIZE_MAX. */
void test_proto_unpack(void)
{
	static const uint8_t ok[] = { 0x01, 0x80, 0x01, 0xff, 0x7f, 0x80, 0x80, 0x01, 0xff, 0xff, 0x7f,
				      0x80, 0x80, 0x80, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
				      0xff, 0x01, 0x85, 0x01, 0x81, 0x80, 0x01 };
	const uint64_t want[] = { 1, 128, 16383, 16384, 2097151, 2097152, UINT64_MAX, 133, 16385 };
	uint64_t got[sizeof ok];
	INT_EQ(af_proto_unpack(ok, sizeof ok, got), 9);
	for (size_t i = 0; i < 9; i++)
		OK(got[i] == want[i]);
	INT_EQ(af_proto_unpack(ok + 25, 2, got), 1);   /* a two-byte value ends the bytes */
	OK(got[0] == 133);
	for (size_t cut = 1; cut < 3; cut++)           /* 0x81 0x80 0x01 cut short */
		INT_EQ(af_proto_unpack(ok + 27, cut, got), SIZE_MAX);
	INT_EQ(af_proto_unpack(ok, 2, got), SIZE_MAX); /* 0x01 0x80 */
	static const uint8_t eleven[] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01 };
	INT_EQ(af_proto_unpack(eleven, sizeof eleven, got), SIZE_MAX);
	INT_EQ(af_proto_unpack(eleven + 1, 10, got), 1);   /* ten bytes: the last gives bit 63 */
	OK(got[0] == (uint64_t)1 << 63);
}

/* Ids 1, 2, 3... are indices without a map; the first id out of that
 * order puts them in one: ids before and after it are found, and a
 * repeat or a 0 is refused on either side of the change. */
void test_pprof_ids_dense_then_sparse(void)
{
	struct af_buf b;
	struct read_result r;
	af_buf_init(&b);
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	vtype(&b, 1, S_CPU, S_NS);
	const uint64_t dense[] = { 2, 1 }, late[] = { 90, 1 };
	sample(&b, dense, 2, true, 4, 40, NULL, 0);
	sample(&b, late, 2, true, 3, 30, NULL, 0);
	tables(&b, NSTRS);                                 /* functions 1-3, locations 1-3 */
	size_t m = af_pb_open(&b, 5);                      /* function 70: work */
	af_pb_uint(&b, 1, 70);
	af_pb_uint(&b, 2, S_WORK);
	af_pb_close(&b, m);
	m = af_pb_open(&b, 4);                             /* location 90: inl, then 70 */
	af_pb_uint(&b, 1, 90);
	size_t l = af_pb_open(&b, 4);
	af_pb_uint(&b, 1, 3);
	af_pb_close(&b, l);
	l = af_pb_open(&b, 4);
	af_pb_uint(&b, 1, 70);
	af_pb_close(&b, l);
	af_pb_close(&b, m);
	size_t good = b.len;
	run(&r, &b, NULL);
	STR_EQ(r.error, "");
	STR_EQ(r.folded, "main;work;inl 70\n");
	read_result_release(&r);
	const uint64_t repeats[][2] = { { 5, 3 }, { 5, 70 }, { 4, 2 }, { 4, 90 }, { 5, 0 }, { 4, 0 } };
	const char *want[] = { "a second function with id 3", "a second function with id 70",
			       "a second location with id 2", "a second location with id 90",
			       "a function with id 0", "a location with id 0" };
	for (size_t i = 0; i < 6; i++) {
		b.len = good;
		m = af_pb_open(&b, (uint32_t)repeats[i][0]);
		af_pb_uint(&b, 1, repeats[i][1]);
		af_pb_close(&b, m);
		run(&r, &b, NULL);
		OK(strstr(r.error, want[i]) != NULL);
		read_result_release(&r);
	}
	b.len = 0;                                         /* dense, then a repeat: 1 after 1-3 */
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	tables(&b, NSTRS);
	m = af_pb_open(&b, 4);
	af_pb_uint(&b, 1, 1);
	af_pb_close(&b, m);
	run(&r, &b, NULL);
	OK(strstr(r.error, "a second location with id 1") != NULL);
	read_result_release(&r);
	af_buf_release(&b);
}

/* a location of id `id` with one line, function fn */
static void location(struct af_buf *b, uint64_t id, uint64_t fn)
{
	size_t m = af_pb_open(b, 4);
	af_pb_uint(b, 1, id);
	size_t l = af_pb_open(b, 4);
	af_pb_uint(b, 1, fn);
	af_pb_close(b, l);
	af_pb_close(b, m);
}

/* Whether every subtree of t is one run of node ids (made depth first) */
static bool subtrees_in_runs(const struct af_tree *t)
{
	size_t n = t->nnodes;
	uint32_t *lo = malloc(n * sizeof *lo), *hi = malloc(n * sizeof *hi), *size = calloc(n, sizeof *size);
	for (size_t i = 0; i < n; i++)
		lo[i] = hi[i] = (uint32_t)i;
	for (size_t i = n; i-- > 1;) {   /* children come after their parents */
		uint32_t p = t->nodes[i].parent;
		size[i]++;
		size[p] += size[i];
		lo[p] = lo[i] < lo[p] ? lo[i] : lo[p];
		hi[p] = hi[i] > hi[p] ? hi[i] : hi[p];
	}
	bool ok = true;
	for (size_t i = 1; i < n; i++)
		ok &= hi[i] - lo[i] + 1 == size[i];
	free(lo);
	free(hi);
	free(size);
	return ok;
}

/* The samples, in the order of `order` (indices into the six below) */
static void fold_profile(struct af_buf *b, const int *order, size_t n)
{
	const uint64_t s1[] = { 200, 1 }, s2[] = { 20000, 1 }, s3[] = { 2, 200, 1 }, s4[] = { 3000000, 1 },
		       s6[] = { 1 }, s7[] = { 1, 200 };
	b->len = 0;
	vtype(b, 1, S_SAMPLES, S_COUNT);
	vtype(b, 1, S_CPU, S_NS);
	for (size_t i = 0; i < n; i++) {
		switch (order[i]) {
		case 0: sample(b, s1, 2, true, 1, 10, NULL, 0); break;
		case 1: sample(b, s2, 2, true, 1, 20, NULL, 0); break;
		case 2: sample(b, s3, 3, true, 1, 30, NULL, 0); break;
		case 3: sample(b, s4, 2, false, 1, 40, NULL, 0); break;
		case 4: {   /* 20000, then 3000000 and 1: two packed fields */
			size_t m = af_pb_open(b, 2);
			af_pb_packed(b, 1, s2, 1);
			af_pb_packed(b, 1, s4, 2);
			const uint64_t v[2] = { 1, 50 };
			af_pb_packed(b, 2, v, 2);
			af_pb_close(b, m);
			break;
		}
		case 5: sample(b, s6, 1, true, 1, 60, NULL, 0); break;
		case 6: sample(b, s7, 2, true, 1, 70, NULL, 0); break;
		}
	}
	tables(b, NSTRS);                                  /* 1: main; 2: inl in work */
	location(b, 200, 2);
	location(b, 20000, 4);
	location(b, 3000000, 5);
	for (uint64_t i = 4; i <= 5; i++) {                /* functions 4 app, 5 worker */
		size_t m = af_pb_open(b, 5);
		af_pb_uint(b, 1, i);
		af_pb_uint(b, 2, i == 4 ? S_APP : S_WORKER);
		af_pb_close(b, m);
	}
}

/* Samples are folded sorted by their callers (pprof_fold.c), each one's
 * ids read again from the file: ids of one to four bytes (1, 200, 20000,
 * 3000000), ids unpacked or in two packed fields (packed again aside), a
 * location of two lines, a sample ending where another goes on, in any
 * order in the file: the same stacks, and each subtree's nodes made one
 * after another (samples sharing callers folded together). */
void test_pprof_fold_sorted(void)
{
	struct af_buf b;
	struct read_result r;
	af_buf_init(&b);
	const int orders[3][7] = { { 0, 1, 2, 3, 4, 5, 6 }, { 6, 5, 4, 3, 2, 1, 0 }, { 6, 0, 4, 1, 5, 2, 3 } };
	for (int k = 0; k < 3; k++) {
		fold_profile(&b, orders[k], 7);
		run(&r, &b, NULL);
		STR_EQ(r.error, "");
		STR_EQ(r.folded, "main 60\nmain;app 20\nmain;work 10\nmain;work;work;inl 30\nmain;worker 40\n"
				 "main;worker;app 50\nwork;main 70\n");
		OK(r.rc < 0 || subtrees_in_runs(&r.p.tree));
		read_result_release(&r);
	}
	af_buf_release(&b);
}

/* A profile of several pieces (render_pprof.c sends 64 KiB at a time)
 * reads back whole, gzip'd or plain; gzip'd, it is one gzip member of the
 * plain bytes, the same with the deflater on one thread; a tree whose
 * weights pass what pprof holds is refused with no part of it written
 * (plain: sent whole, not in pieces, when a sample could be refused;
 * gzip'd: the deflater's chunks dropped, the job joined). */
void test_pprof_write_pieces(void)
{
	struct af_buf text, pb;
	af_buf_init(&text);
	for (int i = 0; i < 60000; i++)
		af_buf_printf(&text, "main;f%d;g%d %d\n", i, i % 97, i + 1);
	struct read_result in, back;
	read_input(&in, text.data, text.len, "t.folded", NULL, NULL);
	struct af_buf outs[3];   /* plain, gzip'd, gzip'd on one thread */
	for (int k = 0; k < 3; k++) {
		struct af_sink s;
		struct af_diag d;
		af_diag_init(&d, "out.pb");
		af_buf_init(&outs[k]);
		af_sink_init(&s, af_write_buf, &outs[k]);
		if (k == 2)
			setenv("AFLAME_NO_THREADS", "1", 1);
		INT_EQ(af_write_pprof(&in.p.tree, AF_ROOT, NULL, 0, in.p.unit, k > 0, &s, &d), 0);
		unsetenv("AFLAME_NO_THREADS");
		af_sink_finish(&s);
		read_input(&back, outs[k].data, outs[k].len, "out.pb", NULL, NULL);
		STR_EQ(back.folded, in.folded);
		read_result_release(&back);
	}
	/* the plain profile spans more than two of the deflater's chunks */
	OK(outs[0].len > 2 * AF_GZPAR_CHUNK + 100000 && outs[1].len > 100000);
	OK(outs[1].len == outs[2].len && memcmp(outs[1].data, outs[2].data, outs[1].len) == 0);
	uLongf n = (uLongf)outs[0].len + 1;
	char *back_pb = malloc(n);
	z_stream z = { 0 };
	INT_EQ(inflateInit2(&z, 16 + 15), Z_OK);
	z.next_in = (Bytef *)outs[1].data;
	z.avail_in = (uInt)outs[1].len;
	z.next_out = (Bytef *)back_pb;
	z.avail_out = (uInt)n;
	INT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
	OK(z.avail_in == 0 && z.total_out == outs[0].len && memcmp(back_pb, outs[0].data, outs[0].len) == 0);
	inflateEnd(&z);
	free(back_pb);
	for (int k = 0; k < 3; k++)
		af_buf_release(&outs[k]);
	read_result_release(&in);
	af_buf_puts(&text, "huge 9223372036854775800\n");   /* the last sample written */
	read_input(&in, text.data, text.len, "t.folded", NULL, NULL);
	char err[200];
	INT_EQ(write_pprof(&in, NULL, AF_ROOT, &pb, err, sizeof err), -1);
	STR_EQ(err, "out.pb: the weights add up past what a pprof value holds (2^63 - 1)");
	INT_EQ(pb.len, 0);
	af_buf_release(&pb);
	/* gzip'd: refused with chunks deflated or deflating, nothing written
	 * (on one thread, chunks are deflated before the refusal: a deflated
	 * chunk is not written as it comes when a sample may be refused) */
	for (int k = 0; k < 2; k++) {
		struct af_sink s;
		struct af_diag d;
		af_diag_init(&d, "out.pb.gz");
		af_buf_init(&pb);
		af_sink_init(&s, af_write_buf, &pb);
		if (k == 1)
			setenv("AFLAME_NO_THREADS", "1", 1);
		INT_EQ(af_write_pprof(&in.p.tree, AF_ROOT, NULL, 0, in.p.unit, true, &s, &d), -1);
		unsetenv("AFLAME_NO_THREADS");
		af_sink_finish(&s);
		INT_EQ(pb.len, 0);
		af_buf_release(&pb);
	}
	read_result_release(&in);
	af_buf_release(&text);
}

/* A sorted sample decodes only the ids it does not share at the root's
 * end with the one before (pprof_fold.c, shared_end): stacks longer than
 * a word, whose bytes agree past an id that differs (200, 20000 and
 * 3000000 all end in the byte 0x01, as id 1 is): only whole ids are
 * shared, and the rest folded as theirs. */
void test_pprof_fold_shared_ends(void)
{
	struct af_buf b, want;
	struct read_result r;
	af_buf_init(&b);
	af_buf_init(&want);
	vtype(&b, 1, S_SAMPLES, S_COUNT);
	vtype(&b, 1, S_CPU, S_NS);
	const uint64_t leaves[5][2] = { { 20000, 0 }, { 3000000, 0 }, { 200, 0 }, { 200, 200 }, { 200, 20000 } };
	const size_t roots[5] = { 9, 9, 9, 12, 12 };
	const char *tails[5] = { "app", "worker", "work", "work;work", "app;work" };
	for (int i = 0; i < 5; i++) {
		uint64_t ids[16];
		size_t n = 0;
		ids[n++] = leaves[i][0];
		if (leaves[i][1])
			ids[n++] = leaves[i][1];
		for (size_t k = 0; k < roots[i]; k++)
			ids[n++] = 1;
		sample(&b, ids, n, true, 1, 10 + i, NULL, 0);
	}
	const int sorted[5] = { 0, 4, 3, 2, 1 };   /* --format folded's order */
	for (int j = 0; j < 5; j++) {
		int i = sorted[j];
		for (size_t k = 0; k < roots[i]; k++)
			af_buf_puts(&want, "main;");
		af_buf_printf(&want, "%s %d\n", tails[i], 10 + i);
	}
	tables(&b, NSTRS);
	location(&b, 200, 2);
	location(&b, 20000, 4);
	location(&b, 3000000, 5);
	for (uint64_t i = 4; i <= 5; i++) {
		size_t m = af_pb_open(&b, 5);
		af_pb_uint(&b, 1, i);
		af_pb_uint(&b, 2, i == 4 ? S_APP : S_WORKER);
		af_pb_close(&b, m);
	}
	run(&r, &b, NULL);
	STR_EQ(r.error, "");
	STR_EQ(r.folded, want.data);
	read_result_release(&r);
	af_buf_release(&want);
	af_buf_release(&b);
}

/* n samples of stacks drawn by a fixed generator over 40 locations of one
 * line each (functions 1-5), up to `depth` frames deep: the two nearest
 * the root of 3 each (so that samples share callers), those to the 24th
 * of `deep`, the others of 40; weights 1-9; bad: the last names location
 * 99, which the profile does not have */
static void random_profile(struct af_buf *b, size_t n, bool bad, uint64_t deep, size_t most)
{
	static const uint64_t names[5] = { S_MAIN, S_WORK, S_INL, S_APP, S_WORKER };
	uint64_t x = 12345;
	b->len = 0;
	vtype(b, 1, S_SAMPLES, S_COUNT);
	vtype(b, 1, S_CPU, S_NS);
	for (size_t i = 0; i < n; i++) {
		uint64_t locs[64];
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		size_t depth = 1 + (x >> 33) % most;
		for (size_t k = 0; k < depth; k++) {   /* from the root */
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			locs[depth - 1 - k] = 1 + (x >> 33) % (k < 2 ? 3 : k < 24 ? deep : 40);
		}
		if (bad && i == n - 1)
			locs[0] = 99;
		sample(b, locs, depth, true, 1, (int64_t)(1 + (x >> 40) % 9), NULL, 0);
	}
	for (uint64_t i = 1; i <= 5; i++) {
		size_t m = af_pb_open(b, 5);
		af_pb_uint(b, 1, i);
		af_pb_uint(b, 2, names[i - 1]);
		af_pb_close(b, m);
	}
	for (uint64_t id = 1; id <= 40; id++)
		location(b, id, 1 + id % 5);
	for (size_t i = 0; i < NSTRS; i++)
		af_pb_str(b, 6, strs[i]);
}

/* b read with parts of the fold apart from `apart` samples up (on a
 * second thread, or on one: AFLAME_NO_THREADS) makes the same nodes, in
 * the same places, as read whole, or the same error */
static void same_apart(const struct af_buf *b, size_t apart, bool threads)
{
	struct read_result whole, part;
	size_t was = pp_apart_min;
	pp_apart_min = SIZE_MAX;
	run(&whole, b, NULL);
	pp_apart_min = apart;
	if (!threads)
		setenv("AFLAME_NO_THREADS", "1", 1);
	run(&part, b, NULL);
	unsetenv("AFLAME_NO_THREADS");
	pp_apart_min = was;
	STR_EQ(part.error, whole.error);
	OK(part.rc == whole.rc);
	if (whole.rc == 0) {   /* (refused, the tree is dropped: each part stopped where it met the error) */
		OK(part.p.tree.nnodes == whole.p.tree.nnodes);
		OK(part.p.tree.nnodes != whole.p.tree.nnodes ||
		   memcmp(part.p.tree.nodes, whole.p.tree.nodes, whole.p.tree.nnodes * sizeof *whole.p.tree.nodes) == 0);
		STR_EQ(part.folded, whole.folded);
	}
	read_result_release(&whole);
	read_result_release(&part);
}

/* The fold gives the groups it would fold last to a second thread once
 * they hold about half the samples (pprof_fold.c: fold_apart), and moves
 * their nodes in after its own: the tree is node for node the one folded
 * on one thread (names, parents, first children, siblings in order, self
 * weights), and a bad id in either part is the same error (the tree of
 * a refused profile, dropped, is not compared: each part stops where it
 * meets one). Parts from one sample up, on two threads and on one; and
 * from the default. */
void test_pprof_fold_apart(void)
{
	struct af_buf b;
	af_buf_init(&b);
	const int orders[3][7] = { { 0, 1, 2, 3, 4, 5, 6 }, { 6, 5, 4, 3, 2, 1, 0 }, { 6, 0, 4, 1, 5, 2, 3 } };
	for (int k = 0; k < 3; k++) {
		fold_profile(&b, orders[k], 7);
		same_apart(&b, 1, true);
		same_apart(&b, 1, false);
	}
	size_t n = under_sanitizers() ? 3000 : 12000;
	for (int bad = 0; bad < 2; bad++) {
		random_profile(&b, n, bad, 40, 12);
		same_apart(&b, 1, true);
		same_apart(&b, 1, false);
		same_apart(&b, 100, true);
		same_apart(&b, pp_apart_min, true);
	}
	af_buf_release(&b);
}

/* b read with the samples' keys made distinct first (pprof_order.c) and
 * with the samples sorted themselves: the same nodes in the same places
 * (the order of siblings is that of the samples), or the same error */
static void same_order(const struct af_buf *b)
{
	struct read_result keys, samples;
	size_t was = pp_distinct_min;
	pp_distinct_min = SIZE_MAX;
	run(&samples, b, NULL);
	pp_distinct_min = 1;
	run(&keys, b, NULL);
	pp_distinct_min = was;
	STR_EQ(keys.error, samples.error);
	OK(keys.rc == samples.rc);
	OK(keys.p.tree.nnodes == samples.p.tree.nnodes);
	OK(keys.p.tree.nnodes != samples.p.tree.nnodes ||
	   memcmp(keys.p.tree.nodes, samples.p.tree.nodes, samples.p.tree.nnodes * sizeof *samples.p.tree.nodes) == 0);
	read_result_release(&keys);
	read_result_release(&samples);
}

/* The samples are placed by the rank of their distinct keys when those
 * are at most half of them, else sorted themselves: the same order either
 * way (node for node the same tree), in small profiles and in large ones
 * of few keys (one, two or three choices from the third frame to the
 * 24th, 40 below: samples of one key that differ further down, whose
 * order is the file's) or many (the sort of samples then). */
void test_pprof_order_by_keys(void)
{
	struct af_buf b;
	af_buf_init(&b);
	const int orders[3][7] = { { 0, 1, 2, 3, 4, 5, 6 }, { 6, 5, 4, 3, 2, 1, 0 }, { 6, 0, 4, 1, 5, 2, 3 } };
	for (int k = 0; k < 3; k++) {
		fold_profile(&b, orders[k], 7);
		same_order(&b);
	}
	size_t n = under_sanitizers() ? 2000 : 6000;
	for (uint64_t deep = 1; deep <= 40; deep += deep < 3 ? 1 : 37) {
		random_profile(&b, n, false, deep, 40);
		same_order(&b);
		random_profile(&b, n, true, deep, 40);
		same_order(&b);
	}
	af_buf_release(&b);
}
