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
# a location id past the direct table of ids (location 3 made 127, in
# the location and its sample) is found the same, its two lines included
python3 -c "import sys; d = open(sys.argv[1], 'rb').read(); a, b = b'\x0a\x02\x03\x02', b'\x08\x03\x22'
assert d.count(a) == 1 and d.count(b) == 1
open(sys.argv[2], 'wb').write(d.replace(a, b'\x0a\x02\x7f\x02').replace(b, b'\x08\x7f\x22'))" \
	"$P/corners.pb" "$TMP/sparse.pb"
"$AFLAME" --format folded "$TMP/sparse.pb" >"$TMP/sparse.folded" 2>/dev/null
check "pprof/a sparse location id reads as a dense one" cmp "$TMP/sparse.folded" "$TMP/b.folded"
# a line naming a function the profile lacks (location 2's: 1 made 99)
python3 -c "import sys; d = open(sys.argv[1], 'rb').read(); l = b'\x22\x04\x08\x01\x10\x0a'
assert d.count(l) == 1; open(sys.argv[2], 'wb').write(d.replace(l, b'\x22\x04\x08\x63\x10\x0a'))" \
	"$P/corners.pb" "$TMP/nofn.pb"
"$AFLAME" -o "$TMP/nofn.svg" "$TMP/nofn.pb" 2>"$TMP/e"
rc=$?
check "pprof/a line naming an absent function: exit 1, one line naming its id" sh -c "[ $rc -eq 1 ] && \
	[ \$(wc -l <'$TMP/e') -eq 1 ] && [ ! -e '$TMP/nofn.svg' ] && grep -qxF 'aflame-render: $TMP/nofn.pb: offset \
0x9a: malformed pprof profile: a line of a location names function 99, which the profile does not have' '$TMP/e'"
damage_sweep "pprof/corners.pb" pprof "$P/corners.pb"

# ---- pprof out (--format pprof, -o x.pb.gz / x.pprof gzip'd, x.pb plain) ----
"$AFLAME" -o "$TMP/c.pb.gz" "$P/corners.pb" 2>/dev/null
check "pprof out: -o x.pb.gz writes gzip" sh -c "gzip -t '$TMP/c.pb.gz'"
"$AFLAME" -o "$TMP/c.pb" "$P/corners.pb" 2>/dev/null
check "pprof out: -o x.pb writes the protobuf plain" sh -c "! gzip -t '$TMP/c.pb' 2>/dev/null && [ -s '$TMP/c.pb' ]"
"$AFLAME" --format pprof "$P/corners.pb" >"$TMP/stdout.pb.gz" 2>/dev/null
check "pprof out: --format pprof to standard output" cmp "$TMP/stdout.pb.gz" "$TMP/c.pb.gz"
# what we write, we read back as the same stacks and weights, from any input
for f in "$P/corners.pb" "$P/parca-labels.pb.gz" "$DATA/simpleperf/corners.trace" \
	"$DATA/perfdata/corners.data" "$DATA/flamegraph-pl/example-perf-stacks.folded.gz"; do
	"$AFLAME" --format folded "$f" 2>/dev/null | awk '$NF != 0' >"$TMP/in.folded"
	"$AFLAME" -o "$TMP/rt.pprof" "$f" 2>/dev/null
	"$AFLAME" --format folded "$TMP/rt.pprof" >"$TMP/rt.folded" 2>/dev/null
	check "pprof out: $(basename "$f") read back, the same stacks and weights" cmp "$TMP/in.folded" "$TMP/rt.folded"
done
# µs (method traces, atrace) are written as nanoseconds
"$AFLAME" --format folded "$DATA/art/perflib-basic.trace" 2>/dev/null |
	awk '$NF != 0 { $NF = $NF * 1000; print }' >"$TMP/in.folded"
