# cost: 8
# chrome.sh: Chrome trace-event JSON and V8 .cpuprofile (issue 35 items 2,
# 3, 7): every real file in tests/data/chrome and tests/data/cpuprofile
# folds as tests/tools/trace_event_ref.py (written from the formats' specs)
# does, >= 95% of stacks and >= 99% of weight as shares; corner rules;
# damage sweeps.
. tests/lib.sh
for f in "$DATA"/chrome/*.json* "$DATA"/chrome/*.cpuprofile* "$DATA"/chrome/profile-chrome_* "$DATA"/cpuprofile/*.cpuprofile*; do
	n=$(basename "$f")
	"$AFLAME" --format folded "$f" >"$TMP/ours" 2>/dev/null
	rc=$?
	if [ "$rc" -ne 0 ]; then
		# a file with nothing we draw (only ProfileChunk events) says so
		check "chrome/real $n: nothing to draw is an error that says so" \
			sh -c "'$AFLAME' --format folded '$f' 2>&1 | grep -q 'nothing to draw'"
		continue
	fi
	python3 tests/tools/trace_event_ref.py "$f" >"$TMP/ref" 2>/dev/null
	case $n in
	# speedscope's ambiguous corners: a B and an X of one start and length
	# (we nest the B outside, the reference the one first in the file), an
	# X outliving its parent; and files whose samples name frames they lack
	# (profile-chrome_systrace: 271 of its 280 samples; chrome141, trimmed
	# upstream: 15 V8 samples and 2 nodes' parents): we draw those samples
	# as nothing, the reference on their thread: compared, not held to the bar
	bex-interaction.json|invalid-x-nesting.json|profile-chrome_systrace_perf_chrome_data|chrome141-no-arg-data.json)
		pass "chrome/real $n (not held to the bar): $(python3 tests/tools/compare_folded.py "$TMP/ours" "$TMP/ref")"
		continue ;;
	esac
	got=$(python3 tests/tools/compare_folded.py "$TMP/ours" "$TMP/ref" 0.95 0.99)
	if [ $? -eq 0 ]; then pass "chrome/real $n agrees with the reference: $got"
	else fail "chrome/real $n" "$got"; fi
done
# speedscope's own import of its sample files (its test snapshots'
# stacks), brought to what both readings share (speedscope_compare.py)
for want in "$DATA"/chrome/speedscope/*.stacks "$DATA"/cpuprofile/speedscope/*.stacks; do
	n=$(basename "$want" .stacks)
	f=$(ls "$(dirname "$(dirname "$want")")/$n".* | head -1)
	"$AFLAME" --format folded "$f" >"$TMP/ours" 2>/dev/null
	got=$(python3 tests/tools/speedscope_compare.py "$TMP/ours" "$want" 0.95 0.99)
	rc=$?
	case $n in
	# trimmed upstream (above): speedscope draws a sample naming a missing
	# node on the stack before it, we draw nothing
	chrome141-no-arg-data) pass "chrome/speedscope $n (not held to the bar): $got"; continue ;;
	esac
	if [ $rc -eq 0 ]; then pass "chrome/speedscope $n agrees with speedscope's import: $got"
	else fail "chrome/speedscope $n" "$got"; fi
done
C=$DATA/chrome
# the bare array without its ']' (with a trailing comma or whitespace)
for f in simple-partial simple-partial-trailing-comma simple-partial-whitespace; do
	check "chrome/$f: an unterminated array is read as the whole one" \
		cmp <("$AFLAME" --format folded "$C/$f.json" 2>/dev/null) <("$AFLAME" --format folded "$C/simple.json" 2>/dev/null)
done
printf '{"traceEvents":[{"ph":"B","pid":1,"tid":1,"ts":0,"name":"A"},' >"$TMP/cut.json"
"$AFLAME" --format folded "$TMP/cut.json" >"$TMP/out" 2>"$TMP/err"
check "chrome/an object cut short: exit 1, offset named, no output" \
	sh -c "[ $? -eq 1 ] && grep -q 'offset 0x3d: the file ends inside' '$TMP/err' && [ ! -s '$TMP/out' ]"
printf '[{"ph":"B","pid":1,"tid":1,"ts":0,"name":"A"} x]' >"$TMP/bad.json"
"$AFLAME" --format folded "$TMP/bad.json" 2>"$TMP/err"
check "chrome/bad JSON: one line with the offset" grep -qx '.*bad.json: offset 0x[0-9a-f]*: not valid JSON: .*' "$TMP/err"
# ts as string, X with dur, metadata names, E closing the innermost open slice
printf '[{"ph":"M","pid":7,"name":"process_name","args":{"name":"app"}},{"ph":"M","pid":7,"tid":8,"name":"thread_name","args":{"name":"ui"}},
{"ph":"B","pid":7,"tid":8,"ts":"10","name":"A"},{"ph":"X","pid":7,"tid":8,"ts":12.4,"dur":3,"name":"C"},{"ph":"B","pid":7,"tid":8,"ts":20,"name":"B"},
{"ph":"E","pid":7,"tid":8,"ts":25,"name":"A"},{"ph":"E","pid":7,"tid":8,"ts":30}]' >"$TMP/rules.json"
got=$("$AFLAME" --format folded "$TMP/rules.json" 2>"$TMP/err" | tr '\n' '|')
check "chrome/rules: names, string ts, X, E closes the innermost (got $got)" \
	test "$got" = "app (7);ui (8);A 12|app (7);ui (8);A;B 5|app (7);ui (8);A;C 3|"
check "chrome/rules: a named E naming another slice is counted" \
	grep -q "1 slice ends (E) naming another slice than the open one" "$TMP/err"
# --async: b/e and S/F pairs per process
printf '[{"ph":"b","pid":1,"tid":1,"ts":0,"cat":"n","id":"0x1","name":"load"},{"ph":"S","pid":1,"tid":2,"ts":5,"id":9,"name":"req"},
{"ph":"e","pid":1,"tid":3,"ts":40,"cat":"n","id":"0x1","name":"load"},{"ph":"F","pid":1,"tid":2,"ts":8,"id":9,"name":"req"},{"ph":"B","pid":1,"tid":1,"ts":0,"name":"x"}]' >"$TMP/async.json"
got=$("$AFLAME" --format folded --async "$TMP/async.json" 2>/dev/null | tr '\n' '|')
check "chrome/--async: b/e and S/F pairs (got $got)" test "$got" = "process-1 (1);load 40|process-1 (1);req 3|"
# samples weigh the time to the thread's next sample
got=$("$AFLAME" --format folded "$DATA/../fuzz/corpus/chrome/samples.json" 2>/dev/null | tr '\n' '|')
check "chrome/samples: each weighs the time to the next (got $got)" \
	test "$got" = "process-0 (0);thread-3 (3);root;f 10|process-0 (0);thread-3 (3);root;f;g 5|"
# V8 CPU profiles in trace events: a Profile event (on the sampled thread)
# and its chunks (from another thread; the first before the Profile in the
# file), times from startTime and the deltas, a run of one node one sample,
# (root) no frame, a profile's last sample weighs nothing (no gap to the
# next profile), the old CpuProfile event with children; slices not drawn
got=$("$AFLAME" --format folded "$DATA/../fuzz/corpus/chrome/profile.json" 2>/dev/null | tr '\n' '|')
check "chrome/V8 profiles: Profile + ProfileChunk, CpuProfile (got $got)" test "$got" = \
	"process-5 (5);main (9);(idle) 7|process-5 (5);main (9);g (b.js:1) 30|process-5 (5);main (9);main (app.js:5) 5|process-5 (5);main (9);main (app.js:5);(anonymous) (app.js:10) 25|"
"$AFLAME" --info "$DATA/../fuzz/corpus/chrome/profile.json" >"$TMP/info" 2>/dev/null
check "chrome/V8 profiles: --info counts them" grep -qx 'V8 CPU profiles: 2 (2 chunks), 8 samples' "$TMP/info"
# a chunk holding a whole profile whose cpuProfile repeats args.data's
# timeDeltas: one list of deltas is taken, not both
"$AFLAME" --format folded "$C/firefox-profiler-issue-5429.json.gz" 2>"$TMP/err" >/dev/null
check "chrome/V8 profiles: a chunk's deltas taken once (Firefox Profiler's issue 5429 file)" \
	sh -c "! grep -q 'do not pair up' '$TMP/err'"
# a frame that is its own parent, and two (roots) each other's: each loop
# cut once where it comes back (a sample's stack walked the table's length)
printf '%s\n' '{"traceEvents":[{"ph":"P","pid":1,"tid":1,"ts":0,"id":"0x1","name":"Profile","args":{"data":{"startTime":0}}},' \
	'{"ph":"P","pid":1,"tid":2,"ts":1,"id":"0x1","name":"ProfileChunk","args":{"data":{"cpuProfile":{"nodes":[{"id":1,"parent":2,"callFrame":{"functionName":"(root)"}},{"id":2,"parent":1,"callFrame":{"functionName":"(root)"}},{"id":3,"parent":3,"callFrame":{"functionName":"self"}},{"id":4,"parent":2,"callFrame":{"functionName":"f"}}],"samples":[1,3,4],"timeDeltas":[1,2,3]}}}}]}' >"$TMP/loop.json"
"$AFLAME" --format folded "$TMP/loop.json" >"$TMP/out" 2>"$TMP/err"
check "chrome/frames whose parents loop: cut once where they come back" sh -c \
	"grep -qx 'process-1 (1);thread-1 (1);self 3' '$TMP/out' && grep -q ' 2 stack frames whose parents loop (cut where they come back)' '$TMP/err'"
# Hermes names its sampling profiles .cpuprofile: the content decides
"$AFLAME" --info "$C/hermes-fib25.cpuprofile" >"$TMP/info" 2>/dev/null
check "chrome/a Hermes sampling profile named .cpuprofile is read as trace events" grep -qx 'format: chrome' "$TMP/info"
renders_valid "chrome/V8 profile flamechart" "$C/chrome70-worker.json.gz" --flamechart
check "chrome/--flamechart renders" renders_valid "chrome/flamechart" "$C/multiprocess.json" --flamechart
gzip -c "$C/multiprocess.json" >"$TMP/m.json.gz"
check "chrome/gzip'd input reads the same" \
	cmp <("$AFLAME" --format folded "$TMP/m.json.gz") <("$AFLAME" --format folded "$C/multiprocess.json")
"$AFLAME" --info "$C/multi-thread-with-samples.json" >"$TMP/info" 2>/dev/null
check "chrome/--info: format and samples" sh -c "grep -qx 'format: chrome' '$TMP/info' && grep -q '^samples: ' '$TMP/info'"
"$AFLAME" --info "$DATA/cpuprofile/chrome65-simple.cpuprofile" >"$TMP/info" 2>/dev/null
check "cpuprofile/--info: format, shape" sh -c "grep -qx 'format: cpuprofile' '$TMP/info' && grep -qx 'shape: nodes + timeDeltas' '$TMP/info'"
# .cpuprofile rules: (root) is not a frame, (idle) is; the last sample weighs nothing
got=$("$AFLAME" --format folded "$DATA/../fuzz/corpus/cpuprofile/nodes.cpuprofile" 2>/dev/null | tr '\n' '|')
check "cpuprofile/rules (got $got)" test "$got" = "JavaScript (0);(idle) 20|JavaScript (0);main (app.js:5) 17|"
got=$("$AFLAME" --format folded "$DATA/../fuzz/corpus/cpuprofile/head.cpuprofile" 2>/dev/null | tr '\n' '|')
check "cpuprofile/the older head + timestamps (got $got)" test "$got" = "JavaScript (0);f (a.js:4) 100|JavaScript (0);f (a.js:4);g (a.js:10) 500|"
# samples and timeDeltas are read in batches when they are plain
# integers (json.c af_json_take_ints); an array with anything else is
# given back and read from its '[' as any array, what was read of it
# dropped: the same folds and the same refusals (yajl's words) either way
N=$DATA/../fuzz/corpus/cpuprofile/nodes.cpuprofile
sed 's/"samples":\[2,3,2,1\]/"samples":[ 2 ,\n3,\t2\r, 1 ]/' "$N" >"$TMP/blanks.cpuprofile"
sed 's/"timeDeltas":\[5,10,20,7\]/"timeDeltas":[5,10,2e1,7]/' "$N" >"$TMP/exp.cpuprofile"
for v in blanks exp; do
	got=$("$AFLAME" --format folded "$TMP/$v.cpuprofile" 2>&1 | tr '\n' '|')
	check "cpuprofile/integer arrays, $v (got $got)" test "$got" = "JavaScript (0);(idle) 20|JavaScript (0);main (app.js:5) 17|"
done
# 1000 samples (past the reader's batch of 512), the last delta 7.0
long() { awk -v last="$1" 'BEGIN { printf "{\"nodes\":[{\"id\":1,\"callFrame\":{\"functionName\":\"(root)\",\"url\":\"\"},\"children\":[2,3]},{\"id\":2,\"callFrame\":{\"functionName\":\"a\",\"url\":\"\"}},{\"id\":3,\"callFrame\":{\"functionName\":\"b\",\"url\":\"\"}}],\"samples\":["
	for (i = 0; i < 1000; i++) printf "%s%d", (i ? "," : ""), 2 + i % 3 % 2
	printf "],\"timeDeltas\":["
	for (i = 0; i < 999; i++) printf "%d,", 1 + i % 7
	printf "%s]}\n", last }'; }
long 7 >"$TMP/long.cpuprofile"
long 7.0 >"$TMP/long-late.cpuprofile"
"$AFLAME" --format folded "$TMP/long.cpuprofile" >"$TMP/long.folded" 2>&1
"$AFLAME" --format folded "$TMP/long-late.cpuprofile" >"$TMP/long-late.folded" 2>&1
check "cpuprofile/integer arrays: one given back late reads the same" cmp "$TMP/long.folded" "$TMP/long-late.folded"
sed 's/"samples":\[2,3,2,1\]/"samples":[2,3,2,x]/' "$N" >"$TMP/bad.cpuprofile"
got=$("$AFLAME" --format folded "$TMP/bad.cpuprofile" 2>&1)
check "cpuprofile/a bad sample: yajl's error at its offset (got $got)" \
	test "$got" = "aflame-render: $TMP/bad.cpuprofile: offset 0x121: not valid JSON: invalid char in json text."
# Without a window or --flamechart the .cpuprofile reader makes the tree
# from its nodes directly; with one, through af_fold. A window over all
# the time must give the same self times, calls (the report), warnings:
# real files, and one with a "(root)" below a frame, an unknown id, time
# running backwards and unpaired times
printf '%s' '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2,3]},{"id":2,"callFrame":{"functionName":"a","url":"x.js"},"children":[4]},{"id":3,"callFrame":{"functionName":"(root)","url":""},"children":[5]},{"id":4,"callFrame":{"functionName":"b","url":"x.js"}},{"id":5,"callFrame":{"functionName":"a","url":"x.js"}}],"startTime":5,"samples":[2,4,4,3,5,99,1,4,2,5,4],"timeDeltas":[1,5,-20,10,3,4,-2,7,0,9,1,2]}' >"$TMP/odd.cpuprofile"
for f in "$TMP/odd.cpuprofile" "$DATA"/cpuprofile/*.cpuprofile*; do
	for how in --report "--format folded"; do
		"$AFLAME" $how "$f" >"$TMP/direct" 2>&1
		"$AFLAME" $how --from 0 --to 1000000s "$f" >"$TMP/folded" 2>&1
		check "cpuprofile/$(basename "$f") $how: the same through af_fold" cmp "$TMP/direct" "$TMP/folded"
	done
done
damage_sweep "chrome/rules.json" chrome "$TMP/rules.json"
damage_sweep "chrome/samples.json" chrome "$DATA/../fuzz/corpus/chrome/samples.json"
damage_sweep "chrome/profile.json" chrome "$DATA/../fuzz/corpus/chrome/profile.json"
damage_sweep "cpuprofile/nodes" cpuprofile "$DATA/../fuzz/corpus/cpuprofile/nodes.cpuprofile"
damage_sweep "cpuprofile/head" cpuprofile "$DATA/../fuzz/corpus/cpuprofile/head.cpuprofile"
# A pid or tid that is a string but no number is an id of its own, numbered
# in the order first seen (it was a keyed hash, whose key changes each run:
# the thread's root printed a different id every time), and names its
# process or thread unless metadata does
printf '%s' '[{"ph":"X","name":"a","ts":1,"dur":5,"pid":"app","tid":"worker"},{"ph":"X","name":"b","ts":2,"dur":3,"pid":"app","tid":"main"},{"ph":"X","name":"c","ts":9,"dur":1,"pid":"app","tid":"worker"}]' >"$TMP/string-ids.json"
got=$("$AFLAME" --format folded "$TMP/string-ids.json" 2>&1 | tr '\n' '|')
again=$("$AFLAME" --format folded "$TMP/string-ids.json" 2>&1 | tr '\n' '|')
check "chrome/string pid and tid: ids in order seen, same every run, named (got $got)" sh -c \
	"test '$got' = '$again' && test '$got' = 'app (4294967296);main (4294967298);b 3|app (4294967296);worker (4294967297);a 5|app (4294967296);worker (4294967297);c 1|'"
sed 's/^\[/[{"ph":"M","name":"thread_name","pid":"app","tid":"main","args":{"name":"UI"}},/' "$TMP/string-ids.json" >"$TMP/string-ids-meta.json"
got=$("$AFLAME" --format folded "$TMP/string-ids-meta.json" 2>&1 | tr '\n' '|')
check "chrome/string tid: metadata's thread_name wins (got $got)" \
	test "$got" = 'app (4294967296);UI (4294967297);b 3|app (4294967296);worker (4294967298);a 5|app (4294967296);worker (4294967298);c 1|'
