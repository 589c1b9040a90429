/* page/events.js: one delegated set of listeners on the svg, and the keys
 * when the SVG is the page */

/* every listener first makes sure the frames are decoded (main.js) */
function track(e) {
	ready();
	var p = pointer(e), i = p ? frameAt(p.x, p.y) : -1;
	if (p && p.x >= XP && p.x <= XP + GW) lastX = p.x;
	if (i >= 0) hover(i, e);
	else unhover();
	return i;
}
svg.addEventListener("mouseover", track);
svg.addEventListener("mousemove", track);
svg.addEventListener("mouseout", function (e) {
	ready();
	if (!e.relatedTarget || !svg.contains(e.relatedTarget)) unhover();
});
svg.addEventListener("click", function (e) {
	ready();
	var t = e.target;
	if ((sfo && sfo.contains(t)) || (tbo && tbo.contains(t))) return;   /* the field's, the table's own */
	if (menuFrame >= 0) {   /* a click closes the menu, or picks from it */
		menuClick(t);
	} else if (t === rz) {
		zoom(0);
	} else if (t === sr) {
		askSearch();
	} else if (t === ic) {
		toggleIcase();
	} else if (t === rxb) {
		toggleRx();
	} else if (t === tbBt) {
		toggleTable();
	} else if (t === pv || t === nx) {
		step(t === nx ? 1 : -1);
	} else if (VIEWS && t === backBt) {
		goBack();
	} else if (VIEWS && t === inv) {
		change("u", 0);
	} else if (dragged) {   /* the end of a drag on a chart (chart.js), not a click */
		dragged = false;
	} else {
		var i = track(e);
		if (i >= 0 && i !== Z) {
			zoom(i);
			track(e);
		}
	}
});
/* right-click on a frame: the menu of the views */
svg.addEventListener("contextmenu", function (e) {
	ready();
	var p = pointer(e), i = p && VIEWS ? frameAt(p.x, p.y) : -1;
	closeMenu();
	if (i >= 0 && openMenu(i, p)) e.preventDefault();
});
if (top) {
	document.addEventListener("keydown", function (e) {
		ready();
		var key = (e.key || "").toLowerCase();
		if ((e.ctrlKey || e.metaKey) && key === "f") {
			e.preventDefault();
			openField();
		} else if ((e.ctrlKey || e.metaKey) && key === "i") {
			e.preventDefault();
			toggleIcase();
		} else if (key === "/" && !e.ctrlKey && !e.metaKey) {
			e.preventDefault();
			openField();
		} else if (key === "escape") {   /* menu, else search and zoom, else a view */
			if (closeMenu() || closeTable()) return;
			caption();   /* a refused view's message goes (views.js) */
			if (!reSrc && !Z && VIEWS && (past.length || !isPlain(view))) goBack();
			if (reSrc || (sfo && !sfo.classList.contains("h"))) clearSearch();
			if (Z) zoom(0);
		} else if (key === "t" && !e.ctrlKey && !e.metaKey && !e.altKey) {
			toggleTable();
		} else if (!e.ctrlKey && !e.metaKey && !e.altKey && chartKey(key)) {
			e.preventDefault();
		} else if (re && (key === "arrowright" || key === "arrowdown" || key === "arrowleft" || key === "arrowup")) {
			e.preventDefault();
			step(key === "arrowright" || key === "arrowdown" ? 1 : -1);
		}
	});
}
