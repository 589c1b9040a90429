/* page/draw.js: the frames, labels, search highlights and --nameattr
 * rectangles of the current view. Frames are subpaths of one <path> per
 * colour (see frames() in render_svg.c), so drawing sets a few "d"
 * attributes; only the visible frames (Z's ancestors and subtree) are in
 * them. */

var paths = fr.getElementsByTagNameNS(NS, "path"), ng = paths.length;
var orig = [], cur = [];
for (var g0 = 0; g0 < ng; g0++) orig[g0] = cur[g0] = paths[g0].getAttribute("d");

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
function draw() {
	var parts = [], g, j, ze = en[Z];
	if (Z === 0 && FS.own) {   /* as render_svg.c drew it */
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
