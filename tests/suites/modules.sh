# sanitized: no
# modules.sh: no cycle between any two object files (issue 14): each module
# uses only modules below it, so each can be read, tested and replaced alone.
# Not again under the sanitizers: the same sources make the same graph.
. tests/lib.sh
objs=$(ls "${O:-build}"/obj/*.o 2>/dev/null)
if [ -z "$objs" ]; then
	skip "modules/no cycles" "no objects in ${O:-build}/obj"
elif out=$(python3 tests/tools/cycles.py $objs); then
	pass "modules/no cycles between object files"
else
	fail "modules/no cycles between object files" "$(echo "$out" | tr '\n' ' ')"
fi
