#!/usr/bin/perl
# svg_labels.pl: what the labels of an aflame-render SVG read like (issue
# 33's "How it will be checked"), from the SVG alone.
#
#   svg_labels.pl FILE.svg [NAMES]
#
# Frames are read from <g class="fr">'s paths (one a colour: "M x y" or
# "m dx dy" a row, then per box "v H h W v -H", "h GAP" between boxes), the
# labels from <g class="lb"> (white ink when class "lw", else black) and the
# legend's text from <g class="lg">. A label's frame is the box that starts
# at its anchor (3 px left of the label, inside its row); legend text
# stands on the background (its gradient's lighter and darker stop).
# NAMES: a file of frame names, one a line: a shortened label (one with an
# ellipsis) counts as ending right when the text after its last ellipsis
# ends some name.
# Prints one line, "labels N readable R cut C ending E legend L readable LR",
# then each unreadable label or legend text and its contrast.
use strict;
use warnings;
binmode STDOUT, ':utf8';

my ($svg, $names_file) = @ARGV;
open my $fh, '<:utf8', $svg or die "$svg: $!";
my $s = do { local $/; <$fh> };
close $fh;

sub lum {
	my $c = hex shift;
	my @ch = map { my $v = $_ / 255; $v <= 0.04045 ? $v / 12.92 : (($v + 0.055) / 1.055)**2.4 }
		($c >> 16 & 255, $c >> 8 & 255, $c & 255);
	return 0.2126 * $ch[0] + 0.7152 * $ch[1] + 0.0722 * $ch[2];
}
sub contrast {
	my ($a, $b) = (lum(shift), lum(shift));
	return $a > $b ? ($a + 0.05) / ($b + 0.05) : ($b + 0.05) / ($a + 0.05);
}
sub unesc { my $t = shift; $t =~ s/&lt;/</g; $t =~ s/&gt;/>/g; $t =~ s/&quot;/"/g; $t =~ s/&#39;/'/g; $t =~ s/&amp;/&/g; return $t }

# boxes by row top: [x, w, colour]
my %rows;
my ($fr) = $s =~ /<g class="fr">(.*?)<g class="lb">/s or die "$svg: no frames\n";
while ($fr =~ /<path fill="#([0-9a-f]{6})" d="([^"]*)"/g) {
	my ($colour, $d) = ($1, $2);
	my ($x, $y) = (0, 0);
	while ($d =~ /([Mmvh])(-?[\d.]+)(?: (-?[\d.]+))?/g) {
		my ($c, $a, $b) = ($1, $2, $3);
		if ($c eq 'M') { ($x, $y) = ($a, $b) }
		elsif ($c eq 'm') { $x += $a; $y += $b }
		elsif ($c eq 'v') { next }
		elsif (substr($d, pos($d), 2) eq 'v-') { push @{ $rows{sprintf '%.2f', $y} }, [$x, $a, $colour]; $x += $a }
		else { $x += $a }
	}
}
my @tops = sort { $a <=> $b } keys %rows;
# the box starting last at or before x (positions are rounded to tenths
# apiece, so a box's end can pass its neighbour's start by 0.1)
sub frame_at {
	my ($x, $y) = @_;
	my $best;
	for my $t (@tops) {
		next unless $t <= $y && $y < $t + 15;
		for my $b (@{ $rows{$t} }) {
			$best = $b if $b->[0] <= $x + 0.06 && $x < $b->[0] + $b->[1] + 0.06 &&
				(!$best || $b->[0] > $best->[0]);
		}
	}
	return $best ? $best->[2] : undef;
}

my @names;
if ($names_file) {
	open my $n, '<:utf8', $names_file or die "$names_file: $!";
	@names = map { chomp; $_ } <$n>;
}
my ($lb) = $s =~ /<g class="lb">(.*?)<\/g>/s;
my ($n, $ok, $cut, $ends, @bad) = (0, 0, 0, 0);
while ($lb =~ /<text x="([\d.]+)" y="([\d.]+)"( class="lw")?>([^<]*)<\/text>/g) {
	my ($x, $y, $white, $text) = ($1, $2, $3, unesc($4));
	my $bg = frame_at($x - 3, $y - 5);
	die "$svg: no frame under the label '$text' at $x,$y\n" unless defined $bg;
	my $r = contrast($bg, $white ? 'ffffff' : '000000');
	$n++;
	if ($r >= 4.5) { $ok++ } else { push @bad, sprintf('%.2f:1 %s on #%s: %s', $r, $white ? 'white' : 'black', $bg, $text) }
	next unless $text =~ /\x{2026}/;
	$cut++;
	my ($tail) = $text =~ /([^\x{2026}]*)$/;
	next if $tail eq '';
	for (@names) { if (substr($_, -length $tail) eq $tail) { $ends++; last } }
}
# the legend: text on the background
my @stops = $s =~ /-bg"[^>]*>((?:<stop [^>]*>)+)/ ? $1 =~ /stop-color="#([0-9a-f]{6})"/g : ('ffffff');
my ($ln, $lok) = (0, 0);
if (my ($lg) = $s =~ /<g class="lg">(.*?)<\/g>/s) {
	while ($lg =~ /<text [^>]*>([^<]*)<\/text>/g) {
		my $text = unesc($1);
		my ($r) = sort { $a <=> $b } map { contrast($_, '000000') } @stops;
		$ln++;
		if ($r >= 4.5) { $lok++ } else { push @bad, sprintf('%.2f:1 legend: %s', $r, $text) }
	}
}
print "labels $n readable $ok cut $cut ending $ends legend $ln readable $lok\n";
print "$_\n" for @bad;
