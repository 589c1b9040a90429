/* zrows.c: a zlib stream of rows, runs of equal rows written as blocks of
 * copies (zrows.h). Deflate (RFC 1951) gets the other rows raw, the
 * stream's header and Adler-32 are written here. A row of one byte over
 * and over (a transparent gap row) goes into the block being written too,
 * as one literal and copies of the byte before. When deflate takes over
 * again it starts afresh, knowing only the row above as its dictionary
 * (none when that row is one byte over and over): what it remembered from
 * before the block is no longer where it thinks. */
#include "zrows.h"
#include "core/util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define WINDOW 32768u   /* deflate's farthest copy: longer rows all go to deflate */
#define RUN_BYTES 258    /* a run of one byte this long is copied from the byte before */
#define MAX_COPY 258

/* deflate's length and distance codes: first value and extra bits */
static const uint16_t len_base[29] = { 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27,
				       31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
				       258 };
static const uint8_t len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
				       2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const uint16_t dist_base[30] = { 1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129,
					193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
					6145, 8193, 12289, 16385, 24577 };
/* the order code length code lengths are sent in (RFC 1951, 3.2.7) */
static const uint8_t cl_order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2,
				      14, 1, 15 };

/* a copy of len (3-258) bytes from dist (1-32768) back, or with len 0 the
 * literal byte dist */
struct copy {
	uint16_t len, dist;
	uint8_t lsym, dsym;    /* length code - 257, distance code */
};

/* copies[first, first + count) of the block, reps times over */
struct piece {
	size_t first, count;
	uint32_t reps;
};

struct af_zrows {
	z_stream z;
	struct af_buf *out;
	size_t row_len;
	uLong adler;
	bool failed;
	bool copies_ok;        /* rows short enough to copy from a row back */
	bool hand;             /* deflate flushed: rows go into the block */
	bool any;              /* a row written: prev_byte is its last */
	unsigned char prev_byte;
	unsigned char *last;   /* the block's last row, unless last_flat */
	bool last_flat;
	struct copy *copies;   /* the block's */
	size_t ncopies, copies_cap;
	struct piece *pieces;
	size_t npieces, pieces_cap;
};

/* bits out, first bit lowest (RFC 1951, 3.1.1) */
struct bits {
	struct af_buf *out;
	uint64_t acc;
	unsigned n;
};

static void put_bits(struct bits *b, uint64_t v, unsigned n)
{
	b->acc |= v << b->n;
	for (b->n += n; b->n >= 8; b->n -= 8, b->acc >>= 8)
		af_buf_putc(b->out, (char)(b->acc & 255));
}

/* a Huffman code goes out first bit highest: reversed */
static uint32_t rev(uint32_t code, unsigned n)
{
	uint32_t r = 0;
	for (unsigned i = 0; i < n; i++)
		r |= (code >> i & 1) << (n - 1 - i);
	return r;
}

static struct copy copy_of(size_t len, size_t dist)
{
	struct copy c = { (uint16_t)len, (uint16_t)dist, 28, 29 };
	while (len_base[c.lsym] > len)
		c.lsym--;
	while (dist_base[c.dsym] > dist)
		c.dsym--;
	return c;
}

static void add(struct af_zrows *z, struct copy c)
{
	af_grow(&z->copies, &z->copies_cap, z->ncopies + 1, sizeof *z->copies);
	z->copies[z->ncopies++] = c;
}

/* copies of total (3 or more) bytes from dist back, 258 at a time, never
 * leaving 1 or 2 (a copy is 3 or more) */
static void add_copies(struct af_zrows *z, size_t total, size_t dist)
{
	while (total) {
		size_t len = total <= MAX_COPY ? total : total - MAX_COPY < 3 ? total - 3 : MAX_COPY;
		add(z, copy_of(len, dist));
		total -= len;
	}
}

/* the pieces' copies from first on, reps times over */
static void add_piece(struct af_zrows *z, size_t first, uint32_t reps)
{
	af_grow(&z->pieces, &z->pieces_cap, z->npieces + 1, sizeof *z->pieces);
	z->pieces[z->npieces++] = (struct piece){ first, z->ncopies - first, reps };
}

/* bytes of p from j on equal to b, 8 at a time */
static size_t run_from(const unsigned char *p, size_t j, size_t n, unsigned char b)
{
	uint64_t bb = 0x0101010101010101u * b, w;
	size_t i = j;
	for (; i + 8 <= n; i += 8) {
		memcpy(&w, p + i, 8);
		if (w != bb)
			break;
	}
	while (i < n && p[i] == b)
		i++;
	return i - j;
}

