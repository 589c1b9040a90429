# cost: 30
# png.sh: pictures through cairo (issue #5): golden PNGs compared by pixel
# difference, determinism, metadata, PDF by rasterising, static SVG, size
# limits, the pinned font, and --per-thread batches with index.html.
# Re-bless the goldens with `make bless`.
. tests/lib.sh
PNGDIFF=${PNGDIFF:-${O:-build}/pngdiff}
PNGDIFF=$(realpath "$PNGDIFF" 2>/dev/null || echo "$PNGDIFF")
GOLD=$PWD/golden/png
UNI=$PWD/tests/cases/png-unicode-folded/stacks.folded
export SOURCE_DATE_EPOCH=0   # PDF creation date

# the font the goldens were drawn with
want_sha=$(sed -n 's/^ *sha256 *//p' fonts/README)
got_sha=$(sha256sum fonts/DejaVuSans.ttf | cut -d' ' -f1)
if [ "$want_sha" = "$got_sha" ]; then pass "png/font sha256 matches fonts/README"
else fail "png/font sha256 matches fonts/README" "fonts/DejaVuSans.ttf is $got_sha"; fi

if [ ! -x "$PNGDIFF" ]; then
	fail "png/pngdiff" "no $PNGDIFF (make check builds it)"
	exit 0
fi

# png_same NAME GOT EXPECTED [pngdiff options]: pixel comparison (or bless)
png_same() {
	local name=$1 got=$2 want=$3
	shift 3
	if [ "${AFLAME_BLESS:-}" = 1 ]; then
		mkdir -p "$(dirname "$want")"
		cp "$got" "$want"
		pass "$name (blessed)"
	elif [ ! -f "$want" ]; then
		fail "$name" "no expected file $want (run make bless)"
	else
		local why
		if why=$("$PNGDIFF" "$@" "$want" "$got" "${want%.png}.diff.png" 2>&1); then
			pass "$name"
			rm -f "${want%.png}.actual.png" "${want%.png}.diff.png"
		else
			cp "$got" "${want%.png}.actual.png"
			fail "$name" "$why (actual ${want%.png}.actual.png, diff ${want%.png}.diff.png)"
		fi
	fi
}

# golden NAME ARGS...: render a PNG with ARGS (from tests/data) and compare
# with a little tolerance for other cairo/pixman/freetype builds
golden() {
	local name=$1
	shift
	if (cd "$DATA" && "$AFLAME" "$@" -o "$TMP/$name.png" 2>/dev/null); then
		png_same "png/golden $name" "$TMP/$name.png" "$GOLD/$name.png" -t 16 -n 200
	else
		fail "png/golden $name" "render failed: $*"
	fi
}
golden yamp-main -t main art/yamp-legacy.trace
golden perflib-basic-all-threads art/perflib-basic.trace
golden perflib-exception -t "AsyncTask #1" --colors java art/perflib-exception.trace
golden ffx-regular-cpu-main --clock cpu -t main --minwidth 1 art/ffx-art-regular.trace
# a real capture of each input kind (issue 33: looked at before blessing)
golden kind-perflib --flamechart art/perflib-basic.trace
golden kind-atrace-html -t surfaceflinger atrace/android_systrace.html.gz
golden kind-perfetto-system --flamechart perfetto/nowinandroid-system.pftrace
golden kind-simpleperf simpleperf/corners.trace
golden kind-perfdata-jit perfdata/perf_with_jit_symbol.data
golden kind-perfdata-linux perfdata/perf_with_symbols.data
golden kind-folded folded/java.folded
golden unicode-folded --title 'Unicode & <escapes>' "$UNI"
# --bgcolors reaches PNG/PDF too (the cairo back end drew the default always)
golden java-bgcolors-blue --bgcolors blue folded/java.folded
golden unicode-folded-scale2 --scale 2 --width 700 "$UNI"
# legends (issue 20): the android palette's kinds with the app's package
# (diff.sh has the diff scale's golden)
golden yamp-main-android -t main --colors android art/yamp-legacy.trace

# the legend's row is two font sizes of the header, the same bytes twice;
# --no-legend gives the picture without it
(cd "$DATA" && "$AFLAME" -t main --colors android art/yamp-legacy.trace -o "$TMP/la.png" 2>/dev/null &&
	"$AFLAME" -t main --colors android art/yamp-legacy.trace -o "$TMP/lb.png" 2>/dev/null &&
	"$AFLAME" -t main --colors android --no-legend art/yamp-legacy.trace -o "$TMP/ln.png" 2>/dev/null)
