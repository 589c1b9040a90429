# cost: 35
# perfetto.sh: Perfetto traces (issue 16) against what upstream's
# trace_processor tests expect (tests/data/perfetto/SOURCES.md), our own
# corner cases, compression, and damage.
. tests/lib.sh
P=$DATA/perfetto
folds_to() {   # NAME FILE EXPECTED [ARGS...]: --format folded gives EXPECTED
	local name=$1 file=$2 want=$3
	shift 3
	local got
	got=$("$AFLAME" --format folded "$@" "$file" 2>"$TMP/err")
	if [ "$got" = "$want" ]; then pass "perfetto/$name"; else fail "perfetto/$name" "got: $(echo "$got" | tr '\n' '|') $(head -1 "$TMP/err")"; fi
}

# upstream: the sample's frames root first, demangled as trace_processor does
folds_to "perf sample frames and names (upstream)" "$P/perf_sample_switch_interp.pftrace" \
"process-1000 (1000);thread-1000 (1000);com.example.managed.frame;ExecuteSwitchImplAsm;void art::interpreter::ExecuteSwitchImplCpp<false>(art::interpreter::SwitchImplContext*);bool art::interpreter::DoCall<true>(art::ArtMethod*, art::Thread*, art::ShadowFrame&, art::Instruction const*, unsigned short, bool, art::JValue*);art::ArtMethod::Invoke(art::Thread*, unsigned int*, unsigned int, art::JValue*, char const*) 42"
# upstream: event1 1 µs, atrace 7 µs inside event2 (event2 ends 1 µs later
# here: an E closes the innermost open slice, docs/semantics.md)
folds_to "track events and atrace marks on one thread (upstream)" "$P/track_event_with_atrace.pftrace" \
"process-5 (5);t1 (1);event1 1
process-5 (5);t1 (1);event2 2
process-5 (5);t1 (1);event2;atrace 7"
folds_to "print events that are no trace marks (upstream)" "$P/bad_print.pftrace" \
"process-2 (2);thread-2 (2);valid_print 0"
check "perfetto/bad prints are counted" grep -q 'warning: 2 trace marks of no known kind' "$TMP/err"
folds_to "track-event slices named (upstream)" "$P/track_event_callstacks.pftrace" \
"process-42 (42);CallstackThread (4242);Inline Slice 1 0
process-42 (42);CallstackThread (4242);Inline Slice 2 0
process-42 (42);CallstackThread (4242);Interned Slice 0"

# a real system trace (tests/data/perfetto/SOURCES.md): the same stacks and
# times as a separate decoding of its trace marks (tests/tools/perfetto_marks.py)
NIA=$P/nowinandroid-system.pftrace
if command -v python3 >/dev/null; then
	"$AFLAME" --format folded "$NIA" 2>"$TMP/nia.err" |
		sed -E 's/^process-[0-9]+ \([0-9]+\);thread-([0-9]+) \([0-9]+\)/tid\1/' | LC_ALL=C sort >"$TMP/nia.ours"
	python3 tests/tools/perfetto_marks.py "$NIA" | LC_ALL=C sort >"$TMP/nia.theirs"
	check "perfetto/real system trace: 90 stacks" test "$(grep -c . "$TMP/nia.theirs")" = 90
	check "perfetto/real system trace: stacks and times as a separate decoding" cmp "$TMP/nia.ours" "$TMP/nia.theirs"
	check "perfetto/real system trace: the service's dropped data said" \
		grep -qx "aflame-render: $NIA: warning: 5 packets after which the tracing service dropped data" "$TMP/nia.err"
else
	skip "perfetto/real system trace" "python3 not installed"
fi

CORNERS="com.example.app (10);RenderThread (12);DrawFrame 200
com.example.app (10);RenderThread (12);DrawFrame;flush commands 300
com.example.app (10);RenderThread (12);syncFrameState 0
com.example.app (10);main (10);Choreographer#doFrame 700
com.example.app (10);main (10);Choreographer#doFrame;traversal 300
com.example.app (10);main (10);[empty slice name] 100
com.example.app (10);main (10);inflate 500"
folds_to "interning, resets, per-CPU bundles, names" "$P/corners.pftrace" "$CORNERS"
for w in "1 packets after which the tracing service dropped data" \
	"1 references to interned data that the sequence does not hold" \
	"1 slices still open at the end"; do
	check "perfetto/corners warns: $w" grep -q "warning: $w" "$TMP/err"
done
# track events before their track's descriptor (as a real SDK trace writes
# its first), on a track never described, on a global track described late
folds_to "track events before their track's descriptor" "$P/late_track.pftrace" \
"process-7 (7);seqthread (71);orphan 300
process-7 (7);worker (70);outer 2500
process-7 (7);worker (70);outer;inner 500"
check "perfetto/late track: events on a track never described warned" \
	grep -qx "aflame-render: $P/late_track.pftrace: warning: 2 track events on a track the trace never describes (drawn on their sequence's thread, if it has one)" "$TMP/err"
