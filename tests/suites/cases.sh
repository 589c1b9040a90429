# cost: 45
# cases.sh: data-driven CLI cases. Each directory tests/cases/NAME holds
#   cmd     the arguments (shell words; run from tests/data; $T is a temp dir)
#   stdout  expected standard output (optional)
#   stderr  expected standard error (optional; "$T" shown as T)
#   exit    expected exit status (default 0)
# AFLAME_BLESS=1 rewrites stdout/stderr/exit from the actual run.
. tests/lib.sh
# --info names the version: goldens say VERSION, so a release changes none
VERSION=$("$AFLAME" --version | cut -d' ' -f2)
# (bash's own $(<file) and ${x##*/}: a case is about a dozen processes, and
# CPU is what make check runs short of)
for dir in tests/cases/*/; do
	name=${dir%/}
	name=${name##*/}
	T=$TMP/$name
	mkdir -p "$T"
	args=$(<"$dir/cmd")
	(cd "$DATA" && eval "\"\$AFLAME\" $args") >"$T/.stdout" 2>"$T/.stderr"
	rc=$?
	sed -i "s|$T|T|g" "$T/.stderr"
	sed -i "s|^read by: aflame-render $VERSION\$|read by: aflame-render VERSION|" "$T/.stdout"
	want_exit=0
	[ -f "$dir/exit" ] && want_exit=$(<"$dir/exit")
	if [ "${AFLAME_BLESS:-}" = 1 ]; then
		cp "$T/.stdout" "$dir/stdout"
		cp "$T/.stderr" "$dir/stderr"
		echo "$rc" >"$dir/exit"
		pass "case/$name (blessed)"
		continue
	fi
	why=""
	[ "$rc" = "$want_exit" ] || why="exit $rc, expected $want_exit; "
	if [ -f "$dir/stdout" ] && ! cmp -s "$T/.stdout" "$dir/stdout"; then
		why="${why}stdout differs: $(diff "$dir/stdout" "$T/.stdout" | head -5 | tr '\n' ' ')"
	fi
	if [ -f "$dir/stderr" ] && ! cmp -s "$T/.stderr" "$dir/stderr"; then
		why="${why}stderr differs: $(diff "$dir/stderr" "$T/.stderr" | head -5 | tr '\n' ' ')"
	fi
	if [ -z "$why" ]; then pass "case/$name"; else fail "case/$name" "$why"; fi
done
