/* page/draw.js: the frames, labels, search highlights and --nameattr
 * rectangles of the current view.
 *
 * The file's own picture (one <path> per colour, see frames() in
 * render_svg.c; runs of frames narrower than a pixel as blended boxes in
 * one PNG <image> in <g class="fm">, blend.c) is never rewritten: it is what the graph as
 * written shows, and what a viewer without script shows. Any other state
 * (a zoom, a view) is drawn on a <canvas> in a <foreignObject> over the
 * frames' rows, right after <g class="fr">, while that group is hidden;
 * Reset Zoom and Back to the file's state show it again. A canvas because
 * at 200k frames a zoom draws about 50k boxes: as path data, building the
 * strings and Chromium's parsing, layout and paint of them took 110-170 ms
 * of CPU; rasterised here (raster()) a few ms once V8 has compiled it
 * (docs/interactive.md, "Zoom: a canvas over the frames"). Labels,
 * highlights and outlines stay SVG elements above it.
 *
 * A box's colour is a slot: slot g < NG is colour group g (its colour
 * D.gc[g]), slot NG + q the blend q (three 4-bit channels, see
 * merge()). */

var GC = D.gc, NG = GC.length;
var XH = "http://www.w3.org/1999/xhtml";
var fo = null, cv = null, cx = null;   /* the <foreignObject>, its canvas, its context */

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
	var w = r1(clipW(j));
	return "M" + r1(clipX(j)) + " " + r1(yAt(j)) + "h" + w + "v" + (FH - 1) + "h-" + w;
}

/* The boxes of a redraw (NB of them): slot, x, width, row. room(m) makes
 * room for m more, so the loops below store without checking. */
