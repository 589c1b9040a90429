# picture.sh: what every graph says (issue 33): a subtitle naming the file
# and the event of sampled captures (folded stacks: the file and the count
# name; --subtitle '' none, with no room kept), the window drawn; Android Studio's
# colours and legend by default on Android captures, flamegraph.pl's hot
# colours kept for folded stacks and Linux perf; --colors still wins.
. tests/lib.sh
svg() { # OUT ARGS...: an SVG from tests/data
	local out=$1
	shift
	(cd "$DATA" && "$AFLAME" --no-js "$@" -o "$TMP/$out.svg" 2>/dev/null)
}
subtitle() { sed -n 's/.*<text class="st"[^>]*>\([^<]*\)<\/text>.*/\1/p' "$TMP/$1.svg"; }
same() { # NAME GOT WANT
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', expected '$3'"; fi
}
svg sp simpleperf/corners.trace
same "picture/simpleperf subtitle: file, event, unit" "$(subtitle sp)" "corners.trace · cpu-clock · ns"
svg pd perfdata/perf_with_two_event_types.data
same "picture/perf.data subtitle: file, event, unit" "$(subtitle pd)" "perf_with_two_event_types.data · cpu-cycles · events"
svg pd2 --event cpu-clock perfdata/perf_with_two_event_types.data
same "picture/perf.data subtitle: the event drawn" "$(subtitle pd2)" "perf_with_two_event_types.data · cpu-clock · ns"
svg pf perfetto/samples.pftrace
same "picture/Perfetto CPU samples subtitle" "$(subtitle pf)" "samples.pftrace · CPU samples"
svg fs folded/basic.folded
same "picture/folded subtitle: the file and what is counted" "$(subtitle fs)" "basic.folded · samples"
svg fs2 --countname bytes folded/basic.folded
same "picture/folded subtitle: --countname's word" "$(subtitle fs2)" "basic.folded · bytes"
(cd "$DATA" && "$AFLAME" --no-js -o "$TMP/fs3.svg" <folded/basic.folded 2>/dev/null)
same "picture/folded subtitle piped: standard input" "$(subtitle fs3)" "standard input · samples"
svg fs4 --subtitle '' folded/basic.folded
same "picture/--subtitle '': no subtitle" "$(subtitle fs4)" ""
height() { sed -n 's/^<svg [^>]*height="\([0-9]*\)".*/\1/p' "$TMP/$1.svg"; }
same "picture/--subtitle '': no subtitle row (flamegraph.pl's height)" "$(height fs4)" "$(($(height fs) - 24))"
svg ps perfscript/flamegraph/perf-java-faults-01.txt
same "picture/perf script subtitle: file, event, unit" "$(subtitle ps)" "perf-java-faults-01.txt · page-faults · events"
svg win -t main --from 20ms --to 1.5s art/yamp-legacy.trace
same "picture/--from/--to named in the subtitle" "$(subtitle win)" "yamp-legacy.trace · wall clock · µs · from 20 ms to 1.5 s"

# the legend by default on Android captures, none on folded stacks
for spec in "art -t main art/yamp-legacy.trace" "simpleperf simpleperf/corners.trace" \
	"perfdata perfdata/perf_with_jit_symbol.data"; do
	set -- $spec
	name=$1
	shift
	svg "lg-$name" "$@"
	check "picture/$name: Android Studio's legend by default" grep -q '<text x="[0-9.]*" y="[0-9.]*">platform</text>\|>app' "$TMP/lg-$name.svg"
done
check "picture/art: the app's package in the legend" grep -q '>app (com.github.grishberg)<' "$TMP/lg-art.svg"
# the app's package from its process's name, though it starts com.android.
check "picture/perf.data: the app from its process name" grep -q '>app (com.android.simpleperf.debuggable)<' "$TMP/lg-perfdata.svg"
check "picture/perf.data: the kernel its own kind" grep -q '>kernel<' "$TMP/lg-perfdata.svg"
check "picture/simpleperf: thread roots grey, a kind of their own" grep -q '>threads<' "$TMP/lg-simpleperf.svg"
# Perfetto's perf samples of ART's interpreter (upstream's test trace): the
# runtime's C++ (art::) marks an Android capture
svg interp perfetto/perf_sample_switch_interp.pftrace
check "picture/Perfetto samples of ART code: Android Studio's legend" grep -q '>threads<' "$TMP/interp.svg"
svg fo folded/java.folded
svg fo-hot --colors hot folded/java.folded
check "picture/folded: no legend" sh -c "! grep -q 'class=\"lg\"' '$TMP/fo.svg'"
check "picture/folded: flamegraph.pl's hot colours, unchanged" cmp -s "$TMP/fo.svg" "$TMP/fo-hot.svg"
svg lp perfdata/perf_with_symbols.data
svg lp-hot --colors hot perfdata/perf_with_symbols.data
check "picture/Linux perf.data: hot colours" cmp -s "$TMP/lp.svg" "$TMP/lp-hot.svg"
svg art-hot --colors hot -t main art/yamp-legacy.trace
check "picture/--colors hot still picks hot on ART" sh -c "! grep -q 'class=\"lg\"' '$TMP/art-hot.svg'"
# per-thread runs choose alike
(cd "$DATA" && "$AFLAME" --per-thread "$TMP/pt" --format svg simpleperf/corners.trace 2>/dev/null)
check "picture/--per-thread: the legend on a simpleperf thread" grep -q '>app (com.example.app)<' "$TMP/pt/101-com.example.app.svg"
