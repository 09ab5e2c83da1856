#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of ktap.py: the shapes of KTAP a boot can print, good and bad."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402


def console(*lines):
    """Kernel lines as the console shows them: time-stamped."""
    return '\n'.join('[    1.%06d] %s' % (i, l) for i, l in enumerate(lines))


GOOD_KUNIT = [
    'KTAP version 1',
    '1..2',
    '    KTAP version 1',
    '    # Subtest: pelt',
    '    # module: pelt_test',
    '    1..2',
    '    ok 1 ramp',
    '        KTAP version 1',
    '        # Subtest: decay',
    '        ok 1 mult=1',
    '        ok 2 mult=4 # SKIP not built',
    '    # decay: pass:1 fail:0 skip:1 total:2',
    '    ok 2 decay',
    '# pelt: pass:2 fail:0 skip:0 total:2',
    'ok 1 pelt',
    '    KTAP version 1',
    '    # Subtest: steal',
    '    1..1',
    '    ok 1 mask # SKIP no SMP',
    'ok 2 steal',
]


def statuses(recs):
    return {tid: status for status, tid, _ in recs}


class KunitTest(unittest.TestCase):
    def test_suites_and_cases(self):
        recs = ktap.kunit_records(console(*GOOD_KUNIT))
        self.assertEqual(statuses(recs), {
            'kunit: pelt': 'PASS',
            'kunit: pelt.ramp': 'PASS',
            'kunit: pelt.decay': 'PASS',
            'kunit: pelt.decay: mult=1': 'PASS',
            'kunit: pelt.decay: mult=4': 'SKIP',
            'kunit: steal': 'SKIP',
            'kunit: steal.mask': 'SKIP',
        })
        self.assertEqual(recs[-1][2], 'no SMP')

    def test_interleaved_kernel_messages_and_user_output(self):
        lines = list(GOOD_KUNIT)
        lines.insert(7, 'random: crng init done')
        lines.insert(3, 'clocksource: Switched to tsc')
        text = console(*lines) + '\nTAP version 13\n1..1\nok 1 selftests: a: b\n'
        self.assertEqual(statuses(ktap.kunit_records(text)),
                         statuses(ktap.kunit_records(console(*GOOD_KUNIT))))

    def test_suite_failing_in_init_is_seen(self):
        lines = GOOD_KUNIT[:15] + [
            '    KTAP version 1',
            '    # Subtest: steal',
            '    # steal: module init failed',
            'not ok 2 steal',
        ]
        self.assertEqual(statuses(ktap.kunit_records(console(*lines)))
                         ['kunit: steal'], 'FAIL')

    def test_fewer_cases_than_planned_fail_the_suite(self):
        lines = GOOD_KUNIT[:15] + [
            '    KTAP version 1',
            '    # Subtest: steal',
            '    1..3',
            '    ok 1 mask',
            '    ok 2 clear',
            'ok 2 steal',
        ]
        recs = ktap.kunit_records(console(*lines))
        st = statuses(recs)
        self.assertEqual(st['kunit: steal'], 'FAIL')
        self.assertEqual(st['kunit: steal.mask'], 'PASS')
        self.assertIn('planned 3 results, got 2', dict(
            (t, r) for _, t, r in recs)['kunit: steal'])

    def test_crash_inside_a_suite_is_a_failure(self):
        lines = GOOD_KUNIT[:15] + [
            '    KTAP version 1',
            '    # Subtest: steal',
            '    1..2',
            '    ok 1 mask',
            'Unable to handle kernel NULL pointer dereference',
            '  Call trace:',
        ]
        recs = ktap.kunit_records(console(*lines))
        st = statuses(recs)
        self.assertEqual(st['kunit: steal'], 'FAIL')
        self.assertEqual(st['kunit: steal.mask'], 'PASS')
        self.assertIn('the output ended inside it', dict(
            (t, r) for _, t, r in recs)['kunit: steal'])

    def test_missing_suite_fails_the_run(self):
        st = statuses(ktap.kunit_records(console(*GOOD_KUNIT[:15])))
        self.assertEqual(st['kunit: (the whole run)'], 'FAIL')

    def test_ok_suite_with_failed_case_fails(self):
        lines = [l.replace('    ok 1 ramp', '    not ok 1 ramp')
                 for l in GOOD_KUNIT]
        st = statuses(ktap.kunit_records(console(*lines)))
        self.assertEqual(st['kunit: pelt.ramp'], 'FAIL')
        self.assertEqual(st['kunit: pelt'], 'FAIL')

    def test_failed_parameter_fails_its_case(self):
        lines = [l.replace('ok 1 mult=1', 'not ok 1 mult=1')
                 for l in GOOD_KUNIT]
        st = statuses(ktap.kunit_records(console(*lines)))
        self.assertEqual(st['kunit: pelt.decay'], 'FAIL')
        # and the parameter is named
        self.assertEqual(st['kunit: pelt.decay: mult=1'], 'FAIL')
        self.assertEqual(st['kunit: pelt.decay: mult=4'], 'SKIP')

    def test_numbering_out_of_order_fails(self):
        lines = [l.replace('    ok 2 decay', '    ok 3 decay')
                 for l in GOOD_KUNIT]
        st = statuses(ktap.kunit_records(console(*lines)))
        self.assertEqual(st['kunit: pelt'], 'FAIL')

    def test_no_ktap_no_records(self):
        self.assertEqual(ktap.kunit_records(console('Linux version 6.12')), [])


