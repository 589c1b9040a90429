#!/usr/bin/env bash
# Runs the test suites. Each suite prints one line per check: "PASS: name",
# "FAIL: name: why" or "SKIP: name: why". This script shows failures, skips
# and a count per suite, and ends with the closing line "N passed, N failed".
#   tests/run.sh [--fast] [-j N] [--sanitized DIR] [--no-plain] [--bless-only]
#   --fast        the inner-loop tier: suites whose first lines do not say
#                 "# tier: full" (those need a browser, servers or minutes)
#   -j N          run N suites at once (default 1)
#   --sanitized DIR  also the fast tier again on DIR's binaries (built with
#                 SANITIZE=address,undefined) under the sanitizers' options,
#                 in the same queue; those suites are named san/NAME (a
#                 suite whose first lines say "# sanitized: no" is left out)
#   --no-plain    only the sanitized run
#   AFLAME        the binary under test (build/aflame-render)
#   UNIT          the unit-test binary (build/unit-tests; ':' for none)
#   AFLAME_BLESS  1: rewrite expected outputs instead of comparing
# The full tier's suites wait much of their time (on servers, clients,
# a browser, clocks), so they run two at a time in a lane of their own
# beside the -j N others.
set -u
cd "$(dirname "$0")/.."
export AFLAME=${AFLAME:-build/aflame-render}
export AFLAME=$(realpath "$AFLAME")
UNIT=${UNIT:-build/unit-tests}
export LC_ALL=C

fast=0 jobs=1 bless_only=0 san_dir="" plain=1
while [ $# -gt 0 ]; do
	case $1 in
	--fast) fast=1 ;;
	-j) jobs=$2; shift ;;
	--sanitized) san_dir=$(realpath "$2"); shift ;;
	--no-plain) plain=0 ;;
	--bless-only) bless_only=1 ;;
	*) echo "usage: tests/run.sh [--fast] [-j N] [--sanitized DIR] [--no-plain] [--bless-only]" >&2; exit 2 ;;
	esac
	shift
done

# the sanitizers' options, for every program a san/ suite runs
SAN_ENV=(ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
	"LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0" AFLAME_SANITIZED=1
	"AFLAME=$san_dir/aflame-render" "O=$san_dir")

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# python3 found once: a version manager's shim (pyenv's is a shell script
# that runs pyenv) costs about half a second of CPU per call, and the
# suites call python3 hundreds of times. Run with -S: the tests' Python
# uses the standard library only, and importing site-packages (their .pth
# files) costs an interpreter 10-60 ms a start.
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ]; then
	mkdir "$out/bin" && printf '#!/bin/sh\nexec %q -S "$@"\n' "$py" >"$out/bin/python3" &&
		chmod +x "$out/bin/python3" && export PATH=$out/bin:$PATH
fi
names=() queue=() slow_queue=() pids=() slow_pids=()

# enqueue NAME COMMAND...: a suite for the -j N lane (the slow lane when
# NAME is a full-tier suite); its words are kept in one string
enqueue() {
	local name=$1 item
	shift
	names+=("$name")
	printf -v item '%q ' "$name" "$@"
	case $name in
	slow:*) slow_queue+=("$item") ;;
	*) queue+=("$item") ;;
	esac
}

