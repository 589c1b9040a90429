#!/usr/bin/env bash
# bench/run.sh (make bench): generate large inputs (deterministic, cached in
# $O/bench/data), time aflame-render on each, print a table. Wall time is
# the median of RUNS runs; peak RSS from /usr/bin/time. Compare figures
# within one run: the machine is shared and noisy.
#   O=build  RUNS=5  FLAMEGRAPH_PL=/path/to/flamegraph.pl  SCALING=1
#   BROWSER=0: skip the browser benchmark (bench/browser.sh)
#   ONLY=folded: only the rows (and their inputs) whose name has this word
#   (e.g. ONLY=folded SCALING=0 BROWSER=0 FLAMEGRAPH_PL=... for issue 19's
#   folded rows; ONLY=scaling BROWSER=0 for the scaling run alone)
set -euo pipefail
cd "$(dirname "$0")/.."
O=${O:-build}
AF=$(realpath "$O/aflame-render")
GEN=$O/bench
DATA=$GEN/data
RUNS=${RUNS:-5}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
mkdir -p "$DATA"

# want NAME: whether ONLY (if set) picks the row or input NAME
want() { [ -z "${ONLY:-}" ] || [[ $1 == *"$ONLY"* ]]; }

# make_input FILE GENERATOR ARGS...: generate FILE unless it is there and
# newer than its generator (or ONLY leaves out every row that reads it)
make_input() {
	local file=$1
	shift
	want "$(basename "$file")" || return 0
	[ -s "$file" ] && [ "$file" -nt "$1" ] && return 0
	echo "generating $(basename "$file") ..." >&2
	"$@" >"$file.tmp" && mv "$file.tmp" "$file"
}

art=$DATA/art-4.09M.trace
make_input "$art" "$GEN/gen_art" legacy 4090000 1
make_input "$DATA/art-4.09M-streaming.trace" "$GEN/gen_art" streaming 4090000 1
make_input "$DATA/folded-60M.folded" "$GEN/gen_folded" 51700 33 1
make_input "$DATA/folded-247M.folded" "$GEN/gen_folded" 205200 33 2
# the same lines in random order (a seeded shuffle in the generator), as
# concatenated files and many collapsers give: each line then shares little
# with the one before (issue 19)
make_input "$DATA/folded-60M-random.folded" "$GEN/gen_folded" 51700 33 1 random
make_input "$DATA/folded-247M-random.folded" "$GEN/gen_folded" 205200 33 2 random
make_input "$DATA/atrace-200M.txt" "$GEN/gen_atrace" 2200000 1
make_input "$DATA/perfetto-200M.pftrace" "$GEN/gen_perfetto" 4400000 1
# systrace.py's HTML (Android 7-10): a 4 MB trace viewer, a controller JSON
# block, PROCESS DUMP, then 310k ftrace lines (issue 15)
make_input "$DATA/systrace-ftrace.txt" "$GEN/gen_atrace" 310000 5
systrace_html() {
	printf 'PROCESS DUMP\nUSER PID PPID VSZ RSS WCHAN PC S NAME\nu0_a1 2000 1 1000 100 0 0 S com.example.app\nsystem 612 1 1000 100 0 0 S surfaceflinger\n' >"$DATA/systrace-ps.txt"
	python3 tests/tools/systrace_html.py "$1" --json --dump "$DATA/systrace-ps.txt" --viewer-kb 4096
}
make_input "$DATA/systrace-35M.html" systrace_html "$DATA/systrace-ftrace.txt"
make_input "$DATA/perf.data-100M.data" "$GEN/gen_perfdata" 175000 1
# Chrome trace-event JSON (X callees before callers, B/E, args) and a V8
# .cpuprofile (issue 35): >= 200 MB/s each
make_input "$DATA/chrome-200M.json" "$GEN/gen_chrome" trace 1800000 1
make_input "$DATA/cpuprofile-200M.cpuprofile" "$GEN/gen_chrome" cpuprofile 12600000 1
make_input "$DATA/pprof-10M.pb" "$GEN/gen_pprof" 88000 1
# perf script text: the real files in tests/data/perfscript of one event
# type, cpu-clock (FlameGraph's, speedscope's, simpleperf's, inferno's: 2.3
# MB, so every sample is drawn), each ended by a blank line, concatenated
# until 72 MB or more: real samples, a small tree
perfscript_concat() {
	local d=tests/data/perfscript f size=0
	local files="$d/flamegraph/perf-dd-stacks-01.txt $d/flamegraph/perf-funcab-cmd-01.txt
		$d/flamegraph/perf-funcab-pid-01.txt $d/flamegraph/perf-iperf-stacks-pidtid-01.txt.gz
		$d/flamegraph/perf-js-stacks-01.txt $d/flamegraph/perf-mirageos-stacks-01.txt
		$d/flamegraph/perf-numa-stacks-01.txt.gz $d/flamegraph/perf-vertx-stacks-01.txt.gz
		$d/speedscope/forks.linux-perf.txt.gz $d/speedscope/one-sample.linux-perf.txt
		$d/speedscope/simple-with-header.linux-perf.txt $d/speedscope/simple-with-pid.linux-perf.txt
		$d/speedscope/system-wide.linux-perf.txt.gz $d/simpleperf/perf_display_bitmaps.UiThread.perf-script
		$d/simpleperf/perf_display_bitmaps.header.perf-script $d/inferno/java-inline.txt"
	local one
	one=$(for f in $files; do zcat -f "$f"; printf '\n\n'; done | wc -c)
	while [ "$size" -lt 72000000 ]; do
		for f in $files; do zcat -f "$f"; printf '\n\n'; done
		size=$((size + one))
	done
}
make_input "$DATA/perfscript-72M.txt" perfscript_concat

