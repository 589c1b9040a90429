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

# every format the reader table reads is named in --help's first paragraph,
# serve --help and the man page's DESCRIPTION (issue 34 item 7); the list is
# --help's, which read.c makes from the table, so a new reader must be named
# in the man page by hand as it lands
"$AFLAME" --help | tr '\n' ' ' | sed -n 's/.*Draw a flame graph of \(.*\); compressed (gzip, zlib) or not\..*/\1/p' |
	sed 's/, / or /g; s/ or /\n/g' | grep . >"$TMP/whats"
check "help/--help's first paragraph names the formats ($(grep -c . "$TMP/whats"))" test "$(grep -c . "$TMP/whats")" -ge 6
sed -n '/^\.SH DESCRIPTION/,/^\.PP/p' docs/aflame-render.1 | sed 's/^\.[A-Z]* //; s/"//g; s/\\-/-/g' |
	tr '\n' ' ' | tr -s ' ' >"$TMP/man.desc"
"$AFLAME" serve --help | tr '\n' ' ' | tr -s ' ' >"$TMP/serve.help"
while IFS= read -r what; do
	check "help/the man page's DESCRIPTION names '$what'" grep -qF "$what" "$TMP/man.desc"
	check "help/serve --help names '$what'" grep -qF "$what" "$TMP/serve.help"
done <"$TMP/whats"
