#!/usr/bin/env python3
"""mkperf.py VARIANT OUT: write a small perf.data (PERFILE2) for the tests.

The layout follows simpleperf's record_file_format.h and linux/perf_event.h:
a 104-byte header, one attr (perf_event_attr + an id section), the data
section of records, then the FILE (128) and META_INFO (129) feature
sections. VARIANT "corners" is a well-formed file (two threads, one map with
an embedded symbol table, a kernel frame, an ip outside every map); "maps"
adds a forked process and thread and a map splitting an older one,
"many-maps" floods them, "records" adds simpleperf's and perf's
unusual records (UNWINDING_RESULT, AUXTRACE, SWITCH), "big-aux" puts
AUXTRACE data larger than the reader's window among the corners' records,
"art" a thread
whose consecutive samples share their callers up to one of ART's own
frames that is hidden in one and drawn in the next; the
others damage it in one place each, for the bad-input catalogue."""
import struct, sys

IP, TID, CALLCHAIN, PERIOD = 1, 2, 32, 256
SAMPLE_TYPE = IP | TID | PERIOD | CALLCHAIN


def rec(rtype, misc, body):
    body += b'\0' * (-len(body) % 8)
    return struct.pack('<IHH', rtype, misc, 8 + len(body)) + body


def cstr(s):
    return s.encode() + b'\0'


def comm(pid, tid, name):
    return rec(3, 0, struct.pack('<II', pid, tid) + cstr(name))


def mmap(pid, addr, length, pgoff, path, misc=2):
    return rec(1, misc, struct.pack('<IIQQQ', pid, pid, addr, length, pgoff) + cstr(path))


def fork(pid, ppid, tid, ptid):
    return rec(7, 0, struct.pack('<IIIIQ', pid, ppid, tid, ptid, 0))


def sample(pid, tid, period, ips, misc=2, nr=None):
    body = struct.pack('<QIIQQ', ips[0], pid, tid, period, len(ips) if nr is None else nr)
    return rec(9, misc, body + b''.join(struct.pack('<Q', i) for i in ips))


def file_entry(path, ftype, min_vaddr, syms, offset_of_min_vaddr=0):
    e = cstr(path) + struct.pack('<IQI', ftype, min_vaddr, len(syms))
    for addr, length, name in syms:
        e += struct.pack('<QI', addr, length) + cstr(name)
    e += struct.pack('<Q', offset_of_min_vaddr)
    return struct.pack('<I', len(e)) + e


