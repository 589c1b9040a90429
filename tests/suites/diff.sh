# diff.sh: comparing two runs (--diff BEFORE AFTER, docs/diff.md).
#
#  - with difffolded.pl + flamegraph.pl (only when DIFFFOLDED_PL and
#    FLAMEGRAPH_PL name them; else one SKIP): for pairs of folded inputs, the
#    frames of the second run (name, depth, x, width, samples) and their
#    colours are exactly flamegraph.pl's for `difffolded.pl A B |
#    flamegraph.pl --total=T`, where T is our full width (the second run plus
#    the removed band, which flamegraph.pl leaves as empty space at the
#    right). Colours are compared exactly: our colour rule for the change of
#    a frame's own weight is flamegraph.pl's (210 * (max - |d|) / max,
#    truncated), scaled to the same largest change. Also with --normalize
#    (difffolded.pl -n) and --negate. Our removed band must lie in the space
#    flamegraph.pl leaves empty and hold exactly the before-only weight.
#  - a corpus trace compared with itself: every frame white, no band, a
#    report of zeros;
#  - two real traces of different apps: the reddest frame is the report's
#    first row;
#  - two generated traces where one function got twice as slow (its own
#    time): it is the reddest frame and the report's first row, for every
#    output and with --diff-total; removed and new work are shown;
#  - threads matched by name; PNG and PDF; tooltips in a browser.
. tests/lib.sh
D=$DATA/diff

# frames OUT.txt ARGS...: our frames dump of a comparison
frames() {
	local out=$1
	shift
	"$AFLAME" --diff --format frames "$@" -o "$out" 2>"$out.err"
}

# ---- flamegraph.pl conformance ----

