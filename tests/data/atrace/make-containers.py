#!/usr/bin/env python3
"""Regenerate the container variants of variants.txt (run from this directory).

Every file holds the same ftrace text as variants.txt in another envelope
(atrace-format.md §3.1), so each must fold to the same stacks; the systrace.py
HTML adds a PROCESS DUMP that names process 1000 and thread 1006. Output is
deterministic (gzip mtime 0)."""
import base64, gzip, json, zlib

text = open('variants.txt', 'rb').read()
lines = text.split(b'\n')
half = b'\n'.join(lines[:25]) + b'\n'
rest = b'\n'.join(lines[25:])
assert half + rest == text

def gz(data):
    return gzip.compress(data, 9, mtime=0)

banner = b'capturing trace... done\nTRACE:\n'
# atrace -z: banner, then zlib; here two streams back to back
open('variants.ctrace', 'wb').write(banner + zlib.compress(half, 6) + zlib.compress(rest, 6))
# the same through `adb shell` (a pty): every \n of the whole output became \r\n
open('variants-crlf.ctrace', 'wb').write(
    (banner + zlib.compress(text, 6)).replace(b'\n', b'\r\n'))
open('variants.txt.gz', 'wb').write(gz(text))
doc = {'traceEvents': [], 'systemTraceEvents': text.decode()}
js = json.dumps(doc, indent=1).encode()
open('variants.json', 'wb').write(js)
# trace2html / Telemetry: base64(gzip(JSON)) in a viewer-data script
open('variants-trace2html.html', 'wb').write(
    b'<!DOCTYPE html>\n<html>\n<head><title>trace</title></head>\n<body>\n'
    b'<script id="viewer-data" type="text/plain">' +
    base64.encodebytes(gz(js)) +
    b'</script>\n</body>\n</html>\n')
# systrace.py 2015+: one trace-data block per agent, in any order
dump = (b'PROCESS DUMP\n'
        b'USER           PID  PPID     VSZ    RSS WCHAN            PC S NAME                        COMM\n'
        b'u0_a42        1000   600 1234567  89012 0                   0 S com.example.app             example.app\n'
        b'USER           PID   TID CMD\n'
        b'u0_a42        1000  1000 example.app\n'
        b'u0_a42        1000  1006 Dump Thread\n')
open('variants-systrace.html', 'wb').write(
    b'<!DOCTYPE html>\n<html>\n<head i18n-values="dir:textdirection;">\n'
    b'<title>Android System Trace</title>\n</head>\n<body>\n'
    b'<!-- BEGIN TRACE -->\n'
    b'  <script class="trace-data" type="application/text">\n' + dump + b'  </script>\n'
    b'  <script class="trace-data" type="application/text">\n' + text + b'  </script>\n'
    b'  <script class="trace-data" type="application/text">\n{"traceEvents": []}\n  </script>\n'
    b'<!-- END TRACE -->\n</body>\n</html>\n')
# a zlib bomb: 80 MiB of zeros behind TRACE: (refused above the limit)
open('zlib-bomb.ctrace', 'wb').write(b'TRACE:\n' + zlib.compress(b'\0' * (80 << 20), 9))
