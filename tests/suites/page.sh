# page.sh: the steps of the interactive page's views (src/render/page/transforms.js:
# hide, include, re-root, bottom-up, sandwich) give the stacks the command
# line gives, on a random input with recursion. Runs them in node (skipped
# without it); the browser suite checks the same views as drawn.
. tests/lib.sh
if ! command -v node >/dev/null 2>&1; then
	skip "page views in node" "node not installed"
	exit 0
fi
IN=$TMP/rnd.folded
# 400 stacks of 1 to 9 frames named a..h: deep direct and indirect recursion
awk 'BEGIN { srand(7); for (i = 0; i < 400; i++) { n = 1 + int(rand() * 9); s = ""
	for (d = 0; d < n; d++) s = s (d ? ";" : "") substr("abcdefgh", 1 + int(rand() * 8), 1)
	print s, 1 + int(rand() * 50) } }' >"$IN"
# --minwidth 0: every frame in the data, so the page's tree is the whole one
"$AFLAME" --minwidth 0 -o "$TMP/rnd.svg" "$IN" 2>/dev/null
{
	echo '(function () { "use strict";'
	sed -n '/^var D={/,/^.*"};$/p' "$TMP/rnd.svg"
	cat src/render/page/frames.js src/render/page/inflate.js src/render/page/tree.js src/render/page/transforms.js tests/browser/views_check.js
	echo '})();'
} >"$TMP/views.js"
page() { node "$TMP/views.js" "$@" 2>&1; }
cli() { "$AFLAME" --format folded "$@" 2>&1 | LC_ALL=C sort; }
# stacks through NAME, from its outermost NAME back to their roots
callers() {
	awk -v b="$1" '{ n = split($1, f, ";"); for (i = 1; i <= n && f[i] != b; i++); if (i > n) next
		s = f[i]; for (j = i - 1; j >= 1; j--) s = s ";" f[j]; w[s] += $2 }
		END { for (s in w) print s, w[s] }' "$IN" | LC_ALL=C sort
}
same() { # NAME GOT WANT
	if [ "$2" = "$3" ] && [ -n "$3" ]; then pass "$1"; else fail "$1" "$(diff <(echo "$2") <(echo "$3") | head -5 | tr '\n' ' ')"; fi
}
for f in a b c d; do
	same "page/hide $f as --hide" "$(page h "$f" | LC_ALL=C sort)" "$(cli --hide "^$f\$" "$IN")"
	same "page/include $f as --include" "$(page i "$f" | LC_ALL=C sort)" "$(cli --include "^$f\$" "$IN")"
	same "page/re-root at $f as --root" "$(page r "$f" | LC_ALL=C sort)" "$(cli --root "^$f\$" "$IN")"
	same "page/sandwich of $f: callees as --root" "$(page callees "$f" | LC_ALL=C sort)" "$(cli --root "^$f\$" "$IN")"
	same "page/sandwich of $f: callers as the stacks reversed" "$(page callers "$f" | LC_ALL=C sort)" "$(callers "$f")"
done
awk '{ n = split($1, f, ";"); s = f[n]; for (j = n - 1; j >= 1; j--) s = s ";" f[j]; print s, $2 }' "$IN" >"$TMP/rev.folded"
same "page/bottom-up as the stacks reversed" "$(page u | LC_ALL=C sort)" "$(cli "$TMP/rev.folded")"

# issue 36.10: a view that would take long is refused before it is
# computed: bottom-up and a sandwich on a chain 32k deep with self weight
# in every frame (5*10^8 node visits; 35 s in Chromium before), 6,400
# hide steps on it (2*10^8); not the views of an ordinary graph
same "page/view cost: 32k-deep inversion and sandwich, 6,400 steps refused; the graph's views allowed" \
	"$(page cost 32768 6400)" "$(printf '%s\n' 'graph u ok' 'graph sandwich ok' 'chain u refused' 'chain sandwich refused' 'steps refused')"
same "page/view cost: a 1,000-deep chain's views and 10 steps allowed" \
	"$(page cost 1000 10 | sed -n 's/^chain //p;s/^steps //p')" "$(printf '%s\n' 'u ok' 'sandwich ok' 'ok')"

# The data's lists of integers are strings in base 32 (list_begin() in
# render_svg.c); the page decodes them exactly up to 2^53: weights past
# 2^32, and negative changes of weight (a differential graph), against
# the command line's --format frames.
printf 'a;b 1125899906842624\na;c 3\nd 35\ne 1099511627776\n' >"$TMP/big.folded"
printf 'x;y 5000000000 1000000000\nx;z 1 4000000000\nw 7 0\n' >"$TMP/neg.folded"
decoded() { # SVG: depth width [change] name of each frame, as the page decodes them
	{
		echo '(function () { "use strict";'
		sed -n '/^var D={/,/^.*"};$/p' "$1"
		cat src/render/page/frames.js src/render/page/inflate.js
		echo 'var fs = decode(), i, s;'
		echo 'for (i = 0; i < fs.n; i++) { s = [fs.dp[i], fs.wd[i]];'
		echo '	if (D.d) s.push(D.d[i]); console.log(s.concat(D.n[fs.nm[i]]).join(" ")); }'
		echo '})();'
	} >"$TMP/decode.js"
	node "$TMP/decode.js" 2>&1
}
for f in big neg; do
	"$AFLAME" -o "$TMP/$f.svg" "$TMP/$f.folded" 2>/dev/null
	same "page/$f: lists decoded as --format frames has them" "$(decoded "$TMP/$f.svg")" \
		"$("$AFLAME" --format frames "$TMP/$f.folded" 2>/dev/null | awk '!/^#/ { $2 = $3 = ""; print }' | tr -s ' ')"
