# completion.sh: the bash completion (contrib/aflame-render.bash-completion)
# offers what the option table (src/cli/options.c) says, through
# --completion-helper: the helper lists the options --help lists, those
# with a value with it, and each value list is the one --help names; the
# version agrees with debian/changelog; and, when bash-completion is
# installed, completing really offers them.
. tests/lib.sh
C=contrib/aflame-render.bash-completion
"$AFLAME" --help >"$TMP/help" 2>&1
"$AFLAME" serve --help >"$TMP/serve-help" 2>&1

"$AFLAME" --completion-helper >"$TMP/table" 2>&1

# words OPTION: the words the completion helper offers for OPTION's value
words() {
	awk -v o="$1" '$1 == o { sub(/^[^=]*=[a-z]+ */, ""); print }' "$TMP/table" | tr ' ' '\n' | grep . | sort
}
agree() {
	local name=$1 got=$2 want=$3
	if [ -n "$got" ] && [ "$got" = "$want" ]; then pass "completion: $name agree with --help"
	else fail "completion: $name agree with --help" "helper: $(echo $got) / help: $(echo $want)"; fi
}
# entry OPTION: the help text of OPTION's entry, its lines joined
entry() {
	awk -v o="$1" 'on && /^  (-., |    )--/ { exit }
		index($0, o " ") && /^  (-., |    )--/ { on = 1; sub(/^ *(-., )?--[^ ]* [^ ]* */, "") }
		on { sub(/^ */, ""); printf "%s ", $0 }' "$TMP/help"
}
agree "formats" "$(words --format)" \
	"$(entry --format | sed 's/ (.*//; s/,//g; s/ or / /' | tr ' ' '\n' | grep . | sort)"
agree "input formats" "$(words --input-format)" \
	"$(entry --input-format | sed 's/ *(default.*//; s/,//g; s/ or / /' | tr ' ' '\n' | grep . | sort)"
agree "clocks" "$(words --clock)" \
	"$(sed -n 's/.*--clock CLOCK *//p' "$TMP/help" | sed 's/ (default.*//; s/ or / /' | tr ' ' '\n' | grep . | sort)"
agree "palettes" "$(words --colors)" \
	"$(sed -n '/--colors PALETTE/,/--app-package/p' "$TMP/help" | grep -v -- '--app-package' |
	   sed 's/.*PALETTE//; s/([^)]*)//g; s/,//g' | tr ' ' '\n' | grep . | sort)"
agree "background colours" "$(words --bgcolors)" \
	"$(sed -n 's/.*--bgcolors COLOR *background: //p' "$TMP/help" | sed 's/ or #rrggbb//; s/,//g' | tr ' ' '\n' | grep . | sort)"

# the helper lists the options --help lists, and those that take a value
# (an upper-case word after the name in --help) with what to offer
python3 - "$TMP/help" "$TMP/table" "$TMP/help.opts" "$TMP/table.opts" <<'PY'
import re, sys
help_, table, out_help, out_table = sys.argv[1:]
# the option column of --help: "  -o, --output FILE", "      --from T, --to T"
opts = set()
for line in open(help_, encoding="utf-8"):
    m = re.match(r"^  (-\w, |    )(--\S.*?)(  |$)", line)
    if not m:
        continue
    short = m.group(1).strip(", ")
    for part in m.group(2).split(", "):
        name, _, arg = part.partition(" ")
        opts.add(name + (" =" if arg else ""))
        if short:
            opts.add(short + (" =" if arg else ""))
open(out_help, "w").write("".join(sorted(o + "\n" for o in opts)))
# the helper's: "--output -o =output svg ..."
opts = set()
for line in open(table, encoding="utf-8"):
    names, eq, _ = line.rstrip("\n").partition("=")
    for name in names.split():
        opts.add(name + (" =" if eq else ""))
open(out_table, "w").write("".join(sorted(o + "\n" for o in opts)))
PY
if cmp -s "$TMP/help.opts" "$TMP/table.opts"; then
	pass "completion: the helper lists the options of --help, with their values"
else
	fail "completion: the helper lists the options of --help, with their values" \
		"$(diff "$TMP/help.opts" "$TMP/table.opts" | grep '^[<>]' | tr '\n' ' ')"
fi

# one version: --version, the Makefile and debian/changelog
v=$("$AFLAME" --version | awk '{print $2}')
mv_=$(sed -n 's/^VERSION := //p' Makefile)
dv=$(sed -n '1s/^aflame-render (\([^)-]*\).*/\1/p' debian/changelog)
if [ "$v" = "$mv_" ] && [ "$v" = "$dv" ]; then pass "one version: --version, Makefile, debian/changelog ($v)"
else fail "one version: --version, Makefile, debian/changelog" "--version $v, Makefile $mv_, changelog $dv"; fi

# really completing, when bash-completion is there
if [ ! -f /usr/share/bash-completion/bash_completion ]; then
	skip "completion: offers" "bash-completion not installed"
	exit 0
fi
complete_line() {  # the offers for a command line (the last word is completed)
	bash -c '. /usr/share/bash-completion/bash_completion; . "$1"; shift
		PATH=$(dirname "$AFLAME"):$PATH; cd "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_aflame_render aflame-render "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$PWD/$C" "$TMP/dir" "$@"
}
mkdir -p "$TMP/dir/sub" && touch "$TMP/dir/a.png" "$TMP/dir/b.svg" "$TMP/dir/c.trace"
cp "$AFLAME" "$TMP/aflame-render" 2>/dev/null
check "completion: --clock offers wall and cpu" \
	test "$(complete_line aflame-render --clock '' | tr '\n' ' ')" = "cpu wall "
check "completion: --colors a offers android and aqua" \
	test "$(complete_line aflame-render --colors a | tr '\n' ' ')" = "android aqua "
check "completion: -o offers image files and directories, not traces" \
	test "$(complete_line aflame-render x -o '' | tr '\n' ' ')" = "a.png b.svg sub "
check "completion: --inv offers --inverted (from --help)" \
	test "$(complete_line aflame-render --inv | tr '\n' ' ')" = "--inverted "
check "completion: --format offers the output formats (from the table)" \
	test "$(complete_line aflame-render --format s | tr '\n' ' ')" = "svg svg-static "
check "completion: -f offers the readers" \
	test "$(complete_line aflame-render -f p | tr '\n' ' ')" = "perf-data perf-script perfetto pprof "
check "completion: --heap offers the heap values" \
	test "$(complete_line aflame-render --heap freed | tr '\n' ' ')" = "freed freed-count "
check "completion: --per-thread offers directories" \
	test "$(complete_line aflame-render --per-thread '' | tr '\n' ' ')" = "sub "
check "completion: --title offers nothing" \
	test "$(complete_line aflame-render --title '' | tr '\n' ' ')" = " "
check "completion: -j offers nothing (its value follows)" \
	test "$(complete_line aflame-render -j '' | tr '\n' ' ')" = " "
check "completion: --completion-helper itself is not offered" \
	test "$(complete_line aflame-render --comp | tr '\n' ' ')" = " "
check "completion: serve --port offers nothing" \
	test "$(complete_line aflame-render serve --port '' | tr '\n' ' ')" = " "
check "completion: serve --data offers directories" \
	test "$(complete_line aflame-render serve --data '' | tr '\n' ' ')" = "sub "
check "completion: serve --da offers --data" \
	test "$(complete_line aflame-render serve --da | tr '\n' ' ')" = "--data "
check "completion: an input offers any file" \
	test "$(complete_line aflame-render -t main '' | tr '\n' ' ')" = "a.png b.svg c.trace sub "
