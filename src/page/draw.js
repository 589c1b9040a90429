/* page/draw.js: the frames, labels, search highlights and --nameattr
 * rectangles of the current view. Frames are subpaths of one <path> per
 * colour (see frames() in render_svg.c), so drawing sets a few "d"
 * attributes; only the visible frames (Z's ancestors and subtree) are in
 * them, and runs of frames narrower than a pixel are one box in their
 * blended colour, in the paths of <g class="fm"> (merge()). */

var paths = [], ng, orig = [], cur = [], rgb = [];
for (var p0 = fr.firstElementChild; p0; p0 = p0.nextElementSibling)
	if (p0.localName === "path") paths.push(p0);
ng = paths.length;
for (var g0 = 0; g0 < ng; g0++) {
	orig[g0] = cur[g0] = paths[g0].getAttribute("d");
	rgb[g0] = parseInt(paths[g0].getAttribute("fill").slice(1), 16);
}
/* the blends' paths by colour ("#rrggbb"): the file's, and those made
 * after a zoom; bOrig what the file drew in them */
var fm = find("fm"), bPath = {}, bOrig = {}, bCur = {};
for (var b0 = fm ? fm.firstElementChild : null; b0; b0 = b0.nextElementSibling) {
	bPath[b0.getAttribute("fill")] = b0;
	bOrig[b0.getAttribute("fill")] = bCur[b0.getAttribute("fill")] = b0.getAttribute("d");
}

/* the <path> of frame j's colour: per frame, or per name; in a view,
 * frames of a name take the colour of its first frame in the graph */
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

/* The boxes of a redraw: x, y, width and path (a group, or ng + a blend's
 * index in bKeys), made by merge() and written as path data by write(). */
var BX = new Float64Array(0), BY, BW, BG, nbox = 0;
var bIndex = new Int32Array(4096), bKeys = [];
function addBox(x, y, w, g) {
	BX[nbox] = x;
	BY[nbox] = y;
	BW[nbox] = w;
	BG[nbox++] = g;
}
/* Z's subtree row by row, as boxes() in render_svg.c: a frame a pixel
 * wide or more is a box of its own; narrower ones side by side are one box
 * while they span at most a pixel, in the mean of their colours weighted
 * by width with each channel rounded to a multiple of 17 (a blend), or in
 * their group's colour when the run is one frame. Ties are decided with
 * MERGE_EPS, as there. */
var MERGE_EPS = 1e-6;
function merge() {
	var r, p, hi, j, x, w, y, rx = 0, rend = 0, n1, g1 = 0, sr = 0, sg = 0, sb = 0, sw = 0, c;
	for (r = 0; r < nrows; r++) {
		p = rowFrom(rowAt[r], rowAt[r + 1], Z);
		hi = rowFrom(p, rowAt[r + 1], en[Z]);
		y = yOf(r);
		n1 = 0;
		for (; p <= hi; p++) {
			j = p < hi ? row[p] : -1;
			x = j < 0 ? 0 : XP + (st[j] - st[Z]) * K;
			w = j < 0 ? 1 : wd[j] * K;
			if (n1 && (w >= 1 - MERGE_EPS || x + w > rx + 1 + MERGE_EPS)) {   /* the run ends */
				addBox(rx, y, rend - rx, n1 === 1 ? g1 : blend(sr, sg, sb, sw));
				n1 = 0;
			}
			if (j < 0) break;
			c = grp(j);
			if (w >= 1 - MERGE_EPS) {
				addBox(x, y, w, c);
				continue;
			}
			if (!n1++) {
				rx = rend = x;
				g1 = c;
				sr = sg = sb = sw = 0;
			}
			c = rgb[c];
			sr += w * (c >> 16);
			sg += w * (c >> 8 & 255);
			sb += w * (c & 255);
			sw += w;
			if (x + w > rend) rend = x + w;
		}
	}
}
/* the path of a blend of channels summed (weighted by width) to r, g, b
 * over weight w */
function blend(r, g, b, w) {
	var q = q17(r, w) << 8 | q17(g, w) << 4 | q17(b, w);
	if (bIndex[q] < 0) {
		bIndex[q] = bKeys.length;
		bKeys.push("#" + (0x1000000 + q17(r, w) * 17 * 65536 + q17(g, w) * 17 * 256 +
				   q17(b, w) * 17).toString(16).slice(1));
	}
	return ng + bIndex[q];
}
/* a channel's mean rounded, in 16ths of 255 (as run_close() in
 * render_svg.c) */
function q17(s, w) { return w > 0 ? Math.floor((Math.floor(s / w + 0.5 + MERGE_EPS) + 8) / 17) : 0; }

