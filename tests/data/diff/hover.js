/* hover.js: appended (as a <script>) to a differential SVG by
 * tests/suites/diff.sh. Hovers the middle of every frame listed in
 * window.AFT_FRAMES ([depth, x, width] in SVG px, the --format frames dump)
 * and writes the details line it gets, one per line, into the document
 * between HOVER-BEGIN and HOVER-END (then AFT-END), for cdp.js. It starts
 * once the page has its frames (data-ready, the aflameready event: the
 * page unpacks them asynchronously, main.js). */
(function () {
	var svg = document.documentElement;
	if (svg.hasAttribute("data-ready")) hoverAll();
	else svg.addEventListener("aflameready", hoverAll);
	function hoverAll() {
		var NS = "http://www.w3.org/2000/svg";
		var H = svg.viewBox.baseVal.height, FS = 12, FH = 16;
		var dt = svg.getElementsByClassName("dt")[0], out = [];
		window.AFT_FRAMES.forEach(function (f) {
			var y = H - (FS * 2 + 10) - f[0] * FH - FH / 2, x = f[1] + f[2] / 2;
			var m = svg.getScreenCTM();
			svg.dispatchEvent(new MouseEvent("mousemove", {
				bubbles: true, clientX: x * m.a + m.e, clientY: y * m.d + m.f }));
			out.push(dt ? dt.textContent : "?");
		});
		var t = document.createElementNS(NS, "text");
		t.setAttribute("id", "aft-out");   /* what tests/browser/cdp.js waits for */
		t.textContent = "HOVER-" + "BEGIN\n" + out.join("\n") + "\nHOVER-" + "END\nAFT-" + "END\n";
		svg.appendChild(t);
	}
})();
