# tier: full
# serve_shared.sh: two `serve` processes on one --data, and the retention
# limit (issue 22). Both servers get concurrent uploads of the same files and
# of different ones: every result must be complete (its pages and SVGs
# parse), each rendered exactly once across both servers (the render lock:
# the second server adopts what the first wrote), and no temporary file
# left. Then --max-age and --max-data remove the oldest results first and
# never one whose render lock is held; a server that still remembers a
# removed result answers 404, not a broken page.
. tests/lib.sh
. tests/serve/lib.sh
trap 'stop_server; [ -n "${PID_A:-}" ] && kill "$PID_A" 2>/dev/null; rm -rf "$TMP"' EXIT
SERVER_PID=
if ! command -v curl >/dev/null; then
	skip "serve shared" "curl not installed"
	exit 0
fi
D=$TMP/data
FILES="$DATA/art/ffx-art-streaming.trace $DATA/art/ffx-art-regular.trace $DATA/art/yamp-legacy.trace
$DATA/art/perflib-basic.trace $DATA/folded/java.folded $DATA/folded/deep.folded"

start_server "$D" "$TMP/a" -j 2
PID_A=$SERVER_PID URL_A=$URL
start_server "$D" "$TMP/b" -j 2
PID_B=$SERVER_PID URL_B=$URL

# every file to both servers at once, twice each
pids=
for f in $FILES; do
	for u in "$URL_A" "$URL_B" "$URL_A" "$URL_B"; do
		curl -sS --max-time 60 -o /dev/null -F "trace=@$f" "$u/upload" &
		pids="$pids $!"
	done
done
wait $pids
ok=0 n=0 once=0 parse=0
for f in $FILES; do
	h=$(sha256sum <"$f" | cut -c1-64)
	n=$((n + 1))
	URL=$URL_A
	sa=$(wait_done "$h" 120)
	URL=$URL_B
	sb=$(wait_done "$h" 120)
	[ "$sa:$sb" = done:done ] && ok=$((ok + 1))
	r=$(cat "$TMP/a.err" "$TMP/b.err" | grep -c "serve: ${h:0:12}: rendered")
	[ "$r" = 1 ] && once=$((once + 1))
	xmllint --noout --html "$D/$h/index.html" 2>/dev/null && xmllint --noout "$D/$h"/t*.svg && parse=$((parse + 1))
done
check "shared/every result done on both servers ($ok of $n)" test "$ok" = "$n"
check "shared/each rendered exactly once across both ($once of $n)" test "$once" = "$n"
check "shared/every page and SVG parses ($parse of $n)" test "$parse" = "$n"
check "shared/no temporary file left" test -z "$(find "$D" -name '.*' -type f)"
check "shared/no upload left in tmp" test -z "$(ls -A "$D/tmp")"
SERVER_PID=$PID_B
stop_server

# ---- retention ----
hashes=$(for f in $FILES; do sha256sum <"$f" | cut -c1-64; done)
set -- $hashes
# ages: the first two 10 days old, then 3, 2 and 1 hour(s), the last now
touch -d '10 days ago' "$D/$1"/* "$D/$2"/*
touch -d '3 hours ago' "$D/$3"/*
touch -d '2 hours ago' "$D/$4"/*
touch -d '1 hour ago' "$D/$5"/*
# server A still remembers every result; B removes the old ones at start
for h in $hashes; do curl -sS -o /dev/null "$URL_A/trace/$h"; done
start_server "$D" "$TMP/c" --max-age 5
sleep 0.5
stop_server
check "retain/--max-age removes the results 10 days old" test ! -e "$D/$1" -a ! -e "$D/$2"
check "retain/--max-age keeps the younger ones" test -d "$D/$3" -a -d "$D/$4" -a -d "$D/$5" -a -d "$D/$6"
check "retain/logged ($(grep retention "$TMP/c.err"))" grep -q "retention: removed 2 results" "$TMP/c.err"
code=$(curl -sS -o /dev/null -w '%{http_code}' "$URL_A/trace/$1")
check "retain/a server that remembered a removed result answers 404 (got $code)" test "$code" = 404
SERVER_PID=$PID_A
stop_server
PID_A=

# --max-data: room for the two newest only; the oldest ($3) is being
# rendered (its lock held), so it stays and $4 and $5 go
keep=$(( $(du -sB1 "$D/$5" | cut -f1) / 2 + $(du -sB1 "$D/$6" | cut -f1) + $(du -sB1 "$D/$3" | cut -f1) ))
flock "$D/$3/lock" sleep 5 &
LP=$!
sleep 0.3
start_server "$D" "$TMP/d" --max-data "$keep"
sleep 0.5
stop_server
kill "$LP" 2>/dev/null
wait "$LP" 2>/dev/null
check "retain/--max-data keeps a result being rendered" test -d "$D/$3"
check "retain/--max-data removes the oldest others first" test ! -e "$D/$4" -a ! -e "$D/$5"
check "retain/--max-data keeps the newest" test -d "$D/$6"
check "retain/logged ($(grep retention "$TMP/d.err"))" grep -q "retention: removed 2 results .*; 1 in use kept" "$TMP/d.err"