KSELFTEST = '\n'.join([
    'TAP version 13',
    '1..4',
    '# selftests: knobs: knob_matrix',
    '# TAP version 13',
    '# 1..2',
    '# # Starting 2 tests from 1 test cases.',
    '# #  RUN           knob.good ...',
    '# #            OK  knob.good',
    '# ok 1 knob.good',
    '# ok 2 knob.nonroot # SKIP no nobody user',
    '# # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0',
    'ok 1 selftests: knobs: knob_matrix',
    '# selftests: boards: module_params.sh',
    '# checking the parameters',
    'ok 2 selftests: boards: module_params.sh',
    '# selftests: ramp: ramp_freq',
    '# TAP version 13',
    '# 1..1',
    '# ok 1 ramp.max # SKIP capped',
    'ok 3 selftests: ramp: ramp_freq',
    '# selftests: thermal: inversion',
    '# TAP version 13',
    '# 1..0 # SKIP not a big.LITTLE board',
    'ok 4 selftests: thermal: inversion # SKIP',
])


class KselftestTest(unittest.TestCase):
    def test_programs_and_cases(self):
        self.assertEqual(statuses(ktap.kselftest_records(KSELFTEST)), {
            'kselftest: knobs: knob_matrix': 'PASS',
            'kselftest: knobs: knob_matrix: knob.good': 'PASS',
            'kselftest: knobs: knob_matrix: knob.nonroot': 'SKIP',
            'kselftest: boards: module_params.sh': 'PASS',
            'kselftest: ramp: ramp_freq': 'SKIP',
            'kselftest: ramp: ramp_freq: ramp.max': 'SKIP',
            'kselftest: thermal: inversion': 'SKIP',
        })

    def test_skip_reason_from_the_plan(self):
        recs = ktap.kselftest_records(KSELFTEST)
        self.assertEqual(recs[-1][2], 'not a big.LITTLE board')

    def test_timeout_inside_a_program(self):
        text = '\n'.join([
            'TAP version 13',
            '1..1',
            '# selftests: steal: sched_steal',
            '# TAP version 13',
            '# 1..3',
            '# ok 1 steal.counters',
            'not ok 1 selftests: steal: sched_steal # TIMEOUT 45s',
        ])
        recs = ktap.kselftest_records(text)
        st = statuses(recs)
        self.assertEqual(st['kselftest: steal: sched_steal'], 'FAIL')
        self.assertIn('TIMEOUT 45s', recs[0][2])
        self.assertIn('planned 3 results, got 1', recs[0][2])

    def test_run_cut_short(self):
        text = '\n'.join(KSELFTEST.split('\n')[:13])
        st = statuses(ktap.kselftest_records(text))
        self.assertEqual(st['kselftest: (the whole run)'], 'FAIL')

    def test_failure_logs_of_a_case_and_of_a_program(self):
        text = '\n'.join([
            'TAP version 13',
            '1..2',
            '# selftests: ramp: ramp_freq',
            '# TAP version 13',
            '# 1..2',
            '# #  RUN           ramp.sooner ...',
            '# # ramp_freq.c:388:sooner:median climb ratio 1.06',
            '# #          FAIL  ramp.sooner',
            '# not ok 1 ramp.sooner',
            '# # ramp_freq.c:12:later:fine',
            '# ok 2 ramp.later',
            'not ok 1 selftests: ramp: ramp_freq # exit=1',
            '# selftests: boards: module_params.sh',
            '# module did not load',
            'not ok 2 selftests: boards: module_params.sh # exit=1',
        ])
        self.assertEqual(ktap.kselftest_failure_logs(text), [
            ('kselftest: ramp: ramp_freq: ramp.sooner',
             [' RUN           ramp.sooner ...',
              'ramp_freq.c:388:sooner:median climb ratio 1.06',
              '         FAIL  ramp.sooner']),
            ('kselftest: boards: module_params.sh',
             ['selftests: boards: module_params.sh', 'module did not load']),
        ])
        self.assertEqual(ktap.kselftest_failure_logs(KSELFTEST), [])

    def test_failure_log_keeps_the_last_lines(self):
        text = '\n'.join(['TAP version 13', '1..1', '# selftests: a: b'] +
                         ['# line %d' % i for i in range(40)] +
                         ['not ok 1 selftests: a: b # exit=1'])
        (tid, lines), = ktap.kselftest_failure_logs(text, last=5)
        self.assertEqual(lines, ['line %d' % i for i in range(35, 40)])

    def test_kernel_messages_are_dropped(self):
        lines = KSELFTEST.split('\n')
        lines.insert(9, '[   12.345678] sched: RT throttling activated')
        self.assertEqual(statuses(ktap.kselftest_records('\n'.join(lines))),
                         statuses(ktap.kselftest_records(KSELFTEST)))


