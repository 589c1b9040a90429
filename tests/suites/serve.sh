# tier: full
# cost: 100
# serve.sh: `aflame-render serve` driven by a real client (curl) on a
# loopback port the kernel picks: uploads of the corpus (every ART trace, an
# atrace capture, folded stacks, junk), the pages, SVGs, PNGs and folded
# files they give (checked against the command line's own output), limits,
# links that must not reach outside --data, restarts, a load test from a
# second process (tests/serve/load.sh) and the upload form in headless
# Chromium (tests/serve/browser.sh). SHA-256 is checked on its own first.
. tests/lib.sh
. tests/serve/lib.sh
trap 'stop_server; rm -rf "$TMP"' EXIT
SERVER_PID=

# ---- SHA-256 (FIPS 180-4 vectors, then coreutils over many lengths) ----
SHA=${O:-build}/serve-sha256-test
if [ -x "$SHA" ]; then
	"$SHA"
	mkdir -p "$TMP/sha"
	for n in 0 1 55 56 57 63 64 65 119 120 127 128 129 1000 65535 65536 65537 1000003; do
		head -c "$n" /dev/urandom >"$TMP/sha/$n"
	done
	if (cd "$TMP/sha" && "$OLDPWD/$SHA" * | sha256sum -c --quiet -) >/dev/null 2>&1; then
		pass "sha256/matches coreutils over 18 lengths"
	else
		fail "sha256/matches coreutils over 18 lengths" "$(cd "$TMP/sha" && "$OLDPWD/$SHA" * | sha256sum -c - 2>&1 | grep -v OK | head -3)"
	fi
else
	fail "sha256/test program" "$SHA not built (make check builds it)"
fi

if ! command -v curl >/dev/null; then
	skip "serve" "curl not installed"
	exit 0
fi

# ---- usage ----
"$AFLAME" serve --help >"$TMP/help" 2>&1
check "usage/serve --help" grep -q -- '--max-upload SIZE' "$TMP/help"
"$AFLAME" serve --port 8192 >/dev/null 2>"$TMP/err"
check "usage/--data is required (exit 2)" test $? = 2
"$AFLAME" serve --data "$TMP/x" --port 70000 >/dev/null 2>"$TMP/err"
check "usage/bad --port (exit 2)" test $? = 2
"$AFLAME" serve --data "$TMP/x" --bind localhost >/dev/null 2>"$TMP/err"
check "usage/--bind needs a numeric address (exit 2)" grep -q "invalid --bind 'localhost'" "$TMP/err"
"$AFLAME" serve --data "$TMP/x" --max-upload 12Q >/dev/null 2>"$TMP/err"
check "usage/bad --max-upload (exit 2)" grep -q "invalid --max-upload '12Q'" "$TMP/err"

# ---- start ----
DATA_DIR=$TMP/data
if ! start_server "$DATA_DIR" "$TMP/server" --max-upload 3M -j 2; then
	fail "serve/starts" "$(cat "$TMP/server.err")"
	exit 0
fi
pass "serve/starts on a free loopback port ($URL)"
case $URL in http://127.0.0.1:*) pass "serve/binds 127.0.0.1" ;; *) fail "serve/binds 127.0.0.1" "$URL" ;; esac

# headers HEADERS_FILE NAME: the headers every response must have
# has_header FILE HEADER: FILE (curl -D) has a line starting with HEADER,
# in any case; by bash itself, as is_png: the checks run hundreds of times
has_header() {
	local h r
	IFS= read -r -d '' h <"$1"
	shopt -s nocasematch
	[[ $'\n'$h == *$'\n'"$2"* ]]
	r=$?
	shopt -u nocasematch
	return $r
}
# is_png FILE: FILE starts with PNG's signature
is_png() {
	local magic
	LC_ALL=C IFS= read -r -N 8 magic <"$1" && [ "$magic" = $'\x89PNG\r\n\x1a\n' ]
}

curl -sS -D "$TMP/h" -o "$TMP/form.html" "$URL/"
check "form/200" grep -q '^HTTP/1.1 200' "$TMP/h"
check "form/well-formed" xmllint --noout "$TMP/form.html"
check "form/file input and drop zone" grep -q 'type="file".*name="trace"' "$TMP/form.html"
check "form/drop zone" grep -q 'id="drop"' "$TMP/form.html"
check "form/says what it reads" grep -q 'An atrace/systrace capture: ftrace text' "$TMP/form.html"
# every format the reader table reads, named on the form and in serve --help
for what in 'ART method trace' 'perf.data recording' 'atrace/systrace capture' 'olded stacks' \
	'Perfetto trace' 'simpleperf report-sample profile'; do
	check "form/names '$what'" grep -q "<li>[^<]*$what" "$TMP/form.html"
	check "usage/serve --help names '$what'" grep -q "$what" <(tr '\n' ' ' <"$TMP/help" | tr -s ' ')
