/* page/label.js: the text drawn on a frame and its colour, the twin of
 * src/core/label.c (see label.h for the cuts): the same rules on the same
 * code points, so the page's labels after a zoom or in a view read as the
 * file's. tests/suites/labels.sh runs both on the same names and compares. */

var ELL = "\u2026", LDEPTH = 64;
function lIdent(c) { return /^[A-Za-z0-9_]$/.test(c); }
function lOpener(c) { return c === "(" || c === "[" || c === "{" || c === "<"; }
function lOpenerOf(c) { return c === ")" ? "(" : c === "]" ? "[" : c === "}" ? "{" : c === ">" ? "<" : ""; }
/* each bracket's partner, or null when they do not pair up */
function lPair(s) {
	var m = new Array(s.length), st = [], i, c;
	for (i = 0; i < s.length; i++) {
		c = s[i];
		m[i] = -1;
		if (lOpener(c)) {
			if (st.length === LDEPTH) return null;
			st.push(i);
		} else if (lOpenerOf(c) && !(c === ">" && i > 0 && s[i - 1] === "-")) {
			if (!st.length || s[st[st.length - 1]] !== lOpenerOf(c)) return null;
			m[i] = st.pop();
			m[m[i]] = i;
		}
	}
	return st.length ? null : m;
}
function lNext(s, m, i) { return m[i] >= 0 && lOpener(s[i]) ? m[i] + 1 : i + 1; }
function lElidable(s, o, c) { return c > o + 1 && !(c === o + 2 && s[o + 1] === ELL); }
function lParams(s, m) {
	var open = -1, i, close;
	for (i = 0; i < s.length; i = lNext(s, m, i)) if (s[i] === "(") open = i;
	if (open <= 0 || s[open - 1] === " ") return null;
	close = m[open];
	if (!lElidable(s, open, close) || s.length - close - 1 > 16) return null;
	for (i = close + 1; i < s.length; i++) if (!/^[a-z &]$/.test(s[i])) return null;
	return s.slice(0, open + 1).concat([ELL], s.slice(close));
}
function lTemplates(s, m) {
	var d = [], cut = false, i = 0, close;
	while (i < s.length) {
		if (!lOpener(s[i]) || m[i] < 0) {
			d.push(s[i++]);
			continue;
		}
		close = m[i];
		if (s[i] === "<" && i > 0 && lIdent(s[i - 1]) && lElidable(s, i, close)) {
			d.push("<", ELL, ">");
			cut = true;
		} else {
			d = d.concat(s.slice(i, close + 1));
		}
		i = close + 1;
	}
	return cut ? d : null;
}
function lDotted(s, m) {
	var ndots = 0, prev = 0, k = 0, start = 0, before = 0, i;
	for (i = 0; i < s.length; i = lNext(s, m, i)) {
		if (s[i] !== ".") continue;
		ndots++;
		if (!k && i + 1 < s.length && /^[A-Z]$/.test(s[i + 1])) {
			k = ndots;
			start = i + 1;
			before = ndots >= 2 ? prev + 1 : 0;
		}
		prev = i;
	}
	if (!k) return 0;
	if (k + 2 <= ndots + 1) return start;
	return ndots + 1 >= 3 ? before : 0;
}
function lSeps(s, m) {
	var r = { n: 0, keep: 0 }, slash = -1, c1 = -1, c2 = -1, nc = 0, i, c;
	for (i = 0; i < s.length; i = lNext(s, m, i)) {
		c = s[i];
		if (c === "/" || c === ".") r.n++;
		if (c === "/") slash = i;
		if (c === ":" && i + 1 < s.length && s[i + 1] === ":") {
			r.n++;
			nc++;
			c1 = c2;
			c2 = i;
			i++;
		}
	}
	if (slash >= 0) r.keep = slash + 1 < s.length ? slash + 1 : 0;
	else if (nc >= 2) r.keep = c1 + 2;
	else if (!nc) r.keep = lDotted(s, m);
	return r;
}
function lFile(s) {
	if (s.length && (s[0] === "/" || s[0] === "[")) return true;
	for (var i = 0; i + 1 < s.length; i++)
		if ((s[i] === "[" && s[i + 1] === "+") || (s[i] === "+" && s[i + 1] === "0" && s[i + 2] === "x"))
			return true;
	return false;
}
function lOffset(s) {
	var at = -1, i, end;
	for (i = 0; i + 1 < s.length; i++) {
		if (s[i] === "[" && s[i + 1] === "+") at = i + 2;
		else if (s[i] === "+" && s[i + 1] === "0" && s[i + 2] === "x") at = i + 3;
	}
	if (at < 0) return null;
	for (end = at; end < s.length && /^[0-9a-fA-F]$/.test(s[end]); end++);
	if (end - at < 2) return null;
	return s.slice(0, at).concat([ELL], s.slice(end));
}
function lSmart(s, room) {
	var file = lFile(s), q = false, m = lPair(s), d, sep;
	if (m) {
		if ((d = lParams(s, m))) {
			s = d;
			q = true;
			if (s.length <= room) return s;
			m = lPair(s);
		}
		if ((d = lTemplates(s, m))) {
			s = d;
			q = true;
			if (s.length <= room) return s;
			m = lPair(s);
		}
		sep = lSeps(s, m);
		if (sep.n > 0) q = true;
		if (sep.keep) {
			s = s.slice(sep.keep);
			if (s.length <= room) return s;
		}
	}
	if (file && (d = lOffset(s))) {
		s = d;
		if (s.length <= room) return s;
	}
	var keep = room - 1, head = q && !file ? 0 : keep >> 1, tail = keep - head;
	/* at the left, no separator right after the ellipsis, as label.c */
	while (q && !file && tail > 1 && /^[.:\/]$/.test(s[s.length - tail])) tail--;
	return s.slice(0, head).concat([ELL], s.slice(s.length - tail));
}
/* the label of name in at most room code points; right: flamegraph.pl's
 * cut (D.lr) */
function label(name, room, right) {
	var s = Array.from(name);
	if (room <= 0) return "";
	if (s.length <= room) return name;
	if (right) return s.slice(0, Math.max(room - 2, 0)).join("") + "..";
	/* three of the name at least besides ellipses, as label.c */
	s = lSmart(s, room);
	return s.filter(function (c) { return c !== ELL; }).length < 3 ? "" : s.join("");
}
/* text on a frame of colour c (0xRRGGBB): black or white, whichever has the
 * higher WCAG contrast, as af_label_ink() */
function lChan(v) {
	v /= 255;
	return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
}
function lLum(c) { return 0.2126 * lChan(c >> 16 & 255) + 0.7152 * lChan(c >> 8 & 255) + 0.0722 * lChan(c & 255); }
function lContrast(a, b) {
	var x = lLum(a), y = lLum(b);
	return x > y ? (x + 0.05) / (y + 0.05) : (y + 0.05) / (x + 0.05);
}
function inkWhite(c) { return !(lContrast(c, 0) >= lContrast(c, 0xffffff)); }
