# SPDX-License-Identifier: GPL-2.0
"""KTAP parsing for the boots of scripts/run, after the kernel's own
tools/testing/kunit/kunit_parser.py: a result line belongs to the nested
block printed just before it, nested plans are checked against the results
that came, and output that ends inside a test counts as that test failing.

Two streams are read:

* the console of a boot, where KUnit prints one KTAP document: suites at
  depth 1 (indented four spaces), their cases at depth 2, parameters at
  depth 3.  Kernel time stamps are stripped and lines that are no KTAP are
  ignored (other kernel messages interleave with it).
* the output of scripts/guest/run-kselftests: one top-level result per
  test program, the program's own KTAP (kselftest_harness.h) nested under
  "# " prefixes.

Each yields records (status, id, reason): status PASS, FAIL or SKIP; ids
"kunit: SUITE", "kunit: SUITE.CASE", "kselftest: TARGET: TEST" and
"kselftest: TARGET: TEST: CASE".
"""

import re

VERSION = re.compile(r'^(KTAP|TAP) version \d+\s*$')
PLAN = re.compile(r'^1\.\.(\d+)(?:\s*#\s*(.*?))?\s*$')
RESULT = re.compile(r'^(ok|not ok) (\d+)(?: - | )?([^#]*?)\s*(?:#\s*(.*?))?\s*$')
SUBTEST = re.compile(r'^# Subtest: (.*?)\s*$')
STAMP = re.compile(r'^\[ *\d+\.\d+\] ?')


class Test:
    """One result line and what was nested above it."""

    def __init__(self, name, status, reason=''):
        self.name = name
        self.status = status
        self.reason = reason
        self.children = []
        self.lines = []         # what was printed above it, one level down


class Block:
    """The lines of one nesting level: an optional plan and its results."""

    def __init__(self):
        self.name = None
        self.plan = None
        self.skip_reason = ''
        self.tests = []
        self.problems = []


def _directive(text):
    """(is_skip, reason) of a result's '# ...' part."""
    if not text:
        return False, ''
    m = re.match(r'^(SKIP|skip)\b\s*(.*)$', text)
    if m:
        return True, m.group(2)
    return False, text


def _close(result, child):
    """Judge one result with the block nested above it (or None)."""
    if child is None:
        return result
    result.children = child.tests
    if child.name and not result.name:
        result.name = child.name
    if result.status == 'SKIP' and not result.reason:
        result.reason = child.skip_reason
    if child.problems:
        why = '; '.join(child.problems)
        result.reason = result.reason + '; ' + why if result.reason else why
        result.status = 'FAIL'
    elif result.status == 'PASS':
        if any(t.status == 'FAIL' for t in child.tests):
            result.status = 'FAIL'
            result.reason = 'reported ok, but a subtest failed'
        elif child.tests and all(t.status == 'SKIP' for t in child.tests):
            result.status = 'SKIP'
            result.reason = result.reason or child.tests[0].reason
    return result


def parse_block(lines, prefix):
    """Parse one nesting level.  lines: the level's text, its own prefix
    already removed; prefix: what marks a line of the next level down."""
    block = Block()
    nested = []
    for line in lines:
        if line.startswith(prefix):
            nested.append(line[len(prefix):])
            continue
        if line.strip() == '' or VERSION.match(line):
            continue
        m = SUBTEST.match(line)
        if m:
            block.name = m.group(1)
            continue
        m = PLAN.match(line)
        if m:
            if block.plan is not None:
                block.problems.append('a second plan 1..%s' % m.group(1))
            block.plan = int(m.group(1))
            skip, why = _directive(m.group(2))
            if skip:
                block.skip_reason = why
            continue
        m = RESULT.match(line)
        if not m:
            continue
        num = int(m.group(2))
        if num != len(block.tests) + 1:
            block.problems.append('result %d where %d was due' %
                                  (num, len(block.tests) + 1))
        skip, reason = _directive(m.group(4))
        status = 'SKIP' if skip else ('PASS' if m.group(1) == 'ok' else 'FAIL')
        child = parse_block(nested, prefix) if nested else None
        test = _close(Test(m.group(3), status, reason), child)
        test.lines = nested
        nested = []
        block.tests.append(test)
    if nested:
        child = parse_block(nested, prefix)
        if child.plan is not None or child.tests or child.name:
            lost = Test(child.name or '', 'FAIL',
                        'the output ended inside it (a crash, or no result line)')
            lost.lines = nested
            block.tests.append(_close(lost, child))
            lost.status = 'FAIL'
    if block.plan is not None and len(block.tests) != block.plan:
        block.problems.append('planned %d results, got %d' %
                              (block.plan, len(block.tests)))
    return block


