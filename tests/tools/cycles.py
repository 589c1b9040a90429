#!/usr/bin/env python3
"""cycles.py OBJ...: print every cycle between object files (A uses a symbol
B defines and B, directly or not, uses one of A's), from `nm` output; exit 1
if there is one. Modules must form layers: each depends only on lower ones."""
import subprocess
import sys

defined, uses = {}, {}
names = {obj: obj.rsplit('/', 1)[-1].removesuffix('.o') for obj in sys.argv[1:]}
for name in names.values():
    uses[name] = set()
# one nm for every object (-A names the file, -P: "file: symbol type ..."):
# a process per object cost seconds on a machine where each start is dear
out = subprocess.run(['nm', '-A', '-P', *sys.argv[1:]], capture_output=True, text=True, check=True).stdout
for line in out.splitlines():
    obj, _, rest = line.partition(': ')
    parts = rest.split()
    if obj not in names or len(parts) < 2:
        continue
    name, symbol, kind = names[obj], parts[0], parts[1]
    if kind == 'U':
        uses[name].add(symbol)
    elif kind in 'TDBRCGSV':
        defined[symbol] = name

edges = {m: {defined[s] for s in syms if s in defined and defined[s] != m} for m, syms in uses.items()}

# Tarjan's strongly connected components, iteratively
index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
for root in edges:
    if root in index:
        continue
    work = [(root, iter(sorted(edges[root])))]
    index[root] = low[root] = counter[0]; counter[0] += 1
    stack.append(root); on.add(root)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = counter[0]; counter[0] += 1
                stack.append(w); on.add(w)
                work.append((w, iter(sorted(edges[w]))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(sorted(comp))

for comp in sccs:
    pairs = [f'{a} -> {b}' for a in comp for b in sorted(edges[a]) if b in comp]
    print('cycle: ' + ', '.join(pairs))
sys.exit(1 if sccs else 0)
