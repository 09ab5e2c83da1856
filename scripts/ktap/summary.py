#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One line per test of a boot, a count, and the differences from the
expected results.

  summary.py LABEL CONSOLE_LOG KSELFTEST_OUTPUT [--expected FILE
             [--host-skips FILE]] [--write-expected FILE]
             [--json FILE [--meta KEY=VALUE]...]

Prints "PASS|SKIP|FAIL LABEL ID" lines (a SKIP with "# reason", a FAIL
with its reason in parentheses), then, with --expected, one line per
difference: "MISSING LABEL ID", "UNEXPECTED LABEL ID", "MISMATCH LABEL
ID: expected X, got Y" (--host-skips FILE lists the tests that may skip,
for the reason it gives, where a PASS is expected), then "LABEL: N passed, N failed, N skipped",
then for each failed kselftest the last lines it printed, as "LOG LABEL
ID| LINE" (a failure's own figures, where only the summary is kept).
Exit status: 0 when nothing failed and nothing differs, 1 otherwise, 2 when
no test ran at all (or the inputs are unreadable).  --write-expected FILE
writes the results as the new expected list (refused when a test failed).
--json FILE writes them as JSON records (results.py), each with the
--meta KEY=VALUE pairs given (arch, board, kernel, series commit...).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402
import results  # noqa: E402


def read(path):
    try:
        with open(path, errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return ''


def line_of(status, label, tid, reason):
    if status == 'SKIP':
        return 'SKIP %s %s # %s' % (label, tid, reason or 'no reason given')
    if status == 'FAIL' and reason:
        return 'FAIL %s %s (%s)' % (label, tid, reason)
    return '%s %s %s' % (status, label, tid)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('label')
    ap.add_argument('console')
    ap.add_argument('kselftest_output')
    ap.add_argument('--expected')
    ap.add_argument('--host-skips')
    ap.add_argument('--write-expected')
    ap.add_argument('--json')
    ap.add_argument('--meta', action='append')
    a = ap.parse_args()
    try:
        meta = results.parse_meta(a.meta)
    except ValueError as e:
        ap.error(str(e))

    recs = (ktap.kunit_records(read(a.console)) +
            ktap.kselftest_records(read(a.kselftest_output)))
    for status, tid, reason in recs:
        print(line_of(status, a.label, tid, reason))
    if a.json:
        seconds = results.kselftest_seconds(read(a.kselftest_output))
        results.dump(results.records(recs, meta, seconds), a.json)

    diff = []
    if a.expected:
        try:
            expected, _ = ktap.read_expected(read(a.expected))
        except ValueError as e:
            print('%s: %s: %s' % (a.label, a.expected, e), file=sys.stderr)
            return 2
        try:
            host_skips = (ktap.read_host_skips(read(a.host_skips))
                          if a.host_skips else {})
        except ValueError as e:
            print('%s: %s: %s' % (a.label, a.host_skips, e), file=sys.stderr)
            return 2
        if not expected:
            print('%s: %s is missing or empty: write it with "make expected"'
                  % (a.label, a.expected), file=sys.stderr)
            return 2
        for d in ktap.compare(recs, expected, host_skips):
            kind, rest = d.split(' ', 1)
            diff.append('%s %s %s' % (kind, a.label, rest))
        for d in diff:
            print(d)

    count = {s: sum(1 for r in recs if r[0] == s)
             for s in ('PASS', 'FAIL', 'SKIP')}
    print('%s: %d passed, %d failed, %d skipped' %
          (a.label, count['PASS'], count['FAIL'], count['SKIP']))
    if diff:
        print('%s: %d difference(s) from %s (a change of expectations is '
              '"make expected" and a reviewed diff)' %
              (a.label, len(diff), a.expected))
    for tid, lines in ktap.kselftest_failure_logs(read(a.kselftest_output)):
        for line in lines:
            print('LOG %s %s| %s' % (a.label, tid, line))
    if not recs:
        print('%s: no KUnit case and no kselftest ran: that is not a pass'
              % a.label, file=sys.stderr)
        return 2

    if a.write_expected:
        if count['FAIL']:
            print('%s: not writing %s: %d test(s) failed; an expected '
                  'result is PASS or SKIP' %
                  (a.label, a.write_expected, count['FAIL']), file=sys.stderr)
            return 1
        with open(a.write_expected, 'w') as f:
            f.write(ktap.format_expected(recs, a.label))
        print('%s: wrote %d expected results to %s' %
              (a.label, len(recs), a.write_expected))
        return 0
    return 1 if count['FAIL'] or diff else 0


if __name__ == '__main__':
    sys.exit(main())
