/* page/table.js: the function table, as speedscope's and Android Studio's
 * (issue 34, item 3): every function of the current view with its self
 * and total weight and their shares, calls where the input counts them;
 * comparisons (--diff) give each function's total before and after and
 * the change, differential graphs the change of its self weight too.
 * Opened by Table or the T key, over the frames, in an HTML <table> in a
 * <foreignObject>; sorted by any column (click its heading, again to
 * reverse); only the functions the search matches while one is on
 * (filtered() from search.js); a row's name highlights its frames (a
 * search for exactly it) and, where the graph has views, its Sandwich
 * link opens its sandwich. Names reach it as text nodes only.
 * Every function is listed, however many: only the rows in sight (and a
 * few around them) are elements, the rest two spacer rows of their height,
 * redrawn as the box scrolls (tens of elements, not one per function).
 * A function's total counts each stack once, at its outermost frame (as
 * the sandwich does), so recursion is not counted twice. In a sandwich,
 * the table is of the function and its callees (the callers above it are
 * the same weight again). */

var tbBt = button("bt tb", XP + (VIEWS ? 24 : 12) * D.cw, "Table", "functions: self and total (T)");
var tbo = null, tbBox = null, tbBody = null, tbHead = null, tbCols = null, tbNote = null;
var tbSort = -1, tbDesc = true, tbData = null;
/* the rows listed (names, sorted), the columns, the height of a row in
 * CSS pixels (measured once) and the first and last row made */
var tbRows = [], tbC = null, tbRH = 0, tbFirst = 0, tbLast = 0;

/* per name: self, total (outermost frames), calls, before, after, change */
function tableData() {
	var N = D.n.length, self = new Float64Array(N), tot = new Float64Array(N), inside = new Int32Array(N);
	var cl = D.cl && FS.own ? new Float64Array(N) : null, cmp = !!D.bf, dd = D.d && FS.own;
	var bf = cmp ? new Float64Array(N) : null, af = cmp ? new Float64Array(N) : null;
	var ch = dd ? new Float64Array(N) : null, seen = new Uint8Array(N), stack = [], j, f;
	var side = view.w >= 0 ? FS.side : null;   /* a sandwich: its function and callees */
	for (j = side ? 0 : 1; j < n; j++) {
		if (side && j && side[j] > 0) continue;
		while (stack.length && en[stack[stack.length - 1]] <= j) inside[nm[stack.pop()]]--;
		f = nm[j];
		seen[f] = 1;
		/* a sandwich's frames less their callees in it; else each
		 * frame's own weight (selfOf: none under overlapping threads) */
		self[f] += side ? wd[j] : selfOf(j);
		if (side && par[j] > 0) self[nm[par[j]]] -= wd[j];
		if (!inside[f]) {
			tot[f] += wd[j];
			if (cmp) {
				bf[f] += D.bf[j];
				af[f] += D.af[j];
			}
		}
		if (cl) cl[f] += D.cl[j];
		if (dd) ch[f] += D.d[j];
		inside[f]++;
		stack.push(j);
	}
	var rows = [];
	for (f = 0; f < N; f++) if (seen[f]) rows.push(f);
	return { rows: rows, self: self, tot: tot, cl: cl, bf: bf, af: af, ch: ch };
}
/* the columns: heading, value of name f, its text */
function columns() {
	var u = " " + D.u, T = tbData, cols = [["Function", null, function (f) { return D.n[f]; }]];
	if (D.bf) {
		cols.push(["Before", T.bf, function (f) { return count(T.bf[f]) + u; }],
			  ["After", T.af, function (f) { return count(T.af[f]) + u; }],
			  ["Change", null, function (f) { return signed(T.af[f] - T.bf[f]) + u; }],
			  ["Change %", null, function (f) { return T.bf[f] > 0 ? spct(T.af[f] - T.bf[f], T.bf[f]) + "%" : "new"; }]);
		cols[3][1] = T.af.map(function (a, f) { return a - T.bf[f]; });
		cols[4][1] = T.af.map(function (a, f) { return T.bf[f] > 0 ? (a - T.bf[f]) / T.bf[f] : Infinity; });
		return cols;
	}
	cols.push(["Self", T.self, function (f) { return count(T.self[f]) + u; }],
		  ["Self %", T.self, function (f) { return pct(T.self[f], TOTAL) + "%"; }],
		  ["Total", T.tot, function (f) { return count(T.tot[f]) + u; }],
		  ["Total %", T.tot, function (f) { return pct(T.tot[f], TOTAL) + "%"; }]);
	if (T.cl) cols.push(["Calls", T.cl, function (f) { return group(T.cl[f]); }]);
	if (T.ch) cols.push(["Self change", T.ch, function (f) { return spct(T.ch[f], TOTAL) + "%"; }]);
	return cols;
}
/* the table made (once) and filled for the current frame set */
function openTable() {
	if (!tbo) makeTable();
	tbo.classList.remove("h");
	fillTable();
	lit(tbBt, true);
}
function closeTable() {
	if (!tbo || tbo.classList.contains("h")) return false;
	tbo.classList.add("h");
	lit(tbBt, false);
	imageHeight(H);
	return true;
}
/* The table over the frames' rows in sight, as high as they are but
 * within the window, 20 rows at least: the image grows for it while it
 * is open (a graph of three rows had a table of eight over its titles) */
