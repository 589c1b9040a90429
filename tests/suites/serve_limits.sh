# tier: full
# cost: 22
# serve_limits.sh: the service against hostile uploads (issue 21 items 1, 2,
# 4 and 5): inputs that exhaust memory or time, stale temporary files,
# framing (two Content-Lengths, no closing boundary), noncharacters in names,
# too many frames for one graph.
# A "deep bomb" (folded stacks one frame deeper per 2 bytes: a 170 KB gzip
# that inflates to 40 MB and asks for far more memory than it is given) is
# generated here, never committed. The command line must exit 1 with one
# line and no output under `ulimit -v`; the service, run under `ulimit -v`,
# must fail that job alone, remember the failure, render other uploads and
# stay up; a parse longer than --max-seconds fails its job; SIGTERM stops
# the service promptly while a job is running.
. tests/lib.sh
. tests/serve/lib.sh
trap 'stop_server; rm -rf "$TMP"' EXIT
SERVER_PID=

python3 -c "import sys; sys.stdout.write('f;' * 20000000 + 'g 1\n')" | gzip -1 >"$TMP/bomb.gz"
BH=$(sha256sum <"$TMP/bomb.gz" | cut -c1-64)

# ---- the command line: exit 1, one line, no output, no temporary file ----
mkdir -p "$TMP/cli"
(ulimit -v 400000; exec "$AFLAME" "$TMP/bomb.gz" -o "$TMP/cli/out.svg") >/dev/null 2>"$TMP/cli.err"
rc=$?
case ${AFLAME##*/}:$AFLAME in *sanitize*) skip "cli/out of memory" "ulimit -v under ASan" ;; *)
	check "cli/out of memory: exit 1 (was 134, an abort)" test "$rc" = 1
	check "cli/out of memory: one line" test "$(wc -l <"$TMP/cli.err")" = 1
	check "cli/out of memory: says so" grep -q 'out of memory' "$TMP/cli.err"
	check "cli/out of memory: no output, no temporary file" test -z "$(ls -A "$TMP/cli")" ;;
esac

if ! command -v curl >/dev/null; then
	skip "serve" "curl not installed"
	exit 0
fi

# ---- the service under a memory limit: the bomb fails alone ----
SMALL=$DATA/folded/$(ls "$DATA/folded" | grep '\.folded$' | head -1)
SSH=$(sha256sum <"$SMALL" | cut -c1-64)
# the limit (soft, raised again below) is inherited by the service and each
# job's child
ulimit -S -v 900000
if start_server "$TMP/data" "$TMP/server" -j 2; then
	ulimit -S -v unlimited
	upload "$TMP/bomb.gz" >/dev/null
	upload "$SMALL" >/dev/null
	check "memory/another upload at the same time renders" test "$(wait_done "$SSH")" = done
	check "memory/the bomb's job fails" test "$(wait_done "$BH" 240)" = failed
	check "memory/the service is still up" kill -0 "$SERVER_PID"
	curl -sS "$URL/trace/$BH" >"$TMP/bomb.html"
	check "memory/the page says it failed" grep -q 'the render failed' "$TMP/bomb.html"
	check "memory/the failure is recorded" grep -q '^failed' "$TMP/data/$BH/status"
	check "memory/no temporary file left" test -z "$(find "$TMP/data" -name '.*.??????' -newer "$TMP/bomb.gz")"
	curl -sS "$URL/trace/$BH/status" >"$TMP/st"
	check "memory/not queued again on a GET" grep -q '"state":"failed"' "$TMP/st"
	stop_server
else
	ulimit -S -v unlimited
	fail "memory/server" "$(cat "$TMP/server.err")"
fi

# ---- --max-seconds bounds parsing; SIGTERM is prompt during a job ----
awk 'BEGIN { for (i = 0; i < 1500000; i++) printf "main;frame_number_%d;leaf_%d 1\n", i, i }' |
	gzip -1 >"$TMP/slow.gz"
SH=$(sha256sum <"$TMP/slow.gz" | cut -c1-64)
if start_server "$TMP/data2" "$TMP/server2" -j 1 --max-seconds 1; then
	t0=$(date +%s)
	upload "$TMP/slow.gz" >/dev/null
	# once it runs, the render is frozen: a parse longer than any limit,
	# however fast this machine reads the file
	for _ in $(seq 100); do
		[ "$(status_state "$SH")" = running ] && break
		sleep 0.05
	done
	kill -STOP $(pgrep -P "$SERVER_PID") 2>/dev/null
	check "time/a parse longer than --max-seconds fails the job" test "$(wait_done "$SH" 60)" = failed
	t1=$(date +%s)
	check "time/within --max-seconds and a few seconds (took $((t1 - t0)) s)" test $((t1 - t0)) -le 12
	check "time/the reason is given" grep -q 'max-seconds' "$TMP/data2/$SH/status"
	stop_server
else
	fail "time/server" "$(cat "$TMP/server2.err")"
fi
if start_server "$TMP/data3" "$TMP/server3" -j 1; then
	upload "$TMP/slow.gz" >/dev/null
	for _ in $(seq 100); do
		[ "$(status_state "$SH")" = running ] && break
		sleep 0.05
	done
	sleep 1
	t0=$(date +%s%N)
	stop_server
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	check "stop/SIGTERM while parsing: exit 0" test "$rc" = 0
	check "stop/SIGTERM while parsing: stopped in ${ms} ms (< 2000)" test "$ms" -lt 2000
	check "stop/no status written (rendered after a restart)" test ! -e "$TMP/data3/$SH/status"
	check "stop/no child left" test -z "$(pgrep -f "$TMP/data3")"
else
	fail "stop/server" "$(cat "$TMP/server3.err")"
fi

# ---- start: stale temporary files of a killed render are removed ----
mkdir -p "$TMP/data5/$SSH" "$TMP/data5/tmp"
printf 'x' >"$TMP/data5/$SSH/.t0.svg.Ab12Cd"
printf 'x' >"$TMP/data5/$SSH/.t1.svg.Zz99Yy"
printf 'x' >"$TMP/data5/$SSH/.keep"
touch -d '-2 hours' "$TMP/data5/$SSH/.t0.svg.Ab12Cd" "$TMP/data5/$SSH/.keep"
if start_server "$TMP/data5" "$TMP/server5"; then
	check "stale/an old temporary file is removed at start" test ! -e "$TMP/data5/$SSH/.t0.svg.Ab12Cd"
	check "stale/a fresh one (another server's) is kept" test -e "$TMP/data5/$SSH/.t1.svg.Zz99Yy"
	check "stale/other files are kept" test -e "$TMP/data5/$SSH/.keep"
	# U+FFFE / U+FFFF in names: the pages stay well-formed XML
	printf 'main;a\xef\xbf\xbeb;c\xef\xbf\xbfd 3\nmain;x 1\n' >"$TMP/nonchar.folded"
	NH=$(sha256sum <"$TMP/nonchar.folded" | cut -c1-64)
	upload "$TMP/nonchar.folded" >/dev/null
	check "nonchar/rendered" test "$(wait_done "$NH")" = done
	curl -sS "$URL/trace/$NH" >"$TMP/nonchar.html"
	curl -sS "$URL/trace/$NH/t0.svg" >"$TMP/nonchar.svg"
	if command -v xmllint >/dev/null; then
		check "nonchar/result page well-formed" xmllint --noout "$TMP/nonchar.html"
		check "nonchar/SVG well-formed" xmllint --noout "$TMP/nonchar.svg"
		curl -sS "$URL/trace/$NH/report.html" >"$TMP/nonchar-report.html"
		# the report is HTML, not XML: no noncharacter in it raw
		check "nonchar/report has no raw U+FFFE/U+FFFF" \
			test "$(grep -c $'\xef\xbf[\xbe\xbf]' "$TMP/nonchar-report.html")" = 0
	else
		skip "nonchar/well-formed" "xmllint not installed"
	fi
	# frames per graph capped (item 5): 5000 stacks of 20 frames of their own,
	# each 0.24 px wide: 100,000 frames drawn by the command line
	awk 'BEGIN { for (i = 0; i < 5000; i++) { s = "main"; for (k = 0; k < 20; k++) s = s ";f" i "_" k; print s, 1 } }' >"$TMP/wide.folded"
	WH=$(sha256sum <"$TMP/wide.folded" | cut -c1-64)
	upload "$TMP/wide.folded" >/dev/null
	check "frames/rendered" test "$(wait_done "$WH")" = done
	curl -sS "$URL/trace/$WH" >"$TMP/wide.html"
	curl -sS "$URL/trace/$WH/t0.svg" >"$TMP/wide.svg"
	"$AFLAME" "$TMP/wide.folded" -o "$TMP/wide-cli.svg" 2>/dev/null
	check "frames/the page says --minwidth was raised" grep -q 'minwidth raised' "$TMP/wide.html"
	check "frames/the SVG is smaller than the uncapped one" \
		test "$(wc -c <"$TMP/wide.svg")" -lt $(($(wc -c <"$TMP/wide-cli.svg") / 2))
	# framing: a multipart body without its closing boundary, two Content-Lengths
	PORT=${URL##*:}
	python3 - "$PORT" "$TMP" <<'PY'
import socket, sys
port, tmp = int(sys.argv[1]), sys.argv[2]
def ask(name, req):
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    s.sendall(req)
    s.shutdown(socket.SHUT_WR)
    got = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        got += b
    open(f"{tmp}/{name}", "wb").write(got)
body = (b"--XyZ\r\nContent-Disposition: form-data; name=\"trace\"; filename=\"a.folded\"\r\n"
        b"Content-Type: application/octet-stream\r\n\r\nmain;cut;short 5\nmain;b 2\n")
ask("cut.http", b"POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    b"Content-Type: multipart/form-data; boundary=XyZ\r\n"
    b"Content-Length: %d\r\n\r\n" % len(body) + body)
raw = b"main;two;lengths 7\n"
ask("cl.http", b"POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    b"Content-Length: %d\r\nContent-Length: %d\r\n\r\n" % (len(raw), len(raw) - 5) + raw)
PY
	check "framing/multipart without closing boundary: 400" grep -q '^HTTP/1.1 400' "$TMP/cut.http"
	check "framing/... and not stored" test -z "$(grep -rl 'cut;short' "$TMP/data5" 2>/dev/null)"
	check "framing/two Content-Length headers: 400" grep -q '^HTTP/1.1 400' "$TMP/cl.http"
	check "framing/... and not stored" test -z "$(grep -rl 'two;lengths' "$TMP/data5" 2>/dev/null)"
	stop_server
else
	fail "stale/server" "$(cat "$TMP/server5.err")"
fi
exit 0
