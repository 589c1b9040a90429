/* views_check.js: the page's view steps (src/render/page/transforms.js) run in
 * node, for tests/suites/page.sh. page.sh writes a program of the graph's
 * data block (var D), src/render/page/frames.js, tree.js and transforms.js, then
 * this file; it prints the stacks of one view as sorted folded lines:
 *   OP NAME     OP h (--hide), i (--include), r (--root), or callers /
 *               callees (the two halves of the sandwich of NAME)
 *   u           bottom-up (each stack reversed)
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
if (args[0] === "u") lines = foldedOf(inverted(t), true);
else if (args[0] === "callers" || args[0] === "callees") lines = foldedOf(sandwich(t, f)[args[0]], false);
else lines = foldedOf({ h: hidden, i: through, r: rerooted }[args[0]](t, f), true);
if (lines.length) console.log(lines.join("\n"));
