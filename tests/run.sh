#!/usr/bin/env bash
# Runs every test suite. Each suite prints one line per check: "PASS: name",
# "FAIL: name: why" or "SKIP: name: why". This script shows failures, skips
# and a count per suite, and ends with the closing line "N passed, N failed".
#   AFLAME        the binary under test (build/aflame-render)
#   UNIT          the unit-test binary (build/unit-tests)
#   AFLAME_BLESS  1: rewrite expected outputs instead of comparing
set -u
cd "$(dirname "$0")/.."
export AFLAME=${AFLAME:-build/aflame-render}
export AFLAME=$(realpath "$AFLAME")
UNIT=${UNIT:-build/unit-tests}
export LC_ALL=C

all=$(mktemp)
trap 'rm -f "$all"' EXIT

suite() {
	local name=$1
	shift
	local out start=$SECONDS
	out=$("$@" 2>&1)
	local rc=$?
	printf '%s\n' "$out" >>"$all"
	local pass fail skip
	pass=$(grep -c '^PASS:' <<<"$out")
	fail=$(grep -c '^FAIL:' <<<"$out")
	skip=$(grep -c '^SKIP:' <<<"$out")
	if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
		echo "FAIL: $name: suite exited with status $rc" >>"$all"
		fail=1
		printf '%s\n' "$out" | tail -20
	fi
	printf '%-12s %4d passed, %d failed, %d skipped  (%ds)\n' "$name" "$pass" "$fail" "$skip" $((SECONDS - start))
	grep -E '^(FAIL|SKIP):' <<<"$out" | sed 's/^/    /'
	# a failing unit test explains itself on the lines before its FAIL
	[ "$fail" -gt 0 ] && grep -E '^    ' <<<"$out" | head -40
	return 0
}

if [ "${1:-}" != "--bless-only" ]; then
	[ "$UNIT" = ":" ] || suite unit "$UNIT"
fi
for s in tests/suites/*.sh; do
	suite "$(basename "$s" .sh)" bash "$s"
done
[ -f tests/browser/run.sh ] && [ "${1:-}" != "--bless-only" ] && [ -z "${AFLAME_SANITIZED:-}" ] &&
	suite browser bash tests/browser/run.sh

passed=$(grep -c '^PASS:' "$all")
failed=$(grep -c '^FAIL:' "$all")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