function placeTable() {
	var top = Math.min(yOf(0), yOf(nrows - 1)), bottom = Math.max(yOf(0), yOf(nrows - 1)) + FH;
	var m = svg.getScreenCTM(), a = m && m.a > 0 ? m.a : 1, seen = m ? -m.f / a : 0;
	var h = Math.max(20 * FH, Math.min(bottom - top, window.innerHeight / a - 2 * FH));
	var y = Math.max(top, Math.min(seen + FH, bottom - h));
	tbo.setAttribute("y", r1(y));
	tbo.setAttribute("height", r1(h));
	tbo.firstChild.style.height = r1(h) + "px";
	imageHeight(Math.max(H, y + h + 4));
}
function imageHeight(h) {
	if (!H || +svg.getAttribute("height") === r1(h)) return;
	svg.setAttribute("height", r1(h));
	svg.setAttribute("viewBox", "0 0 " + W + " " + r1(h));
}
function toggleTable() {
	if (!closeTable()) openTable();
}
/* the note on top, and under it the box that scrolls: the headings stay
 * (sticky), the rows move */
function makeTable() {
	var box, t;
	tbo = make("foreignObject", { "class": "tbl h", x: XP, y: 0, width: GW, height: 0 }, svg);
	box = tbo.appendChild(document.createElementNS(XH, "div"));
	box.style.cssText = "width:" + GW + "px;display:flex;flex-direction:column;" +
		"background:#fff;border:1px solid #808080;box-sizing:border-box;font:" + D.fs + "px sans-serif";
	tbNote = box.appendChild(document.createElementNS(XH, "div"));
	tbNote.style.cssText = "padding:2px 4px;color:#505050;white-space:nowrap;overflow:hidden;text-overflow:ellipsis";
	/* one style sheet rather than a style per cell, its rules scoped by
	 * the graph's class; fixed layout: the rows in sight change as the
	 * box scrolls, the columns must not */
	var p = "." + D.id + " .tbl ", css = box.appendChild(document.createElementNS(XH, "style"));
	css.textContent = p + "table{border-collapse:collapse;width:100%;table-layout:fixed}" +
		p + "th{position:sticky;top:0;background:#eee;cursor:pointer;padding:2px 6px;text-align:right;" +
		"white-space:nowrap;overflow:hidden}" +
		p + "td{padding:1px 6px;white-space:nowrap;text-align:right;overflow:hidden;text-overflow:ellipsis;" +
		"border-top:1px solid #eee}" +
		p + "tr{cursor:pointer}" + p + "tbody tr:hover{background:#ffffe8}" +
		p + "th:first-child,." + D.id + " .tbl td:first-child{text-align:left}" +
		p + "td.sw{color:#0044cc;text-decoration:underline}" + p + "tr.pad td{border:0;padding:0}";
	tbBox = box.appendChild(document.createElementNS(XH, "div"));
	tbBox.style.cssText = "flex:1;overflow:auto;min-height:0";
	t = tbBox.appendChild(document.createElementNS(XH, "table"));
	tbCols = t.appendChild(document.createElementNS(XH, "colgroup"));
	tbHead = t.appendChild(document.createElementNS(XH, "thead"));
	tbBody = t.appendChild(document.createElementNS(XH, "tbody"));
	tbo.addEventListener("click", tableClick);
	tbBox.addEventListener("scroll", function () { rowsInSight(false); });
}
/* the rows the search lets through, sorted; the headings and the
 * columns' widths; the rows in sight from the top */
function fillTable() {
	if (!tbData) tbData = tableData();
	var cols = tbC = columns(), rows = tbData.rows, key, tr;
	placeTable();
	if (tbSort < 0 || tbSort >= cols.length) tbSort = D.bf ? 2 : 3;   /* After, Total */
	key = cols[tbSort][1];
	if (re) {
		var ok = testNames(D.n) || new Uint8Array(D.n.length);
		rows = rows.filter(function (f) { return ok[f]; });
	}
	tbRows = rows.slice().sort(function (a, b) {
		var d = key ? key[a] - key[b] : D.n[a] < D.n[b] ? -1 : D.n[a] > D.n[b] ? 1 : 0;
		return (tbDesc ? -d : d) || a - b;
	});
	widths(cols, tbRows);
	tbHead.textContent = "";
	tr = tbHead.appendChild(document.createElementNS(XH, "tr"));
	cols.forEach(function (col, k) {
		var th = tr.appendChild(document.createElementNS(XH, "th"));
		th.textContent = col[0] + (k === tbSort ? (tbDesc ? " \u25bc" : " \u25b2") : "");
		th.setAttribute("data-col", k);
	});
	if (VIEWS) tr.appendChild(document.createElementNS(XH, "th"));
	tbNote.textContent = group(tbRows.length) + (tbRows.length === 1 ? " function" : " functions") +
		(re ? " matching the search" : "") + ". Click a heading to sort, a row to highlight its frames.";
	tbBox.scrollTop = 0;
	rowsInSight(true);
}
/* each column as wide as its heading and its longest value (of the
 * largest and smallest values: numbers grow with their size), the name
 * the rest */