cat >"$TMP/compare.pl" <<'PERL'
# compare.pl PL.svg OURS.txt: flamegraph.pl's frames and colours against our
# plain frames; our band must fill the space right of them. Prints
# "ok N" or the differences.
use strict;
use warnings;
my ($pl_svg, $ours) = @ARGV;
sub unesc { my $s = shift; $s =~ s/&lt;/</g; $s =~ s/&gt;/>/g; $s =~ s/&quot;/"/g; $s =~ s/&#39;/'/g; $s =~ s/&amp;/&/g; return $s }
open my $fh, '<', $pl_svg or die "$pl_svg: $!";
my (@pl, $title);
while (<$fh>) {
	$title = unesc($1) if /<title>(.*)<\/title>/;
	if (defined $title && /<rect x="([-\d.]+)" y="([-\d.]+)" width="([-\d.]+)" height="[-\d.]+" fill="rgb\((\d+),(\d+),(\d+)\)"/) {
		my ($x, $y, $w, $r, $g, $b) = ($1, $2, $3, $4, $5, $6);
		my ($name, $n) = $title =~ /^(.*) \(([\d,]+) [^,]*, [\d.]+%(?:; [-+\d.]+%)?\)$/s
			or die "cannot parse title: $title";
		$n =~ s/,//g;
		push @pl, { name => $name, n => $n, x => $x, y => $y, w => $w,
			    c => sprintf('#%02x%02x%02x', $r, $g, $b) };
		undef $title;
	}
}
my %ys = map { $_->{y} => 1 } @pl;
my @rows = sort { $b <=> $a } keys %ys;
my %depth;
@depth{@rows} = (0 .. $#rows);
my %want;
$want{"$depth{$_->{y}} $_->{x} $_->{w} $_->{n} $_->{c} " . ($depth{$_->{y}} ? $_->{name} : 'all')}++ for @pl;
open $fh, '<', $ours or die "$ours: $!";
my (%got, $right, $band_w, $all_w, $removed_w);
while (<$fh>) {
	next if /^#/;
	chomp;
	my ($d, $x, $w, $n, $bf, $af, $dl, $c, $kind, $name) = split / /, $_, 10;
	if ($kind eq 'plain') {
		$got{"$d $x $w $n $c $name"}++;
		$right = $x + $w if $d == 1 && (!defined $right || $x + $w > $right);
		$all_w = $n if $d == 0;
	} elsif ($kind eq 'band') {
		$band_w = [$x, $w];
		$removed_w = $n;
	}
}
my @diff;
for my $k (sort keys %{{ %want, %got }}) {
	my ($a, $b) = ($want{$k} // 0, $got{$k} // 0);
	push @diff, ($a > $b ? "only flamegraph.pl: " : "only ours: ") . $k if $a != $b;
}
if ($band_w) {
	push @diff, "band at $band_w->[0], the second run ends at $right"
		if defined $right && $band_w->[0] + 0.15 < $right;
	push @diff, "band ends at " . ($band_w->[0] + $band_w->[1]) . ", not 1190"
		if abs($band_w->[0] + $band_w->[1] - 1190) > 0.15;
}
if (@diff) {
	print scalar(@diff), " differences: ", join(' | ', @diff[0 .. ($#diff < 5 ? $#diff : 5)]), "\n";
	exit 1;
}
printf "ok %d %s\n", scalar(@pl), $removed_w // 0;
PERL

# flamegraph.pl keys its frames by name, depth and end: a frame of width 0
# (a stack with no weight in the second run) that ends where a drawn frame
# of the same name and depth ends replaces it, and that frame disappears.
# So its input leaves out the lines of stacks with no weight in the second
# run (they only ever give frames of width 0) and gets instead one line of a
# name of its own carrying their largest change, so that the colour scale,
# which is over every line, stays the same.
cat >"$TMP/drop.pl" <<'PERL'
use strict;
use warnings;
my (@lines, %after);
while (<>) {
	chomp;
	my ($stack, $b, $a) = /^(.*) (\S+) (\S+)$/ or next;
	push @lines, [$stack, $b, $a];
	my $p = '';
	for my $f (split /;/, $stack) {
		$p .= ($p eq '' ? '' : ';') . $f;
		$after{$p} += $a;
	}
}
my $max = 0;
for (@lines) {
	my ($s, $b, $a) = @$_;
	if ($after{$s} == 0) {
		$max = abs($a - $b) if abs($a - $b) > $max;
		next;
	}
	print "$s $b $a\n";
}
print "~largest-change-of-removed-stacks $max 0\n" if $max;
PERL

# conform NAME A B [ours options] -- [difffolded options] -- [flamegraph.pl options]
conform() {
	local name=$1 a=$2 b=$3
	shift 3
	local ours=() dfo=() fgo=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do ours+=("$1"); shift; done
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do dfo+=("$1"); shift; done
	shift
	fgo=("$@")
	if ! frames "$TMP/ours.txt" "${ours[@]}" "$a" "$b"; then
		fail "diff/flamegraph.pl $name" "aflame-render failed: $(head -1 "$TMP/ours.txt.err")"
		return
	fi
	local total
	total=$(awk '$1 == 0 { print $4; exit }' "$TMP/ours.txt")
	perl "$DIFFFOLDED_PL" "${dfo[@]}" "$a" "$b" >"$TMP/pair.folded" 2>"$TMP/pl.err" &&
		perl "$TMP/drop.pl" "$TMP/pair.folded" >"$TMP/pair-drawn.folded" &&
		perl "$FLAMEGRAPH_PL" --total="$total" "${fgo[@]}" "$TMP/pair-drawn.folded" >"$TMP/pl.svg" 2>>"$TMP/pl.err"
	if [ ! -s "$TMP/pl.svg" ]; then
		fail "diff/flamegraph.pl $name" "difffolded.pl | flamegraph.pl failed: $(head -1 "$TMP/pl.err")"
		return
	fi
	local r
	if r=$(perl "$TMP/compare.pl" "$TMP/pl.svg" "$TMP/ours.txt"); then
		set -- $r
		pass "diff/flamegraph.pl $name ($2 frames and colours equal; band of $3 removed)"
	else
		fail "diff/flamegraph.pl $name" "$r"
	fi
	# the two-count folded output is difffolded.pl's, line for line
	"$AFLAME" --diff "${ours[@]}" "$a" "$b" -o "$TMP/ours.folded" 2>/dev/null
	if [ "$(sort "$TMP/pair.folded" | grep -v ' 0 0$')" = "$(sort "$TMP/ours.folded")" ]; then
		pass "diff/difffolded.pl $name: folded output"
	else
		fail "diff/difffolded.pl $name: folded output" \
			"$(diff <(sort "$TMP/pair.folded") <(sort "$TMP/ours.folded") | head -4 | tr '\n' ' ')"
	fi
}

if [ -z "${FLAMEGRAPH_PL:-}" ] || [ ! -r "$FLAMEGRAPH_PL" ] ||
   [ -z "${DIFFFOLDED_PL:-}" ] || [ ! -r "$DIFFFOLDED_PL" ] || ! command -v perl >/dev/null; then
	skip "diff/flamegraph.pl" "set FLAMEGRAPH_PL and DIFFFOLDED_PL to compare with difffolded.pl | flamegraph.pl"
else
	# generated pairs: frame names end in "_" so that no name is another's
	# prefix followed by a character sorting between ' ' and ';', which
	# would make flamegraph.pl split a frame (docs/flamegraph-pl.md)
	cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/gen_folded" bench/gen_folded.c 2>/dev/null
	for seed in 1 2 3; do
		"$TMP/gen_folded" 3000 24 "$seed" | sed -e 's/;/_;/g' -e 's/ \([0-9]*\)$/_ \1/' >"$TMP/gen$seed.folded"
	done
	for pair in "$D/a.folded $D/b.folded" "$TMP/gen1.folded $TMP/gen2.folded" \
		    "$TMP/gen2.folded $TMP/gen3.folded"; do
		set -- $pair
		label="$(basename "$1" .folded)-$(basename "$2" .folded)"
		conform "$label" "$1" "$2" -- -- 
		conform "$label --normalize" "$1" "$2" --normalize -- -n --
		conform "$label --negate" "$1" "$2" --negate -- -- --negate
	done
fi

# ---- a run compared with itself ----

for t in "$DATA"/art/*.trace; do
	name=$(basename "$t" .trace)
	"$AFLAME" --info "$t" >/dev/null 2>&1 || continue   # refused variants
	if ! frames "$TMP/self.txt" "$t" "$t"; then
		fail "diff/self $name" "$(head -1 "$TMP/self.txt.err")"
		continue
	fi
	notwhite=$(awk 'NR > 1 && ($8 != "#ffffff" || $7 != 0 || $5 != $6 || $9 != "plain")' "$TMP/self.txt" | head -1)
	if [ -z "$notwhite" ] && [ ! -s "$TMP/self.txt.err" -o -z "$(grep 'only in this run' "$TMP/self.txt.err")" ]; then
		pass "diff/self $name: all $(($(wc -l <"$TMP/self.txt") - 1)) frames white, nothing removed"
	else
		fail "diff/self $name" "not white: $notwhite"
	fi
	"$AFLAME" --diff --report "$t" "$t" >"$TMP/self.report" 2>/dev/null
	nonzero=$(awk 'f && ($3 != "0" || $4 != "0.00%" || $7 != "0" || $8 != "0.00%") { print; exit }
		       /^Excl before/ { f = 1 }' "$TMP/self.report")
	methods=$(sed -n 's/^Methods: \([0-9]*\) (0 only before, 0 only after, 0 changed)$/\1/p' "$TMP/self.report")
	if [ -z "$nonzero" ] && [ -n "$methods" ]; then
		pass "diff/self $name: report of zeros ($methods methods)"
	else
		fail "diff/self $name: report" "${nonzero:-$(grep '^Methods' "$TMP/self.report")}"
	fi
done

# ---- the reddest frame leads the report ----

# reddest FRAMES.txt: the name of the plain frame with the largest delta
reddest() { awk 'NR > 1 && $9 == "plain" && $1 > 0' "$1" | sort -k7,7nr -s | head -1 | cut -d' ' -f10-; }
# first_row REPORT.txt: the first method's change (exclusive, or inclusive
# with --diff-total) and name without its signature (with SIG=1: without
# its return type)
first_row() {   # REPORT INCL [SIG]
	awk -v incl="$2" -v sig="${3:-0}" 'f { c = incl ? $7 : $3; $1 = $2 = $3 = $4 = $5 = $6 = $7 = $8 = $9 = "";
			     sub(/^ */, ""); if (sig) sub(/\): .*/, ")"); else sub(/\(.*/, "");
			     print c, $0; exit }
			  /^Excl before/ { f = 1 }' "$1"
}

# leads NAME WANT ARGS...: WANT (or, when empty, whatever is reddest) is the
# reddest frame and the report's first row, with a positive change
leads() {
	local name=$1 want=$2
	shift 2
	frames "$TMP/lead.txt" "$@" || { fail "diff/$name" "$(head -1 "$TMP/lead.txt.err")"; return; }
	"$AFLAME" --diff --report "$@" >"$TMP/lead.report" 2>/dev/null
	local red row change incl=0
	case " $* " in *" --diff-total "*) incl=1 ;; esac
	red=$(reddest "$TMP/lead.txt")
	row=$(first_row "$TMP/lead.report" $incl)
	change=${row%% *}
	row=${row#* }
	[ -n "$want" ] || want=$red
	if [ "$red" = "$want" ] && [ "$row" = "$want" ] && [ "${change#+}" != "$change" ]; then
		pass "diff/$name: $want is the reddest frame and the report's first row ($change)"
	else
		fail "diff/$name" "reddest '$red', first row '$row' ($change), expected '$want' with a positive change"
	fi
}

# agrees NAME ARGS...: the report's first method changed by as much as its
# frames in the graph (--minwidth 0: every frame) add up to. (The reddest
# frame need not lead the report: a method's change is the sum over every
# path it runs on, a frame's over one path.)
agrees() {
	local name=$1
	shift
	frames "$TMP/agree.txt" --minwidth 0 --signatures "$@"
	"$AFLAME" --diff --report "$@" >"$TMP/agree.report" 2>/dev/null
	local row change sum
	row=$(first_row "$TMP/agree.report" 0 1)
	change=${row%% *}
	row=${row#* }
	sum=$(awk -v m="$row" 'NR > 1 && ($9 == "plain" || $9 == "removed") {
		n = $0; for (i = 0; i < 9; i++) sub(/^[^ ]* /, "", n); if (n == m) s += $7 } END { printf "%+d", s }' "$TMP/agree.txt")
	if [ -n "$row" ] && [ "$sum" = "$change" ]; then
		pass "diff/$name: the report's first row, $row ($change), is the sum of its frames' changes"
	else
		fail "diff/$name" "first row '$row' changed by $change, its frames by $sum"
	fi
}

leads "yamp-legacy vs ffx-art-regular -t main" "" -t main "$DATA/art/yamp-legacy.trace" "$DATA/art/ffx-art-regular.trace"
agrees "ffx-art-regular vs yamp-legacy -t main" -t main "$DATA/art/ffx-art-regular.trace" "$DATA/art/yamp-legacy.trace"
agrees "ffx-art-regular vs ffx-art-streaming" "$DATA/art/ffx-art-regular.trace" "$DATA/art/ffx-art-streaming.trace"

# ---- generated: one function twice as slow ----

# the .trace files are made from their .desc by art_writer.py; check they
# still are what the descriptions say
if command -v python3 >/dev/null; then
	python3 tests/tools/art_writer.py legacy3 "$D/slow-before.desc" -o "$TMP/sb.trace" &&
	python3 tests/tools/art_writer.py stream2023 "$D/slow-after.desc" -o "$TMP/sa.trace"
	if cmp -s "$TMP/sb.trace" "$D/slow-before.trace" && cmp -s "$TMP/sa.trace" "$D/slow-after.trace"; then
		pass "diff/generated traces match their descriptions"
	else
		fail "diff/generated traces match their descriptions" "regenerate with tests/tools/art_writer.py"
	fi
fi
SLOW=com.example.App.inflateViews
for v in legacy1 legacy2 stream6 stream2017 v2a; do
	if command -v python3 >/dev/null &&
	   python3 tests/tools/art_writer.py "$v" "$D/slow-after.desc" -o "$TMP/after-$v.trace" 2>/dev/null; then
		leads "slow function, legacy3 vs $v" "$SLOW" -t main "$D/slow-before.trace" "$TMP/after-$v.trace"
	fi
done
leads "slow function" "$SLOW" -t main "$D/slow-before.trace" "$D/slow-after.trace"
leads "slow function, all threads" "$SLOW" "$D/slow-before.trace" "$D/slow-after.trace"
leads "slow function --diff-total" "$SLOW" -t main --diff-total "$D/slow-before.trace" "$D/slow-after.trace"
leads "slow function --normalize" "$SLOW" -t main --normalize "$D/slow-before.trace" "$D/slow-after.trace"

frames "$TMP/slow.txt" "$D/slow-before.trace" "$D/slow-after.trace"
# removed work: oldInit in main, the worker thread (no tid in common)
check "diff/removed oldInit in the band" grep -q ' #[0-9a-f]* removed com.example.App.oldInit$' "$TMP/slow.txt"
check "diff/removed thread in the band" grep -q ' removed worker (4300)$' "$TMP/slow.txt"
check "diff/threads matched by name (main 4242 = main 1)" grep -q '^1 .* plain main (1)$' "$TMP/slow.txt"
check "diff/new work is red" grep -q ' 0 50 50 #ff[0-9a-f]* plain com.example.App.newInit$' "$TMP/slow.txt"
check "diff/summary line names the removed work" grep -q \
	'2 stacks only in this run, 200 µs (36.36% of its time), drawn in the band .removed: only in slow-before.trace. at the right; the largest: main (1);com.example.App.onCreate;com.example.App.oldInit (150 µs)' \
	"$TMP/slow.txt.err"

# PNG and PDF: the same layout through cairo; the red of the slow frame
for fmt in png pdf svg-static; do
	if "$AFLAME" --diff -t main --format "$fmt" "$D/slow-before.trace" "$D/slow-after.trace" \
		-o "$TMP/slow.$fmt" 2>/dev/null && [ -s "$TMP/slow.$fmt" ]; then
		pass "diff/$fmt output"
	else
		fail "diff/$fmt output" "no file"
	fi
done
PNGDIFF=${PNGDIFF:-${O:-build}/pngdiff}
GOLD=golden/png/diff-slow-main.png
if [ "${AFLAME_BLESS:-}" = 1 ]; then
	cp "$TMP/slow.png" "$GOLD"
	pass "diff/png golden (blessed)"
elif [ ! -x "$PNGDIFF" ]; then
	fail "diff/png golden" "no $PNGDIFF (make check builds it)"
elif why=$("$PNGDIFF" -t 16 -n 200 "$GOLD" "$TMP/slow.png" "$TMP/slow.diff.png" 2>&1); then
	pass "diff/png golden"
else
	fail "diff/png golden" "$why"
fi

# ---- a full disk ----

# Folded stacks and the report larger than the sink's 64 KiB block meet the
# full device while being written: the one error line names it (it was an
# empty message before issue 14's output change), exit 1.
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "main;frame_number_%d;callee_%d %d\n", i, i, i % 5 + 1 }' >"$TMP/full-a.folded"
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "main;frame_number_%d;callee_%d %d\n", i, i, i % 7 + 1 }' >"$TMP/full-b.folded"
for args in "--format folded" "--report"; do
	"$AFLAME" --diff $args "$TMP/full-a.folded" "$TMP/full-b.folded" -o /dev/full 2>"$TMP/full.err"
	rc=$?
	check "diff/full disk ($args): exit 1" [ "$rc" -eq 1 ]
	check "diff/full disk ($args): names the output" \
		grep -qx "aflame-render: /dev/full: cannot write output: No space left on device" "$TMP/full.err"
done

# ---- tooltips in a browser ----

if command -v "${CHROMIUM:-chromium}" >/dev/null 2>&1 && command -v node >/dev/null 2>&1 &&
	[ -z "${AFLAME_SANITIZED:-}" ]; then
	"$AFLAME" --diff -t main "$D/slow-before.trace" "$D/slow-after.trace" -o "$TMP/t.svg" 2>/dev/null
	frames "$TMP/t.txt" -t main "$D/slow-before.trace" "$D/slow-after.trace"
	{
		head -c -7 "$TMP/t.svg"
		printf '<script><![CDATA[window.AFT_FRAMES=['
		awk 'NR > 1 { printf "%s[%s,%s,%s]", (NR > 2 ? "," : ""), $1, $2, $3 }' "$TMP/t.txt"
		printf '];\n'
		cat "$D/hover.js"
		printf ']]></script>\n</svg>\n'
	} >"$TMP/t-hover.svg"
	# tests/browser/cdp.js waits for the hovers' results: the page unpacks
	# its frames asynchronously, which --dump-dom's virtual time does not
	# wait for (under load the dump came before them)
	printf '%s %s\n' "$TMP/hover.dom" "file://$TMP/t-hover.svg" |
		timeout 120 node tests/browser/cdp.js "${CHROMIUM:-chromium}" "$TMP/chromium" >/dev/null 2>&1
	sed -n '/id="aft-out">HOVER-BEGIN/,/^HOVER-END/p' "$TMP/hover.dom" 2>/dev/null | sed '1d;$d' |
		sed -e 's/&amp;/\&/g' >"$TMP/hover.txt"
	same_file "diff/tooltips" "$TMP/hover.txt" "$D/hover.expected"
else
	skip "diff/tooltips" "chromium or node not installed (or a sanitized run)"
fi
