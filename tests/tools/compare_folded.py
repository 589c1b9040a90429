#!/usr/bin/env python3
"""compare_folded.py: how far two folded-stack files agree, as shares.

  compare_folded.py OURS REFERENCE [MIN_STACKS MIN_WEIGHT]

stacks: of the stacks with weight in either file, the share that both have
with weight shares within 1% (relative) or 0.01 points of each other;
weight: the sum over stacks of the smaller of the two weight shares (1.0 when
the files spread their weight alike). Prints "stacks S weight W"; with the
minimums, exits 1 below either."""
import sys
from collections import defaultdict


def read(path):
    w = defaultdict(float)
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if not line:
            continue
        stack, _, count = line.rpartition(' ')
        w[stack] += float(count)
    total = sum(w.values()) or 1.0
    return {k: v / total for k, v in w.items() if v > 0}


def agree(a, b, argv, tolerance=0.01):
    """Print how far share maps a and b agree (the measure above, with
    tolerance for 1%); with argv's minimums, exit 1 below either."""
    keys = set(a) | set(b)
    same = sum(1 for k in keys if k in a and k in b and
               (abs(a[k] - b[k]) <= tolerance * max(a[k], b[k]) or abs(a[k] - b[k]) < 1e-4))
    stacks = same / len(keys) if keys else 1.0
    weight = sum(min(a.get(k, 0), b.get(k, 0)) for k in keys)
    print('stacks %.4f weight %.4f (%d stacks)' % (stacks, weight, len(keys)))
    if len(argv) > 4 and (stacks < float(argv[3]) or weight < float(argv[4])):
        sys.exit(1)


def main():
    agree(read(sys.argv[1]), read(sys.argv[2]), sys.argv)


if __name__ == '__main__':
    main()
