#!/usr/bin/env python3
"""trace_event_ref.py: an independent reading of Chrome trace-event JSON and
V8 .cpuprofile files into folded stacks, written from the formats' specs (the
Trace Event Format document; V8's Profiler domain), not from aflame-render's
C code, to check the chrome and cpuprofile readers on real files
(tests/suites/chrome.sh).

  trace_event_ref.py FILE > out.folded

Trace events: slices are intervals. B and E events of a thread, in time
order (file order at one time), pair up through a stack; an X event is the
interval [ts, ts + dur). The intervals of a thread then nest by time (start
ascending, longer first): a slice's self time is its length less its
children's. Samples (a "samples" array and "stackFrames"): each sample's
stack is its frame's chain of parents, weighed by the time to its thread's
next sample. V8 CPU profiles in trace events (Chrome's JS sampler: a
"Profile" event on the sampled thread, "ProfileChunk" events of its pid and
id carrying args.data.cpuProfile.nodes/samples and args.data.timeDeltas;
before Chrome 69 one "CpuProfile" event with a whole profile): each profile
on its own, sample k at startTime + deltas[0..k] (never before sample k-1),
weighed by the time to the profile's next sample (the last: nothing), its
stack its node's chain of parents below "(root)", drawn on the Profile
event's thread; such a file draws its samples, not its slices. .cpuprofile: each sample's node's chain of parents below
"(root)", weighed by the time to the next sample. Weights in µs (floats).
Roots as aflame-render names them: "process (pid);thread (tid)" for trace
events, "JavaScript (0)" for a .cpuprofile.
"""
import gzip
import json
import sys
from collections import defaultdict


def load(path):
    raw = open(path, 'rb').read()
    if raw[:2] == b'\x1f\x8b':
        raw = gzip.decompress(raw)
    text = raw.decode('utf-8', 'replace')
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        # the spec allows the array form to end without its ']'
        t = text.rstrip().rstrip(',')
        return json.loads(t + ']')


def clean(name):
    return str(name).replace(';', ':').replace('\n', '?').replace('\r', '?')


def fold_out(weights):
    for path, w in sorted(weights.items()):
        if w > 0:
            print('%s %.3f' % (';'.join(path), w))


def samples_mode(doc, pnames, tnames, weights):
    frames = doc['stackFrames']
    by_thread = defaultdict(list)
    tid_pid = {}
    for e in doc.get('traceEvents', []):
        if 'tid' in e and 'pid' in e:
            tid_pid[e['tid']] = e['pid']
    for i, s in enumerate(doc['samples']):
        pid = s.get('pid', tid_pid.get(s.get('tid'), 0))
        by_thread[(str(pid), str(s.get('tid', 0)))].append((float(s['ts']), i, s))
    for (pid, tid), ss in by_thread.items():
        ss.sort(key=lambda x: (x[0], x[1]))
        root = ('%s (%s)' % (pnames.get(pid, 'process-' + pid), pid),
                '%s (%s)' % (tnames.get((pid, tid), 'thread-' + tid), tid))
        for k, (ts, _, s) in enumerate(ss):
            w = ss[k + 1][0] - ts if k + 1 < len(ss) else 0.0
            chain, key = [], s.get('sf')
            while key is not None and str(key) in frames and len(chain) <= len(frames):
                f = frames[str(key)]
                chain.append(clean(f.get('name', '(unnamed)')))
                key = f.get('parent')
            weights[root + tuple(reversed(chain))] += w


def slices_mode(events, pnames, tnames, weights):
    by_thread = defaultdict(list)
    for i, e in enumerate(events):
        if e.get('ph') in ('B', 'E', 'X') and 'ts' in e:
            by_thread[(str(e.get('pid', 0)), str(e.get('tid', 0)))].append((float(e['ts']), i, e))
    for (pid, tid), evs in by_thread.items():
        evs.sort(key=lambda x: (x[0], x[1]))
        intervals, stack, last = [], [], 0.0
        for ts, i, e in evs:
            last = max(last, ts)
            if e['ph'] == 'X':
                dur = float(e.get('dur', e.get('tdur', 0)))
                last = max(last, ts + dur)
                if dur > 0:
                    intervals.append((ts, ts + dur, i, e.get('name', '(unnamed)')))
            elif e['ph'] == 'B':
                stack.append((ts, i, e.get('name', '(unnamed)')))
            elif stack:
                b = stack.pop()
                intervals.append((b[0], ts, b[1], b[2]))
        for b in stack:
            intervals.append((b[0], last, b[1], b[2]))
        intervals.sort(key=lambda x: (x[0], -(x[1] - x[0]), x[2]))
        root = ('%s (%s)' % (pnames.get(pid, 'process-' + pid), pid),
                '%s (%s)' % (tnames.get((pid, tid), 'thread-' + tid), tid))
        open_ = []   # [end, path, child time]
        for start, end, _, name in intervals:
            while open_ and open_[-1][0] <= start:
                done = open_.pop()
            parent = open_[-1][1] if open_ else root
            end = min(end, open_[-1][0]) if open_ else end
            path = parent + (clean(name),)
            weights[path] += end - start
            if open_:
                weights[parent] -= end - start
            open_.append([end, path])