function widths(cols, rows) {
	var k, len, f, ends, i, c;
	tbCols.textContent = "";
	for (k = 0; k < cols.length + (VIEWS ? 1 : 0); k++) {
		c = tbCols.appendChild(document.createElementNS(XH, "col"));
		if (!k) continue;
		len = k < cols.length ? cols[k][0].length + 2 : 8;
		ends = k < cols.length && cols[k][1] ? extremes(cols[k][1], rows) : [];
		for (i = 0; i < ends.length; i++) len = Math.max(len, cols[k][2](ends[i]).length);
		if (k < cols.length && !cols[k][1]) for (i = 0; i < rows.length && i < 50; i++) {
			f = rows[i];
			len = Math.max(len, cols[k][2](f).length);
		}
		c.style.width = r1(len * D.cw + 14) + "px";
	}
}
/* the rows of the largest and the smallest value of key */
function extremes(key, rows) {
	var lo = -1, hi = -1;
	for (var i = 0; i < rows.length; i++) {
		if (lo < 0 || key[rows[i]] < key[lo]) lo = rows[i];
		if (hi < 0 || key[rows[i]] > key[hi]) hi = rows[i];
	}
	return lo < 0 ? [] : [lo, hi];
}
/* The rows in sight, and ten on either side, as elements; the others as
 * the heights of two spacers. Unchanged rows are kept unless all is
 * set. A row's height is measured on the first rows made. */
function rowsInSight(all) {
	var N = tbRows.length, rh = tbRH || D.fs + 6, top = tbBox.scrollTop - tbHead.offsetHeight;
	var a = Math.max(0, Math.floor(top / rh) - 10), b, i;
	b = Math.min(N, a + Math.ceil(tbBox.clientHeight / rh) + 20);
	if (!all && a === tbFirst && b === tbLast) return;
	tbFirst = a;
	tbLast = b;
	tbBody.textContent = "";
	spacer(a * rh);
	for (i = a; i < b; i++) tableRow(tbRows[i]);
	spacer((N - b) * rh);
	if (!tbRH && b - a > 1) measure(b - a);
}
/* a row's height: the rows made, first to last, over their number (a
 * row's offsetHeight is rounded; their sum over a page is not) */
function measure(m) {
	var rs = tbBody.querySelectorAll("tr[data-f]"), r0 = rs[0], r1 = rs[rs.length - 1];
	var h = (r1.offsetTop + r1.offsetHeight - r0.offsetTop) / m;
	if (!(h > 0)) return;
	tbRH = h;
	rowsInSight(true);
}
function spacer(h) {
	if (!(h > 0)) return;
	var tr = tbBody.appendChild(document.createElementNS(XH, "tr")), td;
	tr.className = "pad";
	td = tr.appendChild(document.createElementNS(XH, "td"));
	td.setAttribute("colspan", tbC.length + (VIEWS ? 1 : 0));
	td.style.height = h + "px";
}
function tableRow(f) {
	var tr = tbBody.appendChild(document.createElementNS(XH, "tr")), td, c;
	tr.setAttribute("data-f", f);
	for (c = 0; c < tbC.length; c++) {
		td = tr.appendChild(document.createElementNS(XH, "td"));
		td.textContent = tbC[c][2](f);
		if (!c) td.title = D.n[f];
	}
	if (VIEWS) {
		td = tr.appendChild(document.createElementNS(XH, "td"));
		td.textContent = "Sandwich";
		td.className = "sw";
	}
}
/* a click in the table: a heading sorts, a row highlights or sandwiches */
function tableClick(e) {
	var t = e.target, th = t.closest("th"), tr = t.closest("tr"), f;
	if (th) {   /* the Sandwich column's blank heading sorts nothing */
		if (!th.hasAttribute("data-col")) return;
		var k = +th.getAttribute("data-col");
		tbDesc = k === tbSort ? !tbDesc : k > 0;
		tbSort = k;
		fillTable();
		return;
	}
	if (!tr || !tr.hasAttribute("data-f")) return;
	f = +tr.getAttribute("data-f");
	closeTable();
	if (t.className === "sw") {
		sandwichOf(f);
		return;
	}
	rx = true;
	showRx();
	query("^" + D.n[f].replace(/[\\^$.*+?()[\]{}|\/]/g, "\\$&") + "$");
	openField(false);
}
/* the table follows the search while it is open */
function filtered() {
	if (tbo && !tbo.classList.contains("h")) fillTable();
}