def kunit_lines(text):
    """The console's KTAP: kernel lines (those with a time stamp: what the
    guest's programs print has none) from the first version line on, the
    stamps stripped."""
    out = []
    started = False
    for raw in text.splitlines():
        raw = raw.rstrip('\r')
        if not STAMP.match(raw):
            continue
        line = STAMP.sub('', raw)
        if not started:
            started = bool(VERSION.match(line))
        if started:
            out.append(line.rstrip())
    return out


def kselftest_lines(text):
    """run-kselftests' KTAP; kernel messages the console mixed in dropped."""
    out = []
    for raw in text.splitlines():
        line = raw.rstrip('\r')
        if STAMP.match(line):
            continue
        out.append(line.rstrip())
    return out


def _uniq(records):
    seen = {}
    out = []
    for status, tid, reason in records:
        n = seen.get(tid, 0) + 1
        seen[tid] = n
        out.append((status, tid if n == 1 else '%s #%d' % (tid, n), reason))
    return out


def _top_problems(block, what):
    return [('FAIL', '%s: (the whole run)' % what, p) for p in block.problems]


def kunit_records(text):
    """Records of the KUnit suites and cases a console shows."""
    lines = kunit_lines(text)
    if not lines:
        return []
    top = parse_block(lines, '    ')
    recs = _top_problems(top, 'kunit')
    for suite in top.tests:
        recs.append((suite.status, 'kunit: %s' % suite.name, suite.reason))
        for case in suite.children:
            cid = 'kunit: %s.%s' % (suite.name, case.name)
            recs.append((case.status, cid, case.reason))
            # a parameterised case: one record per parameter, so that a
            # parameter that goes missing or fails is named
            for param in case.children:
                recs.append((param.status, '%s: %s' % (cid, param.name),
                             param.reason))
    return _uniq(recs)


def _kselftest_run(text):
    """The top block of run-kselftests' output, None when it has no KTAP."""
    lines = kselftest_lines(text)
    if not any(VERSION.match(l) for l in lines):
        return None
    return parse_block(lines, '# ')


def _program_name(prog):
    return re.sub(r'^selftests: ', '', prog.name)


def kselftest_records(text):
    """Records of the kselftest programs and their harness cases."""
    top = _kselftest_run(text)
    if top is None:
        return []
    recs = _top_problems(top, 'kselftest')
    for prog in top.tests:
        name = _program_name(prog)
        recs.append((prog.status, 'kselftest: %s' % name, prog.reason))
        for case in prog.children:
            recs.append((case.status, 'kselftest: %s: %s' % (name, case.name),
                         case.reason))
    return _uniq(recs)


def kselftest_failure_logs(text, last=15):
    """[(id, lines)] of each failed kselftest: the last lines it printed
    (a harness case's TH_LOG lines; for a program, its own output) where
    nothing nested under it failed, so a failure is shown once."""
    top = _kselftest_run(text)
    if top is None:
        return []
    out = []
    for prog in top.tests:
        name = _program_name(prog)
        failed = [c for c in prog.children if c.status == 'FAIL']
        for case in failed:
            out.append(('kselftest: %s: %s' % (name, case.name),
                        case.lines[-last:]))
        if prog.status == 'FAIL' and not failed:
            out.append(('kselftest: %s' % name, prog.lines[-last:]))
    return out


