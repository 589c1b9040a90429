/* page/inflate.js: the names and frames (D.n, D.c, D.f), unpacked from D.z
 * when first needed (decode(), frames.js: after the first paint, or at the
 * first event). render_svg.c writes them as JSON of D.zn bytes, deflated
 * in zlib's format and in base64 (pack.h): the browser parses every byte
 * of the file before the first paint, and those were most of the data
 * (1.0 MB of 1.9 at 200k frames, 0.25 MB packed). JSON.parse, not the
 * script's compiler, reads them: names stay data. */

function unpack() {
	if (!D.z) return;
	var s = atob(D.z), z = new Uint8Array(s.length), k, o;
	for (k = 0; k < s.length; k++) z[k] = s.charCodeAt(k);
	o = JSON.parse(new TextDecoder().decode(inflate(z, D.zn)));
	for (k in o) D[k] = o[k];
	D.z = null;
}

/* Deflate (RFC 1951) after zlib's two-byte header (RFC 1950; its checksum
 * is not checked, the bytes come from the file itself), into n bytes.
 * A Huffman code of up to FAST bits is looked up, a longer one read a bit
 * at a time from the canonical counts. Bad data throws; every step reads a bit or ends,
 * so it cannot loop. */
var LBASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
	     131, 163, 195, 227, 258];
var LEXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
var DBASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
	     2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
var DEXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
var LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/* the canonical code of the k code lengths lens[from..]: how many codes
 * of each length, the symbols in code order, and a table of the codes of
 * up to FAST bits by the next FAST bits of input (symbol << 4 | length,
 * 0 for a longer code) */
var FAST = 9;
function huffman(lens, from, k) {
	var count = new Int32Array(16), offs = new Int32Array(16), sym = new Int32Array(k);
	var fast = new Int32Array(1 << FAST), i, len, code = 0, c, r, b;
	for (i = 0; i < k; i++) count[lens[from + i]]++;
	count[0] = 0;
	for (i = 1; i < 16; i++) offs[i] = offs[i - 1] + count[i - 1];
	for (i = 0; i < k; i++) if (lens[from + i]) sym[offs[lens[from + i]]++] = i;
	for (i = 0, len = 1; len <= FAST; len++, code <<= 1)
		for (c = count[len]; c > 0; c--, code++, i++) {
			for (r = 0, b = 0; b < len; b++) r |= (code >> b & 1) << (len - 1 - b);
			for (; r < 1 << FAST; r += 1 << len) fast[r] = sym[i] << 4 | len;
		}
	return { count: count, sym: sym, fast: fast };
}

var FIXED = null;   /* the fixed codes (block type 1), made once */
function fixedCodes() {
	var l = new Uint8Array(288 + 30), i;
	for (i = 0; i < 288; i++) l[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	for (i = 288; i < 318; i++) l[i] = 5;
	return FIXED || (FIXED = [huffman(l, 0, 288), huffman(l, 288, 30)]);
}

function inflate(z, n) {
	var out = new Uint8Array(n), o = 0, p = 2, bits = 0, nb = 0, last, type, len;
	function more() {
		if (p >= z.length) throw new Error("packed data cut short");
		bits |= z[p++] << nb;
		nb += 8;
	}
	function get(k) {   /* the next k bits, k <= 16 */
		while (nb < k) more();
		var v = bits & ((1 << k) - 1);
		bits >>>= k;
		nb -= k;
		return v;
	}
	function symbol(h) {
		var code = 0, first = 0, index = 0, len, c;
		while (nb < FAST && p < z.length) more();
		c = h.fast[bits & ((1 << FAST) - 1)];
		if ((c & 15) && (c & 15) <= nb) {
			bits >>>= c & 15;
			nb -= c & 15;
			return c >> 4;
		}
		for (len = 1; len < 16; len++) {
			if (!nb) more();
			code |= bits & 1;
			bits >>>= 1;
			nb--;
			c = h.count[len];
			if (code - first < c) return h.sym[index + code - first];
			index += c;
			first = (first + c) << 1;
			code <<= 1;
		}
		throw new Error("bad code in packed data");
	}
	/* a dynamic block's codes (type 2) */
	function dynamic() {
		var nlen = get(5) + 257, ndist = get(5) + 1, ncode = get(4) + 4, i = 0, s, v, rep;
		var lens = new Uint8Array(19), all = new Uint8Array(nlen + ndist), h;
		for (; i < ncode; i++) lens[LENGTH_ORDER[i]] = get(3);
		h = huffman(lens, 0, 19);
		for (i = 0; i < nlen + ndist;) {
			s = symbol(h);
			if (s < 16) {
				all[i++] = s;
				continue;
			}
			v = s === 16 && i ? all[i - 1] : 0;
			rep = s === 16 ? 3 + get(2) : s === 17 ? 3 + get(3) : 11 + get(7);
			while (rep-- && i < all.length) all[i++] = v;
		}
		return [huffman(all, 0, nlen), huffman(all, nlen, ndist)];
	}
	function block(codes) {
		var s, d, k;
		while ((s = symbol(codes[0])) !== 256) {
			if (s < 256) {
				out[o++] = s;
				continue;
			}
			s -= 257;
			if (s >= 29) throw new Error("bad length in packed data");
			k = LBASE[s] + get(LEXTRA[s]);
			d = symbol(codes[1]);
			if (d >= 30) throw new Error("bad distance in packed data");
			d = DBASE[d] + get(DEXTRA[d]);
			if (d > o) throw new Error("bad distance in packed data");
			for (; k > 0; k--, o++) out[o] = out[o - d];
		}
	}
	do {
		last = get(1);
		type = get(2);
		if (type === 0) {   /* stored: from the next byte, its length, ~length */
			bits = nb = 0;
			if (p + 4 > z.length) throw new Error("packed data cut short");
			len = z[p] | z[p + 1] << 8;
			p += 4;
			out.set(z.subarray(p, p + len), o);
			o += len;
			p += len;
		} else if (type === 1) {
			block(fixedCodes());
		} else if (type === 2) {
			block(dynamic());
		} else {
			throw new Error("bad block in packed data");
		}
	} while (!last);
	return out.subarray(0, o);
}