/* The copies that write row (n bytes, 3 or more) again right after a copy
 * of itself: from the byte before over a run of RUN_BYTES or more of it
 * (a code of a few bits, no extra bits), else from the row above (up to 15
 * extra bits); a stretch between runs shorter than a copy is taken from
 * the run after it, and a run that would leave 1 or 2 bytes of the row
 * leaves 3. */
static void row_copies(struct af_zrows *z, const unsigned char *row, size_t n)
{
	size_t p = 0;   /* copies from the row above from here */
	for (size_t j = 0; j < n;) {
		size_t r = run_from(row, j, n, row[j ? j - 1 : n - 1]);
		if (r < RUN_BYTES) {
			j += r ? r : 1;   /* no long run starts inside a short one */
			continue;
		}
		if (j > p && j - p < 3) {
			size_t t = 3 - (j - p);
			j += t;
			r -= t;
		}
		if (j > p)
			add_copies(z, j - p, n);
		size_t rest = n - (j + r);
		if (rest == 1 || rest == 2)
			r -= 3 - rest;
		add_copies(z, r, 1);
		p = j += r;
	}
	if (n > p)
		add_copies(z, n - p, n);
}

/* Huffman code lengths (at most limit) for the k symbols with freq[i] > 0
 * (2 to 286); tree built by merging the two lightest, the weights halved
 * until it is shallow enough. */
static void code_lengths(const uint64_t *freq, unsigned k, unsigned limit, uint8_t *len)
{
	uint64_t f[286], w[2 * 286];
	int parent[2 * 286];
	bool alive[2 * 286];
	memcpy(f, freq, k * sizeof *f);
	for (;;) {
		unsigned nodes = k, live = k;
		for (unsigned i = 0; i < k; i++) {
			w[i] = f[i];
			parent[i] = -1;
			alive[i] = true;
		}
		for (; live > 1; live--, nodes++) {
			int a = -1, b = -1;
			for (unsigned i = 0; i < nodes; i++) {
				if (!alive[i])
					continue;
				if (a < 0 || w[i] < w[a]) {
					b = a;
					a = (int)i;
				} else if (b < 0 || w[i] < w[b]) {
					b = (int)i;
				}
			}
			w[nodes] = w[a] + w[b];
			parent[nodes] = -1;
			alive[nodes] = true;
			parent[a] = parent[b] = (int)nodes;
			alive[a] = alive[b] = false;
		}
		unsigned deepest = 0;
		for (unsigned i = 0; i < k; i++) {
			unsigned d = 0;
			for (int j = (int)i; parent[j] >= 0; j = parent[j])
				d++;
			len[i] = (uint8_t)d;
			deepest = d > deepest ? d : deepest;
		}
		if (deepest <= limit)
			return;
		for (unsigned i = 0; i < k; i++)
			f[i] = (f[i] + 1) / 2;
	}
}

/* A complete code over an alphabet of n (at most 286) from freq: lengths in
 * len[], reversed codes in code[]. Fewer than two symbols used get
 * partners (symbols 0 and 1), as some inflaters refuse a code of one. */
static void make_code(uint64_t *freq, unsigned n, unsigned limit, uint8_t *len, uint32_t *code)
{
	uint64_t f[286];
	unsigned sym[286], k = 0;
	for (unsigned i = 0; i < n; i++)
		k += freq[i] != 0;
	if (k < 2) {
		freq[0] += !freq[0];
		freq[1] += !freq[1];
	}
	k = 0;
	memset(len, 0, n);
	for (unsigned i = 0; i < n; i++)
		if (freq[i]) {
			f[k] = freq[i];
			sym[k++] = i;
		}
	uint8_t l[286];
	code_lengths(f, k, limit, l);
	unsigned count[16] = { 0 }, next[16];
	for (unsigned i = 0; i < k; i++) {
		len[sym[i]] = l[i];
		count[l[i]]++;
	}
	next[0] = 0;
	for (unsigned b = 1, c = 0; b < 16; b++) {
		c = (c + (b > 1 ? count[b - 1] : 0)) << 1;
		next[b] = c;
	}
	for (unsigned i = 0; i < n; i++)
		if (len[i])
			code[i] = rev(next[len[i]]++, len[i]);
}
/* a code length sequence as code length codes: runs of zeros as 17 (3-10)
 * and 18 (11-138), each symbol with its extra bits' value */
struct cl {
	uint8_t sym, extra;
};

static size_t lengths_coded(const uint8_t *len, size_t n, struct cl *out)
{
	size_t m = 0;
	for (size_t i = 0; i < n;) {
		size_t r = 0;
		while (i + r < n && len[i + r] == 0 && r < 138)
			r++;
		if (r >= 11)
			out[m++] = (struct cl){ 18, (uint8_t)(r - 11) };
		else if (r >= 3)
			out[m++] = (struct cl){ 17, (uint8_t)(r - 3) };
		else
			out[m++] = (struct cl){ len[i], 0 };
		i += r >= 3 ? r : 1;
	}
	return m;
}

