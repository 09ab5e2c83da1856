#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of the LAVA pieces that need no VM and no LAVA:

* ktap-cases gives every KTAP result the verdict and the id that
  scripts/ktap/ktap.py gives it (with the host's awk and with busybox's,
  which the guest runs);
* results.py passes a lava-run log whose cases agree with the console and
  fails each kind of disagreement.
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'ktap'))
import ktap  # noqa: E402

CASES = os.path.join(HERE, 'ktap-cases')
RESULTS = os.path.join(HERE, 'results.py')


def doc(*programs):
    """run-kselftests output: (name, top result line suffix, nested lines)."""
    out = ['TAP version 13', '1..%d' % len(programs)]
    for n, (name, top, nested) in enumerate(programs, 1):
        out.append('# selftests: %s' % name)
        out += ['# ' + l for l in nested]
        out.append(top.format(n=n, name='selftests: ' + name))
    return '\n'.join(out) + '\n'


SAMPLES = {
    'plain': doc(('t: prog', 'ok {n} {name}', [
        'TAP version 13', '1..3',
        '# Starting 3 tests',
        '#  RUN           f.one ...',
        '#            OK  f.one',
        'ok 1 f.one',
        'ok 2 f.two # SKIP no such knob',
        'not ok 3 f.three',
    ])),
    'ok_but_case_failed': doc(('t: p', 'ok {n} {name}', [
        '1..2', 'ok 1 a', 'not ok 2 b'])),
    'all_skipped': doc(('t: p', 'ok {n} {name}', [
        '1..2', 'ok 1 a # SKIP x', 'ok 2 b # SKIP y'])),
    'plan_not_kept': doc(('t: p', 'ok {n} {name}', [
        '1..3', 'ok 1 a', 'ok 2 b'])),
    'numbering': doc(('t: p', 'ok {n} {name}', [
        '1..2', 'ok 1 a', 'ok 3 b'])),
    'skip_and_timeout': doc(
        ('t: s.sh', 'ok {n} {name} # SKIP', ['1..0 # SKIP no driver']),
        ('t: slow', 'not ok {n} {name} # TIMEOUT 45s', ['1..2', 'ok 1 a'])),
    'twice': doc(('t: p', 'ok {n} {name}', ['1..1', 'ok 1 a']),
                 ('t: p', 'ok {n} {name}', ['1..1', 'ok 1 a'])),
    'kernel_lines': doc(('t: p', 'ok {n} {name}', [
        '1..1', 'ok 1 a'])).replace(
            '# 1..1\n', '# 1..1\n[   12.345678] cpufreq_emu: freqs: bad\n'),
    'grandchild_failed': doc(('t: p', 'ok {n} {name}', [
        '1..1', '# 1..1', '# not ok 1 deep', 'ok 1 a'])),
    'empty_name': doc(('t: p', 'ok {n} {name}', [
        '1..2', 'ok 1 # SKIP x', 'ok 2 b'])),
    'no_nesting': doc(('t: a.sh', 'ok {n} {name}', []),
                      ('t: b.sh', 'not ok {n} {name} # exit=1', [])),
}


def reference(text):
    return sorted((s.lower(), tid[len('kselftest: '):])
                  for s, tid, _ in ktap.kselftest_records(text))


def flatten(text, awk_dir=None):
    env = dict(os.environ)
    if awk_dir:
        env['PATH'] = awk_dir + os.pathsep + env['PATH']
    p = subprocess.run(['sh', CASES], input=text, capture_output=True,
                       text=True, env=env, check=True)
    body = [l for l in p.stdout.splitlines() if not l.startswith('KSFT-CASE ')]
    assert body == text.splitlines(), 'ktap-cases changed its input'
    out = []
    for l in p.stdout.splitlines():
        if l.startswith('KSFT-CASE '):
            _, res, tid = l.split(' ', 2)
            out.append((res, tid))
    return sorted(out)


class KtapCases(unittest.TestCase):
    def check_all(self, awk_dir=None):
        for name, text in SAMPLES.items():
            with self.subTest(sample=name):
                self.assertEqual(flatten(text, awk_dir), reference(text))

    def test_host_awk(self):
        self.check_all()

    def test_busybox_awk(self):
        bb = shutil.which('busybox')
        if not bb:
            self.skipTest('no busybox (Debian: busybox-static)')
        with tempfile.TemporaryDirectory() as d:
            os.symlink(bb, os.path.join(d, 'awk'))
            self.check_all(d)

    def test_verdicts(self):
        # The rules themselves, not only the agreement.
        self.assertIn(('fail', 't: p'), flatten(SAMPLES['ok_but_case_failed']))
        self.assertIn(('skip', 't: p'), flatten(SAMPLES['all_skipped']))
        self.assertIn(('fail', 't: p'), flatten(SAMPLES['plan_not_kept']))
        self.assertIn(('pass', 't: p #2'), flatten(SAMPLES['twice']))
        self.assertIn(('fail', 't: p: a'), flatten(SAMPLES['grandchild_failed']))


