# cost: 10
# split.sh: a large folded input is folded as two halves at once, the
# second into a tree of its own that is then merged (read_folded.c, issue
# 19). Every output must be the one a single pass gives, whatever the
# halves hold. AFLAME_SPLIT_BYTES=0 splits any input with a line past its
# middle, a huge value none: every folded file under tests/ and the corners
# made here are read both ways, and the fuzz corpus goes through the split
# in the replay program (its sanitizers and leak check included).
. tests/lib.sh

NEVER=18446744073709551615

# both NAME ARGS...: the same stdout, stderr and exit status split and not
# (standard input from $IN, empty by default)
both() {
	local name=$1 a b
	shift
	AFLAME_SPLIT_BYTES=0 "$AFLAME" "$@" <"${IN:-/dev/null}" >"$TMP/split.out" 2>"$TMP/split.err"
	a=$?
	AFLAME_SPLIT_BYTES=$NEVER "$AFLAME" "$@" <"${IN:-/dev/null}" >"$TMP/one.out" 2>"$TMP/one.err"
	b=$?
	if [ "$a" != "$b" ]; then
		fail "split/$name" "exit status $a split, $b in one pass"
	elif ! cmp -s "$TMP/split.out" "$TMP/one.out"; then
		fail "split/$name" "output: $(cmp "$TMP/split.out" "$TMP/one.out" 2>&1 | head -1)"
	elif ! cmp -s "$TMP/split.err" "$TMP/one.err"; then
		fail "split/$name" "messages: $(head -c 200 "$TMP/split.err") / $(head -c 200 "$TMP/one.err")"
	else
		pass "split/$name"
	fi
}

# lines N TEXT: TEXT on N lines, with $i for the line's number
lines() {
	awk -v n="$1" -v t="$2" 'BEGIN { for (i = 0; i < n; i++) { s = t; gsub(/\$i/, i, s); print s } }'
}

c=$TMP/corner
mkdir -p "$c"
# what each half alone cannot know: the scale, a second count, totals
{ lines 300 'a;b$i 1'; lines 300 'a;c$i 0.25'; } >"$c/decimals-late.folded"
{ lines 300 'a;c$i 0.125'; lines 300 'a;b$i 2'; } >"$c/decimals-early.folded"
{ lines 300 'a;b;x$i 3'; lines 300 'a;b;x$i 2 5'; } >"$c/diff-late.folded"
{ lines 300 'a;b;x$i 2 5'; lines 300 'a;b;x$i 3'; } >"$c/diff-early.folded"
{ lines 600 'a;b;x$i 3'; lines 40 'a;b;x$i 2 5'; } >"$c/diff-only-late.folded"
{ echo 'a;b 18446744073709551615'; lines 600 'a;b 1'; } >"$c/overflow-late.folded"
{ lines 600 'a;b 1'; echo 'a;b 18446744073709551615'; } >"$c/overflow-last.folded"
{ lines 300 'q;r$i 1'; echo 'a;b 18446744073709551615'; lines 300 'a;b;c 1'; } >"$c/overflow-deeper.folded"
{ echo 'a 18446744073709552'; lines 300 'a;b 1'; lines 300 'b;c$i 0.001'; } >"$c/rescale-overflow.folded"
{ lines 300 'a;b$i 1'; lines 300 'a;c$i 1.5 2.25'; echo 'x 18446744073709551615 1'; } >"$c/diff-overflow.folded"
# malformed lines, comments, blanks, CRLF, empty stacks and frames
{ lines 200 'a;b$i 1'; echo 'bad one'; lines 200 '# comment $i'; echo; echo 'bad two';
  lines 200 ' 3'; lines 200 'a;;b$i 2'; } >"$c/skipped.folded"
lines 500 'main;f$i;g 7' | sed 's/$/\r/' >"$c/crlf.folded"
{ lines 400 'a;b$i 1'; printf 'a;b;c 9'; } >"$c/no-newline.folded"
# a line longer than the rest put together across the middle
{ lines 50 'a;b$i 1'; awk 'BEGIN { s = "main"; for (i = 0; i < 20000; i++) s = s ";deep" i; print s, 5 }';
  lines 50 'a;c$i 1'; } >"$c/long-middle.folded"
# names longer than the longest kept: cut the same way in both halves
awk 'BEGIN { for (i = 0; i < 9000; i++) x = x "n"; for (i = 0; i < 400; i++) print "a;" x (i % 3) ";b " i + 1 }' \
	>"$c/long-names.folded"
# the same stacks in random order, as the bench's large inputs
awk 'BEGIN { srand(7); for (i = 0; i < 3000; i++) { s = "root"; d = 2 + int(rand() * 12)
	for (j = 0; j < d; j++) s = s ";f" int(rand() * 9); print s, 1 + int(rand() * 50) } }' >"$c/random.folded"

for f in "$c"/*.folded; do
	n=$(basename "$f" .folded)
	both "$n" "$f"
	both "$n --format folded" --format folded "$f"
	both "$n --info" --info "$f"
done
both "decimals-late --report" --report "$c/decimals-late.folded"
both "diff-late --format frames" --format frames "$c/diff-late.folded"
both "skipped --strict" --strict "$c/skipped.folded"
{ lines 400 'a;b$i 1'; echo 'bad'; lines 100 'a;c$i 1'; } >"$c/late-error.folded"
both "late-error --strict" --strict "$c/late-error.folded"
both "random --reverse --format folded" --reverse --format folded "$c/random.folded"
both "random --colors chain" --colors chain --format frames "$c/random.folded"
both "random --flamechart" --flamechart --format frames "$c/random.folded"
both "random --minwidth 0 --format frames" --minwidth 0 --format frames "$c/random.folded"
IN=$c/random.folded both "random piped" -
gzip -c "$c/random.folded" >"$c/random.folded.gz"
both "random gzip" --format folded "$c/random.folded.gz"

# every folded file the other suites read (larger than the corners, real)
if [ -z "${AFLAME_SANITIZED:-}" ]; then
	for f in "$DATA"/folded/*.folded "$DATA"/flamegraph-pl/*.folded.gz; do
		n=${f#"$DATA"/}
		both "$n" "$f"
		both "$n --format folded" --format folded "$f"
	done
fi

# the fuzz corpus through the split, in one process
replay=$(dirname "$AFLAME")/fuzz-replay-folded
if [ -x "$replay" ]; then
	out=$(AFLAME_SPLIT_BYTES=0 "$replay" tests/fuzz/corpus/folded tests/fuzz/crashes/folded 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ]; then
		pass "split/fuzz corpus replayed split ($(printf '%s\n' "$out" | grep -c '^PASS:') directories)"
	else
		fail "split/fuzz corpus replayed split" "exit status $rc: $(printf '%s\n' "$out" | grep -v '^PASS' | head -3 | tr '\n' ' ')"
	fi
else
	fail "split/fuzz corpus replayed split" "$replay not built"
fi
