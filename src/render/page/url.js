/* page/url.js: the state in the URL fragment, only when the SVG is the
 * page itself: #t=h3.i5&u=1&w=7&z=FRAME&s=REGEX&i=1 — the view's steps
 * (hide, include, re-root, each with a name's index in D.n), bottom-up,
 * the sandwiched name (views.js), the zoomed frame (in pre-order of the
 * view), the search (s= a regular expression, p= plain text) and its case
 * flag; on a flame chart, v=FROM,TO the window shown (chart.js). */

function save() {
	if (!top) return;
	var p = [], t = view.t.map(function (s) { return s.k + s.f; });
	if (t.length) p.push("t=" + t.join("."));
	if (view.u) p.push("u=1");
	if (view.w >= 0) p.push("w=" + view.w);
	if (Z) p.push("z=" + Z);
	else if (CHART && !whole()) p.push("v=" + r3(S0) + "," + r3(S0 + GW / K));   /* chart.js */
	if (qText) p.push((rx ? "s=" : "p=") + encodeURIComponent(qText));
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
	var v = savedView(kv), z = parseInt(kv.z, 10);
	if (v && !isPlain(v) && !show(v, false)) z = 0;   /* its zoom was in that view */
	if (z > 0 && z < n) zoom(z);
	var w = /^(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)$/.exec(kv.v || "");
	if (CHART && !z && w && +w[1] < +w[2]) setWindow(+w[1], +w[2]);
	if (kv.s || kv.p) {
		rx = !!kv.s;
		showRx();
		field();   /* so that the count beside it is filled */
		query(kv.s || kv.p);
		openField(false);
	}
}
/* the view in the fragment, or null if it names no valid one */
function savedView(kv) {
	var v = { t: [], u: kv.u === "1", w: -1 }, steps = kv.t ? kv.t.split(".") : [], k, m;
	if (!VIEWS) return null;
	for (k = 0; k < steps.length; k++) {
		m = /^([hir])(\d{1,9})$/.exec(steps[k]);
		if (!m || +m[2] >= D.n.length) return null;
		v.t.push({ k: m[1], f: +m[2] });
	}
	if (kv.w !== undefined) {
		if (!/^\d{1,9}$/.test(kv.w) || +kv.w >= D.n.length) return null;
		v.w = +kv.w;
	}
	return v;
}
