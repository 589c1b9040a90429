# cost: 4
# devtools.sh: Flutter DevTools snapshots (issue 35 item 2): the
# Performance page's export since DevTools 2.34 holds a Perfetto trace as a
# JSON array of bytes ("traceBinary"), peeled before detection (read.c,
# devtools.c) and read as the Perfetto trace it is; the older export
# (traceEvents) is the chrome reader's; a snapshot of another screen is
# refused in one line.
. tests/lib.sh
S=$DATA/perfetto/flutter-devtools-2.34-snapshot.json.gz
# the bytes as Python's json module reads them, the reference
python3 -c "
import gzip, json, sys
d = json.loads(gzip.open(sys.argv[1]).read())
open(sys.argv[2], 'wb').write(bytes(d['performance']['traceBinary']))" "$S" "$TMP/bytes.pftrace"
"$AFLAME" --format folded "$S" >"$TMP/snap" 2>/dev/null
"$AFLAME" --format folded "$TMP/bytes.pftrace" >"$TMP/bytes" 2>/dev/null
check "devtools/a 2.34 snapshot draws its traceBinary's Perfetto trace ($(wc -l <"$TMP/snap") stacks)" \
	sh -c "[ -s '$TMP/snap' ] && cmp '$TMP/snap' '$TMP/bytes'"
"$AFLAME" --info "$S" >"$TMP/info" 2>/dev/null
check "devtools/--info: perfetto inside the snapshot" sh -c \
	"grep -qx 'format: perfetto' '$TMP/info' && grep -q 'gzip > Flutter DevTools snapshot (traceBinary)' '$TMP/info'"
"$AFLAME" --info "$DATA/chrome/flutter-devtools-2.18-world-clock.json.gz" >"$TMP/info" 2>/dev/null
check "devtools/a 2.18 snapshot (traceEvents) is the chrome reader's" grep -qx 'format: chrome' "$TMP/info"
printf '{"devToolsSnapshot":true,"activeScreenId":"memory","memory":{"x":[1,2]}}' >"$TMP/memory.json"
"$AFLAME" "$TMP/memory.json" -o "$TMP/m.svg" 2>"$TMP/err"
check "devtools/another screen's snapshot: one line, exit 1, no output" sh -c \
	"[ $? -eq 1 ] && [ ! -e '$TMP/m.svg' ] && [ \$(wc -l <'$TMP/err') -eq 1 ] && grep -q \"snapshot of its 'memory' screen, without a trace: only the Performance page's export\" '$TMP/err'"
printf '{"devToolsSnapshot":true,"performance":{"traceBinary":[10,2,256]}}' >"$TMP/bad.json"
"$AFLAME" --format folded "$TMP/bad.json" 2>"$TMP/err" >/dev/null
check "devtools/a traceBinary value that is no byte: its offset" \
	grep -q 'bad.json: offset 0x[0-9a-f]*: traceBinary holds a number that is no byte (256)' "$TMP/err"
head -c 300 "$DATA/../fuzz/corpus/perfetto/devtools-snapshot.json" >"$TMP/cut.json"
"$AFLAME" --format folded "$TMP/cut.json" 2>"$TMP/err" >/dev/null
check "devtools/a snapshot cut short: exit 1, the end's offset" sh -c \
	"[ $? -eq 1 ] && grep -q 'offset 0x12c: the file ends inside its JSON' '$TMP/err'"
damage_sweep "devtools/snapshot" perfetto "$DATA/../fuzz/corpus/perfetto/devtools-snapshot.json"
