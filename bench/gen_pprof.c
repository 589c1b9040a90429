/* gen_pprof.c: a pprof profile (google/pprof's profile.proto, plain, not
 * gzip'd) like Go's runtime/pprof CPU profiles, deterministic from a seed.
 *
 *   gen_pprof SAMPLES SEED > out.pb
 *
 * Shaped after Go's CPU profiles (tests/data/pprof/go-cpu.pb.gz and
 * Parca's test profiles): two sample types (samples/count, cpu/nanoseconds),
 * one sample per distinct stack, leaf first; one mapping (the binary);
 * 60000 locations, one per program counter, a fifth of them with inlined
 * functions (two or three lines, innermost first); 24000 functions named
 * like Go's ("pkg.(*Type).method"); stacks 8-64 deep from 3000 base stacks
 * that share their callers, with a few callees each, as a program's call
 * paths do. Values: 1-40 samples of 10 ms. SAMPLES 110000 makes about 10 MB. */
#include "gen.h"

#include <string.h>

enum { FUNCS = 24000, LOCS = 60000, BASES = 3000, MAX_DEPTH = 64 };

/* a growable buffer, and protobuf's varints and fields into it */
struct buf { unsigned char *p; size_t n, cap; };

static void put(struct buf *b, const void *s, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			exit(1);
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static void varint(struct buf *b, uint64_t v)
{
	unsigned char c[10];
	size_t n = 0;
	while (v >= 0x80) {
		c[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	c[n++] = (unsigned char)v;
	put(b, c, n);
}

static void field_varint(struct buf *b, unsigned num, uint64_t v)
{
	varint(b, (uint64_t)num << 3);
	varint(b, v);
}

static void field_bytes(struct buf *b, unsigned num, const void *s, size_t n)
{
	varint(b, (uint64_t)num << 3 | 2);
	varint(b, n);
	put(b, s, n);
}

/* the message in m as field num of b; m emptied */
static void field_msg(struct buf *b, unsigned num, struct buf *m)
{
	field_bytes(b, num, m->p, m->n);
	m->n = 0;
}

static void field_packed(struct buf *b, unsigned num, const uint64_t *v, size_t n, struct buf *tmp)
{
	for (size_t i = 0; i < n; i++)
		varint(tmp, v[i]);
	field_msg(b, num, tmp);
}

static unsigned base_len[BASES];
static uint32_t base[BASES][MAX_DEPTH];

/* base stacks, root first: each shares a prefix with an earlier one */
static void make_bases(void)
{
	for (unsigned i = 0; i < BASES; i++) {
		unsigned len = 6 + below(50), keep = 0;
		if (i > 0) {
			unsigned from = below(i);
			keep = base_len[from] ? below(base_len[from]) : 0;
			memcpy(base[i], base[from], keep * sizeof **base);
		}
		for (unsigned d = keep; d < len; d++)
			base[i][d] = 1 + below(LOCS);
		base_len[i] = len;
	}
}

static void samples(struct buf *out, unsigned long n)
{
	struct buf m = { 0 }, tmp = { 0 };
	uint64_t ids[MAX_DEPTH + 8];
	for (unsigned long s = 0; s < n; s++) {
		unsigned b = below(BASES), depth = base_len[b] / 2 + below(base_len[b] / 2 + 1), extra = 1 + below(6);
		size_t k = 0;
		for (unsigned e = 0; e < extra; e++)   /* leaf first: the callees, then the base */
			ids[k++] = 1 + below(LOCS);
		for (unsigned d = depth; d-- > 0;)
			ids[k++] = base[b][d];
		uint64_t count = 1 + below(40), values[2] = { count, count * 10000000 };
		field_packed(&m, 1, ids, k, &tmp);
		field_packed(&m, 2, values, 2, &tmp);
		field_msg(out, 2, &m);
	}
	free(m.p);
	free(tmp.p);
}

/* mapping 1, locations (a fifth with inlined lines), functions and the
 * string table: "", the four sample type strings, the binary, then the
 * functions' names from string 6 on */
static void tables(struct buf *out)
{
	struct buf m = { 0 }, line = { 0 };
	field_varint(&m, 1, 1);
	field_varint(&m, 2, 0x400000);
	field_varint(&m, 3, 0x400000 + 16 * (uint64_t)LOCS + 0x1000);
	field_varint(&m, 5, 5);
	field_msg(out, 3, &m);
	for (unsigned i = 1; i <= LOCS; i++) {
		field_varint(&m, 1, i);
		field_varint(&m, 2, 1);
		field_varint(&m, 3, 0x400000 + 16 * (uint64_t)i);
		unsigned lines = below(5) == 0 ? 2 + below(2) : 1;
		for (unsigned l = 0; l < lines; l++) {
			field_varint(&line, 1, 1 + below(FUNCS));
			field_varint(&line, 2, 1 + below(2000));
			field_msg(&m, 4, &line);
		}
		field_msg(out, 4, &m);
	}
	for (unsigned i = 1; i <= FUNCS; i++) {
		field_varint(&m, 1, i);
		field_varint(&m, 2, 5 + i);
		field_msg(out, 5, &m);
	}
	const char *strs[] = { "", "samples", "count", "cpu", "nanoseconds", "/usr/local/bin/server" };
	for (size_t i = 0; i < 6; i++)
		field_bytes(out, 6, strs[i], strlen(strs[i]));
	for (unsigned i = 1; i <= FUNCS; i++) {
		char cls[96], name[48], full[160];
		method_name(i, cls, sizeof cls, name, sizeof name);
		int n = snprintf(full, sizeof full, "%s.(*%s).%s", cls, strrchr(cls, '.') + 1, name);
		field_bytes(out, 6, full, (size_t)n);
	}
	free(m.p);
	free(line.p);
}

int main(int argc, char **argv)
{
	unsigned long n = count_and_seed(argc, argv, "gen_pprof SAMPLES SEED > out.pb", "sample count");
	struct buf out = { 0 }, vt = { 0 };
	field_varint(&vt, 1, 1);
	field_varint(&vt, 2, 2);
	field_msg(&out, 1, &vt);
	field_varint(&vt, 1, 3);
	field_varint(&vt, 2, 4);
	field_msg(&out, 1, &vt);
	make_bases();
	samples(&out, n);
	tables(&out);
	field_varint(&vt, 1, 3);
	field_varint(&vt, 2, 4);
	field_msg(&out, 11, &vt);
	field_varint(&out, 12, 10000000);
	field_varint(&out, 10, 30000000000ULL);
	fwrite(out.p, 1, out.n, stdout);
	free(out.p);
	free(vt.p);
	return ferror(stdout) ? 1 : 0;
}
