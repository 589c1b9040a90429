#!/bin/bash
# tests/serve/load.sh: `aflame-render serve` under load from a second process
# on loopback. Two waves of 20 concurrent curl uploads each (ART traces,
# atrace, large generated folded stacks, junk, a truncated trace, the same
# file twice at once), every client bounded by --max-time, the whole run by
# the waits below (12 uploads and smaller files under sanitizers). Checks that every good upload gets its graphs and every
# bad one its error page, that the server answers while it renders, and that
# its peak memory (VmHWM in /proc/<pid>/status) does not grow from the first
# wave to the second: it is bounded by the work in flight, not by what was
# uploaded before. Prints PASS:/FAIL: lines and INFO: lines with the figures.
#   LOAD_WAVE   uploads per wave (default 20)
. tests/lib.sh
. tests/serve/lib.sh
trap 'stop_server; rm -rf "$TMP"' EXIT
SERVER_PID=
N=${LOAD_WAVE:-20}
BIG=20000      # lines of the larger generated folded files (about 9 MB)
if [ -n "${AFLAME_SANITIZED:-}" ]; then   # about 10 times slower
	N=${LOAD_WAVE:-12}
	BIG=8000
fi

command -v curl >/dev/null || { skip "load" "curl not installed"; exit 0; }

# folded FILE SEED LINES: deterministic stacks, 8-40 frames deep over 400 names
folded() {
	awk -v seed="$2" -v n="$3" 'BEGIN {
		srand(seed);
		for (i = 0; i < n; i++) {
			d = 8 + int(rand() * 32); s = "main";
			for (k = 0; k < d; k++) s = s ";com.example.m" int(rand() * rand() * 400) "()";
			print s, 1 + int(rand() * 50);
		}
	}' >"$1"
}

# make_wave W: the wave's files in $TMP/wW, listed in $TMP/wW/list as
# "good|bad FILE"; every file but the deliberate duplicate is new to the server
make_wave() {
	local w=$1 d=$TMP/w$1 i=0 f
	mkdir -p "$d"
	: >"$d/list"
	for f in "$DATA"/art/ffx-art-regular.trace "$DATA"/art/ffx-art-streaming.trace \
		"$DATA"/art/perflib-basic.trace "$DATA"/art/yamp-legacy.trace "$DATA"/atrace/variants.ctrace; do
		# a trailing comment line makes the bytes new and reads the same
		cp "$f" "$d/${f##*/}"
		[ "$w" = 1 ] || printf '\n' >>"$d/${f##*/}"
		"$AFLAME" "$d/${f##*/}" -o /dev/null 2>/dev/null &&
			echo "good $d/${f##*/}" >>"$d/list"
	done
	while [ "$(wc -l <"$d/list")" -lt $((N - 6)) ]; do
		i=$((i + 1))
		folded "$d/stacks$i.folded" "$((w * 100 + i))" $((i % 3 == 0 ? BIG : BIG / 8))
		echo "good $d/stacks$i.folded" >>"$d/list"
	done
	head -c 200000 /dev/urandom >"$d/junk.bin"
	head -c 700 "$DATA"/art/yamp-legacy.trace >"$d/cut.trace"
	printf '\x89PNG\r\n\x1a\n%s' "$w" >"$d/picture.png"
	printf 'not;a;stack\nplain words %s\n' "$w" >"$d/words.txt"
	cp "$DATA"/art/perflib-header.trace "$d/header-$w.trace"
	printf '\n%s' "$w" >>"$d/header-$w.trace"
	for f in junk.bin cut.trace picture.png words.txt header-$w.trace; do
		"$AFLAME" "$d/$f" -o /dev/null 2>/dev/null && echo "good $d/$f" >>"$d/list" ||
			echo "bad $d/$f" >>"$d/list"
	done
	# the same new file twice at once: one render, one link
	echo "good $d/stacks1.folded" >>"$d/list"
	head -n "$N" "$d/list" >"$d/list.n" && mv "$d/list.n" "$d/list"
}