/* Path data of the boxes, per path: written as bytes and decoded once per
 * path, because building a string per box cost several times as much at
 * 50k boxes. Numbers as r1() rounds them. */
var BUF = new Uint8Array(0), bp = 0, utf8 = new TextDecoder();
var TAIL = Array.prototype.map.call("v" + r1(FH - 1) + "h-", function (ch) { return ch.charCodeAt(0); });
function putNum(v) {
	var t = Math.round(v * 10), f, e, d;
	if (t < 0) {
		BUF[bp++] = 45;
		t = -t;
	}
	f = t % 10;
	t = (t - f) / 10;
	d = t < 10 ? 1 : t < 100 ? 2 : t < 1000 ? 3 : t < 10000 ? 4 : String(t).length;
	for (e = bp + d; e > bp; t = (t - t % 10) / 10) BUF[--e] = 48 + t % 10;
	bp += d;
	if (f) {
		BUF[bp++] = 46;
		BUF[bp++] = 48 + f;
	}
}
/* the path data of each of np paths into out[]; a box's y (the same for
 * a row) and its width's second copy are copied, not formatted again */
function write(np, out) {
	var first = new Int32Array(np + 1), order = new Int32Array(nbox), k, b, g, from, most = 0;
	var y = NaN, yb = new Uint8Array(32), yn = 0, t, w0, wn;
	for (b = 0; b < nbox; b++) first[BG[b] + 1]++;
	for (g = 0; g < np; g++) {
		most = Math.max(most, first[g + 1]);
		first[g + 1] += first[g];
	}
	for (b = 0; b < nbox; b++) order[first[BG[b]]++] = b;
	if (BUF.length < most * 96 + 64) BUF = new Uint8Array(most * 96 + 64);
	for (g = 0, k = 0; g < np; g++) {
		bp = 0;
		for (from = k; k < first[g]; k++) {
			b = order[k];
			if (k > from) BUF[bp++] = 32;
			BUF[bp++] = 77;
			putNum(BX[b]);
			BUF[bp++] = 32;
			if (BY[b] !== y) {
				y = BY[b];
				w0 = bp;
				putNum(y);
				for (yn = 0; w0 + yn < bp; yn++) yb[yn] = BUF[w0 + yn];
			} else {
				for (t = 0; t < yn; t++) BUF[bp++] = yb[t];
			}
			BUF[bp++] = 104;
			w0 = bp;
			putNum(BW[b]);
			wn = bp - w0;
			for (t = 0; t < TAIL.length; t++) BUF[bp++] = TAIL[t];
			for (t = 0; t < wn; t++) BUF[bp++] = BUF[w0 + t];
		}
		out[g] = bp ? utf8.decode(BUF.subarray(0, bp)) : "";
	}
}
/* the frames drawn now: as the file has them when the graph's own frames
 * are not zoomed, else Z's ancestors at full width and its subtree merged */
function draw() {
	var parts = [], blends = {}, g, j, k;
	if (Z === 0 && FS.own) {   /* as render_svg.c drew it */
		for (g = 0; g < ng; g++) parts[g] = orig[g];
		for (k in bOrig) blends[k] = bOrig[k];
	} else {
		k = en[Z] - Z + nrows;   /* at most the subtree and an ancestor a row */
		if (BX.length < k) {
			BX = new Float64Array(k);
			BY = new Float64Array(k);
			BW = new Float64Array(k);
			BG = new Int32Array(k);
		}
		nbox = 0;
		bIndex.fill(-1);
		bKeys = [];
		for (j = par[Z]; j >= 0; j = par[j]) addBox(XP, yAt(j), GW, grp(j));
		merge();
		write(ng + bKeys.length, parts);
		for (k = 0; k < bKeys.length; k++) blends[bKeys[k]] = parts[ng + k];
	}
	for (g = 0; g < ng; g++)
		if (parts[g] !== cur[g]) paths[g].setAttribute("d", cur[g] = parts[g]);
	drawBlends(blends);
	highlight();
	labels();
	attributed();
}
/* the blends' paths: made when first needed; one the file did not have
 * leaves when unused, so Back and Reset Zoom restore the file's elements */
function drawBlends(blends) {
	var k, s;
	for (k in blends)
		if (!bPath[k]) {
			if (!fm) fm = make("g", { "class": "fm" }, fr);
			bPath[k] = make("path", { fill: k, d: "" }, fm);
			bCur[k] = "";
		}
	for (k in bPath) {
		s = blends[k] || "";
		if (!s && !(k in bOrig)) {
			fm.removeChild(bPath[k]);
			delete bPath[k];
			delete bCur[k];
		} else if (s !== bCur[k]) {
			bPath[k].setAttribute("d", bCur[k] = s);
		}
	}
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
