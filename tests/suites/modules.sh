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

# the checker itself finds a cycle of three objects, and passes without it
if command -v "${CC:-cc}" >/dev/null; then
	printf 'void b(void);\nvoid a(void) { b(); }\n' >"$TMP/a.c"
	printf 'void c(void);\nvoid b(void) { c(); }\n' >"$TMP/b.c"
	printf 'void a(void);\nvoid c(void) { a(); }\n' >"$TMP/c.c"
	for m in a b c; do "${CC:-cc}" -c "$TMP/$m.c" -o "$TMP/$m.o" || break; done
	check "modules/the checker finds a -> b -> c -> a" \
		sh -c "python3 tests/tools/cycles.py '$TMP/a.o' '$TMP/b.o' '$TMP/c.o' | grep -qx 'cycle: a -> b, b -> c, c -> a'"
	check "modules/the checker passes a -> b -> c" python3 tests/tools/cycles.py "$TMP/a.o" "$TMP/b.o"
else
	skip "modules/the checker finds a cycle" "no C compiler"
fi
