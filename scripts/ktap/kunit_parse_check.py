#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read the KUnit results of a boot's console with ktap.py and with the
kernel's own parser, tools/testing/kunit/kunit.py parse, and say where
they differ.

  kunit_parse_check.py KUNIT_PY CONSOLE_LOG...

For each console, every case and every parameter of a parameterised case
that either parser found must be found by the other with the same
result (PASS, FAIL or SKIP); the suites' own lines, which kunit.py's JSON
does not carry, are left out.  Prints one line per console, then each
difference.  Exit status: 0 when they agree, 1 when they differ or a
console holds no KUnit result, 2 when kunit.py cannot be run.
"""

import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402


def kunit_py_leaves(group, suite=None, case=None):
    """{id: status} of the cases and parameters of kunit.py's JSON, ids
    as ktap.kunit_records() writes them."""
    out = {}
    for sub in group.get('sub_groups', []):
        if suite is None:
            out.update(kunit_py_leaves(sub, suite=sub['name']))
        else:
            out.update(kunit_py_leaves(sub, suite, case=sub['name']))
    for tc in group.get('test_cases', []):
        if case is None:
            tid = 'kunit: %s.%s' % (suite, tc['name'])
        else:
            tid = 'kunit: %s.%s: %s' % (suite, case, tc['name'])
        out[tid] = 'FAIL' if tc['status'] == 'ERROR' else tc['status']
    return out


def ktap_leaves(records):
    """{id: status} of the cases and parameters: the records below a
    suite that no other record is nested under."""
    ids = [tid for _, tid, _ in records]
    out = {}
    for status, tid, _ in records:
        if '.' not in tid.split(': ', 1)[1]:
            continue
        if any(o.startswith(tid + ': ') for o in ids):
            continue
        out[tid] = status
    return out


def run_kunit_py(kunit_py, console):
    """kunit.py parse's JSON of @console, None with the reason printed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'kunit.json')
        try:
            subprocess.run([sys.executable, kunit_py, 'parse',
                            '--json=%s' % out, os.path.abspath(console)],
                           check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=300)
            with open(out) as f:
                return json.load(f)
        except (OSError, ValueError, subprocess.SubprocessError) as e:
            err = getattr(e, 'stderr', None)
            print('kunit-parse: %s parse %s failed: %s%s' %
                  (kunit_py, console, e,
                   ('\n' + err.decode(errors='replace')) if err else ''),
                  file=sys.stderr)
            return None


def compare(ours, theirs):
    """Lines naming each id the two parsers read differently."""
    diff = []
    for tid in sorted(set(ours) | set(theirs)):
        a, b = ours.get(tid, 'absent'), theirs.get(tid, 'absent')
        if a != b:
            diff.append('%s: ktap.py %s, kunit.py %s' % (tid, a, b))
    return diff


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    kunit_py = sys.argv[1]
    if not os.path.isfile(kunit_py):
        print('kunit-parse: %s is missing: make tree gives build/linux'
              % kunit_py, file=sys.stderr)
        return 2
    rc = 0
    for console in sys.argv[2:]:
        with open(console, errors='replace') as f:
            ours = ktap_leaves(ktap.kunit_records(f.read()))
        data = run_kunit_py(kunit_py, console)
        if data is None:
            return 2
        theirs = kunit_py_leaves(data)
        diff = compare(ours, theirs)
        print('%s: %d KUnit cases and parameters by ktap.py, %d by kunit.py parse, %d differ'
              % (console, len(ours), len(theirs), len(diff)))
        for d in diff:
            print('  ' + d)
        if diff or not ours:
            rc = 1
    return rc


if __name__ == '__main__':
    sys.exit(main())
