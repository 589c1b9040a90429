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
 * A function's total counts each stack once, at its outermost frame (as
 * the sandwich does), so recursion is not counted twice. In a sandwich,
 * the table is of the function and its callees (the callers above it are
 * the same weight again). */

var tbBt = button("bt tb", XP + (VIEWS ? 24 : 12) * D.cw, "Table", "functions: self and total (T)");
var tbo = null, tbBody = null, tbHead = null, tbNote = null, tbSort = -1, tbDesc = true, tbData = null;
var TB_ROWS = 500;   /* rows shown at most: more cost layout, not insight */

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
		self[f] += wd[j];
		if (par[j] > 0) self[nm[par[j]]] -= wd[j];
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
		cols[3][1] = cols[4][1] = T.af.map(function (a, f) { return a - T.bf[f]; });
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
	return true;
}
function toggleTable() {
	if (!closeTable()) openTable();
}
function makeTable() {
	var y = Math.min(yOf(0), yOf(nrows - 1)), h = Math.abs(yOf(nrows - 1) - yOf(0)) + FH, box, t;
	h = Math.max(h, 8 * FH);
	y = Math.max(0, Math.min(y, H - h));
	tbo = make("foreignObject", { "class": "tbl h", x: XP, y: r1(y), width: GW, height: r1(h) }, svg);
	box = tbo.appendChild(document.createElementNS(XH, "div"));
	box.style.cssText = "width:" + GW + "px;height:" + r1(h) + "px;overflow:auto;background:#fff;" +
		"border:1px solid #808080;box-sizing:border-box;font:" + D.fs + "px sans-serif";
	tbNote = box.appendChild(document.createElementNS(XH, "div"));
	tbNote.style.cssText = "padding:2px 4px;color:#505050";
	/* one style sheet rather than a style per cell: 500 rows of inline
	 * styles cost their parsing; its rules scoped by the graph's class */
	var p = "." + D.id + " .tbl ", css = box.appendChild(document.createElementNS(XH, "style"));
	css.textContent = p + "table{border-collapse:collapse;width:100%}" +
		p + "th{position:sticky;top:0;background:#eee;cursor:pointer;padding:2px 6px;text-align:right}" +
		p + "td{padding:1px 6px;white-space:nowrap;text-align:right}" +
		p + "tr{cursor:pointer;border-top:1px solid #eee}" + p + "tbody tr:hover{background:#ffffe8}" +
		p + "th:first-child{text-align:left}" +
		p + "td:first-child{text-align:left;max-width:" + r1(GW * 0.55) + "px;overflow:hidden;text-overflow:ellipsis}" +
		p + "td.sw{color:#0044cc;text-decoration:underline}";
	t = box.appendChild(document.createElementNS(XH, "table"));
	tbHead = t.appendChild(document.createElementNS(XH, "thead"));
	tbBody = t.appendChild(document.createElementNS(XH, "tbody"));
	tbo.addEventListener("click", tableClick);
}
/* the rows the search lets through, sorted, TB_ROWS at most */
function fillTable() {
	if (!tbData) tbData = tableData();
	var cols = columns(), rows = tbData.rows, key, i, f, tr, td, c, shown;
	if (tbSort < 0 || tbSort >= cols.length) tbSort = D.bf ? 2 : 3;   /* After, Total */
	key = cols[tbSort][1];
	if (re) {
		var ok = testNames(D.n) || new Uint8Array(D.n.length);
		rows = rows.filter(function (f) { return ok[f]; });
	}
	rows = rows.slice().sort(function (a, b) {
		var d = key ? key[a] - key[b] : D.n[a] < D.n[b] ? -1 : D.n[a] > D.n[b] ? 1 : 0;
		return (tbDesc ? -d : d) || a - b;
	});
	shown = rows.slice(0, TB_ROWS);
	tbHead.textContent = "";
	tr = tbHead.appendChild(document.createElementNS(XH, "tr"));
	cols.forEach(function (col, k) {
		var th = tr.appendChild(document.createElementNS(XH, "th"));
		th.textContent = col[0] + (k === tbSort ? (tbDesc ? " \u25bc" : " \u25b2") : "");
		th.setAttribute("data-col", k);
	});
	if (VIEWS) tr.appendChild(document.createElementNS(XH, "th"));
	tbBody.textContent = "";
	for (i = 0; i < shown.length; i++) {
		f = shown[i];
		tr = tbBody.appendChild(document.createElementNS(XH, "tr"));
		tr.setAttribute("data-f", f);
		for (c = 0; c < cols.length; c++) {
			td = tr.appendChild(document.createElementNS(XH, "td"));
			td.textContent = cols[c][2](f);
			if (!c) td.title = D.n[f];
		}
		if (VIEWS) {
			td = tr.appendChild(document.createElementNS(XH, "td"));
			td.textContent = "Sandwich";
			td.className = "sw";
		}
	}
	tbNote.textContent = rows.length + (rows.length === 1 ? " function" : " functions") +
		(re ? " matching the search" : "") + (rows.length > shown.length ? ", the first " + shown.length + " shown" : "") +
		". Click a heading to sort, a row to highlight its frames.";
}
/* a click in the table: a heading sorts, a row highlights or sandwiches */
function tableClick(e) {
	var t = e.target, th = t.closest("th"), tr = t.closest("tr"), f;
	if (th) {
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
