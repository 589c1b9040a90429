# tier: full
# conformance.sh: our frames equal flamegraph.pl's, input by input and option
# by option. Runs only when FLAMEGRAPH_PL names a readable flamegraph.pl (it
# is CDDL-licensed and not part of this project), else prints one SKIP.
#
# For each input (tests/data/folded/*.folded, FlameGraph's perf samples
# collapsed in tests/data/flamegraph-pl, differential pairs of them through
# difffolded.pl when it is next to flamegraph.pl, larger generated ones) and
# each option set, flamegraph.pl's SVG is parsed (each <title> and <rect>:
# name, samples, x, width; depth from the row) and compared with our
# `--format frames` dump. Every frame has a path (its callers' names), found
# from the geometry for flamegraph.pl's frames. Where flamegraph.pl draws
# one function twice under the same caller (the split frame: a stack that
# ends in "foo" sorts before "foo2;..." and "foo;..." after it, see
# docs/flamegraph-pl.md), the frames under that caller are compared by
# weight per path only; every other frame must match exactly.
# Names are compared without annotations (_[k], _[j], _[i], _[w]), as
# flamegraph.pl shows them. Colours are not compared (deliberately ours).
#   CONFORMANCE_BIG=0  skip the generated inputs
. tests/lib.sh
if [ -z "${FLAMEGRAPH_PL:-}" ] || [ ! -r "$FLAMEGRAPH_PL" ]; then
	skip "conformance" "set FLAMEGRAPH_PL=/path/to/flamegraph.pl to compare with it"
	exit 0
fi
command -v perl >/dev/null || { skip "conformance" "perl not installed"; exit 0; }

# The comparison. Both sides are turned into lines
#   path \t depth \t x \t width \t samples
# then compared as described above. Prints "ok N M K" (frames compared
# exactly, frames compared by weight, split frames) or the differences.
cat >"$TMP/compare.pl" <<'PERL'
use strict;
use warnings;
my ($pl_svg, $ours, $factor, $inverted) = @ARGV;
binmode STDOUT, ':utf8';

