/* page/geometry.js: where a frame is drawn in the current view, and which
 * frame is under a point. Zoomed at Z, the frames drawn are Z's ancestors
 * (full width) and Z's subtree (scaled so Z is full width). */

function yOf(d) { return D.y0 + d * D.dy; }
function yAt(j) { return yOf(dp[j] + ro[j]); }
function xOf(j) { return j < Z ? XP : XP + (st[j] - st[Z]) * K; }
function wOf(j) { return j < Z ? GW : wd[j] * K; }
/* frame j is drawn when zoomed at Z: an ancestor of Z or in its subtree */
function visible(j) {
	if (j >= Z && j < en[Z]) return true;
	for (var a = par[Z]; a >= 0; a = par[a]) if (a === j) return true;
	return false;
}
/* first position p in [lo, hi) of row[] with row[p] >= idx */
function rowFrom(lo, hi, idx) {
	while (lo < hi) {
		var mid = (lo + hi) >> 1;
		if (row[mid] < idx) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}
/* the visible frame under the point (x, y) in SVG units, or -1 */
function frameAt(x, y) {
	var d = D.dy < 0 ? Math.ceil((D.y0 - y) / FH) : Math.floor((y - D.y0) / FH);
	if (!(d >= 0) || y - yOf(d) >= FH - 1 || x < XP || x >= XP + GW)
		return -1;
	var s = 0, e = n, b;
	for (b = 0; b < nb && d > 0; b++) {
		if (d >= B[3 * b + 2] && d < B[3 * b + 2] + bandRows[b]) {
			if (Z && bandOf[Z] >= 0 && bandOf[Z] !== b) return -1;
			s = B[3 * b];
			e = B[3 * b + 1];
			d -= B[3 * b + 2] - 1;
			break;
		}
	}
	if (nb && d > 0 && b === nb) return -1;
	if (d > maxd) return -1;
	if (d < dp[Z]) {
		for (var a = Z; dp[a] > d; a = par[a]);
		return a;
	}
	return inRow(d, s, e, st[Z] + (x - XP) / K);
}
/* the frame of depth d among frames [s, e) that covers weight position w,
 * if it is in Z's subtree; else -1 */
function inRow(d, s, e, w) {
	var lo = rowFrom(rowAt[d], rowAt[d + 1], s);
	var hi = rowFrom(lo, rowAt[d + 1], e) - 1, j = -1;
	while (lo <= hi) {   /* last frame of the row starting at or before w */
		var mid = (lo + hi) >> 1;
		if (st[row[mid]] <= w) {
			j = row[mid];
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return j >= Z && j < en[Z] && w < st[j] + wd[j] ? j : -1;
}
/* a mouse event's position in SVG units */
function pointer(e) {
	var m = svg.getScreenCTM();
	return m ? { x: (e.clientX - m.e) / m.a, y: (e.clientY - m.f) / m.d } : null;
}
