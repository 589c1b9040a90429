/* page/events.js: one delegated set of listeners on the svg, and the keys
 * when the SVG is the page */

/* every listener acts through withFrames() or withFramesHover() (main.js): at once
 * when the frames are decoded, else once they are, in order */
function track(e) {
	var p = pointer(e), i = p ? frameAt(p.x, p.y) : -1;
	if (p && p.x >= XP && p.x <= XP + GW) lastX = p.x;
	if (i >= 0) hover(i, e);
	else unhover();
	return i;
}
function onHover(e) {
	withFramesHover(function () { track(e); });
}
svg.addEventListener("mouseover", onHover);
svg.addEventListener("mousemove", onHover);
svg.addEventListener("mouseout", function (e) {
	withFramesHover(function () {
		if (!e.relatedTarget || !svg.contains(e.relatedTarget)) unhover();
	});
});
svg.addEventListener("click", function (e) {
	withFrames(function () { clicked(e); });
});
function clicked(e) {
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
}
/* right-click on a frame: the menu of the views; before the frames are
 * there, the browser's menu is kept off the graph's width, where ours
 * will open */
svg.addEventListener("contextmenu", function (e) {
	var p = pointer(e);
	if (!BASE && VIEWS && !refused && p && p.x >= XP && p.x <= XP + GW) e.preventDefault();
	withFrames(function () {
		var i = p && VIEWS ? frameAt(p.x, p.y) : -1;
		closeMenu();
		if (i >= 0 && openMenu(i, p)) e.preventDefault();
	});
});
/* a key's default action is stopped at once (the browser's find, a
 * scroll), before the frames it acts on may be there */
function keyTaken(e, key) {
	var mod = e.ctrlKey || e.metaKey;
	return mod ? key === "f" || key === "i" :
		key === "/" || (CHART && !e.altKey && key.length === 1 && "wsad".indexOf(key) >= 0);
}
if (top) {
	document.addEventListener("keydown", function (e) {
		var key = (e.key || "").toLowerCase();
		if (!BASE && !refused && keyTaken(e, key)) e.preventDefault();
		withFrames(function () { keyDown(e, key); });
	});
}
function keyDown(e, key) {
	if (typedAhead(e, key)) return;
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
}
/* keys typed while the frames were on their way, after a `/` queued
 * before them: the field is open and focused now, and they were meant
 * for it */
function typedAhead(e, key) {
	if (!sfIn || document.activeElement !== sfIn || e.target === sfIn) return false;
	if (e.ctrlKey || e.metaKey || e.altKey) return false;
	if (key === "enter") step(e.shiftKey ? -1 : 1);
	else if (key === "backspace") query(sfIn.value = sfIn.value.slice(0, -1));
	else if (e.key.length === 1) query(sfIn.value += e.key);
	else return false;
	return true;
}
