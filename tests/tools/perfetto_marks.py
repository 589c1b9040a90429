#!/usr/bin/env python3
"""perfetto_marks.py TRACE: the folded stacks of a Perfetto trace's atrace
marks (ftrace print events, "B|pid|name" and "E"), one line per stack
"tidTID;outer;...;inner SELF_US", sorted. An independent reading for the
tests: written from the protobuf schema (Trace.packet 1,
TracePacket.ftrace_events 1, FtraceEventBundle.event 2, FtraceEvent
timestamp 1, pid 2, print 3, PrintFtraceEvent.buf 2), not from
src/read/read_perfetto.c. Events in timestamp order (file order among equal
ones), each time rounded to the µs as docs/semantics.md counts; an E
closes its thread's innermost open slice; slices still open at the end
are left out (the caller compares traces that close every slice)."""
import sys
from collections import defaultdict


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        wire = key & 7
        if wire == 0:
            v, i = varint(b, i)
        elif wire == 1:
            v, i = b[i:i + 8], i + 8
        elif wire == 5:
            v, i = b[i:i + 4], i + 4
        elif wire == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            sys.exit(f"wire type {wire} at {i}")
        yield key >> 3, wire, v


def prints(data):
    for num, wire, packet in fields(data):
        if num != 1 or wire != 2:
            continue
        for pnum, pwire, bundle in fields(packet):
            if pnum != 1 or pwire != 2:
                continue
            for bnum, bwire, event in fields(bundle):
                if bnum != 2 or bwire != 2:
                    continue
                ts = tid = buf = None
                for enum, ewire, v in fields(event):
                    if enum == 1 and ewire == 0:
                        ts = v
                    elif enum == 2 and ewire == 0:
                        tid = v
                    elif enum == 3 and ewire == 2:
                        buf = next((q for qn, qw, q in fields(v) if qn == 2 and qw == 2), None)
                if buf is not None and ts is not None:
                    yield ts, tid, buf


def main():
    evs = sorted(prints(open(sys.argv[1], "rb").read()), key=lambda e: e[0])
    open_slices, out = defaultdict(list), defaultdict(int)
    for ts, tid, buf in evs:
        us = (ts + 500) // 1000
        mark = buf.decode("utf-8", "replace").rstrip("\n")
        stack = open_slices[tid]
        if mark.startswith("B|"):
            parts = mark.split("|", 2)
            stack.append([parts[2] if len(parts) > 2 else "", us, 0])
        elif mark.startswith("E") and stack:
            name, begin, callees = stack.pop()
            inclusive = us - begin
            out[";".join([f"tid{tid}"] + [f[0] for f in stack] + [name])] += inclusive - callees
            if stack:
                stack[-1][2] += inclusive
    for path in sorted(out):
        print(path, out[path])


main()
