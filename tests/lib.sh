# lib.sh: helpers for the suites (sourced, not run).
# pass NAME / fail NAME WHY / skip NAME WHY print the lines tests/run.sh counts.
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
skip() { echo "SKIP: $1: $2"; }

# check NAME CONDITION-COMMAND...: pass if the command succeeds
check() {
	local name=$1
	shift
	if "$@" >/dev/null 2>&1; then pass "$name"; else fail "$name" "failed: $*"; fi
}

# best_cpu_seconds COMMAND...: the least CPU time (user + system, in
# seconds) of three runs of COMMAND, its output dropped (the machine is
# shared; bash's own timer, as make check installs no other)
best_cpu_seconds() {
	local TIMEFORMAT='%U %S' times=$TMP/.cpu-times
	: >"$times"
	for _ in 1 2 3; do
		{ time "$@" >/dev/null 2>&1; } 2>>"$times"
	done
	awk 'NR == 1 || $1 + $2 < best { best = $1 + $2 } END { printf "%.3f", best }' "$times"
}

# Compare a file with its expected version (or bless it).
# same_file NAME GOT EXPECTED
same_file() {
	local name=$1 got=$2 want=$3
	if [ "${AFLAME_BLESS:-}" = 1 ]; then
		mkdir -p "$(dirname "$want")"
		cp "$got" "$want"
		pass "$name (blessed)"
	elif [ ! -f "$want" ]; then
		fail "$name" "no expected file $want (run make bless)"
	elif cmp -s "$got" "$want"; then
		pass "$name"
	else
		local line
		line=$(cmp "$got" "$want" 2>/dev/null | sed -n 's/.*line \([0-9]*\).*/\1/p')
		cp "$got" "$want.actual"
		fail "$name" "differs from $want at line ${line:-?} (actual kept in $want.actual)"
	fi
}

# renders_valid NAME INPUT [ARGS...]: INPUT renders to SVG (exit 0), the
# SVG is valid XML, and a second run gives the same bytes.
renders_valid() {
	local name=$1 input=$2 out
	shift 2
	out=$TMP/$(printf '%s' "$name" | tr '/ ' '__').svg
	"$AFLAME" "$@" "$input" -o "$out" 2>"$out.err"
	local rc=$?
	if [ "$rc" -ne 0 ]; then
		fail "$name renders" "exit status $rc: $(head -1 "$out.err")"
		return
	fi
	pass "$name renders"
	if command -v xmllint >/dev/null; then
		check "$name is valid XML" xmllint --noout "$out"
	else
		skip "$name is valid XML" "xmllint not installed"
	fi
	"$AFLAME" "$@" "$input" -o "${out%.svg}.again.svg" 2>/dev/null
	check "$name is deterministic" cmp "$out" "${out%.svg}.again.svg"
}

# damage_sweep NAME READER FILE [ARGS...]: FILE cut at every offset and with
# the byte at every offset flipped. Every damaged input goes through READER's
# fuzz replay program in one process, made there in memory (`--sweep`; the
# reader and every back end; it traps if a failure gives no reason; under
# the sanitizers its leak check covers every input), and every 8th through
# the command line with ARGS (under the sanitizers, where each process costs
# 20-40x more, 16 offsets spread over the file); each must end in exit 0 or
# 1 (a message), never a crash.
damage_sweep() {
	local name=$1 reader=$2 f=$3 n bad=0 x replay stride=8
	shift 3
	replay=$(dirname "$AFLAME")/fuzz-replay-$reader
	n=$(stat -c %s "$f")
	[ -n "${AFLAME_SANITIZED:-}" ] && [ "$n" -gt 128 ] && stride=$((n / 16))
	rm -rf "$TMP/damage" && mkdir -p "$TMP/damage/cli"
	python3 - "$f" "$TMP/damage/cli" "$stride" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
stride = int(sys.argv[3])
for i in range(0, len(d), stride):
    f = bytearray(d)
    f[i] ^= 0xff
    for kind, data in (('cut', d[:i]), ('flip', bytes(f))):
        open('%s/%s-%d' % (sys.argv[2], kind, i), 'wb').write(data)
PY
	for x in "$TMP"/damage/cli/*; do
		"$AFLAME" --format folded "$@" "$x" >/dev/null 2>&1
		[ $? -le 1 ] || bad=$((bad + 1))
	done
	if [ ! -x "$replay" ]; then
		fail "$name: damage sweep" "$replay is not built"
	elif ! "$replay" --sweep "$f" >"$TMP/damage/out" 2>&1 ||
		! grep -qxF "PASS: fuzz replay $f ($((2 * n)) inputs)" "$TMP/damage/out"; then
		bad=$((bad + 1))
		tail -3 "$TMP/damage/out" >&2
	fi
	check "$name: $n cuts and $n flips end in exit 0 or 1" test "$bad" -eq 0
}

DATA=tests/data
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
