/* page/hover.js: the details line, the hover outline and the tooltip */

var hovered = -1, idle = " ";   /* idle: the details line with no hover */
function hover(i, e) {
	if (i !== hovered) {
		var s = describe(i);
		hovered = i;
		dt.textContent = D.nt ? D.nt + " " + s : s;
		ttt.textContent = s;
		ttr.setAttribute("width", ttt.getComputedTextLength() + 8);
		hv.setAttribute("x", r1(xOf(i)));
		hv.setAttribute("y", r1(yAt(i)));
		hv.setAttribute("width", r1(wOf(i)));
		hv.classList.remove("h");
		tt.classList.remove("h");
	}
	moveTip(e);
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
	var bw = +ttr.getAttribute("width"), bh = D.fs + 8;
	var tx = p.x + 12, ty = p.y + 18;
	if (tx + bw > W) tx = Math.max(0, p.x - 12 - bw);
	if (H && ty + bh > H) ty = Math.max(0, p.y - 8 - bh);
	tt.setAttribute("transform", "translate(" + r1(tx) + "," + r1(ty) + ")");
}
