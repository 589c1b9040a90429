/* page/controls.js: what only the script draws: search highlights, the
 * hover outline, the tooltip, the case and regex toggles and the
 * next/previous buttons. Also makes the graph's gradient id unique in the page. */

svg.classList.add("js");
uniqueIds();
var hl = make("path", { "class": "hl", d: "" }, fr.parentNode, fr.nextSibling);
var hv = make("rect", { "class": "hv h", height: FH - 1 }, fr.parentNode, lb.nextSibling);
var tt = make("g", { "class": "tt h" }, svg);
var ttr = make("rect", { rx: 2, ry: 2, x: 0, y: 0, height: D.fs + 8 }, tt);
var ttt = make("text", { x: 4, y: D.fs + 2 }, tt);
var ic = button("bt r ic", W - XP - 13 * D.cw, "ic", "case-insensitive search (Ctrl-I)");
var rxb = button("bt r rx", W - XP - 22 * D.cw, ".*", "the search is a regular expression, else plain text");
/* next/previous match: shown while searching; the current match is outlined */
var pv = button("bt r pv h", W - XP - 19 * D.cw, "<", "previous match (left arrow)");
var nx = button("bt r nx h", W - XP - 16 * D.cw, ">", "next match (right arrow)");
var cmo = make("rect", { "class": "hv cm h", height: FH - 1 }, fr.parentNode, hv);
/* the sandwiched function's frame, outlined in its view (views.js) */
var fco = make("rect", { "class": "hv fc h", height: FH - 1, style: "stroke:#0044cc;stroke-width:2" },
	       fr.parentNode, hv);

/* a text button on the row of Search, with a tooltip */
function button(cls, x, text, title) {
	var b = make("text", { "class": cls, x: r1(x), y: sr.getAttribute("y") }, svg);
	b.textContent = text;
	make("title", {}, b).textContent = title;
	return b;
}
/* identical copies of a graph in one page would share the gradient id */
function uniqueIds() {
	var bg = svg.getElementsByTagNameNS(NS, "linearGradient")[0];
	if (!bg || document.getElementById(bg.id) === bg) return;
	var id = bg.id, k = 2;
	while (document.getElementById(id + "-" + k)) k++;
	bg.id = id + "-" + k;
	svg.getElementsByTagNameNS(NS, "rect")[0].setAttribute("fill", "url(#" + bg.id + ")");
}