def lava_log(console, cases, job='pass', monitor='passed'):
    lines = []
    for c in console.splitlines():
        lines.append('{"dt": "x", "lvl": "target", "msg": "%s"}'
                     % c.replace('\\', '\\\\').replace('"', '\\"'))
    for tid, res in cases:
        lines.append('{"dt": "x", "lvl": "results", "msg": {"case": "c", '
                     '"definition": "kselftest", "extra": {"test_case_id": '
                     '"%s"}, "result": "%s"}}' % (tid, res))
    if monitor:
        lines.append('{"dt": "x", "lvl": "results", "msg": {"case": '
                     '"lava-test-monitor", "definition": "lava", "extra": '
                     '{"status": "%s"}, "result": "pass"}}' % monitor)
    if job:
        lines.append('{"dt": "x", "lvl": "results", "msg": {"case": "job", '
                     '"definition": "lava", "result": "%s"}}' % job)
    return '\n'.join(lines) + '\n'


class Results(unittest.TestCase):
    console = doc(('t: p', 'ok {n} {name}', ['1..2', 'ok 1 a', 'ok 2 b # SKIP x']))
    good = [('t: p: a', 'pass'), ('t: p: b', 'skip'), ('t: p', 'pass')]

    def run_results(self, log):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'lava.log')
            with open(path, 'w') as f:
                f.write(log)
            p = subprocess.run([sys.executable, RESULTS, 'lbl', path,
                                os.path.join(d, 'console.log')],
                               capture_output=True, text=True)
        return p.returncode, p.stdout

    def test_agreeing(self):
        rc, out = self.run_results(lava_log(self.console, self.good))
        self.assertEqual(rc, 0, out)
        self.assertIn('3 LAVA kselftest cases', out)

    def test_each_disagreement_fails(self):
        variants = {
            'DIFFERENT': [('t: p: a', 'skip')] + self.good[1:],
            'MISSING': self.good[1:],
            'EXTRA': self.good + [('t: q', 'pass')],
            'TWICE': self.good + [('t: p', 'pass')],
        }
        for kind, cases in variants.items():
            with self.subTest(kind=kind):
                rc, out = self.run_results(lava_log(self.console, cases))
                self.assertEqual(rc, 1, out)
                self.assertIn('lbl: %s ' % kind, out)

    def test_empty_case_name(self):
        # "ok 1 # SKIP why": LAVA strips the id that ends in ": "
        console = doc(('t: p', 'ok {n} {name}', ['1..2', 'ok 1 # SKIP x',
                                                 'ok 2 # SKIP y']))
        rc, out = self.run_results(lava_log(console, [
            ('t: p:', 'skip'), ('t: p:  #2', 'skip'), ('t: p', 'skip')]))
        self.assertEqual(rc, 0, out)

    def test_failed_case_fails(self):
        console = doc(('t: p', 'not ok {n} {name} # exit=1', ['1..1', 'not ok 1 a']))
        rc, out = self.run_results(lava_log(console, [('t: p: a', 'fail'),
                                                      ('t: p', 'fail')]))
        self.assertEqual(rc, 1, out)
        self.assertIn('LAVA case fail: t: p: a', out)
        self.assertNotIn('DIFFERENT', out)

    def test_job_monitor_splat(self):
        for kind, log in {
            'JOB': lava_log(self.console, self.good, job='fail'),
            'MONITOR': lava_log(self.console, self.good, monitor='failed'),
            'SPLAT': lava_log(self.console + '[    3.000000] WARNING: CPU: 1 at x\n',
                              self.good),
        }.items():
            with self.subTest(kind=kind):
                rc, out = self.run_results(log)
                self.assertEqual(rc, 1, out)
                self.assertIn('lbl: %s ' % kind, out)

    def test_splat_context(self):
        console = (self.console + '[    2.000000] a: what came first\n'
                   '[    2.500000] b: why it warns\n'
                   '[    3.000000] WARNING: CPU: 1 at x\n'
                   '[    3.000001] its message\n'
                   '[    3.000002] the call trace\n')
        rc, out = self.run_results(lava_log(console, self.good))
        self.assertEqual(rc, 1, out)
        self.assertIn('lbl: SPLAT-CONTEXT [    2.000000] a: what came first', out)
        self.assertIn('lbl: SPLAT-CONTEXT [    2.500000] b: why it warns', out)
        self.assertIn('lbl: SPLAT-CONTEXT [    3.000001] its message', out)
        self.assertNotIn('the call trace', out)

    def test_no_kselftest_is_no_pass(self):
        rc, out = self.run_results(lava_log('nothing here', []))
        self.assertEqual(rc, 1, out)


if __name__ == '__main__':
    unittest.main()
