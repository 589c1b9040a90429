# bad.sh: every input in tests/bad/catalogue.sh fails with exit status 1,
# its exact one-line message, and no output file (or temporary file) left.
. tests/lib.sh
ROOT=$PWD
count=0
current=""

# Run the case whose input has just been written.
finish_case() {
	[ -n "$current" ] || return 0
	local dir=$TMP/$current out=${OUT_PATH:-out.svg}
	(cd "$dir" && eval "\"\$AFLAME\" $ARGS \"\$IN\" -o \"\$out\"") >"$dir.stdout" 2>"$dir.stderr"
	local rc=$?
	local want="aflame-render: $MESSAGE" got="" left="" lines f
	# the last line and what is left, by bash itself: no process per case
	mapfile -t lines <"$dir.stderr"
	[ ${#lines[@]} -gt 0 ] && got=${lines[-1]//"$IN"/IN}
	for f in "$dir"/* "$dir"/.[!.]* "$dir"/..?*; do
		[ -e "$f" ] && [ "$f" != "$dir/in" ] && left="$left${f##*/} "
	done
	if [ "$rc" -ne 1 ]; then
		fail "bad/$current" "exit status $rc, expected 1 ($got)"
	elif [ "$got" != "$want" ]; then
		fail "bad/$current" "message '$got', expected '$want'"
	elif [ -n "$left" ]; then
		fail "bad/$current" "files left behind: $left"
	else
		pass "bad/$current"
	fi
	count=$((count + 1))
}

bad() {
	finish_case
	current=$1
	MESSAGE=$2
	ARGS=""
	OUT_PATH=""
	mkdir -p "$TMP/$current"
	IN=$TMP/$current/in
}

cd "$ROOT"
. tests/bad/catalogue.sh
finish_case
[ "$count" -ge 40 ] && pass "bad/catalogue has at least 40 cases ($count)" ||
	fail "bad/catalogue has at least 40 cases" "only $count"

# SIGINT while writing a large output leaves no partial file
big=$TMP/sigint/in.folded
mkdir -p "$TMP/sigint"
awk 'BEGIN { for (i = 0; i < 400000; i++) printf "main;f%d;g%d;h%d %d\n", i % 977, i % 131, i, i % 7 + 1 }' >"$big"
( cd "$TMP/sigint" && exec "$AFLAME" in.folded -o out.svg ) 2>/dev/null &
pid=$!
sleep 0.15
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
left=$(ls -A "$TMP/sigint" | grep -v '^in.folded$' | tr '\n' ' ')
if [ "$rc" -eq 0 ]; then
	skip "bad/sigint leaves no partial output" "the run finished before the signal"
elif [ -n "$left" ]; then
	fail "bad/sigint leaves no partial output" "left: $left"
else
	pass "bad/sigint leaves no partial output"
fi
