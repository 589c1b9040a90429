#!/usr/bin/env python3
"""speedscope_compare.py: how far our folded output of a V8 CPU profile (a
.cpuprofile, or Chrome trace events with Profile/ProfileChunk/CpuProfile)
agrees with speedscope's import of the same file, as shares.

  speedscope_compare.py OURS SPEEDSCOPE_STACKS [MIN_STACKS MIN_WEIGHT]

SPEEDSCOPE_STACKS: the "stacks" of speedscope's test snapshot for the file
(src/import/__snapshots__/*.snap: one line a run, "f;g;h 1.23ms", time
order), as tests/data/*/speedscope/SOURCES.md says. speedscope's reading
differs from ours by rule, so both sides are brought to what they share
before comparing: frames by function name only (ours "f (file.js:3)" and
"(anonymous) (file.js:3)", speedscope's "f" and "(anonymous file.js:3)"
become "f" and "(anonymous)"); our process and thread roots dropped (a
group's profiles summed); stacks holding (idle), (program) or (garbage
collector) left out on both sides (speedscope drops (idle) and stacks
(program) and GC on the stack before them; we draw them as frames of their
own), and speedscope's empty stacks (the time before the first sample);
our stacks through V8's "native dummy.js" frames left out (speedscope
ignores those frames).
Prints "stacks S weight W" as compare_folded.py does; with the minimums,
exits 1 below either."""
import re
import sys
from collections import defaultdict

from compare_folded import agree

UNITS = {'ns': 1e-3, 'µs': 1.0, 'us': 1.0, 'ms': 1e3, 's': 1e6, 'min': 6e7}
SPECIAL = ('(idle)', '(program)', '(garbage collector)')


def ours(path, roots):
    w = defaultdict(float)
    for line in open(path, encoding='utf-8', errors='replace'):
        stack, _, count = line.rstrip('\n').rpartition(' ')
        frames = stack.split(';')[roots:]
        if any(f.endswith('(native dummy.js:1)') for f in frames):
            continue   # speedscope leaves V8's "native dummy.js" frames out (and what they hold)
        frames = [re.sub(r' \([^()]*\)$', '', f) if f not in SPECIAL else f for f in frames]
        w[tuple(frames)] += float(count)
    return w


def theirs(path):
    w = defaultdict(float)
    for line in open(path, encoding='utf-8'):
        stack, _, value = line.rstrip('\n').rpartition(' ')
        m = re.fullmatch(r'([0-9.]+)([a-zµ]+)', value)
        frames = [re.sub(r'^\(anonymous .*\)$', '(anonymous)', f) for f in stack.split(';')] if stack else []
        w[tuple(frames)] += float(m.group(1)) * UNITS[m.group(2)]
    return w


def shares(w):
    w = {k: v for k, v in w.items() if k and v > 0 and not any(f in SPECIAL for f in k)}
    total = sum(w.values()) or 1.0
    return {k: v / total for k, v in w.items()}


def main():
    roots = 1 if open(sys.argv[1], encoding='utf-8', errors='replace').readline().startswith('JavaScript (') else 2
    a, b = shares(ours(sys.argv[1], roots)), shares(theirs(sys.argv[2]))
    # speedscope prints 2 decimals of its unit (10 µs of a ms): 2% or 0.01 points
    agree(a, b, sys.argv, tolerance=0.02)


if __name__ == '__main__':
    main()
