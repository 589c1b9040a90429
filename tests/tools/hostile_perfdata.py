#!/usr/bin/env python3
"""hostile_perfdata.py KIND N > perf.data: a perf.data (PERFILE2) whose
reading took time growing faster than N (issue 36 item 4), written from
simpleperf's record_file_format.h and linux/perf_event.h, for
tests/suites/scaling_readers.sh and the fuzz corpus.

  attrs      N attrs whose id sections are one section of N ids (each attr
             read them all again); the reader refuses it: id sections of
             two attrs never overlap in a file perf or simpleperf writes
  disjoint   N attrs, each its own section of one id (the same N ids):
             the well-formed file of the same size, read
"""
import struct
import sys

IP, TID, ID, PERIOD, CALLCHAIN = 1, 2, 64, 256, 32
SAMPLE_TYPE = IP | TID | ID | PERIOD


def rec(rtype, misc, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def build(kind, n):
    attr_body = 120                                  # PERF_ATTR_SIZE_VER5
    attr_size = attr_body + 16
    attrs_off = 104
    ids_off = attrs_off + n * attr_size
    ids = b''.join(struct.pack('<Q', 1 + i) for i in range(n))
    data = b''.join(rec(9, 2, struct.pack('<QIIQQ', 0x1000 + i, 10, 10, 1 + i, 1)) for i in range(n))
    data = rec(3, 0, struct.pack('<II', 10, 10) + b'app\0') + data
    data_off = ids_off + len(ids)
    attrs = b''
    for i in range(n):
        a = struct.pack('<IIQQQQQ', 1, attr_body, 0, 4000, SAMPLE_TYPE, 0, 0) + b'\0' * (attr_body - 48)
        if kind == 'attrs':
            a += struct.pack('<QQ', ids_off, len(ids))
        else:
            a += struct.pack('<QQ', ids_off + 8 * i, 8)
        attrs += a
    header = b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, attr_size, attrs_off, len(attrs),
                                       data_off, len(data), 0, 0) + bytes(32)
    return header + attrs + ids + data


sys.stdout.buffer.write(build(sys.argv[1], int(sys.argv[2])))
