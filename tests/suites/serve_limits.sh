# tier: full
# serve_limits.sh: inputs that exhaust memory or time (issue 21 items 1-2).
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
		grep -q '"state":"running"' <(curl -sS "$URL/trace/$SH/status") && break
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
exit 0
