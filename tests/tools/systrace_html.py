#!/usr/bin/env python3
"""systrace_html.py FTRACE [--dump PS] [--json] [--viewer-kb N] > out.html

Wrap ftrace text the way systrace.py (catapult, Android 7-10) writes its
HTML: the trace viewer first (scripts whose JavaScript holds the text
'<script class="trace-data" type="application\\/text">' in string literals,
as catapult's does), then "<!-- BEGIN TRACE -->", one trace-data script per
agent (a JSON block from the controller agent, PROCESS DUMP, the ftrace
text), "<!-- END TRACE -->". Deterministic: the viewer filler is a fixed
pattern. --viewer-kb sets the viewer's size (real ones are ~4 MB)."""
import argparse
import sys

ap = argparse.ArgumentParser()
ap.add_argument('ftrace')
ap.add_argument('--dump', help='a PROCESS DUMP block (ps output) to include')
ap.add_argument('--json', action='store_true', help='add a controller JSON block first')
ap.add_argument('--viewer-kb', type=int, default=64)
a = ap.parse_args()

out = sys.stdout.buffer
out.write(b'<!DOCTYPE html>\n<html>\n<head i18n-values="dir:textdirection;">\n'
          b'<meta http-equiv="Content-Type" content="text/html; charset=utf-8">\n'
          b'<title>Android System Trace</title>\n'
          b'<style>\n  html, body { height: 100%; }\n</style>\n')
# the viewer: JS that builds and looks for trace-data scripts itself
trap = (b"<script>\n'use strict';\n"
        b"function getTraceData(doc) {\n"
        b"  var sel = 'script.trace-data';\n"
        b"  var tpl = '<script class=\"trace-data\" type=\"application\\/text\">' +\n"
        b"      '# tracer: nop\\n' + 'PROCESS DUMP' + '<\\/script>';\n"
        b"  return doc.querySelectorAll(sel).length ? doc : tpl;\n}\n</script>\n")
out.write(trap)
out.write(b'<!-- a comment with <script class="trace-data" type="application/text"> in it -->\n')
filler = b"<script>\n"
line = b"  tr.exportTo('tr.ui', function() { var x = '<div class=\"trace-data\">'; return {x: x}; });\n"
while len(filler) < a.viewer_kb * 1024:
    filler += line
filler += b"</script>\n"
out.write(filler)
out.write(b'</head>\n<body>\n  <div id="trace-viewer"></div>\n')
out.write(b'<!-- BEGIN TRACE -->\n')
if a.json:
    out.write(b'  <script class="trace-data" type="application/text">\n'
              b'{"traceEvents": [{"name": "controller", "ph": "X", "ts": 1, "dur": 2, "pid": 1, "tid": 1}],'
              b' "metadata": {"trace-config": "systrace"}}\n  </script>\n')
if a.dump:
    out.write(b'  <script class="trace-data" type="application/text">\n')
    out.write(open(a.dump, 'rb').read())
    out.write(b'  </script>\n')
out.write(b'  <script class="trace-data" type="application/text">\n')
out.write(open(a.ftrace, 'rb').read())
out.write(b'  </script>\n<!-- END TRACE -->\n</body>\n</html>\n')
