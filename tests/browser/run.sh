#!/bin/bash
# tests/browser/run.sh: the interactive SVG in a real browser (headless Chromium).
#
#   tests/browser/run.sh              render test inputs with build/aflame-render
#                                     and check hover, zoom, search, URL state,
#                                     hostile names, two graphs in one page,
#                                     an icicle graph and a differential graph,
#                                     runs of sub-pixel frames merged alike
#                                     in the file and after a zoom,
#                                     the views (menu, Back, Esc, invert,
#                                     sandwich) against the CLI's results and
#                                     through their URL fragments
#   tests/browser/run.sh A.svg ...    run the generic checks on given SVGs
#   AFT_MODE=paint tests/browser/run.sh A.svg ...
#                                     time each SVG's first paint, in order,
#                                     in one browser (bench/browser.sh)
#   AFT_PERF=1 tests/browser/run.sh   also time a ~190k-frame graph against
#                                     issue 19's targets (load 0.5 s, zoom and
#                                     reset 50 ms, search 20 ms)
#
# Each check prints "PASS: name" or "FAIL: name: why" (timings as "INFO:");
# the exit status is 1 if any check failed. Without chromium it prints one
# SKIP line and exits 0. Environment: AFLAME (the binary), CHROMIUM.
#
# How: driver.js is appended to a copy of each SVG (or to an HTML page with
# graphs inlined); it dispatches DOM events, reads what the graph shows and
# writes its results into the document, which is then read back (cdp.js, or
# --dump-dom for a timed page or without node).
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${AFLAME:-$root/build/aflame-render}
chromium=${CHROMIUM:-chromium}
corpus=${AFT_CORPUS:-/work/shared/corpus}

if ! command -v "$chromium" >/dev/null 2>&1; then
	echo "SKIP: browser tests (chromium not installed)"
	exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/aflame-browser.XXXXXX")
failed=0

# With node at hand, the pages given a budget share one browser, started at
# the first (cdp.js: a browser start costs about 2 s of CPU), which waits
# for each page's driver to finish instead of running virtual time; the
# timed pages (no budget) each get a fresh browser, as a user opening the
# file would.
CDP_PID=
cdp_started=0
start_cdp() {
	cdp_started=1
	command -v node >/dev/null 2>&1 || return 0
	coproc CDP { exec node "$here/cdp.js" "$chromium" "$tmp/profile-cdp" 2>"$tmp/cdp.err"; }
}
finish() {
	if [ -n "$CDP_PID" ]; then
		eval "exec ${CDP[1]}>&-"
		wait "$CDP_PID"
	fi
	rm -rf "$tmp"
}
trap finish EXIT

# Runs before anything else in each page: records alert()/confirm() calls,
# which no frame name may ever cause.
pre='window.__aftAlerts=[];window.alert=window.confirm=function(m){window.__aftAlerts.push(String(m));};'

# browse URL [budget [WxH]]: print the DOM after load, in a window W x H
# (default 1400x1000). A budget uses virtual time or the shared browser
# (timings then mean nothing); without one, a fresh browser in real time.
browse() {
	local budget=() size=${3:-1400x1000}
	[ -n "${2:-}" ] && [ "$cdp_started" = 0 ] && start_cdp
	if [ -n "${2:-}" ] && [ -n "$CDP_PID" ] && kill -0 "$CDP_PID" 2>/dev/null; then
		rm -f "$tmp/cdp.dom"
		printf '%s @%s %s\n' "$tmp/cdp.dom" "$size" "$1" >&"${CDP[1]}" &&
			read -r -t 150 _ <&"${CDP[0]}" && cat "$tmp/cdp.dom"
		return
	fi
	if [ -z "${2:-}" ] && command -v node >/dev/null 2>&1; then
		# a fresh browser in real time, which (unlike --dump-dom, at the
		# load event) waits for the driver: it checks once the page has
		# unpacked its frames (main.js)
		rm -f "$tmp/fresh.dom"
		printf '%s @%s %s\n' "$tmp/fresh.dom" "$size" "$1" | timeout 120 node "$here/cdp.js" \
			"$chromium" "$(mktemp -d "$tmp/profile.XXXXXX")" >/dev/null 2>>"$tmp/cdp.err"
		cat "$tmp/fresh.dom" 2>/dev/null
		return
	fi
	[ -n "${2:-}" ] && budget=(--virtual-time-budget="$2")
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$(mktemp -d "$tmp/profile.XXXXXX")" \
		--window-size="${size/x/,}" "${budget[@]}" --dump-dom "$1" 2>/dev/null
}

