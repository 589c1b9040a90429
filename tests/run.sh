#!/usr/bin/env bash
# Runs the test suites. Each suite prints one line per check: "PASS: name",
# "FAIL: name: why" or "SKIP: name: why". This script shows failures, skips
# and a count per suite, and ends with the closing line "N passed, N failed".
#   tests/run.sh [--fast] [-j N] [--bless-only]
#   --fast        the inner-loop tier: suites whose first lines do not say
#                 "# tier: full" (those need a browser, servers or minutes)
#   -j N          run N suites at once (default 1)
#   AFLAME        the binary under test (build/aflame-render)
#   UNIT          the unit-test binary (build/unit-tests; ':' for none)
#   AFLAME_BLESS  1: rewrite expected outputs instead of comparing
set -u
cd "$(dirname "$0")/.."
export AFLAME=${AFLAME:-build/aflame-render}
export AFLAME=$(realpath "$AFLAME")
UNIT=${UNIT:-build/unit-tests}
export LC_ALL=C

fast=0 jobs=1 bless_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--fast) fast=1 ;;
	-j) jobs=$2; shift ;;
	--bless-only) bless_only=1 ;;
	*) echo "usage: tests/run.sh [--fast] [-j N] [--bless-only]" >&2; exit 2 ;;
	esac
	shift
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
names=()

# start NAME COMMAND...: run a suite in the background, at most $jobs at once
start() {
	local name=$1
	shift
	names+=("$name")
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	(
		s=$SECONDS
		"$@" >"$out/$name.out" 2>&1
		echo "$? $((SECONDS - s))" >"$out/$name.rc"
	) &
}

# report NAME: the suite's counts, its failures and skips
report() {
	local name=$1 rc secs pass fail skip
	read -r rc secs <"$out/$name.rc"
	pass=$(grep -c '^PASS:' "$out/$name.out")
	fail=$(grep -c '^FAIL:' "$out/$name.out")
	skip=$(grep -c '^SKIP:' "$out/$name.out")
	if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		echo "FAIL: $name: suite exited with status $rc" >>"$out/$name.out"
		fail=1
		tail -20 "$out/$name.out"
	fi
	printf '%-12s %4d passed, %d failed, %d skipped  (%ds)\n' "$name" "$pass" "$fail" "$skip" "$secs"
	grep -E '^(FAIL|SKIP):' "$out/$name.out" | sed 's/^/    /'
	# a failing unit test explains itself on the lines before its FAIL
	[ "$fail" -gt 0 ] && grep -E '^    ' "$out/$name.out" | head -40
	return 0
}

full_tier() { head -5 "$1" | grep -q '^# tier: full'; }

[ "$bless_only" = 1 ] || [ "$UNIT" = ":" ] || start unit "$UNIT"
for s in tests/suites/*.sh; do
	[ "$fast" = 1 ] && full_tier "$s" && continue
	start "$(basename "$s" .sh)" bash "$s"
done
[ -f tests/browser/run.sh ] && [ "$bless_only" = 0 ] && [ "$fast" = 0 ] && [ -z "${AFLAME_SANITIZED:-}" ] &&
	start browser bash tests/browser/run.sh
wait

for name in "${names[@]}"; do
	report "$name"
done
passed=$(cat "$out"/*.out | grep -c '^PASS:')
failed=$(cat "$out"/*.out | grep -c '^FAIL:')
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