check "png/legend: deterministic bytes" cmp "$TMP/la.png" "$TMP/lb.png"
png_height() { file "$1" | sed -n 's/.* x \([0-9]*\),.*/\1/p'; }
if [ "$(png_height "$TMP/la.png")" = "$(( $(png_height "$TMP/ln.png") + 24 ))" ]; then
	pass "png/legend: a 24 px row, none with --no-legend"
else
	fail "png/legend: a 24 px row, none with --no-legend" "$(png_height "$TMP/la.png") vs $(png_height "$TMP/ln.png")"
fi
if command -v pdftotext >/dev/null; then
	(cd "$DATA" && "$AFLAME" -t main --colors android art/yamp-legacy.trace -o "$TMP/la.pdf" 2>/dev/null)
	check "pdf/legend: the kinds and the app's package" bash -c \
		"pdftotext -layout '$TMP/la.pdf' - | tr -s ' \n' ' ' | grep -q 'platform app (com.github.grishberg) third party'"
else
	skip "pdf/legend" "pdftotext not installed (poppler-utils)"
fi

# the same input gives the same bytes
(cd "$DATA" && "$AFLAME" -t main art/yamp-legacy.trace -o "$TMP/a.png" 2>/dev/null &&
	"$AFLAME" -t main art/yamp-legacy.trace -o "$TMP/b.png" 2>/dev/null)
check "png/deterministic bytes" cmp "$TMP/a.png" "$TMP/b.png"
check "png/title in a tEXt chunk" grep -aq 'tEXtTitle.main' "$TMP/a.png"
"$AFLAME" --title 'Ωmega' -o "$TMP/omega.png" "$UNI"
check "png/non-Latin-1 title in an iTXt chunk" grep -aq 'iTXtTitle' "$TMP/omega.png"
check "png/valid PNG with text chunks" "$PNGDIFF" "$TMP/a.png" "$TMP/b.png"
check "png/--scale 2 doubles the size" bash -c "file '$GOLD/unicode-folded-scale2.png' | grep -q '1400 x'"

# PDF: document title, same bytes twice, and the same picture as the PNG
# once rasterised at 96 dpi (1 px = 0.75 pt)
(cd "$DATA" && "$AFLAME" -t main art/yamp-legacy.trace -o "$TMP/a.pdf" 2>/dev/null &&
	"$AFLAME" -t main art/yamp-legacy.trace -o "$TMP/b.pdf" 2>/dev/null)
check "pdf/deterministic bytes (SOURCE_DATE_EPOCH)" cmp "$TMP/a.pdf" "$TMP/b.pdf"
check "pdf/document title" grep -aq '/Title (main)' "$TMP/a.pdf"
if command -v pdftoppm >/dev/null; then
	pdftoppm -r 96 -png -singlefile "$TMP/a.pdf" "$TMP/pdf"
	# poppler antialiases glyphs its own way: compare the picture, loosely
	if why=$("$PNGDIFF" -t 128 -n 20000 "$GOLD/yamp-main.png" "$TMP/pdf.png" 2>&1); then
		pass "pdf/rasterised matches the PNG golden"
	else
		fail "pdf/rasterised matches the PNG golden" "$why"
	fi
else
	skip "pdf/rasterised matches the PNG" "pdftoppm not installed (poppler-utils)"
fi

# static SVG: valid XML, a title, no script, deterministic
(cd "$DATA" && "$AFLAME" --static -t main art/yamp-legacy.trace -o "$TMP/a.svg" 2>/dev/null &&
	"$AFLAME" --format svg-static -t main art/yamp-legacy.trace -o "$TMP/b.svg" 2>/dev/null)
check "svg-static/deterministic bytes" cmp "$TMP/a.svg" "$TMP/b.svg"
check "svg-static/has a title" grep -q '<title>main</title>' "$TMP/a.svg"
check "svg-static/has no script" bash -c "! grep -q '<script' '$TMP/a.svg'"
"$AFLAME" --per-thread "$TMP/ss" --format svg-static -j 2 "$DATA/art/perflib-basic.trace" "$DATA/art/yamp-legacy.trace" 2>/dev/null
check "svg-static/a batch file is the single render's bytes" cmp "$TMP/a.svg" "$TMP/ss/yamp-legacy/3142-main.svg"
if command -v xmllint >/dev/null; then
	"$AFLAME" --static --title 'a & <b>' -o "$TMP/esc.svg" "$UNI"
	check "svg-static/escaped title is valid XML" xmllint --noout "$TMP/esc.svg"
