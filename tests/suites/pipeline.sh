# cost: 25
# pipeline.sh: aflame-render in the pipelines flamegraph.pl runs in (issue
# 18): a collapse step's output piped in gives the same bytes as the file
# given by name; several folded files make the graph of their concatenation;
# no FILE on a terminal prints the usage. stackcollapse-perf.pl is used when
# FLAMEGRAPH_PL names flamegraph.pl in a FlameGraph checkout (not shipped).
. tests/lib.sh

# same NAME FILE1 FILE2: the two outputs are byte for byte the same
same() {
	if cmp -s "$2" "$3"; then pass "pipeline/$1"; else fail "pipeline/$1" "$(cmp "$2" "$3" 2>&1 | head -1)"; fi
}
# An SVG's default subtitle names its file, or "standard input" when piped
# (so the two differ there, in the SVG's class name too): the SVGs compared
# byte for byte are given one --subtitle, and the default is checked apart.
ST=(--subtitle "the same subtitle")
subtitle_of() { sed -n 's/.*<text class="st"[^>]*>\([^<]*\)<\/text>.*/\1/p' "$1"; }

for gz in "$DATA"/flamegraph-pl/perf-java-stacks-01.folded.gz "$DATA"/flamegraph-pl/perf-vertx-stacks-01-all.folded.gz; do
	base=$(basename "$gz" .folded.gz)
	gzip -dc "$gz" >"$TMP/$base.folded"
	"$AFLAME" "${ST[@]}" "$TMP/$base.folded" >"$TMP/by-name.svg"
	gzip -dc "$gz" | "$AFLAME" "${ST[@]}" >"$TMP/piped.svg"
	same "zcat $base | aflame-render = by name" "$TMP/by-name.svg" "$TMP/piped.svg"
	"$AFLAME" "${ST[@]}" --reverse --colors=java "$gz" -o "$TMP/gz.svg"
	gzip -dc "$gz" | "$AFLAME" "${ST[@]}" --REVERSE --Colors=java -o "$TMP/piped.svg"
	same "zcat $base | aflame-render --REVERSE = gzip by name" "$TMP/gz.svg" "$TMP/piped.svg"
done
"$AFLAME" "$TMP/$base.folded" -o "$TMP/by-name.svg"
gzip -dc "$gz" | "$AFLAME" >"$TMP/piped.svg"
same "default subtitle by name: the file and what is counted" \
	<(subtitle_of "$TMP/by-name.svg") <(echo "$base.folded · samples")
same "default subtitle piped: standard input" <(subtitle_of "$TMP/piped.svg") <(echo "standard input · samples")

# two files in one graph = their concatenation, also one of them piped
a=$TMP/perf-java-stacks-01.folded b=$TMP/perf-vertx-stacks-01-all.folded
cat "$a" "$b" >"$TMP/ab.folded"
"$AFLAME" --format frames "$TMP/ab.folded" >"$TMP/cat.txt"
"$AFLAME" --format frames "$a" "$b" >"$TMP/two.txt"
same "two FILEs = their concatenation" "$TMP/cat.txt" "$TMP/two.txt"
"$AFLAME" --format frames "$a" - <"$b" >"$TMP/two.txt"
same "FILE and - = their concatenation" "$TMP/cat.txt" "$TMP/two.txt"
"$AFLAME" --flamechart --format frames "$TMP/ab.folded" >"$TMP/cat.txt"
"$AFLAME" --flamechart --format frames "$a" "$b" >"$TMP/two.txt"
same "two FILEs --flamechart = their concatenation" "$TMP/cat.txt" "$TMP/two.txt"
if "$AFLAME" "$a" "$DATA/art/perflib-basic.trace" -o "$TMP/mixed.svg" 2>"$TMP/err" ||
   [ -e "$TMP/mixed.svg" ] || ! grep -q "perflib-basic.trace: several inputs" "$TMP/err"; then
	fail "pipeline/folded and a trace refused" "$(cat "$TMP/err")"
else
	pass "pipeline/folded and a trace refused"
fi

