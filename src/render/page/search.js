/* page/search.js: search over the frame names (a regular expression, or
 * plain text made one by query()), the share and count of what matched,
 * and stepping through the matches (< > , the arrows, Enter in the search
 * field of field.js). A regex refused by risky() (see docs/interactive.md)
 * or past its time budget marks nothing. */

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
		if (why) mt.textContent = "Search refused (" + why + "): " + (rx ? reSrc : qText);
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
		tell(reSrc ? (ok === null ? "stopped" : "refused") : "");
		highlight();
		save();
		filtered();
		return;
	}
	markHits(ok);
	highlight();
	sr.textContent = "Reset Search";
	matched();
	save();
	filtered();
}
/* search for what the field holds: text as typed, a regular expression
 * when rx is on (the URL keeps which: s= a regex, p= plain text) */
function query(text) {
	qText = text || "";
	search(rx ? qText : qText.replace(/[\\^$.*+?()[\]{}|\/]/g, "\\$&"));
}
/* mark[] (all 0 before) and hits[] for the frames whose name ok[]
 * holds: from each matched name's frames (nameIndex()) when they are few,
 * else from a pass over every frame. At 202k frames the pass took 8-11 ms
 * in a first search, the index a fraction of a millisecond. */
function markHits(ok) {
	var x = nameIndex(), at = x.at, of = x.of, m = 0, k, a, j;
	if (hits.length < n) hits = new Int32Array(n);
	nmatch = 0;
	for (k = 0; k < ok.length; k++) if (ok[k]) m += at[k + 1] - at[k];
	if (m > n / 8) {
		for (j = 0; j < n; j++)
			if ((mark[j] = ok[nm[j]])) hits[nmatch++] = j;
		return;
	}
	for (k = 0; k < ok.length; k++)
		if (ok[k])
			for (a = at[k]; a < at[k + 1]; a++) {
				mark[(j = of[a])] = 1;
				hits[nmatch++] = j;
			}
	hits.subarray(0, nmatch).sort();   /* pre-order */
}
/* The frames of each name of the current frame set, in pre-order: name
 * k's are of[at[k]..at[k+1]) (a counting sort of nm[], made once a frame
 * set, at its first search or by primeSearch()). */
var NI = null;
function nameIndex() {
	if (NI && NI.fs === FS) return NI;
	var N = D.n.length, at = new Int32Array(N + 1), of = new Int32Array(n), fill, j;
	for (j = 0; j < n; j++) at[nm[j] + 1]++;
	for (j = 0; j < N; j++) at[j + 1] += at[j];
	fill = at.slice(0, N);
	for (j = 0; j < n; j++) of[fill[nm[j]]++] = j;
	return (NI = { fs: FS, at: at, of: of });
}
/* Run the search's loops over the frames once, marking half the names,
 * then one name, then nothing, so that the first search runs them
 * compiled (as prime() in draw.js does for drawing): interpreted, they
 * were most of a first search's time at 200k frames. */
function primeSearch() {
	var ok = new Uint8Array(D.n.length);
	for (var j = 0; j < ok.length; j += 2) ok[j] = 1;
	markHits(ok);
	covered(0, n);
	mark.fill(0);
	ok.fill(0);
	if (n) ok[nm[n - 1]] = 1;
	markHits(ok);
	covered(0, n);
	mark.fill(0);
	nmatch = 0;
}
/* Each distinct name tested once, within a time budget checked after
 * every name (risky() bounds what one name may cost): the regex comes
 * from the user or a shared URL, and many names times a slow pattern
 * must not freeze the tab. Null when the budget ran out. */
var BUDGET = 1000;
function testNames(names) {
	var ok = new Uint8Array(names.length), t0 = Date.now();
	for (var j = 0; j < names.length; j++) {
		ok[j] = re.test(names[j]) ? 1 : 0;
		if (Date.now() - t0 > BUDGET) return null;
	}
	return ok;
}
/* Browsers' regexes backtrack, and no budget between names stops one
 * long test: (a+)+$ takes exponential time on ONE name, and so does a
 * chain of optional repeats (.?.?.?...x). So before compiling, refuse
 * back-references and a group repeated more than once that holds a
 * repetition or an alternation (exponential whatever the name), then
 * bound what the rest may cost on the longest name: with no nesting, a
 * backtracking matcher tries at most, from each of the name's L
 * positions, one path per choice of every quantifier's count (L + 1 for
 * *, + and {n,}, m - n + 1 for {n,m}, 2 for ?) and of every alternation's
 * branch. Over COST such steps is refused (about 0.4 s on the build
 * machine for the worst pattern, a chain of .?). Returns why, or "". */
var COST = 1e7, LONGEST = -1;
function risky(src) {
	var L = longest(), open = [{ f: 1, alt: 1 }], last = null, i, c, g, m, lo, hi;
	for (i = 0; i < src.length; i++) {
		c = src.charAt(i);
		g = open[open.length - 1];
		if (c === "\\") {
			c = src.charAt(++i);
			if (/[1-9k]/.test(c)) return "back-reference";
			last = {};
		} else if (c === "[") {
			for (i++; i < src.length && src.charAt(i) !== "]"; i++)
				if (src.charAt(i) === "\\") i++;
			last = {};
		} else if (c === "(") {
			open.push({ f: 1, alt: 1 });
			last = null;
		} else if (c === ")") {
			if (open.length < 2) return "";   /* unbalanced: the RegExp says so */
			last = open.pop();
			last.f *= last.alt;
			open[open.length - 1].f *= last.f;
		} else if (c === "|") {
			g.alt++;
			last = null;
		} else if ("*+?{".indexOf(c) >= 0 && last) {
			m = c === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i)) : null;
			if (c === "{" && !m) {   /* a literal brace */
				last = {};
				continue;
			}
			lo = c === "+" ? 1 : m ? +m[1] : 0;
			hi = c === "?" ? 1 : !m || (m[2] && !m[3]) ? Infinity : m[2] ? +m[3] : lo;
			if (last.f > 1 && hi > 1) return "nested repetition";
			if (m) i += m[0].length - 1;
			if (src.charAt(i + 1) === "?") i++;   /* lazy */
			g.f *= Math.min(hi - lo, L) + 1;
			last = null;
		} else {
			last = {};
		}
	}
	return L * open[0].f * open[0].alt > COST ? "too slow on a name of " + L + " characters" : "";
}
/* the longest name's length, once */
function longest() {
	if (LONGEST < 0)
		for (var j = LONGEST = 0; j < D.n.length; j++) LONGEST = Math.max(LONGEST, D.n[j].length);
	return Math.max(LONGEST, 1);
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
	tell((cm >= 0 ? rank(cm) + "/" : "") + nmatch + (nmatch === 1 ? " frame, " : " frames, ") +
	     pct(covered(0, n), TOTAL) + "%");
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
function showIcase() { lit(ic, icase); }
function toggleIcase() {
	icase = !icase;
	showIcase();
	if (qText) query(qText);
	else save();
}
function showRx() {
	lit(rxb, rx);
	placeholder();
}
/* plain text or a regular expression */
function toggleRx() {
	rx = !rx;
	showRx();
	if (qText) query(qText);
	else save();
}
