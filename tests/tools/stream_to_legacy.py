#!/usr/bin/env python3
"""stream_to_legacy.py IN OUT: rewrite a V1 streaming trace (spec §3) as a
legacy file (§1) holding the same records, like ART's
tools/stream-trace-converter.py: key lines from the summary, *threads from the
op-2 items (then the summary's thread lines), *methods from the op-1 items,
records copied unchanged. Written from the spec, independently of the C
reader, so that comparing the two readings tests the streaming reader."""
import struct
import sys


def main():
    src, dst = sys.argv[1], sys.argv[2]
    d = open(src, "rb").read()
    magic, version, offset = struct.unpack_from("<4sHH", d, 0)
    if magic != b"SLOW" or version not in (0xF2, 0xF3):
        sys.exit("not a V1 streaming trace")
    rs = struct.unpack_from("<H", d, 16)[0]
    v = version & 0x0F
    threads, methods, records, summary = [], [], bytearray(), None
    p = offset
    while p < len(d):
        (tid,) = struct.unpack_from("<H", d, p)
        if tid:
            records += d[p:p + rs]
            p += rs
            continue
        op = d[p + 2]
        if op == 1:
            (n,) = struct.unpack_from("<H", d, p + 3)
            methods.append(d[p + 5:p + 5 + n].decode())
            p += 5 + n
        elif op == 2:
            t, n = struct.unpack_from("<HH", d, p + 3)
            threads.append(f"{t}\t{d[p + 7:p + 7 + n].decode()}\n")
            p += 7 + n
        elif op == 3:
            (n,) = struct.unpack_from("<I", d, p + 3)
            summary = d[p + 7:p + 7 + n].decode()
            p += 7 + n
        else:
            sys.exit(f"offset {p}: bad op {op}")
    keys, sec = [], "keys"
    for line in (summary or f"*version\n{v}\n*end\n").splitlines()[2:]:
        if line.startswith("*"):
            sec = line
        elif sec == "keys":
            keys.append(line + "\n")
        elif sec == "*threads":
            threads.append(line + "\n")
    text = f"*version\n{v}\n" + "".join(keys) + f"num-method-calls={len(records) // rs}\n"
    text += "*threads\n" + "".join(threads) + "*methods\n" + "".join(methods) + "*end\n"
    header = b"SLOW" + struct.pack("<HHQH", v, 32, struct.unpack_from("<Q", d, 8)[0], rs)
    with open(dst, "wb") as f:
        f.write(text.encode() + header + bytes(32 - len(header)) + records)


if __name__ == "__main__":
    main()