def _list_lines(text):
    """(number, line) of each line of a list that is not a comment: '#'
    lines and blank lines are."""
    for n, line in enumerate(text.splitlines(), 1):
        line = line.rstrip()
        if line and not line.startswith('#'):
            yield n, line


def read_expected(text):
    """{id: (status, reason)} of an expected-results list: lines
    'PASS ID' or 'SKIP ID # reason'; '#' lines and blank lines are comments."""
    exp = {}
    order = []
    for n, line in _list_lines(text):
        m = re.match(r'^(PASS|SKIP) (.+?)(?: # (.*))?$', line)
        if not m:
            raise ValueError('line %d: want "PASS ID" or "SKIP ID # reason", got %r'
                             % (n, line))
        if m.group(1) == 'SKIP' and not m.group(3):
            raise ValueError('line %d: a SKIP needs its reason ("# why")' % n)
        if m.group(2) in exp:
            raise ValueError('line %d: %s is listed twice' % (n, m.group(2)))
        exp[m.group(2)] = (m.group(1), m.group(3) or '')
        order.append(m.group(2))
    return exp, order


def read_host_skips(text):
    """{id: reason} of a list of the tests that may skip where they are
    expected to pass, for a cause outside the kernel that the test itself
    detects (a host too busy to measure on): lines 'ID # reason'; '#'
    lines and blank lines are comments."""
    skips = {}
    for n, line in _list_lines(text):
        m = re.match(r'^(.+?) # (.+)$', line)
        if not m:
            raise ValueError('line %d: want "ID # reason", got %r' % (n, line))
        if m.group(1) in skips:
            raise ValueError('line %d: %s is listed twice' % (n, m.group(1)))
        skips[m.group(1)] = m.group(2)
    return skips


def reason_shape(reason):
    """A skip's reason with its numbers written as N: the counts in it
    change from run to run, its words do not."""
    return re.sub(r'\d+(?:\.\d+)?', 'N', reason)


def _host_skip(tid, status, reason, host_skips):
    return (status == 'SKIP' and tid in host_skips and
            reason_shape(reason) == reason_shape(host_skips[tid]))


def compare(records, expected, host_skips=None):
    """Lines saying how records differ from the expected list.  A test
    expected to pass that skips for the reason @host_skips gives it
    ({id: reason}, read_host_skips()) is no difference."""
    host_skips = host_skips or {}
    got = {tid: (status, reason) for status, tid, reason in records}
    diff = []
    for tid, (want, _) in expected.items():
        if tid not in got:
            diff.append('MISSING %s (expected %s)' % (tid, want))
    for status, tid, reason in records:
        if tid not in expected:
            diff.append('UNEXPECTED %s (%s%s)' %
                        (tid, status, ': ' + reason if reason else ''))
        elif (expected[tid][0] == 'PASS' and
              _host_skip(tid, status, reason, host_skips)):
            continue
        elif expected[tid][0] != status and status != 'FAIL':
            diff.append('MISMATCH %s: expected %s, got %s%s' %
                        (tid, expected[tid][0], status,
                         ' (' + reason + ')' if reason else ''))
        elif status == 'SKIP' and expected[tid][1] != reason:
            # A skip for another reason is another outcome: the feature
            # that was there may be the one missing now.
            diff.append('MISMATCH %s: expected SKIP # %s, got SKIP # %s' %
                        (tid, expected[tid][1], reason))
    return diff


def format_expected(records, label):
    """An expected-results list of records that hold no failure."""
    out = ['# Expected results of the %s boot of scripts/run (KUnit at boot'
           % label,
           '# and the kselftests).  Written by "make expected"; a change here',
           '# is a change of what the project promises: review it.']
    for status, tid, reason in records:
        if status == 'SKIP':
            out.append('SKIP %s # %s' % (tid, reason or 'no reason given'))
        else:
            out.append('%s %s' % (status, tid))
    return '\n'.join(out) + '\n'
