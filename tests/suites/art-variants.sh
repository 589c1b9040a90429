# cost: 25
# art-variants.sh: every ART trace variant, written by tests/tools/art_writer.py
# from one description (tests/tools/desc/basic.desc), reads back to the
# stacks it was written from (basic.wall / basic.cpu, checked by hand), on
# each clock the variant has; --info names the variant. The real streaming
# capture gives the same folded stacks as a legacy v3 file holding the same
# records (tests/tools/stream_to_legacy.py, an independent converter).
. tests/lib.sh
W=tests/tools/art_writer.py
DESC=tests/tools/desc/basic.desc
if ! command -v python3 >/dev/null; then
	skip "art-variants" "python3 not installed"
	exit 0
fi

# Thread roots lose their tid: 2023+ streaming numbers threads 1,2,3 and
# Android 6-7 streaming keeps only tid & 0xffff, by design of the format.
strip_tid() { sed -E 's/^([^;]*) \([0-9]+\);/\1;/'; }

# Every trace is written first, by one art_writer.py run (--batch); the
# checks then read them back.
# variant NAME CLOCKS WRITER-ARGS...: CLOCKS is "wall cpu", "wall" or "cpu"
# info NAME EXPECTED-LINE WRITER-ARGS...: --info on the variant has this line
VARIANTS=() INFOS=()
variant() {
	VARIANTS+=("$1" "$2")
	echo "$3 $DESC -o $TMP/$1.trace ${*:4}" >>"$TMP/batch"
}
info() {
	INFOS+=("$1" "$2")
	echo "$3 $DESC -o $TMP/info-$1.trace ${*:4}" >>"$TMP/batch"
}
check_variant() {
	local name=$1 clocks=$2 f=$TMP/$1.trace c why=""
	if [ ! -s "$f" ]; then
		fail "art-variants/$name" "writer failed: $(head -1 "$TMP/batch.err")"
		return
	fi
	for c in $clocks; do
		"$AFLAME" --clock "$c" --format folded "$f" 2>"$TMP/$name.$c.err" | strip_tid >"$TMP/$name.$c"
		if ! cmp -s "$TMP/$name.$c" "tests/tools/desc/basic.$c"; then
			why="$why$c clock: $(diff "tests/tools/desc/basic.$c" "$TMP/$name.$c" | head -4 | tr '\n' ' ') $(head -1 "$TMP/$name.$c.err"); "
		fi
	done
	if [ -z "$why" ]; then pass "art-variants/$name reads back ($clocks)"; else fail "art-variants/$name" "$why"; fi
}
check_info() {
	local name=$1 want=$2
	"$AFLAME" --info "$TMP/info-$name.trace" >"$TMP/info-$name" 2>&1
	if grep -qxF -- "$want" "$TMP/info-$name"; then
		pass "art-variants/info $name"
	else
		fail "art-variants/info $name" "no line '$want' in: $(grep -E '^(variant|era|clock|time unit|mode)' "$TMP/info-$name" | tr '\n' '|')"
	fi
}

variant legacy1-cpu "cpu" legacy1 --clock thread-cpu
variant legacy2-wall "wall" legacy2 --clock wall
variant legacy2-cpu "cpu" legacy2 --clock thread-cpu
variant legacy3 "wall cpu" legacy3
variant stream6-dual "wall cpu" stream6
variant stream6-f2-wall "wall" stream6 --clock wall
variant stream6-f2-cpu "cpu" stream6 --clock thread-cpu
variant stream2017-dual "wall cpu" stream2017
variant stream2017-f2-wall "wall" stream2017 --clock wall
variant stream2017-f2-cpu "cpu" stream2017 --clock thread-cpu
variant stream2017-f2-10byte "wall" stream2017 --clock wall --record-size 10
variant stream2023-dual "wall cpu" stream2023
variant stream2023-f2-wall "wall" stream2023 --clock wall
variant stream2023-f2-cpu "cpu" stream2023 --clock thread-cpu
variant stream2023-f2-14byte "cpu" stream2023 --clock thread-cpu --record-size 14
variant v2a-ns "wall cpu" v2a
variant v2a-us "wall cpu" v2a --unit us
variant v2a-wall "wall" v2a --clock wall
variant v2a-cpu "cpu" v2a --clock thread-cpu
variant v2a-cpu-us "cpu" v2a --clock thread-cpu --unit us
variant v2a-streaming "wall cpu" v2a --streaming --block 2
variant v2a-no-summary "wall cpu" v2a --streaming --no-summary
variant v2b "wall" v2b
variant v2b-wall "wall" v2b --clock wall
variant v2b-streaming-19mhz "wall" v2b --streaming --freq 19200000 --block 3

info stream6 "era: ART 6.0–7.1 streaming (no summary item)" stream6
info stream6-f2 "era: ART 6.0–7.1 streaming (no summary item); 14-byte records under a 0xf2 header saying 10: ART 6–13 writer" stream6 --clock wall
info stream6-f2-clock "clock: unknown (single-clock 0xf2 file with no clock= summary)" stream6 --clock wall
info stream2017 "era: ART 2017–2022 streaming (summary lists threads)" stream2017
info stream2017-variant "variant: V1 streaming 0xf2 (single clock, 14-byte records, not the header's size)" stream2017 --clock wall
info stream2023 "era: ART 2023+ streaming (summary lists every method, no threads); small sequential thread ids (ART 2023+)" stream2023
info v2a "variant: V2a file 0x5 (dual clock)" v2a
info v2a-ns "time unit: ns (largest wall time 200137 against elapsed-time-nsec 210000)" v2a
info v2a-us "time unit: µs, the 2024 writer (or µs labelled ns, spec §7.3) (largest wall time 200 against elapsed-time-nsec 210000)" v2a --unit us
info v2b "variant: V2b streaming 0xf5 (dual clock)" v2b --streaming
info v2b-freq "tsc frequency: 24000000 Hz" v2b
info overflow "  1 data-file-overflow=true: the trace buffer filled and events were dropped" stream2017 --overflow
info instrumented "mode: instrumented" legacy3

