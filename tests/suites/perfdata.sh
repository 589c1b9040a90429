# cost: 70
# perfdata.sh: perf.data recordings (issue 17): simpleperf's own testdata
# against the folded stacks simpleperf's stackcollapse.py wrote for them,
# our corner fixture (mkperf.py), --info, bad input, damage.
. tests/lib.sh
S=$DATA/perfdata

# stackcollapse.py lists a sample's callchain without its first entry (the
# sampled ip: simpleperf's report lib gives that apart, as the sample's
# symbol), names unknown symbols "unknown" (or file[+vaddr] with --addrs),
# marks JIT frames with --jit only, and has no process level. Bring ours to
# that form: drop the process and the leaf, keep the thread's name.
to_stackcollapse() {
	sed -E 's/^[^;]*;([^;]*) \([0-9]+\);/\1;/; s/;[^;]* ([0-9]+)$/ \1/'
}
unknown() { sed -E 's/(\[kernel\.kallsyms\]|\/[^;]*)\[\+[0-9a-f]+\](_\[k\])?/unknown/g'; }
plain() { sed -E 's/_\[[jk]\]//g'; }

"$AFLAME" --format folded "$S/perf_with_jit_symbol.data" 2>"$TMP/err" >"$TMP/jit.folded"
to_stackcollapse <"$TMP/jit.folded" | unknown | LC_ALL=C sort >"$TMP/got"
check "perfdata/jit: matches stackcollapse.py --jit (leaf dropped, unknown symbols as 'unknown')" \
	diff "$TMP/got" "$S/perf_with_jit_symbol.foldedstack"
to_stackcollapse <"$TMP/jit.folded" | plain | LC_ALL=C sort >"$TMP/got"
check "perfdata/jit: matches stackcollapse.py --addrs (file[+vaddr] for unknown symbols)" \
	diff "$TMP/got" "$S/perf_with_jit_symbol.foldedstack_addrs"
check "perfdata/jit: JIT frames named as their Java methods, marked _[j]" grep -q ';java.lang.Thread.sleep_\[j\];' "$TMP/jit.folded"
check "perfdata/jit: ART's frames next to Java frames hidden" sh -c "! grep -q 'art_quick_invoke_stub\|MterpInvokeInterface' '$TMP/jit.folded'"
check "perfdata/jit: native frames demangled" grep -q ';art::Monitor::Wait(art::Thread\*, ' "$TMP/jit.folded"
check "perfdata/jit: process > thread" grep -q '^com.android.simpleperf.debuggable (7601);BusyThread (7630);__start_thread;' "$TMP/jit.folded"
"$AFLAME" --info "$S/perf_with_jit_symbol.data" >"$TMP/info" 2>/dev/null
for l in "format: perf-data" "event types: cpu-cycles" "samples: 151 drawn, 0 of other event types" \
	"threads: 16" "files: 28 (6 with symbols)" "app package: com.android.simpleperf.debuggable"; do
	check "perfdata/jit info: $l" grep -qxF "$l" "$TMP/info"
done

# two event types: the first drawn. simpleperf splits the thread by the
# name it had at each sample (simpleperf, then sleep after exec); we name a
# thread once (semantics.md), so compare the weights only.
"$AFLAME" --format folded "$S/perf_with_two_event_types.data" 2>/dev/null >"$TMP/two.folded"
got=$(awk '{s += $NF} END {print s}' "$TMP/two.folded")
want=$(awk '{s += $NF} END {print s}' "$S/perf_with_two_event_types.foldedstack")
check "perfdata/two event types: the first (cpu-cycles) drawn, weight $want" test "$got" = "$want"
"$AFLAME" --info "$S/perf_with_two_event_types.data" >"$TMP/info" 2>/dev/null
check "perfdata/two event types: named from the attrs" grep -qxF "event types: cpu-cycles, cpu-clock (the first is drawn)" "$TMP/info"
check "perfdata/two event types: 8 drawn, 2 other" grep -qxF "samples: 8 drawn, 2 of other event types" "$TMP/info"

# --event: the second event type, as stackcollapse.py --event-filter cpu-clock
merge() { awk '{n = $NF; $NF = ""; sub(/ $/, ""); w[$0] += n} END {for (k in w) print k, w[k]}' | LC_ALL=C sort; }
got=$("$AFLAME" --format folded --event cpu-clock "$S/perf_with_two_event_types.data" 2>/dev/null | to_stackcollapse | merge)
check "perfdata/--event cpu-clock: matches stackcollapse.py --event-filter cpu-clock" \
	test "$got" = "$(cat "$S/perf_with_two_event_types.foldedstack_cpu_clock")"
