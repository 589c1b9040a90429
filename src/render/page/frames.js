/* page/frames.js: the frames drawn, as a frame set: arrays indexed by
 * frame in pre-order: nm name index in D.n, dp depth in its tree, par
 * parent (-1 for the root), en one past the last frame of its subtree, st
 * start and wd width in weight units, rw the row it is drawn on (y is
 * y0 + rw * dy, see geometry.js). row lists the frames of each row in
 * pre-order, which is left-to-right order, from rowAt[r]. The graph's own
 * frames (D.f) are one frame set; each view (views.js) makes another. */

/* the current frame set's arrays, set by use() */
var FS = null, n = 0, nm, dp, par, en, st, wd, rw, rowAt, row, nrows = 0, TOTAL = 0;

/* The lists of integers in D (f, g, gc, d, bf, af, na) arrive as strings
 * (see list_begin() in render_svg.c): a browser parses an array literal of
 * a million numbers for about a second, a string as long in milliseconds.
 * Each number is in base 32, lowest digit first, the last digit from
 * "0".."v" and the others from the second half of DIGITS; '-' negates the
 * number it starts. Numbers are exact up to 2^53. */
var DIGITS = "0123456789abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVWXYZwxyz+/";
var DIGIT = new Int8Array(128).fill(-1);
for (var k0 = 0; k0 < 64; k0++) DIGIT[DIGITS.charCodeAt(k0)] = k0;
/* how many numbers string s holds: its last digits (DIGIT 0..31; -1,
 * the '-', is not one) */
function counted(s) {
	for (var k = 0, i = 0; i < s.length; i++) if ((DIGIT[s.charCodeAt(i) & 127] >>> 0) < 32) k++;
	return k;
}
/* a function returning the next number of s each call (NaN past its end) */
function reader(s) {
	var i = 0, L = s.length;
	return function () {
		var v = 0, m = 1, neg = false, d;
		while (i < L) {
			d = DIGIT[s.charCodeAt(i++) & 127];
			if (d >= 32) {
				v += (d - 32) * m;
				m *= 32;
			} else if (d >= 0) {
				v += d * m;
				return neg ? -v : v;
			} else {
				neg = true;
			}
		}
		return NaN;
	};
}
/* the numbers of s as an array */
function ints(s) {
	var a = new Float64Array(counted(s)), next = reader(s);
	for (var k = 0; k < a.length; k++) a[k] = next();
	return a;
}
["g", "gc", "d", "bf", "af", "na", "cl"].forEach(function (k) {
	if (typeof D[k] === "string") D[k] = ints(D[k]);
});

/* D.f decoded, once unpack() (unpack.js) has put it in D (see
 * data_frames() in render_svg.c: per frame its levels popped times two
 * plus a flag, the flag's start gap, its name, its parent's width minus
 * its own), read straight into the frame set in one
 * pass over the string: at 200k frames a call per number (reader()) was a
 * fifth of the page's load */
function decode() {
	var s = D.f, L = s.length, cap = ((L / 3) | 0) + 1, next = [], path = [];
	var nm = new Int32Array(cap), dp = new Int32Array(cap), par = new Int32Array(cap);
	var en = new Int32Array(cap), st = new Float64Array(cap), wd = new Float64Array(cap);
	var i = 0, p = 0, f = 0, v = 0, m = 1, neg = false, c, j, d = 0, gap = 0;
	var names = calleeNames();
	while (p < L) {
		c = DIGIT[s.charCodeAt(p++) & 127];
		if (c >= 32) {
			v += (c - 32) * m;
			m *= 32;
			continue;
		}
		if (c < 0) {
			neg = true;
			continue;
		}
		v += c * m;
		if (neg) v = -v;
		if (f === 0) {   /* levels popped, and whether a gap follows */
			d = i ? dp[i - 1] + 1 - Math.floor(v / 2) : 0;
			gap = 0;
			f = v % 2 ? 1 : 2;
		} else if (f === 1) {
			gap = v;
			f = 2;
		} else if (f === 2) {
			nm[i] = names(d ? nm[path[d - 1]] : -1, v);
			f = 3;
		} else {
			dp[i] = d;
			wd[i] = d ? wd[path[d - 1]] - v : v;
			st[i] = (i === 0 ? 0 : d === dp[i - 1] + 1 ? st[i - 1] : next[d]) + gap;
			next[d] = st[i] + wd[i];
			if (i)
				for (j = dp[i - 1]; j >= d; j--) en[path[j]] = i;
			path[d] = i;
			par[i] = d ? path[d - 1] : -1;
			i++;
			f = 0;
		}
		v = 0;
		m = 1;
		neg = false;
	}
	for (j = i ? dp[i - 1] : -1; j >= 0; j--) en[path[j]] = i;
	var fs = { n: i, nm: nm.subarray(0, i), dp: dp.subarray(0, i), par: par.subarray(0, i),
		   en: en.subarray(0, i), st: st.subarray(0, i), wd: wd.subarray(0, i), own: true };
	fs.rw = fs.dp.slice();
	banded(fs);
	return indexRows(fs);
}
/* A frame's name from its code in D.f (callee_code() in render_svg.c):
 * its place among the names seen below its parent's name (parent -1: a
 * root, the code is the name), past those the next new name, then one
 * past that plus a name's index. */
function calleeNames() {
	var below = [], seen = 0;
	return function (parent, v) {
		var name = v, k;
		if (parent >= 0) {
			k = below[parent] || (below[parent] = []);
			if (v < k.length) return k[v];
			name = v === k.length ? seen : v - k.length - 1;
			k.push(name);
		}
		if (name === seen) seen++;
		return name;
	};
}
/* flame charts with several threads: band k is frames [B[3k], B[3k+1])
 * drawn from row B[3k+2] up */
function banded(fs) {
	var B = D.b || [], k, i;
	for (k = 0; k < B.length / 3; k++)
		for (i = B[3 * k]; i < B[3 * k + 1]; i++) fs.rw[i] += B[3 * k + 2] - 1;
}
/* rowAt and row from rw */
function indexRows(fs) {
	var N = fs.n, i, r, fill;
	fs.nrows = 0;
	for (i = 0; i < N; i++) if (fs.rw[i] >= fs.nrows) fs.nrows = fs.rw[i] + 1;
	fs.rowAt = new Int32Array(fs.nrows + 1);
	fs.row = new Int32Array(N);
	fill = new Int32Array(fs.nrows);
	for (i = 0; i < N; i++) fs.rowAt[fs.rw[i] + 1]++;
	for (r = 0; r < fs.nrows; r++) fs.rowAt[r + 1] += fs.rowAt[r];
	for (i = 0; i < N; i++) fs.row[fs.rowAt[fs.rw[i]] + fill[fs.rw[i]]++] = i;
	return fs;
}
/* draw frame set fs from now on, not zoomed */
function use(fs) {
	FS = fs;
	n = fs.n;
	nm = fs.nm;
	dp = fs.dp;
	par = fs.par;
	en = fs.en;
	st = fs.st;
	wd = fs.wd;
	rw = fs.rw;
	rowAt = fs.rowAt;
	row = fs.row;
	nrows = fs.nrows;
	TOTAL = wd[0];
	Z = 0;
	S0 = 0;
	K = TOTAL > 0 ? GW / TOTAL : 0;
	mark = new Uint8Array(n);
	nmatch = 0;   /* hits[] were the old frames' (search.js) */
	tbData = null;   /* and the function table's (table.js) */
	cm = -1;
}
/* the graph's own frames (main.js decodes them) */
var BASE = null;
