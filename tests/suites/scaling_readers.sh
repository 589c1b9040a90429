# tier: full
# sanitized: no
# scaling_readers.sh: reader inputs made to take time that grows faster
# than they do (issue 36 items 1-4) take time in proportion: the
# instructions (valgrind's callgrind) one read executes at 16 times the
# size, less those at size 1 (the program's start), over the same at 1
# times, stay near 16 (the quadratic readings gave 240 to 250 here). The
# inputs are written by tests/tools/hostile_perfetto.py,
# hostile_perfdata.py, hostile_pprof.py and hostile_chrome.py (valid files;
# their fuzz seeds are in tests/fuzz/corpus). Needs valgrind (TEST_PACKAGES); not under the
# sanitizers (their instructions are not the program's).
. tests/lib.sh
command -v valgrind >/dev/null || { skip "scaling_readers" "valgrind not installed"; exit 0; }

# instructions ARGS...: what one run of aflame-render ARGS executes
instructions() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$AFLAME" "$@" 2>&1 >/dev/null |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# scale NAME TOOL KIND N ARGS...: the ratio for aflame-render ARGS FILE of
# TOOL's KIND at sizes 1, N and 16 N
scale() {
	local name=$1 tool=$2 kind=$3 n=$4 k i0 i1 i16 r
	shift 4
	for k in 1 "$n" $((16 * n)); do
		python3 "tests/tools/$tool" "$kind" "$k" >"$TMP/$kind$k" || { fail "scaling_readers/$name" "$tool $kind $k failed"; return; }
	done
	i0=$(instructions "$@" "$TMP/${kind}1" -o "$TMP/out")
	i1=$(instructions "$@" "$TMP/$kind$n" -o "$TMP/out")
	i16=$(instructions "$@" "$TMP/$kind$((16 * n))" -o "$TMP/out")
	r=$(awk -v a="$i0" -v b="$i1" -v c="$i16" 'BEGIN {printf "%.1f", (c - a) / (b - a)}')
	check "scaling_readers/$name: 16x the input, ${r}x the instructions ($i1 -> $i16, $i0 at size 1)" \
		awk -v r="$r" 'BEGIN { exit !(r > 0 && r <= 20) }'
}

# issue 36 item 1: an interned entry was parsed again at every use (246x)
scale "Perfetto, one padded event name in every track event" hostile_perfetto.py names 500 --format folded
scale "Perfetto, one padded function name in every callstack" hostile_perfetto.py frames 500 --format folded --cpu-samples
# issue 36 item 2: every sample walked its whole callstack again
scale "Perfetto, one deep callstack in every sample" hostile_perfetto.py callstack 300 --format folded --cpu-samples
# issue 36 item 3: naming the sampled threads looped names x threads
scale "Perfetto, a named thread per sample (--info)" hostile_perfetto.py threads 500 --info

# what the generators' traces draw: the caches keep the names and stacks
python3 tests/tools/hostile_perfetto.py callstack 3 >"$TMP/cs3"
"$AFLAME" --format folded --cpu-samples "$TMP/cs3" >"$TMP/cs3.folded"
check "scaling_readers/a repeated callstack folds to one stack with every sample" \
	grep -qx 'process-10 (10);thread-11 (11);f0;f1;f2 3' "$TMP/cs3.folded"
python3 tests/tools/hostile_perfetto.py threads 3 >"$TMP/th3"
"$AFLAME" --format folded --cpu-samples "$TMP/th3" >"$TMP/th3.folded"
check "scaling_readers/sampled threads take the process tree's names" \
	sh -c "grep -qx 'app (10);t0 (100);run 1' '$TMP/th3.folded' && grep -qx 'app (10);t2 (102);run 1' '$TMP/th3.folded'"
python3 tests/tools/hostile_perfetto.py names 3 >"$TMP/nm3"
"$AFLAME" --format folded "$TMP/nm3" >"$TMP/nm3.folded"
check "scaling_readers/an interned event name read once names every slice" \
	grep -qx 'process-10 (10);thread-11 (11);work 3000' "$TMP/nm3.folded"

# Chrome trace samples: each sample walked its whole stack again, though
# the one before had the same frame (1119M instructions at 5000 frames
# and samples before, 44M after)
scale "Chrome JSON, one deep stack in every sample" hostile_chrome.py deep 300 --format folded
python3 tests/tools/hostile_chrome.py deep 3 >"$TMP/deep3"
"$AFLAME" --format folded "$TMP/deep3" >"$TMP/deep3.folded"
check "scaling_readers/a run of samples of one deep frame folds to its stack" \
	grep -qx 'process-1 (1);thread-2 (2);root;f1;f2 2' "$TMP/deep3.folded"

# naming pprof's processes after their main threads looped processes x
# threads: 63x the instructions at 16 times the size before 9db38e8
scale "pprof, a process and a thread per sample" hostile_pprof.py processes 500 --format folded
python3 tests/tools/hostile_pprof.py processes 2 >"$TMP/pp2"
"$AFLAME" --format folded "$TMP/pp2" >"$TMP/pp2.folded"
check "scaling_readers/pprof processes take their main thread's name, else process-<pid>" \
	sh -c "grep -qx 'w (1000);w (1000);run 1' '$TMP/pp2.folded' && grep -qx 'process-1001 (1001);w (1000001);run 1' '$TMP/pp2.folded'"

# issue 36 item 4: N attrs sharing one section of N ids were each read
# again (990M instructions at 3200 attrs, 173x those at 200): refused at
# once now, as no writer shares them; disjoint ones read in proportion
python3 tests/tools/hostile_perfdata.py attrs 3 >"$TMP/attrs3"
"$AFLAME" --format folded "$TMP/attrs3" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "scaling_readers/attrs sharing one id section are refused (exit 1, one line naming where)" \
	sh -c "test $rc -eq 1 && grep -qxF 'aflame-render: $TMP/attrs3: offset 0x168: malformed perf.data: the sample id sections of two attrs overlap' '$TMP/err' && test \$(wc -l <'$TMP/err') -eq 1"
python3 tests/tools/hostile_perfdata.py attrs 200 >"$TMP/attrs200"
python3 tests/tools/hostile_perfdata.py attrs 3200 >"$TMP/attrs3200"
i1=$(instructions --format folded "$TMP/attrs200")
i16=$(instructions --format folded "$TMP/attrs3200")
r=$(awk -v a="$i1" -v b="$i16" 'BEGIN {printf "%.1f", b / a}')
check "scaling_readers/perf.data, 16x the attrs sharing one id section, ${r}x the instructions ($i1 -> $i16)" \
	awk -v r="$r" 'BEGIN { exit !(r > 0 && r <= 20) }'
scale "perf.data, N attrs with an id each" hostile_perfdata.py disjoint 200 --format folded