# run_wave W: all uploads at once, then every result checked
run_wave() {
	local w=$1 d=$TMP/w$1 k=0 kind f
	local t0=$SECONDS pids=()
	while read -r kind f; do
		k=$((k + 1))
		curl -sS --max-time 120 -o /dev/null -w '%{http_code} %{redirect_url}\n' -F "trace=@$f" \
			"$URL/upload" >"$d/r$k" 2>&1 &
		pids+=($!)
	done <"$d/list"
	# meanwhile the server answers other requests promptly
	local slow=0 worst=0 ms
	for _ in $(seq 10); do
		ms=$(curl -sS --max-time 10 -o /dev/null -w '%{time_total}' "$URL/" | awk '{printf "%d", $1 * 1000}')
		[ "${ms:-99999}" -gt "$worst" ] && worst=$ms
		[ "${ms:-99999}" -gt 2000 ] && slow=$((slow + 1))
		sleep 0.2
	done
	wait "${pids[@]}"   # the clients only: the server is a child too
	check "load/wave $w: GET / while uploading and rendering (slowest ${worst} ms)" test $slow = 0
	local ok=0 bad=0 why= get=() r hash state code
	# each upload's state once it is final, then its page and first SVG,
	# all in one client (a curl process costs 50 ms of CPU)
	k=0
	while read -r kind f; do
		k=$((k + 1))
		r=$(<"$d/r$k")
		hash=$(sha256sum <"$f")
		hash=${hash:0:64}
		echo "$hash" >"$d/hash$k"
		if [ "$r" != "303 $URL/trace/$hash" ]; then
			why="$why ${f##*/}: '$r';"
			continue
		fi
		wait_done "$hash" 300 >"$d/state$k"
		get+=(--next -sS --max-time 30 -o "$d/p$k" -w "$k %{http_code}\n" "$URL/trace/$hash"
			--next -sS --max-time 30 -o "$d/s$k" "$URL/trace/$hash/t0.svg")
	done <"$d/list"
	: >"$d/codes"
	[ ${#get[@]} -gt 0 ] && curl "${get[@]:1}" >"$d/codes"
	local -A codes=()
	while read -r k code; do codes[$k]=$code; done <"$d/codes"
	k=0
	while read -r kind f; do
		k=$((k + 1))
		[ -e "$d/state$k" ] || continue
		hash=$(<"$d/hash$k") state=$(<"$d/state$k")
		code=${codes[$k]:-}
		if [ "$kind" = good ] && [ "$state" = done ] && [ "$code" = 200 ] &&
			grep -q "src=\"/trace/$hash/t0.svg\"" "$d/p$k" && xmllint --noout "$d/s$k" 2>/dev/null; then
			ok=$((ok + 1))
		elif [ "$kind" = bad ] && [ "$state" = failed ] && [ "$code" = 422 ] &&
			grep -q '<p class="msg">uploaded file[:]' "$d/p$k"; then
			bad=$((bad + 1))
		else
			why="$why ${f##*/}: $kind but $state/$code;"
		fi
	done <"$d/list"
	local goods bads
	goods=$(grep -c '^good' "$d/list")
	bads=$(grep -c '^bad' "$d/list")
	echo "INFO: load: wave $w: $N uploads ($goods good, $bads bad) answered and rendered in $((SECONDS - t0)) s"
	if [ -z "$why" ]; then
		pass "load/wave $w: $ok good uploads have their graphs, $bad bad ones their error page"
	else
		fail "load/wave $w: every upload answered" "$why"
	fi
}

make_wave 1
make_wave 2
if ! start_server "$TMP/data" "$TMP/server" -j 2 --max-uploads 32; then
	fail "load/server starts" "$(cat "$TMP/server.err")"
	exit 0
fi
hwm0=$(vm VmHWM)
run_wave 1
hwm1=$(vm VmHWM)
rss1=$(vm VmRSS)
run_wave 2
hwm2=$(vm VmHWM)
rss2=$(vm VmRSS)
echo "INFO: load: server VmHWM idle ${hwm0} KiB, after wave 1 ${hwm1} KiB, after wave 2 ${hwm2} KiB; VmRSS after the waves ${rss1}, ${rss2} KiB"
if [ -n "${AFLAME_SANITIZED:-}" ]; then
	skip "load/memory bounded" "sanitizer build (its allocator keeps freed memory in quarantine)"
elif [ "$hwm2" -le $((hwm1 + hwm1 / 4 + 16384)) ]; then
	pass "load/memory bounded: peak ${hwm1} KiB after wave 1, ${hwm2} KiB after wave 2"
else
	fail "load/memory bounded" "peak grew from ${hwm1} KiB to ${hwm2} KiB in a wave of the same size"
fi
check "load/nothing left in --data/tmp" test -z "$(ls -A "$TMP/data/tmp")"
stop_server
check "load/clean stop after the load" test $? = 0
exit 0
