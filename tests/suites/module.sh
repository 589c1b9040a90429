# module.sh: cairo and pango live in aflame-render-cairo.so, loaded only for
# PNG, PDF and static SVG, libmicrohttpd in aflame-render-serve.so, loaded
# only by serve (issue 19, src/core/module.h): the program links neither, other
# formats never load them, and a missing or foreign module is one clear
# error with exit 1 and no output file.
. tests/lib.sh
IN=tests/cases/png-unicode-folded/stacks.folded
MOD=$(dirname "$AFLAME")/aflame-render-cairo.so

libs=$(ldd "$AFLAME" 2>&1)
LIBS_RE='lib(cairo|pango|fontconfig|glib|harfbuzz|freetype|microhttpd|gnutls)'
if grep -Eq "$LIBS_RE" <<<"$libs"; then
	fail "module/program links no cairo or libmicrohttpd" "$(grep -Eo "$LIBS_RE[^ ]*" <<<"$libs" | tr '\n' ' ')"
else
	pass "module/program links no cairo or libmicrohttpd"
fi

# which shared objects a run opens (the dynamic loader's own account)
opened() { LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -Eo 'file=[^ ]*' | sort -u; }
for fmt in svg folded tree frames; do
	if ! "$AFLAME" --format "$fmt" "$IN" -o "$TMP/m.$fmt" 2>/dev/null; then
		fail "module/--format $fmt loads no cairo" "the run failed"
	elif opened "$AFLAME" --format "$fmt" "$IN" -o "$TMP/m.$fmt" | grep -Eq 'cairo|pango|microhttpd|aflame-render-serve'; then
		fail "module/--format $fmt loads no cairo" "it did"
	else
		pass "module/--format $fmt loads no cairo"
	fi
done
if opened "$AFLAME" "$IN" -o "$TMP/m.png" | grep -q 'aflame-render-cairo.so'; then
	pass "module/PNG loads aflame-render-cairo.so"
else
	fail "module/PNG loads aflame-render-cairo.so" "no such file opened"
fi

# a copy of the program alone: PNG fails cleanly, SVG still works
mkdir -p "$TMP/alone" "$TMP/beside" "$TMP/foreign"
cp "$AFLAME" "$TMP/alone/aflame-render"
if [ -e /usr/local/lib/aflame-render/aflame-render-cairo.so ] || [ -e /usr/local/lib/aflame-render/aflame-render-serve.so ]; then
	skip "module/missing module" "installed modules are in /usr/local/lib/aflame-render"
else
	for f in png pdf; do
		"$TMP/alone/aflame-render" "$IN" -o "$TMP/alone/out.$f" 2>"$TMP/alone/err"
		rc=$?
		if [ $rc = 1 ] && [ ! -e "$TMP/alone/out.$f" ] && [ "$(wc -l <"$TMP/alone/err")" = 1 ] &&
			grep -q "need aflame-render-cairo.so, which is neither beside the program ($TMP/alone), in ../lib/aflame-render from there, nor in " "$TMP/alone/err"; then
			pass "module/missing module: $f is one error, exit 1, no file"
		else
			fail "module/missing module: $f is one error, exit 1, no file" "exit $rc: $(head -c 300 "$TMP/alone/err")"
		fi
	done
	"$TMP/alone/aflame-render" serve --data "$TMP/alone/data" 2>"$TMP/alone/err"
	rc=$?
	if [ $rc = 1 ] && [ ! -e "$TMP/alone/data" ] &&
		grep -q "serve needs aflame-render-serve.so, which is neither beside the program ($TMP/alone), in ../lib/aflame-render from there, nor in " "$TMP/alone/err"; then
		pass "module/missing module: serve is one error, exit 1"
	else
		fail "module/missing module: serve is one error, exit 1" "exit $rc: $(head -c 300 "$TMP/alone/err")"
	fi
fi
if "$TMP/alone/aflame-render" "$IN" -o "$TMP/alone/out.svg" 2>/dev/null && [ -s "$TMP/alone/out.svg" ]; then
	pass "module/SVG needs no module"
else
	fail "module/SVG needs no module" "failed"
fi

# a file of that name that is not the module
cp "$AFLAME" "$TMP/foreign/aflame-render"
echo 'not a shared object' >"$TMP/foreign/aflame-render-cairo.so"
"$TMP/foreign/aflame-render" "$IN" -o "$TMP/foreign/out.png" 2>"$TMP/foreign/err"
rc=$?
if [ $rc = 1 ] && [ ! -e "$TMP/foreign/out.png" ] && grep -q "cannot load $TMP/foreign/aflame-render-cairo.so" "$TMP/foreign/err"; then
	pass "module/a foreign file is refused"
else
	fail "module/a foreign file is refused" "exit $rc: $(head -c 300 "$TMP/foreign/err")"
fi

# moved together, program and module draw the same bytes
cp "$AFLAME" "$MOD" "$TMP/beside/"
"$AFLAME" "$IN" -o "$TMP/want.png" 2>/dev/null
if "$TMP/beside/aflame-render" "$IN" -o "$TMP/beside/out.png" 2>/dev/null && cmp -s "$TMP/want.png" "$TMP/beside/out.png"; then
	pass "module/found beside a moved program, same PNG"
else
	fail "module/found beside a moved program, same PNG" "differs or failed"
fi
