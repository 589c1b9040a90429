/* svg_script.js: the interactive part of aflame-render's SVG (hover details
 * and tooltip, click to zoom, regex search, state in the URL fragment).
 *
 * render_svg.c embeds this text as the body of
 *     (function(){"use strict"; var D = {...}; <this file> })();
 * so nothing here is global. D holds: id (the graph's class, also the prefix
 * of its ids), w (image width), xp (side margin), fs (font size), cw (estimated
 * character advance, px), fh (frame height), u (count unit), n (distinct frame
 * names) and f (four integers per frame, see data() in render_svg.c); when
 * set, dc (decimals of the weights), k (--factor), nt (--nametype), g (each
 * frame's colour path, when colours are not per name), d (differential
 * graphs: each frame's change of its own weight, or with dt of its inclusive
 * weight; negated when ng) and, comparing two runs (--diff), bf and af
 * (each frame's inclusive weight in the first and second run) and dk (each
 * frame's kind, a digit: 0 plain, 1 removed, 2 context, 3 the band), and
 * with --nameattr, na (the frames of the elements in the group "na", which
 * carry the file's attributes over a transparent rectangle each).
 *
 * Search: a regex refused by risky() (see docs/interactive.md) or past its
 * time budget marks nothing; "Matched:" gives the share and the count of
 * matched frames; < > and the arrow keys step through the matches.
 *
 * The script finds its own <svg> through document.currentScript, so several
 * graphs inlined in one HTML page work independently. Frames are subpaths of
 * one <path> per colour (D.c gives each name's path, or D.g each frame's),
 * so the pointer is mapped to a frame by depth and a binary search in that
 * depth's row, and a zoom redraws those paths from the zoomed subtree and its
 * ancestors only.
 * This file is C-string-escaped by the build: never write CDATA's end marker. */

var NS = "http://www.w3.org/2000/svg";
var me = document.currentScript;
var svg = me && me.parentNode && me.parentNode.namespaceURI === NS ? me.parentNode : null;
if (!svg) {
	var all = document.getElementsByClassName(D.id);
	svg = all.length ? all[all.length - 1] : null;
}
if (svg) setup(svg);