# jsstr: stdin as a JSON string
jsstr() { node -e 'process.stdout.write(JSON.stringify(require("fs").readFileSync(0, "utf8")))'; }

# report LABEL < dumped DOM: print the driver's lines, count failures
report() {
	local label=$1 lines
	lines=$(sed -n '/id="aft-out">AFT-BEGIN$/,/^AFT-END$/p' |
		grep -E '^(PASS|FAIL|SKIP|INFO): ' |
		sed -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e "s/&#39;/'/g" -e 's/&amp;/\&/g')
	if [ -z "$lines" ]; then
		echo "FAIL: $label: the driver wrote no results (script error or page did not load)"
		failed=1
		return
	fi
	printf '%s\n' "$lines"
	if printf '%s\n' "$lines" | grep -q '^FAIL: '; then
		failed=1
	fi
}

# driver_js MODE LABEL NSCRIPTS [X]: the config (X: JSON for AFT.x) and the
# driver as one script body: driver_views.js, driver_kinds.js and
# driver_page.js inside
# driver.js's closure, before its last line
driver_js() {
	printf 'var AFT={mode:"%s",label:"%s",scripts:%s,x:%s};\n' "$1" "$2" "$3" "${4:-null}"
	sed '$d' "$here/driver.js"
	cat "$here/driver_views.js" "$here/driver_kinds.js" "$here/driver_page.js"
	tail -n 1 "$here/driver.js"
}

# instrument IN.svg OUT.svg MODE LABEL [X]: copy with the alert trap first
# and the driver last (the graph's own script has run by then)
instrument() {
	local in=$1 out=$2
	if ! sed -n 2p "$in" | grep -q '^<svg ' || [ "$(tail -n 1 "$in")" != "</svg>" ]; then
		echo "FAIL: $4: $in is not an aflame-render SVG"
		failed=1
		return 1
	fi
	{
		sed -n 1,2p "$in"
		printf '<script><![CDATA[%s]]></script>\n' "$pre"
		sed '1,2d;$d' "$in"
		printf '<script><![CDATA[\n'
		driver_js "$3" "$4" 3 "${5:-}"
		printf ']]></script>\n</svg>\n'
	} > "$out"
	if ! xmllint --noout "$out" 2>"$tmp/xmllint"; then
		echo "FAIL: $4: instrumented copy is not well-formed: $(head -n 1 "$tmp/xmllint")"
		failed=1
		return 1
	fi
}

# generic SVG LABEL [budget]
generic() {
	local copy
	copy="$tmp/$(basename "$1" .svg)-$RANDOM.svg"
	instrument "$1" "$copy" generic "$2" || return
	browse "file://$copy" "${3:-}" > "$tmp/dom"
	report "$2" < "$tmp/dom"
}

if [ $# -gt 0 ]; then
	for svg in "$@"; do
		abs="$(cd "$(dirname "$svg")" && pwd)/$(basename "$svg")"
		if [ "${AFT_MODE:-}" = paint ]; then   # one shared browser, real time
			instrument "$abs" "$tmp/paint-$RANDOM.svg" paint "$(basename "$svg")" || continue
			browse "file://$(ls -t "$tmp"/paint-*.svg | head -n 1)" 5000 > "$tmp/dom"
			report "$(basename "$svg")" < "$tmp/dom"
		else
			generic "$abs" "$(basename "$svg")"
		fi
	done
	exit $failed
fi

if [ ! -x "$bin" ]; then
	echo "FAIL: browser tests: $bin not built (run make)"
	exit 1
fi

# The known input: exact expectations in driver.js depend on these weights
# (all 9700 = main 7900 [foo 5500 (bar 3000, baz 2000), qux 2400 (Foo 1500)]
#  + other 1800 [hostile names 700, 600, 400]).
cat > "$tmp/known.folded" <<'EOF'
main;foo;bar 3000
main;foo;baz 2000
main;foo 500
main;qux;Foo 1500
main;qux 900
other;</script><script>alert(1)</script> 700
other;"onload="alert(1) 600
other;x]]>y<b>&'q' 400
other 100
EOF

