/* page/draw.js: the frames, labels, search highlights and --nameattr
 * rectangles of the current view. Frames are subpaths of one <path> per
 * colour (see frames() in render_svg.c), so drawing sets a few "d"
 * attributes; only the visible frames (Z's ancestors and subtree) are in
 * them, and runs of frames narrower than a pixel are one box in their
 * blended colour, in the paths of <g class="fm"> (merge()).
 *
 * A path is a slot: slot g < NG is colour group g (its colour D.gc[g]),
 * slot NG + q the blend q (three 4-bit channels, see closeRun()). The file
 * has paths only for the slots it uses; a redraw sets "d" on the paths it
 * has, empties the file's unused ones, makes the ones it lacks and removes
 * those it made once they are unused, so Reset Zoom and Back give back
 * exactly the file's elements. */

var GC = D.gc, NG = GC.length, NSLOT = NG + 4096;
var EL = new Array(NSLOT).fill(null), ORIG = new Array(NSLOT).fill(null), CUR = new Array(NSLOT).fill("");
var live = [];   /* slots that have an element */
var fm = find("fm");
(function () {
	var byRGB = new Map(), g, e, f;
	for (g = 0; g < NG; g++) byRGB.set(GC[g], g);
	function own(e, slot) {
		if (slot === undefined || slot < 0 || EL[slot]) return;
		EL[slot] = e;
		ORIG[slot] = CUR[slot] = e.getAttribute("d") || "";
		live.push(slot);
	}
	for (e = fr.firstElementChild; e; e = e.nextElementSibling)
		if (e.localName === "path") own(e, byRGB.get(parseInt(e.getAttribute("fill").slice(1), 16)));
	for (e = fm ? fm.firstElementChild : null; e; e = e.nextElementSibling) {
		f = parseInt(e.getAttribute("fill").slice(1), 16);
		if (f >= 0 && !((f >> 16) % 17) && !((f >> 8 & 255) % 17) && !((f & 255) % 17))
			own(e, NG + ((f >> 16) / 17 << 8 | (f >> 8 & 255) / 17 << 4 | (f & 255) / 17));
	}
})();

/* the colour group of frame j: per frame, or per name; in a view, frames
 * of a name take the colour of its first frame in the graph */
var byName = null;
function grp(j) {
	if (!D.g) return D.c[nm[j]];
	if (FS.own) return D.g[j];
	if (!byName) {
		byName = new Int32Array(D.n.length);
		for (var i = BASE.n - 1; i >= 0; i--) byName[BASE.nm[i]] = D.g[i];
	}
	return byName[nm[j]];
}
function rect(j) {
	var w = r1(wOf(j));
	return "M" + r1(xOf(j)) + " " + r1(yAt(j)) + "h" + w + "v" + (FH - 1) + "h-" + w;
}

/* Path data of a redraw, per slot (OUT; USED lists the slots written),
 * appended box by box. Numbers as r1() rounds them; the strings of the
 * tenths seen so far are kept, so a zoom formats each x and width once
 * rather than per box, and a row's " y h" once per redraw (YS). */
var OUT = new Array(NSLOT).fill(""), USED = [], YS = [];
var NUM = new Array(32768).fill(null);
function num(v) {
	var t = Math.round(v * 10);
	if (!(t >= 0 && t < 32768)) return String(t / 10);
	return NUM[t] !== null ? NUM[t] : (NUM[t] = String(t / 10));
}
var TAIL = "v" + r1(FH - 1) + "h-";
function put(s, x, w, r) {
	var ws = num(w);
	if (OUT[s] === "") {
		USED.push(s);
		OUT[s] = "M" + num(x) + YS[r] + ws + TAIL + ws;
	} else {
		OUT[s] += " M" + num(x) + YS[r] + ws + TAIL + ws;
	}
}
/* the run being gathered on each row: frames in it, its left and right
 * edges, its channels summed weighted by width */
var RN = new Int32Array(0), RX = new Float64Array(0), RE = RX, RR = RX, RGg = RX, RB = RX, RW = RX;
function rowState(rows) {
	if (RN.length < rows) {
		RN = new Int32Array(rows);
		RX = new Float64Array(rows);
		RE = new Float64Array(rows);
		RR = new Float64Array(rows);
		RGg = new Float64Array(rows);
		RB = new Float64Array(rows);
		RW = new Float64Array(rows);
	}
	RN.fill(0);
}
/* Z's subtree in pre-order (left to right on each row), as boxes() in
 * render_svg.c: a frame a pixel wide or more is a box of its own;
 * narrower ones side by side are one box while they span at most a pixel,
 * in the mean of their colours weighted by width with each channel
 * rounded to a multiple of 17 (a blend; a run of one frame too). Ties are
 * decided with MERGE_EPS, as there. One loop with no call per frame but
 * grp() and put(): the first zoom runs it before V8 has compiled it. */
var MERGE_EPS = 1e-6;
function merge() {
	var ze = en[Z], s0 = st[Z], j, r, x, w, c;
	rowState(nrows);
	for (j = Z; j < ze; j++) {
		r = rw[j];
		x = XP + (st[j] - s0) * K;
		w = wd[j] * K;
		if (RN[r] && (w >= 1 - MERGE_EPS || x + w > RX[r] + 1 + MERGE_EPS)) closeRun(r);
		if (w >= 1 - MERGE_EPS) {
			put(grp(j), x, w, r);
			continue;
		}
		if (!RN[r]++) {
			RX[r] = RE[r] = x;
			RR[r] = RGg[r] = RB[r] = RW[r] = 0;
		}
		c = GC[grp(j)];
		RR[r] += w * (c >> 16);
		RGg[r] += w * (c >> 8 & 255);
		RB[r] += w * (c & 255);
		RW[r] += w;
		if (x + w > RE[r]) RE[r] = x + w;
	}
	for (r = 0; r < nrows; r++) if (RN[r]) closeRun(r);
}
function closeRun(r) {
	var w = RW[r];
	put(NG + (q17(RR[r], w) << 8 | q17(RGg[r], w) << 4 | q17(RB[r], w)), RX[r], RE[r] - RX[r], r);
	RN[r] = 0;
}
/* a channel's mean rounded, in 16ths of 255 (as run_close() in
 * render_svg.c) */
