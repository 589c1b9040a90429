#!/usr/bin/env python3
"""art_writer.py: write Android method traces (.trace) in every variant, for tests.

Written from shared/docs/art-trace-format.md (the spec), never from the
reader's code, so a round trip tests the reader against the spec.

    art_writer.py VARIANT DESC [-o OUT] [options]
    art_writer.py --batch     one such command line per line of standard
                              input (each Python start costs; tests write
                              dozens of traces)

VARIANT
    legacy1 legacy2 legacy3   text section + 'SLOW' header + records (§1-2)
    stream6                   V1 streaming, Android 6.0-7.1: no summary (§3)
    stream2017                V1 streaming, summary lists threads, no methods
    stream2023                V1 streaming, summary lists methods, no threads;
                              small thread ids 1,2,3; per-thread chunks
    v2a                       V2, Android 16 encoding (§4.3)
    v2b                       V2, TSC header and time-coded records (§4.5)

DESC is a small text description (one item per line, '#' comments):
    vm art                    key lines for the text section / summary
    pid 4242
    thread TID NAME...        a thread (full Linux tid) and its name
    method IDX CLASS NAME SIG SOURCE [unlisted]
                              method number IDX; 'unlisted' = used by records
                              but never described (the proxy quirk, §6.8)
    TID enter|exit|unwind IDX CPU WALL
                              one event; times in µs since the trace start
                              (wall) and since the thread's first event (cpu)

Method ids: index<<2 for legacy/streaming (printed "%#x" like ART 8+, so
index 0 is a bare "0"; stream6 prints "0x%x" like ART 6-7's %p), a fake
ArtMethod* 0x7000a0000000 + 32*IDX for V2.
"""
import argparse
import shlex
import struct
import sys

ACTIONS = {"enter": 0, "exit": 1, "unwind": 2, "action3": 3}


class Desc:
    def __init__(self, text):
        self.keys = []        # (key, value) in order
        self.threads = []     # (tid, name)
        self.methods = {}     # idx -> (cls, name, sig, source, listed)
        self.events = []      # (tid, action, idx, cpu, wall)
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            w = line.split()
            if w[0] == "thread":
                self.threads.append((int(w[1]), " ".join(w[2:])))
            elif w[0] == "method":
                self.methods[int(w[1])] = (w[2], w[3], w[4], w[5], len(w) < 7 or w[6] != "unlisted")
            elif w[0] in ("vm", "pid"):
                self.keys.append((w[0], w[1]))
            elif len(w) == 5 and w[1] in ACTIONS:
                self.events.append((int(w[0]), ACTIONS[w[1]], int(w[2]), int(w[3]), int(w[4])))
            else:
                sys.exit(f"desc line {n}: cannot parse: {raw}")
        self.pid = dict(self.keys).get("pid", "4242")
        self.vm = dict(self.keys).get("vm", "art")

    def elapsed_us(self):
        return max((e[4] for e in self.events), default=0) + 10

    def used_methods(self):
        seen = []
        for e in self.events:
            if e[2] not in seen:
                seen.append(e[2])
        return seen


def u2(v): return struct.pack("<H", v & 0xFFFF)
def u4(v): return struct.pack("<I", v & 0xFFFFFFFF)
def u8(v): return struct.pack("<Q", v & 0xFFFFFFFFFFFFFFFF)


def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def sleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if (v == 0 and not b & 0x40) or (v == -1 and b & 0x40):
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def signed64(v):
    v &= 0xFFFFFFFFFFFFFFFF
    return v - (1 << 64) if v >> 63 else v


# ---- V1 (legacy and streaming) pieces ----

def v1_id(idx): return idx << 2


def id_text(idx, style):
    v = v1_id(idx)
    return f"0x{v:x}" if style == "p" or v else "0"


def method_line(d, idx, style):
    cls, name, sig, src, _ = d.methods[idx]
    return f"{id_text(idx, style)}\t{cls}\t{name}\t{sig}\t{src}\n"


def key_lines(d, version, clock, overflow, legacy_calls=None):
    s = f"*version\n{version}\ndata-file-overflow={'true' if overflow else 'false'}\nclock={clock}\n"
    s += f"elapsed-time-usec={d.elapsed_us()}\n"
    if legacy_calls is not None:
        s += f"num-method-calls={legacy_calls}\n"
    s += f"clock-call-overhead-nsec=1500\nvm={d.vm}\npid={d.pid}\n"
    return s


def v1_header(version, record_size, data_offset=32):
    h = b"SLOW" + u2(version) + u2(data_offset) + u8(1_000_000) + u2(record_size)
    return h + bytes(data_offset - len(h))


