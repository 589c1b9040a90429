# atrace.sh: the atrace/systrace front end on real captures and on every
# container: the counts issue #7 promises, identical stacks whatever the
# envelope, a clear refusal for what holds no slices, valid and
# deterministic SVG, and one golden flame graph.
. tests/lib.sh
A=$DATA/atrace

# folded NAME FILE [ARGS...]: folded stacks of FILE into $TMP/NAME.folded
folded() {
	local name=$1 file=$2
	shift 2
	"$AFLAME" --format folded "$@" "$file" >"$TMP/$name.folded" 2>"$TMP/$name.err"
}

# info_has NAME FILE TEXT: --info of FILE has a line TEXT
info_has() {
	local name=$1 file=$2 text=$3
	"$AFLAME" --info "$file" >"$TMP/info" 2>&1
	if grep -qxF -- "$text" "$TMP/info"; then
		pass "atrace/$name"
	else
		fail "atrace/$name" "no line '$text' in --info: $(grep -E 'slices|warning' "$TMP/info" | head -3 | tr '\n' ' ')"
	fi
}

# ---- the figures of issue #7 ----
info_has "decompressed: 463 B, 463 E" "$A/decompressed_atrace_data.txt" "slices: 463 B, 463 E"
"$AFLAME" --info "$A/decompressed_atrace_data.txt" >"$TMP/info" 2>&1
if grep -q "no open slice" "$TMP/info"; then
	fail "atrace/decompressed: no unmatched end" "$(grep 'no open slice' "$TMP/info")"
else
	pass "atrace/decompressed: no unmatched end"
fi
info_has "android_systrace.html: 5984 B, 5982 E" "$A/android_systrace.html.gz" "slices: 5984 B, 5982 E"
info_has "android_systrace.html: 2 open at the end" "$A/android_systrace.html.gz" \
	"  2 slices still open at the end (closed at their thread's last event)"

folded decompressed "$A/decompressed_atrace_data.txt"
folded compressed "$A/compressed_atrace_data.txt"
if [ -s "$TMP/decompressed.folded" ] && cmp -s "$TMP/decompressed.folded" "$TMP/compressed.folded"; then
	pass "atrace/atrace -z output folds like its text"
else
	fail "atrace/atrace -z output folds like its text" "$(diff "$TMP/decompressed.folded" "$TMP/compressed.folded" | head -3 | tr '\n' ' ')"
fi

# ---- every container of variants.txt gives the same stacks ----
folded variants "$A/variants.txt"
for f in variants.ctrace variants-crlf.ctrace variants.txt.gz variants.json variants-trace2html.html; do
	folded "$f" "$A/$f"
	if [ -s "$TMP/variants.folded" ] && cmp -s "$TMP/variants.folded" "$TMP/$f.folded"; then
		pass "atrace/container $f"
	else
		fail "atrace/container $f" "$(head -1 "$TMP/$f.err") $(diff "$TMP/variants.folded" "$TMP/$f.folded" | head -3 | tr '\n' ' ')"
	fi
done
folded systrace "$A/variants-systrace.html"
# the PROCESS DUMP names what the text leaves unnamed; the stacks stay the same
sed -e 's/^com\.example\.app (1000)/example.app (1000)/' -e 's/Dump Thread (1006)/thread-1006 (1006)/' \
	"$TMP/systrace.folded" | sort >"$TMP/systrace.renamed"
if grep -q '^com.example.app (1000);Dump Thread (1006);dump named 500$' "$TMP/systrace.folded" &&
   sort "$TMP/variants.folded" | cmp -s - "$TMP/systrace.renamed"; then
	pass "atrace/container variants-systrace.html (names from PROCESS DUMP)"
else
	fail "atrace/container variants-systrace.html (names from PROCESS DUMP)" "$(head -3 "$TMP/systrace.folded" | tr '\n' ' ')"
fi

# ---- systrace.py HTML (Android 7-10): the viewer's JS holds the trace-data
# tag in strings; only the real blocks after it count (issue 15) ----
html() { python3 tests/tools/systrace_html.py "$@"; }
for f in variants.txt decompressed_atrace_data.txt; do
	html "$A/$f" --json >"$TMP/$f.html"
	folded "plain-$f" "$A/$f"
	folded "html-$f" "$TMP/$f.html"
	if [ -s "$TMP/plain-$f.folded" ] && cmp -s "$TMP/plain-$f.folded" "$TMP/html-$f.folded"; then
		pass "atrace/systrace.py HTML of $f folds like the text"
	else
		fail "atrace/systrace.py HTML of $f folds like the text" "$(head -1 "$TMP/html-$f.folded.err" 2>/dev/null) $(diff "$TMP/plain-$f.folded" "$TMP/html-$f.folded" | head -3 | tr '\n' ' ')"
	fi
