/* page/tree.js: call trees built in the page, for the views (views.js).
 *
 * A tree holds per node a name (index in D.n), a parent and a self weight;
 * node 0 is the root, and a node is always made after its parent, so index
 * order is a pre-order of sorts: every walk here is a loop over indices,
 * never a recursion (stacks can be thousands deep). Children are found by
 * (parent, name) in one Map. */

function Tree(rootName) {
	this.name = [rootName];
	this.parent = [-1];
	this.self = [0];
	this.kids = new Map();
}
/* the child of p named nm, made if new */
Tree.prototype.child = function (p, nm) {
	var key = p * D.n.length + nm, c = this.kids.get(key);
	if (c === undefined) {
		c = this.name.length;
		this.name.push(nm);
		this.parent.push(p);
		this.self.push(0);
		this.kids.set(key, c);
	}
	return c;
};
/* the names from node i up to (not including) the root, i first */
Tree.prototype.up = function (i) {
	var s = [];
	for (; i > 0; i = this.parent[i]) s.push(this.name[i]);
	return s;
};
/* a path of names below the root with weight w */
Tree.prototype.add = function (names, w) {
	var p = 0;
	for (var k = 0; k < names.length; k++) p = this.child(p, names[k]);
	this.self[p] += w;
};
/* inclusive weight of every node */
Tree.prototype.totals = function () {
	var t = this.self.slice();
	for (var i = t.length - 1; i > 0; i--) t[this.parent[i]] += t[i];
	return t;
};

/* The tree of the graph's own frames (D.f): a frame's self weight is its
 * width less its children's. Frames too narrow to be in the file count
 * as their caller's self weight. */
function frameTree(fs) {
	var t = new Tree(fs.nm[0]), i;
	t.name = Array.from(fs.nm);
	t.parent = Array.from(fs.par);
	t.self = Array.from(fs.wd);
	for (i = 1; i < fs.n; i++) t.self[fs.par[i]] -= fs.wd[i];
	for (i = 1; i < fs.n; i++) t.kids.set(fs.par[i] * D.n.length + fs.nm[i], i);
	return t;
}

/* Appends to out (arrays nm, par, dp, st, wd, side) the frames of tree t
 * below node r in pre-order, the children of each node by name. With
 * under >= 0, r is not drawn again: its children hang from frame under.
 * Subtrees lighter than minW (0.1 px at full width, as the layout does)
 * and empty ones are left out. */
function emit(t, r, out, under, side, minW) {
	var tot = t.totals(), kids = childLists(t, tot, minW);
	var todo = [{ i: r, s: 0, d: 0, p: -1 }];
	while (todo.length) {
		var e = todo.pop(), c = kids[e.i], j = under, x = e.s, xs = [], k;
		if (e.i !== r || under < 0) {
			j = out.nm.length;
			out.nm.push(t.name[e.i]);
			out.par.push(e.p);
			out.dp.push(e.d);
			out.st.push(e.s);
			out.wd.push(tot[e.i]);
			out.side.push(side);
		}
		if (!c) continue;
		for (k = 0; k < c.length; k++) {
			xs.push(x);
			x += tot[c[k]];
		}
		for (k = c.length - 1; k >= 0; k--) todo.push({ i: c[k], s: xs[k], d: e.d + 1, p: j });
	}
}
/* each node's children that are drawn, by name */
function childLists(t, tot, minW) {
	var kids = [], i, p;
	for (i = 1; i < t.name.length; i++) {
		if (!(tot[i] > 0 && tot[i] >= minW)) continue;
		p = t.parent[i];
		(kids[p] || (kids[p] = [])).push(i);
	}
	function byName(a, b) {
		var x = D.n[t.name[a]], y = D.n[t.name[b]];
		return x < y ? -1 : x > y ? 1 : 0;
	}
	for (i = 0; i < kids.length; i++) if (kids[i]) kids[i].sort(byName);
	return kids;
}