def v1_record(tid_bytes, tid, action, idx, cpu, wall, version, size):
    word = v1_id(idx) | action
    r = (bytes([tid & 0xFF]) if tid_bytes == 1 else u2(tid)) + u4(word)
    if version == 3:
        r += u4(cpu) + u4(wall)
    else:
        r += u4(cpu if size == "cpu" else wall)
    return r


def single_time(clock):
    return "cpu" if clock == "thread-cpu" else "wall"


def write_legacy(d, version, clock, overflow):
    clock = "dual" if version == 3 else clock
    text = key_lines(d, version, clock, overflow, len(d.events))
    text += "*threads\n" + "".join(f"{t}\t{n}\n" for t, n in d.threads)
    text += "*methods\n" + "".join(method_line(d, i, "x") for i in sorted(d.methods) if d.methods[i][4])
    text += "*end\n"
    size = {1: 9, 2: 10, 3: 14}[version]
    out = bytearray(text.encode())
    out += v1_header(version, 14 if version == 3 else 0)
    for tid, act, idx, cpu, wall in d.events:
        rec = v1_record(1 if version == 1 else 2, tid & (0xFF if version == 1 else 0xFFFF),
                        act, idx, cpu, wall, version, single_time(clock))
        assert len(rec) == size
        out += rec
    return bytes(out)


def write_stream(d, era, clock, overflow, record_size, chunk):
    version = 3 if clock == "dual" else 2
    if record_size is None:
        # ART 6-13 wrote 14-byte records even under 0xF2; fixed Dec 2022
        record_size = 14 if version == 3 or era != "2023" else 10
    header_size = 14 if version == 3 else 10
    out = bytearray(v1_header(0xF0 | version, header_size))
    style = "p" if era == "6" else "x"
    small = {}                                    # 2023+: 1,2,3 by first event
    names = dict(d.threads)
    events = d.events
    if era == "2023" and chunk:
        # per-thread buffers: records reach the file in per-thread chunks
        order, pending = [], {}
        for e in events:
            pending.setdefault(e[0], []).append(e)
            if len(pending[e[0]]) == chunk:
                order += pending.pop(e[0])
        for t in list(pending):
            order += pending.pop(t)
        events = order
    told_threads, told_methods = set(), set()
    for tid, act, idx, cpu, wall in events:
        if era == "2023":
            rid = small.setdefault(tid, len(small) + 1)
        else:
            rid = tid & 0xFFFF
        if tid not in told_threads:
            told_threads.add(tid)
            name = names.get(tid)
            if name is not None:
                nb = name.encode()
                out += u2(0) + bytes([2]) + u2(rid) + u2(len(nb)) + nb
        if idx not in told_methods and d.methods.get(idx, (0, 0, 0, 0, False))[4]:
            told_methods.add(idx)
            mb = method_line(d, idx, style).encode()
            out += u2(0) + bytes([1]) + u2(len(mb)) + mb
        rec = v1_record(2, rid, act, idx, cpu, wall, version, single_time(clock))
        out += rec + bytes(record_size - len(rec))   # quirk: 4 garbage bytes (zero here)
    if era != "6":
        text = key_lines(d, version, clock, overflow)
        if era == "2017":
            text += "*threads\n" + "".join(f"{t}\t{n}\n" for t, n in d.threads) + "*methods\n"
        else:
            text += "*threads\n*methods\n" + "".join(
                method_line(d, i, style) for i in sorted(d.methods) if d.methods[i][4])
        text += "*end\n"
        tb = text.encode()
        out += u2(0) + bytes([3]) + u4(len(tb)) + tb
    return bytes(out)


# ---- V2 ----

def v2_id(idx): return 0x7000A0000000 + 32 * idx


def v2_summary(d, version, clock, overflow, elapsed_ns):
    text = (f"*version\n{version}\ndata-file-overflow={'true' if overflow else 'false'}\n"
            f"clock={clock}\nelapsed-time-nsec={elapsed_ns}\nclock-call-overhead-nsec=1500\n"
            f"vm={d.vm}\npid={d.pid}\n*end\n").encode()
    return bytes([3]) + u2(len(text)) + text


def v2_info_packets(d, idxs):
    out = bytearray()
    for i in idxs:
        if i in d.methods and d.methods[i][4]:
            cls, name, sig, src, _ = d.methods[i]
            lb = f"{cls}\t{name}\t{sig}\t{src}\n".encode()
            out += bytes([1]) + u8(v2_id(i)) + u2(len(lb)) + lb
    return out


def thread_packet(tid, name):
    nb = name.encode()
    return bytes([0]) + u4(tid) + u2(len(nb)) + nb