function setup(svg) {
	function find(c) { return svg.getElementsByClassName(c)[0]; }
	function make(tag, attrs, parent, before) {
		var e = document.createElementNS(NS, tag);
		for (var k in attrs) e.setAttribute(k, attrs[k]);
		if (parent) parent.insertBefore(e, before || null);
		return e;
	}
	var fr = find("fr"), lb = find("lb"), rz = find("rz"), sr = find("sr"), ax = find("ax");
	var dt = find("dt"), mt = find("mt");
	var F = D.f, n = F.length / 4;
	if (!fr || !lb || n < 1) return;

	/* ---- frames: decode the data block ---- */
	var nm = new Int32Array(n), dp = new Int32Array(n), par = new Int32Array(n);
	var en = new Int32Array(n), st = new Float64Array(n), wd = new Float64Array(n);
	var next = [], path = [], i, j, d, maxd = 0;
	for (i = 0; i < n; i++) {
		nm[i] = F[4 * i];
		wd[i] = F[4 * i + 2];
		d = i ? dp[i - 1] + 1 - F[4 * i + 3] : 0;
		dp[i] = d;
		if (d > maxd) maxd = d;
		st[i] = (i === 0 ? 0 : d === dp[i - 1] + 1 ? st[i - 1] : next[d]) + F[4 * i + 1];
		next[d] = st[i] + wd[i];
		if (i)
			for (j = dp[i - 1]; j >= d; j--) en[path[j]] = i;
		path[d] = i;
		par[i] = d ? path[d - 1] : -1;
	}
	for (j = dp[n - 1]; j >= 0; j--) en[path[j]] = n;
	/* frames of each depth in pre-order, which is left-to-right order */
	var rowAt = new Int32Array(maxd + 2), row = new Int32Array(n), fill = new Int32Array(maxd + 1);
	for (i = 0; i < n; i++) rowAt[dp[i] + 1]++;
	for (d = 0; d <= maxd; d++) rowAt[d + 1] += rowAt[d];
	for (i = 0; i < n; i++) row[rowAt[dp[i]] + fill[dp[i]]++] = i;
	/* flame charts with several threads: band k is frames [B[3k], B[3k+1])
	 * drawn from row B[3k+2] up; a frame's row is its depth plus ro[] */
	var B = D.b || [], nb = B.length / 3, ro = new Int32Array(n), bandOf = new Int32Array(n).fill(-1);
	var bandRows = [], k;
	for (k = 0; k < nb; k++) {
		bandRows[k] = 0;
		for (i = B[3 * k]; i < B[3 * k + 1]; i++) {
			ro[i] = B[3 * k + 2] - 1;
			bandOf[i] = k;
			if (dp[i] > bandRows[k]) bandRows[k] = dp[i];
		}
	}

	var W = D.w, XP = D.xp, GW = W - 2 * XP, TOTAL = wd[0], FH = D.fh;
	var H = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.height : 0;
	var paths = fr.getElementsByTagNameNS(NS, "path"), ng = paths.length;
	var orig = [], cur = [];
	for (i = 0; i < ng; i++) orig[i] = cur[i] = paths[i].getAttribute("d");
	var Z = 0, K = TOTAL > 0 ? GW / TOTAL : 0, re = null, reSrc = "", icase = false;
	var mark = new Uint8Array(n), top = document.documentElement === svg;
	var nmatch = 0, cm = -1;   /* matched frames; the current one (next/previous) or -1 */

	svg.classList.add("js");
	uniqueIds();

	/* drawn only with script: highlights, hover outline, tooltip, case toggle */
	var hl = make("path", { "class": "hl", d: "" }, fr.parentNode, fr.nextSibling);
	var hv = make("rect", { "class": "hv h", height: FH - 1 }, fr.parentNode, lb.nextSibling);
	var tt = make("g", { "class": "tt h" }, svg);
	var ttr = make("rect", { rx: 2, ry: 2, x: 0, y: 0, height: D.fs + 8 }, tt);
	var ttt = make("text", { x: 4, y: D.fs + 2 }, tt);
	var ic = make("text", { "class": "bt r ic", x: r1(W - XP - 13 * D.cw), y: sr.getAttribute("y") }, svg);
	ic.textContent = "ic";
	make("title", {}, ic).textContent = "case-insensitive search (Ctrl-I)";
	/* next/previous match: shown while searching; the current match is outlined */
	var pv = make("text", { "class": "bt r pv h", x: r1(W - XP - 19 * D.cw), y: sr.getAttribute("y") }, svg);
	var nx = make("text", { "class": "bt r nx h", x: r1(W - XP - 16 * D.cw), y: sr.getAttribute("y") }, svg);
	pv.textContent = "<";
	nx.textContent = ">";
	make("title", {}, pv).textContent = "previous match (left arrow)";
	make("title", {}, nx).textContent = "next match (right arrow)";
	var cmo = make("rect", { "class": "hv cm h", height: FH - 1 }, fr.parentNode, hv);
	showIcase();

	/* ---- formatting ---- */
	function r1(v) { return Math.round(v * 10) / 10; }
	function group(v) {
		return String(Math.round(v)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
	}
	/* a weight as a count: fixed point with D.dc decimals, shown exactly;
	 * with a factor (D.k) scaled and rounded, as flamegraph.pl does */
	var DC = D.dc || 0, UNIT = Math.pow(10, DC);
	function count(v) {
		if (D.k) return group(v * D.k / UNIT);
		if (!DC) return group(v);
		var s = String(v), neg = s.charAt(0) === "-";
		if (neg) s = s.slice(1);
		while (s.length <= DC) s = "0" + s;
		return (neg ? "-" : "") + group(+s.slice(0, s.length - DC)) + "." + s.slice(s.length - DC);
	}
	/* a signed change as a percentage of b: "+3.09", "-0.50", "0.00" */
	function spct(a, b) {
		return (a > 0 ? "+" : a < 0 ? "-" : "") + pct(Math.abs(a), b);
	}
	/* the <path> of frame j's colour: per frame, or per name */
	function grp(j) { return D.g ? D.g[j] : D.c[nm[j]]; }
	/* a / b as a percentage with two decimals, rounded from the integers */
	function pct(a, b) {
		if (!(b > 0)) return "0.00";
		var h = Math.round(a * 10000 / b), f = h % 100;
		return Math.floor(h / 100) + (f < 10 ? ".0" : ".") + f;
	}
	/* comparisons (--diff): both runs' inclusive weights and the change;
	 * a frame coloured by its own weight also gives that change */
	function signed(v) { return (v > 0 ? "+" : "") + count(v); }
	function compared(i) {
		var k = +D.dk.charAt(i), b = D.bf[i], a = D.af[i], u = " " + D.u, own;
		var s = D.n[nm[i]] + " (";
		if (k === 3) return s + count(b) + u + " only in the first run)";
		if (k === 2) return s + count(b) + u + " of removed calls below)";
		s += "before " + count(b) + u + ", after " + count(a) + u + ", " + signed(a - b) + u +
			", " + (b > 0 ? spct(a - b, b) + "%" : "new");
		own = D.d[i] * (D.ng ? -1 : 1);
		if (k === 1) s += "; removed";
		else if (!D.dt && own !== a - b) s += "; self " + (own ? signed(own) + u : "unchanged");
		return s + ")";
	}
	function describe(i) {
		if (D.bf) return compared(i);
		var s = D.n[nm[i]] + " (" + count(wd[i]) + " " + D.u + ", " + pct(wd[i], TOTAL) + "%";
		if (Z && i > Z && i < en[Z])
			s += ", " + pct(wd[i], wd[Z]) + "% of zoom";
		if (D.d)
			s += "; " + spct(D.d[i], TOTAL) + "%";
		return s + ")";
	}

	/* ---- ids: identical copies in one page would share the gradient id ---- */
	function uniqueIds() {
		var bg = svg.getElementsByTagNameNS(NS, "linearGradient")[0];
		if (!bg || document.getElementById(bg.id) === bg) return;
		var id = bg.id, k = 2;
		while (document.getElementById(id + "-" + k)) k++;
		bg.id = id + "-" + k;
		svg.getElementsByTagNameNS(NS, "rect")[0].setAttribute("fill", "url(#" + bg.id + ")");
	}

	/* ---- geometry of the current view ---- */
	function yOf(d) { return D.y0 + d * D.dy; }
	function yAt(j) { return yOf(dp[j] + ro[j]); }
	/* first position p in [lo, hi) of row[] with row[p] >= idx */
	function rowFrom(lo, hi, idx) {
		while (lo < hi) {
			var mid = (lo + hi) >> 1;
			if (row[mid] < idx) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}
	function xOf(j) { return j < Z ? XP : XP + (st[j] - st[Z]) * K; }
	function wOf(j) { return j < Z ? GW : wd[j] * K; }
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
		var w = st[Z] + (x - XP) / K, lo = rowFrom(rowAt[d], rowAt[d + 1], s);
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
	function pointer(e) {
		var m = svg.getScreenCTM();
		return m ? { x: (e.clientX - m.e) / m.a, y: (e.clientY - m.f) / m.d } : null;
	}

	/* ---- hover ---- */
	var hovered = -1;
	function hover(i, e) {
		if (i !== hovered) {
			var s = describe(i);
			hovered = i;
			dt.textContent = D.nt ? D.nt + " " + s : s;
			ttt.textContent = s;
			ttr.setAttribute("width", ttt.getComputedTextLength() + 8);
			hv.setAttribute("x", r1(xOf(i)));
			hv.setAttribute("y", r1(yAt(i)));
			hv.setAttribute("width", r1(wOf(i)));
			hv.classList.remove("h");
			tt.classList.remove("h");
		}
		moveTip(e);
	}
	function unhover() {
		if (hovered < 0) return;
		hovered = -1;
		dt.textContent = " ";
		tt.classList.add("h");
		hv.classList.add("h");
	}
	function moveTip(e) {
		var p = pointer(e);
		if (!p) return;
		var bw = +ttr.getAttribute("width"), bh = D.fs + 8;
		var tx = p.x + 12, ty = p.y + 18;
		if (tx + bw > W) tx = Math.max(0, p.x - 12 - bw);
		if (H && ty + bh > H) ty = Math.max(0, p.y - 8 - bh);
		tt.setAttribute("transform", "translate(" + r1(tx) + "," + r1(ty) + ")");
	}

	/* ---- drawing: the visible frames are Z's ancestors and subtree ---- */
	function rect(j) {
		var w = r1(wOf(j));
		return "M" + r1(xOf(j)) + " " + r1(yAt(j)) + "h" + w + "v" + (FH - 1) + "h-" + w;
	}
	function draw() {
		var parts = [], g, j, ze = en[Z];
		if (Z === 0) {
			for (g = 0; g < ng; g++) parts[g] = orig[g];
		} else {
			for (g = 0; g < ng; g++) parts[g] = [];
			for (j = par[Z]; j >= 0; j = par[j]) parts[grp(j)].push(rect(j));
			for (j = Z; j < ze; j++) parts[grp(j)].push(rect(j));
			for (g = 0; g < ng; g++) parts[g] = parts[g].join(" ");
		}
		for (g = 0; g < ng; g++)
			if (parts[g] !== cur[g]) paths[g].setAttribute("d", cur[g] = parts[g]);
		highlight();
		labels();
		attributed();
	}
	/* --nameattr's rectangles follow their frames, hidden while not shown */
	function attributed() {
		var na = find("na"), k, j, r;
		if (!na || !D.na) return;
		for (k = 0; k < D.na.length && k < na.children.length; k++) {
			j = D.na[k];
			r = na.children[k].lastChild;
			if ((j < Z && en[j] > Z) || (j >= Z && j < en[Z])) {
				r.setAttribute("x", r1(xOf(j)));
				r.setAttribute("y", r1(yAt(j)));
				r.setAttribute("width", r1(wOf(j)));
				r.removeAttribute("display");
			} else {
				r.setAttribute("display", "none");
			}
		}
	}
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
	/* frame j is drawn when zoomed at Z: an ancestor of Z or in its subtree */
	function visible(j) {
		if (j >= Z && j < en[Z]) return true;
		for (var a = par[Z]; a >= 0; a = par[a]) if (a === j) return true;
		return false;
	}
	function zoom(z) {
		if (!(z >= 0 && z < n)) z = 0;
		Z = z;
		K = GW / wd[z];
		unhover();
		draw();
		if (z) rz.classList.remove("h");
		else rz.classList.add("h");
		if (ax) ax.classList.toggle("h", z !== 0);   /* its times are the whole chart's */
		if (re) matched();
		save();
	}

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

	/* ---- search ---- */
	function search(src) {
		var j, names = D.n, ok, why;
		mark.fill(0);
		re = null;
		cm = -1;
		nmatch = 0;
		reSrc = src || "";
		if (reSrc) {
			why = risky(reSrc);
			try {
				if (!why) re = new RegExp(reSrc, icase ? "i" : "");
			} catch (err) {
				why = "bad regex";
			}
			if (why) mt.textContent = "Search refused (" + why + "): " + reSrc;
		}
		if (re) {
			ok = testNames(names);
			if (!ok) {
				re = null;
				mt.textContent = "Search stopped: over " + BUDGET + " ms";
			}
		}
		pv.classList.toggle("h", !re);
		nx.classList.toggle("h", !re);
		if (!re) {
			sr.textContent = "Search";
			if (!reSrc) mt.textContent = " ";
			highlight();
			save();
			return;
		}
		for (j = 0; j < n; j++) nmatch += mark[j] = ok[nm[j]];
		highlight();
		sr.textContent = "Reset Search";
		matched();
		save();
	}
	/* Each distinct name tested once, within a time budget: the regex comes
	 * from the user or a shared URL, and many names times a slow pattern
	 * must not freeze the tab. Null when the budget ran out. */
	var BUDGET = 1000;
	function testNames(names) {
		var ok = new Uint8Array(names.length), t0 = Date.now();
		for (var j = 0; j < names.length; j++) {
			ok[j] = re.test(names[j]) ? 1 : 0;
			if ((j & 255) === 255 && Date.now() - t0 > BUDGET) return null;
		}
		return ok;
	}
	/* Browsers' regexes backtrack: (a+)+$ takes exponential time on ONE
	 * name, which no budget between names can stop. Refuse the forms that
	 * backtrack exponentially (a repeated group holding a repetition or an
	 * alternation, back-references) and more than three unbounded
	 * repetitions (polynomial of high degree). Returns why, or "". */
	function risky(src) {
		var open = [], last = null, unbounded = 0, i, c, g, m;
		for (i = 0; i < src.length; i++) {
			c = src.charAt(i);
			if (c === "\\") {
				c = src.charAt(++i);
				if (/[1-9k]/.test(c)) return "back-reference";
				last = {};
			} else if (c === "[") {
				for (i++; i < src.length && src.charAt(i) !== "]"; i++)
					if (src.charAt(i) === "\\") i++;
				last = {};
			} else if (c === "(") {
				open.push({});
				last = null;
			} else if (c === ")") {
				last = open.pop() || {};
				g = open[open.length - 1];
				if (g && (last.q || last.alt)) g.q = true;   /* it holds them too */
			} else if (c === "|") {
				if (open.length) open[open.length - 1].alt = true;
				last = null;
			} else if ("*+?{".indexOf(c) >= 0 && last) {
				m = c === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i)) : null;
				if (c === "{" && !m) {   /* a literal brace */
					last = {};
					continue;
				}
				if (last.q || last.alt) return "nested repetition";
				if (c === "*" || c === "+" || (m && m[2] && !m[3])) unbounded++;
				if (m) i += m[0].length - 1;
				if (src.charAt(i + 1) === "?") i++;
				for (g = 0; g < open.length; g++) open[g].q = true;
				last = null;
			} else {
				last = {};
			}
		}
		return unbounded > 3 ? "over three unbounded repetitions" : "";
	}
	/* weight under matched frames in [a, b); a match inside a match is
	 * already counted, so skip the subtree of every match */
	function covered(a, b) {
		var s = 0;
		for (var j = a; j < b;) {
			if (mark[j]) {
				s += wd[j];
				j = en[j];
			} else {
				j++;
			}
		}
		return s;
	}
	function matched() {
		var s = "Matched: " + pct(covered(0, n), TOTAL) + "%";
		if (Z) {
			var inside = -1;
			for (var a = Z; a >= 0; a = par[a])
				if (mark[a]) inside = wd[Z];
			if (inside < 0) inside = covered(Z, en[Z]);
			s += " (" + pct(inside, wd[Z]) + "% of zoom)";
		}
		s += cm >= 0 ? ", match " + rank(cm) + " of " + nmatch : ", " + nmatch + (nmatch === 1 ? " frame" : " frames");
		mt.textContent = s;
	}
	/* 1-based position of matched frame j among all matches, in pre-order */
	function rank(j) {
		var r = 0;
		for (var i = 0; i <= j; i++) r += mark[i];
		return r;
	}
	/* the next (step 1) or previous (-1) matched frame after the current
	 * one, in pre-order (left to right, outer first), wrapping around; it is
	 * outlined and described, and the view zooms out if it is not drawn */
	function step(dir) {
		if (!re || !nmatch) return;
		var j = cm >= 0 ? cm : dir > 0 ? -1 : n;
		do {
			j += dir;
			if (j >= n) j = 0;
			else if (j < 0) j = n - 1;
		} while (!mark[j]);
		cm = j;
		if (!visible(j)) zoom(0);
		outline();
		dt.textContent = (D.nt ? D.nt + " " : "") + describe(j);
		matched();
	}
	function askSearch() {
		if (re) {
			search("");
			return;
		}
		promptSearch();
	}
	function promptSearch() {
		var s = window.prompt("Search for (regular expression)" +
				      (icase ? ", ignoring case" : "") + ":", reSrc);
		if (s) search(s);
	}
	function showIcase() {
		ic.style.fill = icase ? "#000" : "#a0a0a0";
		ic.style.fontWeight = icase ? "bold" : "normal";
	}
	function toggleIcase() {
		icase = !icase;
		showIcase();
		if (reSrc) search(reSrc);
		else save();
	}

	/* ---- state in the URL fragment (only when the SVG is the page) ---- */
	function save() {
		if (!top) return;
		var p = [];
		if (Z) p.push("z=" + Z);
		if (reSrc) p.push("s=" + encodeURIComponent(reSrc));
		if (icase) p.push("i=1");
		try {
			var base = location.href.split("#")[0];
			if (p.length || location.hash) history.replaceState(null, "", p.length ? "#" + p.join("&") : base);
		} catch (err) { /* file: URLs in some browsers */ }
	}
	function restore() {
		if (!top || location.hash.length < 2) return;
		var kv = {}, parts = location.hash.slice(1).split("&");
		for (var j = 0; j < parts.length; j++) {
			var eq = parts[j].indexOf("=");
			if (eq < 0) continue;
			try {
				kv[parts[j].slice(0, eq)] = decodeURIComponent(parts[j].slice(eq + 1));
			} catch (err) { /* malformed escape: ignore that key */ }
		}
		if (kv.i === "1") {
			icase = true;
			showIcase();
		}
		var z = parseInt(kv.z, 10);
		if (z > 0 && z < n) zoom(z);
		if (kv.s) search(kv.s);
	}

	/* ---- events: one delegated set on the svg ---- */
	function track(e) {
		var p = pointer(e), i = p ? frameAt(p.x, p.y) : -1;
		if (i >= 0) hover(i, e);
		else unhover();
		return i;
	}
	svg.addEventListener("mouseover", track);
	svg.addEventListener("mousemove", track);
	svg.addEventListener("mouseout", function (e) {
		if (!e.relatedTarget || !svg.contains(e.relatedTarget)) unhover();
	});
	svg.addEventListener("click", function (e) {
		var t = e.target;
		if (t === rz) {
			zoom(0);
		} else if (t === sr) {
			askSearch();
		} else if (t === ic) {
			toggleIcase();
		} else if (t === pv || t === nx) {
			step(t === nx ? 1 : -1);
		} else {
			var i = track(e);
			if (i >= 0 && i !== Z) {
				zoom(i);
				track(e);
			}
		}
	});
	if (top) {
		document.addEventListener("keydown", function (e) {
			var key = (e.key || "").toLowerCase();
			if ((e.ctrlKey || e.metaKey) && key === "f") {
				e.preventDefault();
				askSearch();
			} else if ((e.ctrlKey || e.metaKey) && key === "i") {
				e.preventDefault();
				toggleIcase();
			} else if (key === "/" && !e.ctrlKey && !e.metaKey) {
				e.preventDefault();
				promptSearch();
			} else if (key === "escape") {
				if (re) search("");
				if (Z) zoom(0);
			} else if (re && (key === "arrowright" || key === "arrowdown" || key === "arrowleft" || key === "arrowup")) {
				e.preventDefault();
				step(key === "arrowright" || key === "arrowdown" ? 1 : -1);
			}
		});
	}
	restore();
}
