/* page/hover.js: the details line (one line, as flamegraph.pl's), the
 * hover outline and the tooltip: the name, then total and self (time and
 * share), calls where the input counts them, and on flame charts the
 * start and duration (tipLines()). The tooltip is not shown while the
 * right-click menu is open, so it never covers it. */

var hovered = -1, idle = " ";   /* idle: the details line with no hover */
function hover(i, e) {
	if (i !== hovered) {
		var s = describe(i);
		hovered = i;
		dt.textContent = D.nt ? D.nt + " " + s : s;
		tip(tipLines(i));
		hv.setAttribute("x", r1(clipX(i)));
		hv.setAttribute("y", r1(yAt(i)));
		hv.setAttribute("width", r1(clipW(i)));
		hv.classList.remove("h");
	}
	tt.classList.toggle("h", menuFrame >= 0);
	moveTip(e);
}
/* the tooltip's lines, a <text> each, and its box around them */
var ttLines = [ttt];
function tip(lines) {
	var k, w = 0, t;
	for (k = ttLines.length; k < lines.length; k++)
		ttLines.push(make("text", { x: 4, y: D.fs + 2 + k * (D.fs + 3) }, tt));
	for (k = 0; k < ttLines.length; k++) {
		t = ttLines[k];
		t.textContent = k < lines.length ? lines[k] : "";
		t.style.fontWeight = k === 0 && lines.length > 1 ? "bold" : "";
		if (k < lines.length) w = Math.max(w, t.getComputedTextLength());
	}
	ttr.setAttribute("width", r1(w + 8));
	ttr.setAttribute("height", lines.length * (D.fs + 3) + 5);
}
/* a frame's own weight: its width less its callees', none when they
 * overlap in time (a flame chart's process over its threads) */
function selfOf(i) {
	var s = wd[i];
	for (var c = i + 1; c < en[i]; c = en[c]) s -= wd[c];
	return s > 0 ? s : 0;
}
function tipLines(i) {
	if (D.bf) return [compared(i)];
	var u = " " + D.u, s = selfOf(i), L = [D.n[nm[i]]];
	var t = "total " + count(wd[i]) + u + " (" + pct(wd[i], TOTAL) + "%";
	if (Z && i > Z && i < en[Z]) t += ", " + pct(wd[i], wd[Z]) + "% of zoom";
	L.push(t + ")", "self " + count(s) + u + " (" + pct(s, TOTAL) + "%)");
	if (D.cl && FS.own) L.push("calls " + group(D.cl[i]));
	if (D.au) L.push("start " + when(D.ao + st[i]) + ", duration " + when(wd[i]));
	if (D.d) L.push("change of self " + spct(D.d[i], TOTAL) + "%");
	if (view.w >= 0 && i === 0) L.push("the function sandwiched");
	return L;
}
function unhover() {
	if (hovered < 0) return;
	hovered = -1;
	dt.textContent = idle;
	tt.classList.add("h");
	hv.classList.add("h");
}
/* the tooltip beside the pointer, inside the image */
function moveTip(e) {
	var p = pointer(e);
	if (!p) return;
	var bw = +ttr.getAttribute("width"), bh = +ttr.getAttribute("height");
	var tx = p.x + 12, ty = p.y + 18;
	if (tx + bw > W) tx = Math.max(0, p.x - 12 - bw);
	if (H && ty + bh > H) ty = Math.max(0, p.y - 8 - bh);
	tt.setAttribute("transform", "translate(" + r1(tx) + "," + r1(ty) + ")");
}
