#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Figures of cpufreq_ramp_freq's fast_ramp_up_reaches_max_sooner for
each log of its "pair" lines given: the median of the pairs' climb
ratios (what the test checks) and the ratio of the two arms' median
climbs, the spread of the climbs' logarithms in each arm (1.4826 times
their median absolute deviation, which a round the host stretched moves
as little as it moves a median), and what the spread of the
fast_ramp_up=0 arm makes of the logarithm of the median
of the pairs' ratios when both arms are one program (the tunable a
no-op): 1.25 * sqrt(2) * sd / sqrt(n), 1.25 being what a median costs
against a mean.

  climb-stats.py FILE...
"""
import math
import re
import statistics
import sys

PAIR = re.compile(r'pair +\d+: .*=0 (\d+) us \(first raise at (-?\d+)\), '
                  r'=1 (\d+) us \((-?\d+)\)')
POLL_US = 1000


def spread(v):
    """A standard deviation from the median absolute deviation."""
    m = statistics.median(v)
    return 1.4826 * statistics.median([abs(x - m) for x in v])


def climb(to_max, first):
    c = to_max if first < 0 else to_max - first
    return max(c, POLL_US)


def stats(path):
    c0, c1 = [], []
    with open(path) as f:
        for line in f:
            m = PAIR.search(line)
            if m:
                t0, f0, t1, f1 = map(int, m.groups())
                c0.append(climb(t0, f0))
                c1.append(climb(t1, f1))
    n = len(c0)
    ratios = [b / a for a, b in zip(c0, c1)]
    sd0 = spread([math.log(x) for x in c0])
    sd1 = spread([math.log(x) for x in c1])
    noop_sd = 1.25 * math.sqrt(2) * sd0 / math.sqrt(n)
    return ('%-32s %2d pairs  median of ratios %.2f  ratio of medians %.2f'
            '  sd(log climb) 0: %.2f 1: %.2f  no-op sd(log median) %.3f' %
            (path, n, statistics.median(ratios),
             statistics.median(c1) / statistics.median(c0), sd0, sd1,
             noop_sd))


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    for path in sys.argv[1:]:
        print(stats(path))
    return 0


if __name__ == '__main__':
    sys.exit(main())
