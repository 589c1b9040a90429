# cost: 3
# chart.sh: flame charts (--flamechart) of several threads and of calls
# with gaps between them, where a time axis can be read: every frame inside
# the chart, no two frames of one row over each other (each thread of a
# process on rows of its own), each frame at its own time. On real ART,
# Chrome and Perfetto captures from tests/data, both orientations.
. tests/lib.sh
ROWS=tests/tools/chart_rows.py

# in_rows NAME FILE [ARGS...]: the chart's SVG boxes pass chart_rows.py and
# --format frames has no frame outside [10, 1190] px
in_rows() {
	local name=$1 file=$2
	shift 2
	"$AFLAME" --no-js --flamechart "$@" "$DATA/$file" -o "$TMP/c.svg" 2>/dev/null
	if python3 "$ROWS" "$TMP/c.svg" >"$TMP/rows" 2>&1; then pass "chart/$name: rows"
	else fail "chart/$name: rows" "$(head -2 "$TMP/rows" | tr '\n' ' ')"; fi
	"$AFLAME" --flamechart --format frames "$@" "$DATA/$file" 2>/dev/null >"$TMP/f.txt"
	local out
	out=$(awk 'NR > 1 && ($2 < 9.95 || $2 + $3 > 1190.05) { print; n++ } END { exit n > 0 }' "$TMP/f.txt")
	if [ $? = 0 ]; then pass "chart/$name: frames inside"; else fail "chart/$name: frames inside" "$(echo "$out" | head -2 | tr '\n' '|')"; fi
}

for f in art/perflib-basic.trace chrome/multi-thread-with-samples.json chrome/multiprocess.json \
	perfetto/corners.pftrace perfetto/late_track.pftrace perfetto/nowinandroid-system.pftrace; do
	in_rows "$f" "$f"
	in_rows "$f --inverted" "$f" --inverted
done

# field F of the frames line named NAME (the first such)
field() { awk -v n="$2" -v f="$3" 'NR > 1 { s = $5; for (i = 6; i <= NF; i++) s = s " " $i; if (s == n) { print $f; exit } }' "$1"; }

# ART: the thread's calls have gaps; its last call ends the chart (57 µs,
# not the 28 µs the calls sum to) and the thread's frame reaches it
"$AFLAME" --flamechart --format frames "$DATA/art/perflib-basic.trace" 2>/dev/null >"$TMP/art.txt"
check "chart/ART: the span reaches the last call's end" test "$(field "$TMP/art.txt" all 4)" = 57
check "chart/ART: the last call ends at the right edge" test "$(awk 'NR > 1 && $5 == "android.os.Debug.stopMethodTracing" { printf "%.1f", $2 + $3 }' "$TMP/art.txt")" = 1190.0
check "chart/ART: the thread's frame spans its calls" test "$(field "$TMP/art.txt" 'AsyncTask #1 (11)' 3)" = 1180.0

# Chrome: a process of two threads; thread-2 has no time of its own and
# lies over its calls, which keep theirs: function1 and function3 start
# together (21.3 ms) on rows of their own
"$AFLAME" --flamechart --format frames "$DATA/chrome/multi-thread-with-samples.json" 2>/dev/null >"$TMP/chr.txt"
check "chart/Chrome: a thread without a start lies over its calls" test "$(field "$TMP/chr.txt" 'thread-2 (2)' 2)" = 10.0
check "chart/Chrome: the span is the threads' time, not their sum" test "$(field "$TMP/chr.txt" all 4)" = 54096
check "chart/Chrome: calls of two threads keep their times" \
	test "$(field "$TMP/chr.txt" function1 2)" = "$(field "$TMP/chr.txt" function3 2)"
"$AFLAME" --no-js --flamechart "$DATA/chrome/multi-thread-with-samples.json" -o "$TMP/chr.svg" 2>/dev/null
check "chart/Chrome: the process and each thread on rows of their own (8 rows)" \
	grep -q 'rows 8 ' <(python3 "$ROWS" "$TMP/chr.svg")
# the page draws from the layout's bands: the process's one row, then each
# thread's, its root on the band's first row
"$AFLAME" --flamechart "$DATA/chrome/multi-thread-with-samples.json" -o "$TMP/chr-page.svg" 2>/dev/null
check "chart/Chrome: the page's bands (process, thread, thread)" grep -q 'b:\[1,2,7,2,5,3,5,9,0\]' "$TMP/chr-page.svg"