# median of the numbers on standard input
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-34s %9s %9s %9s %10s %11s %9s %s\n' case "input MB" "time s" "MB/s" "peak MB" "output B" frames "target"
# row NAME TARGET INPUT CMD...: run CMD RUNS times
row() {
	local name=$1 target=$2 input=$3
	shift 3
	want "$name" || return 0
	local times="" rss=0 t m
	for _ in $(seq "$RUNS"); do
		AFLAME_STATS=1 /usr/bin/time -f '%e %M' -o "$OUT/time" "$@" >"$OUT/stdout" 2>"$OUT/stderr" ||
			{ echo "$name: failed: $(grep -v warning "$OUT/stderr" | head -2)"; return 0; }
		read -r t m <"$OUT/time"
		times="$times $t"
		[ "$m" -gt "$rss" ] && rss=$m
	done
	local med mb bytes frames
	med=$(tr ' ' '\n' <<<"$times" | grep . | median)
	mb=$(awk -v b="$(stat -c %s "$input")" 'BEGIN {printf "%.1f", b / 1e6}')
	bytes=$(find "$OUT" -path '*result*' -type f -exec cat {} + 2>/dev/null | wc -c)
	[ "$bytes" -gt 0 ] || bytes=$(wc -c <"$OUT/stdout")
	frames=${FRAMES:--}
	printf '%-34s %9s %9s %9s %10s %11s %9s %s\n' "$name" "$mb" "$med" \
		"$(awk -v b="$mb" -v t="$med" 'BEGIN {printf "%.0f", (t > 0 ? b / t : 0)}')" \
		"$(awk -v k="$rss" 'BEGIN {printf "%.1f", k / 1024}')" "$bytes" "$frames" "$target"
	rm -rf "$OUT"/result*
	LAST_TIME=$med
}

# frames drawn in the SVG of FILE (one line each in --format frames)
frames_of() { "$AF" "$@" --format frames 2>/dev/null | grep -vc '^#'; }

FRAMES=$(frames_of "$art") row "ART 57 MB -> SVG, every thread" "<=0.25 s, <=100 MB" "$art" "$AF" "$art" -o "$OUT/result.svg"
FRAMES=$(frames_of "$DATA/art-4.09M-streaming.trace") row "ART 57 MB streaming -> SVG" "" \
	"$DATA/art-4.09M-streaming.trace" "$AF" "$DATA/art-4.09M-streaming.trace" -o "$OUT/result.svg"
