#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The ranges of the IPI round trips in this directory's files: for each
board and form of the spin, the 90th and 99th percentiles of the three
measurements at full speed (ref) and at the lowest OPP (low), in us.

  ./summary.py > summary.txt
"""
import glob
import re

LINE = re.compile(r'^cpu=\d+ from=\d+ samples=\d+ mean_ns=\d+ p50_ns=\d+ '
                  r'p90_ns=(\d+) p99_ns=(\d+) max_ns=\d+$')


def ranges(path):
    part, out = None, {'ref': [], 'low': []}
    with open(path) as f:
        for line in f:
            if line.startswith(('ref:', 'low:')):
                part = line[:3]
            m = LINE.match(line.strip())
            if m and part:
                out[part].append((int(m.group(1)), int(m.group(2))))
    return out


def us(v):
    return '%d to %d us' % (round(min(v) / 1000), round(max(v) / 1000))


for path in sorted(glob.glob('hikey960-*.txt') +
                   glob.glob('sandybridge-*.txt')):
    r = ranges(path)
    print('%s: %s' % (path[:-4], '; '.join(
        '%s p90 %s, p99 %s' % (k, us([a for a, _ in r[k]]),
                               us([b for _, b in r[k]]))
        for k in ('ref', 'low'))))
