#!/usr/bin/env python3
"""perfetto_order.py VARIANT OUT [VARIANT OUT ...]: one Perfetto trace (ftrace print events,
atrace B/E marks of 6 threads that migrate between 4 CPUs) laid out in the
file in one of several orders. Every variant holds the same events, so every
one must fold to the same graph as 'sorted' (one CPU, time order); the
others test the reader's streaming fold (src/read/read_perfetto.c) and its
fallback:

  sorted     every event in one bundle sequence, in time order
  percpu     per-CPU bundles every 64 events, out of order across bundles
             (streams: each CPU's events come in time order)
  late-cpu   as percpu, but CPU 3's bundles all come at the end of the
             file: a source that appears late with old events
  rewind     as percpu, but one early bundle of CPU 0 is written at the end:
             a source that goes back in time
  decorated  as percpu, each event written with fields the reader skips (a
             kernel address of 10 bytes, fixed-width and unknown fields, a
             two-byte tag, a long timestamp encoding) or in another field
             order: the fast path and the protobuf walker read them alike
  late-name  as percpu, with a second process tree at the end that renames
             thread 101 and moves thread 106 to process 200 (the last name
             wins, and a thread's process is known at its first slice)
  marks      as percpu, each end naming its slice ("E|100|draw") and a
             counter mark ("C|100|queue|n") after every third event, on its
             thread at its time: marks the reader keeps as text until they
             are folded (read through a window: copied, then moved at
             every fold), none of which changes a stack
  padded     as percpu, with a field the reader skips in some packets that
             makes them larger than half of the reader's 256 KiB window
             (some larger than all of it): read where the file is mapped
  wide       as late-cpu, with a counter mark on another thread 5 s
             before the first event: a fold at the end over more than
             2^32 ns, which the reader merges instead of sorting (the
             graph is the same; flame-chart times count from the counter)
  track-first  as percpu, with 40 track-event slices of thread 107 on
             track 77 early in the file, described at the start
  late-track   the same, with track 77 described at the end of the file,
             after several folds: events held until then, folded as in
             track-first (these two are compared with each other)

Enough events (24000) that the reader folds several times before the end.
Deterministic (a fixed seed). Several variants in one run share the events
(the tests ask for all of them; each start of Python costs)."""
import random
import sys


SMALL = [bytes((v,)) for v in range(0x80)]


def varint(v):
    if v < 0x80:
        return SMALL[v]
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def field_varint(num, v):
    return varint(num << 3) + varint(v)


def field_bytes(num, b):
    return varint(num << 3 | 2) + varint(len(b)) + b


def process_tree(thread_name, last_pid=100):
    tree = field_bytes(1, field_varint(1, 100) + field_bytes(3, b"com.example.order"))
    for i, tid in enumerate(TIDS):
        name = thread_name if i == 0 else b"worker-%d" % i
        pid = last_pid if tid == TIDS[-1] else 100
        tree += field_bytes(2, field_varint(1, tid) + field_bytes(2, name) + field_varint(3, pid))
    return field_bytes(1, field_bytes(2, tree))


def padded_varint(num, v, n):
    """v in n bytes (protobuf allows non-minimal encodings, up to 10)."""
    out = bytearray()
    for i in range(n):
        out.append((v >> (7 * i)) & 0x7F | (0x80 if i < n - 1 else 0))
    return varint(num << 3) + bytes(out)


def decorated(ts, tid, mark, k):
    """One event with extra fields, chosen by k."""
    pr = field_varint(1, 0xFFFFFFC0100A0000 + k % 64) + field_bytes(2, mark)
    if k % 5 == 0:
        pr = field_bytes(2, mark) + varint(3 << 3 | 5) + b"\x01\x02\x03\x04"
    ev = field_varint(2, tid) + field_bytes(3, pr) + padded_varint(1, ts, 5 + k % 6)
    if k % 3 == 0:
        ev = varint(9 << 3 | 1) + b"\x00" * 8 + ev + field_bytes(7, b"\x08\x01")
    if k % 7 == 0:
        ev += varint(500 << 3) + varint(1)   # a two-byte tag: the walker's
    return ev


def bundle(cpu, events, seq, decorate=False):
    b = field_varint(1, cpu)
    for k, (ts, tid, mark) in enumerate(events):
        ev = field_varint(1, ts) + field_varint(2, tid) + field_bytes(3, field_bytes(2, mark))
        if decorate:
            ev = decorated(ts, tid, mark, k + cpu)
        b += field_bytes(2, ev)
    return field_bytes(1, field_bytes(1, b) + field_varint(10, seq))


TIDS = [101, 102, 103, 104, 105, 106]
NAMES = [b"measure", b"layout", b"draw", b"inflate", b"bind", b"query", b"decode"]