render() { # OUT ARGS...: render with the real pipeline, quietly
	local out=$1
	shift
	"$bin" "$@" -o "$out" 2>"$tmp/stderr" && xmllint --noout "$out" 2>>"$tmp/stderr" &&
		script_parses "$out"
}

# script_parses SVG: with node at hand, a syntax error in the embedded script
# is reported as such rather than as every browser check failing
script_parses() {
	command -v node >/dev/null 2>&1 || return 0
	sed -n '/^<script type="text\/ecmascript"><!\[CDATA\[$/,/^\]\]><\/script>$/p' "$1" |
		sed '1d;$d' > "$tmp/script.js"
	if node --check "$tmp/script.js" 2>"$tmp/node.err"; then
		echo "PASS: $(basename "$1"): embedded script parses"
	else
		echo "FAIL: $(basename "$1"): embedded script parses: $(grep -m1 Error "$tmp/node.err")"
		failed=1
	fi
}

if render "$tmp/known.svg" --title "known" "$tmp/known.folded"; then
	if instrument "$tmp/known.svg" "$tmp/known-t.svg" known known; then
		browse "file://$tmp/known-t.svg" 5000 > "$tmp/dom"
		report known < "$tmp/dom"
	fi
	# issue 34: the decode waits for the first picture, then happens unasked
	if instrument "$tmp/known.svg" "$tmp/deferred-t.svg" deferred deferred; then
		browse "file://$tmp/deferred-t.svg" 5000 > "$tmp/dom"
		report deferred < "$tmp/dom"
	fi
	# the frames arrive asynchronously: events before are queued, in order
	if instrument "$tmp/known.svg" "$tmp/queued-t.svg" queued queued; then
		browse "file://$tmp/queued-t.svg" 5000 > "$tmp/dom"
		report queued < "$tmp/dom"
	fi
	# packed frames (D.z) cut short: refused in the page, nothing thrown
	perl -pe 's/^(zn:\d+,z:")([^"\\]*)"/$1 . substr($2, 0, int(length($2) \/ 8) * 4) . q(")/e' \
		"$tmp/known.svg" >"$tmp/cutz.svg"
	if cmp -s "$tmp/known.svg" "$tmp/cutz.svg"; then
		echo "FAIL: unpackfail: no D.z to cut in the known graph"
		failed=1
	elif instrument "$tmp/cutz.svg" "$tmp/cutz-t.svg" unpackfail unpackfail; then
		browse "file://$tmp/cutz-t.svg" 5000 > "$tmp/dom"
		report unpackfail < "$tmp/dom"
	fi
	if instrument "$tmp/known.svg" "$tmp/frag-t.svg" fragment fragment; then
		browse "file://$tmp/frag-t.svg#z=2&s=%5EBA&i=1" 5000 > "$tmp/dom"
		report fragment < "$tmp/dom"
	fi
	have_known=1
else
	echo "SKIP: known-input checks (aflame-render rejects folded input: $(head -n 1 "$tmp/stderr"))"
	have_known=0
fi

# issue 21.12: a shared URL's regex that backtracks exponentially on a name
# of this graph must not hang the tab
printf 'main;%s 10\nmain;aa 5\n' "$(printf 'a%.0s' $(seq 40))b" > "$tmp/redos.folded"
if render "$tmp/redos.svg" "$tmp/redos.folded" &&
   instrument "$tmp/redos.svg" "$tmp/redos-t.svg" redos redos; then
	browse "file://$tmp/redos-t.svg#s=(a%2B)%2B%24" 5000 > "$tmp/dom"
	report redos < "$tmp/dom"