done
check "form/names ART variants" grep -q 'streaming' "$TMP/form.html"
check "form/nosniff" has_header "$TMP/h" 'X-Content-Type-Options: nosniff'
check "form/CSP: scripts from this server only" has_header "$TMP/h" "Content-Security-Policy: default-src 'none'; script-src 'self'"
curl -sS -D "$TMP/h" -o "$TMP/upload.js" "$URL/upload.js"
check "form/script served as JavaScript" has_header "$TMP/h" 'Content-Type: text/javascript'
check "form/script handles drop" grep -q 'dataTransfer' "$TMP/upload.js"
curl -sS -D "$TMP/h" -o "$TMP/healthz" "$URL/healthz"
check "healthz/200 ok" sh -c "grep -q '^HTTP/1.1 200' '$TMP/h' && test \"\$(cat '$TMP/healthz')\" = ok"
check "healthz/not cached" has_header "$TMP/h" 'Cache-Control: no-store'
# browsers ask for it on every page: no 404 (an error in their console)
curl -sS -D "$TMP/h" -o "$TMP/icon" "$URL/favicon.ico"
check "favicon.ico/204, empty" sh -c "grep -q '^HTTP/1.1 204' '$TMP/h' && test ! -s '$TMP/icon'"

# ---- uploads of the corpus ----
# expect_like_cli FILE: upload FILE, follow it, and compare with what the
# command line makes of the same file: the error message, or the threads,
# each thread's folded stacks, an SVG and a PNG.
expect_like_cli() {
	local file=$1 name
	name=${file##*/}
	local T=$TMP/cli/$name
	mkdir -p "$T"
	local hash got code loc
	hash=$(sha256sum <"$file")
	hash=${hash:0:64}
	got=$(upload "$file")
	code=${got%% *}
	loc=${got#* }
	if [ "$code" != 303 ] || [ "$loc" != "$URL/trace/$hash" ]; then
		fail "upload/$name" "got '$got', expected 303 to /trace/$hash"
		return
	fi
	pass "upload/$name: 303 to /trace/<sha256 of the file>"
	local state
	state=$(wait_done "$hash")
	if "$AFLAME" "$file" -o "$T/all.folded" 2>"$T/cli.err"; then
		[ "$state" = done ] && pass "upload/$name: rendered" || {
			fail "upload/$name: rendered" "state $state"
			return
		}
		check_result "$file" "$hash" "$T"
	else
		[ "$state" = failed ] && pass "upload/$name: failed like the CLI" || {
			fail "upload/$name: failed like the CLI" "state $state"
			return
		}
		check_failure "$file" "$hash" "$T"
	fi
}

check_failure() {
	local file=$1 hash=$2 T=$3 name
	name=${file##*/}
	local code want
	code=$(curl -sS -D "$T/h" -o "$T/page.html" -w '%{http_code}' "$URL/trace/$hash")
	want=$(sed "s|^aflame-render: $file: ||" "$T/cli.err" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g'"; s/'/\&#39;/g")
	check "error/$name: 422" test "$code" = 422
	check "error/$name: well-formed page" xmllint --noout "$T/page.html"
	if grep -qF "uploaded file: $want" "$T/page.html"; then
		pass "error/$name: the CLI's one-line message, escaped"
	else
		fail "error/$name: the CLI's one-line message, escaped" "$(grep msg "$T/page.html")"
	fi
	check "error/$name: JSON status has the message" grep -q '"error":"uploaded file: ' <(curl -sS "$URL/trace/$hash/status")
}

check_result() {
	local file=$1 hash=$2 T=$3 name
	name=${file##*/}
	curl -sS -L -D "$T/h" -o "$T/page.html" "$URL/trace/$hash"
	check "page/$name: 200" grep -q '^HTTP/1.1 200' "$T/h"
	check "page/$name: well-formed" xmllint --noout "$T/page.html"
	check "page/$name: summary" grep -q '<h2>Summary</h2>' "$T/page.html"
	check "page/$name: profile table" grep -q "src=\"/trace/$hash/report.html\"" "$T/page.html"
	# the threads the CLI lists (--info), or one graph for folded input
	local want have empty
	want=$("$AFLAME" --info "$file" 2>/dev/null | sed -n 's/^threads with events: //p')
	[ "${want:-0}" = 0 ] && want=1
	have=$(grep -c '<iframe sandbox="allow-scripts" loading="lazy" src="/trace/[0-9a-f]*/t[0-9]*\.svg"' "$T/page.html")
	# a thread with nothing to draw (0 weight) is listed, not drawn
	empty=$(grep -c '<td>nothing to draw</td>' "$T/page.html")
	check "page/$name: one graph per thread with weight ($want = $have + $empty listed only)" \
		test "$((have + empty))" = "$want" -a "$have" -gt 0
	check "page/$name: graphs before the tables" \
		awk '/<iframe sandbox/ && !t { g = 1 } /<table/ && !g { t = 1 } END { exit !(g && !t) }' "$T/page.html"
	check "page/$name: names the uploaded file" \
		grep -qF "<h1>Flame graphs of <span class=\"upload\">$name</span></h1>" "$T/page.html"
	# every thread's SVG, PNG and folded file in one client: a curl process
	# costs 50 ms of CPU, the requests a few
	local i=0 x ok=1 bad= get=()
	for ((i = 0; i < have; i++)); do
		for x in svg png folded; do
			get+=(-sS -D "$T/t$i.$x.h" -o "$T/t$i.$x" "$URL/trace/$hash/t$i.$x" --next)
		done
	done
	[ "$have" -gt 0 ] && curl "${get[@]:0:${#get[@]}-1}"   # not the last --next
	local svgs=()
	for ((i = 0; i < have; i++)); do svgs+=("$T/t$i.svg"); done
	[ "$have" -gt 0 ] && ! xmllint --noout "${svgs[@]}" 2>/dev/null && { ok=0; bad="an SVG not XML"; }
	for ((i = 0; i < have; i++)); do
		has_header "$T/t$i.svg.h" 'Content-Type: image/svg+xml' || { ok=0; bad="t$i.svg type"; }
		has_header "$T/t$i.svg.h" 'Content-Security-Policy: sandbox allow-scripts' || { ok=0; bad="t$i.svg CSP"; }
		has_header "$T/t$i.svg.h" 'X-Content-Type-Options: nosniff' || { ok=0; bad="t$i.svg nosniff"; }
		is_png "$T/t$i.png" || { ok=0; bad="t$i.png not PNG"; }
		has_header "$T/t$i.png.h" 'Content-Type: image/png' || { ok=0; bad="t$i.png type"; }
		has_header "$T/t$i.folded.h" 'Content-Disposition: attachment' || { ok=0; bad="t$i.folded not a download"; }
	done
	[ $ok = 1 ] && pass "files/$name: $have SVGs (XML, sandboxed), PNGs, folded downloads" ||
		fail "files/$name: SVGs, PNGs, folded" "$bad"
	# issue 33: the subtitle names the uploaded file, not "trace"
	# (a graph with a subtitle: folded stacks say nothing of what they weigh)
	if grep -q '<text class="st"' "$T/t0.svg"; then
		check "files/$name: graphs subtitled with the uploaded file's name" \
			grep -qF "<text class=\"st\" x=\"600\" y=\"48\">$name · " "$T/t0.svg"
	fi
	# issue 33 §4: an Android capture in Android Studio's colours, with
	# the legend, as the command line draws it (serve drew flamegraph.pl's)
	if "$AFLAME" --format svg "$file" 2>/dev/null | grep -q '<g class="lg">'; then
		check "files/$name: Android's colours and legend, as the command line's" \
			grep -q '<g class="lg">' "$T/t0.svg"
	fi
	# the first row is the thread with the most time: same stacks as -t TID
	local tid
	tid=$(sed -n 's|.*<tr><td><a href="#t0">[^<]*</a></td><td>[^<]*</td><td class="n">\([0-9]*\)</td>.*|\1|p' "$T/page.html")
	if [ -n "$tid" ]; then
		"$AFLAME" -t "$tid" "$file" -o "$T/cli-t0.folded" 2>/dev/null
		check "files/$name: t0.folded = aflame-render -t $tid" cmp -s "$T/t0.folded" "$T/cli-t0.folded"
	else
		check "files/$name: t0.folded = the whole graph" cmp -s "$T/t0.folded" "$T/all.folded"
	fi
	curl -sS -D "$T/rh" -o "$T/report.html" "$URL/trace/$hash/report.html"
	check "files/$name: report sandboxed" has_header "$T/rh" 'Content-Security-Policy: sandbox allow-scripts'
	check "files/$name: report has the table" grep -q 'id="profile"' "$T/report.html"
}

# every ART trace but ffx-art-streaming.trace: the same recording as
# ffx-art-regular.trace in the other format (diff.sh checks they agree;
# serve_shared.sh uploads it), whose 52 threads would double what the
# server renders here
for f in "$DATA"/art/*.trace "$DATA"/atrace/variants.ctrace tests/serve/data/hostile.folded tests/serve/data/junk.bin; do
	[ "${f##*/}" = ffx-art-streaming.trace ] || expect_like_cli "$f"
done

# ---- hostile names stay text ----
H=$(sha256sum <tests/serve/data/hostile.folded | cut -c1-64)
P=$TMP/cli/hostile.folded
if grep -q '<script>alert\|<img src=x\|<svg onload' "$P/page.html" "$P/t0.svg" "$P/report.html"; then
	fail "hostile/names escaped" "$(grep -l '<script>alert\|<img src=x\|<svg onload' "$P/page.html" "$P/t0.svg" "$P/report.html")"
else
	pass "hostile/names escaped in the page, the SVG and the report"
fi
check "hostile/name shown as text" grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' "$P/t0.svg"

# ---- the same file twice: the same link, rendered once ----
Y=$DATA/art/yamp-legacy.trace
YH=$(sha256sum <"$Y" | cut -c1-64)
before=$(stat -c %Y.%i "$DATA_DIR/$YH/status" 2>/dev/null)
got=$(upload "$Y")
check "again/same link" test "$got" = "303 $URL/trace/$YH"
check "again/already done" grep -q '"state":"done"' <(curl -sS "$URL/trace/$YH/status")
check "again/not rendered again" test "$(stat -c %Y.%i "$DATA_DIR/$YH/status")" = "$before"
got=$(curl -sS -o /dev/null -w '%{http_code} %{redirect_url}' --data-binary "@$Y" -H 'Content-Type: application/octet-stream' "$URL/upload")
check "again/raw body: same link" test "$got" = "303 $URL/trace/$YH"

# ---- refusals ----
head -c 3500000 /dev/urandom >"$TMP/big.trace"
code=$(curl -sS -o "$TMP/413.html" -w '%{http_code}' -F "trace=@$TMP/big.trace" "$URL/upload")
check "limit/oversized form upload: 413" test "$code" = 413
check "limit/413 page says the limit" grep -q '3 MiB per upload (--max-upload)' "$TMP/413.html"
code=$(curl -sS -o /dev/null -w '%{http_code}' --data-binary "@$TMP/big.trace" -H 'Content-Type: application/octet-stream' "$URL/upload")
check "limit/oversized raw upload: 413" test "$code" = 413
code=$(curl -sS -o /dev/null -w '%{http_code}' --data-binary "@$TMP/big.trace" -H 'Transfer-Encoding: chunked' \
	-H 'Content-Type: application/octet-stream' "$URL/upload")
check "limit/oversized chunked upload (no length): 413" test "$code" = 413
: >"$TMP/empty"
code=$(curl -sS -o /dev/null -w '%{http_code}' -F "trace=@$TMP/empty" "$URL/upload")
check "refuse/empty file: 400" test "$code" = 400
code=$(curl -sS -o /dev/null -w '%{http_code}' -F "note=hello" "$URL/upload")
check "refuse/form without a file: 400" test "$code" = 400
code=$(curl -sS -o /dev/null -w '%{http_code}' --data "a=b" "$URL/upload")
check "refuse/urlencoded body: 415" test "$code" = 415
code=$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$URL/")
check "refuse/DELETE: 405" test "$code" = 405
check "refuse/nothing left in --data/tmp" test -z "$(ls -A "$DATA_DIR/tmp")"

# ---- links that must not reach anything else ----
bad_link() {
	local path=$1 want=$2 code
	code=$(curl -sS --path-as-is -o "$TMP/bad.html" -w '%{http_code}' "$URL$path")
	if [ "$code" = "$want" ] && ! grep -q 'root:' "$TMP/bad.html"; then
		pass "links/$path: $want"
	else
		fail "links/$path" "got $code, expected $want"
	fi
}
bad_link "/trace/../../etc/passwd" 400
bad_link "/trace/%2e%2e/%2e%2e/etc/passwd" 400
bad_link "/trace/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd" 400
bad_link "/trace/..%2f..%2fetc%2fpasswd" 400
bad_link "/../../etc/passwd" 404
bad_link "/trace/abc" 400
bad_link "/trace/$(echo "$YH" | tr a-f A-F)" 400
bad_link "/trace/${YH}0" 400
bad_link "/trace/${YH:1}" 400
bad_link "/trace/$YH/../../../../etc/passwd" 404
bad_link "/trace/$YH/%2e%2e/%2e%2e/%2e%2e/etc/passwd" 404
bad_link "/trace/$YH/input" 404
bad_link "/trace/$YH/index.html" 404
bad_link "/trace/$YH/t00.svg" 404
bad_link "/trace/$YH/t0.svg/" 404
bad_link "/trace/$YH/t99.svg" 404
bad_link "/trace/0000000000000000000000000000000000000000000000000000000000000000" 404
ln -s /etc/passwd "$DATA_DIR/$YH/t42.svg"
bad_link "/trace/$YH/t42.svg" 404
check "links/status JSON for an unknown hash: 404" test "$(curl -sS -o /dev/null -w '%{http_code}' \
	"$URL/trace/0000000000000000000000000000000000000000000000000000000000000000/status")" = 404

# ---- still answering; a clean stop; results survive a restart ----
check "alive/after all that" test "$(curl -sS -o /dev/null -w '%{http_code}' "$URL/")" = 200
stop_server
check "stop/SIGTERM: exit 0" test $? = 0
check "stop/says so" grep -q 'SIGTERM: stopping' "$TMP/server.err"
JH=$(sha256sum <tests/serve/data/junk.bin | cut -c1-64)
if start_server "$DATA_DIR" "$TMP/server2"; then
	check "restart/result kept" grep -q '"state":"done"' <(curl -sS "$URL/trace/$YH/status")
	check "restart/failure remembered" grep -q '"state":"failed"' <(curl -sS "$URL/trace/$JH/status")
	check "restart/page served" test "$(curl -sS -o /dev/null -w '%{http_code}' "$URL/trace/$YH")" = 200
	stop_server INT
	check "stop/SIGINT: exit 0" test $? = 0
	check "stop/SIGINT: says so" grep -q 'SIGINT: stopping' "$TMP/server2.err"
else
	fail "restart" "$(cat "$TMP/server2.err")"
fi

# ---- limits on work: threads drawn, uploads at once ----
if start_server "$TMP/data3" "$TMP/server3" --max-threads 2 --max-uploads 1; then
	got=$(upload "$Y")
	wait_done "$YH" >/dev/null
	curl -sS -o "$TMP/p3.html" "$URL/trace/$YH"
	check "budget/--max-threads 2: 6 listed, 2 drawn" grep -q '<p>6 listed, 2 drawn' "$TMP/p3.html"
	check "budget/the rest say why" grep -q 'not drawn: over the limit of threads per upload' "$TMP/p3.html"
	check "budget/no t2.svg" test "$(curl -sS -o /dev/null -w '%{http_code}' "$URL/trace/$YH/t2.svg")" = 404
	head -c 400000 /dev/urandom >"$TMP/slow.bin"
	curl -sS -o /dev/null --limit-rate 100K -F "trace=@$TMP/slow.bin" "$URL/upload" &
	slow=$!
	sleep 1
	code=$(curl -sS -o /dev/null -w '%{http_code}' -F "trace=@$DATA/art/perflib-basic.trace" "$URL/upload")
	check "busy/a second upload at once with --max-uploads 1: 503" test "$code" = 503
	wait $slow
	code=$(curl -sS -o /dev/null -w '%{http_code}' -F "trace=@$DATA/art/perflib-basic.trace" "$URL/upload")
	check "busy/then accepted" test "$code" = 303
	stop_server
else
	fail "budget/server" "$(cat "$TMP/server3.err")"
fi

# ---- stopped while rendering: the job is picked up again after a restart ----
awk 'BEGIN { srand(7); for (i = 0; i < 60000; i++) { s = "main"; d = 8 + int(rand() * 30);
	for (k = 0; k < d; k++) s = s ";f" int(rand() * rand() * 300); print s, 1 + int(rand() * 9) } }' >"$TMP/slow.folded"
SH=$(sha256sum <"$TMP/slow.folded" | cut -c1-64)
if start_server "$TMP/data4" "$TMP/server4" -j 1; then
	got=$(upload "$TMP/slow.folded")
	for _ in $(seq 100); do
		[ "$(status_state "$SH")" = running ] && break
		sleep 0.05
	done
	stop_server
	check "cut/stopped mid-render: exit 0" test $? = 0
	check "cut/no status written" test ! -e "$TMP/data4/$SH/status"
	start_server "$TMP/data4" "$TMP/server4b" -j 1
	check "cut/rendered after the restart" test "$(wait_done "$SH")" = done
	stop_server
else
	fail "cut/server" "$(cat "$TMP/server4.err")"
fi

# ---- load from a second process; the browser ----
bash tests/serve/load.sh
bash tests/serve/browser.sh
exit 0