fi

# too tall for an image surface: a clear error and no file
awk 'BEGIN { s = "f0"; for (i = 1; i < 2100; i++) s = s ";f" i; print s " 1" }' >"$TMP/deep.folded"
"$AFLAME" "$TMP/deep.folded" -o "$TMP/deep.png" 2>"$TMP/deep.err"
rc=$?
if [ "$rc" = 1 ] && grep -q 'too large' "$TMP/deep.err" && [ ! -e "$TMP/deep.png" ] &&
	[ -z "$(ls -A "$TMP" | grep '^\.deep')" ]; then
	pass "png/too tall: error, no output"
else
	fail "png/too tall: error, no output" "exit $rc: $(cat "$TMP/deep.err")"
fi
check "pdf/too tall for PNG is fine as PDF" "$AFLAME" "$TMP/deep.folded" -o "$TMP/deep.pdf"

# the font is found through AFLAME_FONT_DIR, and its absence is an error
mkdir -p "$TMP/fontdir"
cp fonts/DejaVuSans.ttf "$TMP/fontdir/"
AFLAME_FONT_DIR=$TMP/fontdir "$AFLAME" -o "$TMP/f.png" "$UNI"
(cd / && "$AFLAME" -o "$TMP/g.png" "$UNI")
check "font/AFLAME_FONT_DIR is used, same picture" cmp "$TMP/f.png" "$TMP/g.png"
AFLAME_FONT_DIR=$TMP/nofonts "$AFLAME" -o "$TMP/nf.png" "$UNI" 2>"$TMP/nf.err"
rc=$?
if [ "$rc" = 1 ] && grep -q "AFLAME_FONT_DIR .* has no readable DejaVuSans.ttf" "$TMP/nf.err" && [ ! -e "$TMP/nf.png" ]; then
	pass "font/missing font: error, no output"
else
	fail "font/missing font: error, no output" "exit $rc: $(cat "$TMP/nf.err")"
fi

# --per-thread: one file per thread, index.html, same files with -j 1, -j 2
# and the default
mkdir -p "$TMP/in/x" "$TMP/in/y"
cp "$DATA/art/perflib-basic.trace" "$TMP/in/x/app.trace"
cp "$DATA/art/perflib-exception.trace" "$TMP/in/y/app.trace"
cp "$UNI" "$TMP/in/a&b<c>.folded"
set -- "$TMP/in/x/app.trace" "$TMP/in/y/app.trace" "$TMP/in/a&b<c>.folded"
"$AFLAME" --per-thread "$TMP/j1" --format png -j 1 "$@" 2>/dev/null
rc1=$?
"$AFLAME" --per-thread "$TMP/j2" --format png -j 2 "$@" 2>/dev/null
rc2=$?
check "batch/exit 0" test "$rc1$rc2" = 00
check "batch/same-named inputs get their own directories" test -d "$TMP/j1/app" -a -d "$TMP/j1/app-2" -a -f "$TMP/j1/a_b_c/all.png"
check "batch/index.html escapes names" grep -q '<h2>.*/in/a&amp;b&lt;c&gt;.folded</h2>' "$TMP/j1/index.html"
check "batch/-j 2 writes what -j 1 writes" diff -r "$TMP/j1" "$TMP/j2"
# no -j: a worker per processor (at most 8), the same files again
"$AFLAME" --per-thread "$TMP/jd" --format png "$@" 2>/dev/null
check "batch/the default -j writes what -j 1 writes" diff -r "$TMP/j1" "$TMP/jd"
n_png=$(find "$TMP/j1" -name '*.png' | wc -l)
n_fig=$(grep -c '<figure' "$TMP/j1/index.html")
check "batch/index.html shows every file ($n_png)" test "$n_png" -gt 2 -a "$n_png" = "$n_fig"
check "batch/no temporary files left" test -z "$(find "$TMP/j1" -name '.*')"
check "batch/file names are <tid>-<name>, made safe" test -f "$TMP/j1/app/11-AsyncTask_1.png"
"$AFLAME" --per-thread "$TMP/one" --format folded -t main -t 3168 "$DATA/art/yamp-legacy.trace" 2>/dev/null
check "batch/one input writes into DIR, -t selects" \
	bash -c "ls '$TMP/one' | tr '\n' ' ' | grep -qx '3142-main.folded 3168-GLThread_161.folded index.html '"
