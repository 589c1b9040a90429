/* page/url.js: the state in the URL fragment, only when the SVG is the
 * page itself: #z=FRAME&s=REGEX&i=1 */

function save() {
	if (!top) return;
	var p = [];
	if (Z) p.push("z=" + Z);
	if (reSrc) p.push("s=" + encodeURIComponent(reSrc));
	if (icase) p.push("i=1");
	try {
		var base = location.href.split("#")[0];
		if (p.length || location.hash) history.replaceState(null, "", p.length ? "#" + p.join("&") : base);
	} catch (err) { /* file: URLs in some browsers */ }
}
function restore() {
	if (!top || location.hash.length < 2) return;
	var kv = {}, parts = location.hash.slice(1).split("&");
	for (var j = 0; j < parts.length; j++) {
		var eq = parts[j].indexOf("=");
		if (eq < 0) continue;
		try {
			kv[parts[j].slice(0, eq)] = decodeURIComponent(parts[j].slice(eq + 1));
		} catch (err) { /* malformed escape: ignore that key */ }
	}
	if (kv.i === "1") {
		icase = true;
		showIcase();
	}
	var z = parseInt(kv.z, 10);
	if (z > 0 && z < n) zoom(z);
	if (kv.s) search(kv.s);
}
