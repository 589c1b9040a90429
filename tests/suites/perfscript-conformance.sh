# tier: full
# perfscript-conformance.sh: our frames for perf script text equal
# stackcollapse-perf.pl's (issue 35 item 1), file by file, on every real
# input in tests/data/perfscript (FlameGraph's, inferno's, speedscope's and
# simpleperf's: its perf-script files and its report_sample.py's output,
# with and without ART's frames). Runs only when STACKCOLLAPSE_PERF_PL names a readable
# stackcollapse-perf.pl (CDDL-licensed, not part of this project: e.g. from
# github.com/brendangregg/FlameGraph), else prints one SKIP.
#
# Ours: --format folded, the process and thread roots dropped. The
# reference: stackcollapse-perf.pl's output, its comm dropped. Names are
# compared without argument lists and annotations (tests/tools/
# perfscript_compare.py says exactly how). Each file must have >= 98% of
# the reference's stacks with the same weight, and >= 99.5% of the weight
# on the same paths; the figures are in each check's name.
#
# The reference is given each file with three changes, for three of its
# limits, not ours: a blank line at the end (it drops a last sample that
# has none); a symbol perf printed blank ("7f1e2215d058  (/lib/libc.so)",
# old perf) spelt [unknown] as newer perf prints it (its pattern otherwise
# takes the blank as the name; it names [unknown] after the file, as we
# name both); and a symbol opening "(anonymous namespace)" (C++, in
# simpleperf's files) given a placeholder for that group, put back in its
# output: it skips every symbol that opens with '(' as a "(comm)", which
# would drop those frames.
. tests/lib.sh
if [ -z "${STACKCOLLAPSE_PERF_PL:-}" ] || [ ! -r "$STACKCOLLAPSE_PERF_PL" ]; then
	skip "perfscript-conformance" "set STACKCOLLAPSE_PERF_PL=/path/to/stackcollapse-perf.pl to compare with it"
	exit 0
fi
command -v perl >/dev/null || { skip "perfscript-conformance" "perl not installed"; exit 0; }
S=$DATA/perfscript

for f in "$S"/flamegraph/* "$S"/inferno/*.txt "$S"/speedscope/* "$S"/simpleperf/*; do
	b=${f#$S/}
	case $b in
	inferno/single-line-stacks.txt)
		skip "perfscript-conformance/$b" "samples without callchains, which stackcollapse-perf.pl does not read"
		continue ;;
	inferno/weird-stack-line.txt)
		skip "perfscript-conformance/$b" "a damaged frame line (inferno's test of it), which we read as a symbol"
		continue ;;
	esac
	{ zcat -f "$f"; printf '\n\n'; } | sed -E -e 's/^([[:space:]]+[0-9a-f]+) +\(([^[:space:]]*)\)$/\1 [unknown] (\2)/' \
		-e 's/^([[:space:]]*[0-9a-f]+[[:space:]]+)\(anonymous namespace\)/\1AFLAME_ANON_NS/' |
		perl "$STACKCOLLAPSE_PERF_PL" 2>/dev/null | sed 's/AFLAME_ANON_NS/(anonymous namespace)/g' >"$TMP/ref"
	"$AFLAME" --format folded -o "$TMP/ours" "$f" 2>/dev/null
	got=$(python3 tests/tools/perfscript_compare.py "$TMP/ours" "$TMP/ref")
	# "stacks A/B P% weight C/D Q%"
	set -- $got
	stacks=${3%\%} weight=${6%\%}
	check "perfscript-conformance/$b: $got" \
		awk -v s="$stacks" -v w="$weight" 'BEGIN { exit !(s >= 98 && w >= 99.5) }'
done