row "ART 57 MB -> PNG per thread" "<=0.35 s" "$art" "$AF" --per-thread "$OUT/result-dir" --format png "$art"
# a 3-line folded file: the whole process's CPU (task-clock, perf stat -r 50),
# which is mostly starting the program: no cairo or pango unless drawn. The
# floor on this machine, measured in the same run: /bin/true, and a static
# program that only exits would be less, but no dynamic program starts for less
printf 'main;work;leaf 3\nmain;work 2\nmain;idle 1\n' >"$DATA/small.folded"
cpu_ms() { perf stat -r 50 -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ {printf "%.2f", $1}'; }
if command -v perf >/dev/null && ms=$(cpu_ms "$AF" "$DATA/small.folded" -o "$OUT/small.svg") && [ -n "$ms" ]; then
	floor=$(cpu_ms /bin/true)
	printf '%-34s %9s %9s %9s %10s %11s %9s %s\n' "3-line folded -> SVG, CPU ms" 0.0 "$ms ms" - - \
		"$(wc -c <"$OUT/small.svg")" - "<=3 ms CPU"
	printf '%-34s %9s %9s %9s %10s %11s %9s %s\n' "  /bin/true, same run (the floor)" - "$floor ms" - - - - \
		"$(awk -v a="$ms" -v b="$floor" 'BEGIN {printf "ratio %.2f", (b > 0 ? a / b : 0)}')"
else
	echo "3-line folded -> SVG: perf stat not available"
fi
declare -A OURS
LAST_TIME=0   # (a row left out by ONLY keeps the last one)
FRAMES=$(frames_of "$DATA/folded-60M.folded") row "folded 60 MB -> SVG" "<=0.08 s, >=60x" \
	"$DATA/folded-60M.folded" "$AF" "$DATA/folded-60M.folded" -o "$OUT/result.svg"
OURS[folded-60M]=$LAST_TIME
FRAMES=$(frames_of "$DATA/folded-60M-random.folded") row "folded 60 MB random order -> SVG" "<=0.12 s, >=50x" \
	"$DATA/folded-60M-random.folded" "$AF" "$DATA/folded-60M-random.folded" -o "$OUT/result.svg"
OURS[folded-60M-random]=$LAST_TIME
FRAMES=$(frames_of "$DATA/folded-247M-random.folded") row "folded 247 MB random order -> SVG" "<=0.5 s, <=120 MB" \
	"$DATA/folded-247M-random.folded" "$AF" "$DATA/folded-247M-random.folded" -o "$OUT/result.svg"
FRAMES=$(frames_of "$DATA/folded-247M.folded") row "folded 247 MB -> SVG" "<=0.6 s, <=350 MB" \
	"$DATA/folded-247M.folded" "$AF" "$DATA/folded-247M.folded" -o "$OUT/result.svg"
OURS[folded-247M]=$LAST_TIME
FRAMES=$(frames_of "$DATA/atrace-200M.txt") row "atrace 200 MB -> SVG" ">=400 MB/s" \
	"$DATA/atrace-200M.txt" "$AF" "$DATA/atrace-200M.txt" -o "$OUT/result.svg"
row "systrace.py HTML 35 MB -> SVG per thread" "<=0.15 s" \
	"$DATA/systrace-35M.html" "$AF" --per-thread "$OUT/result-dir" "$DATA/systrace-35M.html"
FRAMES=$(frames_of "$DATA/perfetto-200M.pftrace") row "Perfetto 200 MB -> SVG" ">=400 MB/s" \
	"$DATA/perfetto-200M.pftrace" "$AF" "$DATA/perfetto-200M.pftrace" -o "$OUT/result.svg"
FRAMES=$(frames_of "$DATA/perf.data-100M.data") row "perf.data 106 MB -> SVG" "well under 1 s" \
	"$DATA/perf.data-100M.data" "$AF" "$DATA/perf.data-100M.data" -o "$OUT/result.svg"
FRAMES=$(frames_of "$DATA/chrome-200M.json") row "Chrome JSON 200 MB -> SVG" ">=200 MB/s" \
	"$DATA/chrome-200M.json" "$AF" "$DATA/chrome-200M.json" -o "$OUT/result.svg"
FRAMES=$(frames_of "$DATA/cpuprofile-200M.cpuprofile") row ".cpuprofile 200 MB -> SVG" ">=200 MB/s" \
	"$DATA/cpuprofile-200M.cpuprofile" "$AF" "$DATA/cpuprofile-200M.cpuprofile" -o "$OUT/result.svg"
# pprof in and out (issue 35): a Go-like CPU profile, 2.9M frames
FRAMES=$(frames_of "$DATA/pprof-10M.pb") row "pprof 10 MB -> SVG" "<0.1 s" \
	"$DATA/pprof-10M.pb" "$AF" "$DATA/pprof-10M.pb" -o "$OUT/result.svg"
row "pprof 10 MB -> pprof (.pb.gz)" "<0.1 s" \
	"$DATA/pprof-10M.pb" "$AF" "$DATA/pprof-10M.pb" -o "$OUT/result.pb.gz"

FRAMES=$(frames_of "$DATA/perfscript-72M.txt") row "perf script 72 MB -> SVG" ">=100x the Perl pipeline" \
	"$DATA/perfscript-72M.txt" "$AF" "$DATA/perfscript-72M.txt" -o "$OUT/result.svg"
OURS[perfscript]=$LAST_TIME
# the Perl pipeline it replaces, once (stackcollapse-perf.pl next to
# flamegraph.pl); ratios of CPU seconds (user + system) in this one run, as
# the machine may be shared
sc_pl=$(dirname "${FLAMEGRAPH_PL:-/}")/stackcollapse-perf.pl
if [ -n "${FLAMEGRAPH_PL:-}" ] && [ -r "$sc_pl" ] && want "perf script"; then
	# cpu_s N CMD...: CPU seconds (user + system, the children's rusage
	# in microseconds) of CMD, the mean of N runs: ours is some 40 ms,
	# where one run timed to /usr/bin/time's 10 ms could be 35 or 45 ms
	# (59x or 76x), so it is run 20 times; the Perl pipeline once
	cpu_s() {
		python3 -c 'import resource, subprocess, sys
n = int(sys.argv[1])
for _ in range(n):
    subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.4f" % ((r.ru_utime + r.ru_stime) / n))' "$@"
	}
	ours=$(cpu_s 20 "$AF" "$DATA/perfscript-72M.txt" -o "$OUT/result.svg")
	perl_s=$(cpu_s 1 sh -c 'perl "$1" "$2" | perl "$3" >/dev/null' - "$sc_pl" "$DATA/perfscript-72M.txt" "$FLAMEGRAPH_PL")
	printf '%-34s %9s %9s %9s %10s %11s %9s %s\n' "  stackcollapse-perf.pl | fg.pl" - \
		"$(awk -v a="$perl_s" 'BEGIN {printf "%.2f CPU", a}')" - - - - \
		"$(awk -v a="$perl_s" -v b="$ours" 'BEGIN {printf "aflame-render %.1f ms CPU (mean of 20): %.0fx", b * 1000, (b > 0 ? a / b : 0)}')"
fi

if [ -n "${FLAMEGRAPH_PL:-}" ] && want "flamegraph.pl folded"; then
	echo
	echo "flamegraph.pl ($FLAMEGRAPH_PL), same inputs:"
	for f in folded-60M folded-60M-random folded-247M; do
		ours=${OURS[$f]:-0}
		RUNS=1 row "flamegraph.pl $f" "" "$DATA/$f.folded" perl "$FLAMEGRAPH_PL" "$DATA/$f.folded"
		awk -v a="$LAST_TIME" -v b="$ours" 'BEGIN {printf "  aflame-render is %.0fx faster on %s\n", (b > 0 ? a / b : 0), "'"$f"'"}'
	done
fi

# (ONLY=scaling runs just these)
if [ "${SCALING:-1}" = 1 ] && want scaling; then
	echo
	echo "scaling (ART, legacy v3): time and peak memory should grow with the tree, not the records"
	for k in 1 4 16; do
		n=$((1000000 * k))
		ONLY='' make_input "$DATA/art-scale-$k.trace" "$GEN/gen_art" legacy "$n" 7
		ONLY='' FRAMES=$(frames_of "$DATA/art-scale-$k.trace") RUNS=3 row "ART ${k}M records -> SVG" "" "$DATA/art-scale-$k.trace" \
			"$AF" "$DATA/art-scale-$k.trace" -o "$OUT/result.svg"
	done
fi

if [ "${BROWSER:-1}" = 1 ]; then
	echo
	O=$O bash bench/browser.sh
fi
