#!/usr/bin/env python3
"""compress.py IN.pftrace OUT.pftrace: the same packets, wrapped the way the
tracing service compresses them: one packet whose compressed_packets field
(50) holds the zlib stream of the original packets (a Trace message)."""
import sys
import zlib

def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)

data = open(sys.argv[1], 'rb').read()
z = zlib.compress(data, 6)
inner = b'\x92\x03' + varint(len(z)) + z          # field 50, length-delimited
open(sys.argv[2], 'wb').write(b'\x0a' + varint(len(inner)) + inner)
