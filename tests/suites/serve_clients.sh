# tier: full
# cost: 30
# serve_clients.sh: the service against slow clients and a disk that fills
# (issue 21 items 3 and 4). Uploads that trickle one byte a second, and 128
# connections that trickle header lines (as many as one address may open),
# must not keep others out: each is cut off once past its deadline
# (--request-timeout, then --min-rate), sooner when connections or upload
# slots run short, while a real upload and the form keep answering. An
# upload slower than the grace but above --min-rate still succeeds. A
# result that could not be written (here: a file size limit, which fails a
# write as a full disk does) is not remembered as the upload's fault: once
# the limit is lifted, a later visit renders it.
. tests/lib.sh
. tests/serve/lib.sh
trap 'stop_server; rm -rf "$TMP"' EXIT
SERVER_PID=
if ! command -v curl >/dev/null || ! command -v python3 >/dev/null; then
	skip "serve clients" "curl or python3 not installed"
	exit 0
fi
TRICKLE="python3 tests/serve/trickle.py"
SMALL=$DATA/folded/java.folded

start_server "$TMP/data" "$TMP/log" --request-timeout 2 --min-rate 1K --max-uploads 4
PORT=${URL##*:}

# ---- one upload that trickles, no pressure: cut at the deadline ----
out=$($TRICKLE body 1 "$PORT" 12)
last=${out##* }
check "slow/one trickling upload is cut off" test "${out%%,*}" = "closed 1 of 1"
check "slow/within --request-timeout plus a second or two (took ${last}s)" \
	python3 -c "import sys; sys.exit(not 1.5 <= $last <= 5)"

# ---- every upload slot taken by trickles: a real upload still gets in ----
$TRICKLE body 4 "$PORT" 12 >"$TMP/slots" &
TP=$!
sleep 1.5
code=
for _ in 1 2 3 4; do
	code=$(upload "$SMALL" | cut -d' ' -f1)
	[ "$code" = 303 ] && break
	sleep 1
done
check "slow/a real upload gets in while 4 trickles hold the 4 slots (got $code)" test "$code" = 303
wait $TP
check "slow/the 4 trickling uploads are cut off ($(cat "$TMP/slots"))" grep -q "^closed 4 of 4" "$TMP/slots"

# ---- an upload slower than the grace but above --min-rate succeeds ----
head -c 120000 /dev/urandom | base64 -w 100 | sed 's/^/a;b;c /; s/$/ 1/' | tr -d '/+=' | head -c 60000 >"$TMP/slow.folded"
echo >>"$TMP/slow.folded"
t0=$(date +%s.%N)
code=$(upload "$TMP/slow.folded" --limit-rate 12K | cut -d' ' -f1)
t1=$(date +%s.%N)
check "slow/an upload at 12 KB/s (longer than --request-timeout) is accepted (got $code)" test "$code" = 303
check "slow/that upload took longer than the grace" python3 -c "import sys; sys.exit(not $t1 - $t0 > 3)"

# ---- 128 connections trickling headers: the form still answers ----
$TRICKLE headers 128 "$PORT" 10 >"$TMP/headers" &
TP=$!
sleep 0.5
code=
for _ in $(seq 12); do
	code=$(curl -sS --max-time 2 -o /dev/null -w '%{http_code}' "$URL/" 2>/dev/null)
	[ "$code" = 200 ] && break
	sleep 0.5
done
check "slow/the form answers while 128 connections trickle headers (got $code)" test "$code" = 200
wait $TP
check "slow/the header trickles are cut off ($(cat "$TMP/headers"))" grep -q "^closed 128 of 128" "$TMP/headers"
check "slow/the service is still up" kill -0 "$SERVER_PID"
stop_server

# ---- a result that cannot be written is tried again later ----
if ! command -v prlimit >/dev/null; then
	skip "disk full" "prlimit (util-linux) not installed"
	exit 0
fi
# 16 KiB per file: the upload is stored, its SVG (the script alone is
# larger) is not
(ulimit -S -f 16; start_server "$TMP/full" "$TMP/full-log"; echo "$SERVER_PID $URL" >"$TMP/full-pid"; wait "$SERVER_PID") &
SUB=$!
for _ in $(seq 100); do [ -s "$TMP/full-pid" ] && break; sleep 0.1; done
read -r SERVER_PID URL <"$TMP/full-pid"
loc=$(upload "$SMALL" | cut -d' ' -f2)
hash=${loc##*/}
state=$(wait_done "$hash" 60)
check "full/the render fails when its files cannot be written (state $state)" test "$state" = failed
st=$(curl -sS "$URL/trace/$hash/status")
check "full/the status says it will be tried again ($st)" grep -q '"retry_in":' <<<"$st"
code=$(curl -sS -o /dev/null -w '%{http_code}' "$URL/trace/$hash")
check "full/the page is 503 (the server's trouble), not 422 (got $code)" test "$code" = 503
check "full/no status file remembers it as failed" test ! -e "$TMP/full/$hash/status"
prlimit --pid "$SERVER_PID" --fsize=unlimited
sleep 11   # RETRY_SECONDS in serve_jobs.c
curl -sS -o /dev/null "$URL/trace/$hash"
state=$(wait_done "$hash" 60)
check "full/after space is freed a visit renders it (state $state)" test "$state" = done
check "full/its SVG is whole" xmllint --noout "$TMP/full/$hash/t0.svg"
kill -TERM "$SERVER_PID"
wait "$SUB"
SERVER_PID=
