# cost: 10
# captures.sh: several captures of one format as one graph (issue 35 item 6):
# one capture given twice doubles every stack and three times triples it,
# for every format (compared as --format folded, weights as exact
# fractions); --average of N copies is the capture itself; --diff's groups
# are each averaged (a group of copies against one copy changes nothing);
# the subtitle says how many captures; mixed formats, --info and
# --flamechart over several captures are refused with one line;
# --per-thread keeps one folder per input.
. tests/lib.sh

# times K ONE MANY: every stack of MANY weighs K times its weight in ONE
times() {
	python3 - "$@" <<'PY'
import sys
from fractions import Fraction
k, one, many = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def load(p):
    d = {}
    for line in open(p, encoding="utf-8", errors="surrogateescape"):
        line = line.rstrip("\n")
        if line:
            s, w = line.rsplit(" ", 1)
            d[s] = d.get(s, 0) + Fraction(w)
    return d
a, b = load(one), load(many)
sys.exit(0 if a and set(a) == set(b) and all(b[s] == k * a[s] for s in a) else 1)
PY
}

for f in art/yamp-legacy.trace art/perflib-basic-api10.trace atrace/android_systrace.html.gz \
	atrace/variants.txt perfetto/corners.pftrace perfetto/corners-compressed.pftrace \
	perfdata/corners.data simpleperf/corners.trace pprof/go-cpu.pb.gz \
	perfscript/flamegraph/example-perf-stacks.txt.gz folded/basic.folded; do
	[ -f "$DATA/$f" ] || { skip "captures/$f" "no such file"; continue; }
	in=$DATA/$f
	"$AFLAME" --format folded "$in" >"$TMP/one" 2>/dev/null
	"$AFLAME" --format folded "$in" "$in" >"$TMP/two" 2>/dev/null
	"$AFLAME" --format folded "$in" "$in" "$in" >"$TMP/three" 2>/dev/null
	"$AFLAME" --format folded --average "$in" "$in" "$in" >"$TMP/avg" 2>/dev/null
	check "captures/$f given twice doubles every stack" times 2 "$TMP/one" "$TMP/two"
	check "captures/$f given three times triples every stack" times 3 "$TMP/one" "$TMP/three"
	check "captures/$f: --average of three copies is the capture" times 1 "$TMP/one" "$TMP/avg"
done

in=$DATA/art/yamp-legacy.trace
"$AFLAME" "$in" "$in" -o "$TMP/two.svg" 2>/dev/null
check "captures/the subtitle says how many captures" \
	grep -q 'yamp-legacy.trace + 1 more · 2 captures · wall clock' "$TMP/two.svg"
"$AFLAME" --average "$in" "$in" "$in" -o "$TMP/avg.svg" 2>/dev/null
check "captures/the subtitle says an average" grep -q '+ 2 more · average of 3 captures' "$TMP/avg.svg"
"$AFLAME" "$DATA/folded/basic.folded" "$DATA/folded/basic.folded" -o "$TMP/folded.svg" 2>/dev/null
check "captures/folded stacks too say how many" grep -q 'basic.folded + 1 more · 2 captures' "$TMP/folded.svg"

# --diff A A -- A: each side averaged, so nothing changed (two-count lines equal)
"$AFLAME" --diff --format folded "$in" "$in" -- "$in" >"$TMP/diff" 2>/dev/null
check "captures/--diff A A -- A: every stack the same before and after" \
	awk 'NF < 3 || $(NF-1) != $NF { bad = 1 } END { exit bad || NR == 0 }' "$TMP/diff"
"$AFLAME" --diff -o "$TMP/diff.svg" "$in" "$in" -- "$in" "$in" 2>/dev/null
check "captures/--diff groups: the subtitle names each side's average" \
	grep -q 'yamp-legacy.trace + 1 more (average of 2) → yamp-legacy.trace + 1 more (average of 2)' "$TMP/diff.svg"
out=$("$AFLAME" --diff "$in" "$in" -- 2>&1)
check "captures/--diff A B --: no AFTER is a usage error" test $? = 2 -a -n "$out"

# refusals: exit 1, one line besides the captures' warnings
err() { "$AFLAME" "$@" >/dev/null 2>"$TMP/err"; [ $? = 1 ] && [ "$(grep -vc ': warning: ' "$TMP/err")" = 1 ]; }
check "captures/mixed formats (ART, then folded) are refused" \
	err --format folded "$in" "$DATA/folded/basic.folded"
check "captures/mixed formats (folded, then ART) are refused" \
	err --format folded "$DATA/folded/basic.folded" "$in"
check "captures/--info over two ART captures is refused" err --info "$DATA/art/perflib-basic-api10.trace" "$DATA/art/perflib-basic-api10.trace"
check "captures/--flamechart over two ART captures is refused" \
	err --flamechart "$DATA/art/perflib-basic-api10.trace" "$DATA/art/perflib-basic-api10.trace" -o "$TMP/c.svg"
"$AFLAME" --average --per-thread "$TMP/pt" "$in" "$in" >/dev/null 2>&1
check "captures/--average with --per-thread is a usage error" test $? = 2

# --per-thread keeps one folder per input
cp "$in" "$TMP/b.trace"
"$AFLAME" --per-thread "$TMP/dir" --format folded "$in" "$TMP/b.trace" 2>/dev/null
check "captures/--per-thread writes one folder per input" \
	test -d "$TMP/dir/yamp-legacy" -a -d "$TMP/dir/b" -a -f "$TMP/dir/index.html"