# files larger than the folded reader's 256 KiB window (issue 19) are read
# a window at a time by name and whole from a pipe: the same graph and the
# same messages. Lines cross window ends, stacks share prefixes across them,
# and long lines (more than half a window alone, or with the line before)
# make the reader finish through the file's mapping; CRLF, comments, blank
# and malformed lines, decimal counts and a last line without a newline.
windows_file() {   # windows_file LONG_AT: the long lines after LONG_AT lines
	awk -v long_at="$1" 'function stack(i,   s, d, k) {
		s = "main;svc" (i % 7) ";loop" int(i / 40)
		d = 3 + (i * 7) % 23
		for (k = 0; k < d; k++)
			s = s ";com.example.Frame" ((i + k * 13) % 97) ".method" (k % 5)
		return s
	}
	function long_line(n, tail,   k) {   # printed a frame at a time: a
		printf "main;long"                # string grown 9000 times costs seconds
		for (k = 0; k < n; k++)
			printf ";org.example.deep.Frame%d.call", k
		print tail
	}
	BEGIN {
		for (i = 0; i < 9000; i++) {
			if (i == long_at) {
				long_line(9000, " 7")                  # ~310 KB alone
				long_line(3000, ";x 2")                # its prefix, then one more
				long_line(2500, " 1.25")
			}
			if (i % 997 == 5) print "# a comment"
			if (i % 1231 == 9) print ""
			if (i % 1499 == 11) print "not a stack"
			printf "%s %d%s\n", stack(i), 1 + i % 50, (i % 13 == 0 ? "\r" : "")
		}
		printf "%s 3", stack(1)
	}'
}
for at in 8000 0; do
	windows_file "$at" >"$TMP/windows.folded"
	for opts in "" "--reverse" "--flamechart" "--colors=chain"; do
		name="a file of $(($(wc -c <"$TMP/windows.folded") / 1024)) KiB, long lines at $at${opts:+, $opts}"
		"$AFLAME" $opts --format folded "$TMP/windows.folded" >"$TMP/by-name.txt" 2>"$TMP/by-name.err"
		"$AFLAME" $opts --format folded <"$TMP/windows.folded" >"$TMP/piped.txt" 2>"$TMP/piped.err"
		same "$name: by name = piped" "$TMP/by-name.txt" "$TMP/piped.txt"
		sed 's/^aflame-render: [^:]*: //' "$TMP/by-name.err" >"$TMP/by-name.msg"
		sed 's/^aflame-render: [^:]*: //' "$TMP/piped.err" >"$TMP/piped.msg"
		grep -q "malformed lines skipped" "$TMP/by-name.msg" ||
			fail "pipeline/$name: malformed lines reported" "$(head -1 "$TMP/by-name.err")"
		same "$name: the same messages" "$TMP/by-name.msg" "$TMP/piped.msg"
	done
	"$AFLAME" "${ST[@]}" "$TMP/windows.folded" -o "$TMP/by-name.svg" 2>/dev/null
	"$AFLAME" "${ST[@]}" <"$TMP/windows.folded" >"$TMP/piped.svg" 2>/dev/null
	same "a file of long lines at $at: SVG by name = piped" "$TMP/by-name.svg" "$TMP/piped.svg"
	"$AFLAME" --strict "$TMP/windows.folded" -o "$TMP/strict.svg" 2>"$TMP/strict.err"
	bad=$(grep -n "^not a stack" "$TMP/windows.folded" | head -1 | cut -d: -f1)
	if grep -q "windows.folded:$bad: expected" "$TMP/strict.err" && [ ! -e "$TMP/strict.svg" ]; then
		pass "pipeline/long lines at $at: --strict names the line"
	else
		fail "pipeline/long lines at $at: --strict names the line" "$(head -1 "$TMP/strict.err")"
	fi
done

# no FILE, standard input a terminal: the usage, exit 2 (script(1) gives a tty)
if command -v script >/dev/null; then
	script -qec "$AFLAME" /dev/null </dev/null >"$TMP/tty.out" 2>&1
	rc=$?
	if [ $rc = 2 ] && grep -q "^usage: aflame-render" "$TMP/tty.out" &&
	   grep -q "standard input is a terminal" "$TMP/tty.out"; then
		pass "pipeline/no FILE on a terminal: usage"
	else
		fail "pipeline/no FILE on a terminal: usage" "exit $rc: $(head -3 "$TMP/tty.out" | tr '\r\n' '  ')"
	fi
else
	skip "pipeline/no FILE on a terminal" "script(1) not installed"
fi

# the real collapse script, when FlameGraph is at hand
collapse=${FLAMEGRAPH_PL:+$(dirname "$FLAMEGRAPH_PL")/stackcollapse-perf.pl}
if [ -n "$collapse" ] && [ -r "$collapse" ] && command -v perl >/dev/null; then
	perf=$(dirname "$FLAMEGRAPH_PL")/test/perf-vertx-stacks-01.txt
	if [ -r "$perf" ]; then
		perl "$collapse" "$perf" >"$TMP/vertx.folded" 2>/dev/null
		"$AFLAME" "${ST[@]}" "$TMP/vertx.folded" >"$TMP/by-name.svg"
		perl "$collapse" "$perf" 2>/dev/null | "$AFLAME" "${ST[@]}" >"$TMP/piped.svg"
		same "stackcollapse-perf.pl | aflame-render = by name" "$TMP/by-name.svg" "$TMP/piped.svg"
		gzip -dc "$DATA/flamegraph-pl/perf-vertx-stacks-01.folded.gz" | cmp -s - "$TMP/vertx.folded" &&
			pass "pipeline/stackcollapse-perf.pl output = the committed collapse" ||
			fail "pipeline/stackcollapse-perf.pl output = the committed collapse" "differs"
	else
		skip "pipeline/stackcollapse-perf.pl" "no test/perf-vertx-stacks-01.txt next to it"
	fi
else
	skip "pipeline/stackcollapse-perf.pl" "set FLAMEGRAPH_PL to a FlameGraph checkout's flamegraph.pl"
fi
