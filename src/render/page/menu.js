/* page/menu.js: the controls of the views (views.js): Back and Invert on
 * the title row, and the menu a right-click on a frame opens. */

var backBt = VIEWS ? button("bt bk h", XP + 12 * D.cw, "Back", "back to the previous view (Esc)") : null;
var inv = VIEWS ? button("bt iv", XP + 17 * D.cw, "Invert", "bottom-up: each stack from its leaf") : null;
var MENU = [["w", "Sandwich: callers and callees"], ["h", "Hide (callees to its caller)"],
	    ["i", "Only stacks through it"], ["r", "Re-root here"]];
var menu = null, menuBox = null, menuItems = [], menuFrame = -1;
if (VIEWS) {
	menu = make("g", { "class": "mn h" }, svg);
	menuBox = make("rect", { x: 0, y: 0, width: 0, height: MENU.length * (D.fs + 6) + 4,
				 fill: "#ffffff", stroke: "#808080", "stroke-width": 0.5 }, menu);
	MENU.forEach(function (m, k) {
		var t = make("text", { "class": "bt mi", x: 6, y: 2 + (k + 1) * (D.fs + 6) - 5 }, menu);
		t.textContent = m[1];
		menuItems.push(t);
	});
}

/* the menu of frame j at point p (SVG units); not on the root "all" */
function openMenu(j, p) {
	var w = 0, h = +menuBox.getAttribute("height"), x, y;
	if (j === 0 && view.w < 0) return false;
	menuFrame = j;
	menu.classList.remove("h");
	menuItems.forEach(function (t) { w = Math.max(w, t.getComputedTextLength()); });
	menuBox.setAttribute("width", r1(w + 12));
	x = Math.min(p.x, W - w - 14);
	y = H && p.y + h > H ? Math.max(0, p.y - h) : p.y;
	menu.setAttribute("transform", "translate(" + r1(Math.max(0, x)) + "," + r1(y) + ")");
	unhover();
	return true;
}
function closeMenu() {
	if (menuFrame < 0) return false;
	menuFrame = -1;
	menu.classList.add("h");
	return true;
}
/* a click on the menu: its item's step on the frame, then closed */
function menuClick(t) {
	var k = menuItems.indexOf(t), j = menuFrame;
	closeMenu();
	if (k >= 0 && j >= 0) change(MENU[k][0], j);
}
/* a toggle button drawn as on or off */
function lit(b, on) {
	b.style.fill = on ? "#000" : "#a0a0a0";
	b.style.fontWeight = on ? "bold" : "normal";
	b.classList.toggle("on", !!on);
}
