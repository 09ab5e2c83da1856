#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make check's results as one JSON file: its own steps, then the records
of each run's results file (scripts/run --json), pooled.

  check_results.py OUT RESULTS TIMING [RUN_JSON...] [--meta KEY=VALUE]...

RESULTS and TIMING are build/check/results and build/check/timing; the
--meta pairs go into the steps' records (the runs' carry their own).
Exit status 2 when an input cannot be read as what it should be.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results  # noqa: E402
from summary import read  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('out')
    ap.add_argument('results')
    ap.add_argument('timing')
    ap.add_argument('runs', nargs='*')
    ap.add_argument('--meta', action='append')
    a = ap.parse_args()
    try:
        meta = results.parse_meta(a.meta)
        recs = results.check_steps(read(a.results), read(a.timing), meta)
        for run in a.runs:
            recs += results.load(run)
    except ValueError as e:
        print('check_results: %s' % e, file=sys.stderr)
        return 2
    results.dump(recs, a.out)
    print('%d records in %s' % (len(recs), a.out))
    return 0


if __name__ == '__main__':
    sys.exit(main())
