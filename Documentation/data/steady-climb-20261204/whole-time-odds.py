#!/usr/bin/env python3
"""Per board: how many of the pairs in ramp-freq-whole-time.txt took
longer to the maximum with fast_ramp_up=1 (whole > 1), and the chance
that a median of 16 independent such pairs is above 1."""
import os
import re
from math import comb

here = os.path.dirname(os.path.abspath(__file__))
rows = [l for l in open(os.path.join(here, 'ramp-freq-whole-time.txt'))
        if ': pair' in l]
for board, arch in (('sandybridge', 'x86_64'), ('hikey960', 'arm64')):
    whole = [float(re.search(r'whole ([0-9.]+)', l).group(1))
             for l in rows if arch in l.split(':')[0]]
    n, k = len(whole), sum(w > 1 for w in whole)
    p = k / n
    # above 1 for sure with 9 or more of 16 above, maybe with 8
    sure = sum(comb(16, j) * p**j * (1 - p)**(16 - j) for j in range(9, 17))
    maybe = comb(16, 8) * p**8 * (1 - p)**8
    print('%s: %d of %d pairs above 1; median of 16 above 1: %.1f%% to %.1f%%'
          % (board, k, n, 100 * sure, 100 * (sure + maybe)))
