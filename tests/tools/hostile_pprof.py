#!/usr/bin/env python3
"""hostile_pprof.py KIND N > profile.pb: a valid pprof Profile (plain
protobuf, profile.proto) whose reading took time growing faster than N,
for tests/suites/scaling_readers.sh and the fuzz corpus.

  processes  N samples, each in a process of its own (pid label) on a
             thread of its own (tid label, "thread" label "w"), every
             other thread the process's main one (tid = pid): naming the
             processes after their main threads looped processes x threads
"""
import sys

from hostile_perfetto import lfield, vfield


STRINGS = ["", "samples", "count", "pid", "tid", "thread", "w", "run"]
S = {s: i for i, s in enumerate(STRINGS)}


def label(key, num=None, string=None):
    body = vfield(1, S[key])
    body += vfield(3, num) if num is not None else vfield(2, S[string])
    return lfield(3, body)


def processes(n):
    out = bytearray()
    out += lfield(1, vfield(1, S["samples"]) + vfield(2, S["count"]))
    for i in range(n):
        pid = 1000 + i
        tid = pid if i % 2 == 0 else 1000000 + i
        sample = vfield(1, 1) + vfield(2, 1)
        sample += label("pid", num=pid) + label("tid", num=tid) + label("thread", string="w")
        out += lfield(2, sample)
    out += lfield(4, vfield(1, 1) + lfield(4, vfield(1, 1)))      # location 1: function 1
    out += lfield(5, vfield(1, 1) + vfield(2, S["run"]))           # function 1: "run"
    for s in STRINGS:
        out += lfield(6, s.encode())
    return bytes(out)


def main():
    kinds = {"processes": processes}
    if len(sys.argv) != 3 or sys.argv[1] not in kinds:
        sys.exit(__doc__)
    sys.stdout.buffer.write(kinds[sys.argv[1]](int(sys.argv[2])))


if __name__ == "__main__":
    main()