function q17(s, w) { return w > 0 ? Math.floor((Math.floor(s / w + 0.5 + MERGE_EPS) + 8) / 17) : 0; }

/* the frames drawn now: as the file has them when the graph's own frames
 * are not zoomed, else Z's ancestors at full width and its subtree merged */
function draw() {
	var j, k;
	USED = [];
	if (Z === 0 && FS.own) {   /* as render_svg.c drew it */
		for (k = 0; k < live.length; k++)
			if (ORIG[live[k]] !== null) {
				USED.push(live[k]);
				OUT[live[k]] = ORIG[live[k]];
			}
	} else {
		for (k = YS.length; k < nrows; k++) YS.push("");
		for (k = 0; k < nrows; k++) YS[k] = " " + num(yOf(k)) + "h";
		for (j = par[Z]; j >= 0; j = par[j]) put(grp(j), XP, GW, rw[j]);
		merge();
	}
	apply();
	highlight();
	labels();
	attributed();
}
/* sets each used slot's path to OUT[slot] (and OUT back to ""), making
 * the paths the file lacks; the file's other paths are emptied, the others
 * made here removed */
var STAMP = new Int32Array(NSLOT), stamp = 0;
function apply() {
	var k, s, keep = [];
	stamp++;
	for (k = 0; k < USED.length; k++) {
		s = USED[k];
		STAMP[s] = stamp;
		if (!EL[s]) {
			EL[s] = make("path", { fill: colourOf(s), d: "" }, s < NG ? fr : blends(), s < NG ? fm : null);
			CUR[s] = "";
			live.push(s);
		}
		if (CUR[s] !== OUT[s]) EL[s].setAttribute("d", CUR[s] = OUT[s]);
		OUT[s] = "";
	}
	for (k = 0; k < live.length; k++) {
		s = live[k];
		if (STAMP[s] === stamp || ORIG[s] !== null) {
			if (STAMP[s] !== stamp && CUR[s] !== "") EL[s].setAttribute("d", CUR[s] = "");
			keep.push(s);
		} else {   /* made here, unused now */
			EL[s].parentNode.removeChild(EL[s]);
			EL[s] = null;
		}
	}
	live = keep;
}
function blends() {
	if (!fm) fm = make("g", { "class": "fm" }, fr);
	return fm;
}
/* "#rrggbb" of a slot */
function colourOf(s) {
	var q = s - NG, c = s < NG ? GC[s] : (q >> 8) * 17 << 16 | (q >> 4 & 15) * 17 << 8 | (q & 15) * 17;
	return "#" + (0x1000000 + c).toString(16).slice(1);
}
/* --nameattr's rectangles follow their frames, hidden while not shown
 * (and in views: they belong to the graph's own frames) */
function attributed() {
	var na = find("na"), k, j, r;
	if (!na || !D.na) return;
	for (k = 0; k < D.na.length && k < na.children.length; k++) {
		j = D.na[k];
		r = na.children[k].lastChild;
		if (FS.own && ((j < Z && en[j] > Z) || (j >= Z && j < en[Z]))) {
			r.setAttribute("x", r1(xOf(j)));
			r.setAttribute("y", r1(yAt(j)));
			r.setAttribute("width", r1(wOf(j)));
			r.removeAttribute("display");
		} else {
			r.setAttribute("display", "none");
		}
	}
}
/* search matches, and the current one outlined */
function highlight() {
	var s = [], j, ze = en[Z];
	if (re) {
		for (j = par[Z]; j >= 0; j = par[j]) if (mark[j]) s.push(rect(j));
		for (j = Z; j < ze; j++) if (mark[j]) s.push(rect(j));
	}
	hl.setAttribute("d", s.join(" "));
	outline();
}
/* the current match's outline, when it is drawn in this view */
function outline() {
	var on = re && cm >= 0 && visible(cm);
	cmo.classList.toggle("h", !on);
	if (!on) return;
	cmo.setAttribute("x", r1(xOf(cm)));
	cmo.setAttribute("y", r1(yAt(cm)));
	cmo.setAttribute("width", r1(wOf(cm)));
}
/* labels of the frames wide enough for three characters, truncated with
 * "..": the rule render_svg.c applies */
function labels() {
	var frag = document.createDocumentFragment(), ze = en[Z], j, w;
	var minW = 3 * D.cw + 6, dy = (FH - 1) / 2 + D.fs / 4;
	function label(j, w) {
		var chars = Math.floor((w - 6) / D.cw), s = D.n[nm[j]];
		if (s.length > chars) {
			var cps = Array.from(s);
			if (cps.length > chars) s = cps.slice(0, chars - 2).join("") + "..";
		}
		make("text", { x: r1(xOf(j) + 3), y: r1(yAt(j) + dy) }, frag).textContent = s;
	}
	for (j = par[Z]; j >= 0; j = par[j])
		if (GW >= minW) label(j, GW);
	for (j = Z; j < ze;) {
		w = wd[j] * K;
		if (!(w >= minW)) {
			j = en[j];
			continue;
		}
		label(j, w);
		j++;
	}
	lb.textContent = "";
	lb.appendChild(frag);
}