"$AFLAME" --info --event cpu-clock "$S/perf_with_two_event_types.data" >"$TMP/info" 2>/dev/null
check "perfdata/--event cpu-clock: --info says which is drawn" \
	grep -qxF "event types: cpu-cycles, cpu-clock (cpu-clock is drawn)" "$TMP/info"
check "perfdata/--event cpu-clock: 2 drawn, 8 other" grep -qxF "samples: 2 drawn, 8 of other event types" "$TMP/info"
check "perfdata/--event cpu-clock: weights in ns" grep -qE '^ +4633 +sleep +2 +500000 ns$' "$TMP/info"
"$AFLAME" --event sched:sched_switch -o "$TMP/noev.svg" "$S/perf_with_two_event_types.data" 2>"$TMP/e"
rc=$?
check "perfdata/--event absent: exit 1, the file's events listed" sh -c "[ $rc -eq 1 ] && grep -qF \
	\"perf_with_two_event_types.data: no event type 'sched:sched_switch' in the file (it has: cpu-cycles, cpu-clock)\" '$TMP/e'"
check "perfdata/--event absent: no output" test ! -e "$TMP/noev.svg"

# --add-counter (PERF_SAMPLE_READ groups): each sample weighs what each
# counter counted since the thread's previous sample. Linux perf script
# -F tid,period,event gives 2034455 cycles and 2048526 instructions in all;
# simpleperf's cmd_report_test.cpp report_add_counter gives _dl_addr 175099
# cpu-cycles and 140443 instructions
for x in "cpu-cycles 2034455 175099" "instructions 2048526 140443"; do
	set -- $x
	"$AFLAME" --format folded --event $1 "$S/perf_with_add_counter.data" >"$TMP/ac.folded" 2>/dev/null
	check "perfdata/add-counter: $1 weighs $2 in all (perf script)" test "$(awk '{s += $NF} END {print s}' "$TMP/ac.folded")" = $2
	check "perfdata/add-counter: _dl_addr $3 $1 (simpleperf report)" grep -q ';_dl_addr '$3'$' "$TMP/ac.folded"
done
check "perfdata/add-counter: callchains read past the counter values" grep -q ';__libc_start_main;' "$TMP/ac.folded"
"$AFLAME" --info "$S/perf_with_add_counter.data" >"$TMP/info" 2>/dev/null
check "perfdata/add-counter: --info says so" grep -qF "counter values: 12 samples read their group's counters" "$TMP/info"

# unwinding failures: simpleperf's report-sample says ERROR_INVALID_MAP for
# the one in perf_with_failed_unwinding_debug_info.data (cmd_report_sample_test.cpp)
"$AFLAME" --info "$S/perf_with_failed_unwinding_debug_info.data" >"$TMP/info" 2>/dev/null
check "perfdata/unwinding failures by kind from UNWINDING_RESULT records" \
	grep -qxF "unwinding failures: 1 (simpleperf's UNWINDING_RESULT records: invalid map 1)" "$TMP/info"
"$AFLAME" --info "$S/perf_g_fp.data" >"$TMP/info" 2>/dev/null
check "perfdata/callchains ending outside every map counted (perf script: they end at ip 0, [unknown])" \
	grep -qF "10 callchains whose outermost caller is outside every map" "$TMP/info"
python3 "$S/mkperf.py" records "$TMP/records.data"
"$AFLAME" --info "$TMP/records.data" >"$TMP/info" 2>/dev/null
check "perfdata/records: the sample after an AUXTRACE record's data is read" grep -qxF "samples: 5 drawn, 0 of other event types" "$TMP/info"
check "perfdata/records: an UNWINDING_RESULT record counted by its code" \
	grep -qxF "unwinding failures: 1 (simpleperf's UNWINDING_RESULT records: invalid map 1)" "$TMP/info"
# the data section is read through a 256 KiB window: AUXTRACE data larger
# than it is skipped, and the thread names and map paths of the records
# before it stay (mkperf.py big-aux: the corners' records around 900 KB of it)
python3 "$S/mkperf.py" corners "$TMP/corners.data"
python3 "$S/mkperf.py" big-aux "$TMP/big-aux.data"
"$AFLAME" --format folded "$TMP/corners.data" >"$TMP/corners.folded" 2>/dev/null
"$AFLAME" --format folded "$TMP/big-aux.data" >"$TMP/big-aux.folded" 2>/dev/null
check "perfdata/big-aux: records around AUXTRACE data larger than the read window fold as without it" \
	sh -c "[ -s '$TMP/corners.folded' ] && [ \$(stat -c %s '$TMP/big-aux.data') -gt 900000 ] && cmp -s '$TMP/corners.folded' '$TMP/big-aux.folded'"
