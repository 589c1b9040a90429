#!/usr/bin/env python3
"""folders.py SRC [OBJDIR]: check the folder rule of SRC/README.md. Each
folder's README.md has a line "May include: a, b/c.h"; a source file may
include headers of its own folder, of the folders named there and the
headers named there, nothing else; with OBJDIR (objects laid out as the
sources are), an object may take symbols only from objects of its own folder
or of folders named there. Prints each breach, exits 1 if there is one."""
import os
import re
import subprocess
import sys

src = sys.argv[1]
objdir = sys.argv[2] if len(sys.argv) > 2 else None
allowed, breaches = {}, []
for root, _, files in os.walk(src):
    if 'README.md' not in files or root == src:
        continue
    folder = os.path.relpath(root, src)
    with open(os.path.join(root, 'README.md'), encoding='utf-8') as f:
        m = re.search(r'^May include: (.*)$', f.read(), re.M)
    if not m:
        breaches.append(f'{folder}/README.md: no "May include:" line')
        continue
    allowed[folder] = {w.strip() for w in m.group(1).split(',')}


def may(folder, target):
    """may folder reach target (a folder, or a header's path)?"""
    rule = allowed.get(folder, set())
    return target.startswith(folder + '/') or target == folder or \
        target in rule or any(target.startswith(r + '/') for r in rule)


def folder_of(path):
    """the deepest folder with a rule that holds path (relative to src)"""
    d = os.path.dirname(path)
    while d and d not in allowed:
        d = os.path.dirname(d)
    return d


for root, _, files in os.walk(src):
    for name in files:
        if not name.endswith(('.c', '.h')):
            continue
        path = os.path.relpath(os.path.join(root, name), src)
        folder = folder_of(path)
        if not folder:
            breaches.append(f'{path}: in no folder with a README.md rule')
            continue
        with open(os.path.join(root, name), encoding='utf-8') as f:
            for n, line in enumerate(f, 1):
                m = re.match(r'#include "([^"]+)"', line)
                if not m or '/' not in m.group(1):
                    continue
                target = m.group(1)
                if os.path.dirname(target) == os.path.dirname(path):
                    continue
                if not may(folder, target):
                    breaches.append(f'{path}:{n}: {folder}/ may not include "{target}"')

if objdir:
    objs = []
    for root, _, files in os.walk(objdir):
        objs += [os.path.join(root, f) for f in files if f.endswith('.o')]
    defined, uses = {}, {}
    out = subprocess.run(['nm', '-A', '-P', *objs], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        obj, _, rest = line.partition(': ')
        parts = rest.split()
        if len(parts) < 2:
            continue
        rel = os.path.relpath(obj, objdir)
        if parts[1] == 'U':
            uses.setdefault(rel, set()).add(parts[0])
        elif parts[1] in 'TDBRCGSV':
            defined.setdefault(parts[0], []).append(rel)
    for obj, syms in sorted(uses.items()):
        folder = folder_of(obj)
        if folder not in allowed:
            continue
        for s in sorted(syms):
            others = [o for o in defined.get(s, []) if folder_of(o) in allowed]
            if others and not any(may(folder, folder_of(o)) for o in others):
                breaches.append(f'{obj}: {folder}/ takes {s} from {others[0]}')

for b in breaches:
    print(b)
sys.exit(1 if breaches else 0)
