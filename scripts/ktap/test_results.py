#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of results.py: the JSON records of a run and of make check."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import results  # noqa: E402

RUN_OUTPUT = '\n'.join([
    'TAP version 13',
    '1..2',
    '# selftests: boards: board_test',
    '# ok 1 board.layout',
    '# time: boards: board_test: 3 s',
    'ok 1 selftests: boards: board_test',
    '# selftests: sched_steal: steal_rules',
    '# time: sched_steal: steal_rules: 12 s\r',
    'not ok 2 selftests: sched_steal: steal_rules # exit=1',
])

META = {'arch': 'arm64', 'board': 'hikey960', 'kernel': '6.12.57',
        'series': 'abc', 'project': 'def'}


class RecordsTest(unittest.TestCase):
    def test_seconds_of_programs(self):
        self.assertEqual(results.kselftest_seconds(RUN_OUTPUT), {
            'kselftest: boards: board_test': 3,
            'kselftest: sched_steal: steal_rules': 12})

    def test_records_carry_meta_and_seconds(self):
        recs = results.records([
            ('PASS', 'kselftest: boards: board_test', ''),
            ('FAIL', 'kselftest: sched_steal: steal_rules', 'exit=1'),
            ('SKIP', 'kunit: steal', None)],
            META, results.kselftest_seconds(RUN_OUTPUT))
        self.assertEqual([r['result'] for r in recs], ['PASS', 'FAIL', 'SKIP'])
        self.assertEqual(recs[1]['reason'], 'exit=1')
        self.assertEqual(recs[2]['reason'], '')
        self.assertEqual(recs[1]['seconds'], 12)
        self.assertNotIn('seconds', recs[2])
        for r in recs:
            for k, v in META.items():
                self.assertEqual(r[k], v)

    def test_check_steps(self):
        res = '\n'.join([
            'PASS deps',
            'FAIL arm64-tests: scripts/run exited 1',
            'PASS arm64 kunit: steal',
            'FAIL arm64 kselftest: sched_steal: steal_rules (exit=1)',
            'SKIP harness',
            'FAIL expected: MISSING arm64 kunit: pelt',
        ])
        timing = 'deps 2\narm64-tests 671\n'
        recs = results.check_steps(res, timing, {'project': 'def'})
        self.assertEqual([(r['id'], r['result'], r['reason']) for r in recs], [
            ('check: deps', 'PASS', ''),
            ('check: arm64-tests', 'FAIL', 'scripts/run exited 1'),
            ('check: harness', 'SKIP', ''),
            ('check: expected', 'FAIL', 'MISSING arm64 kunit: pelt')])
        self.assertEqual(recs[0]['seconds'], 2)
        self.assertEqual(recs[1]['seconds'], 671)
        self.assertNotIn('seconds', recs[2])
        self.assertEqual(recs[0]['project'], 'def')

    def test_dump_load_round_trip(self):
        recs = results.records([('PASS', 'kunit: a', '')], META)
        with tempfile.TemporaryDirectory() as d:
            for rs in (recs, []):
                path = os.path.join(d, 'r.json')
                results.dump(rs, path)
                self.assertEqual(results.load(path), rs)
            self.assertEqual(results.load(os.path.join(d, 'none.json')), [])
            bad = os.path.join(d, 'bad.json')
            with open(bad, 'w') as f:
                f.write('{"id": "x"}')
            with self.assertRaises(ValueError):
                results.load(bad)

    def test_meta(self):
        self.assertEqual(results.parse_meta(['a=1', 'b=x=y', 'c=']),
                         {'a': '1', 'b': 'x=y', 'c': ''})
        for bad in (['a'], ['=1']):
            with self.assertRaises(ValueError):
                results.parse_meta(bad)


class CommandsTest(unittest.TestCase):
    """summary.py --json and check_results.py as scripts/run and
    scripts/check call them."""

    def run_py(self, *args):
        return subprocess.run([sys.executable, '-B'] + list(args),
                              capture_output=True, text=True)

    def test_summary_json_then_check(self):
        with tempfile.TemporaryDirectory() as d:
            console = os.path.join(d, 'console.log')
            out = os.path.join(d, 'kselftest.out')
            run_json = os.path.join(d, 'results.json')
            with open(console, 'w') as f:
                f.write('[    1.000000] Run /init as init process\n')
            with open(out, 'w') as f:
                f.write(RUN_OUTPUT + '\n')
            p = self.run_py(os.path.join(here, 'summary.py'), 'arm64',
                            console, out, '--json', run_json,
                            '--meta', 'arch=arm64', '--meta', 'board=hikey960')
            self.assertEqual(p.returncode, 1, p.stderr)
            recs = results.load(run_json)
            self.assertEqual(
                {r['id']: r['result'] for r in recs},
                {'kselftest: boards: board_test': 'PASS',
                 'kselftest: boards: board_test: board.layout': 'PASS',
                 'kselftest: sched_steal: steal_rules': 'FAIL'})
            self.assertTrue(all(r['board'] == 'hikey960' for r in recs))

            res = os.path.join(d, 'results')
            timing = os.path.join(d, 'timing')
            with open(res, 'w') as f:
                f.write('PASS deps\nPASS arm64 kselftest: boards: board_test\n')
            with open(timing, 'w') as f:
                f.write('deps 2\n')
            merged = os.path.join(d, 'check.json')
            p = self.run_py(os.path.join(here, 'check_results.py'), merged,
                            res, timing, run_json, '--meta', 'project=def')
            self.assertEqual(p.returncode, 0, p.stderr)
            ids = [r['id'] for r in json.load(open(merged))]
            self.assertEqual(ids[0], 'check: deps')
            self.assertEqual(len(ids), 4)

    def test_bad_meta_refused(self):
        with tempfile.TemporaryDirectory() as d:
            p = self.run_py(os.path.join(here, 'check_results.py'),
                            os.path.join(d, 'o.json'), '/dev/null',
                            '/dev/null', '--meta', 'nokey')
            self.assertEqual(p.returncode, 2)
            self.assertIn('KEY=VALUE', p.stderr)
            self.assertFalse(os.path.exists(os.path.join(d, 'o.json')))


if __name__ == '__main__':
    unittest.main()
