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
# (yamp-legacy's files: t0.svg 135 KB, t0.png 198 KB, t0.folded 938 KB,
# the other threads' 165 KB, the report 153 KB)
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
		test "$(code t0.svg) $(code t0.folded) $(code t1.svg) $(code t2.svg)" = "200 404 200 200"
	check "budget/no temporary file left" test -z "$(find "$TMP/data1/$YH" -name '.*')"
	stop_server
else
	fail "budget/server starts" "$(cat "$TMP/server1.err")"
fi