fi
# issue 36.9: thirty optional repeats cost 2^30 tests of ONE name (40 s
# before); a bounded repeat is counted too
chain=$(printf '.%%3F%.0s' $(seq 30))
for c in "redos-optional|$chain%5Cx01|too slow on a name of 41 characters" \
	 "redos-bounded|(a%7B1%2C2%7D)%7B2%2C%7D|nested repetition"; do
	IFS='|' read -r label pat why <<<"$c"
	want="Search refused ($why): $(printf '%b' "${pat//%/\\x}")"
	x="{want:$(printf '%s' "$want" | jsstr),hash:$(printf '#s=%s' "$pat" | jsstr)}"
	instrument "$tmp/redos.svg" "$tmp/$label-t.svg" redos "$label" "$x" || continue
	browse "file://$tmp/$label-t.svg#s=$pat" 5000 > "$tmp/dom"
	report "$label" < "$tmp/dom"
done

if [ "$have_known" = 1 ] && render "$tmp/icicle.svg" --inverted "$tmp/known.folded" &&
   instrument "$tmp/icicle.svg" "$tmp/icicle-t.svg" icicle icicle; then
	browse "file://$tmp/icicle-t.svg" 5000 > "$tmp/dom"
	report icicle < "$tmp/dom"
fi
na=$root/tests/cases/nameattr-svg
if render "$tmp/na.svg" --nameattr "$na/attrs.txt" "$na/input.folded" &&
   instrument "$tmp/na.svg" "$tmp/na-t.svg" nameattr nameattr; then
	browse "file://$tmp/na-t.svg" 5000 > "$tmp/dom"
	report nameattr < "$tmp/dom"
fi
if render "$tmp/diff.svg" "$root/tests/data/folded/diff.folded" &&
   instrument "$tmp/diff.svg" "$tmp/diff-t.svg" diff diff; then
	browse "file://$tmp/diff-t.svg" 5000 > "$tmp/dom"
	report diff < "$tmp/dom"
fi

# comparisons of two runs (--diff): the table gives before, after, change
if render "$tmp/compare.svg" --diff "$root/tests/data/diff/a.folded" "$root/tests/data/diff/b.folded"; then
	generic "$tmp/compare.svg" compare 5000
fi

# issue 20: the views computed in the page (hide, include, re-root, invert,
# sandwich) give what the command line gives, and survive the URL
cat > "$tmp/views.folded" <<'EOF'
main;a;b;c 3
main;y;b;c 5
main;a;c 2
main;b;b;d 4
main;x;b;a;b 6
main;h;a 1
other;a;h;b 2
main;q;r;s;t;b 1
main;b;u;v;w;x 1
main 1
EOF
# vfold ARGS...: the command line's folded stacks, sorted
vfold() { "$bin" --format folded "$@" 2>/dev/null | LC_ALL=C sort; }
# jsarr: lines as a JSON array of strings
jsarr() { awk 'BEGIN { printf "[" } { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); printf "%s\"%s\"", (NR > 1 ? "," : ""), $0 } END { printf "]" }'; }
# each stack through b, from its outermost b back to its root
callers() { awk '{ n = split($1, f, ";"); for (i = 1; i <= n && f[i] != "b"; i++); if (i > n) next
	s = f[i]; for (j = i - 1; j >= 1; j--) s = s ";" f[j]; w[s] += $2 }
	END { for (s in w) print s, w[s] }' "$tmp/views.folded" | LC_ALL=C sort; }
awk '{ n = split($1, f, ";"); s = f[n]; for (j = n - 1; j >= 1; j--) s = s ";" f[j]; print s, $2 }' \
	"$tmp/views.folded" > "$tmp/views-rev.folded"
vx='{names:{hide:"a",include:"h",root:"b",sandwich:"b"},expect:{'
vx+="hide:$(vfold --hide '^a$' "$tmp/views.folded" | jsarr),"
vx+="include:$(vfold --include '^h$' "$tmp/views.folded" | jsarr),"
vx+="root:$(vfold --root '^b$' "$tmp/views.folded" | jsarr),"
vx+="chain:$(vfold --hide '^a$' --include '^h$' "$tmp/views.folded" | jsarr),"
vx+="invert:$(vfold "$tmp/views-rev.folded" | jsarr),"
vx+="callees:$(vfold --root '^b$' "$tmp/views.folded" | jsarr),"
vx+="callers:$(callers | jsarr)}"
if render "$tmp/views.svg" "$tmp/views.folded" &&
   instrument "$tmp/views.svg" "$tmp/views-t.svg" views views "$vx}"; then
	browse "file://$tmp/views-t.svg" 5000 > "$tmp/dom"
	report views < "$tmp/dom" > "$tmp/views.out"
	cat "$tmp/views.out"
	# the URL round trip: each fragment the views printed, loaded afresh
	sed -n 's/^INFO: views: hash \([a-z]*\) \(#.*\)$/\1 \2/p' "$tmp/views.out" > "$tmp/hashes"
	if [ "$(wc -l < "$tmp/hashes")" != 7 ]; then
		echo "FAIL: views: $(wc -l < "$tmp/hashes") fragments printed, want 7"
		failed=1
	fi
	# issue 36.10: 10,000 hide steps (10^7 node visits) are refused at once
	if instrument "$tmp/views.svg" "$tmp/viewlong-t.svg" refusedview refusedview; then
		browse "file://$tmp/viewlong-t.svg#t=$(yes h2 | head -n 10000 | paste -sd.)" 5000 > "$tmp/dom"
		report refusedview < "$tmp/dom"
	fi
	# the same link with a search, which must not hide why the view was
	# refused; and with a refused pattern too (issue 34, item 2)
	for c in "plain|p=b" "refused|s=(b%2B)%2B%24"; do
		IFS='|' read -r how q <<<"$c"
		instrument "$tmp/views.svg" "$tmp/viewlong-$how-t.svg" refusedview "refusedview-$how" "{search:\"$how\"}" ||
			continue
		browse "file://$tmp/viewlong-$how-t.svg#t=$(yes h2 | head -n 10000 | paste -sd.)&$q" 5000 > "$tmp/dom"
		report "refusedview-$how" < "$tmp/dom"
	done
	while read -r want hash; do
		instrument "$tmp/views.svg" "$tmp/viewurl-t.svg" viewurl "url-$want" \
			"$vx,want:\"$want\",hash:\"$hash\"}" || continue
		browse "file://$tmp/viewurl-t.svg$hash" 5000 > "$tmp/dom"
		report "url-$want" < "$tmp/dom"
	done < "$tmp/hashes"
fi

# Frames narrower than a pixel (issue 19). narrow STACKS LABEL [X]: STACKS
# stacks of a 3-level prefix and a 12-frame tail, in the mode `merged`: the
# file draws runs of sub-pixel frames as blended boxes, and the page must
# draw the same boxes after a zoom at the same scale (its merge() against
# render_svg.c's boxes()); X adds to the driver's config
narrow() {
	local n=$1 label=$2 nframes
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) { s = "all_threads"; v = i
		for (d = 0; d < 3; d++) { s = s ";p" d ".C" (v % 4); v = int(v / 4) }
		for (d = 0; d < 12; d++) s = s ";tail.K" ((i * 7 + d * 13) % 97) ".m" d
		print s, 1000 } }' > "$tmp/$label.folded"
	if ! render "$tmp/$label.svg" "$tmp/$label.folded"; then
		echo "FAIL: $label: render failed: $(head -n 1 "$tmp/stderr")"
		failed=1
		return 1
	fi
	nframes=$("$bin" --format frames "$tmp/$label.folded" | grep -vc '^#')
	instrument "$tmp/$label.svg" "$tmp/$label-t.svg" merged "$label" "{frames:$nframes${3:-}}" &&
		browse "file://$tmp/$label-t.svg" 5000 > "$tmp/dom" && report "$label" < "$tmp/dom"
	return 0
}
# 2,400 stacks: each tail frame half a pixel wide; the generic checks too
narrow 2400 merged && generic "$tmp/merged.svg" narrow 5000
# 1,700 stacks: tail frames 0.69 px wide, no two of them fit in a pixel, so
# each is a run of its own and must still be a blend (a path per name would
# be back, thousands of them after a zoom)
narrow 1700 lone ",lone:1"