check "perfetto/late track: no other warning" test "$(grep -c warning "$TMP/err")" = 1
"$AFLAME" --info "$P/late_track.pftrace" >"$TMP/late.info" 2>&1
check "perfetto/late track: --info counts the events held" \
	grep -qx "track events before their track's descriptor: 2 (held until it came)" "$TMP/late.info"
check "perfetto/late track: --info counts the global track's slice, not drawn" \
	grep -qx "track-event slices on global tracks: 1 (not drawn: no thread)" "$TMP/late.info"
folds_to "compressed packets read like the plain ones" "$P/corners-compressed.pftrace" "$CORNERS"
gzip -c "$P/corners.pftrace" >"$TMP/c.pftrace.gz"
folds_to "a gzipped trace" "$TMP/c.pftrace.gz" "$CORNERS"
folds_to "-p selects a process, -t a thread" "$P/corners.pftrace" \
"DrawFrame 200
DrawFrame;flush commands 300
syncFrameState 0" -t RenderThread
folds_to "time window" "$P/corners.pftrace" \
"com.example.app (10);RenderThread (12);DrawFrame 200
com.example.app (10);RenderThread (12);DrawFrame;flush commands 300
com.example.app (10);main (10);Choreographer#doFrame 400
com.example.app (10);main (10);Choreographer#doFrame;traversal 200" --from 200us --to 800us

SAMPLES="com.example.sampled (20);thread-20 (20);[no callstack] 100
com.example.sampled (20);thread-20 (20);perf_main 500
com.example.sampled (20);worker (21);main;android::Looper::pollOnce(int, int*, int*, void**) 2
com.example.sampled (20);worker (21);main;libstripped.so+0x1234 1"
folds_to "CPU samples: streaming profile and perf samples" "$P/samples.pftrace" "$SAMPLES"
folds_to "--cpu-samples on a trace with slices" "$P/track_event_with_atrace.pftrace" "" --cpu-samples

# --info says what was read
"$AFLAME" --info "$P/corners-compressed.pftrace" >"$TMP/info" 2>&1
for l in "format: perfetto" "packets: 13 (1 compressed groups)" "sequences: 2 (incremental state cleared 2 times)" \
	"ftrace events: 5 (5 prints)" "track-event slices: 4" "drawn: slices"; do
	check "perfetto/--info: $l" grep -qx "$l" "$TMP/info"
done
"$AFLAME" --info "$P/samples.pftrace" >"$TMP/info" 2>&1
check "perfetto/--info of samples" grep -qx "cpu samples: 6 (weight 603)" "$TMP/info"

# every output of a trace renders
renders_valid "perfetto/corners SVG" "$P/corners.pftrace"
"$AFLAME" --flamechart "$P/corners.pftrace" -o "$TMP/chart.svg" 2>/dev/null
check "perfetto/flame chart" xmllint --noout "$TMP/chart.svg"
"$AFLAME" --report "$P/corners.pftrace" -o "$TMP/r.json" 2>/dev/null
check "perfetto/report" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$TMP/r.json"

damage_sweep "perfetto/corners.pftrace" perfetto "$P/corners.pftrace"

# heap profiles (heapprofd). Upstream expects 1000 bytes in 6 allocations and
# 90 bytes in 1 still held at the peak (dump_at_max), retained 1000, 1000,
# then 0 over three dumps (window_frees), and the callstacks of two dumps
# added up (continuous_legacy: 100 + 100 allocated).
folds_to "heap at its peak (upstream)" "$P/heap_profile_dump_max.pftrace" \
"system_server (2);unknown;f1;f2 90
system_server (2);unknown;f1;f2;f3 1000"
folds_to "heap allocations at its peak (upstream)" "$P/heap_profile_dump_max.pftrace" \
"system_server (2);unknown;f1;f2 1
system_server (2);unknown;f1;f2;f3 6" --heap unreleased-count
folds_to "heap: every byte freed by the last dump (upstream)" "$P/heap_profile_window_frees.pftrace" ""
check "perfetto/heap: nothing held says so" grep -q "nothing to draw: the heap profiles hold no unreleased bytes at their last dumps" "$TMP/err"
folds_to "heap: allocated over three dumps (upstream)" "$P/heap_profile_window_frees.pftrace" \
"system_server (2);unknown;f1 2000" --heap allocated
folds_to "heap: callstacks of two dumps (upstream)" "$P/heap_profile_continuous_legacy.pftrace" \
"system_server (2);unknown;f1 200" --heap allocated
folds_to "heap: two heaps of one process (upstream)" "$P/heap_profile_tracker_twoheaps.pftrace" \
"process-0 (0);custom;[unknown]+0x123 1
process-0 (0);libc.malloc;[unknown]+0x123 1" --heap freed
# ours: each callstack as its last dump says, interning reset between dumps
HEAP="/system/bin/surfaceflinger (200);libc.malloc;surfaceflinger_main;operator new 200
com.example.app (100);com.android.art;main;com.example.Cache.put 1024
com.example.app (100);libc.malloc;main;/system/lib64/libc.so+0x1234 64
com.example.app (100);libc.malloc;main;malloc 2000"
folds_to "heap: unreleased bytes by default" "$P/heap.pftrace" "$HEAP"
for w in "1 heap dumps of a process that heapprofd profiled only in part" \
	"1 heap samples that freed more than they allocated"; do
	check "perfetto/heap warns: $w" grep -q "warning: $w" "$TMP/err"