var NB = 0, BS = new Int32Array(0), BX = new Float64Array(0), BW = BX, BR = BS;
function room(m) {
	if (NB + m <= BS.length) return;
	var c = Math.max(2 * BS.length, NB + m, 1024);
	var bs = new Int32Array(c), bx = new Float64Array(c), bw = new Float64Array(c), br = new Int32Array(c);
	bs.set(BS.subarray(0, NB));
	bx.set(BX.subarray(0, NB));
	bw.set(BW.subarray(0, NB));
	br.set(BR.subarray(0, NB));
	BS = bs;
	BX = bx;
	BW = bw;
	BR = br;
}
function put(s, x, w, r) {
	room(1);
	BS[NB] = s;
	BX[NB] = x;
	BW[NB] = w;
	BR[NB++] = r;
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
 * decided with MERGE_EPS, as there.
 * The first zoom runs this before V8 has compiled it, interpreted, at 50k
 * boxes: so the state is in locals (the closure's variables cost a load
 * each), no call per frame unless a view recolours frames (grp()), and a
 * box is stored in place (room() made room for the subtree). */
var MERGE_EPS = 1e-6;
function merge() {
	var ze = en[Z], s0 = S0, k = K, xp = XP, xr = XP + GW + 1, j, r, x, w, c, g, q;
	var rwA = rw, stA = st, wdA = wd, nmA = nm, gc = GC, ng = NG, byNm = D.g ? null : D.c;
	var rn, rx, re, rr, rg, rb, rt, bs, bx, bw, br, nb, lo = 1 - MERGE_EPS, eps = MERGE_EPS;
	rowState(nrows);
	room(ze - Z + nrows);
	rn = RN, rx = RX, re = RE, rr = RR, rg = RGg, rb = RB, rt = RW;
	bs = BS, bx = BX, bw = BW, br = BR, nb = NB;
	for (j = Z; j <= ze; j++) {
		r = j < ze ? rwA[j] : 0;
		x = xp + (stA[j] - s0) * k;
		w = wdA[j] * k;
		if (j < ze && (x > xr || x + w < xp - 1)) {   /* off a chart's window, and so its callees */
			j = en[j] - 1;
			continue;
		}
		/* close the row's run (at the end, every row's) */
		for (q = j < ze ? r : 0; q < (j < ze ? r + 1 : nrows); q++) {
			if (!rn[q] || (j < ze && w < lo && x + w <= rx[q] + 1 + eps)) continue;
			c = rt[q];
			bs[nb] = ng + ((Math.floor(rr[q] / c + 0.5 + eps) + 8) / 17 << 8 |
				       (Math.floor(rg[q] / c + 0.5 + eps) + 8) / 17 << 4 |
				       (Math.floor(rb[q] / c + 0.5 + eps) + 8) / 17);
			bx[nb] = rx[q];
			bw[nb] = re[q] - rx[q];
			br[nb++] = q;
			rn[q] = 0;
		}
		if (j === ze) break;
		g = byNm ? byNm[nmA[j]] : grp(j);
		if (w >= lo) {
			bs[nb] = g;
			bx[nb] = x;
			bw[nb] = w;
			br[nb++] = r;
			continue;
		}
		if (!rn[r]++) {
			rx[r] = re[r] = x;
			rr[r] = rg[r] = rb[r] = rt[r] = 0;
		}
		c = gc[g];
		rr[r] += w * (c >> 16);
		rg[r] += w * (c >> 8 & 255);
		rb[r] += w * (c & 255);
		rt[r] += w;
		if (x + w > re[r]) re[r] = x + w;
	}
	NB = nb;
}

/* the frames drawn now: the file's paths when the graph's own frames are
 * not zoomed, else on the canvas Z's ancestors at full width and its
 * subtree merged */
function draw() {
	var j;
	if (Z === 0 && FS.own && whole()) {
		showFile(true);
	} else {
		NB = 0;
		for (j = par[Z]; j >= 0; j = par[j]) put(grp(j), XP, GW, rw[j]);
		merge();
		paint();
		showFile(false);
	}
	highlight();
	labels();
	attributed();
	focusFrame();
}
/* a sandwich's middle frame (frame 0 of its frame set) outlined */
function focusFrame() {
	var on = typeof view === "object" && view.w >= 0;
	fco.classList.toggle("h", !on);
	if (!on) return;
	fco.setAttribute("x", r1(xOf(0) + 1));
	fco.setAttribute("y", r1(yAt(0) + 0.5));
	fco.setAttribute("width", r1(Math.max(0, wOf(0) - 2)));
	fco.setAttribute("height", FH - 2);
}
/* the file's frame paths and image shown (and the canvas hidden), or the
 * reverse: one class on <g class="fr">, however many paths it has (3.9k at
 * 21k frames, one per colour). The canvas draws the image's boxes by the
 * same exact-area rule (raster() below), so a redraw at the file's scale
 * shows the same pixels. */
function showFile(on) {
	fr.classList.toggle("h", !on);
	if (fo) fo.classList.toggle("h", on);
}
/* The canvas over the rows drawn, in device pixels (devicePixelRatio and
 * the page's scaling of the SVG: crisp on HiDPI), made at the first use and
 * resized when the rows or the scale change (a sandwich grows the image).
 * Sets CY (the canvas's top in SVG units) and CS (device pixels a unit). */
var CY = 0, CS = 1, IMG = null;
function canvas() {
	var y0 = Math.min(yOf(0), yOf(nrows - 1)), h = Math.abs(yOf(nrows - 1) - yOf(0)) + FH;
	var m = svg.getScreenCTM(), s = (m && m.a > 0 ? m.a : 1) * (window.devicePixelRatio || 1);
	s = Math.min(s, 8, 16384 / GW, 16384 / h);   /* the largest canvases browsers allow */
	if (!fo) {
		fo = make("foreignObject", { "class": "h" }, fr.parentNode, fr.nextSibling);
		cv = fo.appendChild(document.createElementNS(XH, "canvas"));
		cv.style.display = "block";
		cv.style.cursor = "pointer";   /* as on the frames (style() in render_svg.c) */
		cx = cv.getContext("2d");
		cv.aflameBoxes = boxList;   /* for tests/browser: what was drawn */
	}
	if (+fo.getAttribute("y") !== y0 || +fo.getAttribute("height") !== h) {
		fo.setAttribute("x", XP);
		fo.setAttribute("y", y0);
		fo.setAttribute("width", GW);
		fo.setAttribute("height", h);
		cv.style.width = GW + "px";
		cv.style.height = h + "px";
	}
	var cw = Math.ceil(GW * s), ch = Math.ceil(h * s);
	if (cv.width !== cw || cv.height !== ch) {
		cv.width = cw;
		cv.height = ch;
	}
	if (!IMG || IMG.width !== cw || IMG.height !== ch) IMG = cx.createImageData(cw, ch);
	CY = y0;
	CS = s;
}
/* The boxes rasterised here rather than by fillRect (at 50k boxes, 1.3 us
 * a call warm and 3 us on the first zoom): boxes on a row do not overlap,
 * so each pixel of a row's scanline is the sum of the colours of the boxes
 * covering it weighted by the part covered (exact area antialiasing,
 * without the seams that two half-covered rectangles leave), copied to the
 * row's other scanlines. Rows are chained (HEAD, NEXT) so the pass stays
 * linear: boxes plus pixels. Locals and no calls per box, as in merge(). */
var HEAD = new Int32Array(0), NEXT = new Int32Array(0), ACC = new Float64Array(0);
var LE = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
function paint() {
	canvas();
	raster();
	cx.putImageData(IMG, 0, 0);
}
function raster() {
	var cw = IMG.width, ch = IMG.height, px = IMG.data, p32 = new Uint32Array(px.buffer);
	var k, r, i, i1, a, b, c, v, y, yb, cr, cg, cb, gc = GC, ng = NG, s = CS, x0 = XP;
	var bs = BS, bx = BX, bw = BW, nb = NB, acc, head, next;
	p32.fill(0);
	if (HEAD.length < nrows) HEAD = new Int32Array(nrows);
	if (NEXT.length < NB) NEXT = new Int32Array(BS.length);
	if (ACC.length < 4 * cw + 4) ACC = new Float64Array(4 * cw + 4);
	acc = ACC, head = HEAD, next = NEXT;
	head.fill(-1);
	for (k = 0; k < nb; k++) {
		next[k] = head[BR[k]];
		head[BR[k]] = k;
	}
	for (r = 0; r < nrows; r++) {
		y = Math.round((yOf(r) - CY) * s);
		yb = Math.min(ch, Math.round((yOf(r) + FH - 1 - CY) * s));
		if (head[r] < 0 || !(y >= 0 && y < yb)) continue;
		acc.fill(0);
		for (k = head[r]; k >= 0; k = next[k]) {
			c = bs[k];
			c = c < ng ? gc[c] : (c - ng >> 8) * 17 << 16 | (c - ng >> 4 & 15) * 17 << 8 | (c - ng & 15) * 17;
			cr = c >> 16;
			cg = c >> 8 & 255;
			cb = c & 255;
			a = (bx[k] - x0) * s;
			b = a + bw[k] * s;
			if (a < 0) a = 0;
			if (b > cw) b = cw;
			for (i = a | 0, i1 = Math.ceil(b); i < i1; i++) {
				v = (i + 1 < b ? i + 1 : b) - (i > a ? i : a);   /* the part of pixel i covered */
				acc[4 * i] += v * cr;
				acc[4 * i + 1] += v * cg;
				acc[4 * i + 2] += v * cb;
				acc[4 * i + 3] += v;
			}
		}
		for (i = 0, k = cw * y; i < cw; i++, k++) {
			v = acc[4 * i + 3];
			if (!(v > 0)) continue;
			cr = acc[4 * i] / v + 0.5 | 0;
			cg = acc[4 * i + 1] / v + 0.5 | 0;
			cb = acc[4 * i + 2] / v + 0.5 | 0;
			v = v >= 1 ? 255 : v * 255 + 0.5 | 0;
			p32[k] = LE ? (v << 24 | cb << 16 | cg << 8 | cr) >>> 0 : (cr << 24 | cg << 16 | cb << 8 | v) >>> 0;
		}
		for (i = y + 1; i < yb; i++) p32.copyWithin(cw * i, cw * y, cw * (y + 1));
	}
}
/* V8 runs a function's first calls in its interpreter, and the first zoom
 * at 202k frames spent two to three times as long in merge() and raster()
 * as the second (docs/interactive.md). So once the frames are decoded
 * (start() in main.js: after the first paint, or at a URL's state), the
 * page draws the graph as the file has it once on the canvas, never shown:
 * V8 compiles both loops on the way, and the canvas is made. It costs what
 * a cold zoom did, once, where the decode already is. */
function prime() {
	if (!FS.own || !(n > 1)) return;
	canvas();
	NB = 0;
	merge();
	raster();
	cx.putImageData(IMG, 0, 0);   /* the canvas's pixels are made at the first put */
	NB = 0;
}
function slotRGB(s) {
	var q = s - NG;
	return (q >> 8) * 17 << 16 | (q >> 4 & 15) * 17 << 8 | (q & 15) * 17;
}
/* the boxes last drawn on the canvas, as {x, y, w, h, fill, blend} in SVG
 * units rounded as the file's paths are; cut to the canvas, as raster()
 * cuts them (a flame chart's window leaves frames across its edges) */
function boxList() {
	var out = [], a, b;
	for (var k = 0; k < NB; k++) {
		a = Math.max(BX[k], XP);
		b = Math.min(BX[k] + BW[k], XP + GW);
		if (b > a)
			out.push({ x: r1(a), y: r1(yOf(BR[k])), w: r1(b - a), h: FH - 1, fill: colourOf(BS[k]),
				   blend: BS[k] >= NG });
	}
	return out;
}
/* "#rrggbb" of a slot */
function colourOf(s) {
	return "#" + (0x1000000 + (s < NG ? GC[s] : slotRGB(s))).toString(16).slice(1);
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
	var s = [], j, k, ze = en[Z];
	if (re) {
		for (j = par[Z]; j >= 0; j = par[j]) if (mark[j]) s.push(rect(j));
		for (k = firstHit(Z); k < nmatch && hits[k] < ze; k++) s.push(rect(hits[k]));
	}
	hl.setAttribute("d", s.join(" "));
	outline();
}
/* the current match's outline, when it is drawn in this view */
function outline() {
	var on = re && cm >= 0 && visible(cm);
	cmo.classList.toggle("h", !on);
	if (!on) return;
	cmo.setAttribute("x", r1(clipX(cm)));
	cmo.setAttribute("y", r1(yAt(cm)));
	cmo.setAttribute("width", r1(clipW(cm)));
}
/* labels of the frames wide enough for three characters, cut by label()
 * (label.js, the rule render_svg.c applies) in black or white as the
 * frame's colour needs */
function labels() {
	var frag = document.createDocumentFragment(), ze = en[Z], j, w;
	var minW = 3 * D.cw + 6, dy = (FH - 1) / 2 + D.fs / 4;
	function text(j, w) {
		w = Math.min(w, clipW(j));   /* a chart's window may cut it */
		if (!(w >= minW)) return;
		var a = { x: r1(clipX(j) + 3), y: r1(yAt(j) + dy) };
		if (inkWhite(GC[grp(j)])) a["class"] = "lw";
		var t = label(D.n[nm[j]], Math.floor((w - 6) / D.cw), D.lr);
		if (t) make("text", a, frag).textContent = t;
	}
	for (j = par[Z]; j >= 0; j = par[j])
		if (GW >= minW) text(j, GW);
	for (j = Z; j < ze;) {
		w = wd[j] * K;
		if (!(w >= minW) || xOf(j) > XP + GW || xOf(j) + w < XP) {
			j = en[j];
			continue;
		}
		text(j, w);
		j++;
	}
	lb.textContent = "";
	lb.appendChild(frag);
}
