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

# Outputs are read, rewritten and compared by bash itself ($(<file),
# read, ${x//a/b}): a process costs milliseconds here, the cases are 150,
# and CPU is what make check runs short of. Text without NUL only; an
# output holding one is compared by cmp.
# read_text VAR FILE: VAR is FILE's bytes exactly; false if FILE has a NUL
read_text() { ! IFS= read -r -d '' "$1" <"$2"; }
# output_is NAME WHAT GOT: GOT (text) is tests/cases/NAME/WHAT, if that exists
output_is() {
	local want f=tests/cases/$1/$2
	[ -f "$f" ] || return 0
	read_text want "$f" && [[ $3 == "$want" ]]
}

dirs=(tests/cases/*/)
mkdir -p "${dirs[@]/#tests\/cases\//$TMP/}"
for dir in "${dirs[@]}"; do
	name=${dir%/}
	name=${name##*/}
	T=$TMP/$name
	args=$(<"$dir/cmd")
	(cd "$DATA" && eval "\"\$AFLAME\" $args") >"$T/.stdout" 2>"$T/.stderr"
	rc=$?
	if read_text out "$T/.stdout" && read_text err "$T/.stderr"; then
		out=${out//"read by: aflame-render $VERSION"/"read by: aflame-render VERSION"}
		err=${err//"$T"/T}
		printf '%s' "$out" >"$T/.stdout"
		printf '%s' "$err" >"$T/.stderr"
	else
		out=$'\0' err=$'\0'   # (matches no text)
		sed -i "s|$T|T|g" "$T/.stderr"
		sed -i "s|^read by: aflame-render $VERSION\$|read by: aflame-render VERSION|" "$T/.stdout"
	fi
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
	if ! output_is "$name" stdout "$out" && ! cmp -s "$T/.stdout" "$dir/stdout"; then
		why="${why}stdout differs: $(diff "$dir/stdout" "$T/.stdout" | head -5 | tr '\n' ' ')"
	fi
	if ! output_is "$name" stderr "$err" && ! cmp -s "$T/.stderr" "$dir/stderr"; then
		why="${why}stderr differs: $(diff "$dir/stderr" "$T/.stderr" | head -5 | tr '\n' ' ')"
	fi
	if [ -z "$why" ]; then pass "case/$name"; else fail "case/$name" "$why"; fi
done
