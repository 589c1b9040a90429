# cost: 30
# fuzz.sh: replay every saved fuzz input (corpus and former crashes) and the
# test data through the fuzz targets, as ordinary runs under this build.
. tests/lib.sh
# every target the Makefile lists (FUZZ_TARGETS) has a replay program
for target in $(sed -n 's/^FUZZ_TARGETS := //p' Makefile); do
	replay=$(dirname "$AFLAME")/fuzz-replay-$target
	if [ ! -x "$replay" ]; then
		fail "fuzz replay $target" "$replay not built"
		continue
	fi
	dirs="tests/fuzz/corpus/$target tests/fuzz/crashes/$target"
	[ -d "tests/data/$target" ] && dirs="$dirs tests/data/$target"
	# shellcheck disable=SC2086
	out=$("$replay" $dirs 2>&1)
	rc=$?
	if [ "$rc" -eq 0 ]; then
		printf '%s\n' "$out" | grep '^PASS:'
	else
		fail "fuzz replay $target" "exit status $rc: $(printf '%s\n' "$out" | grep -v '^PASS' | head -3 | tr '\n' ' ')"
	fi
done

# every target has a dictionary libFuzzer can parse: a comment, a blank line,
# or an optionally named quoted string (a bad line makes libFuzzer exit at once)
for target in $(sed -n 's/^FUZZ_TARGETS := //p' Makefile); do
	dict=tests/fuzz/dict/$target.dict
	bad=$(grep -nEv '^[[:space:]]*(#.*)?$|^[[:space:]]*([A-Za-z0-9_]+=)?"([^"\\]|\\.)*"[[:space:]]*$' "$dict" 2>&1 | head -1)
	if [ ! -f "$dict" ]; then
		fail "fuzz dictionary $target" "$dict is missing"
	elif [ -n "$bad" ]; then
		fail "fuzz dictionary $target" "$dict:${bad%%:*}: not a libFuzzer dictionary line"
	else
		pass "fuzz dictionary $target"
	fi
done
