# tier: full
# cost: 110
# debian.sh: the Debian package (issue 22). Builds it with dpkg-buildpackage
# in a clean clone of HEAD (DEB_BUILD_OPTIONS=nocheck: this suite runs beside
# make test, not inside it), runs lintian (no errors), unpacks it into a
# scratch root (dpkg -x) and renders a PNG there that must equal the golden
# byte for byte; checks the files it ships and the systemd unit.
# Skips when dpkg-buildpackage, debhelper or lintian are absent
# (make test-deps installs them).
. tests/lib.sh
for t in dpkg-buildpackage dh lintian git; do
	if ! command -v $t >/dev/null; then
		skip "debian: package" "$t not installed (make test-deps)"
		exit 0
	fi
done
if ! dpkg-checkbuilddeps 2>"$TMP/deps"; then
	skip "debian: package" "$(head -1 "$TMP/deps")"
	exit 0
fi
ROOT_DIR=$PWD
git clone -q "$ROOT_DIR" "$TMP/src/aflame-render" || { fail "debian: clean clone" "git clone failed"; exit 0; }
if (cd "$TMP/src/aflame-render" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) \
	>"$TMP/build.log" 2>&1; then
	pass "debian: dpkg-buildpackage -us -uc -b"
else
	fail "debian: dpkg-buildpackage -us -uc -b" "$(tail -3 "$TMP/build.log" | tr '\n' ' ')"
	exit 0
fi
deb=$(ls "$TMP"/src/aflame-render_*.deb | head -1)
changes=$(ls "$TMP"/src/aflame-render_*.changes | head -1)
v=$("$AFLAME" --version | awk '{print $2}')
check "debian: package version is --version ($v)" test "$(dpkg-deb -f "$deb" Version)" = "$v"
check "debian: depends on fonts-dejavu-core" sh -c "dpkg-deb -f '$deb' Depends | grep -q fonts-dejavu-core"

lintian --no-tag-display-limit "$changes" >"$TMP/lintian" 2>&1
if grep -q '^E:' "$TMP/lintian"; then
	fail "debian: lintian reports no errors" "$(grep '^E:' "$TMP/lintian" | head -3 | tr '\n' ' ')"
else
	pass "debian: lintian reports no errors ($(grep -c '^W:' "$TMP/lintian") warnings)"
fi

R=$TMP/root
dpkg -x "$deb" "$R"
for f in usr/bin/aflame-render usr/share/man/man1/aflame-render.1.gz \
	usr/share/bash-completion/completions/aflame-render \
	usr/lib/systemd/system/aflame-render.service usr/share/doc/aflame-render/copyright \
	usr/lib/aflame-render/aflame-render-cairo.so usr/lib/aflame-render/aflame-render-serve.so; do
	check "debian: ships /$f" test -s "$R/$f"
done
# the font is fonts-dejavu-core's file (a relative link, as dh_link makes
# it), which must be the pinned one; the scratch root gets the dependency's
# file from this machine
F=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
link=$(readlink "$R/usr/share/aflame-render/fonts/DejaVuSans.ttf")
check "debian: the font links to fonts-dejavu-core" \
	test "$(realpath -m "/usr/share/aflame-render/fonts/$link")" = "$F"
if [ -f "$F" ]; then
	check "debian: fonts-dejavu-core's DejaVuSans.ttf is byte-identical to fonts/" cmp "$F" fonts/DejaVuSans.ttf
	install -D -m 644 "$F" "$R$F"
	if (cd tests/data && env -u AFLAME_FONT_DIR "$R/usr/bin/aflame-render" -t main art/yamp-legacy.trace \
		-o "$TMP/yamp-main.png" 2>/dev/null); then
		check "debian: the installed binary's PNG equals golden/png/yamp-main.png" \
			cmp "$TMP/yamp-main.png" "$ROOT_DIR/golden/png/yamp-main.png"
	else
		fail "debian: the installed binary renders a PNG" "exit status $?"
	fi
	rm "$R$F"
	check "debian: without the font the installed binary refuses (exit 1)" \
		sh -c "cd tests/data && env -u AFLAME_FONT_DIR '$R/usr/bin/aflame-render' -t main art/yamp-legacy.trace -o '$TMP/none.png' 2>/dev/null; test \$? = 1 && test ! -e '$TMP/none.png'"
else
	skip "debian: render with the installed binary" "fonts-dejavu-core not installed"
fi
check "debian: the installed binary's version" test "$("$R/usr/bin/aflame-render" --version)" = "aflame-render $v"

# the unit: verify (without the man page check: it is in the scratch root)
# and its exposure score, printed for the record
if command -v systemd-analyze >/dev/null; then
	sed "s|/usr/bin/aflame-render|$R/usr/bin/aflame-render|" "$R/usr/lib/systemd/system/aflame-render.service" \
		>"$TMP/aflame-render.service"
	check "debian: systemd-analyze verify aflame-render.service" \
		systemd-analyze verify --man=no "$TMP/aflame-render.service"
	score=$(systemd-analyze security --offline=true "$TMP/aflame-render.service" 2>/dev/null |
		sed -n 's/.*exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	check "debian: systemd-analyze security exposure ${score:-?} is at most 1.0" \
		awk -v s="${score:-99}" 'BEGIN { exit !(s <= 1.0) }'
else
	skip "debian: systemd-analyze" "not installed"
fi