def build(variant):
    records = [
        comm(100, 100, 'com.example.app'),
        comm(100, 101, 'RenderThread'),
        mmap(100, 0x7000, 0x2000, 0, '/data/app/lib/arm64/libnative.so'),
        mmap(0xffffffff, 0xffff0000, 0x10000, 0, '[kernel.kallsyms]', misc=1),
        # leaf first: draw(int) <- render_frame() <- main
        sample(100, 100, 1000, [0x7110, 0x7210, 0x7010]),
        sample(100, 101, 250, [(1 << 64) - 128, 0xffff0100, (1 << 64) - 512, 0x7010]),
        sample(100, 101, 125, [0x9000]),
        sample(100, 100, 64, [0x7310, 0x7010]),
    ]
    if variant == 'maps':
        records += [
            # a new process: its parent's maps and name
            fork(200, 100, 200, 100),
            sample(200, 200, 10, [0x7110, 0x7010]),
            # a new thread of it: its process's maps, its parent thread's name
            fork(200, 200, 201, 200),
            sample(200, 201, 5, [0x7310, 0x7010]),
            # a map inside libnative.so's: what is left on both sides stays
            # mapped, the right part at its own file offset (the child keeps
            # the maps it was given)
            mmap(100, 0x7100, 0x80, 0, '/data/app/other.so'),
            sample(100, 100, 7, [0x7210, 0x7010]),
            sample(100, 100, 3, [0x7110, 0x7010]),
            sample(200, 200, 2, [0x7110, 0x7010]),
        ]
    if variant == 'many-maps':
        # 150,000 maps in falling order, then 2,000 forks of their process:
        # quadratic with a sorted array or unbounded copies
        n = 150000
        records += [mmap(300, (n - i) * 0x2000, 0x1000, 0, '/l') for i in range(n)]
        records += [fork(400 + i, 300, 400 + i, 300) for i in range(2000)]
        records += [sample(300, 300, 1, [0x4000]), sample(2399, 2399, 1, [0x4000])]
    if variant == 'records':
        # simpleperf's UNWINDING_RESULT (32776: its 32-bit size split where
        # misc would be: time, used time, error code 4 = invalid map), an
        # AUXTRACE record with 16 bytes of data after it, a SWITCH record
        unwind = struct.pack('<QQQQQQ', 5, 1, 4, 0, 0, 0) + struct.pack('<QQQ', 0, 0, 0)
        records += [
            struct.pack('<IHH', 32776, 0, 8 + len(unwind)) + unwind,
            struct.pack('<IHH', 71, 0, 48) + struct.pack('<QQQIIII', 16, 0, 0, 0, 100, 0, 0) + b'\xaa' * 16,
            rec(14, 0, b''),
            sample(100, 100, 9, [0x7110, 0x7010]),
        ]
    if variant == 'big-aux':
        # the corners' samples after AUXTRACE data larger than the reader's
        # 256 KiB window, and more between them: the names and paths of the
        # records before it must outlive the window's bytes
        def aux(n):
            return struct.pack('<IHH', 71, 0, 48) + struct.pack('<QQQIIII', n, 0, 0, 0, 100, 0, 0) + b'\xaa' * n
        records = records[:4] + [aux(600000)] + records[4:6] + [aux(300000)] + records[6:]
    if variant == 'art':
        # leaf first; root first they are main > render_frame > libart's
        # invoke stub > a Java method (the stub hidden, next to Java) or
        # draw (the stub drawn): the second and third share the stub with
        # the sample before them, which drew it the other way
        java = [0xb010, 0xa010, 0x7210, 0x7010]
        native = [0x7110, 0xa010, 0x7210, 0x7010]
        records += [
            comm(100, 102, 'Worker'),
            mmap(100, 0xa000, 0x1000, 0, '/apex/com.android.art/lib64/libart.so'),
            mmap(100, 0xb000, 0x1000, 0, '/system/framework/framework.jar'),
            sample(100, 102, 1, java), sample(100, 102, 2, native), sample(100, 102, 4, java),
        ]
    if variant == 'cut-record':
        records[4] = records[4][:-8]
    if variant == 'short-record':
        records.insert(0, struct.pack('<IHH', 3, 0, 4))
    if variant == 'long-chain':
        records[4] = sample(100, 100, 1, [0x7110], nr=1 << 40)
    data = b''.join(records)
    files = file_entry('/data/app/lib/arm64/libnative.so', 2, 0x1000,
                       [(0x1000, 0x100, '_Z4mainv'), (0x1100, 0x80, '_Z4drawi'),
                        (0x1200, 0x20, '_Z12render_framev'),
                        (0x1300, 0x20, 'com.example.app.Native.call')])
    if variant == 'art':
        files += file_entry('/apex/com.android.art/lib64/libart.so', 2, 0x1000,
                            [(0x1000, 0x100, 'art_quick_invoke_stub')])
        files += file_entry('/system/framework/framework.jar', 3, 0,
                            [(0x0, 0x100, 'void com.example.Java.run()')])
    if variant == 'bad-symbol-count':
        files = files[:4] + files[4:].replace(struct.pack('<I', 4), struct.pack('<I', 300000), 1)
    meta = b''.join(cstr(x) for x in ('event_type_info', 'cpu-clock,1,0',
                                         'app_package_name', 'com.example.app',
                                         'trace_offcpu', 'false'))
    attr = struct.pack('<IIQQQQQ', 1, 120, 0, 4000, SAMPLE_TYPE, 0, 0) + b'\0' * (120 - 48)
    attrs_off = 104
    attr_size = len(attr) + 16
    data_off = attrs_off + attr_size
    feat_table = data_off + len(data)
    files_off = feat_table + 32
    meta_off = files_off + len(files)
    attr += struct.pack('<QQ', 0, 0)
    feats = bytearray(32)
    feats[16] = 0x03   # bits 128 (FILE) and 129 (META_INFO)
    data_size = len(data)
    if variant == 'data-past-end':
        data_size += 1 << 20
    header = b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, attr_size, attrs_off, attr_size,
                                       data_off, data_size, 0, 0) + bytes(feats)
    table = struct.pack('<QQQQ', files_off, len(files), meta_off, len(meta))
    return header + attr + data + table + files + meta


if __name__ == '__main__':
    open(sys.argv[2], 'wb').write(build(sys.argv[1]))
