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

for gz in "$DATA"/flamegraph-pl/perf-java-stacks-01.folded.gz "$DATA"/flamegraph-pl/perf-vertx-stacks-01-all.folded.gz; do
	base=$(basename "$gz" .folded.gz)
	gzip -dc "$gz" >"$TMP/$base.folded"
	"$AFLAME" "$TMP/$base.folded" >"$TMP/by-name.svg"
	gzip -dc "$gz" | "$AFLAME" >"$TMP/piped.svg"
	same "zcat $base | aflame-render = by name" "$TMP/by-name.svg" "$TMP/piped.svg"
	"$AFLAME" --reverse --colors=java "$gz" -o "$TMP/gz.svg"
	gzip -dc "$gz" | "$AFLAME" --REVERSE --Colors=java -o "$TMP/piped.svg"
	same "zcat $base | aflame-render --REVERSE = gzip by name" "$TMP/gz.svg" "$TMP/piped.svg"
done

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
		"$AFLAME" "$TMP/vertx.folded" >"$TMP/by-name.svg"
		perl "$collapse" "$perf" 2>/dev/null | "$AFLAME" >"$TMP/piped.svg"
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