# the page, in node: frames decoded and put on rows as frames.js does, and
# their own weight as hover.js gives it (the tooltip and the table): no two
# frames of one row over each other, none past the chart's width, and no
# negative self (a process over threads that overlap in time)
page_rows() {   # NAME FILE
	"$AFLAME" --flamechart "$DATA/$2" -o "$TMP/pg.svg" 2>/dev/null
	{
		echo '(function () { "use strict";'
		sed -n '/^var D={/,/^.*"};$/p' "$TMP/pg.svg"
		cat src/render/page/frames.js src/render/page/unpack.js
		sed -n '/^function selfOf(i) {$/,/^}$/p' src/render/page/hover.js
		cat <<'JS'
unpack().then(function () {   /* D.z, as the page unpacks it */
var fs = decode(), bad = [], i, r, k, R = fs.row, A = fs.rowAt, N = fs.nm;
st = fs.st;
wd = fs.wd;
en = fs.en;
for (i = 0; i < fs.n; i++) {
	if (st[i] < 0 || st[i] + wd[i] > wd[0]) bad.push("outside " + D.n[N[i]]);
	if (selfOf(i) < 0) bad.push("negative self " + D.n[N[i]]);
}
for (r = 0; r < fs.nrows; r++)
	for (k = A[r] + 1; k < A[r + 1]; k++)
		if (st[R[k]] < st[R[k - 1]] + wd[R[k - 1]])
			bad.push("row " + r + ": " + D.n[N[R[k - 1]]] + " and " + D.n[N[R[k]]]);
console.log(bad.length ? bad.slice(0, 3).join("; ") : "ok " + fs.n + " frames " + fs.nrows + " rows");
});
})();
JS
	} >"$TMP/pg.js"
	local got
	got=$(node "$TMP/pg.js" 2>&1)
	case $got in
	ok*) pass "chart/page: $1" ;;
	*) fail "chart/page: $1" "$got" ;;
	esac
}
if command -v node >/dev/null 2>&1; then
	for f in art/perflib-basic.trace chrome/multi-thread-with-samples.json chrome/multiprocess.json \
		perfetto/corners.pftrace perfetto/nowinandroid-system.pftrace; do
		page_rows "$f" "$f"
	done
else
	skip "chart/page" "node not installed"
fi

# Without a window a chart begins at the earliest first event of the threads
# drawn and every thread keeps its offset from it (they share one time
# axis): on nowinandroid-system threads 9412, 9398 and 9432 start at 0.58,
# 0.71 and ~4 s, where --from 0 puts them, not all at the left edge
N=perfetto/nowinandroid-system.pftrace
xs() { "$AFLAME" --flamechart --format frames "$@" 2>/dev/null |
	awk '/ \((9412|9398|9432)\)$/ { printf "%s ", $2 }'; }
nowin=$(xs "$DATA/$N") win=$(xs --from 0 --to 100s "$DATA/$N")
check "chart/Perfetto: threads at their offsets without a window ($nowin)" test "$nowin" = "$win"
check "chart/Perfetto: threads not all at the left edge" test "$nowin" = "88.7 107.5 585.2 "
# one thread (-t) begins at its own first event, as before
check "chart/Perfetto: -t 9432 begins at its first event" \
	test "$("$AFLAME" --flamechart --format frames -t 9432 "$DATA/$N" 2>/dev/null | awk 'NR == 3 { print $2 }')" = 10.0
# ART's wall clock is shared: GLThread 161 begins ~3 s after main; its
# thread-cpu clocks are not (each thread's from its own first event)
"$AFLAME" --flamechart --format frames --clock wall "$DATA/art/yamp-legacy.trace" 2>/dev/null >"$TMP/yw.txt"
check "chart/ART wall: GLThread 161 at its offset" test "$(field "$TMP/yw.txt" 'GLThread 161 (3168)' 2)" = 731.2
check "chart/ART wall: main at the left edge" test "$(field "$TMP/yw.txt" 'main (3142)' 2)" = 10.0
"$AFLAME" --flamechart --format frames --clock cpu "$DATA/art/yamp-legacy.trace" 2>/dev/null >"$TMP/yc.txt"
check "chart/ART thread-cpu: each thread from its own first event" test "$(field "$TMP/yc.txt" 'GLThread 161 (3168)' 2)" = 10.0
