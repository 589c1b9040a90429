/* page/geometry.js: where a frame is drawn in the current view, and which
 * frame is under a point. Zoomed at Z, the frames drawn are Z's ancestors
 * (full width) and Z's subtree, from weight S0 on at K pixels a unit
 * (zoom(): Z full width; a flame chart's window, chart.js: any). */

var Y0 = D.y0;   /* moved by fit() when a view has more rows */
function yOf(r) { return Y0 + r * D.dy; }
function yAt(j) { return yOf(rw[j]); }
function xOf(j) { return j < Z ? XP : XP + (st[j] - S0) * K; }
function wOf(j) { return j < Z ? GW : wd[j] * K; }
/* frame j's left edge and width clipped to the graph (a flame chart's
 * window can leave a frame wider than the image, or off it) */
function clipX(j) { return Math.max(XP - 1, xOf(j)); }
function clipW(j) { return Math.max(0, Math.min(XP + GW + 1, xOf(j) + wOf(j)) - clipX(j)); }
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
	var r = D.dy < 0 ? Math.ceil((Y0 - y) / FH) : Math.floor((y - Y0) / FH);
	if (!(r >= 0 && r < nrows) || y - yOf(r) >= FH - 1 || x < XP || x >= XP + GW)
		return -1;
	for (var a = Z; a >= 0; a = par[a])   /* Z and its ancestors: full width */
		if (rw[a] === r) return a;
	return inRow(r, S0 + (x - XP) / K);
}
/* the frame of Z's subtree on row r that covers weight position w, or -1 */
function inRow(r, w) {
	var lo = rowFrom(rowAt[r], rowAt[r + 1], Z);
	var hi = rowFrom(lo, rowAt[r + 1], en[Z]) - 1, j = -1;
	while (lo <= hi) {   /* last frame of the row starting at or before w */
		var mid = (lo + hi) >> 1;
		if (st[row[mid]] <= w) {
			j = row[mid];
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return j >= 0 && w < st[j] + wd[j] ? j : -1;
}
/* a mouse event's position in SVG units */
function pointer(e) {
	var m = svg.getScreenCTM();
	return m ? { x: (e.clientX - m.e) / m.a, y: (e.clientY - m.f) / m.d } : null;
}
