# dumpsize.sh: outputs that can outgrow their input (issue 36): folded
# stacks repeat every frame's callers, the tree indents by depth. Their
# length is counted before writing (core/dumpsize.c): exactly the bytes a
# dump takes, and --max-output-size refuses a longer one with one line and
# no file.
. tests/lib.sh
# nested slices, each level with self time: N levels make N lines of up to
# N frames; in the first run also a call at every level (removed in --diff)
gen() {
	python3 - "$@" <<'PY'
import sys
n, calls = int(sys.argv[1]), sys.argv[2] == 'calls'
out, t = ['# tracer: nop'], [1000000]
def ev(what):
    t[0] += 1
    out.append('  app-100 (100) [000] ...1 %d.%06d: tracing_mark_write: %s' % (t[0] // 1000000, t[0] % 1000000, what))
for i in range(n):
    ev('B|100|level%d' % i)
    t[0] += 5
    if calls:
        ev('B|100|call')
        ev('E|100')
for i in range(n):
    ev('E|100')
print('\n'.join(out))
PY
}
gen 400 plain >"$TMP/deep.txt"
gen 400 calls >"$TMP/deep-before.txt"

# size: the count is the bytes written, so SIZE passes and SIZE - 1 fails
limit_at() {   # NAME ARGS...: the dump's exact size is the limit that passes
	local name=$1 size
	shift
	"$AFLAME" "$@" -o "$TMP/out" 2>/dev/null
	size=$(wc -c <"$TMP/out")
	rm -f "$TMP/out"
	check "dumpsize/$name: $size bytes written, --max-output-size $size passes" \
		"$AFLAME" "$@" --max-output-size "$size" -o "$TMP/out"
	rm -f "$TMP/out"
	"$AFLAME" "$@" --max-output-size $((size - 1)) -o "$TMP/out" 2>"$TMP/err"
	local rc=$?
	check "dumpsize/$name: --max-output-size $((size - 1)) refused (exit 1)" test "$rc" -eq 1
	check "dumpsize/$name: no partial file" test ! -e "$TMP/out"
	check "dumpsize/$name: one line says how long it would be" \
		sh -c "test \$(grep -c . '$TMP/err') -eq \$(grep -c 'only in this run' '$TMP/err' | awk '{print \$1 + 1}') && tail -1 '$TMP/err' | grep -q 'output would take $size bytes, more than --max-output-size ($((size - 1)))'"
}
limit_at "folded" --format folded "$TMP/deep.txt"
limit_at "tree" --format tree "$TMP/deep.txt"
limit_at "--diff folded (two counts)" --diff "$TMP/deep-before.txt" "$TMP/deep.txt" --format folded
limit_at "folded of real perf samples" --format folded "$DATA/perfscript/flamegraph/perf-vertx-stacks-01.txt.gz"
limit_at "tree of real perf samples" --format tree "$DATA/perfscript/flamegraph/perf-vertx-stacks-01.txt.gz"

"$AFLAME" --format tree --max-output-size 1K "$TMP/deep.txt" -o "$TMP/out" 2>"$TMP/err"
check "dumpsize/tree: the refusal says why" grep -q "each line is indented by its depth; draw it as an SVG, or raise the limit" "$TMP/err"
"$AFLAME" --format folded --max-output-size 1K "$TMP/deep.txt" >"$TMP/stdout" 2>"$TMP/err"
check "dumpsize/folded to stdout: nothing written" test ! -s "$TMP/stdout"
check "dumpsize/folded: the refusal says why" grep -q "each line repeats its frame's callers" "$TMP/err"
check "dumpsize/an SVG is not limited" "$AFLAME" --max-output-size 1K "$TMP/deep.txt" -o "$TMP/x.svg"
"$AFLAME" --max-output-size 0 "$TMP/deep.txt" -o "$TMP/x.svg" 2>"$TMP/err"
check "dumpsize/--max-output-size 0 is a usage error" grep -q "invalid --max-output-size '0'" "$TMP/err"
"$AFLAME" --format folded "$TMP/deep.txt" --max-output-size 64K -o "$TMP/out" 2>/dev/null
check "dumpsize/K is 1024 bytes" test ! -e "$TMP/out"