art=""
if [ -f "$corpus/art/perflib-exception.trace" ] &&
   render "$tmp/art.svg" "$corpus/art/perflib-exception.trace"; then
	art=$tmp/art.svg
	generic "$art" art-exception 5000
else
	echo "SKIP: ART graph checks (no corpus or render failed)"
fi
if [ -f "$corpus/art/yamp-legacy.trace" ] &&
   render "$tmp/yamp.svg" -t main "$corpus/art/yamp-legacy.trace"; then
	generic "$tmp/yamp.svg" art-yamp 5000
fi
# a flame chart: moving in time (issue 34, item 5)
if [ -f "$corpus/art/yamp-legacy.trace" ] &&
   render "$tmp/chart.svg" --flamechart -t main "$corpus/art/yamp-legacy.trace" &&
   instrument "$tmp/chart.svg" "$tmp/chart-t.svg" chart chart; then
	browse "file://$tmp/chart-t.svg" 5000 > "$tmp/dom"
	report chart < "$tmp/dom" > "$tmp/chart.out"
	cat "$tmp/chart.out"
	# the link it printed (a window and a search), opened in a fresh page:
	# the same axis, frames, labels and match line (issue 34, item 5)
	shared=$(sed -n 's/^INFO: chart: shared \(#[^ ]*\) \(.*\)$/{hash:"\1",want:\2}/p' "$tmp/chart.out")
	if [ -z "$shared" ]; then
		echo "FAIL: chart: no shared link printed"
		failed=1
	elif instrument "$tmp/chart.svg" "$tmp/chartlink-t.svg" chartlink chartlink "$shared"; then
		browse "file://$tmp/chartlink-t.svg$(sed -n 's/^INFO: chart: shared \(#[^ ]*\) .*$/\1/p' "$tmp/chart.out")" 5000 > "$tmp/dom"
		report chartlink < "$tmp/dom"
	fi
