#!/usr/bin/env python3
"""chart_rows.py FILE.svg: whether a flame chart's frames are where a time
axis can be read: every box inside the graph's width (xpad 10 px each side
of the image) and no two boxes of one row overlapping. Boxes are read from
the paths of <g class="fr"> (svg_labels.pl: "M x y" or "m dx dy" a row,
then per box "v H h W v -H", "h GAP" between boxes). Prints
"boxes N rows R outside O overlaps V" and each fault; exit 1 if any."""
import re
import sys

EPS = 0.2   # boxes are written to 0.1 px, relative to the one before: rounding

svg = open(sys.argv[1], encoding='utf-8').read()
width = float(re.search(r'<svg[^>]*\bwidth="([0-9.]+)"', svg).group(1))
group = re.search(r'<g class="fr">(.*?)</g>', svg, re.S).group(1)
boxes = []
for d in re.findall(r'<path[^>]*\bd="([^"]*)"', group):
    x = y = 0.0
    toks = re.findall(r'[MmVvHh]|-?[0-9.]+(?:e-?[0-9]+)?', d)
    i, ops = 0, []
    while i < len(toks):
        op = toks[i]
        if op in 'Mm':
            dx, dy = float(toks[i + 1]), float(toks[i + 2])
            x, y = (dx, dy) if op == 'M' else (x + dx, y + dy)
            i += 3
        else:
            n = float(toks[i + 1])
            ops.append((op, n, x, y))
            if op == 'h':
                x += n
            elif op == 'v':
                y += n
            i += 2
        # a box: v +H, h W, v -H
        if len(ops) >= 3 and [o[0] for o in ops[-3:]] == ['v', 'h', 'v'] \
                and ops[-3][1] > 0 and ops[-1][1] == -ops[-3][1]:
            boxes.append((ops[-3][3], ops[-3][2], ops[-2][1]))   # y, x, w
            ops = []
faults = []
rows = {}
for y, x, w in boxes:
    if x < 10 - EPS or x + w > width - 10 + EPS:
        faults.append('outside: y %g x %g w %g' % (y, x, w))
    rows.setdefault(round(y, 1), []).append((x, w))
outside = len(faults)
for y, row in sorted(rows.items()):
    row.sort()
    for (x1, w1), (x2, w2) in zip(row, row[1:]):
        if x2 < x1 + w1 - EPS:
            faults.append('overlap: y %g x %g w %g and x %g w %g' % (y, x1, w1, x2, w2))
print('boxes %d rows %d outside %d overlaps %d' % (len(boxes), len(rows), outside,
                                                   len(faults) - outside))
for f in faults[:20]:
    print(f)
sys.exit(1 if faults or not boxes else 0)
