# compressed.sh: every input read through gzip and zlib gives the same
# stacks and warnings as the plain file (read.c inflates before detecting),
# and UTF-16 folded stacks with a byte-order mark read like UTF-8.
. tests/lib.sh
zlib() { python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.compress(sys.stdin.buffer.read()))'; }

for f in art/perflib-basic.trace art/ffx-art-streaming.trace art/yamp-legacy.trace \
	atrace/android_systrace.txt atrace/variants-systrace.html folded/basic.folded folded/decimals.folded; do
	"$AFLAME" --format folded "$DATA/$f" >"$TMP/plain" 2>"$TMP/plain.err"
	sed -i "s|$DATA/$f|IN|" "$TMP/plain.err"
	gzip -c "$DATA/$f" >"$TMP/in.gz"
	zlib <"$DATA/$f" >"$TMP/in.z"
	for z in gz z; do
		"$AFLAME" --format folded "$TMP/in.$z" >"$TMP/got" 2>"$TMP/got.err"
		sed -i "s|$TMP/in.$z|IN|" "$TMP/got.err"
		if cmp -s "$TMP/plain" "$TMP/got" && cmp -s "$TMP/plain.err" "$TMP/got.err"; then
			pass "compressed/$f.$z reads like $f"
		else
			fail "compressed/$f.$z reads like $f" "$(diff "$TMP/plain.err" "$TMP/got.err" | head -3 | tr '\n' ' ')"
		fi
	done
done

# --info names the layer
gzip -c "$DATA/art/perflib-basic.trace" >"$TMP/basic.trace.gz"
check "compressed/--info says gzip" grep -qx 'compression: gzip' <("$AFLAME" --info "$TMP/basic.trace.gz" 2>/dev/null)

# UTF-16LE with a BOM, as Windows tools write folded stacks
python3 -c 'import sys; sys.stdout.buffer.write(open(sys.argv[1], encoding="utf-8").read().encode("utf-16"))' \
	"$DATA/folded/basic.folded" >"$TMP/utf16.folded"
"$AFLAME" --format folded "$DATA/folded/basic.folded" >"$TMP/plain" 2>/dev/null
check "compressed/UTF-16 folded reads like UTF-8" cmp "$TMP/plain" <("$AFLAME" --format folded "$TMP/utf16.folded" 2>/dev/null)