# launch ITEM: run the suite in the background; its output, then its exit
# status, seconds and CPU seconds (its processes' user + system) in $out
launch() {
	eval "set -- $1"
	local name=${1#slow:}
	shift
	(
		s=$SECONDS
		"$@" >"$out/${name//\//-}.out" 2>&1
		rc=$?
		times >"$out/${name//\//-}.times"   # a builtin: no pipe, no subshell
		cpu=$(awk 'END { for (i = 1; i <= 2; i++) { split(last[i], t, /[ms]/); c += t[1] * 60 + t[2] }
			printf "%d", c + 0.5 } { last[1] = $1; last[2] = $2 }' "$out/${name//\//-}.times")
		echo "$rc $((SECONDS - s)) $cpu" >"$out/${name//\//-}.rc"
	) &
	LAST_PID=$!
}

# alive PID...: how many of them are still running jobs of this shell
alive() {
	local n=0 p running
	running=" $(jobs -rp | tr '\n' ' ') "
	for p in "$@"; do [[ $running == *" $p "* ]] && n=$((n + 1)); done
	echo "$n"
}

# dispatch: start suites while their lane has room, in queue order
dispatch() {
	while [ ${#queue[@]} -gt 0 ] || [ ${#slow_queue[@]} -gt 0 ]; do
		if [ ${#slow_queue[@]} -gt 0 ] && [ "$(alive "${slow_pids[@]}")" -lt 2 ]; then
			launch "${slow_queue[0]}"
			slow_pids+=("$LAST_PID") slow_queue=("${slow_queue[@]:1}")
		elif [ ${#queue[@]} -gt 0 ] && [ "$(alive "${pids[@]}")" -lt "$jobs" ]; then
			launch "${queue[0]}"
			pids+=("$LAST_PID") queue=("${queue[@]:1}")
		else
			wait -n
		fi
	done
	wait
}

# report NAME: the suite's counts, its failures and skips
report() {
	local name=${1#slow:} file rc secs cpu pass fail skip
	file=$out/${name//\//-}
	read -r rc secs cpu <"$file.rc"
	pass=$(grep -c '^PASS:' "$file.out")
	fail=$(grep -c '^FAIL:' "$file.out")
	skip=$(grep -c '^SKIP:' "$file.out")
	if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		echo "FAIL: $name: suite exited with status $rc" >>"$file.out"
		fail=1
		tail -20 "$file.out"
	fi
	printf '%-16s %4d passed, %d failed, %d skipped  (%ds, %d CPU s)\n' "$name" "$pass" "$fail" "$skip" "$secs" "$cpu"
	grep -E '^(FAIL|SKIP):' "$file.out" | sed 's/^/    /'
	# a failing unit test explains itself on the lines before its FAIL
	[ "$fail" -gt 0 ] && grep -E '^    ' "$file.out" | head -40
	return 0
}

full_tier() { head -5 "$1" | grep -q '^# tier: full'; }
# "# sanitized: no": what the sanitizers cannot change (the module graph)
plain_only() { head -5 "$1" | grep -q '^# sanitized: no'; }
# the suites, those whose first lines say "# cost: SECONDS" (a rough figure
# on an idle machine) first, costliest first, so no long one starts last
suites() {
	local s
	for s in tests/suites/*.sh; do
		echo "$(head -5 "$s" | sed -n 's/^# cost: \([0-9]*\).*/\1/p' | grep . || echo 0) $s"
	done | sort -k1,1nr -k2,2 | cut -d' ' -f2
}

# the sanitized run first: its suites take longest
if [ -n "$san_dir" ]; then
	[ "$bless_only" = 1 ] || enqueue san/unit env "${SAN_ENV[@]}" "$san_dir/unit-tests"
	for s in $(suites); do
		full_tier "$s" || plain_only "$s" || enqueue "san/$(basename "$s" .sh)" env "${SAN_ENV[@]}" bash "$s"
	done
fi
if [ "$plain" = 1 ]; then
	[ "$bless_only" = 1 ] || [ "$UNIT" = ":" ] || enqueue unit "$UNIT"
	# the browser first: the longest of its lane
	[ -f tests/browser/run.sh ] && [ "$bless_only" = 0 ] && [ "$fast" = 0 ] && [ -z "${AFLAME_SANITIZED:-}" ] &&
		enqueue slow:browser bash tests/browser/run.sh
	for s in $(suites); do
		if full_tier "$s"; then
			[ "$fast" = 1 ] || enqueue "slow:$(basename "$s" .sh)" bash "$s"
		else
			enqueue "$(basename "$s" .sh)" bash "$s"
		fi
	done
fi
dispatch

for name in "${names[@]}"; do
	report "$name"
done
passed=$(cat "$out"/*.out | grep -c '^PASS:')
failed=$(cat "$out"/*.out | grep -c '^FAIL:')
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