done
folds_to "heap: allocated bytes, demangled, across a reset" "$P/heap.pftrace" \
"/system/bin/surfaceflinger (200);libc.malloc;surfaceflinger_main 10
/system/bin/surfaceflinger (200);libc.malloc;surfaceflinger_main;operator new 300
com.example.app (100);com.android.art;main;com.example.Cache.put 2048
com.example.app (100);libc.malloc;main;/system/lib64/libc.so+0x1234 64
com.example.app (100);libc.malloc;main;android::Parcel::write(void const*, unsigned long);malloc 8192
com.example.app (100);libc.malloc;main;malloc 3000" --heap allocated
folds_to "heap: freed allocations" "$P/heap.pftrace" \
"/system/bin/surfaceflinger (200);libc.malloc;surfaceflinger_main 1
/system/bin/surfaceflinger (200);libc.malloc;surfaceflinger_main;operator new 1
com.example.app (100);com.android.art;main;com.example.Cache.put 4
com.example.app (100);libc.malloc;main;android::Parcel::write(void const*, unsigned long);malloc 8
com.example.app (100);libc.malloc;main;malloc 10" --heap freed-count
folds_to "heap: -t picks a heap" "$P/heap.pftrace" "main;com.example.Cache.put 1024" -t com.android.art
folds_to "heap: -p picks a process" "$P/heap.pftrace" "libc.malloc;surfaceflinger_main;operator new 200" -p 200
folds_to "--heap on a trace with slices draws its heaps (none)" "$P/corners.pftrace" "" --heap allocated
"$AFLAME" --info "$P/heap.pftrace" >"$TMP/info" 2>&1
for l in "heap profiles: 4 packets, 5 process dumps, 3 heaps" \
	"heap callstacks drawn: 4 of 6 (each as its last dump said; 3288 unreleased bytes)" "drawn: heap profiles"; do
	check "perfetto/--info of heaps: $l" grep -qx "$l" "$TMP/info"
done
"$AFLAME" --heap allocated-count "$P/heap.pftrace" -o "$TMP/heap.svg" 2>/dev/null
check "perfetto/heap SVG says what it weighs" grep -q '>heap.pftrace · allocations<' "$TMP/heap.svg"
renders_valid "perfetto/heap SVG" "$P/heap.pftrace"
damage_sweep "perfetto/heap.pftrace" perfetto "$P/heap.pftrace"
damage_sweep "perfetto/late_track.pftrace" perfetto "$P/late_track.pftrace"

# The streaming fold (src/read/read_perfetto.c): one set of events laid out in
# other file orders (tests/tools/perfetto_order.py) folds to the graph of
# the sorted layout, so per-CPU bundles stream in time order, and a CPU
# that appears late or a bundle that goes back in time start the fold
# again without streaming. Names that come last still count from the first
# slice. (Each trace has enough events to fold several times as it streams.)
if ! command -v python3 >/dev/null; then
	skip "perfetto/streaming fold" "python3 not installed"
