# pprof.sh: pprof profiles (issue 35 item 4): real profiles from Parca's
# test data and Go's runtime/pprof against `go tool pprof -traces` (kept
# beside them, tests/data/pprof/SOURCES.md), our corner fixture, --info,
# --event, detection, compression, damage.
. tests/lib.sh
P=$DATA/pprof

# every real profile: the same stacks and weights as go tool pprof -traces
for f in "$P"/*.pb.gz "$P"/*.pprof "$P"/corners.pb; do
	b=${f%%.*}
	"$AFLAME" --format folded "$f" >"$TMP/ours.folded" 2>/dev/null
	check "pprof/$(basename "$f"): stacks and weights as go tool pprof -traces" \
		python3 tests/tools/pprof_traces.py "$b.traces.gz" "$TMP/ours.folded"
done

got=$("$AFLAME" --format folded "$P/corners.pb" 2>"$TMP/err")
want="app (100);RenderThread (101);main;[unknown]+0x4242 250
app (100);RenderThread (101);main;render;draw 2000
app (100);app (100);main;libc.so+0x2a2b 500
main 125"
if [ "$got" = "$want" ]; then pass "pprof/corners: labels as process > thread roots, inlined lines innermost deepest, mapping+offset, the last sample type"
else fail "pprof/corners" "got: $(echo "$got" | tr '\n' '|')"; fi
check "pprof/negative values are left out, counted" \
	grep -qF 'warning: 1 samples with a negative value left out' "$TMP/err"
"$AFLAME" --info "$P/corners.pb" >"$TMP/info" 2>/dev/null
for l in "format: pprof" "sample types: samples/count, cpu/nanoseconds (cpu/nanoseconds is drawn)" \
	"samples: 4 drawn, 1 with a value of 0" "locations: 5 (4 functions, 1 mappings)" \
	"period: 10000000 cpu/nanoseconds" "duration: 2000000000 ns"; do
	check "pprof/info: $l" grep -qxF "$l" "$TMP/info"
done
check "pprof/info: threads from the labels, weights in ns" grep -qE '^ +101 +RenderThread +2 +2250 ns$' "$TMP/info"
got=$("$AFLAME" --format folded --event samples "$P/corners.pb" 2>/dev/null | tail -1)
check "pprof/--event samples draws the first sample type" test "$got" = "wait 2"
"$AFLAME" --event cycles -o "$TMP/noev.svg" "$P/corners.pb" 2>"$TMP/e"
rc=$?
check "pprof/--event absent: exit 1, the sample types listed" sh -c "[ $rc -eq 1 ] && grep -qF \
	\"no event type 'cycles' in the file (it has: samples, cpu)\" '$TMP/e'"
check "pprof/--event absent: no output" test ! -e "$TMP/noev.svg"

# detection from the content, never the name; gzip or not
cp "$P/corners.pb" "$TMP/looks.folded"
"$AFLAME" --format folded "$TMP/looks.folded" >"$TMP/a.folded" 2>/dev/null
"$AFLAME" --format folded "$P/corners.pb" >"$TMP/b.folded" 2>/dev/null
check "pprof/detected from the content, whatever the name" cmp "$TMP/a.folded" "$TMP/b.folded"
gzip -c "$P/corners.pb" >"$TMP/c.pb.gz"
"$AFLAME" --format folded "$TMP/c.pb.gz" >"$TMP/gz.folded" 2>/dev/null
check "pprof/gzip'd reads the same" cmp "$TMP/gz.folded" "$TMP/b.folded"
"$AFLAME" --format folded -f pprof "$P/corners.pb" >"$TMP/f.folded" 2>/dev/null
check "pprof/-f pprof reads it" cmp "$TMP/f.folded" "$TMP/b.folded"

# damage: a cut file is one line naming the offset, and no output
head -c 200 "$P/corners.pb" >"$TMP/cut.pb"
"$AFLAME" -o "$TMP/cut.svg" "$TMP/cut.pb" 2>"$TMP/e"
rc=$?
check "pprof/cut: exit 1, one line with the offset" sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$TMP/e') -eq 1 ] && \
	grep -qxF 'aflame-render: $TMP/cut.pb: offset 0xc4: malformed pprof profile: length runs past the end of its message' '$TMP/e'"
check "pprof/cut: no partial output" test ! -e "$TMP/cut.svg"
damage_sweep "pprof/corners.pb" pprof "$P/corners.pb"