# simpleperf's own records longer than 64 KiB (their size is 32 bits, split
# where misc would be) and AUXTRACE data after its record
for f in perf_kernel perf_etm; do
	"$AFLAME" --info "$S/$f.data" >"$TMP/info" 2>"$TMP/e"
	check "perfdata/$f: its records walk to the end (--info, no samples)" \
		sh -c "[ $? -eq 0 ] && ! grep -q malformed '$TMP/e' && grep -qx 'threads: 1' '$TMP/info'"
done

# Linux perf script -F tid,period agrees on samples and weights (checked
# once by hand; perf is not needed here): perf_with_symbols 935 samples,
# 648946030; perf_g_fp 10, 13028002.
for x in "perf_with_symbols 935 648946030" "perf_g_fp 10 13028002"; do
	set -- $x
	"$AFLAME" --info "$S/$1.data" >"$TMP/info" 2>/dev/null
	check "perfdata/$1: $2 samples (as perf script)" grep -qxF "samples: $2 drawn, 0 of other event types" "$TMP/info"
	got=$("$AFLAME" --format folded "$S/$1.data" 2>/dev/null | awk '{s += $NF} END {print s}')
	check "perfdata/$1: weight $3 (as perf script)" test "$got" = "$3"
done
"$AFLAME" --info "$S/perf_with_trace_offcpu.data" >"$TMP/info" 2>"$TMP/err"
check "perfdata/offcpu: reads, says trace_offcpu" grep -qxF "trace offcpu: true" "$TMP/info"
check "perfdata/offcpu with cpu-cycles: off-CPU samples not drawn, said so" \
	grep -qF "off-CPU samples are drawn only with the first event type, when that is cpu-clock" "$TMP/info"
# perf_with_trace_offcpu_v2.data (cpu-clock + sched:sched_switch): simpleperf's
# report_lib_test.py test_set_trace_offcpu_mode says mixed-on-off-cpu gives
# 299 samples weighing 396124304 ns, 91 of them off-CPU; inferno_test.py says
# thread 6525 has 42 off-CPU samples (and 130 on-CPU, as its on-cpu mode)
"$AFLAME" --format folded "$S/perf_with_trace_offcpu_v2.data" >"$TMP/off.folded" 2>/dev/null
"$AFLAME" --info "$S/perf_with_trace_offcpu_v2.data" >"$TMP/info" 2>/dev/null
got=$(awk '{s += $NF} END {print s}' "$TMP/off.folded")
check "perfdata/offcpu v2: weight 396124304 (simpleperf mixed-on-off-cpu)" test "$got" = 396124304
check "perfdata/offcpu v2: 299 samples" grep -qxF "samples: 299 drawn, 0 of other event types" "$TMP/info"
check "perfdata/offcpu v2: 91 off-CPU, 5 without an end" \
	grep -qF "off-cpu samples: 91 drawn (marked [off-cpu], weighing the time to the thread's next sample or switch-in), 5 with neither (left out)" "$TMP/info"
check "perfdata/offcpu v2: thread 6525 130 + 42 samples" grep -qE '^ +6525 +com.google.samples.apps.sunflower +172 ' "$TMP/info"
got=$(grep -c ';\[off-cpu\] [0-9]*$' "$TMP/off.folded")
check "perfdata/offcpu v2: off-CPU stacks end [off-cpu]" test "$got" -gt 0
got=$(grep ';\[off-cpu\] [0-9]*$' "$TMP/off.folded" | awk '{s += $NF} END {print s}')
check "perfdata/offcpu v2: off-CPU weight 344124304 (simpleperf off-cpu mode)" test "$got" = 344124304
# event names as simpleperf's GetEventNameByAttr gives them: report_lib_test.py
# test_offcpu names perf_with_trace_offcpu_v2.data's event cpu-clock:u
check "perfdata/offcpu v2: the event named cpu-clock:u (simpleperf's name)" \
	grep -qxF "event types: cpu-clock:u, sched:sched_switch (the first is drawn)" "$TMP/info"
