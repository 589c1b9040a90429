# tier: full
# scaling.sh: inputs made to take time that grows faster than they do
# (issue 36) take time in proportion: the instructions (valgrind's callgrind)
# one run executes at 16 times the size, less those of a run of size 1 (the
# program's start and fixed costs), over the same at 1 times, stay near 16
# (quadratic code gave 57 to 95 here). Needs valgrind (TEST_PACKAGES).
# --diff (issue 36 items 5, 6) and the perf script reader (issue 35).
. tests/lib.sh
command -v valgrind >/dev/null || { skip "scaling" "valgrind not installed"; exit 0; }

# gen KIND N SIDE: atrace text. band: a stack f0..f(N-1), each level with
# self time, and in the first run a call to "leaf" at every level (removed
# in the second: N removed calls below callers N deep). threads: N threads
# of one slice each.
gen() {
	python3 - "$@" <<'PY'
import sys
kind, n, side = sys.argv[1], int(sys.argv[2]), sys.argv[3]
out = ['# tracer: nop']
t = [1000000]
def ev(pid, tid, what):
    t[0] += 1
    out.append('  app-%d (%d) [000] ...1 %d.%06d: tracing_mark_write: %s'
               % (tid, pid, t[0] // 1000000, t[0] % 1000000, what))
if kind == 'band':
    for i in range(n):
        ev(100, 100, 'B|100|f%d' % i)
        t[0] += 5
        if side == 'before':
            ev(100, 100, 'B|100|leaf')
            ev(100, 100, 'E|100')
    for i in range(n):
        ev(100, 100, 'E|100')
else:
    for i in range(n):
        ev(100, 1000 + i, 'B|100|work')
        ev(100, 1000 + i, 'E|100')
print('\n'.join(out))
PY
}

# instructions ARGS...: what one run of aflame-render ARGS executes
instructions() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$AFLAME" "$@" 2>&1 >/dev/null |
		sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

# scale NAME KIND N: the ratio for --diff of gen KIND at 1, N and 16 N
scale() {
	local name=$1 kind=$2 n=$3 k i0 i1 i16
	for k in 1 "$n" $((16 * n)); do
		gen "$kind" "$k" before >"$TMP/b$k.txt"
		gen "$kind" "$k" after >"$TMP/a$k.txt"
	done
	i0=$(instructions --diff "$TMP/b1.txt" "$TMP/a1.txt" -o "$TMP/x.svg")
	i1=$(instructions --diff "$TMP/b$n.txt" "$TMP/a$n.txt" -o "$TMP/x.svg")
	i16=$(instructions --diff "$TMP/b$((16 * n)).txt" "$TMP/a$((16 * n)).txt" -o "$TMP/x.svg")
	local r
	r=$(awk -v a="$i0" -v b="$i1" -v c="$i16" 'BEGIN {printf "%.1f", (c - a) / (b - a)}')
	check "scaling/$name: 16x the input, ${r}x the instructions ($i1 -> $i16, $i0 at size 1)" \
		awk -v r="$r" 'BEGIN { exit !(r > 0 && r <= 20) }'
}

# issue 36 item 5: each removed call walked all its callers (95x at 16x)
scale "--diff, removed calls below a deep stack" band 250
# issue 36 item 6: threads were paired by a scan of the other run's (57x)
scale "--diff, threads paired by name" threads 1000

# the summary of the removed work stays one short line however deep
gen band 4000 before >"$TMP/deep-b.txt"
gen band 4000 after >"$TMP/deep-a.txt"
"$AFLAME" --diff "$TMP/deep-b.txt" "$TMP/deep-a.txt" -o "$TMP/x.svg" 2>"$TMP/err"
check "scaling/--diff summary of a 4000-deep removed call: one line under 600 bytes ($(wc -c <"$TMP/err") bytes)" \
	sh -c "test \$(wc -l <'$TMP/err') -eq 1 && test \$(wc -c <'$TMP/err') -lt 600"
check "scaling/--diff summary names the removed call and says how many callers it leaves out" \
	grep -q "the largest: ([0-9]* callers);f3998;f3999;leaf (1 µs)" "$TMP/err"

# perf script text (issue 35): threads (each in its own process), one deep
# stack of distinct frames, and samples of ever new event types
genps() {
	python3 - "$@" <<'PY'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
o = []
if kind == 'threads':
    for i in range(n):
        o += ['t%d %d/%d [000] 1.%06d: 1 cycles:' % (i, 100000 + i, 200000 + i, i % 1000000),
              '\t%16x f%d (/bin/x)' % (0x400000 + i, i), '']
elif kind == 'deep':
    o.append('x 1/1 1.0: 1 cycles:')
    o += ['\t%16x f%d (/bin/x)' % (0x400000 + i, i) for i in range(n)]
    o.append('')
else:
    for i in range(n):
        o += ['x 1/1 1.0: 1 ev%d:' % i, '\t%16x f (/bin/x)' % 0x400000, '']
print('\n'.join(o))
PY
}
scale_ps() {   # NAME KIND N: the ratio for reading genps KIND at 1, N and 16 N
	local name=$1 kind=$2 n=$3 k i0 i1 i16 r
	for k in 1 "$n" $((16 * n)); do genps "$kind" "$k" >"$TMP/ps$k.txt"; done
	i0=$(instructions "$TMP/ps1.txt" -o "$TMP/x.svg")
	i1=$(instructions "$TMP/ps$n.txt" -o "$TMP/x.svg")
	i16=$(instructions "$TMP/ps$((16 * n)).txt" -o "$TMP/x.svg")
	r=$(awk -v a="$i0" -v b="$i1" -v c="$i16" 'BEGIN {printf "%.1f", (c - a) / (b - a)}')
	check "scaling/perf script, $name: 16x the input, ${r}x the instructions ($i1 -> $i16, $i0 at size 1)" \
		awk -v r="$r" 'BEGIN { exit !(r > 0 && r <= 20) }'
}
scale_ps "threads in processes" threads 2000
scale_ps "one deep stack" deep 2000
scale_ps "an event type a sample" events 2000
