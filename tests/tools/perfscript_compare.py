#!/usr/bin/env python3
"""perfscript_compare.py: our folded stacks of a perf script text against
stackcollapse-perf.pl's, below the roots.

  perfscript_compare.py [-v] OURS.folded REFERENCE.folded

OURS is `aflame-render --format folded` output: its process and thread roots
("name (id)", one or two levels) are dropped. REFERENCE is
stackcollapse-perf.pl's output: its first frame (the comm) is dropped. Then
every name on both sides is made the same way: annotations (_[k], _[j],
_[i]) dropped; the argument list dropped as stackcollapse-perf.pl drops it
(from the first '(' that does not open "(anonymous namespace)", except in Go
method names such as "net/http.(*Client).Do"); quotes dropped; a Java class
name's leading 'L' dropped. Equal paths are summed.

Prints one line: stacks equal (reference stacks found with the same weight)
and weight equal (the weight both sides give each path, summed, over the
larger total), as counts and percentages; with -v, then each path whose
weights differ (ours, the reference's, the path)."""
import re
import sys

ROOT = re.compile(r'.* \(\d+\)$')
ANNOT = re.compile(r'_\[[kjiw]\]$')
ARGS = re.compile(r'\((?!anonymous namespace\)).*')
GO_METHOD = re.compile(r'\.\(.*\)\.')


def tidy(name):
    name = ANNOT.sub('', name)
    if not GO_METHOD.search(name):
        name = ARGS.sub('', name)
    name = name.replace('"', '').replace("'", '')
    if name.startswith('L') and '/' in name:
        name = name[1:]
    return name


def read(path, ours):
    stacks = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            line = line.rstrip('\n')
            if not line:
                continue
            stack, _, count = line.rpartition(' ')
            frames = stack.split(';')
            if ours:
                k = 0
                while k < 2 and k < len(frames) and ROOT.match(frames[k]):
                    k += 1
                frames = frames[max(k, 1):] if k else frames[1:]
            else:
                frames = frames[1:]
            key = ';'.join(tidy(x) for x in frames)
            stacks[key] = stacks.get(key, 0) + int(count)
    return stacks


def main():
    args = sys.argv[1:]
    verbose = args[:1] == ['-v']
    args = args[1:] if verbose else args
    ours, ref = read(args[0], True), read(args[1], False)
    same = sum(1 for k, w in ref.items() if ours.get(k) == w)
    both = sum(min(w, ours.get(k, 0)) for k, w in ref.items())
    total = max(sum(ref.values()), sum(ours.values()), 1)
    print('stacks %d/%d %.2f%% weight %d/%d %.3f%%' % (
        same, len(ref), 100.0 * same / max(len(ref), 1), both, total, 100.0 * both / total))
    if verbose:
        for k in sorted(set(ours) | set(ref)):
            if ours.get(k) != ref.get(k):
                print('  %s %s %s' % (ours.get(k), ref.get(k), k))


main()
