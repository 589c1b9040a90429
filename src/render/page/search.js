/* page/search.js: regex search over the frame names, the share and count
 * of what matched, and stepping through the matches (< > and the arrows).
 * A regex refused by risky() (see docs/interactive.md) or past its time
 * budget marks nothing. */

/* the marked frames in pre-order, hits[0..nmatch): the highlight, the
 * counts and the ranks then cost the matches, not the frames */
var hits = new Int32Array(0);

function search(src) {
	var names = D.n, ok, why;
	mark.fill(0);
	re = null;
	cm = -1;
	nmatch = 0;
	reSrc = src || "";
	if (reSrc) {
		why = risky(reSrc);
		try {
			if (!why) re = new RegExp(reSrc, icase ? "i" : "");
		} catch (err) {
			why = "bad regex";
		}
		if (why) mt.textContent = "Search refused (" + why + "): " + reSrc;
	}
	if (re) {
		ok = testNames(names);
		if (!ok) {
			re = null;
			mt.textContent = "Search stopped: over " + BUDGET + " ms";
		}
	}
	pv.classList.toggle("h", !re);
	nx.classList.toggle("h", !re);
	if (!re) {
		sr.textContent = "Search";
		if (!reSrc) mt.textContent = " ";
		highlight();
		save();
		return;
	}
	markHits(ok);
	highlight();
	sr.textContent = "Reset Search";
	matched();
	save();
}
/* mark[] and hits[] for the frames whose name ok[] holds */
function markHits(ok) {
	if (hits.length < n) hits = new Int32Array(n);
	nmatch = 0;
	for (var j = 0; j < n; j++)
		if ((mark[j] = ok[nm[j]])) hits[nmatch++] = j;
}
/* Run the search's loops over the frames once, marking half the names and
 * then nothing, so that the first search runs them compiled (as prime()
 * in draw.js does for drawing): interpreted, they were most of a first
 * search's time at 200k frames. */
function primeSearch() {
	var ok = new Uint8Array(D.n.length);
	for (var j = 0; j < ok.length; j += 2) ok[j] = 1;
	markHits(ok);
	covered(0, n);
	mark.fill(0);
	nmatch = 0;
}
/* Each distinct name tested once, within a time budget: the regex comes
 * from the user or a shared URL, and many names times a slow pattern
 * must not freeze the tab. Null when the budget ran out. */
var BUDGET = 1000;
function testNames(names) {
	var ok = new Uint8Array(names.length), t0 = Date.now();
	for (var j = 0; j < names.length; j++) {
		ok[j] = re.test(names[j]) ? 1 : 0;
		if ((j & 255) === 255 && Date.now() - t0 > BUDGET) return null;
	}
	return ok;
}
/* Browsers' regexes backtrack: (a+)+$ takes exponential time on ONE
 * name, which no budget between names can stop. Refuse the forms that
 * backtrack exponentially (a repeated group holding a repetition or an
 * alternation, back-references) and more than three unbounded
 * repetitions (polynomial of high degree). Returns why, or "". */
function risky(src) {
	var open = [], last = null, unbounded = 0, i, c, g, m;
	for (i = 0; i < src.length; i++) {
		c = src.charAt(i);
		if (c === "\\") {
			c = src.charAt(++i);
			if (/[1-9k]/.test(c)) return "back-reference";
			last = {};
		} else if (c === "[") {
			for (i++; i < src.length && src.charAt(i) !== "]"; i++)
				if (src.charAt(i) === "\\") i++;
			last = {};
		} else if (c === "(") {
			open.push({});
			last = null;
		} else if (c === ")") {
			last = open.pop() || {};
			g = open[open.length - 1];
			if (g && (last.q || last.alt)) g.q = true;   /* it holds them too */
		} else if (c === "|") {
			if (open.length) open[open.length - 1].alt = true;
			last = null;
		} else if ("*+?{".indexOf(c) >= 0 && last) {
			m = c === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i)) : null;
			if (c === "{" && !m) {   /* a literal brace */
				last = {};
				continue;
			}
			if (last.q || last.alt) return "nested repetition";
			if (c === "*" || c === "+" || (m && m[2] && !m[3])) unbounded++;
			if (m) i += m[0].length - 1;
			if (src.charAt(i + 1) === "?") i++;
			for (g = 0; g < open.length; g++) open[g].q = true;
			last = null;
		} else {
			last = {};
		}
	}
	return unbounded > 3 ? "over three unbounded repetitions" : "";
}
/* weight under matched frames in [a, b); a match inside a match is
 * already counted, so skip the subtree of every match */
function covered(a, b) {
	var s = 0, until = a, j;
	for (var k = firstHit(a); k < nmatch && (j = hits[k]) < b; k++) {
		if (j < until) continue;
		s += wd[j];
		until = en[j];
	}
	return s;
}
/* the first of the matches at or after frame j (nmatch if none) */
function firstHit(j) {
	var lo = 0, hi = nmatch, mid;
	while (lo < hi) {
		mid = (lo + hi) >> 1;
		if (hits[mid] < j) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}
function matched() {
	var s = "Matched: " + pct(covered(0, n), TOTAL) + "%";
	if (Z) {
		var inside = -1;
		for (var a = Z; a >= 0; a = par[a])
			if (mark[a]) inside = wd[Z];
		if (inside < 0) inside = covered(Z, en[Z]);
		s += " (" + pct(inside, wd[Z]) + "% of zoom)";
	}
	s += cm >= 0 ? ", match " + rank(cm) + " of " + nmatch : ", " + nmatch + (nmatch === 1 ? " frame" : " frames");
	mt.textContent = s;
}
/* 1-based position of matched frame j among all matches, in pre-order */
function rank(j) {
	return firstHit(j) + 1;
}
/* the next (step 1) or previous (-1) matched frame after the current
 * one, in pre-order (left to right, outer first), wrapping around; it is
 * outlined and described, and the view zooms out if it is not drawn */
function step(dir) {
	if (!re || !nmatch) return;
	var k = cm >= 0 ? firstHit(cm) + dir : dir > 0 ? 0 : -1;
	cm = hits[(k + nmatch) % nmatch];
	if (!visible(cm)) zoom(0);
	outline();
	dt.textContent = (D.nt ? D.nt + " " : "") + describe(cm);
	matched();
}
function askSearch() {
	if (re) {
		search("");
		return;
	}
	promptSearch();
}
function promptSearch() {
	var s = window.prompt("Search for (regular expression)" +
			      (icase ? ", ignoring case" : "") + ":", reSrc);
	if (s) search(s);
}
function showIcase() { lit(ic, icase); }
function toggleIcase() {
	icase = !icase;
	showIcase();
	if (reSrc) search(reSrc);
	else save();
}