class ExpectedTest(unittest.TestCase):
    RECS = [('PASS', 'kunit: a', ''), ('SKIP', 'kunit: b', 'no SMP'),
            ('PASS', 'kunit: c', '')]

    def test_round_trip(self):
        exp, order = ktap.read_expected(ktap.format_expected(self.RECS, 'x'))
        self.assertEqual(order, ['kunit: a', 'kunit: b', 'kunit: c'])
        self.assertEqual(exp['kunit: b'], ('SKIP', 'no SMP'))
        self.assertEqual(ktap.compare(self.RECS, exp), [])

    def test_differences(self):
        exp, _ = ktap.read_expected(ktap.format_expected(self.RECS, 'x'))
        got = [('SKIP', 'kunit: a', 'knob missing'), ('PASS', 'kunit: b', ''),
               ('PASS', 'kunit: d', '')]
        self.assertEqual(ktap.compare(got, exp), [
            'MISSING kunit: c (expected PASS)',
            'MISMATCH kunit: a: expected PASS, got SKIP (knob missing)',
            'MISMATCH kunit: b: expected SKIP, got PASS',
            'UNEXPECTED kunit: d (PASS)',
        ])

    def test_skip_for_another_reason(self):
        exp, _ = ktap.read_expected(ktap.format_expected(self.RECS, 'x'))
        got = [('PASS', 'kunit: a', ''), ('SKIP', 'kunit: b', 'knob missing'),
               ('PASS', 'kunit: c', '')]
        self.assertEqual(ktap.compare(got, exp), [
            'MISMATCH kunit: b: expected SKIP # no SMP, got SKIP # knob missing'])

    def test_failure_is_not_a_difference(self):
        exp, _ = ktap.read_expected('PASS kunit: a\n')
        self.assertEqual(ktap.compare([('FAIL', 'kunit: a', '')], exp), [])

    def test_host_skip(self):
        exp, _ = ktap.read_expected('PASS kunit: a\nPASS kunit: c\n')
        skips = ktap.read_host_skips(
            '# comment\n\nkunit: a # host busy at 3 of 19 points\n')
        self.assertEqual(skips, {'kunit: a': 'host busy at 3 of 19 points'})
        got = [('SKIP', 'kunit: a', 'host busy at 10 of 21 points'),
               ('PASS', 'kunit: c', '')]
        self.assertEqual(ktap.compare(got, exp, skips), [])
        # another reason, another test, or a failure still count
        got = [('SKIP', 'kunit: a', 'knob missing'),
               ('SKIP', 'kunit: c', 'host busy at 10 of 21 points')]
        self.assertEqual(ktap.compare(got, exp, skips), [
            'MISMATCH kunit: a: expected PASS, got SKIP (knob missing)',
            'MISMATCH kunit: c: expected PASS, got SKIP '
            '(host busy at 10 of 21 points)'])
        self.assertEqual(ktap.compare(got, exp), [
            'MISMATCH kunit: a: expected PASS, got SKIP (knob missing)',
            'MISMATCH kunit: c: expected PASS, got SKIP '
            '(host busy at 10 of 21 points)'])
        # a test expected to skip for a reason of its own keeps it
        exp, _ = ktap.read_expected('SKIP kunit: a # no SMP\n')
        self.assertEqual(
            ktap.compare([('SKIP', 'kunit: a', 'host busy at 1 of 2 points')],
                         exp, skips),
            ['MISMATCH kunit: a: expected SKIP # no SMP, '
             'got SKIP # host busy at 1 of 2 points'])

    def test_bad_host_skip_lists(self):
        for text in ('kunit: a\n', 'kunit: a # x\nkunit: a # y\n'):
            with self.assertRaises(ValueError, msg=text):
                ktap.read_host_skips(text)

    def test_bad_lists(self):
        for text in ('FAIL kunit: a\n', 'SKIP kunit: a\n',
                     'PASS kunit: a\nPASS kunit: a\n', 'kunit: a\n'):
            with self.assertRaises(ValueError, msg=text):
                ktap.read_expected(text)


if __name__ == '__main__':
    unittest.main()