"$AFLAME" -o "$TMP/rt.pb" "$DATA/art/perflib-basic.trace" 2>/dev/null
"$AFLAME" --format folded "$TMP/rt.pb" >"$TMP/rt.folded" 2>/dev/null
check "pprof out: µs written as nanoseconds" cmp "$TMP/in.folded" "$TMP/rt.folded"
"$AFLAME" --info "$TMP/rt.pb" 2>/dev/null >"$TMP/info"
check "pprof out: its sample type is time/nanoseconds" grep -qxF "sample types: time/nanoseconds" "$TMP/info"
printf 'a;b 1.5\n' >"$TMP/dec.folded"
"$AFLAME" -o "$TMP/dec.pb.gz" "$TMP/dec.folded" 2>"$TMP/e"
rc=$?
check "pprof out: decimal weights refused, one line, no output" sh -c "[ $rc -eq 1 ] && [ ! -e '$TMP/dec.pb.gz' ] && \
	grep -qF 'pprof values are integers, and these weights have 1 decimal' '$TMP/e'"
# the reference: go tool pprof reads what we write as the same stacks and totals
if command -v go >/dev/null; then
	for f in "$P/corners.pb" "$DATA/perfdata/corners.data" "$DATA/art/perflib-basic.trace"; do
		"$AFLAME" -o "$TMP/go.pb.gz" "$f" 2>/dev/null
		"$AFLAME" --format folded "$f" >"$TMP/ours.folded" 2>/dev/null
		scale=1
		case $f in *.trace) scale=1000 ;; esac
		go tool pprof -traces -unit=ns "$TMP/go.pb.gz" >"$TMP/go.traces" 2>/dev/null
		check "pprof out: go tool pprof -traces reads $(basename "$f")'s as the same stacks and totals" \
			python3 tests/tools/pprof_traces.py --exact --scale "$scale" "$TMP/go.traces" "$TMP/ours.folded"
	done
else
	skip "pprof out: go tool pprof" "golang-go not installed"
fi
# A profile of more than two of the deflater's chunks (256 KiB of protobuf
# each, render/gzpar.h), deflated on two threads: one gzip member of the
# plain bytes, the same bytes on one thread, read by go tool pprof
awk 'BEGIN { for (i = 1; i <= 15000; i++) printf "main;a%d;b%d;c%d;d%d %d\n", i % 50, i % 700, i, (i * 7) % 1000, i }' \
	>"$TMP/big.folded"
"$AFLAME" -o "$TMP/big.pb" "$TMP/big.folded" 2>/dev/null
"$AFLAME" -o "$TMP/big.pb.gz" "$TMP/big.folded" 2>/dev/null
AFLAME_NO_THREADS=1 "$AFLAME" -o "$TMP/big1.pb.gz" "$TMP/big.folded" 2>/dev/null
check "pprof out: a profile of 3 chunks ($(wc -c <"$TMP/big.pb") bytes) is gzip, of the plain bytes" \
	sh -c "[ $(wc -c <"$TMP/big.pb") -gt 524288 ] && gzip -t '$TMP/big.pb.gz' && gzip -dc '$TMP/big.pb.gz' | cmp - '$TMP/big.pb'"
check "pprof out: the same bytes with AFLAME_NO_THREADS" cmp "$TMP/big.pb.gz" "$TMP/big1.pb.gz"
if command -v go >/dev/null; then
	go tool pprof -traces -unit=ns "$TMP/big.pb.gz" >"$TMP/go.traces" 2>/dev/null
	check "pprof out: go tool pprof -traces reads the 3-chunk profile as the same stacks and totals" \
		python3 tests/tools/pprof_traces.py --exact --scale 1 "$TMP/go.traces" "$TMP/big.folded"
fi
# Text whose first bytes read as a long field ("ja": field 13, 97 bytes) is
# not a cut profile: small folded and perf script files opening with "java"
# were refused as malformed pprof
printf 'java;main;run 3\njava;main 2\n' >"$TMP/java.folded"
got=$("$AFLAME" --format folded "$TMP/java.folded" 2>&1 | tr '\n' '|')
check "pprof/a small folded file opening with 'java' is folded (got $got)" test "$got" = "java;main 2|java;main;run 3|"
printf 'java 123 [000] 1.0: 1 cpu-clock:\n\t          7f12ab main (/bin/x)\n\n' >"$TMP/java.perf"
got=$("$AFLAME" --format folded "$TMP/java.perf" 2>&1 | tr '\n' '|')
check "pprof/a one-sample perf script of java is perf script (got $got)" test "$got" = "java (123);main 1|"
