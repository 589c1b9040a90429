# sanitized: no
# modules.sh: no cycle between any two object files (issue 14): each module
# uses only modules below it, so each can be read, tested and replaced alone;
# and the folders' rule (src/README.md, issue 32): each folder includes and
# links only what its README.md's "May include:" line names.
# Not again under the sanitizers: the same sources make the same graph.
. tests/lib.sh
objs=$(find "${O:-build}"/obj -name "*.o" -not -path "*/unit/*" -not -path "*/fuzz/*" 2>/dev/null | sort)
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

# the folders' rule, on the real tree, then on a copy with a breach planted
if [ -z "$objs" ]; then
	skip "modules/folders" "no objects in ${O:-build}/obj"
elif out=$(python3 tests/tools/folders.py src "${O:-build}/obj"); then
	pass "modules/each folder includes and links only what its README allows"
else
	fail "modules/each folder includes and links only what its README allows" "$(echo "$out" | tr '\n' ' ')"
fi
mkdir -p "$TMP/src"
cp -r src/core src/read src/render "$TMP/src/"
printf '#include "render/render.h"\n' >>"$TMP/src/read/read.c"
check "modules/the folder check finds a reader that includes a back end" \
	sh -c "python3 tests/tools/folders.py '$TMP/src' | grep -q 'read/read.c:.*read/ may not include \"render/render.h\"'"
if command -v "${CC:-cc}" >/dev/null; then
	mkdir -p "$TMP/obj/read" "$TMP/obj/render"
	printf 'void af_draw(void);\nvoid af_read_x(void) { af_draw(); }\n' >"$TMP/r.c"
	printf 'void af_draw(void);\nvoid af_draw(void) {}\n' >"$TMP/d.c"
	"${CC:-cc}" -c "$TMP/r.c" -o "$TMP/obj/read/r.o" && "${CC:-cc}" -c "$TMP/d.c" -o "$TMP/obj/render/d.o"
	cp -r src/README.md "$TMP/src/"
	sed -i '$d' "$TMP/src/read/read.c"
	check "modules/the folder check finds a reader that calls a back end" \
		sh -c "python3 tests/tools/folders.py '$TMP/src' '$TMP/obj' | grep -qx 'read/r.o: read/ takes af_draw from render/d.o'"
fi

# sizes (issue 32): no source file over 1,000 lines, no function over 80;
# the checker finds a planted long function
if out=$(python3 tests/tools/sizes.py src); then
	pass "modules/no file over 1,000 lines, no function over 80"
else
	fail "modules/no file over 1,000 lines, no function over 80" "$(echo "$out" | tr '\n' ' ')"
fi
mkdir -p "$TMP/sizes"
{ printf 'static int long_one(int a,\n\t\t    int b)\n{\n'; for i in $(seq 80); do printf '\ta += b;\n'; done; printf '\treturn a;\n}\n'; } >"$TMP/sizes/x.c"
check "modules/the size check finds an 85-line function" \
	sh -c "python3 tests/tools/sizes.py '$TMP/sizes' | grep -qx '$TMP/sizes/x.c:1: long_one() has 85 lines (at most 80)'"
