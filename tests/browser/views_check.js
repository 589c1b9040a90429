/* views_check.js: the page's view steps (src/render/page/transforms.js) run in
 * node, for tests/suites/page.sh. page.sh writes a program of the graph's
 * data block (var D), src/render/page/frames.js, tree.js and transforms.js, then
 * this file; it prints the stacks of one view as sorted folded lines:
 *   OP NAME     OP h (--hide), i (--include), r (--root), or callers /
 *               callees (the two halves of the sandwich of NAME)
 *   u           bottom-up (each stack reversed)
 *   cost DEPTH STEPS  whether viewCost() lets the page compute, on this
 *               graph and on a chain DEPTH deep with self weight in every
 *               frame, bottom-up, a sandwich and (on the chain) STEPS
 *               hide steps: "ok"
 *               or "refused" for each
 * Frames are decoded from D as the page does; the views are built from
 * that tree, so this checks the steps, not the drawing. */
var args = process.argv.slice(2);
function foldedOf(t, skipRoot) {
	var w = {}, i, k, p;
	for (i = 1; i < t.n; i++) {
		if (!(t.self[i] > 0)) continue;
		p = t.up(i).reverse().map(function (x) { return D.n[x]; });
		if (!skipRoot) p.unshift(D.n[t.name[0]]);
		k = p.join(";");
		w[k] = (w[k] || 0) + t.self[i];
	}
	if (!skipRoot && t.self[0] > 0) w[D.n[t.name[0]]] = (w[D.n[t.name[0]]] || 0) + t.self[0];
	return Object.keys(w).sort().map(function (k) { return k + " " + w[k]; });
}
BASE = decode();
var t = frameTree(BASE), f = D.n.indexOf(args[1]), lines;
function verdict(t, dp, v) { return viewCost(t, dp, v) > VIEW_COST ? "refused" : "ok"; }
if (args[0] === "cost") {
	var deep = new Tree(0, +args[1]), dps = new Int32Array(+args[1]), i;
	for (i = 1; i < +args[1]; i++) {
		deep.child(i - 1, 0);
		deep.self[i] = 1;
		dps[i] = i;
	}
	var steps = [];
	for (i = 0; i < +args[2]; i++) steps.push({ k: "h", f: 1 });
	lines = [["graph u", verdict(t, BASE.dp, { t: [], u: true, w: -1 })],
		 ["graph sandwich", verdict(t, BASE.dp, { t: [], u: false, w: 1 })],
		 ["chain u", verdict(deep, dps, { t: [], u: true, w: -1 })],
		 ["chain sandwich", verdict(deep, dps, { t: [], u: false, w: 0 })],
		 ["steps", verdict(deep, dps, { t: steps, u: false, w: -1 })]].map(function (x) { return x.join(" "); });
} else if (args[0] === "u") lines = foldedOf(inverted(t), true);
else if (args[0] === "callers" || args[0] === "callees") lines = foldedOf(sandwich(t, f)[args[0]], false);
else lines = foldedOf({ h: hidden, i: through, r: rerooted }[args[0]](t, f), true);
if (lines.length) console.log(lines.join("\n"));