def v8_profiles(events):
    """{key: {'thread': (pid, tid), 'start': µs, 'nodes': {}, 'parent': {},
    'samples': [], 'deltas': []}} from Profile/ProfileChunk/CpuProfile."""
    profiles = {}
    # Profile events first: a chunk may come before its Profile in the file
    picked = [(i, e) for i, e in enumerate(events)
              if e.get('name') == 'CpuProfile' or (e.get('ph') == 'P' and e.get('name') in ('Profile', 'ProfileChunk'))]
    picked.sort(key=lambda x: (x[1].get('name') == 'ProfileChunk', x[0]))
    for i, e in picked:
        name = e.get('name')
        data = (e.get('args') or {}).get('data') or {}
        cp = data.get('cpuProfile') or {}
        pid = str(e.get('pid', 0))
        key = (pid, str(e['id'])) if 'id' in e else (pid, 'tid', str(e.get('tid', 0)))
        if name == 'CpuProfile':
            key = key + (i,)
        if name != 'ProfileChunk' and key not in profiles:
            start = data.get('startTime', cp.get('startTime', e.get('ts', 0)))
            profiles[key] = {'thread': (pid, str(e.get('tid', 0))), 'start': float(start),
                             'nodes': {}, 'parent': {}, 'samples': [], 'deltas': []}
        p = profiles.get(key)
        if p is None:
            continue
        for n in cp.get('nodes', []):
            p['nodes'][n['id']] = n
            if 'parent' in n:
                p['parent'][n['id']] = n['parent']
            for c in n.get('children', []):
                p['parent'][c] = n['id']
        samples = cp.get('samples', [])
        deltas = data.get('timeDeltas', cp.get('timeDeltas', []))
        k = min(len(samples), len(deltas))
        p['samples'] += samples[:k]
        p['deltas'] += deltas[:k]
    return profiles


def v8_mode(profiles, pnames, tnames, weights):
    for p in profiles.values():
        pid, tid = p['thread']
        root = ('%s (%s)' % (pnames.get(pid, 'process-' + pid), pid),
                '%s (%s)' % (tnames.get((pid, tid), 'thread-' + tid), tid))
        times, elapsed = [], p['start']
        for d in p['deltas']:
            elapsed += d
            times.append(max(elapsed, times[-1]) if times else elapsed)
        for k, nid in enumerate(p['samples']):
            w = times[k + 1] - times[k] if k + 1 < len(times) else 0.0
            chain = []
            while nid in p['nodes'] and len(chain) <= len(p['nodes']):
                cf = p['nodes'][nid].get('callFrame', p['nodes'][nid])
                if not (cf.get('functionName') == '(root)' and not cf.get('url')):
                    chain.append(frame_name(cf))
                nid = p['parent'].get(nid)
            weights[root + tuple(reversed(chain))] += w


def trace_events(doc):
    events = doc if isinstance(doc, list) else doc.get('traceEvents', [])
    pnames, tnames = {}, {}
    for e in events:
        if e.get('ph') == 'M' and isinstance(e.get('args'), dict) and e['args'].get('name'):
            if e.get('name') == 'process_name':
                pnames[str(e.get('pid', 0))] = clean(e['args']['name'])
            elif e.get('name') == 'thread_name':
                tnames[(str(e.get('pid', 0)), str(e.get('tid', 0)))] = clean(e['args']['name'])
    weights = defaultdict(float)
    profiles = v8_profiles(events)
    if isinstance(doc, dict) and doc.get('samples') and doc.get('stackFrames'):
        samples_mode(doc, pnames, tnames, weights)
    elif any(p['samples'] for p in profiles.values()):
        v8_mode(profiles, pnames, tnames, weights)
    else:
        slices_mode(events, pnames, tnames, weights)
    return weights


def frame_name(cf):
    name = cf.get('functionName') or '(anonymous)'
    url = (cf.get('url') or '').rstrip('/')
    base = url.rsplit('/', 1)[-1]
    if base:
        line = cf.get('lineNumber')
        name += ' (%s%s)' % (base, ':%d' % (line + 1) if isinstance(line, int) and line >= 0 else '')
    return clean(name)


def cpuprofile(doc):
    nodes, parent = {}, {}
    if 'nodes' in doc:
        for n in doc['nodes']:
            nodes[n['id']] = n
            for c in n.get('children', []):
                parent[c] = n['id']
            if 'parent' in n:
                parent[n['id']] = n['parent']
        times, t = [], doc.get('startTime', 0)
        for d in doc['timeDeltas']:
            t += d
            times.append(t)
    else:
        todo = [(doc['head'], None)]
        while todo:
            n, p = todo.pop()
            nodes[n['id']] = {'callFrame': n}
            if p is not None:
                parent[n['id']] = p
            todo.extend((c, n['id']) for c in n.get('children', []))
        times = list(doc['timestamps'])
    weights = defaultdict(float)
    samples = doc['samples'][:len(times)]
    for k, nid in enumerate(samples):
        w = max(0, times[k + 1] - times[k]) if k + 1 < len(samples) else 0
        chain = []
        while nid in nodes and len(chain) <= len(nodes):
            cf = nodes[nid]['callFrame']
            if not (cf.get('functionName') == '(root)' and not cf.get('url')):
                chain.append(frame_name(cf))
            nid = parent.get(nid)
        weights[('JavaScript (0)',) + tuple(reversed(chain))] += w
    return weights


def main():
    doc = load(sys.argv[1])
    if isinstance(doc, dict) and ('nodes' in doc or 'head' in doc) and 'traceEvents' not in doc:
        fold_out(cpuprofile(doc))
    else:
        fold_out(trace_events(doc))


if __name__ == '__main__':
    main()
