#!/usr/bin/env bash
# bench/browser.sh (part of make bench): how fast the interactive SVG is in a
# real browser. Renders folded inputs of about 20k and 200k frames, opens
# each in headless Chromium (tests/browser/run.sh, real time, no virtual
# clock) and prints the time from navigation until the graph's script has
# run (load), a zoom into a large frame with the redraw forced (zoom), a
# search (search) and SVG bytes per drawn frame. Targets at 200k frames
# (issue 19): load <= 0.5 s, zoom <= 50 ms, search <= 20 ms, <= 110 B/frame
# (async-profiler's canvas page: load 1.1 s, zoom 0.13 s).
# With FLAMEGRAPH_PL=/path/to/flamegraph.pl, its SVGs of the same inputs are
# timed the same way (load until its onload handler ran, a click zoom, its
# search()). Not a test: figures depend on the machine; run it alone.
#   O=build  CHROMIUM=chromium  RUNS=3 (median)
set -euo pipefail
cd "$(dirname "$0")/.."
O=${O:-build}
AF=$(realpath "$O/aflame-render")
chromium=${CHROMIUM:-chromium}
RUNS=${RUNS:-3}
if ! command -v "$chromium" >/dev/null 2>&1; then
	echo "browser benchmark skipped: $chromium not installed"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aflame-bench-browser.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# gen STACKS: a 4-ary tree 7 levels deep, then a 40-frame tail per stack
# (about 41 frames per stack)
gen() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			s = "all_threads"; v = i
			for (d = 0; d < 7; d++) { s = s ";com.example.p" d ".C" (v % 4) ".run"; v = int(v / 4) }
			for (d = 0; d < 40; d++) s = s ";com.example.tail.K" ((i * 7 + d * 13) % 97) ".m" d
			print s, 1000
		}
	}'
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# ours FILE.svg: load zoom search (ms), medians of RUNS
ours() {
	local svg=$1 l=() z=() s=() out
	for _ in $(seq "$RUNS"); do
		out=$(bash tests/browser/run.sh "$svg" 2>&1 || true)
		l+=("$(sed -n 's/^INFO: .*frames drawn, \([0-9]*\) ms from navigation.*/\1/p' <<<"$out")")
		z+=("$(sed -n 's/^INFO: .*zoom into .* took \([0-9]*\) ms/\1/p' <<<"$out")")
		s+=("$(sed -n 's/^INFO: .*search took \([0-9]*\) ms/\1/p' <<<"$out")")
	done
	echo "$(printf '%s\n' "${l[@]}" | median) $(printf '%s\n' "${z[@]}" | median) $(printf '%s\n' "${s[@]}" | median)"
}

# theirs FILE.svg: the same for flamegraph.pl's SVG
theirs() {
	local svg=$1 copy=$tmp/pl-t.svg l=() z=() s=() out
	{
		sed '$d' "$svg"
		cat <<'EOF'
<script type="text/ecmascript"><![CDATA[
window.addEventListener("load", function () {
	var r = [], t0 = performance.now(), gs = document.getElementById("frames").children, best = null, bw = 0;
	for (var i = 0; i < gs.length; i++) {
		var w = parseFloat(gs[i].getElementsByTagName("rect")[0].getAttribute("width"));
		if (w < 1180 * 0.7 && w > bw) { bw = w; best = gs[i]; }
	}
	r.push("load " + Math.round(t0));
	var s = performance.now();
	best.getElementsByTagName("rect")[0].dispatchEvent(new MouseEvent("click", { bubbles: true, view: window }));
	document.documentElement.getBoundingClientRect();
	r.push("zoom " + Math.round(performance.now() - s));
	s = performance.now();
	search("^com.example.tail.K1[.]");
	document.documentElement.getBoundingClientRect();
	r.push("search " + Math.round(performance.now() - s));
	var e = document.createElementNS("http://www.w3.org/2000/svg", "desc");
	e.setAttribute("id", "aft-out");
	e.textContent = "AFTPL " + r.join(" ");
	document.documentElement.appendChild(e);
});
]]></script>
</svg>
EOF
	} >"$copy"
	for _ in $(seq "$RUNS"); do
		out=$(timeout 300 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$(mktemp -d "$tmp/profile.XXXXXX")" --window-size=1400,1000 \
			--dump-dom "file://$copy" 2>/dev/null | grep -o 'AFTPL [^<]*' || true)
		l+=("$(sed -n 's/.*load \([0-9]*\).*/\1/p' <<<"$out")")
		z+=("$(sed -n 's/.*zoom \([0-9]*\).*/\1/p' <<<"$out")")
		s+=("$(sed -n 's/.*search \([0-9]*\).*/\1/p' <<<"$out")")
	done
	echo "$(printf '%s\n' "${l[@]}" | median) $(printf '%s\n' "${z[@]}" | median) $(printf '%s\n' "${s[@]}" | median)"
}

printf '%-28s %9s %9s %9s %9s %11s %7s\n' "browser: graph" frames "load ms" "zoom ms" "search ms" "SVG bytes" "B/frame"
for stacks in 480 4800; do
	gen "$stacks" >"$tmp/in.folded"
	"$AF" "$tmp/in.folded" -o "$tmp/ours.svg"
	frames=$("$AF" --format frames "$tmp/in.folded" | grep -vc '^#')
	bytes=$(stat -c %s "$tmp/ours.svg")
	read -r l z s < <(ours "$tmp/ours.svg")
	printf '%-28s %9s %9s %9s %9s %11s %7s\n' "aflame-render ${stacks} stacks" "$frames" "$l" "$z" "$s" "$bytes" \
		"$(awk -v b="$bytes" -v f="$frames" 'BEGIN {printf "%.1f", b / f}')"
	if [ -n "${FLAMEGRAPH_PL:-}" ]; then
		perl "$FLAMEGRAPH_PL" "$tmp/in.folded" >"$tmp/pl.svg" 2>/dev/null
		pframes=$(grep -c '<rect x=' "$tmp/pl.svg")
		pframes=$((pframes - 1))   # the background
		pbytes=$(stat -c %s "$tmp/pl.svg")
		read -r l z s < <(theirs "$tmp/pl.svg")
		printf '%-28s %9s %9s %9s %9s %11s %7s\n' "flamegraph.pl ${stacks} stacks" "$pframes" "$l" "$z" "$s" \
			"$pbytes" "$(awk -v b="$pbytes" -v f="$pframes" 'BEGIN {printf "%.1f", b / f}')"
	fi
done
echo "targets at 200k frames (issue 19): load <= 500 ms, zoom <= 50 ms, search <= 20 ms, <= 110 B/frame"
