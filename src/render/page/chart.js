/* page/chart.js: moving in a flame chart (a graph with a time axis, D.au),
 * as in Perfetto UI: the wheel (or a trackpad's scroll or pinch) zooms
 * around the pointer, a horizontal scroll or a drag pans, W and S zoom in
 * and out, A and D pan. The window is any span of time (S0 and K, with Z
 * 0), kept in the URL as v=FROM,TO in weight units; the time axis is
 * redrawn for it at every change, ticks at 1, 2 or 5 times a power of ten
 * in ns, µs, ms or s as the span needs, the edge labels kept inside. */

var CHART = !!(D.au && ax);
var axPath = ax ? ax.getElementsByTagNameNS(NS, "path")[0] : null;
var axY = axPath ? +(/^M[-\d.]+ ([-\d.]+)/.exec(axPath.getAttribute("d")) || [0, 0])[1] : 0;
var axFile = ax ? Array.prototype.slice.call(ax.childNodes) : [];   /* the file's own axis */
var MIN_SPAN = 1e-3;   /* the narrowest window, in weight units (1 ns of µs) */

/* the window [a, b) in weight units, clamped to the chart */
function setWindow(a, b) {
	var span = Math.min(TOTAL, Math.max(MIN_SPAN, b - a));
	Z = 0;
	K = GW / span;
	S0 = Math.max(0, Math.min(a, TOTAL - span));
	redraw();
}
/* zoom by factor f (above 1: out) keeping the time under x (SVG units) */
function zoomAt(x, f) {
	var at = S0 + (x - XP) / K, span = GW / K * f;
	span = Math.min(TOTAL, Math.max(MIN_SPAN, span));
	setWindow(at - (x - XP) / GW * span, at - (x - XP) / GW * span + span);
}
function pan(dx) {
	setWindow(S0 - dx / K, S0 - dx / K + GW / K);
}
/* the axis for the window: the file's own when the whole chart is shown */
function timeAxis() {
	if (!CHART) return;
	ax.textContent = "";
	if (whole()) {
		axFile.forEach(function (e) { ax.appendChild(e); });
		return;
	}
	var span = GW / K, t = ticks(D.ao + S0, span), d = "M" + XP + " " + axY + "h" + GW, k, x, a;
	for (k = 0; k < t.v.length; k++) {
		x = XP + (t.v[k] - D.ao - S0) * K;
		d += "M" + r1(x) + " " + axY + "v4";
		a = x - XP < 30 ? "start" : XP + GW - x < 30 ? "end" : "middle";
		make("text", { "text-anchor": a, fill: "#505050", x: r1(x), y: r1(axY + 4 + D.fs) }, ax).textContent =
			tickText(t.v[k], t.step);
	}
	make("path", { fill: "none", stroke: "#808080", d: d }, ax, ax.firstChild);
}
/* round values in [from, from + span] about 100 px apart */
function ticks(from, span) {
	var raw = span / Math.max(1, GW / 100), p = Math.pow(10, Math.floor(Math.log10(raw))), m = raw / p;
	var step = p * (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10), v = [], i;
	var first = Math.ceil(from / step - 1e-9);
	for (i = 0; (first + i) * step <= from + span + 1e-9 * step && i < 1000; i++) v.push((first + i) * step);
	return { v: v, step: step };
}
/* a tick's label: µs in the unit the step needs, another unit as a number */
function tickText(v, step) {
	var u = D.au === "\u00b5s", scale = 1, unit = D.au, dec;
	if (u) {
		if (step >= 1e6) scale = 1e6, unit = "s";
		else if (step >= 1e3) scale = 1e3, unit = "ms";
		else if (step >= 1) unit = "\u00b5s";
		else scale = 1e-3, unit = "ns";
	}
	dec = Math.max(0, Math.ceil(-Math.log10(step / scale) - 1e-9));
	return (v / scale).toFixed(Math.min(dec, 9)) + " " + unit;
}

/* the wheel and drags, on flame charts only */
var drag = null, dragged = false;
if (CHART) {
	svg.addEventListener("wheel", function (e) {
		var p = pointer(e), m = svg.getScreenCTM();
		if (!p || p.x < XP || p.x > XP + GW || refused) return;
		e.preventDefault();
		var s = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
		withFrames(function () {   /* main.js: once the frames are there */
			if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) pan(-e.deltaX * s / (m || { a: 1 }).a);
			else zoomAt(p.x, Math.exp(e.deltaY * s * 0.002));
		});
	}, { passive: false });
	svg.addEventListener("mousedown", function (e) {
		var p = pointer(e);
		if (e.button !== 0 || !p || p.x < XP || p.x > XP + GW) return;
		drag = { x: e.clientX, moved: false };
		dragged = false;
	});
	svg.addEventListener("mousemove", function (e) {
		if (!drag || !(e.buttons & 1)) {
			drag = null;
			return;
		}
		var dx = e.clientX - drag.x, m = svg.getScreenCTM();
		if (!drag.moved && Math.abs(dx) < 4) return;
		drag.moved = dragged = true;
		drag.x = e.clientX;
		withFrames(function () { pan(dx / (m ? m.a : 1)); });
	});
	window.addEventListener("mouseup", function () { drag = null; });
}
/* W/S/A/D, when the SVG is the page (events.js) */
function chartKey(key) {
	if (!CHART || "wsad".indexOf(key) < 0 || key.length !== 1) return false;
	if (key === "w" || key === "s") zoomAt(lastX, key === "w" ? 0.8 : 1.25);
	else pan((key === "a" ? 1 : -1) * GW * 0.2);
	return true;
}
var lastX = XP + GW / 2;   /* the pointer's last x over the frames (events.js) */
