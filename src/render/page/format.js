/* page/format.js: numbers and the description of a frame, as the details
 * line and the tooltip show them. */

function r1(v) { return Math.round(v * 10) / 10; }
function group(v) {
	return String(Math.round(v)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
/* a weight as a count: fixed point with D.dc decimals, shown exactly;
 * with a factor (D.k) scaled and rounded, as flamegraph.pl does */
var DC = D.dc || 0, UNIT = Math.pow(10, DC);
function count(v) {
	if (D.k) return group(v * D.k / UNIT);
	if (!DC) return group(v);
	var s = String(v), neg = s.charAt(0) === "-";
	if (neg) s = s.slice(1);
	while (s.length <= DC) s = "0" + s;
	return (neg ? "-" : "") + group(+s.slice(0, s.length - DC)) + "." + s.slice(s.length - DC);
}
/* a time on a flame chart's axis (D.au): microseconds shown in the unit
 * their size needs, another unit as a plain number */
function when(v) {
	if (D.au !== "\u00b5s") return group(v) + " " + D.au;
	var a = Math.abs(v);
	if (a >= 1e6) return r3(v / 1e6) + " s";
	if (a >= 1e3) return r3(v / 1e3) + " ms";
	return group(v) + " \u00b5s";
}
function r3(v) { return String(Math.round(v * 1000) / 1000); }
/* a / b as a percentage with two decimals, rounded from the integers */
function pct(a, b) {
	if (!(b > 0)) return "0.00";
	var h = Math.round(a * 10000 / b), f = h % 100;
	return Math.floor(h / 100) + (f < 10 ? ".0" : ".") + f;
}
/* a signed change as a percentage of b: "+3.09", "-0.50", "0.00" */
function spct(a, b) {
	return (a > 0 ? "+" : a < 0 ? "-" : "") + pct(Math.abs(a), b);
}
function signed(v) { return (v > 0 ? "+" : "") + count(v); }
/* comparisons (--diff): both runs' inclusive weights and the change;
 * a frame coloured by its own weight also gives that change */
function compared(i) {
	var k = +D.dk.charAt(i), b = D.bf[i], a = D.af[i], u = " " + D.u, own;
	var s = D.n[nm[i]] + " (";
	if (k === 3) return s + count(b) + u + " only in the first run)";
	if (k === 2) return s + count(b) + u + " of removed calls below)";
	s += "before " + count(b) + u + ", after " + count(a) + u + ", " + signed(a - b) + u +
		", " + (b > 0 ? spct(a - b, b) + "%" : "new");
	own = D.d[i] * (D.ng ? -1 : 1);
	if (k === 1) s += "; removed";
	else if (!D.dt && own !== a - b) s += "; self " + (own ? signed(own) + u : "unchanged");
	return s + ")";
}
/* "name (N unit, P%)", with the share of the zoomed frame when zoomed */
function describe(i) {
	if (D.bf) return compared(i);
	var s = D.n[nm[i]] + " (" + count(wd[i]) + " " + D.u + ", " + pct(wd[i], TOTAL) + "%";
	if (Z && i > Z && i < en[Z])
		s += ", " + pct(wd[i], wd[Z]) + "% of zoom";
	if (D.d)
		s += "; " + spct(D.d[i], TOTAL) + "%";
	return s + ")";
}
