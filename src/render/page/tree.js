/* page/tree.js: call trees built in the page, for the views (views.js).
 *
 * A tree holds per node a name (index in D.n), a parent and a self weight,
 * in typed arrays; node 0 is the root, and a node is always made after its
 * parent, so every walk here is a loop over indices, never a recursion
 * (stacks can be thousands deep). Children are found by (parent, name) in
 * one open-addressing hash table: a few hundred thousand nodes take tens
 * of milliseconds. */

function Tree(rootName, cap) {
	this.n = 1;
	this.name = new Int32Array(cap || 64);
	this.parent = new Int32Array(cap || 64);
	this.self = new Float64Array(cap || 64);
	this.name[0] = rootName;
	this.parent[0] = -1;
	this.slots = null;   /* child node + 1, or 0 */
}
/* a (parent, name) pair's first slot: a multiplicative hash with a seed
 * drawn per page, so no input can choose colliding pairs */
var SEED = (Math.random() * 0x7fffffff) | 1;
function slotOf(p, nm, bits) {
	var h = Math.imul(p ^ SEED, 0x9e3779b1) + Math.imul(nm ^ (SEED >>> 7), 0x85ebca77);
	return Math.imul(h ^ (h >>> 16), 0x9e3779b1) >>> (32 - bits);
}
/* the child of p named nm, made if new */
Tree.prototype.child = function (p, nm) {
	if (!this.slots || 2 * (this.n + 1) > this.slots.length) this.rehash();
	var bits = this.bits, mask = this.slots.length - 1, h = slotOf(p, nm, bits), c;
	for (; (c = this.slots[h]) !== 0; h = (h + 1) & mask)
		if (this.parent[c - 1] === p && this.name[c - 1] === nm) return c - 1;
	c = this.n++;
	if (c === this.name.length) this.grow();
	this.name[c] = nm;
	this.parent[c] = p;
	this.self[c] = 0;
	this.slots[h] = c + 1;
	return c;
};
Tree.prototype.grow = function () {
	var k = this.name.length * 2, a = new Int32Array(k), b = new Int32Array(k), c = new Float64Array(k);
	a.set(this.name);
	b.set(this.parent);
	c.set(this.self);
	this.name = a;
	this.parent = b;
	this.self = c;
};
/* a table twice as large (at least four slots a node), with every node */
Tree.prototype.rehash = function () {
	var bits = 10, i, h, mask;
	while ((1 << bits) < 4 * (this.n + 1)) bits++;
	this.bits = bits;
	this.slots = new Int32Array(1 << bits);
	mask = (1 << bits) - 1;
	for (i = 1; i < this.n; i++) {
		for (h = slotOf(this.parent[i], this.name[i], bits); this.slots[h] !== 0; h = (h + 1) & mask);
		this.slots[h] = i + 1;
	}
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
	var t = this.self.slice(0, this.n);
	for (var i = this.n - 1; i > 0; i--) t[this.parent[i]] += t[i];
	return t;
};

/* The tree of the graph's own frames (D.f), made once: a frame's self
 * weight is its width less its children's. Frames too narrow to be in the
 * file count as their caller's self weight. */
var ownTree = null;
function frameTree(fs) {
	if (ownTree) return ownTree;
	var t = new Tree(fs.nm[0], fs.n), i;
	t.n = fs.n;
	t.name.set(fs.nm);
	t.parent.set(fs.par);
	t.self.set(fs.wd);
	for (i = 1; i < fs.n; i++) t.self[fs.par[i]] -= fs.wd[i];
	return (ownTree = t);
}

/* Frames for frameSet() (views.js): arrays nm, par, dp, side (Int32) and
 * st, wd (Float64) for up to cap frames, n of them used. */
function frameList(cap) {
	return { n: 0, nm: new Int32Array(cap), par: new Int32Array(cap), dp: new Int32Array(cap),
		 side: new Int32Array(cap), st: new Float64Array(cap), wd: new Float64Array(cap) };
}
/* Appends to out (a frameList) the frames of tree t below node r in
 * pre-order, the children of each node by name. With under >= 0, r is not
 * drawn again: its children hang from frame under. Subtrees lighter than
 * minW (0.1 px at full width, as the layout does) and empty ones are left
 * out. */
function emit(t, r, out, under, side, minW) {
	var tot = t.totals(), kids = childLists(t, tot, minW), N = t.n + 1;
	var ti = new Int32Array(N), td = new Int32Array(N), tp = new Int32Array(N);
	var ts = new Float64Array(N), sp = 0, i, s, d, j, k, c, x;
	ti[sp] = r;
	tp[sp++] = -1;
	while (sp) {
		i = ti[--sp];
		s = ts[sp];
		d = td[sp];
		j = under;
		if (i !== r || under < 0) {
			j = out.n++;
			out.nm[j] = t.name[i];
			out.par[j] = tp[sp];
			out.dp[j] = d;
			out.st[j] = s;
			out.wd[j] = tot[i];
			out.side[j] = side;
		}
		c = kids[i];
		if (!c) continue;
		for (x = s, k = 0; k < c.length; k++) x += tot[c[k]];
		for (k = c.length - 1; k >= 0; k--) {   /* pushed last first: they pop in order */
			x -= tot[c[k]];
			ti[sp] = c[k];
			ts[sp] = x;
			td[sp] = d + 1;
			tp[sp++] = j;
		}
	}
}
/* each node's children that are drawn, by name */
function childLists(t, tot, minW) {
	var kids = new Array(t.n), rank = nameRanks(), i, p;
	for (i = 1; i < t.n; i++) {
		if (!(tot[i] > 0 && tot[i] >= minW)) continue;
		p = t.parent[i];
		if (kids[p]) kids[p].push(i);
		else kids[p] = [i];
	}
	function byName(a, b) { return rank[t.name[a]] - rank[t.name[b]]; }
	for (i = 0; i < t.n; i++) if (kids[i] && kids[i].length > 1) kids[i].sort(byName);
	return kids;
}
/* each name's place among D.n sorted, computed once */
var ranks = null;
function nameRanks() {
	if (ranks) return ranks;
	var order = D.n.map(function (s, k) { return k; });
	order.sort(function (a, b) { return D.n[a] < D.n[b] ? -1 : D.n[a] > D.n[b] ? 1 : a - b; });
	ranks = new Int32Array(D.n.length);
	order.forEach(function (k, r) { ranks[k] = r; });
	return ranks;
}
