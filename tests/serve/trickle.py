#!/usr/bin/env python3
"""tests/serve/trickle.py MODE N PORT SECONDS: N clients that trickle, for
the serve tests (issue 21 item 3). MODE "body": each sends an upload's
headers (Content-Length 1 MB) and then one body byte a second; "headers":
each sends a request line and then one header line a second. Prints how
many the server cut off (closed or answered) and when the last one was,
in seconds: "closed K of N, last after T"."""
import select
import socket
import sys
import time

mode, n, port, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
start = time.monotonic()
socks = []
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    if mode == "body":
        s.sendall(b"POST /upload HTTP/1.1\r\nHost: t\r\nContent-Type: application/octet-stream\r\n"
                  b"Content-Length: 1000000\r\n\r\n")
    else:
        s.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n")
    socks.append(s)
closed = {}
while time.monotonic() - start < seconds and len(closed) < n:
    for i, s in enumerate(socks):
        if i in closed:
            continue
        gone = False
        try:
            if select.select([s], [], [], 0)[0]:
                gone = True  # the server answered or closed: either way, cut off
            else:
                s.send(b"x" if mode == "body" else b"X-Slow: 1\r\n")
        except OSError:
            gone = True
        if gone:
            closed[i] = time.monotonic() - start
    time.sleep(1 if mode == "body" or n < 8 else 0.5)
last = max(closed.values()) if closed else -1
print("closed %d of %d, last after %.1f" % (len(closed), n, last))
