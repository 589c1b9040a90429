# simpleperf.sh: simpleperf report-sample profiles (issue 17): our own
# corner fixture (tests/data/simpleperf/SOURCES.md), --info, damage.
. tests/lib.sh
S=$DATA/simpleperf
got=$("$AFLAME" --format folded "$S/corners.trace" 2>"$TMP/err")
want="com.example.app (101);RenderThread (102);/system/framework/arm64/boot.oat[+40] 500
com.example.app (101);RenderThread (102);[no callchain] 250
com.example.app (101);com.example.app (101);com.example.app.MainActivity.onDraw;/data/app/lib/arm64/libnative.so[+1a2b] 3000
com.example.app (101);com.example.app (101);com.example.app.MainActivity.onDraw;render_frame();draw(int) 1000
process-103 (103);thread-103 (103);com.example.app.MainActivity.onDraw 125"
if [ "$got" = "$want" ]; then pass "simpleperf/corners: leaf-last callchains, file+offset for unknown symbols, first event type only"
else fail "simpleperf/corners" "got: $(echo "$got" | tr '\n' '|')"; fi
check "simpleperf/no-callchain samples are counted" grep -q 'warning: 1 samples without a callchain' "$TMP/err"
check "simpleperf/symbol ids past the table are counted" grep -q 'warning: 1 frames naming a symbol their file does not have' "$TMP/err"
"$AFLAME" --info "$S/corners.trace" >"$TMP/info" 2>/dev/null
for l in "format: simpleperf" "event types: cpu-clock, page-faults (the first is drawn)" \
	"samples: 5 drawn, 1 of other event types" "lost samples: 2 of 6" "threads: 3" \
	"files: 2 (2 with symbols)" "app package: com.example.app" \
	"unwinding failures: 2 (not enough stack 1, invalid map 1)"; do
	check "simpleperf/info: $l" grep -qxF "$l" "$TMP/info"
done
got=$("$AFLAME" --format folded --event page-faults "$S/corners.trace" 2>/dev/null)
check "simpleperf/--event page-faults draws the second event type's sample" \
	test "$got" = "com.example.app (101);com.example.app (101);com.example.app.MainActivity.onDraw 9"
"$AFLAME" --info --event page-faults "$S/corners.trace" >"$TMP/info" 2>/dev/null
check "simpleperf/--event: --info says which is drawn" \
	grep -qxF "event types: cpu-clock, page-faults (page-faults is drawn)" "$TMP/info"
"$AFLAME" --event cpu-cycles -o "$TMP/noev.svg" "$S/corners.trace" 2>"$TMP/e"
rc=$?
check "simpleperf/--event absent: exit 1, the file's events listed" sh -c "[ $rc -eq 1 ] && grep -qF \
	\"no event type 'cpu-cycles' in the file (it has: cpu-clock, page-faults)\" '$TMP/e'"
check "simpleperf/--event absent: no output" test ! -e "$TMP/noev.svg"
"$AFLAME" --info "$S/corners.trace" >"$TMP/info" 2>/dev/null
check "simpleperf/cpu-clock weights in ns" grep -qE '^ +101 +com.example.app +2 +4000 ns$' "$TMP/info"
got=$("$AFLAME" --format folded -f simpleperf "$S/corners.trace" 2>/dev/null | head -1)
check "simpleperf/-f simpleperf reads it" test -n "$got"
gzip -c "$S/corners.trace" >"$TMP/c.trace.gz"
"$AFLAME" --format folded "$TMP/c.trace.gz" >"$TMP/gz.folded" 2>/dev/null
"$AFLAME" --format folded "$S/corners.trace" >"$TMP/plain.folded" 2>/dev/null
check "simpleperf/gzip-wrapped reads the same" cmp "$TMP/gz.folded" "$TMP/plain.folded"
printf 'SIMPLEPERF\001\000\377\000\000\000xx' >"$TMP/long.trace"
"$AFLAME" -o "$TMP/long.svg" "$TMP/long.trace" 2>"$TMP/e"
check "simpleperf/a record past the end: exit 1, offset named" grep -q 'offset 0xc: a record of 255 bytes runs past the end of the file' "$TMP/e"
check "simpleperf/no partial output" test ! -e "$TMP/long.svg"

# --trace-offcpu (offcpu.txtpb): sched_switch samples weigh the time to the
# thread's next sample or switch-on, marked [off-cpu]; one with neither left out
got=$("$AFLAME" --format folded "$S/offcpu.trace" 2>/dev/null)
want="app (201);app (201);run() 500000
app (201);app (201);run();wait();[off-cpu] 5000
app (201);worker (202);poll();[off-cpu] 1500"
check "simpleperf/offcpu: off-CPU samples drawn, marked, weighing the time off the CPU" test "$got" = "$want"
"$AFLAME" --info "$S/offcpu.trace" >"$TMP/info" 2>/dev/null
check "simpleperf/offcpu: --info counts them" grep -qF "off-cpu samples: 2 drawn (marked [off-cpu]" "$TMP/info"
check "simpleperf/offcpu: --info counts those left out" grep -qF "1 with neither (left out)" "$TMP/info"
got=$("$AFLAME" --format folded --event sched:sched_switch "$S/offcpu.trace" 2>/dev/null | awk '{s += $NF} END {print NR, s}')
check "simpleperf/offcpu: --event sched:sched_switch draws the raw switch samples" test "$got" = "2 3"

damage_sweep "simpleperf/corners.trace" simpleperf "$S/corners.trace"
damage_sweep "simpleperf/offcpu.trace" simpleperf "$S/offcpu.trace"
