# SPDX-License-Identifier: GPL-2.0
"""The results of a run or of make check as JSON, for labs and dashboards
(Documentation/results.rst has the format).

A file is one JSON array of flat records, one per test id:

  {"id": "kselftest: sched_steal: steal_rules", "result": "PASS",
   "reason": "", "seconds": 9, "arch": "arm64", "board": "hikey960",
   "kernel": "6.12.118+", "series": "<sha>", "project": "<sha>"}

"result" is PASS, FAIL or SKIP; "reason" is a skip's or failure's reason
("" when there is none); "seconds" is there for kselftest programs (from
run-kselftests' "# time:" lines) and for the steps of make check; the
run's metadata is repeated in each record so that records from several
files can be pooled without losing where they came from.
"""

import json
import re

TIME = re.compile(r'^# time: (.+): (\d+) s\s*$')
# "PASS|FAIL|SKIP REST" lines of scripts/check's results file
CHECK_LINE = re.compile(r'^(PASS|FAIL|SKIP) (.*)$')
TEST_LINE = re.compile(r'^\S+ (kunit|kselftest): ')


def kselftest_seconds(text):
    """{test id: seconds} of the kselftest programs of run-kselftests'
    output, from the "# time: TARGET: TEST: N s" line after each."""
    out = {}
    for line in text.splitlines():
        m = TIME.match(line.strip())
        if m:
            out['kselftest: %s' % m.group(1)] = int(m.group(2))
    return out


def records(recs, meta, seconds=None):
    """JSON-ready records of (status, id, reason) tuples, each with the
    run's @meta (a dict) and, where @seconds has the id, its time."""
    out = []
    for status, tid, reason in recs:
        r = {'id': tid, 'result': status, 'reason': reason or ''}
        if seconds and tid in seconds:
            r['seconds'] = seconds[tid]
        r.update(meta)
        out.append(r)
    return out


def check_steps(results_text, timing_text, meta):
    """Records of make check's own steps, from its results file ("PASS
    NAME", "FAIL NAME: why", "SKIP NAME") and its timing file ("NAME
    SECONDS"); the tests' lines there ("PASS ARCH kunit: ...") are left to
    the runs' own files.  Ids are "check: NAME"."""
    seconds = {}
    for line in timing_text.splitlines():
        f = line.split()
        if len(f) == 2 and f[1].isdigit():
            seconds[f[0]] = int(f[1])
    recs = []
    for line in results_text.splitlines():
        m = CHECK_LINE.match(line.strip())
        if not m or TEST_LINE.match(m.group(2)):
            continue
        name, _, why = m.group(2).partition(': ')
        recs.append((m.group(1), 'check: %s' % name, why))
    out = records(recs, meta)
    for r in out:
        name = r['id'][len('check: '):]
        if name in seconds:
            r['seconds'] = seconds[name]
    return out


def dump(recs, path):
    """Write @recs to @path as a JSON array, one record a line."""
    with open(path, 'w') as f:
        f.write('[\n')
        f.write(',\n'.join(json.dumps(r, sort_keys=True) for r in recs))
        f.write('\n]\n' if recs else ']\n')


def load(path):
    """The records of a results file; [] when it is missing."""
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        return []
    if not isinstance(data, list):
        raise ValueError('%s: not a JSON array of records' % path)
    return data


def parse_meta(pairs):
    """{key: value} of "KEY=VALUE" strings; ValueError on one without '='."""
    meta = {}
    for p in pairs or []:
        key, sep, value = p.partition('=')
        if not sep or not key:
            raise ValueError('--meta %r: want KEY=VALUE' % p)
        meta[key] = value
    return meta
