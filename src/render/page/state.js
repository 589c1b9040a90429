/* page/state.js: the start of the interactive part of aflame-render's SVG.
 *
 * The files of src/render/page/ are concatenated in the order of PAGE_JS in the
 * Makefile into the body of
 *     (function(){"use strict"; var D = {...}; <these files> })();
 * (render_svg.c), so nothing here is global and each graph of a page has its
 * own copy of every variable. Each file is one part: this one finds the
 * graph and holds the state the parts share; frames.js decodes D into the
 * frames; format.js, geometry.js, controls.js, draw.js, hover.js, zoom.js,
 * search.js, field.js (the search field), table.js (the function table),
 * url.js and events.js do what
 * their names say; tree.js and
 * transforms.js compute the views' trees, views.js and menu.js show them;
 * main.js starts it all.
 * Function declarations are hoisted, so a part may call a later one; only
 * the variables below must be set before main.js runs.
 *
 * D holds: id (the graph's class, also the prefix of its ids), w (image
 * width), xp (side margin), fs (font size), cw (estimated character
 * advance, px), fh (frame height), y0 and dy (y of depth d is y0 + d * dy),
 * u (count unit), n (distinct frame names) and f (three or four integers
 * per frame, see data_frames() in render_svg.c; it and the other lists of
 * integers are strings that frames.js decodes); b (flame-chart bands, see frames.js);
 * gc (each colour group's colour, 0xRRGGBB); when set, dc (decimals of the
 * weights), k (--factor), nt (--nametype), c (each name's colour group) or
 * g (each frame's, when colours are not per name), d (differential graphs:
 * each frame's change of its own weight, or
 * with dt of its inclusive weight; negated when ng) and, comparing two runs
 * (--diff), bf and af (each frame's inclusive weight in the first and
 * second run) and dk (each frame's kind, a digit: 0 plain, 1 removed, 2
 * context, 3 the band), and with --nameattr, na (the frames of the elements
 * in the group "na", which carry the file's attributes over a transparent
 * rectangle each); cl (each frame's calls, where the input counts them);
 * au and ao (flame charts: the time axis's unit, "µs" or another, and
 * its value at the left edge).
 *
 * Nothing from a trace runs as script: names arrive as JSON strings in D
 * and reach the document only as text nodes (textContent).
 * These files are C-string-escaped by the build: never write CDATA's end
 * marker. */

var NS = "http://www.w3.org/2000/svg";
/* the graph: the <svg> around this script, else (a browser that runs it
 * elsewhere) the last element of this graph's class */
var me = document.currentScript;
var svg = me && me.parentNode && me.parentNode.namespaceURI === NS ? me.parentNode : null;
if (!svg) {
	var all = document.getElementsByClassName(D.id);
	svg = all.length ? all[all.length - 1] : null;
}
if (!svg) return;

function find(c) { return svg.getElementsByClassName(c)[0]; }
function make(tag, attrs, parent, before) {
	var e = document.createElementNS(NS, tag);
	for (var k in attrs) e.setAttribute(k, attrs[k]);
	if (parent) parent.insertBefore(e, before || null);
	return e;
}
/* the elements render_svg.c wrote */
var fr = find("fr"), lb = find("lb"), rz = find("rz"), sr = find("sr"), ax = find("ax");
var dt = find("dt"), mt = find("mt");
if (!fr || !lb || !(D.f || D.z)) return;

/* the view: Z the zoomed frame (0: none), K pixels per weight unit, S0
 * the weight at the left edge */
var W = D.w, XP = D.xp, GW = W - 2 * XP, FH = D.fh;
var H = svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.height : 0;
var Z = 0, K = 0, S0 = 0;
/* search: the regex (null: none), its source, the case flag, matched
 * frames (mark), their count, the current match (next/previous) or -1;
 * the text typed and whether it is a regex (else plain text) */
var re = null, reSrc = "", icase = false, mark = null, nmatch = 0, cm = -1;
var qText = "", rx = false;
/* true when the SVG is the page, so the URL fragment is ours */
var top = document.documentElement === svg;
