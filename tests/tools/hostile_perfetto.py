#!/usr/bin/env python3
"""hostile_perfetto.py KIND N > trace: a valid Perfetto trace whose reading
took time growing faster than N (issue 36 items 1-3), written from the
protobuf schema (perfetto_trace.proto), for tests/suites/scaling_readers.sh
and the fuzz corpus.

  names      one interned event name padded with N unknown fields before
             its string, used by N track-event slices (each use parsed it)
  frames     one interned frame whose function name is padded with N
             unknown fields, in N callstacks of one frame, one perf_sample
             each (each callstack named the frame again)
  callstack  one interned callstack of N frames used by N perf_samples on
             one thread (each sample walked the whole callstack)
  threads    N threads named by the process tree, one perf_sample each
             (naming the sampled threads looped names x threads)
"""
import sys


def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def vfield(num, v):
    return varint(num << 3) + varint(v)


def lfield(num, data):
    return varint(num << 3 | 2) + varint(len(data)) + data


def packet(*fields, seq=1):
    return lfield(1, b''.join(fields) + vfield(10, seq))


def padding(n):
    """n fields of a number no reader knows (a varint each)."""
    return vfield(99, 1) * n


def names(n):
    out = [packet(lfield(44, vfield(1, 10) + vfield(2, 11)), vfield(13, 1))]   # thread descriptor, cleared
    entry = vfield(1, 1) + padding(n) + lfield(2, b'work')
    out.append(packet(lfield(12, lfield(2, entry))))                          # interned event name iid 1
    for i in range(n):
        for kind in (1, 2):                                                   # SLICE_BEGIN, SLICE_END
            out.append(packet(vfield(8, 1000000 * (2 * i + kind)), lfield(11, vfield(9, kind) + vfield(10, 1))))
    return out


def sample(iid, tid=11, pid=10):
    return packet(vfield(8, 1000), lfield(66, vfield(2, pid) + vfield(3, tid) + vfield(4, iid)))


def frames(n):
    fn = vfield(1, 1) + padding(n) + lfield(2, b'func')
    frame = vfield(1, 1) + vfield(2, 1)
    stacks = b''.join(lfield(7, vfield(1, 1 + i) + vfield(2, 1)) for i in range(n))
    out = [packet(lfield(12, lfield(5, fn) + lfield(6, frame) + stacks), vfield(13, 1))]
    out += [sample(1 + i) for i in range(n)]
    return out


def callstack(n):
    fns = b''.join(lfield(5, vfield(1, 1 + i) + lfield(2, b'f%d' % i)) for i in range(n))
    frs = b''.join(lfield(6, vfield(1, 1 + i) + vfield(2, 1 + i)) for i in range(n))
    cs = lfield(7, vfield(1, 1) + lfield(2, b''.join(varint(1 + i) for i in range(n))))
    out = [packet(lfield(12, fns + frs + cs), vfield(13, 1))]
    out += [sample(1) for _ in range(n)]
    return out


def threads(n):
    fn = lfield(5, vfield(1, 1) + lfield(2, b'run'))
    fr = lfield(6, vfield(1, 1) + vfield(2, 1))
    cs = lfield(7, vfield(1, 1) + vfield(2, 1))
    tree = lfield(1, vfield(1, 10) + lfield(3, b'app'))
    tree += b''.join(lfield(2, vfield(1, 100 + i) + lfield(2, b't%d' % i) + vfield(3, 10)) for i in range(n))
    out = [packet(lfield(2, tree)), packet(lfield(12, fn + fr + cs), vfield(13, 1))]
    out += [sample(1, tid=100 + i) for i in range(n)]
    return out


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    gen = {'names': names, 'frames': frames, 'callstack': callstack, 'threads': threads}[kind]
    sys.stdout.buffer.write(b''.join(gen(n)))


if __name__ == "__main__":
    main()
