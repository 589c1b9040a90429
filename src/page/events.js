/* page/events.js: one delegated set of listeners on the svg, and the keys
 * when the SVG is the page */

function track(e) {
	var p = pointer(e), i = p ? frameAt(p.x, p.y) : -1;
	if (i >= 0) hover(i, e);
	else unhover();
	return i;
}
svg.addEventListener("mouseover", track);
svg.addEventListener("mousemove", track);
svg.addEventListener("mouseout", function (e) {
	if (!e.relatedTarget || !svg.contains(e.relatedTarget)) unhover();
});
svg.addEventListener("click", function (e) {
	var t = e.target;
	if (t === rz) {
		zoom(0);
	} else if (t === sr) {
		askSearch();
	} else if (t === ic) {
		toggleIcase();
	} else if (t === pv || t === nx) {
		step(t === nx ? 1 : -1);
	} else {
		var i = track(e);
		if (i >= 0 && i !== Z) {
			zoom(i);
			track(e);
		}
	}
});
if (top) {
	document.addEventListener("keydown", function (e) {
		var key = (e.key || "").toLowerCase();
		if ((e.ctrlKey || e.metaKey) && key === "f") {
			e.preventDefault();
			askSearch();
		} else if ((e.ctrlKey || e.metaKey) && key === "i") {
			e.preventDefault();
			toggleIcase();
		} else if (key === "/" && !e.ctrlKey && !e.metaKey) {
			e.preventDefault();
			promptSearch();
		} else if (key === "escape") {
			if (re) search("");
			if (Z) zoom(0);
		} else if (re && (key === "arrowright" || key === "arrowdown" || key === "arrowleft" || key === "arrowup")) {
			e.preventDefault();
			step(key === "arrowright" || key === "arrowdown" ? 1 : -1);
		}
	});
}
