/* page/field.js: the search field, an HTML <input> in a <foreignObject>
 * on the title row, left of the search buttons: opened and focused by `/`,
 * Ctrl-F or a click on Search; it searches as you type (query() in
 * search.js), Enter and Shift-Enter step to the next and previous match,
 * Esc clears the search (a refused pattern and the URL's s= too) and
 * closes it. Beside it, the count and share of what matched (tell()).
 * Never a dialog: window.prompt blocks the page and cannot be styled. */

var sfo = null, sfIn = null, sfInfo = null;
/* On the title row between the title and the buttons when the input and
 * the count fit there (SF_MIN), else under the buttons, on a white
 * ground: a long title was covered by the field and the count cut. */
var SF_MIN = 300;
function field() {
	if (sfo) return;
	var h = D.fs + 8, right = W - XP - 25 * D.cw, ti = find("ti"), y = +sr.getAttribute("y") - D.fs - 3;
	var left = ti ? W / 2 + ti.getComputedTextLength() / 2 + 8 : XP + 24 * D.cw;
	var w = Math.min(400, right - left), box, under = w < SF_MIN;
	if (under) {
		w = 400;
		right = W - XP;
		y += h + 2;
	}
	sfo = make("foreignObject", { "class": "sf h", x: r1(right - w), y: r1(y), width: r1(w), height: h }, svg);
	box = sfo.appendChild(document.createElementNS(XH, "div"));
	box.style.cssText = "display:flex;align-items:center;height:" + h + "px;font:" + D.fs +
		"px sans-serif;gap:4px" + (under ? ";background:#fff;padding:0 3px;box-sizing:border-box" : "");
	sfIn = box.appendChild(document.createElementNS(XH, "input"));
	sfIn.className = "sq";
	sfIn.setAttribute("type", "text");
	sfIn.setAttribute("spellcheck", "false");
	sfIn.setAttribute("aria-label", "search frame names");
	sfIn.style.cssText = "flex:1;min-width:40px;height:" + (h - 4) + "px;font:inherit;padding:0 3px;" +
		"box-sizing:border-box;border:1px solid #808080;border-radius:2px";
	sfInfo = box.appendChild(document.createElementNS(XH, "span"));
	sfInfo.className = "sn";
	sfInfo.style.cssText = "white-space:nowrap;color:#505050";
	sfIn.addEventListener("input", function () {
		withFrames(function () { query(sfIn.value); });   /* main.js */
	});
	sfIn.addEventListener("keydown", fieldKey);
}
/* keys typed in the field stay there; Enter steps, Esc clears */
function fieldKey(e) {
	var key = e.key || "";
	e.stopPropagation();
	if (key === "Enter") {
		e.preventDefault();
		step(e.shiftKey ? -1 : 1);
	} else if (key === "Escape") {
		e.preventDefault();
		clearSearch();
	} else if ((e.ctrlKey || e.metaKey) && key.toLowerCase() === "f") {
		e.preventDefault();
		sfIn.select();
	} else if ((e.ctrlKey || e.metaKey) && key.toLowerCase() === "i") {
		e.preventDefault();
		toggleIcase();
	}
}
/* the field shown with the search's text; focused, the text selected,
 * unless focus is false (a search from the URL) */
function openField(focus) {
	field();
	sfo.classList.remove("h");
	sfIn.value = qText;
	placeholder();
	if (focus === false) return;
	sfIn.focus();
	sfIn.select();
}
function placeholder() {
	if (sfIn) sfIn.setAttribute("placeholder", rx ? "regular expression" : "text in a name");
}
/* no search, no refused pattern, the field empty and closed */
function clearSearch() {
	qText = "";
	search("");
	if (!sfo) return;
	sfIn.value = "";
	sfo.classList.add("h");
	if (document.activeElement === sfIn) sfIn.blur();
}
/* what matched, beside the field */
function tell(s) {
	if (sfInfo) sfInfo.textContent = s;
}
/* Search: opens the field, or (Reset Search) clears it */
function askSearch() {
	if (reSrc) clearSearch();
	else openField();
}
