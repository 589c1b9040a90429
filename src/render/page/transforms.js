/* page/transforms.js: the steps of the views (views.js), each a new tree
 * (tree.js) from a tree, with the meanings of the command line's options
 * (docs/transforms.md, src/core/transform.c): one loop over the nodes in index
 * order, each mapped to a node of the new tree or dropped. Nothing here
 * touches the document: tests/browser/views.sh runs these in node against
 * the command line. */

/* --hide: frames named f leave the stack; their callees and their own
 * weight go to the caller */
function hidden(t, f) {
	var o = new Tree(t.name[0], t.n), map = new Int32Array(t.n), i, p;
	o.self[0] = t.self[0];
	for (i = 1; i < t.n; i++) {
		p = map[t.parent[i]];
		map[i] = t.name[i] === f ? p : o.child(p, t.name[i]);
		o.self[map[i]] += t.self[i];
	}
	return o;
}
/* --include: only the stacks with a frame named f */
function through(t, f) {
	var o = new Tree(t.name[0], t.n), map = new Int32Array(t.n), has = new Uint8Array(t.n), i, p;
	o.self[0] = t.self[0];
	for (i = 1; i < t.n; i++) {
		p = t.parent[i];
		has[i] = has[p] || t.name[i] === f ? 1 : 0;
		map[i] = o.child(map[p], t.name[i]);
		if (has[i]) o.self[map[i]] += t.self[i];
	}
	return o;
}
/* --root: each stack from its outermost frame named f; stacks without
 * one are dropped */
function rerooted(t, f) {
	var o = new Tree(t.name[0], t.n), map = new Int32Array(t.n), inside = new Uint8Array(t.n), i, p;
	o.self[0] = t.self[0];
	for (i = 1; i < t.n; i++) {
		p = t.parent[i];
		inside[i] = inside[p] || t.name[i] === f ? 1 : 0;
		if (!inside[i]) continue;
		map[i] = o.child(inside[p] ? map[p] : 0, t.name[i]);
		o.self[map[i]] += t.self[i];
	}
	return o;
}
/* bottom-up: every stack reversed, so the root's children are the leaves */
function inverted(t) {
	var o = new Tree(t.name[0], t.n);
	o.self[0] = t.self[0];
	for (var i = 1; i < t.n; i++)
		if (t.self[i]) o.add(t.up(i), t.self[i]);
	return o;
}
/* the two halves of the sandwich of f, each a tree rooted at f: callers
 * (each stack's frames from its outermost f up, weighing the stack) and
 * callees (each stack from its outermost f down) */
function sandwich(t, f) {
	var callers = new Tree(f), callees = new Tree(f), tot = t.totals();
	var map = new Int32Array(t.n), i, p;
	map[0] = -1;
	for (i = 1; i < t.n; i++) {
		p = t.parent[i];
		map[i] = -1;
		if (map[p] >= 0) {
			map[i] = callees.child(map[p], t.name[i]);
		} else if (t.name[i] === f) {
			map[i] = 0;
			callers.add(t.up(p), tot[i]);
		} else {
			continue;
		}
		callees.self[map[i]] += t.self[i];
	}
	return { callers: callers, callees: callees };
}

/* What a view costs to compute, in node visits, bounded from above
 * without computing it (issue 36, item 10: a shared link's view must not
 * freeze the tab): each step (hide, include, re-root) is a pass over a
 * tree no larger than the graph's, with a hash table of at least 1,024
 * slots; bottom-up adds each frame with self weight again with its whole
 * path (its depth); a sandwich adds each frame of its name with its path
 * of callers. t is the graph's own tree (frameTree()), dp its depths. */
var VIEW_COST = 1e7;
function viewCost(t, dp, v) {
	var c = v.t.length * Math.max(t.n, 1024), i;
	if (v.w >= 0) {
		c += t.n;
		for (i = 1; i < t.n; i++) if (t.name[i] === v.w) c += dp[i];
	} else if (v.u) {
		for (i = 1; i < t.n; i++) if (t.self[i]) c += dp[i];
	}
	return c;
}
