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

# Perfetto compressed packets past the limit (issue 36 item 14): the message
# names the group's offset and the documented limit (docs/semantics.md), not
# the budget the groups before it left. Two groups of 60 MiB of packets
# (zeros in an unknown field), 60 KB each compressed: the second goes past
# 64 x the file's size + 64 MiB.
python3 - "$TMP/bomb.pftrace" <<'PY'
import sys, zlib
def varint(n):
    out = bytearray()
    while True:
        b, n = n & 0x7f, n >> 7
        out.append(b | 0x80 if n else b)
        if not n:
            return bytes(out)
def field(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data
group = zlib.compress(field(1, field(900, bytes(1 << 20))) * 60, 9)
open(sys.argv[1], "wb").write(field(1, field(50, group)) * 2)
PY
size=$(wc -c <"$TMP/bomb.pftrace")
second=$(printf '0x%x' $(((size / 2) + 4)))   # the second packet's compressed_packets field
"$AFLAME" "$TMP/bomb.pftrace" -o "$TMP/bomb.svg" 2>"$TMP/bomb.err"
rc=$?
check "compressed/a Perfetto packet bomb: exit 1, no output" test "$rc" = 1 -a ! -e "$TMP/bomb.svg"
check "compressed/a Perfetto packet bomb names the group's offset and the documented limit" grep -qxF \
	"aflame-render: $TMP/bomb.pftrace: offset $second: compressed packets: decompressed data exceeds $(((64 << 20) + 64 * size)) bytes (64 times the file's size + 64 MiB, for all its compressed groups together; zlib bomb?)" \
	"$TMP/bomb.err"
"$AFLAME" --max-input-size 50M "$TMP/bomb.pftrace" -o "$TMP/bomb.svg" 2>"$TMP/bomb.err"
check "compressed/a Perfetto packet bomb under --max-input-size names it" grep -qF \
	"offset 0x4: compressed packets: decompressed data exceeds 52428800 bytes (--max-input-size; zlib bomb?)" "$TMP/bomb.err"