/* The header of a dynamic block (RFC 1951, 3.2.7) for the codes' lengths:
 * nlit of lit (257-286) and ndist of dist (1-30). */
static void block_header(struct bits *b, const uint8_t *lit, unsigned nlit, const uint8_t *dist,
			 unsigned ndist)
{
	struct cl cl[286 + 30];
	size_t m = lengths_coded(lit, nlit, cl);
	m += lengths_coded(dist, ndist, cl + m);
	uint64_t freq[19] = { 0 };
	for (size_t i = 0; i < m; i++)
		freq[cl[i].sym]++;
	uint8_t len[19];
	uint32_t code[19];
	make_code(freq, 19, 7, len, code);
	unsigned ncl = 19;
	while (ncl > 4 && len[cl_order[ncl - 1]] == 0)
		ncl--;
	put_bits(b, 4, 3);     /* not the last block, dynamic codes */
	put_bits(b, nlit - 257, 5);
	put_bits(b, ndist - 1, 5);
	put_bits(b, ncl - 4, 4);
	for (unsigned i = 0; i < ncl; i++)
		put_bits(b, len[cl_order[i]], 3);
	static const uint8_t extra_bits[19] = { [16] = 2, [17] = 3, [18] = 7 };
	for (size_t i = 0; i < m; i++) {
		put_bits(b, code[cl[i].sym], len[cl[i].sym]);
		put_bits(b, cl[i].extra, extra_bits[cl[i].sym]);
	}
}

/* the bits of copy c under the codes */
static void put_copy(struct bits *b, struct copy c, const uint8_t *ll, const uint32_t *lc,
		     const uint8_t *dl, const uint32_t *dc)
{
	if (c.len == 0) {
		put_bits(b, lc[c.dist], ll[c.dist]);
		return;
	}
	unsigned ls = 257u + c.lsym, ds = c.dsym;
	uint64_t v = lc[ls];
	unsigned nb = ll[ls];
	v |= (uint64_t)(c.len - len_base[c.lsym]) << nb;
	nb += len_extra[c.lsym];
	v |= (uint64_t)dc[ds] << nb;
	nb += dl[ds];
	v |= (uint64_t)(c.dist - dist_base[ds]) << nb;
	put_bits(b, v, nb + (ds < 4 ? 0 : ds / 2 - 1));
}

/* The pieces as one block under codes made for them, then an empty stored
 * block to end on a whole byte for deflate to go on from; pieces cleared. */
static void write_block(struct af_zrows *z)
{
	uint64_t lf[286] = { 0 }, df[30] = { 0 };
	for (size_t i = 0; i < z->npieces; i++) {
		const struct piece *pc = &z->pieces[i];
		for (size_t j = pc->first; j < pc->first + pc->count; j++) {
			const struct copy *c = &z->copies[j];
			lf[c->len ? 257u + c->lsym : c->dist] += pc->reps;
			df[c->dsym] += c->len ? pc->reps : 0;
		}
	}
	lf[256] = 1;
	uint8_t ll[286], dl[30];
	uint32_t lc[286], dc[30];
	make_code(lf, 286, 15, ll, lc);
	make_code(df, 30, 15, dl, dc);
	unsigned nlit = 286, ndist = 30;
	while (ll[nlit - 1] == 0)
		nlit--;
	while (dl[ndist - 1] == 0)
		ndist--;
	struct bits b = { z->out, 0, 0 };
	block_header(&b, ll, nlit, dl, ndist);
	for (size_t i = 0; i < z->npieces; i++) {
		const struct piece *pc = &z->pieces[i];
		for (uint32_t r = 0; r < pc->reps; r++)
			for (size_t j = pc->first; j < pc->first + pc->count; j++)
				put_copy(&b, z->copies[j], ll, lc, dl, dc);
	}
	put_bits(&b, lc[256], ll[256]);
	put_bits(&b, 0, 3);                  /* a stored block, empty */
	put_bits(&b, 0, (8 - b.n) % 8);
	af_buf_add(z->out, "\0\0\xff\xff", 4);
	z->npieces = z->ncopies = 0;
}

/* n bytes through deflate with flush, its output added to the stream */
static int deflate_into(struct af_zrows *z, const unsigned char *in, size_t n, int flush)
{
	unsigned char buf[16384];
	z->z.next_in = (Bytef *)(uintptr_t)in;
	z->z.avail_in = (uInt)n;
	for (;;) {
		z->z.next_out = buf;
		z->z.avail_out = sizeof buf;
		int rc = deflate(&z->z, flush);
		if (rc == Z_STREAM_ERROR)
			return -1;
		af_buf_add(z->out, buf, sizeof buf - z->z.avail_out);
		if (flush == Z_FINISH ? rc == Z_STREAM_END : z->z.avail_out != 0)
			return 0;
	}
}

