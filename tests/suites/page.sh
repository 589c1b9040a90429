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
	cat src/render/page/frames.js src/render/page/unpack.js src/render/page/tree.js src/render/page/transforms.js
	echo 'unpack().then(function () {'   # D.z unpacked as the page does
	cat tests/browser/views_check.js
	echo '}); })();'
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
		cat src/render/page/frames.js src/render/page/unpack.js
		echo 'unpack().then(function () { var fs = decode(), i, s;'
		echo 'for (i = 0; i < fs.n; i++) { s = [fs.dp[i], fs.wd[i]];'
		echo '	if (D.d) s.push(D.d[i]); console.log(s.concat(D.n[fs.nm[i]]).join(" ")); }'
		echo '}); })();'
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
	cat src/render/page/frames.js src/render/page/unpack.js src/render/page/search.js
	cat <<'JS'
unpack().then(function () {
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
});
JS
	echo '})();'
} >"$TMP/marks.js"
same "page/search: frames of the matched names, from the index and from a pass, as a plain loop" \
	"$(node "$TMP/marks.js" 2>&1 | sed 's/^ok [0-9]* sets/ok/')" "ok, both ways"

# issue 34: the names and frames arrive deflated in base64 (D.z, pack.c)
# and the page unpacks them with the browser's DecompressionStream
# (unpack.js; node has it too, and atob, Blob and Response: the same code
# path). What pack.c writes (level 3): the D.z of graphs of 2 to 200,000
# bytes of JSON (fixed and dynamic blocks, one to several base64 lines
# joined by continuations), unpacked to the JSON node's zlib reads in it
# (the frames' decode is checked against --format frames above, page/big
# and neg). Every zlib level, 0 to 9, and strategy (stored, fixed and
# dynamic blocks, Huffman only, RLE), of JSON texts of 2 bytes to 300 KB.
# A stream cut short, a byte changed, a wrong length: refused, the
# promise rejected with why (the page puts that on its details line:
# tests/browser, unpackfail).
"$AFLAME" -o "$TMP/tiny.svg" <(printf 'a;b 1\n') 2>/dev/null
awk 'BEGIN { srand(3); for (i = 0; i < 3000; i++) { s = "root"; for (d = 0; d < 8; d++) s = s ";fn_" int(rand() * 3000) "_" d
	print s, 1 + int(rand() * 100) } }' >"$TMP/wide.folded"
"$AFLAME" --minwidth 0 -o "$TMP/wide.svg" "$TMP/wide.folded" 2>/dev/null
cat >"$TMP/unpack.js" <<'JS'
var zlib = require("zlib"), fs = require("fs"), D, bad = [], cases = 0;
JS
cat src/render/page/unpack.js >>"$TMP/unpack.js"
cat >>"$TMP/unpack.js" <<'JS'
/* unpack() of D = { z, zn }: what it put in D, or "refused: why" */
function unpacked(z, zn) {
	D = { z: z, zn: zn };
	return unpack().then(function () { delete D.z; delete D.zn; return JSON.stringify(D); },
			     function (e) { return "refused: " + e.message; });
}
var work = Promise.resolve();
function check(what, z, zn, want) {
	cases++;
	work = work.then(function () { return unpacked(z, zn); }).then(function (got) {
		if (!(want instanceof RegExp ? want.test(got) : got === want))
			bad.push(what + ": " + String(got).slice(0, 80));
	});
}
/* the SVGs pack.c wrote, and the same members as they would be unpacked */
process.argv.slice(2).forEach(function (svg) {
	var t = fs.readFileSync(svg, "utf8"), m = /\nzn:(\d+),z:("(?:[^"\\]|\\\n)*")/.exec(t), z, o;
	if (!m) return bad.push(svg + ": no D.z");
	z = eval(m[2]);
	o = JSON.parse(zlib.inflateSync(Buffer.from(z, "base64")).toString());
	check(svg, z, +m[1], JSON.stringify(o));
	var b = Buffer.from(z, "base64");
	check(svg + " cut short", b.subarray(0, b.length >> 1).toString("base64"), +m[1], /^refused: ./);
	b[b.length >> 1] ^= 0x55;
	check(svg + " a byte changed", b.toString("base64"), +m[1], /^refused: ./);
});
var skew = [];   /* names of very unequal counts */
for (var i = 0; i < 20000; i++) skew.push(i % 997 === 0 ? "r" + i : i % 89 === 0 ? "s" + i % 7 : "t");
var texts = [{}, { n: ["a"] }, { n: skew }, { n: ["\u00e9\u2028<]]>\"", "x".repeat(300000)] },
	     { f: require("crypto").randomBytes(70000).toString("base64") }];
texts.forEach(function (o) {
	var b = Buffer.from(JSON.stringify(o));
	for (var level = 0; level <= 9; level++)
		[zlib.constants.Z_DEFAULT_STRATEGY, zlib.constants.Z_FIXED, zlib.constants.Z_HUFFMAN_ONLY,
		 zlib.constants.Z_RLE].forEach(function (strategy) {
			check(b.length + " bytes at level " + level + " strategy " + strategy,
			      zlib.deflateSync(b, { level: level, strategy: strategy }).toString("base64"), b.length,
			      JSON.stringify(o));
		});
	check(b.length + " bytes, the length wrong", zlib.deflateSync(b).toString("base64"), b.length + 1, /^refused: ./);
});
work.then(function () { console.log(bad.length ? bad.slice(0, 3).join("; ") : "ok"); });
JS
same "page/unpack: pack.c's D.z, every zlib level and block type, through DecompressionStream; a cut or changed stream refused" \
	"$(node "$TMP/unpack.js" "$TMP/rnd.svg" "$TMP/names.svg" "$TMP/tiny.svg" "$TMP/big.svg" "$TMP/wide.svg" 2>&1)" "ok"
