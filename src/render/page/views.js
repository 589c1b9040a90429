/* page/views.js: views of the graph computed in the page, each kept in the
 * URL (url.js) and undone by Back (or Esc):
 *   transforms, applied in the order chosen, each on a frame's name, with
 *     the meanings of the command line's (docs/transforms.md): hide (h,
 *     --hide), only stacks through it (i, --include), re-root at it (r,
 *     --root: each stack at its outermost occurrence);
 *   bottom-up (u): the inverted tree, each stack read from its leaf;
 *   sandwich (w) of one name: its callers above, its callees below, merged
 *     over every place it occurs, each stack counted once at its outermost
 *     occurrence (as speedscope does): the callees are exactly --root's
 *     result, the callers each such stack's frames up to it, reversed.
 * The steps are in transforms.js. Graphs whose frames carry more than a
 * name and a weight (flame charts, differential graphs, comparisons) have
 * no views. */

var VIEWS = !D.bf && !D.d && !ax && !(D.b && D.b.length);
var view = { t: [], u: false, w: -1 };   /* the current one */
var past = [];                             /* the ones before, for Back */

/* the frame set of view v, or null when nothing is left */
function build(v) {
	var t = frameTree(BASE), k, s, T, out;
	var step = { h: hidden, i: through, r: rerooted };
	for (k = 0; k < v.t.length; k++) t = step[v.t[k].k](t, v.t[k].f);
	if (v.w >= 0) {
		s = sandwich(t, v.w);
		T = s.callers.totals()[0];
		if (!(T > 0)) return null;
		out = frameList(s.callers.n + s.callees.n);
		emit(s.callers, 0, out, -1, 1, T / GW / 10);
		emit(s.callees, 0, out, 0, -1, T / GW / 10);
	} else {
		if (v.u) t = inverted(t);
		T = t.totals()[0];
		if (!(T > 0)) return null;
		out = frameList(t.n);
		emit(t, 0, out, -1, 0, T / GW / 10);
	}
	return frameSet(out);
}
/* a frame set from emit()'s arrays: the sandwich's callers (side 1) are
 * drawn above its row and the callees (side -1) below, whichever way up
 * the graph is */
function frameSet(o) {
	var N = o.n, i, up = 0, down = 0, mid, sgn;
	var fs = { n: N, nm: o.nm.slice(0, N), dp: o.dp.slice(0, N), par: o.par.slice(0, N),
		   en: new Int32Array(N), st: o.st.slice(0, N), wd: o.wd.slice(0, N),
		   rw: new Int32Array(N), own: false, side: o.side.slice(0, N) };
	for (i = 0; i < N; i++) fs.en[i] = i + 1;
	for (i = N - 1; i > 0; i--) if (fs.en[i] > fs.en[fs.par[i]]) fs.en[fs.par[i]] = fs.en[i];
	for (i = 0; i < N; i++) {
		if (o.side[i] > 0 && o.dp[i] > up) up = o.dp[i];
		if (o.side[i] < 0 && o.dp[i] > down) down = o.dp[i];
	}
	mid = D.dy < 0 ? down : up;   /* the sandwiched frame's row */
	sgn = D.dy < 0 ? 1 : -1;      /* rows up the screen */
	for (i = 0; i < N; i++)
		fs.rw[i] = o.side[i] ? mid + o.side[i] * sgn * o.dp[i] : o.dp[i];
	return indexRows(fs);
}

/* show view v (after the current one, unless restoring): false, and the
 * current view kept, when v leaves nothing to draw or would take too long
 * to compute (viewCost() in transforms.js) */
function show(v, remember) {
	var cost = isPlain(v) ? 0 : viewCost(frameTree(BASE), BASE.dp, v), fs;
	if (cost > VIEW_COST) {
		refuse("View refused: about " + group(cost) + " steps to compute, over the page's " +
		       group(VIEW_COST));
		return false;
	}
	fs = isPlain(v) ? BASE : build(v);
	if (!fs) {
		refuse("Nothing left in that view");
		return false;
	}
	if (remember) past.push(view);
	view = v;
	use(fs);
	fit(nrows);
	unhover();
	draw();
	rz.classList.add("h");
	backBt.classList.toggle("h", isPlain(v) && !past.length);
	lit(inv, v.u && v.w < 0);
	caption();
	search(reSrc);   /* marks, count and URL for the new frames */
	return true;
}
function isPlain(v) { return !v.t.length && !v.u && v.w < 0; }
/* a new view from the current one and a step on frame j's name */
function change(k, j) {
	var v = { t: view.t.slice(), u: view.u, w: view.w }, f = nm[j];
	if (k === "w") {
		v.w = f;
	} else if (k === "u") {   /* from a sandwich: bottom-up, the sandwich left */
		v.u = v.w >= 0 || !v.u;
		v.w = -1;
	} else {
		v.t.push({ k: k, f: f });
	}
	return show(v, true);
}
/* the sandwich of name f, from the current view (the function table) */
function sandwichOf(f) {
	return show({ t: view.t.slice(), u: view.u, w: f }, true);
}
function goBack() {
	show(past.length ? past.pop() : { t: [], u: false, w: -1 }, false);
}
/* why a view was not shown, on the details line while no frame is
 * hovered, until the next view or Esc (caption()): the line on the right
 * is the search's, which a link's s= fills after its view was refused */
function refuse(why) {
	idle = why;
	if (hovered < 0) dt.textContent = idle;
}
/* what the view is, on the details line while no frame is hovered */
function caption() {
	var s = [], k, what = { h: "hidden: ", i: "only stacks through ", r: "re-rooted at " };
	for (k = 0; k < view.t.length; k++) s.push(what[view.t[k].k] + D.n[view.t[k].f]);
	if (view.w >= 0) s.push("sandwich of " + D.n[view.w] + ": callers above, callees below");
	else if (view.u) s.push("bottom-up (inverted)");
	idle = s.length ? "View: " + s.join("; ") : " ";
	if (hovered < 0) dt.textContent = idle;
}

/* The SVG grows when a view needs more rows than the graph (a sandwich
 * can be twice as deep): the bottom lines move down, and with the root at
 * the bottom so do the frames. Back to its size for fewer rows. */
var H0 = H, dtY = +dt.getAttribute("y"), mtY = +mt.getAttribute("y");
function fit(rows) {
	var extra = Math.max(0, rows - BASE.nrows) * FH, h = r1(H0 + extra);
	Y0 = D.y0 + (D.dy < 0 ? extra : 0);
	dt.setAttribute("y", r1(dtY + extra));
	mt.setAttribute("y", r1(mtY + extra));
	if (H0 && H !== h) {
		H = h;
		svg.setAttribute("height", h);
		svg.setAttribute("viewBox", "0 0 " + W + " " + h);
	}
}