(cd "$DATA" && "$AFLAME" --format folded -t main art/yamp-legacy.trace) >"$TMP/main.folded" 2>/dev/null
check "batch/a thread's file is what -t gives" cmp "$TMP/main.folded" "$TMP/one/3142-main.folded"
"$AFLAME" --per-thread "$TMP/bad" --format png "$DATA/art/perflib-header.trace" "$UNI" 2>"$TMP/bad.err"
rc=$?
check "batch/a bad input fails the run but not the others" test "$rc" = 1 -a -f "$TMP/bad/stacks/all.png"
check "batch/the bad input is in index.html" grep -q 'class="err">not read: ' "$TMP/bad/index.html"
# an output that cannot be written (a directory in its place): the rest are
# written, index.html says which failed and why, the run fails saying so
mkdir -p "$TMP/blocked/3142-main.folded"
"$AFLAME" --per-thread "$TMP/blocked" --format folded "$DATA/art/yamp-legacy.trace" 2>"$TMP/blocked.err"
rc=$?
check "batch/an unwritable output fails the run" test "$rc" = 1 -a -f "$TMP/blocked/3168-GLThread_161.folded"
check "batch/the unwritable output is named once" grep -qx "aflame-render: $TMP/blocked/3142-main.folded: cannot write output: is a directory" "$TMP/blocked.err"
check "batch/the run says what was written" grep -qx "aflame-render: 5 of 6 graphs written in $TMP/blocked; index.html lists what failed and why" "$TMP/blocked.err"
check "batch/index.html says why" grep -q 'class="err">not written: .*3142-main.folded: cannot write output: is a directory' "$TMP/blocked/index.html"
# issue 34 item 6: the index opens each interactive SVG live (an <object>)
# and links it; a thread with nothing to draw (0 µs) is listed, not drawn
"$AFLAME" --per-thread "$TMP/svgidx" --format svg "$DATA/art/yamp-legacy.trace" 2>/dev/null
idx=$TMP/svgidx/index.html
n_svg=$(find "$TMP/svgidx" -name '*.svg' | wc -l)
n_obj=$(grep -c '<object type="image/svg+xml" data="[^"]*\.svg"' "$idx")
n_empty=$(grep -c '(nothing to draw)' "$idx")
check "batch/index.html embeds each SVG with weight live ($n_obj + $n_empty listed only = $n_svg)" \
	test "$n_obj" = 3 -a "$n_empty" = 3 -a "$((n_obj + n_empty))" = "$n_svg"
linked=0
for f in "$TMP"/svgidx/*.svg; do
	grep -qF "<a href=\"${f##*/}\">" "$idx" && linked=$((linked + 1))
done
check "batch/index.html links each SVG ($linked of $n_svg)" test "$linked" = "$n_svg"
check "batch/index.html: no <img> for an interactive SVG" test "$(grep -c '<img' "$idx")" = 0
check "batch/index.html: a thread of 0 µs has no figure" \
	sh -c "! grep -q '<figcaption>ReferenceQueueDaemon' '$idx' && grep -q '<td>ReferenceQueueDaemon</td>' '$idx'"

# flame charts: a time axis in every picture, round ticks, none clipped
if command -v pdftotext >/dev/null; then
	(cd "$DATA" && "$AFLAME" --flamechart -t main art/yamp-legacy.trace -o "$TMP/chart.pdf" 2>/dev/null)
	n=$(pdftotext "$TMP/chart.pdf" - | grep -cE '^[0-9]+(\.[0-9]+)? (s|ms|µs|ns)$')
	if [ "$n" -ge 4 ]; then pass "pdf/flame chart: $n time-axis labels"
	else fail "pdf/flame chart: time-axis labels" "$n found"; fi
fi
(cd "$DATA" && "$AFLAME" --flamechart -t main art/yamp-legacy.trace -o "$TMP/chart.svg" 2>/dev/null)
(cd "$DATA" && "$AFLAME" --static --flamechart -t main art/yamp-legacy.trace -o "$TMP/chart-static.svg" 2>/dev/null)
check "svg/flame chart: the first tick's label starts at its tick, not clipped" \
	grep -q '<text text-anchor="start" fill="#505050" x="10" y="[0-9.]*">0.0 s</text>' "$TMP/chart.svg"
check "svg-static/flame chart: an axis line and ticks" \
	test "$(grep -c 'stroke:rgb(50.196078%,50.196078%,50.196078%)' "$TMP/chart-static.svg")" -ge 1