/* rows from here on go into a block: deflate's output ended on a byte */
static int to_block(struct af_zrows *z)
{
	if (z->hand)
		return 0;
	z->hand = true;
	return deflate_into(z, NULL, 0, Z_SYNC_FLUSH);
}

/* rows from here on go to deflate: the block written, deflate restarted */
static int to_deflate(struct af_zrows *z)
{
	if (!z->hand)
		return 0;
	z->hand = false;
	write_block(z);
	if (deflateReset(&z->z) != Z_OK)
		return -1;
	if (!z->last_flat && deflateSetDictionary(&z->z, z->last, (uInt)z->row_len) != Z_OK)
		return -1;
	return 0;
}

struct af_zrows *af_zrows_new(struct af_buf *out, int level, size_t row_len)
{
	struct af_zrows *z = af_xcalloc(1, sizeof *z);
	if (deflateInit2(&z->z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(z);
		return NULL;
	}
	z->out = out;
	z->row_len = row_len;
	z->adler = adler32(0L, Z_NULL, 0);
	/* the header deflateInit writes: 32K window, FLEVEL as zlib sets it */
	unsigned flg = (level < 2 ? 0u : level < 6 ? 1u : level == 6 ? 2u : 3u) << 6;
	flg += 31 - (0x78u * 256 + flg) % 31;
	af_buf_putc(out, 0x78);
	af_buf_putc(out, (char)flg);
	z->copies_ok = row_len >= 3 && row_len <= WINDOW;
	z->last = af_xmalloc(row_len ? row_len : 1);
	return z;
}

/* k + 1 rows of byte b into the block: a literal unless the byte before
 * is b, then copies of the byte before */
static void flat_rows(struct af_zrows *z, unsigned char b, uint32_t k)
{
	size_t first = z->ncopies, total = ((size_t)k + 1) * z->row_len;
	if (!z->any || z->prev_byte != b) {
		add(z, (struct copy){ 0, b, 0, 0 });
		total--;
	}
	for (; total && total < 3; total--)
		add(z, (struct copy){ 0, b, 0, 0 });
	add_copies(z, total, 1);
	add_piece(z, first, 1);
	z->last_flat = true;
}

/* row into deflate, then k rows equal to it as copies into a block */
static int run_rows(struct af_zrows *z, const unsigned char *row, uint32_t k)
{
	if (to_deflate(z) < 0 || deflate_into(z, row, z->row_len, Z_NO_FLUSH) < 0 ||
	    to_block(z) < 0)
		return -1;
	size_t first = z->ncopies;
	row_copies(z, row, z->row_len);
	add_piece(z, first, k);
	memcpy(z->last, row, z->row_len);
	z->last_flat = false;
	return 0;
}

int af_zrows_put(struct af_zrows *z, const unsigned char *row, uint32_t k)
{
	size_t n = z->row_len;
	uLong a = adler32(adler32(0L, Z_NULL, 0), row, (uInt)n);
	for (uint32_t i = 0; i <= k; i++)
		z->adler = adler32_combine(z->adler, a, (z_off_t)n);
	bool flat = n && memcmp(row, row + 1, n - 1) == 0;
	uint64_t bytes = (uint64_t)k * n;
	bool copies = z->copies_ok && !z->failed;
	if (copies && flat && (z->hand || bytes + n >= AF_ZROWS_MIN)) {
		z->failed = to_block(z) < 0;
		flat_rows(z, row[0], k);
	} else if (copies && bytes >= AF_ZROWS_MIN) {
		z->failed = run_rows(z, row, k) < 0;
	} else {
		z->failed = z->failed || to_deflate(z) < 0;
		for (uint32_t i = 0; i <= k && !z->failed; i++)
			z->failed = deflate_into(z, row, n, Z_NO_FLUSH) < 0;
	}
	z->any = true;
	z->prev_byte = n ? row[n - 1] : 0;
	return z->failed ? -1 : 0;
}

int af_zrows_finish(struct af_zrows *z)
{
	if (z->hand && !z->failed)
		write_block(z);
	bool failed = z->failed || deflate_into(z, NULL, 0, Z_FINISH) < 0;
	deflateEnd(&z->z);
	unsigned char tail[4] = { (unsigned char)(z->adler >> 24), (unsigned char)(z->adler >> 16),
				  (unsigned char)(z->adler >> 8), (unsigned char)z->adler };
	af_buf_add(z->out, tail, 4);
	free(z->last);
	free(z->copies);
	free(z->pieces);
	free(z);
	return failed ? -1 : 0;
}
