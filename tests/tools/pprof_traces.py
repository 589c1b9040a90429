#!/usr/bin/env python3
"""pprof_traces.py [--exact] [--scale N] TRACES[.gz] FOLDED: compare aflame-render's folded stacks
of a pprof profile with what `go tool pprof -traces -unit=ns|B` printed for
it (the reference, kept beside the profile). The traces are turned into
folded stacks: frames root first, " (inline)" dropped, samples of value 0
or below dropped (aflame-render leaves negative ones out; and its leaves of weight 0, which
are no sample), identical stacks summed; the labels tid/thread_id, thread/thread_name and pid/process_id
become the roots aflame-render draws ("name (tid)" below "main thread's
name (pid)"). aflame-render's unsymbolized frames "file+0xoffset" are
compared as pprof prints them at function granularity, "[file]" (and
"[unknown]+0x..." as "<unknown>"); control characters in names as '?'.
--exact compares names as they are (a profile aflame-render wrote, whose
functions are its frame names); --scale N multiplies aflame-render's weights
(µs written as nanoseconds: 1000). Prints the agreement; exits 1 unless
every stack and weight agree."""
import collections, gzip, re, sys


def traces(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8', errors='replace') as f:
        text = f.read()
    out = collections.Counter()
    for block in text.split('-----------+-------------------------------------------------------\n')[1:]:
        labels, frames, value = {}, [], None
        for line in block.splitlines():
            m = re.match(r'^\s*(\S+):\s\s(.*)$', line)
            if m and value is None:
                labels[m.group(1)] = m.group(2).strip('[]')
                continue
            if value is None:
                m = re.match(r'^\s*(-?\d+)[a-zA-Z]*   (.*)$', line)
                if not m:
                    sys.exit('unreadable trace line (a scaled value?): ' + line)
                value = int(m.group(1))
                frames.append(m.group(2))
            else:
                frames.append(line.strip())
        if not value or value < 0:
            continue
        frames = [re.sub(r'[\x00-\x1f\x7f]', '?', re.sub(r' \(inline\)$', '', f)) for f in frames]
        tid = labels.get('tid', labels.get('thread_id'))
        name = labels.get('thread', labels.get('thread_name'))
        pid = labels.get('pid', labels.get('process_id'))
        thread = None
        if tid is not None or name is not None:
            thread = (name or 'thread-%s' % tid) + (' (%s)' % tid if tid is not None else '')
        out[(pid, thread, ';'.join(reversed(frames)))] += value
    mains = {pid: t[:-len(' (%s)' % pid)] for pid, t, _ in out if pid and t and t.endswith(' (%s)' % pid)}
    folded = collections.Counter()
    for (pid, thread, stack), v in out.items():
        roots = (['%s (%s)' % (mains.get(pid, 'process-' + pid), pid)] if pid is not None else []) + \
            ([thread] if thread else [])
        folded[';'.join(roots + [stack])] += v
    return folded


def ours_frame(fr):
    m = re.match(r'^(.*)\+0x[0-9a-f]+$', fr)
    if not m:
        return fr
    return '<unknown>' if m.group(1) == '[unknown]' else '[' + m.group(1) + ']'


def ours(path, exact, scale):
    out = collections.Counter()
    for line in open(path, encoding='utf-8', errors='replace'):
        stack, _, v = line.rstrip('\n').rpartition(' ')
        if not exact:
            stack = ';'.join(ours_frame(f) for f in stack.split(';'))
        if int(v):   # a leaf of weight 0 is no sample
            out[stack] += int(v) * scale
    return out


args = sys.argv[1:]
exact = '--exact' in args
scale = int(args[args.index('--scale') + 1]) if '--scale' in args else 1
files = [a for i, a in enumerate(args) if not a.startswith('--') and (i == 0 or args[i - 1] != '--scale')]
ref, got = traces(files[0]), ours(files[1], exact, scale)
keys = set(ref) | set(got)
same = [k for k in keys if ref.get(k) == got.get(k)]
print('stacks: %d of %d equal; weight: ours %d, go tool pprof %d' %
      (len(same), len(keys), sum(got.values()), sum(ref.values())))
for k in sorted(k for k in keys if ref.get(k) != got.get(k))[:5]:
    print('  differs: %s: ours %s, pprof %s' % (k[:200], got.get(k), ref.get(k)))
sys.exit(0 if len(same) == len(keys) else 1)