done
sed -n '/^PROCESS DUMP/,/^  <\/script>/p' "$A/variants-systrace.html" | sed '$d' >"$TMP/dump.txt"
html "$A/variants.txt" --json --dump "$TMP/dump.txt" >"$TMP/dump.html"
folded dump "$TMP/dump.html"
check "atrace/systrace.py HTML: names from its PROCESS DUMP" cmp "$TMP/systrace.folded" "$TMP/dump.folded"
"$AFLAME" --info "$TMP/dump.html" >"$TMP/dump.info" 2>&1
check "atrace/systrace.py HTML: --info names each block" \
	grep -qx 'trace-data blocks: JSON trace events (not used), PROCESS DUMP, ftrace text' "$TMP/dump.info"
# a block that is neither ftrace nor a known dump (ps output without its
# PROCESS DUMP line) before the ftrace text: the ftrace text is read
printf 'USER PID PPID VSZ RSS WCHAN PC S NAME\nroot 1 0 1000 100 0 0 S init\n' >"$TMP/ps.txt"
html "$A/variants.txt" --dump "$TMP/ps.txt" >"$TMP/ps.html"
folded ps "$TMP/ps.html"
check "atrace/systrace.py HTML: an unknown block before the ftrace text" cmp "$TMP/plain-variants.txt.folded" "$TMP/ps.folded"
"$AFLAME" --info "$TMP/ps.html" >"$TMP/ps.info" 2>&1
check "atrace/systrace.py HTML: --info says the unknown block is not used" \
	grep -qx 'trace-data blocks: another block (not used), ftrace text' "$TMP/ps.info"
# a capture with no events: --info fails like a render does
printf '<html><script class="trace-data" type="application/text">\nnot ftrace\n</script></html>\n' >"$TMP/empty.html"
"$AFLAME" --info "$TMP/empty.html" >/dev/null 2>"$TMP/empty.err"
rc=$?
check "atrace/--info on a capture with nothing in it exits 1" test "$rc" -eq 1
check "atrace/--info says why" grep -q 'no ftrace events in 1 lines' "$TMP/empty.err"

# ---- every capture is read, or refused with a clear message ----
# expect FILE EXIT TEXT: exit status and a line of stdout/stderr containing TEXT
expect() {
	local file=$1 want=$2 text=$3
	"$AFLAME" --format folded "$A/$file" >"$TMP/out" 2>&1
	local rc=$?
	if [ "$rc" = "$want" ] && grep -qF -- "$text" "$TMP/out"; then
		pass "atrace/corpus $file"
	else
		fail "atrace/corpus $file" "exit $rc (want $want), output: $(head -2 "$TMP/out" | tr '\n' ' ')"
	fi
}
expect decompressed_atrace_data.txt 0 "Choreographer#doFrame"
expect compressed_atrace_data.txt 0 "Choreographer#doFrame"
expect android_systrace.html.gz 0 "SurfaceFlinger (236);"
expect bad_print.systrace 0 "2 lines that are not ftrace events skipped (first: line 2)"
expect atrace_data 1 "no slices to draw: 116 ftrace events"
expect atrace_data_raw 1 "no slices to draw: 116 ftrace events"
expect atrace_missing_tgids 1 "no slices to draw: 116 ftrace events"
expect android_systrace.txt 1 "no slices to draw: 91 ftrace events"
expect trivial_systrace.html 1 "no slices to draw: 4 ftrace events"
expect counter_tracks.html.gz 1 "no slices to draw: 1611 ftrace events"
expect sched_blocked_systrace.systrace 1 "no slices to draw"
expect unknown_thread_name.systrace 1 "no slices to draw"
expect cpu_frequency_limits.systrace 1 "no slices to draw"
# a Chrome trace without ftrace text: the chrome reader reads it (tests/suites/chrome.sh)
expect ../chrome/profile-chrome_systrace_perf_chrome_data 0 "rcu_idle_enter 5210"
expect zlib-bomb.ctrace 1 "(zlib bomb?)"

# ---- SVG: valid XML, byte-identical twice ----
for f in decompressed_atrace_data.txt compressed_atrace_data.txt android_systrace.html.gz variants.txt variants-systrace.html; do
	renders_valid "atrace/svg $f" "$A/$f"
done

# ---- golden flame graph of a real atrace capture ----
(cd "$DATA" && "$AFLAME" --no-js atrace/decompressed_atrace_data.txt -o "$TMP/golden.svg" 2>/dev/null)
same_file "golden/atrace-decompressed" "$TMP/golden.svg" "golden/svg/atrace-decompressed.svg"
(cd "$DATA" && "$AFLAME" --no-js -p surfaceflinger atrace/android_systrace.html.gz -o "$TMP/golden2.svg" 2>/dev/null)
same_file "golden/atrace-android-systrace-surfaceflinger" "$TMP/golden2.svg" "golden/svg/atrace-android-systrace-surfaceflinger.svg"