python3 "$W" --batch <"$TMP/batch" 2>"$TMP/batch.err"
for ((i = 0; i < ${#VARIANTS[@]}; i += 2)); do check_variant "${VARIANTS[i]}" "${VARIANTS[i + 1]}"; done
for ((i = 0; i < ${#INFOS[@]}; i += 2)); do check_info "${INFOS[i]}" "${INFOS[i + 1]}"; done

# The real streaming capture against the same records as a legacy v3 file.
FFX=$DATA/art/ffx-art-streaming.trace
if python3 tests/tools/stream_to_legacy.py "$FFX" "$TMP/ffx-legacy.trace" 2>"$TMP/conv.err"; then
	"$AFLAME" --format folded "$FFX" >"$TMP/ffx-stream.folded" 2>/dev/null
	"$AFLAME" --format folded "$TMP/ffx-legacy.trace" >"$TMP/ffx-legacy.folded" 2>/dev/null
	check "art-variants/ffx legacy v3 conversion reads" test "$(wc -l <"$TMP/ffx-legacy.folded")" -gt 1900
	check "art-variants/ffx streaming = same records as legacy v3 (folded)" \
		cmp "$TMP/ffx-stream.folded" "$TMP/ffx-legacy.folded"
	"$AFLAME" --clock cpu --format folded "$FFX" >"$TMP/ffx-stream-cpu.folded" 2>/dev/null
	"$AFLAME" --clock cpu --format folded "$TMP/ffx-legacy.trace" >"$TMP/ffx-legacy-cpu.folded" 2>/dev/null
	check "art-variants/ffx streaming = legacy v3 (folded, thread-cpu)" \
		cmp "$TMP/ffx-stream-cpu.folded" "$TMP/ffx-legacy-cpu.folded"
else
	fail "art-variants/ffx conversion" "$(head -1 "$TMP/conv.err")"
fi
"$AFLAME" --info "$FFX" >"$TMP/ffx.info" 2>&1
check "art-variants/ffx 52 threads with events" grep -qx 'threads with events: 52' "$TMP/ffx.info"
check "art-variants/ffx 3652 distinct names" grep -qx 'distinct names: 3652' "$TMP/ffx.info"
check "art-variants/ffx 9 unknown ids" grep -qx '  9 unknown method ids (not in the method list)' "$TMP/ffx.info"

# issue 21 item 7: each new thread looked its name up by a scan of the thread
# list, so a legacy trace listing 100k threads took 24.5 s. 4x the listed
# threads and 4x the threads with events must cost about 4x, not 16x (best
# of 3 each: the machine is shared). Record ids keep 16 bits, so both stay
# under 65536 threads with events.
many_threads() {   # many_threads LISTED WITH-EVENTS OUT ...: a trace for each
	python3 - "$@" <<'PY'
import sys
sys.path.insert(0, "tests/tools")
import art_writer   # the description built here, not parsed: 460k lines cost seconds
args = sys.argv[1:]
for listed, used, out in zip(args[0::3], args[1::3], args[2::3]):
    d = art_writer.Desc("vm art\npid 1\nmethod 0 a.B run ()V B.java")
    d.threads = [(t, f"t{t}") for t in range(1, int(listed) + 1)]
    d.events = [e for t in range(1, int(used) + 1) for e in ((t, 0, 0, 0, t), (t, 1, 0, 1, t + 1))]
    with open(out, "wb") as f:
        f.write(art_writer.write_legacy(d, 3, "dual", False))
PY
}
# (a quarter of the threads under the sanitizers: 16x for 4x still shows)
k=1
[ -n "${AFLAME_SANITIZED:-}" ] && k=4
if many_threads $((100000 / k)) $((15000 / k)) "$TMP/mt1.trace" \
	$((400000 / k)) $((60000 / k)) "$TMP/mt4.trace"; then
	t1=$(best_cpu_seconds "$AFLAME" --format folded "$TMP/mt1.trace")
	t4=$(best_cpu_seconds "$AFLAME" --format folded "$TMP/mt4.trace")
	n=$("$AFLAME" --format folded "$TMP/mt4.trace" 2>/dev/null | grep -c .)
	if [ "$n" = $((60000 / k)) ] && awk -v a="$t1" -v b="$t4" 'BEGIN { exit !(b < 10 * (a + 0.02)) }'; then
		pass "art-variants/many-listed-threads linear ($((100000 / k)): ${t1}s, $((400000 / k)): ${t4}s)"
	else
		fail "art-variants/many-listed-threads" "$((100000 / k)) listed: ${t1}s, $((400000 / k)): ${t4}s, $n stacks"
	fi
else
	fail "art-variants/many-listed-threads" "the trace writer failed"
fi
