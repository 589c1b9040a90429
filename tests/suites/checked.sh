# checked.sh: issue 33's "How it will be checked", measured on real
# Java-heavy captures nobody here wrote (ART traces of two apps, simpleperf's
# perf.data recordings of Android apps, FlameGraph's Java perf samples, a
# diff of two ART captures): at least 90% of shortened labels end as a real
# frame name ends; at least 99% of labels (diff and legend included) at a
# WCAG contrast of 4.5:1 or more, read from the SVG by
# tests/tools/svg_labels.pl (PNG, PDF and static SVG draw the same labels in
# the same ink: core/label.h); a --flamechart PDF with at least 4 time-axis
# labels in pdftotext's text; perf.data and simpleperf subtitles naming the
# file and the event; the legend by default on ART, simpleperf and perf.data.
# Each figure is in its check's name.
. tests/lib.sh
command -v perl >/dev/null || { skip "checked" "perl not installed"; exit 0; }
TOOL=tests/tools/svg_labels.pl
all_n=0 all_ok=0 all_cut=0 all_ends=0
# measure NAME ARGS...: the labels of one graph of a capture in tests/data
measure() {
	local name=$1
	shift
	(cd "$DATA" && "$AFLAME" "$@" -o "$TMP/$name.svg" 2>/dev/null)
	(cd "$DATA" && "$AFLAME" --format folded "$@" 2>/dev/null) | sed 's/ [-0-9.]*$//; s/ [-0-9.]*$//' |
		tr ';' '\n' | sed 's/_\[[kjiw]\]$//' | sort -u >"$TMP/$name.names"
	if ! perl "$TOOL" "$TMP/$name.svg" "$TMP/$name.names" >"$TMP/$name.out" 2>&1; then
		fail "checked/$name" "$(head -1 "$TMP/$name.out")"
		return
	fi
	local _l n _r ok _c cut _e ends _g ln _lr lok
	read -r _l n _r ok _c cut _e ends _g ln _lr lok <"$TMP/$name.out"
	all_n=$((all_n + n + ln)) all_ok=$((all_ok + ok + lok))
	all_cut=$((all_cut + cut)) all_ends=$((all_ends + ends))
	if [ "$n" -gt 0 ] && [ $(((ok + lok) * 100)) -ge $(((n + ln) * 99)) ]; then
		pass "checked/$name: $ok of $n labels and $lok of $ln legend texts at contrast >= 4.5:1"
	else
		fail "checked/$name: contrast" "$ok of $n labels, $lok of $ln legend texts: $(sed -n 2,4p "$TMP/$name.out" | tr '\n' ' ')"
	fi
}
measure yamp-main -t main art/yamp-legacy.trace
measure ffx-regular art/ffx-art-regular.trace
measure ffx-streaming-cpu --clock cpu art/ffx-art-streaming.trace
measure ffx-regular-chart --flamechart -t main art/ffx-art-regular.trace
measure perf-jit perfdata/perf_with_jit_symbol.data
measure perf-bitmaps perfdata/perf_display_bitmaps.data
measure perf-bitmaps-script perfscript/simpleperf/perf_display_bitmaps.UiThread.perf-script
gzip -dc "$DATA/flamegraph-pl/perf-java-stacks-01.folded.gz" >"$TMP/java.folded"
measure fg-java "$TMP/java.folded"
measure fg-java-java --colors java "$TMP/java.folded"
measure diff-ffx --diff -t main art/ffx-art-regular.trace art/ffx-art-streaming.trace
if [ $((all_ok * 100)) -ge $((all_n * 99)) ]; then
	pass "checked/readable: $all_ok of $all_n labels and legend texts ($((all_ok * 1000 / all_n / 10)).$((all_ok * 1000 / all_n % 10))%) at >= 4.5:1"
else
	fail "checked/readable" "$all_ok of $all_n at >= 4.5:1"
fi
if [ "$all_cut" -gt 0 ] && [ $((all_ends * 100)) -ge $((all_cut * 90)) ]; then
	pass "checked/shortened labels: $all_ends of $all_cut ($((all_ends * 1000 / all_cut / 10)).$((all_ends * 1000 / all_cut % 10))%) end as a frame's name"
else
	fail "checked/shortened labels" "$all_ends of $all_cut end as a frame's name"
fi

# a flame chart PDF: its time axis in the text
(cd "$DATA" && "$AFLAME" --flamechart -t main -o "$TMP/chart.pdf" art/yamp-legacy.trace 2>/dev/null)
if command -v pdftotext >/dev/null; then
	ticks=$(pdftotext "$TMP/chart.pdf" - 2>/dev/null | grep -cE '^[0-9]+(\.[0-9]+)? (ns|µs|ms|s)$')
	if [ "$ticks" -ge 4 ]; then pass "checked/flame chart PDF: $ticks time-axis labels"
	else fail "checked/flame chart PDF" "$ticks time-axis labels"; fi
else
	skip "checked/flame chart PDF" "pdftotext not installed"
fi

# subtitles name the file and the event; the legend by default
for spec in "perf_with_jit_symbol.data cpu-cycles perfdata/perf_with_jit_symbol.data" \
	"perf_display_bitmaps.data cpu-clock perfdata/perf_display_bitmaps.data" \
	"corners.trace cpu-clock simpleperf/corners.trace"; do
	set -- $spec
	(cd "$DATA" && "$AFLAME" -o "$TMP/st.svg" "$3" 2>/dev/null)
	st=$(sed -n 's/.*<text class="st"[^>]*>\([^<]*\)<\/text>.*/\1/p' "$TMP/st.svg")
	case $st in
	"$1 · $2 · "*) pass "checked/subtitle of $3: $st" ;;
	*) fail "checked/subtitle of $3" "'$st'" ;;
	esac
	check "checked/legend by default: $3" grep -q '<g class="lg">' "$TMP/st.svg"
done
for f in art/yamp-legacy.trace art/ffx-art-regular.trace art/ffx-art-streaming.trace; do
	(cd "$DATA" && "$AFLAME" -o "$TMP/lg.svg" "$f" 2>/dev/null)
	check "checked/legend by default: $f" grep -q '<g class="lg">' "$TMP/lg.svg"
done
