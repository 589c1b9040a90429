# hostile.sh: inputs made to flood or slow the program down (issue 21):
# warnings are one line per kind however many times they happen.
. tests/lib.sh
# a legacy trace whose method list repeats one id 200,000 times
python3 - "$DATA/art/perflib-basic.trace" "$TMP/dup.trace" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
i = data.index(b'*methods\n') + len(b'*methods\n')
first = data[i:data.index(b'\n', i) + 1]
open(sys.argv[2], 'wb').write(data[:i] + first * 200000 + data[i:])
PY
"$AFLAME" --format folded "$TMP/dup.trace" >/dev/null 2>"$TMP/err"
check "hostile/200,000 repeated method lines make one warning line" test "$(grep -c 'listed twice' "$TMP/err")" -eq 1
check "hostile/the line says how many times" grep -q 'listed twice (line [0-9]*; first kept) (200000 times; the first shown)' "$TMP/err"
"$AFLAME" --info "$TMP/dup.trace" >"$TMP/info" 2>&1
check "hostile/--info lists it once too" test "$(grep -c 'listed twice' "$TMP/info")" -eq 1