def block_v2a(tid, recs, has_wall, has_cpu, scale):
    payload = bytearray()
    pw = pc = pm = 0
    for act, idx, cpu, wall in recs:
        word = v2_id(idx) | act
        payload += sleb(signed64(word - pm))
        pm = word
        # wall before cpu (the reverse of V1 records)
        if has_wall:
            w = scale(wall)
            payload += uleb(w - pw)
            pw = w
        if has_cpu:
            c = scale(cpu)
            payload += uleb(c - pc)
            pc = c
    return bytes([2]) + u4(tid) + struct.pack("<I", len(recs))[:3] + u4(len(payload)) + payload


def block_v2b(tid, recs, dual, ticks):
    payload = bytearray()
    pv = pc = pm = 0
    for act, idx, cpu, wall in recs:
        v = (ticks(wall) << 2) | act
        payload += sleb(v - pv)
        pv = v
        if dual:
            c = ticks(cpu)
            payload += sleb(c - pc)
            pc = c
        if act == 0:   # only entries carry the method
            payload += sleb(signed64(v2_id(idx) - pm))
            pm = v2_id(idx)
    return bytes([2]) + u4(tid) + struct.pack("<I", len(recs))[:3] + u4(len(payload)) + payload


def write_v2(d, sub, clock, overflow, streaming, unit, freq, block, summary):
    version = 5 if clock == "dual" else 4
    if streaming:
        version |= 0xF0
    has_wall = clock in ("dual", "wall")
    has_cpu = clock in ("dual", "thread-cpu")
    if unit == "ns":
        scale = lambda us: us * 1000 + (137 if us else 0)   # sub-µs detail to drop
        start = 5_000_000_000_000
    else:
        scale = lambda us: us
        start = 5_000_000_000
    head = b"SLOW" + u2(version) + u8(start)
    if sub == "b":
        ticks = lambda us: -(-us * freq // 1_000_000)       # ceil: never below us
        head += u8(123456789) + u8(freq)
    out = bytearray(head + bytes(32 - len(head)))
    names = dict(d.threads)
    # ART describes every loaded method at the start, used or not
    out += v2_info_packets(d, sorted(d.methods))
    pending, blocks, told = {}, [], set()

    def flush(tid):
        recs = pending.pop(tid)
        if sub == "a":
            return block_v2a(tid, recs, has_wall, has_cpu, scale)
        return block_v2b(tid, recs, clock == "dual", ticks)

    for tid, act, idx, cpu, wall in d.events:
        if tid not in told:
            told.add(tid)
            if tid in names:
                out += thread_packet(tid, names[tid])
        pending.setdefault(tid, []).append((act, idx, cpu, wall))
        if len(pending[tid]) == block:
            b = flush(tid)
            if streaming:
                out += b
            else:
                blocks.append(b)
    for tid in list(pending):
        b = flush(tid)
        if streaming:
            out += b
        else:
            blocks.append(b)
    for b in blocks:
        out += b
    if summary:
        out += v2_summary(d, version & 0x0F, clock, overflow, d.elapsed_us() * 1000)
    return bytes(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant", choices=["legacy1", "legacy2", "legacy3", "stream6", "stream2017",
                                        "stream2023", "v2a", "v2b"])
    ap.add_argument("desc")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--clock", default="dual", choices=["dual", "wall", "thread-cpu"],
                    help="dual (default), or one clock: legacy v1/v2, streaming 0xF2, V2 version 4")
    ap.add_argument("--overflow", action="store_true", help="data-file-overflow=true")
    ap.add_argument("--record-size", type=int, help="streaming record size (default: as the era wrote)")
    ap.add_argument("--chunk", type=int, default=3, help="stream2023: records per thread chunk")
    ap.add_argument("--unit", default="ns", choices=["us", "ns"], help="v2a time unit (2024: us, 2025+: ns)")
    ap.add_argument("--freq", type=int, default=24_000_000, help="v2b TSC frequency in Hz")
    ap.add_argument("--streaming", action="store_true", help="V2 streaming (0xF4/0xF5)")
    ap.add_argument("--block", type=int, default=4, help="V2 records per entry block")
    ap.add_argument("--no-summary", action="store_true", help="V2: leave out the summary packet")
    a = ap.parse_args(argv)
    with open(a.desc) as f:
        d = Desc(f.read())
    v = a.variant
    if v.startswith("legacy"):
        data = write_legacy(d, int(v[-1]), a.clock if v != "legacy3" else "dual", a.overflow)
    elif v.startswith("stream"):
        data = write_stream(d, v[len("stream"):], a.clock, a.overflow, a.record_size, a.chunk)
    else:
        data = write_v2(d, v[-1], a.clock, a.overflow, a.streaming, a.unit, a.freq, a.block,
                        not a.no_summary)
    if a.output == "-":
        sys.stdout.buffer.write(data)
    else:
        with open(a.output, "wb") as f:
            f.write(data)


if __name__ == "__main__":
    if sys.argv[1:] == ["--batch"]:
        for line in sys.stdin:
            if line.split():
                main(shlex.split(line))
    else:
        main()
