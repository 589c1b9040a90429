# help.sh: --help (with serve --help) and the man page name the same options.
. tests/lib.sh
{ "$AFLAME" --help; "$AFLAME" serve --help; } >"$TMP/help" 2>&1
grep -oE -- '--[a-z][a-z-]*' "$TMP/help" | sort -u >"$TMP/help.opts"
sed 's/\\-/-/g' docs/aflame-render.1 | grep -oE -- '--[a-z][a-z-]*' | sort -u >"$TMP/man.opts"
if cmp -s "$TMP/help.opts" "$TMP/man.opts"; then
	pass "help/options match the man page"
else
	fail "help/options match the man page" "$(diff "$TMP/help.opts" "$TMP/man.opts" | grep '^[<>]' | tr '\n' ' ')"
fi
