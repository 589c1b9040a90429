#!/usr/bin/env python3
"""sizes.py [--list N] SRC: the sizes the code keeps to (issue 32): no source
file over 1,000 lines, no function over 80 (from the line of its opening
brace at column 0 to its closing one, with the signature above it). Prints
each breach and exits 1; with --list N, prints the N largest files and the
N longest functions instead."""
import os
import re
import sys

MAX_FILE, MAX_FUNC = 1000, 80
args = sys.argv[1:]
listing = int(args[1]) if args[:1] == ['--list'] else 0
src = args[-1]
files, funcs = [], []
for root, _, names in os.walk(src):
    for name in names:
        if not name.endswith(('.c', '.h', '.js')):
            continue
        path = os.path.join(root, name)
        with open(path, encoding='utf-8') as f:
            lines = f.read().split('\n')
        files.append((len(lines) - (lines[-1] == ''), path))
        if not name.endswith('.c'):
            continue
        start = None
        for n, line in enumerate(lines, 1):
            if line == '{':
                start = n
                head = n - 1
                # the signature's first line: back over its continuation lines
                while head > 1 and lines[head - 2].strip() and \
                        not lines[head - 2].rstrip().endswith((';', '}', '*/')) and \
                        not lines[head - 2].startswith('#'):
                    head -= 1
                sig = ' '.join(lines[head - 1:n - 1])
            elif line == '}' and start is not None:
                m = re.search(r'(\w+)\s*\(', sig)
                funcs.append((n - head + 1, f'{path}:{head}', m.group(1) if m else sig.strip()))
                start = None

if listing:
    for count, path in sorted(files, reverse=True)[:listing]:
        print(f'{count:6d}  {path}')
    print()
    for count, where, name in sorted(funcs, reverse=True)[:listing]:
        print(f'{count:6d}  {name}  {where}')
    sys.exit(0)
bad = [f'{p}: {c} lines (at most {MAX_FILE})' for c, p in files if c > MAX_FILE]
bad += [f'{w}: {n}() has {c} lines (at most {MAX_FUNC})' for c, w, n in funcs if c > MAX_FUNC]
print('\n'.join(bad))
sys.exit(1 if bad else 0)
