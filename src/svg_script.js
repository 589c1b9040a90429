/* svg_script.js: the interactive part of aflame-render's SVG (hover details
 * and tooltip, click to zoom, regex search, state in the URL fragment).
 *
 * render_svg.c embeds this text as the body of
 *     (function(){"use strict"; var D = {...}; <this file> })();
 * so nothing here is global. D holds: id (the graph's class, also the prefix
 * of its ids), w (image width), xp (side margin), fs (font size), cw (estimated
 * character advance, px), fh (frame height), u (count unit), n (distinct frame
 * names) and f (four integers per frame, see data() in render_svg.c).
 *
 * The script finds its own <svg> through document.currentScript, so several
 * graphs inlined in one HTML page work independently. Frame i is child i of
 * the <g class="fr">. A zoom touches only the zoomed subtree, the frames that
 * were visible before and the ancestors; nothing walks all frames' elements.
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
	function make(tag, attrs, parent) {
		var e = document.createElementNS(NS, tag);
		for (var k in attrs) e.setAttribute(k, attrs[k]);
		if (parent) parent.appendChild(e);
		return e;
	}
	var fr = find("fr"), lb = find("lb"), rz = find("rz"), sr = find("sr");
	var dt = find("dt"), mt = find("mt");
	var F = D.f, n = F.length / 4;
	if (!fr || !lb || fr.children.length !== n || n < 1) return;

	/* ---- frames: decode the data block ---- */
	var nm = new Int32Array(n), dp = new Int32Array(n), par = new Int32Array(n);
	var en = new Int32Array(n), st = new Float64Array(n), wd = new Float64Array(n);
	var next = [], path = [], i, j, d;
	for (i = 0; i < n; i++) {
		nm[i] = F[4 * i];
		wd[i] = F[4 * i + 2];
		d = i ? dp[i - 1] + 1 - F[4 * i + 3] : 0;
		dp[i] = d;
		st[i] = (i === 0 ? 0 : d === dp[i - 1] + 1 ? st[i - 1] : next[d]) + F[4 * i + 1];
		next[d] = st[i] + wd[i];
		if (i)
			for (j = dp[i - 1]; j >= d; j--) en[path[j]] = i;
		path[d] = i;
		par[i] = d ? path[d - 1] : -1;
	}
	for (j = dp[n - 1]; j >= 0; j--) en[path[j]] = n;

	var W = D.w, XP = D.xp, GW = W - 2 * XP, TOTAL = wd[0];
	var H = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.height : 0;
	var R = new Array(n), kid = fr.firstElementChild;
	var cx = new Float64Array(n), cw = new Float64Array(n), hid = new Uint8Array(n);
	var k0 = TOTAL > 0 ? GW / TOTAL : 0;
	for (i = 0; i < n; i++, kid = kid.nextElementSibling) {
		R[i] = kid;
		kid._afi = i;
		cx[i] = r1(XP + st[i] * k0);
		cw[i] = r1(wd[i] * k0);
	}
	var Z = 0, re = null, reSrc = "", icase = false;
	var mark = new Uint8Array(n), top = document.documentElement === svg;

	svg.classList.add("js");
	uniqueIds();

	/* tooltip and case toggle exist only with script */
	var tt = make("g", { "class": "tt h" }, svg);
	var ttr = make("rect", { rx: 2, ry: 2, x: 0, y: 0, height: D.fs + 8 }, tt);
	var ttt = make("text", { x: 4, y: D.fs + 2 }, tt);
	var ic = make("text", { "class": "bt r ic", x: r1(W - XP - 13 * D.cw), y: sr.getAttribute("y") }, svg);
	ic.textContent = "ic";
	make("title", {}, ic).textContent = "case-insensitive search (Ctrl-I)";
	showIcase();

	/* ---- formatting ---- */
	function r1(v) { return Math.round(v * 10) / 10; }
	function group(v) {
		return String(Math.round(v)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
	}
	/* a / b as a percentage with two decimals, rounded from the integers */
	function pct(a, b) {
		if (!(b > 0)) return "0.00";
		var h = Math.round(a * 10000 / b), f = h % 100;
		return Math.floor(h / 100) + (f < 10 ? ".0" : ".") + f;
	}
	function describe(i) {
		var s = D.n[nm[i]] + " (" + group(wd[i]) + " " + D.u + ", " + pct(wd[i], TOTAL) + "%";
		if (Z && i > Z && i < en[Z])
			s += ", " + pct(wd[i], wd[Z]) + "% of zoom";
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

	/* ---- hover ---- */
	var tipOn = false;
	function hover(i, e) {
		var s = describe(i);
		dt.textContent = s;
		ttt.textContent = s;
		ttr.setAttribute("width", ttt.getComputedTextLength() + 8);
		tt.classList.remove("h");
		tipOn = true;
		moveTip(e);
	}
	function unhover() {
		dt.textContent = " ";
		tt.classList.add("h");
		tipOn = false;
	}
	function moveTip(e) {
		var m = svg.getScreenCTM();
		if (!m) return;
		var x = (e.clientX - m.e) / m.a, y = (e.clientY - m.f) / m.d;
		var bw = +ttr.getAttribute("width"), bh = D.fs + 8;
		var tx = x + 12, ty = y + 18;
		if (tx + bw > W) tx = Math.max(0, x - 12 - bw);
		if (H && ty + bh > H) ty = Math.max(0, y - 8 - bh);
		tt.setAttribute("transform", "translate(" + r1(tx) + "," + r1(ty) + ")");
	}

	/* ---- zoom ---- */
	function hide(j) {
		if (!hid[j]) {
			hid[j] = 1;
			R[j].style.display = "none";
		}
	}
	function place(j, x, w) {
		if (hid[j]) {
			hid[j] = 0;
			R[j].style.display = "";
		}
		x = r1(x);
		w = r1(w);
		if (x !== cx[j]) R[j].setAttribute("x", cx[j] = x);
		if (w !== cw[j]) R[j].setAttribute("width", cw[j] = w);
	}
	/* a is z or one of its ancestors */
	function holds(a, z) { return a <= z && z < en[a]; }

	function zoom(z) {
		if (!(z >= 0 && z < n)) z = 0;
		var old = Z, ze = en[z], a, j, k;
		for (a = par[old]; a >= 0; a = par[a])
			if (!holds(a, z) && !(a >= z && a < ze)) hide(a);
		for (j = old; j < en[old];) {
			if (j >= z && j < ze) {
				j = ze;
			} else if (holds(j, z)) {
				j++;
			} else {
				for (k = j; k < en[j]; k++) hide(k);
				j = en[j];
			}
		}
		Z = z;
		for (a = par[z]; a >= 0; a = par[a]) place(a, XP, GW);
		k = GW / wd[z];
		var x0 = st[z];
		for (j = z; j < ze; j++) place(j, XP + (st[j] - x0) * k, wd[j] * k);
		if (z) rz.classList.remove("h");
		else rz.classList.add("h");
		labels(k);
		if (re) matched();
		save();
	}

	function labels(k) {
		var frag = document.createDocumentFragment(), ze = en[Z], j, a, w;
		var minW = 3 * D.cw + 6, dy = (D.fh - 1) / 2 + D.fs / 4;
		function label(j, x, w) {
			var chars = Math.floor((w - 6) / D.cw), s = D.n[nm[j]];
			if (s.length > chars) {
				var cps = Array.from(s);
				if (cps.length > chars) s = cps.slice(0, chars - 2).join("") + "..";
			}
			var t = make("text", { x: r1(x + 3), y: r1(parseFloat(R[j].getAttribute("y")) + dy) }, frag);
			t.textContent = s;
		}
		for (a = par[Z]; a >= 0; a = par[a])
			if (GW >= minW) label(a, XP, GW);
		for (j = Z; j < ze;) {
			w = wd[j] * k;
			if (!(w >= minW)) {
				j = en[j];
				continue;
			}
			label(j, XP + (st[j] - st[Z]) * k, w);
			j++;
		}
		lb.textContent = "";
		lb.appendChild(frag);
	}

	/* ---- search ---- */
	function search(src) {
		var j, names = D.n, ok;
		for (j = 0; j < n; j++)
			if (mark[j]) {
				mark[j] = 0;
				R[j].classList.remove("m");
			}
		re = null;
		reSrc = src || "";
		if (reSrc) {
			try {
				re = new RegExp(reSrc, icase ? "i" : "");
			} catch (err) {
				mt.textContent = "Bad regex: " + reSrc;
			}
		}
		if (!re) {
			sr.textContent = "Search";
			if (!reSrc) mt.textContent = " ";
			save();
			return;
		}
		ok = new Uint8Array(names.length);
		for (j = 0; j < names.length; j++) ok[j] = re.test(names[j]) ? 1 : 0;
		for (j = 0; j < n; j++)
			if (ok[nm[j]]) {
				mark[j] = 1;
				R[j].classList.add("m");
			}
		sr.textContent = "Reset Search";
		matched();
		save();
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
		mt.textContent = s;
	}
	function askSearch() {
		if (re) {
			search("");
			return;
		}
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
	svg.addEventListener("mouseover", function (e) {
		var i = e.target._afi;
		if (i !== undefined) hover(i, e);
	});
	svg.addEventListener("mouseout", function (e) {
		if (e.target._afi !== undefined) unhover();
	});
	svg.addEventListener("mousemove", function (e) {
		if (tipOn) moveTip(e);
	});
	svg.addEventListener("click", function (e) {
		var t = e.target, i = t._afi;
		if (i !== undefined) {
			if (i !== Z) zoom(i);
			if (tipOn) hover(i, e);
		} else if (t === rz) {
			zoom(0);
		} else if (t === sr) {
			askSearch();
		} else if (t === ic) {
			toggleIcase();
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
			} else if (key === "escape" && re) {
				search("");
			}
		});
	}
	restore();
}