done

# issue 34: a search marks the frames of each matched name from a per-name
# index (markHits() in search.js) when they are few, else by a pass over
# every frame; both must give every frame of the names, in pre-order. Each
# name alone, and pairs and triples of names, against a plain loop, on 300
# stacks of 30 names, one of them in a third of the places (so that both
# ways are taken).
awk 'BEGIN { srand(11); for (i = 0; i < 300; i++) { n = 1 + int(rand() * 9); s = ""
	for (d = 0; d < n; d++) s = s (d ? ";" : "") (rand() < 0.3 ? "hot" : "f" int(rand() * 29))
	print s, 1 + int(rand() * 50) } }' >"$TMP/names.folded"
"$AFLAME" --minwidth 0 -o "$TMP/names.svg" "$TMP/names.folded" 2>/dev/null
{
	echo '(function () { "use strict";'
	sed -n '/^var D={/,/^.*"};$/p' "$TMP/names.svg"
	echo 'var Z = 0, S0 = 0, K = 0, GW = 1180, tbData = null, cm = -1, mark = null, nmatch = 0;'
	cat src/render/page/frames.js src/render/page/inflate.js src/render/page/search.js
	cat <<'JS'
use(decode());
var N = D.n.length, bad = [], sets = 0, indexed = 0;
function check(names) {
	var ok = new Uint8Array(N), want = [], got, j, m = 0;
	names.forEach(function (k) { ok[k] = 1; });
	for (j = 0; j < n; j++) if (ok[nm[j]]) want.push(j);
	mark.fill(0);
	markHits(ok);
	got = Array.from(hits.subarray(0, nmatch));
	for (j = 0; j < n; j++) if (mark[j] !== ok[nm[j]]) m++;
	sets++;
	if (want.length <= n / 8) indexed++;
	if (got.join() !== want.join() || m) bad.push(names.join("+") + ": " + got.length + " hits, " + m + " marks wrong");
}
for (var a = 0; a < N; a++) {
	check([a]);
	for (var b = a + 1; b < N; b++) {
		check([a, b]);
		for (var c = b + 1; c < N; c++) check([a, b, c]);
	}
}
console.log(bad.length ? bad.slice(0, 3).join("; ") : "ok " + sets + " sets, " + (indexed > 0 && indexed < sets ? "both ways" : "one way only"));
JS
	echo '})();'
} >"$TMP/marks.js"
same "page/search: frames of the matched names, from the index and from a pass, as a plain loop" \
	"$(node "$TMP/marks.js" 2>&1 | sed 's/^ok [0-9]* sets/ok/')" "ok, both ways"

# issue 34: the names and frames arrive deflated in base64 (D.z, pack.c)
# and the page inflates them itself (inflate.js), synchronously, so that
# an event before the first paint can still decode at once. Every kind of
# block (stored, fixed, dynamic codes; codes longer than the lookup's 9
# bits), inputs of 0 to 200,000 bytes, against node's zlib; a stream cut
# short throws; and the SVG's own D.z unpacks to names and frames the
# command line's --format frames agrees with (above, page/big and neg).
cat >"$TMP/inflate.js" <<'JS'
var zlib = require("zlib"), crypto = require("crypto"), bad = [], cases = 0, D = {};
JS
cat src/render/page/inflate.js >>"$TMP/inflate.js"
cat >>"$TMP/inflate.js" <<'JS'
var skew = Buffer.alloc(200000);   /* symbols of very unequal counts: long codes */
for (var i = 0; i < skew.length; i++) skew[i] = i % 997 === 0 ? i % 251 : i % 89 === 0 ? 1 + i % 7 : 0;
var inputs = [Buffer.alloc(0), Buffer.from("a"), Buffer.from("abcabcabcabcabcabc"), crypto.randomBytes(70000),
	      Buffer.from(require("fs").readFileSync(process.argv[2])), skew,
	      Buffer.concat([crypto.randomBytes(3000), Buffer.alloc(100000, 7), Buffer.from("\u00e9\u2028<]]>")])];
inputs.forEach(function (b) {
	[0, 1, 3, 6, 9].forEach(function (level) {
		[zlib.constants.Z_DEFAULT_STRATEGY, zlib.constants.Z_HUFFMAN_ONLY, zlib.constants.Z_FIXED].forEach(function (strategy) {
			var z = zlib.deflateSync(b, { level: level, strategy: strategy }), got;
			cases++;
			try {
				got = Buffer.from(inflate(new Uint8Array(z), b.length));
				if (!got.equals(b)) bad.push(b.length + " bytes at level " + level + " strategy " + strategy);
			} catch (e) {
				bad.push(b.length + " bytes at level " + level + ": " + e.message);
			}
		});
	});
});
var cut = zlib.deflateSync(inputs[4]), threw = false;
try { inflate(new Uint8Array(cut.subarray(0, cut.length >> 1)), inputs[4].length); } catch (e) { threw = true; }
if (!threw) bad.push("a stream cut short did not throw");
console.log(bad.length ? bad.slice(0, 3).join("; ") : "ok");
JS
same "page/inflate: every block type and code length as node's zlib, a cut stream refused" \
	"$(node "$TMP/inflate.js" "$IN" 2>&1)" "ok"
