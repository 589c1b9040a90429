# tier: full
# cost: 15
# serve_hostile.sh: the service against issue 36's serve findings: a result
# whose files outgrow --max-result is cut and says so; a second server on
# the same --data leaves the first one's uploads in progress alone; render
# children hold no descriptor of the server (the listening socket, other
# jobs' locks); a request with both Content-Length and Transfer-Encoding is
# refused (RFC 9112 6.3).
. tests/lib.sh
. tests/serve/lib.sh
trap 'stop_server; [ -n "${OTHER_PID:-}" ] && kill "$OTHER_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
SERVER_PID= OTHER_PID=
command -v curl >/dev/null || { skip "serve" "curl not installed"; exit 0; }

Y=$DATA/art/yamp-legacy.trace
YH=$(sha256sum <"$Y" | cut -c1-64)

# ---- --max-result: a result's files within a budget, the page says so ----
# (yamp-legacy's files: t0.svg 160 KB, t0.png 187 KB, t0.folded 938 KB,
# t1's 99 KB, its folded stacks 404 bytes, the report 153 KB)
if start_server "$TMP/data1" "$TMP/server1" --max-result 512K; then
	upload "$Y" >/dev/null
	state=$(wait_done "$YH")
	check "budget/a result over --max-result is done, not failed" test "$state" = done
	curl -sS -o "$TMP/p1.html" "$URL/trace/$YH"
	check "budget/the page is well-formed" xmllint --noout "$TMP/p1.html"
	check "budget/the page says the result was cut, naming the limit" \
		grep -q 'id="cut">This result was cut: files that would take it past this server.s limit of 512 KiB per upload (--max-result) were left out' "$TMP/p1.html"
	check "budget/a file left out says why" \
		grep -q 'title="left out: it would take the result past this server&#39;s limit of 512 KiB (--max-result)">no folded<' "$TMP/p1.html"
	bytes=$(cd "$TMP/data1/$YH" && cat t*.* report.html 2>/dev/null | wc -c)
	check "budget/the result's files take at most 512 KiB ($bytes bytes)" test "$bytes" -le 524288
	code() { curl -sS -o /dev/null -w '%{http_code}' "$URL/trace/$YH/$1"; }
	check "budget/the big file is left out, the smaller ones after it kept" \
		test "$(code t0.svg) $(code t0.folded) $(code t1.folded)" = "200 404 200"
	check "budget/no temporary file left" test -z "$(find "$TMP/data1/$YH" -name '.*')"
	stop_server
else
	fail "budget/server starts" "$(cat "$TMP/server1.err")"
fi

# ---- a second server on the same --data leaves uploads in progress alone ----
# Server A receives a slow upload; server B starts on the same --data
# meanwhile. B removes the leftover of a killed server (a file no process
# holds) but not A's upload, which A then stores and renders (it answered
# 500 "could not be stored" when B removed every tmp/upload.*).
if start_server "$TMP/data2" "$TMP/serverA"; then
	A_PID=$SERVER_PID A_URL=$URL
	printf 'stale' >"$TMP/data2/tmp/upload.kILLed"
	head -c 150000 /dev/urandom >"$TMP/slow.bin"
	SH=$(sha256sum <"$TMP/slow.bin" | cut -c1-64)
	curl -sS -o /dev/null -w '%{http_code}' --limit-rate 40K -H 'Content-Type: application/octet-stream' \
		--data-binary @"$TMP/slow.bin" "$URL/upload" >"$TMP/slow.code" &
	curl_pid=$!
	for _ in $(seq 50); do
		[ "$(ls "$TMP/data2/tmp" | grep -c -v kILLed)" -ge 1 ] && break
		sleep 0.1
	done
	if start_server "$TMP/data2" "$TMP/serverB"; then
		OTHER_PID=$SERVER_PID
		check "shared/B removes a leftover no process holds" test ! -e "$TMP/data2/tmp/upload.kILLed"
		check "shared/B leaves A's upload in progress" test "$(ls "$TMP/data2/tmp" | wc -l)" = 1
		wait "$curl_pid"
		check "shared/A stores that upload (303)" test "$(cat "$TMP/slow.code")" = 303
		SERVER_PID=$A_PID URL=$A_URL
		check "shared/A renders it (a bad file: failed, with its message)" \
			grep -q '"state":"failed","done":0,"total":0,"error":"uploaded file: ' \
			<(wait_done "$SH" >/dev/null; curl -sS "$URL/trace/$SH/status")
		kill "$OTHER_PID"; wait "$OTHER_PID"; OTHER_PID=
	else
		fail "shared/second server starts" "$(cat "$TMP/serverB.err")"
	fi
	stop_server
else
	fail "shared/server starts" "$(cat "$TMP/serverA.err")"
fi

# ---- render children hold no descriptor of the server ----
# A job's child is forked (not executed), so O_CLOEXEC closes nothing in it:
# it held the listening socket, and its own and other jobs' render locks.
python3 - "$TMP/big.folded" <<'PY'
import random, sys
r = random.Random(7)
names = ["f%d" % i for i in range(3000)]
with open(sys.argv[1], "w") as f:
    for i in range(150000):
        f.write(";".join(r.choice(names) for _ in range(r.randint(20, 60))) + " %d\n" % r.randint(1, 9))
PY
if start_server "$TMP/data3" "$TMP/server3" -j 2; then
	upload "$TMP/big.folded" >/dev/null &
	up1=$!
	upload "$Y" >/dev/null
	wait "$up1"
	seen= bad=
	for _ in $(seq 200); do
		for c in $(cat /proc/"$SERVER_PID"/task/*/children 2>/dev/null); do
			fds=$(ls -l /proc/"$c"/fd 2>/dev/null | sed -n 's/.* -> //p')
			[ -n "$fds" ] || continue
			seen=$((seen + 1))
			bad+=$(grep -E 'socket:|/lock$|/tmp/upload\.' <<<"$fds")
		done
		[ "${seen:-0}" -ge 3 ] && break
		sleep 0.05
	done
	check "fds/render children seen ($seen)" test "${seen:-0}" -ge 1
	check "fds/a render child holds no socket, lock or upload of the server" test -z "$bad"
	stop_server
else
	fail "fds/server starts" "$(cat "$TMP/server3.err")"
fi

# ---- framing: Content-Length and Transfer-Encoding together: 400 ----
if start_server "$TMP/data4" "$TMP/server4"; then
	port=${URL##*:}
	code=$(python3 - "$port" <<'PY'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST /upload HTTP/1.1\r\nHost: t\r\nContent-Type: application/octet-stream\r\n"
          b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
s.settimeout(10)
data = b""
while b"\r\n" not in data:
    chunk = s.recv(4096)
    if not chunk:
        break
    data += chunk
print(data.split(b" ")[1].decode() if data.startswith(b"HTTP/") else "none")
PY
)
	check "framing/Content-Length with Transfer-Encoding: 400 (RFC 9112 6.3)" test "$code" = 400
	HH=$(printf hello | sha256sum | cut -c1-64)
	check "framing/nothing stored" test ! -e "$TMP/data4/$HH" -a -z "$(ls "$TMP/data4/tmp")"
	stop_server
else
	fail "framing/server starts" "$(cat "$TMP/server4.err")"
fi