sub strip { my $n = shift; $n =~ s/_\[[kwij]\]$//; return $n }
sub unesc { my $s = shift; $s =~ s/&lt;/</g; $s =~ s/&gt;/>/g; $s =~ s/&quot;/"/g; $s =~ s/&#39;/'/g; $s =~ s/&amp;/&/g; return $s }

# flamegraph.pl: name, samples, x, y, w
open my $fh, '<:utf8', $pl_svg or die "$pl_svg: $!";
my @pl;
my $title;
while (<$fh>) {
	if (/<title>(.*)<\/title>/) {
		$title = unesc($1);
	}
	if (defined $title && /<rect x="([-\d.]+)" y="([-\d.]+)" width="([-\d.]+)"/) {
		my ($x, $y, $w) = ($1, $2, $3);
		my ($name, $n) = $title =~ /^(.*) \(([\d,]+) [^,]*, [\d.]+%(?:; [-+\d.]+%)?\)$/s
			or die "cannot parse title: $title";
		$n =~ s/,//g;
		push @pl, { name => $name, n => $n, x => $x, y => $y, w => $w };
		undef $title;
	}
}
close $fh;
# depth from the row: rows in order from the root
my %ys = map { $_->{y} => 1 } @pl;
my @rows = sort { $inverted ? $a <=> $b : $b <=> $a } keys %ys;
my %depth_of;
@depth_of{@rows} = (0 .. $#rows);
$_->{depth} = $depth_of{$_->{y}} for @pl;
# paths: the parent is the frame one row nearer the root under the centre
# (the last frame of that row starting at or before it)
my @by_depth;
push @{ $by_depth[$_->{depth}] }, $_ for sort { $a->{x} <=> $b->{x} } @pl;
for my $f (@pl) {
	if ($f->{depth} == 0) { $f->{path} = ''; next }
	my $c = $f->{x} + $f->{w} / 2;
	my $row = $by_depth[$f->{depth} - 1];
	my ($lo, $hi, $best) = (0, $#$row, undef);
	while ($lo <= $hi) {
		my $mid = ($lo + $hi) >> 1;
		if ($row->[$mid]{x} <= $c + 1e-9) { $best = $row->[$mid]; $lo = $mid + 1 } else { $hi = $mid - 1 }
	}
	$f->{parent} = $best if $best && $c <= $best->{x} + $best->{w} + 1e-9;
}
# in order of depth, so a parent's path is known before its callees'
for my $f (sort { $a->{depth} <=> $b->{depth} } @pl) {
	next if defined $f->{path};
	my $p = $f->{parent} ? $f->{parent}{path} : '?';
	$f->{path} = ($p eq '' ? '' : "$p;") . $f->{name};
}

# ours: pre-order, so the path is the stack of names
open $fh, '<:utf8', $ours or die "$ours: $!";
my (@us, @stack);
my $delta = 0;   # differential graphs: a delta column before the name
while (<$fh>) {
	if (/^#/) { $delta = /delta/ ? 1 : 0; next }
	chomp;
	my ($d, $x, $w, $n, $name) = $delta ? /^(\d+) (\S+) (\S+) (\S+) \S+ (.*)$/
	                                    : /^(\d+) (\S+) (\S+) (\S+) (.*)$/ or die "bad frame line: $_";
	$name = $d == 0 ? 'all' : strip($name);
	$#stack = $d - 1;
	my $path = join ';', grep { defined } @stack[1 .. $#stack], $d ? $name : ();
	$stack[$d] = $name;
	push @us, { path => $d ? $path : '', depth => $d, x => $x, w => $w,
		    n => sprintf('%.0f', $n * $factor), name => $name };
}
close $fh;

# frames equal without their paths: done (paths from geometry are only
# needed to tell split frames apart, and are ambiguous for frames that
# round to 0.0 px)
my (%flat_pl, %flat_us);
$flat_pl{"$_->{depth}\t$_->{name}\t$_->{x}\t$_->{w}\t$_->{n}"}++ for @pl;
$flat_us{"$_->{depth}\t$_->{name}\t$_->{x}\t$_->{w}\t$_->{n}"}++ for @us;
if (join("\n", map { "$_ $flat_pl{$_}" } sort keys %flat_pl) eq
    join("\n", map { "$_ $flat_us{$_}" } sort keys %flat_us)) {
	printf "ok %d 0 0\n", scalar @us;
	exit 0;
}

# split callers: a path flamegraph.pl draws more than once
my %count;
$count{ $_->{path} }++ for @pl;
my %split_parent;
for my $p (grep { $count{$_} > 1 } keys %count) {
	(my $parent = $p) =~ s/;?[^;]*$//;
	$split_parent{$parent} = 1;
}
sub under_split {
	my $path = shift;
	return 0 unless %split_parent;
	return 1 if $split_parent{''} && $path ne '';
	my $i = -1;
	while (($i = index($path, ';', $i + 1)) >= 0) {
		return 1 if $split_parent{ substr($path, 0, $i) };
	}
	return 0;
}
my (%exact_pl, %exact_us, %sum_pl, %sum_us);
my ($nexact, $nsum) = (0, 0);
for my $f (@pl) {
	if (under_split($f->{path})) { $sum_pl{"$f->{depth}\t$f->{path}"} += $f->{n}; next }
	$exact_pl{"$f->{path}\t$f->{depth}\t$f->{x}\t$f->{w}\t$f->{n}"}++;
}
for my $f (@us) {
	if (under_split($f->{path})) { $sum_us{"$f->{depth}\t$f->{path}"} += $f->{n}; $nsum++; next }
	$exact_us{"$f->{path}\t$f->{depth}\t$f->{x}\t$f->{w}\t$f->{n}"}++;
	$nexact++;
}
my @diff;
for my $k (sort keys %{{ %exact_pl, %exact_us }}) {
	my ($a, $b) = ($exact_pl{$k} // 0, $exact_us{$k} // 0);
	push @diff, ($a > $b ? "only flamegraph.pl: " : "only ours: ") . $k if $a != $b;
}
for my $k (sort keys %{{ %sum_pl, %sum_us }}) {
	my ($a, $b) = ($sum_pl{$k} // 0, $sum_us{$k} // 0);
	push @diff, "weight differs under a split frame: $k: flamegraph.pl $a, ours $b" if $a != $b;
}
if (@diff) {
	print scalar(@diff), " differences: ", join(' | ', @diff[0 .. ($#diff < 5 ? $#diff : 5)]), "\n";
	exit 1;
}
printf "ok %d %d %d\n", $nexact, $nsum, scalar(grep { $count{$_} > 1 } keys %count);
PERL

total_exact=0 total_sum=0 total_split=0 ncompared=0
# compare NAME INPUT OPTIONS...
compare() {
	local name=$1 input=$2
	shift 2
	local factor=1 inverted=0 a
	for a in "$@"; do
		case $a in
		--factor=*) factor=${a#--factor=} ;;
		--inverted) inverted=1 ;;
		esac
	done
	if ! perl "$FLAMEGRAPH_PL" "$@" "$input" >"$TMP/pl.svg" 2>"$TMP/pl.err"; then
		fail "conformance/$name" "flamegraph.pl failed: $(head -1 "$TMP/pl.err")"
		return
	fi
	if ! "$AFLAME" -f folded --format frames "$@" "$input" -o "$TMP/ours.txt" 2>"$TMP/ours.err"; then
		fail "conformance/$name" "aflame-render failed: $(head -1 "$TMP/ours.err")"
		return
	fi
	local r
	if r=$(perl "$TMP/compare.pl" "$TMP/pl.svg" "$TMP/ours.txt" "$factor" "$inverted"); then
		set -- $r
		total_exact=$((total_exact + $2))
		total_sum=$((total_sum + $3))
		total_split=$((total_split + $4))
		ncompared=$((ncompared + 1))
		pass "conformance/$name ($2 frames exact, $3 by weight under $4 split frames)"
	else
		fail "conformance/$name" "$r"
	fi
}

options=(
	""
	"--width=800"
	"--minwidth=2"
	"--minwidth=0.5%"
	"--inverted"
	"--reverse"
	"--factor=2.5"
	"--height=20 --fontsize=10 --countname=ms"
)
for f in "$DATA"/folded/*.folded; do
	base=$(basename "$f" .folded)
	case $base in
	crlf-*) continue ;;   # flamegraph.pl skips CRLF lines: a deliberate difference
	esac
	for o in "${options[@]}"; do
		# shellcheck disable=SC2086
		compare "$base${o:+ $o}" "$f" $o
	done
done
total=$(awk '{ n = NF - 1; if (NF >= 2) s += $NF } END { printf "%d", s * 2 }' "$DATA/folded/basic.folded")
compare "basic --total=$total" "$DATA/folded/basic.folded" "--total=$total"
compare "diff --negate" "$DATA/folded/diff.folded" --negate

# Real inputs: FlameGraph's own perf samples, collapsed by stackcollapse-perf.pl
# (tests/data/flamegraph-pl/SOURCES.md), under the options people use most.
real_options=(
	""
	"--reverse"
	"--inverted"
	"--minwidth=2"
	"--width=800"
	"--flamechart"
	"--reverse --inverted --minwidth=0.5%"
)
for gz in "$DATA"/flamegraph-pl/*.folded.gz; do
	base=$(basename "$gz" .folded.gz)
	gzip -dc "$gz" >"$TMP/$base.folded"
	for o in "${real_options[@]}"; do
		# shellcheck disable=SC2086
		compare "$base${o:+ $o}" "$TMP/$base.folded" $o
	done
done
# Where the frames are drawn, not only their rows: the picture's height and
# each row's y. Our default subtitle ("file · samples") adds flamegraph.pl's
# subtitle row, so flamegraph.pl is given that same subtitle; --subtitle ''
# draws no subtitle row, flamegraph.pl's own layout without one. (Inverted
# graphs with a subtitle are left out: flamegraph.pl draws their frames over
# the subtitle, ours below it.)
rows_of() { # SVG: its height, then the y of each row of frames (ours: the
	# rows of each colour's path, "M x y" then "m dx dy" to the next row)
	perl -0777 -ne 'print "height $1\n" if /<svg [^>]*height="([\d.]+)"/;
		my ($fr) = /<g class="fr">(.*?)<g class="lb">/s;
		for my $d (($fr // "") =~ /<path fill="#[0-9a-f]+" d="([^"]*)"/g) {
			my $y = 0;
			while ($d =~ /([Mm])(-?[\d.]+) (-?[\d.]+)/g) {
				$y = $1 eq "M" ? $3 : $y + $3;
				$y{sprintf "%g", $y}++;
			}
		}
		$y{$1 + 0}++ while /<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="[\d.]+" fill="rgb[^"]*" rx="2"/g;
		END { print "$_\n" for sort { $a <=> $b } keys %y }' "$1"
}
layout() { # NAME INPUT OPTIONS...: rows and height as flamegraph.pl's
	local name=$1 input=$2 st
	shift 2
	"$AFLAME" -f folded "$@" "$input" -o "$TMP/ours.svg" 2>/dev/null
	st=$(sed -n 's/.*<text class="st"[^>]*>\([^<]*\)<\/text>.*/\1/p' "$TMP/ours.svg")
	perl "$FLAMEGRAPH_PL" ${st:+--subtitle "$st"} "$@" "$input" >"$TMP/pl.svg" 2>/dev/null
	rows_of "$TMP/ours.svg" >"$TMP/ours.rows"
	rows_of "$TMP/pl.svg" >"$TMP/pl.rows"
	if [ "$(wc -l <"$TMP/ours.rows")" -gt 2 ] && cmp -s "$TMP/ours.rows" "$TMP/pl.rows"; then
		pass "conformance/layout: $name (${st:-no subtitle}): height and $(($(wc -l <"$TMP/ours.rows") - 1)) rows at flamegraph.pl's y"
	else
		fail "conformance/layout: $name" "$(diff "$TMP/pl.rows" "$TMP/ours.rows" | head -4 | tr '\n' ' ')"
	fi
}
for base in perf-java-stacks-01 perf-vertx-stacks-01-all; do
	layout "$base" "$TMP/$base.folded"
	layout "$base --width=800 --fontsize=10 --height=20" "$TMP/$base.folded" --width=800 --fontsize=10 --height=20
	layout "$base --subtitle ''" "$TMP/$base.folded" --subtitle ''
	layout "$base --subtitle '' --inverted" "$TMP/$base.folded" --subtitle '' --inverted
done

# Differential graphs of real pairs, made by difffolded.pl next to flamegraph.pl.
difffolded=$(dirname "$FLAMEGRAPH_PL")/difffolded.pl
if [ -r "$difffolded" ]; then
	for pair in "perf-java-stacks-02 perf-java-stacks-01" "perf-funcab-cmd-01 perf-funcab-pid-01" \
		    "perf-js-stacks-01 perf-mirageos-stacks-01"; do
		set -- $pair
		for n in "" "-n"; do
			perl "$difffolded" $n "$TMP/$1.folded" "$TMP/$2.folded" >"$TMP/diff-$1$n.folded"
			for o in "" "--negate" "--reverse"; do
				# shellcheck disable=SC2086
				compare "difffolded.pl $n $1 $2${o:+ $o}" "$TMP/diff-$1$n.folded" $o
			done
		done
	done
else
	skip "conformance/difffolded.pl" "no difffolded.pl next to $FLAMEGRAPH_PL"
fi

if [ "${CONFORMANCE_BIG:-1}" = 1 ] && command -v cc >/dev/null; then
	if cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -o "$TMP/gen_folded" bench/gen_folded.c 2>"$TMP/cc.err"; then
		"$TMP/gen_folded" 20000 33 1 >"$TMP/gen-20k.folded"
		"$TMP/gen_folded" 3000 60 7 >"$TMP/gen-deep.folded"
		for o in "" "--minwidth=0" "--inverted --width=1600" "--reverse"; do
			# shellcheck disable=SC2086
			compare "generated 20k stacks${o:+ $o}" "$TMP/gen-20k.folded" $o
		done
		compare "generated deep stacks" "$TMP/gen-deep.folded"
	else
		fail "conformance/generated" "cannot build bench/gen_folded.c: $(head -1 "$TMP/cc.err")"
	fi
fi
echo "INFO: conformance: $ncompared comparisons, $total_exact frames equal, $total_sum frames under $total_split split frames equal by weight"