fi

# The function table lists every function (issue 34, item 3): 3,031 of
# them (f0000..f2999 under m00..m29 under main), all in the file
# (--minwidth 0); and a comparison of two such runs (every function of
# either, the band of work only in the first too): names from --format frames
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "main;m%02d;f%04d %d\n", i % 30, i, 1 + (i * 7919) % 5003 }' \
	> "$tmp/many.folded"
awk '{ $2 = $2 + ($1 ~ /f1/ ? 300 : -200); if ($2 > 0 && $1 !~ /f2[5-9]/) print }' "$tmp/many.folded" > "$tmp/many-b.folded"
for c in "many|--minwidth 0 $tmp/many.folded" "many-diff|--minwidth 0 --diff $tmp/many.folded $tmp/many-b.folded"; do
	IFS='|' read -r what args <<<"$c"
	# shellcheck disable=SC2086
	render "$tmp/$what.svg" $args || { echo "FAIL: $what: render failed: $(head -n 1 "$tmp/stderr")"; failed=1; continue; }
	# shellcheck disable=SC2086
	names=$("$bin" --format frames $args 2>/dev/null | awk '/^#/ { k = NF - 1; next }
		$1 > 0 { s = $k; for (i = k + 1; i <= NF; i++) s = s " " $i; print s }' | sort -u)
	x="{n:$(echo "$names" | wc -l),m:$(echo "$names" | grep -c f12),names:$(echo "$names" | jsarr)}"
	instrument "$tmp/$what.svg" "$tmp/$what-t.svg" bigtable "$what" "$x" || continue
	browse "file://$tmp/$what-t.svg" 5000 > "$tmp/dom"
	report "$what" < "$tmp/dom"
done

# Nothing cut at the window's edges (issue 34): a flame graph with views,
# a flame chart and a comparison, in windows as wide as the image and
# narrower
# and a title too long for the field beside it
if [ "$have_known" = 1 ]; then
	render "$tmp/longtitle.svg" --title "com.example.verylongpackagename.feature.subfeature.SomeActivity main thread" \
		"$tmp/known.folded" || echo "FAIL: longtitle: render failed: $(head -n 1 "$tmp/stderr")"
fi
for c in "art-yamp|$tmp/yamp.svg" "chart|$tmp/chart.svg" "compare|$tmp/compare.svg" "longtitle|$tmp/longtitle.svg"; do
	IFS='|' read -r what svg <<<"$c"
	[ -f "$svg" ] || continue
	for size in 1200x900 800x600; do
		instrument "$svg" "$tmp/fit-t.svg" fit "fit-$what-$size" "{size:\"$size\"}" || continue
		browse "file://$tmp/fit-t.svg" 5000 "$size" > "$tmp/dom"
		report "fit-$what-$size" < "$tmp/dom"
	done
done

# More hostile names (issue #9): control characters, a right-to-left
# override, invalid UTF-8, a NUL byte, comment and CDATA markers, entities
# that would decode to markup, JavaScript line separators and escapes. The
# SVG must be valid XML (render runs xmllint), its script must parse, and in
# the browser nothing of these may run or become an element.
printf '%s\n' \
	'main;ctl\x01\x1b[31m\x7fend 300' \
	'main;rtl \xe2\x80\xaecod.exe 250' \
	'main;bad \xff\xfe utf8 \xc3 200' \
	'main;nul\x00byte 150' \
	'main;<!-- c --><![CDATA[ x ]]> 120' \
	'main;&lt;script&gt;alert(1)&lt;/script&gt;&#x3C;img src=x onerror=alert(2)&#x3E; 110' \
	'main;sep\xe2\x80\xa8line\xe2\x80\xa9para\\u0022\\x3c\\ 100' \
	'main;javascript:alert(3) 90' | while IFS= read -r line; do printf "$line\n"; done >"$tmp/hostile.folded"
if render "$tmp/hostile.svg" "$tmp/hostile.folded"; then
	echo "PASS: hostile names (control, RTL, invalid UTF-8, NUL, markup) give valid XML and a parsing script"
	generic "$tmp/hostile.svg" hostile 5000
else
	echo "FAIL: hostile names (control, RTL, invalid UTF-8, NUL, markup) give valid XML and a parsing script: $(head -3 "$tmp/stderr" | tr '\n' ' ')"
	failed=1
fi

if [ "$have_known" = 1 ] && [ -n "$art" ]; then
	{
		printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>two graphs</title>\n'
		printf '<script>%s</script></head><body>\n' "$pre"
		sed 1d "$tmp/known.svg"
		sed 1d "$tmp/known.svg"
		sed 1d "$art"
		printf '<script>\n'
		driver_js html html 5
		printf '</script>\n</body></html>\n'
	} > "$tmp/page.html"
	browse "file://$tmp/page.html" 5000 > "$tmp/dom"
	report html < "$tmp/dom"
fi

if [ -n "${AFT_PERF:-}" ]; then
	# 4600 stacks, a 4-ary tree 7 levels deep then a 40-frame tail each
	awk 'BEGIN {
		for (i = 0; i < 4600; i++) {
			s = "all_threads"; v = i
			for (d = 0; d < 7; d++) { s = s ";com.example.p" d ".C" (v % 4) ".run"; v = int(v / 4) }
			for (d = 0; d < 40; d++) s = s ";com.example.tail.K" ((i * 7 + d * 13) % 97) ".m" d
			print s, 1000
		}
	}' > "$tmp/big.folded"
	if render "$tmp/big.svg" "$tmp/big.folded"; then
		echo "INFO: perf: $(wc -c < "$tmp/big.svg") bytes"
		copy=$tmp/big-t.svg
		if instrument "$tmp/big.svg" "$copy" generic perf; then
			browse "file://$copy" > "$tmp/perf.dom"
			report perf < "$tmp/perf.dom"
		fi
		awk -v target_load=500 -v target_op=50 -v target_search=20 '
			/^INFO: perf: .* ms from navigation/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "ms") { t = $i; break }
				print (t <= target_load ? "PASS" : "FAIL") ": perf: load " t " ms (target " target_load ")" }
			/^INFO: perf: (zoom|reset|search)/ { t = $(NF - 1); what = $3
				target = what == "search" ? target_search : target_op
				print (t <= target ? "PASS" : "FAIL") ": perf: " what " " t " ms (target " target ")" }
		' < <(report perf < "$tmp/perf.dom") > "$tmp/perf.txt"
		cat "$tmp/perf.txt"
		if grep -q '^FAIL' "$tmp/perf.txt"; then
			failed=1
		fi
	else
		echo "FAIL: perf: render failed: $(head -n 1 "$tmp/stderr")"
		failed=1
	fi
fi

exit $failed