else
	ORDER=tests/tools/perfetto_order.py
	variants="percpu late-cpu rewind late-name decorated marks padded wide track-first late-track"
	python3 "$ORDER" sorted "$TMP/o-sorted.pftrace" $(for v in $variants; do echo "$v $TMP/o-$v.pftrace"; done)
	"$AFLAME" --format folded "$TMP/o-sorted.pftrace" >"$TMP/o-sorted.folded" 2>/dev/null
	"$AFLAME" --format folded --flamechart "$TMP/o-sorted.pftrace" >"$TMP/o-sorted.chart" 2>/dev/null
	check "perfetto/streaming: the sorted trace has deep stacks on every thread" \
		test "$(grep -c '^com.example.order (100);worker-5 (106);.*;.*;.*;' "$TMP/o-sorted.folded")" -gt 20
	for v in $variants; do
		"$AFLAME" --format folded "$TMP/o-$v.pftrace" >"$TMP/o-$v.folded" 2>/dev/null
		"$AFLAME" --format folded --flamechart "$TMP/o-$v.pftrace" >"$TMP/o-$v.chart" 2>/dev/null
	done
	for v in percpu late-cpu rewind decorated marks padded; do
		same_file "perfetto/streaming: $v folds as sorted" "$TMP/o-$v.folded" "$TMP/o-sorted.folded"
		same_file "perfetto/streaming: $v charts as sorted" "$TMP/o-$v.chart" "$TMP/o-sorted.chart"
	done
	# track events held until their track is described, after several folds
	check "perfetto/streaming: track-first draws its track's 7 stacks" \
		test "$(grep -c '^com.example.order (100);tracked (107);' "$TMP/o-track-first.folded")" = 7
	same_file "perfetto/streaming: a track described at the end folds as described first" \
		"$TMP/o-late-track.folded" "$TMP/o-track-first.folded"
	same_file "perfetto/streaming: a track described at the end charts as described first" \
		"$TMP/o-late-track.chart" "$TMP/o-track-first.chart"
	# sorted by time where a fold spans under 2^32 ns, merged where it spans more
	same_file "perfetto/streaming: wide (merged, not sorted) folds as sorted" "$TMP/o-wide.folded" "$TMP/o-sorted.folded"
	# the marks kept as text (copied out of the reader's window) are read
	# as written: every counter counted, every end names its open slice
	"$AFLAME" --info "$TMP/o-marks.pftrace" >"$TMP/o-marks.info" 2>&1
	check "perfetto/streaming: marks kept as text count 8000 counters" grep -qx 'counters: 8000' "$TMP/o-marks.info"
	check "perfetto/streaming: marks kept as text name the slices they end" \
		grep -qx '  18 slices still open at the end (closed at their thread.s last event)' "$TMP/o-marks.info"
	check "perfetto/streaming: marks kept as text: no other warning" grep -qx 'warnings: 1' "$TMP/o-marks.info"
	sed -e 's/^com.example.order (100);worker-5 (106)/process-200 (200);worker-5 (106)/' \
		-e 's/;main (101)/;main-renamed (101)/' "$TMP/o-sorted.folded" | LC_ALL=C sort >"$TMP/o-renamed.folded"
	LC_ALL=C sort "$TMP/o-late-name.folded" >"$TMP/o-late-name.sorted"
	same_file "perfetto/streaming: names at the end count from the first slice" \
		"$TMP/o-late-name.sorted" "$TMP/o-renamed.folded"
fi

# The merge of runs in time order stays linear when every run overlaps
# every other: N runs of two events each (a begin at i ms, its end near
# 1000 s), so all N are open at once (one bundle that goes back in time
# N times: gathered whole and folded at the end). Four times the runs
# must take less than ten times as long (a merge that rebuilt its slots
# per run took 20 times as long).
overlapping() {   # overlapping N FILE
	python3 - "$1" "$2" <<'PY'
import sys
def v(x):
    out = bytearray()
    while True:
        b, x = x & 0x7f, x >> 7
        out.append(b | 0x80 if x else b)
        if not x:
            return bytes(out)
def fv(n, x): return v(n << 3) + v(x)
def fb(n, b): return v(n << 3 | 2) + v(len(b)) + b
n = int(sys.argv[1])
evs = bytearray()
for i in range(n):
    evs += fb(2, fv(1, 1000000 + 1000 * i) + fv(2, 7) + fb(3, fb(2, b"B|1|x\n")))
    evs += fb(2, fv(1, 10**12 + i) + fv(2, 7) + fb(3, fb(2, b"E|1\n")))
pkt = fb(1, fv(1, 0) + bytes(evs)) + fv(10, 1)
open(sys.argv[2], "wb").write(fb(1, pkt))
PY
}
if command -v python3 >/dev/null &&
	overlapping 20000 "$TMP/ov1.pftrace" && overlapping 80000 "$TMP/ov4.pftrace"; then
	t1=$(best_cpu_seconds "$AFLAME" --info "$TMP/ov1.pftrace")
	t4=$(best_cpu_seconds "$AFLAME" --info "$TMP/ov4.pftrace")
	"$AFLAME" --info "$TMP/ov4.pftrace" >"$TMP/ov.out" 2>&1
	if grep -qx 'slices: 80000 B, 80000 E' "$TMP/ov.out" &&
		awk -v a="$t1" -v b="$t4" 'BEGIN { exit !(b < 10 * (a + 0.02)) }'; then
		pass "perfetto/overlapping runs merge in linear time (20k: ${t1}s, 80k: ${t4}s)"
	else
		fail "perfetto/overlapping runs" "20k runs: ${t1}s, 80k: ${t4}s; $(grep '^slices' "$TMP/ov.out")"
	fi
else
	skip "perfetto/overlapping runs" "needs python3"
fi
