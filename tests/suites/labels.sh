# labels.sh: frame labels (core/label.h). The page's label.js and the C
# labeler give the same label for the same name and room, on every name of
# the test corpus and on hand-made hard cases; labels drawn on real Java
# captures keep the end of their frame's name; --right-cut keeps
# flamegraph.pl's text; every label is readable on its frame.
. tests/lib.sh
UNIT_BIN=${UNIT:-build/unit-tests}
if [ ! -x "$UNIT_BIN" ]; then
	skip "labels" "no unit-test binary"
	exit 0
fi
NAMES=$TMP/names
{
	for f in art/yamp-legacy.trace art/ffx-art-regular.trace perfdata/perf_with_jit_symbol.data \
		perfdata/perf_with_symbols.data simpleperf/corners.trace perfetto/samples.pftrace \
		perfetto/heap.pftrace atrace/android_systrace.txt folded/java.folded; do
		"$AFLAME" --format folded "$DATA/$f" 2>/dev/null
	done | sed 's/ [0-9.]*$//' | tr ';' '\n' | sed 's/_\[[kjiw]\]$//'
	"$AFLAME" --signatures --format folded "$DATA/art/perflib-basic.trace" 2>/dev/null |
		sed 's/ [0-9.]*$//' | tr ';' '\n'
	cat <<'HARD'
com.github.grishberg.cad3d.util.SceneBuilderKeyboard.createAndAdd
std::vector<int, std::allocator<int> >::push_back(int const&)
std::_Function_handler<void (int), main::{lambda(int)#1}>::_M_invoke(std::_Any_data const&, int&&)
art::Monitor::Wait(art::Thread*, art::ObjPtr<art::mirror::Object>, long, int, bool, art::ThreadState)
Lcom/example/feature/detail/DetailViewModel;.loadItems
/system/lib64/libhwui.so+0x1a2b3c
/data/app/~~x==/com.example-1/lib/arm64/libnative.so[+1a2b]
[kernel.kallsyms][+ffffff93eb481f72]
github.com/foo/bar/pkg.(*Server).ServeHTTP
operator<<(std::ostream&, Foo const&)
a < b in a trace mark
<T as core::fmt::Debug>::fmt
com.foo.Bar.<init>
kotlinx.coroutines.internal.DispatchedContinuation.resumeWith
Choreographer#doFrame 123456789
名前空間::クラス::メソッド(引数)
über.straße.Klasse.methode
((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((deep))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
HARD
} | awk 'length($0) > 0 && !seen[$0]++' >"$NAMES"
LINES=$TMP/lines
awk '{ for (r = 3; r <= 48; r += (r < 12 ? 1 : 5)) print r "\t" $0 }' "$NAMES" >"$LINES"

twin() { # MODE: the page's labels of $LINES
	{
		cat src/render/page/label.js
		cat <<'JS'
var lines = require("fs").readFileSync(process.argv[2], "utf8").split("\n"), out = [];
for (var i = 0; i < lines.length; i++) {
	var t = lines[i].indexOf("\t");
	if (t < 0) continue;
	var room = +lines[i].slice(0, t);
	out.push(room + "\t" + label(lines[i].slice(t + 1), room, process.argv[3] === "right"));
}
process.stdout.write(out.join("\n") + "\n");
JS
	} >"$TMP/twin.js"
	node "$TMP/twin.js" "$LINES" "$1"
}
"$UNIT_BIN" --label <"$LINES" >"$TMP/c.txt"
"$UNIT_BIN" --label right <"$LINES" >"$TMP/c-right.txt"
n=$(wc -l <"$LINES")
if command -v node >/dev/null 2>&1; then
	twin smart >"$TMP/js.txt"
	twin right >"$TMP/js-right.txt"
	if cmp -s "$TMP/c.txt" "$TMP/js.txt"; then pass "labels/page twin: $n labels as the C labeler's"
	else fail "labels/page twin" "$(diff "$TMP/c.txt" "$TMP/js.txt" | head -6 | tr '\n' ' ')"; fi
	if cmp -s "$TMP/c-right.txt" "$TMP/js-right.txt"; then pass "labels/page twin, right cut"
	else fail "labels/page twin, right cut" "$(diff "$TMP/c-right.txt" "$TMP/js-right.txt" | head -6 | tr '\n' ' ')"; fi
else
	skip "labels/page twin" "node not installed"
fi

# every label fits its room, has at most one ellipsis character besides
# those of elided brackets, and a cut one ends as its name does unless a
# file's offset or a parameter list was elided
paste "$LINES" "$TMP/c.txt" | perl -CSD -F'\t' -lane '
	my ($room, $name, $lab) = @F[0, 1, 3];
	$bad++ if length($lab) > $room;
	next if $lab eq $name;
	$cut++;
	# no label rather than a cut keeping under three of the name
	(my $kept = $lab) =~ s/\x{2026}//g;
	$none++ if $lab eq "";
	$short++ if $lab ne "" && length($kept) < 3;
	next if $lab eq "";
	$drawn++;
	my ($tail) = $lab =~ /([^\x{2026}]*)$/;
	$ends++ if $tail ne "" && substr($name, -length($tail)) eq $tail;
	$sep++ if $lab =~ /^\x{2026}[.:\/]/;
	END { printf "%d %d %d %d %d %d\n", $bad, $drawn, $ends, $sep, $none, $short }' >"$TMP/stats"
read -r bad cut ends sep none short <"$TMP/stats"
if [ "$bad" = 0 ]; then pass "labels/every label fits its room"; else fail "labels/fit" "$bad labels too long"; fi
if [ "$short" = 0 ] && [ "$none" -gt 0 ]; then pass "labels/a cut keeps three characters of the name or draws none ($none none)"
else fail "labels/a cut keeps three characters of the name" "$short labels keep fewer, $none none"; fi
if [ "$sep" = 0 ]; then pass "labels/no separator right after a leading ellipsis"
else fail "labels/no separator after the ellipsis" "$sep labels like '….clipTo'"; fi
if [ $((ends * 100)) -ge $((cut * 90)) ]; then pass "labels/cut labels end as their names: $ends of $cut"
else fail "labels/cut labels end as their names" "$ends of $cut"; fi

# drawn: on real Java captures, a cut label ends as some frame's name does
for spec in "yamp-main -t main art/yamp-legacy.trace" "ffx-regular art/ffx-art-regular.trace" \
	"ffx-streaming-cpu --clock cpu art/ffx-art-streaming.trace"; do
	set -- $spec
	name=$1
	shift
	(cd "$DATA" && "$AFLAME" "$@" -o "$TMP/$name.svg" 2>/dev/null)
	(cd "$DATA" && "$AFLAME" --format folded "$@" 2>/dev/null) | sed 's/ [0-9.]*$//' | tr ';' '\n' |
		sort -u >"$TMP/$name.names"
	sed -n '/<g class="lb">/,/<\/g>/s/.*<text[^>]*>\(.*\)<\/text>/\1/p' "$TMP/$name.svg" |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&amp;/\&/g' >"$TMP/$name.labels"
	read -r cut ends < <(perl -CSD -le '
		open my $n, "<:utf8", $ARGV[0]; my @names = map { chomp; $_ } <$n>;
		open my $l, "<:utf8", $ARGV[1];
		while (<$l>) { chomp; next unless /\x{2026}/; $cut++; my ($t) = /([^\x{2026}]*)$/;
			next if $t eq ""; for (@names) { if (substr($_, -length($t)) eq $t) { $ends++; last } } }
		printf "%d %d\n", $cut, $ends' "$TMP/$name.names" "$TMP/$name.labels")
	if [ "$cut" -gt 0 ] && [ $((ends * 100)) -ge $((cut * 90)) ]; then
		pass "labels/$name: $ends of $cut cut labels end as a frame's name"
	else
		fail "labels/$name" "$ends of $cut cut labels end as a frame's name"
	fi
	if grep -q '\.\.</text>' "$TMP/$name.svg"; then fail "labels/$name: no flamegraph.pl cut" "found '..'"
	else pass "labels/$name: no flamegraph.pl cut"; fi
done


# --right-cut: flamegraph.pl's labels ("abc..") in the SVG, its page and PNG
(cd "$DATA" && "$AFLAME" --right-cut -t main -o "$TMP/right.svg" art/yamp-legacy.trace 2>/dev/null)
if grep -q '\.\.</text>' "$TMP/right.svg" && ! grep -q '…' "$TMP/right.svg" && grep -q ',lr:1' "$TMP/right.svg"; then
	pass "labels/--right-cut cuts at the right with .."
else
	fail "labels/--right-cut" "no '..' label, or an ellipsis, or the page not told"
fi