"$AFLAME" --format folded --event cpu-clock "$S/perf_with_trace_offcpu_v2.data" >"$TMP/off-base.folded" 2>/dev/null
check "perfdata/offcpu v2: --event cpu-clock picks cpu-clock:u (the one cpu-clock)" \
	cmp "$TMP/off.folded" "$TMP/off-base.folded"
# perf_with_ip_zero_in_callchain.data (record -e cache-misses,cache-misses:u):
# event_type_info names both cache-misses; the attrs tell :u apart, as
# simpleperf report does. The one sample is of the second: drawn by default
# (stackcollapse.py draws the first event type it sees), and --event picks
# either by simpleperf's name.
"$AFLAME" --info "$S/perf_with_ip_zero_in_callchain.data" >"$TMP/info" 2>/dev/null
check "perfdata/ip zero: two event types told apart, the sampled one drawn" grep -qxF \
	"event types: cache-misses, cache-misses:u (cache-misses:u is drawn: the first sample's)" "$TMP/info"
check "perfdata/ip zero: 1 sample drawn" grep -qxF "samples: 1 drawn, 0 of other event types" "$TMP/info"
want='process-23671 (23671);thread-23671 (23671);[kernel.kallsyms][+0]_[k];[kernel.kallsyms][+ffffffc000159b04]_[k] 1'
got=$("$AFLAME" --format folded "$S/perf_with_ip_zero_in_callchain.data" 2>/dev/null)
check "perfdata/ip zero: the sample's kernel chain, ip 0 at its root" test "$got" = "$want"
got=$("$AFLAME" --format folded --event cache-misses:u "$S/perf_with_ip_zero_in_callchain.data" 2>/dev/null)
check "perfdata/ip zero: --event cache-misses:u draws it" test "$got" = "$want"
"$AFLAME" --format folded --event cache-misses "$S/perf_with_ip_zero_in_callchain.data" >"$TMP/out" 2>"$TMP/e"
check "perfdata/ip zero: --event cache-misses has no samples: exit 1, said so" \
	sh -c "[ $? -eq 1 ] && grep -q 'nothing to draw' '$TMP/e' && ! [ -s '$TMP/out' ]"
"$AFLAME" -o "$TMP/inv.svg" "$S/invalid_perf.data" 2>"$TMP/e"
check "perfdata/invalid_perf.data: refused with exit 1" test $? -eq 1
check "perfdata/invalid_perf.data: a clear message" grep -q 'unrecognised input' "$TMP/e"

# our fixture: symbols through maps (min_vaddr), a kernel frame after the
# kernel context marker, an ip outside every map
got=$("$AFLAME" --format folded "$S/corners.data" 2>"$TMP/err")
want="com.example.app (100);RenderThread (101);[unknown][+9000] 125
com.example.app (100);RenderThread (101);main();[kernel.kallsyms][+ffff0100]_[k] 250
com.example.app (100);com.example.app (100);main();com.example.app.Native.call 64
com.example.app (100);com.example.app (100);main();render_frame();draw(int) 1000"
if [ "$got" = "$want" ]; then pass "perfdata/corners: maps, embedded symbols, kernel frames"
else fail "perfdata/corners" "got: $(echo "$got" | tr '\n' '|')"; fi
check "perfdata/corners: ips outside the maps counted" grep -q 'warning: 1 frames outside every mapped file' "$TMP/err"
got=$("$AFLAME" --format folded -t RenderThread "$S/corners.data" 2>/dev/null | wc -l)
check "perfdata/corners: -t picks a thread" test "$got" -eq 2
"$AFLAME" --format folded -f perf-data "$S/corners.data" >"$TMP/f.folded" 2>/dev/null
"$AFLAME" --colors android -o "$TMP/meta.svg" "$S/corners.data" 2>/dev/null
"$AFLAME" --colors android --app-package com.example.app -o "$TMP/named.svg" "$S/corners.data" 2>/dev/null
"$AFLAME" --colors android --app-package org.other -o "$TMP/other.svg" "$S/corners.data" 2>/dev/null
check "perfdata/--colors android takes the app package from META_INFO" cmp "$TMP/meta.svg" "$TMP/named.svg"
check "perfdata/--colors android: another package colours differently" sh -c "! cmp -s '$TMP/meta.svg' '$TMP/other.svg'"
check "perfdata/-f perf-data reads it" test -s "$TMP/f.folded"
# a thread's next sample starts from the frames it shares with the one
# before (mkperf.py art): libart's stub, hidden next to a Java frame, is
# drawn when the next sample has a native callee there, and hidden again
python3 "$S/mkperf.py" art "$TMP/art.data"
got=$("$AFLAME" --format folded "$TMP/art.data" 2>/dev/null | grep 'Worker (102)')
want="com.example.app (100);Worker (102);main();render_frame();art_quick_invoke_stub;draw(int) 2
com.example.app (100);Worker (102);main();render_frame();void com.example.Java.run() 5"
if [ "$got" = "$want" ]; then pass "perfdata/art: shared callers redone from the last frame that is not ART's"
else fail "perfdata/art: shared callers" "got: $(echo "$got" | tr '\n' '|')"; fi

