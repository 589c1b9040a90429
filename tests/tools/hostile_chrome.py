#!/usr/bin/env python3
"""hostile_chrome.py KIND N > trace.json: a valid Chrome trace-event file
whose reading took time growing faster than N, for
tests/suites/scaling_readers.sh.

  deep   a chain of N stackFrames (each the parent of the next) and N
         samples of its deepest frame on one thread (each sample walked
         the whole chain again)
"""
import json
import sys


def deep(n):
    frames = {'0': {'name': 'root'}}
    for i in range(1, n):
        frames[str(i)] = {'name': 'f%d' % i, 'parent': i - 1}
    samples = [{'pid': 1, 'tid': 2, 'ts': t, 'sf': n - 1} for t in range(n)]
    return {'traceEvents': [], 'samples': samples, 'stackFrames': frames}


def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    if kind != 'deep':
        sys.exit('usage: hostile_chrome.py deep N')
    json.dump(deep(n), sys.stdout, separators=(',', ':'))


if __name__ == '__main__':
    main()