def events(rng, n):
    """(ts, tid, mark, cpu) in time order: each thread opens and closes
    nested slices; threads run on a CPU for a while, then move."""
    stacks = {t: 0 for t in TIDS}
    cpu_of = {t: i % 4 for i, t in enumerate(TIDS)}
    ts = 7_000_000_000
    out = []
    for _ in range(n):
        tid = rng.choice(TIDS)
        if rng.random() < 0.05:
            cpu_of[tid] = rng.randrange(4)
        ts += 100 + rng.randrange(3000)   # distinct times: one order only
        if stacks[tid] and (stacks[tid] >= 6 or rng.random() < 0.5):
            stacks[tid] -= 1
            mark = b"E|100\n"
        else:
            stacks[tid] += 1
            mark = b"B|100|" + rng.choice(NAMES) + b"\n"
        out.append((ts, tid, mark, cpu_of[tid]))
    return out


def with_marks(evs):
    """Named ends and counters (see 'marks')."""
    stacks = {t: [] for t in TIDS}
    out = []
    for k, (ts, tid, mark, cpu) in enumerate(evs):
        if mark.startswith(b"B|"):
            stacks[tid].append(mark[6:-1])
        else:
            mark = b"E|100|" + stacks[tid].pop() + b"\n"
        out.append((ts, tid, mark, cpu))
        if k % 3 == 0:
            out.append((ts, tid, b"C|100|queue|%d\n" % k, cpu))
    return out


def padded(packet, k):
    """Some packets with an unknown field (999) of 150 or 300 KB."""
    if k % 50 != 7:
        return packet
    pad = b"\x00" * (300_000 if k % 100 == 7 else 150_000)
    i = 1   # the packet's length varint, after its tag byte
    while packet[i] & 0x80:
        i += 1
    body = packet[i + 1:] + field_bytes(999, pad)
    return field_bytes(1, body)


def percpu(evs):
    """Bundles of each CPU's events, written every 64 events of the trace
    (as traced_probes reads every CPU's buffer): [(cpu, [events])]."""
    out, pending = [], {c: [] for c in range(4)}
    for i, (ts, tid, mark, cpu) in enumerate(evs):
        pending[cpu].append((ts, tid, mark))
        if (i + 1) % 64 == 0 or i + 1 == len(evs):
            for c in range(4):
                if pending[c]:
                    out.append((c, pending[c]))
                    pending[c] = []
    return out


TRACK = field_bytes(1, field_bytes(60, field_varint(1, 77) + field_bytes(
    4, field_varint(1, 100) + field_varint(2, 107) + field_bytes(5, b"tracked"))))


def track_slices(evs):
    """40 track-event packets (sequence 2, track 77): 20 slices of 50 us,
    each begun 1 ns after one of the first 2000 events."""
    out = []
    for k in range(20):
        ts = evs[100 * k][0] + 1
        for typ, at in ((1, ts), (2, ts + 50_000)):
            ev = field_varint(9, typ) + field_varint(11, 77)
            if typ == 1:
                ev += field_bytes(23, NAMES[k % len(NAMES)])
            out.append((at, field_bytes(1, field_varint(8, at) + field_bytes(11, ev) + field_varint(10, 2))))
    return [p for _, p in sorted(out)]


def layout(variant, evs):
    """The file's bytes for one variant of the events."""
    data = [process_tree(b"main")]   # joined once: += on bytes copies it all each time
    if variant == "sorted":
        for i in range(0, len(evs), 256):
            data.append(bundle(0, [e[:3] for e in evs[i:i + 256]], 1))
        return b"".join(data)
    bundles = percpu(with_marks(evs) if variant == "marks" else evs)
    if variant in ("late-cpu", "wide"):
        bundles = [b for b in bundles if b[0] != 3] + [b for b in bundles if b[0] == 3]
        if variant == "wide":
            bundles = [(2, [(evs[0][0] - 5_000_000_000, 199, b"C|100|gap|1\n")])] + bundles
    elif variant == "rewind":
        k = next(i for i, b in enumerate(bundles) if b[0] == 0 and i > 40)
        bundles = bundles[:k] + bundles[k + 1:] + [bundles[k]]
    elif variant not in ("percpu", "late-name", "decorated", "marks", "padded", "track-first", "late-track"):
        sys.exit("unknown variant " + variant)
    for k, (cpu, evs_of_cpu) in enumerate(bundles):
        packet = bundle(cpu, evs_of_cpu, 1, variant == "decorated")
        data.append(padded(packet, k) if variant == "padded" else packet)
    if variant == "late-name":
        data.append(process_tree(b"main-renamed", 200))
    if variant in ("track-first", "late-track"):
        data[3:3] = track_slices(evs)   # after two bundles, before any fold
        data.insert(0 if variant == "track-first" else len(data), TRACK)
    return b"".join(data)


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        sys.exit("usage: perfetto_order.py VARIANT OUT [VARIANT OUT ...]")
    evs = events(random.Random(16), 24000)
    for variant, path in zip(args[0::2], args[1::2]):
        with open(path, "wb") as f:
            f.write(layout(variant, evs))


main()