# FORK and overlapping maps (mkperf.py maps): a forked process symbolizes
# through its parent's maps and takes its name, a new thread its parent
# thread's name; a map inside an older one leaves both sides mapped, the
# right one at its own file offset; the child keeps the maps it was given
python3 "$S/mkperf.py" maps "$TMP/maps.data"
"$AFLAME" --format folded "$TMP/maps.data" >"$TMP/maps.folded" 2>"$TMP/err"
for l in "com.example.app (200);com.example.app (200);main();draw(int) 12" \
	"com.example.app (200);com.example.app (201);main();com.example.app.Native.call 5" \
	"com.example.app (100);com.example.app (100);main();render_frame() 7" \
	"com.example.app (100);com.example.app (100);main();/data/app/other.so[+10] 3"; do
	check "perfdata/maps: $l" grep -qxF "$l" "$TMP/maps.folded"
done
check "perfdata/maps: only the ip outside every map is outside" grep -q 'warning: 1 frames outside every mapped file' "$TMP/err"
"$AFLAME" --info "$TMP/maps.data" >"$TMP/info" 2>/dev/null
check "perfdata/maps: --info counts the fork" grep -qxF "forks: 1 new processes given their parent's maps" "$TMP/info"
python3 "$S/mkperf.py" many-maps "$TMP/many.data"
timeout 60 "$AFLAME" --info "$TMP/many.data" >"$TMP/info" 2>&1
check "perfdata/150,000 maps in falling order and 2,000 forks: read in bounded time" test $? -eq 0
check "perfdata/many forks: copies stop at the budget, counted" \
	grep -qE '^  [0-9]+ new processes not given their parent.s maps' "$TMP/info"

for v in cut-record short-record long-chain bad-symbol-count data-past-end; do
	python3 "$S/mkperf.py" "$v" "$TMP/$v.data"
	"$AFLAME" -o "$TMP/$v.svg" "$TMP/$v.data" 2>"$TMP/e"
	rc=$?
	check "perfdata/$v: exit 1 with an offset" sh -c "[ $rc -eq 1 ] && grep -q 'offset 0x[0-9a-f]*: malformed perf.data' '$TMP/e'"
	check "perfdata/$v: no partial output" test ! -e "$TMP/$v.svg"
done

damage_sweep "perfdata/corners.data" perfdata "$S/corners.data"
damage_sweep "perfdata/maps.data" perfdata "$TMP/maps.data"
damage_sweep "perfdata/records.data" perfdata "$TMP/records.data"

# issue 35 item 5: a kernel map named "[kernel.kallsyms]_stext" is the
# kernel's (as simpleperf's ThreadTree::AddKernelMap reads it), so the
# symbols the file carries for "[kernel.kallsyms]" name its frames; all 477
# of perf_display_bitmaps.data's, as its perf-script names them (each of
# the 525 samples' kernel frames equal, suffixes such as .cfi kept)
"$AFLAME" --format folded "$S/perf_display_bitmaps.data" >"$TMP/bitmaps.folded" 2>/dev/null
check "perfdata/perf_display_bitmaps: no kernel frame left unnamed" \
	sh -c "! grep -q 'kernel.kallsyms\]\[+' '$TMP/bitmaps.folded'"
check "perfdata/perf_display_bitmaps: 477 kernel frames in its 525 samples, as its perf-script" \
	awk '{ n = $NF / 250000; s += n; k += n * gsub(/_\[k\]/, "") } END { exit !(s == 525 && k == 477) }' "$TMP/bitmaps.folded"
check "perfdata/perf_display_bitmaps: a page fault's kernel frames as perf-script names them" \
	grep -q 'el0_ia_\[k\];do_el0_ia_bp_hardening\.cfi_\[k\];do_mem_abort\.cfi_\[k\];do_translation_fault\.cfi_\[k\];do_page_fault\.cfi_\[k\]' "$TMP/bitmaps.folded"
