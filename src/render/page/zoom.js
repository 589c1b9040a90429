/* page/zoom.js: zoom into frame z (0 or out of range: the whole graph) */

function zoom(z) {
	if (!(z >= 0 && z < n)) z = 0;
	Z = z;
	K = GW / wd[z];
	S0 = st[z];
	redraw();
}
/* after any change of Z, S0 or K: the frames, the Reset Zoom button, a
 * flame chart's axis (chart.js), the match count, the URL */
function redraw() {
	unhover();
	draw();
	rz.classList.toggle("h", whole());
	timeAxis();
	if (re) matched();
	save();
}
/* the graph as drawn in the file: not zoomed, the whole of its width */
function whole() {
	return Z === 0 && S0 === 0 && Math.abs(K * TOTAL - GW) <= 1e-9 * GW;
}
