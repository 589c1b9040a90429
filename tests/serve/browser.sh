#!/bin/bash
# tests/serve/browser.sh: the upload form and a result in headless Chromium.
# The test page (browser.js in a small HTML page) is served by python3's
# http.server on another loopback port and holds the server's pages in an
# iframe; Chromium runs without its same-origin checks (test profile only),
# so the script can drop a file on the form, choose one with the file input
# and press Upload, follow the redirect and the progress page to the result,
# and click into a graph. (A file:// page cannot reach into an http frame
# even then, hence the second server.) SKIPs without chromium, curl or
# python3, and under sanitizers (as tests/browser does).
. tests/lib.sh
. tests/serve/lib.sh
PY_PID=
trap 'stop_server; [ -n "$PY_PID" ] && kill "$PY_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
SERVER_PID=
chromium=${CHROMIUM:-chromium}

for tool in "$chromium" curl python3; do
	command -v "$tool" >/dev/null || { skip "browser/serve" "$tool not installed"; exit 0; }
done
[ -n "${AFLAME_SANITIZED:-}" ] && { skip "browser/serve" "not run under sanitizers"; exit 0; }

if ! start_server "$TMP/data" "$TMP/server"; then
	fail "browser/server starts" "$(cat "$TMP/server.err")"
	exit 0
fi
mkdir -p "$TMP/www"
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$TMP/www" >"$TMP/py.out" 2>&1 &
PY_PID=$!
PAGE=
for _ in $(seq 100); do
	PAGE=$(sed -n 's|.*(\(http://127\.0\.0\.1:[0-9][0-9]*/\)).*|\1|p' "$TMP/py.out")
	[ -n "$PAGE" ] && break
	sleep 0.1
done
[ -n "$PAGE" ] || { fail "browser/test page server starts" "$(cat "$TMP/py.out")"; exit 0; }

# spec NAME FILE THREADS: one file as the driver's CFG entry
spec() {
	printf '{name:"%s",hash:"%s",threads:%s,b64:"%s"}' "$1" "$(sha256sum <"$2" | cut -c1-64)" "$3" \
		"$(base64 -w0 <"$2")"
}
# the command line's per-thread index of the same trace, on the test page's
# server: 6 threads, 3 with weight
"$AFLAME" --per-thread "$TMP/www/idx" --format svg "$DATA/art/yamp-legacy.trace" 2>/dev/null
index=$(cd "$TMP/www/idx" && printf '{url:"idx/index.html",threads:6,drawn:3,svgs:[%s]}' \
	"$(ls *.svg | sed 's/.*/"&"/' | paste -sd,)")
{
	printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>serve driver</title></head><body>\n'
	printf '<pre id="out">AFT-BEGIN\n</pre>\n'
	printf '<iframe id="app" width="1300" height="900"></iframe>\n<script>\n'
	printf 'var CFG={app:"%s",drop:%s,pick:%s,index:%s};\n' "$URL" \
		"$(spec yamp-legacy.trace "$DATA/art/yamp-legacy.trace" 6)" \
		"$(spec hostile.folded tests/serve/data/hostile.folded 1)" "$index"
	cat tests/serve/browser.js
	printf '</script>\n</body></html>\n'
} >"$TMP/www/t.html"

timeout 300 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$(mktemp -d "$TMP/profile.XXXXXX")" --window-size=1400,1000 \
	--disable-web-security --disable-site-isolation-trials \
	--disable-features=IsolateOrigins,site-per-process \
	--virtual-time-budget=100000000 --dump-dom "${PAGE}t.html" >"$TMP/dom" 2>"$TMP/chromium.err"
sed -n '/<pre id="out">AFT-BEGIN$/,/<\/pre>/p' "$TMP/dom" |
	sed -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&quot;/"/g' -e "s/&#39;/'/g" -e 's/&amp;/\&/g' >"$TMP/lines"
grep -E '^(PASS|FAIL): ' "$TMP/lines"
grep -q '^END' "$TMP/lines" || fail "browser/driver finished" "no END line ($(grep -c . "$TMP/dom") lines of DOM)"
exit 0
