# completion.sh: the bash completion (contrib/aflame-render.bash-completion)
# agrees with --help: every value list it offers is the one --help names,
# every option taking a value is handled; the version agrees with
# debian/changelog; and, when bash-completion is installed, completing
# really offers them.
. tests/lib.sh
C=contrib/aflame-render.bash-completion
"$AFLAME" --help >"$TMP/help" 2>&1
"$AFLAME" serve --help >"$TMP/serve-help" 2>&1

# words CASE-LABEL: the words the script offers after that option
words() {
	awk -v l="$1" '
		index($0, l ")") { on = 1 }
		on && /compgen/ { s = $0; sub(/.*-W .?/, "", s); out = out " " s;
			if ($0 ~ /-- "\$cur"/) exit; next }
		on && out != "" { s = $0; sub(/.-- "\$cur".*/, "", s); out = out " " s; exit }
		END { gsub(/'"'"'.*/, "", out); print out }' "$C" | tr -s ' \t' '\n' | grep . | sort
}
# help_words TEXT-AFTER-WHICH: words of --help after a marker up to "(default" or ")"
agree() {
	local name=$1 got=$2 want=$3
	if [ "$got" = "$want" ]; then pass "completion: $name agree with --help"
	else fail "completion: $name agree with --help" "script: $(echo $got) / help: $(echo $want)"; fi
}
agree "formats" "$(words '--format')" \
	"$(sed -n 's/.*--format FMT *//p' "$TMP/help" | sed 's/ (one.*//; s/,//g; s/ or / /' | tr ' ' '\n' | grep . | sort)"
agree "input formats" "$(words '-f | --input-format')" \
	"$(sed -n 's/.*--input-format FMT *//p' "$TMP/help" | sed 's/,//g; s/ or / /' | tr ' ' '\n' | grep . | sort)"
agree "clocks" "$(words '--clock')" \
	"$(sed -n 's/.*--clock CLOCK *//p' "$TMP/help" | sed 's/ (default.*//; s/ or / /' | tr ' ' '\n' | grep . | sort)"
agree "palettes" "$(words '--colors')" \
	"$(sed -n '/--colors PALETTE/,/--app-package/p' "$TMP/help" | grep -v -- '--app-package' |
	   sed 's/.*PALETTE//; s/(default)//; s/,//g' | tr ' ' '\n' | grep . | sort)"
agree "background colours" "$(words '--bgcolors')" \
	"$(sed -n 's/.*--bgcolors COLOR *background: //p' "$TMP/help" | sed 's/ or #rrggbb//; s/,//g' | tr ' ' '\n' | grep . | sort)"

# every option that takes a value (an upper-case word after it) has a case
missing=""
for o in $(cat "$TMP/help" "$TMP/serve-help" | grep -oE -- '(^| )--?[a-z][a-z-]* [A-Z]' | awk '{print $1}' | sort -u); do
	grep -qE -- "(^|[ 	|])$o( |\)|$)" "$C" || missing="$missing $o"
done
if [ -z "$missing" ]; then pass "completion: every option with a value is handled"
else fail "completion: every option with a value is handled" "missing:$missing"; fi

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
check "completion: serve --da offers --data" \
	test "$(complete_line aflame-render serve --da | tr '\n' ' ')" = "--data "
check "completion: an input offers any file" \
	test "$(complete_line aflame-render -t main '' | tr '\n' ' ')" = "a.png b.svg c.trace sub "
