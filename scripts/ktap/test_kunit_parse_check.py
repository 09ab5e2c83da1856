#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of kunit_parse_check.py's id mapping and comparison (the
run of kunit.py itself is make check's kunit-parse step)."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # noqa: E402
import kunit_parse_check as kpc  # noqa: E402

CONSOLE = '''[    1.0] KTAP version 1
[    1.0] 1..1
[    1.1]     KTAP version 1
[    1.1]     # Subtest: suite_a
[    1.1]     1..2
[    1.2]     ok 1 plain_case
[    1.3]         KTAP version 1
[    1.3]         # Subtest: param_case
[    1.3]         ok 1 p=1
[    1.3]         ok 2 p=2 # SKIP no such thing
[    1.4]     ok 2 param_case
[    1.5] ok 1 suite_a
'''

JSON = {'name': 'KUnit Test Group', 'test_cases': [], 'sub_groups': [
    {'name': 'suite_a', 'test_cases': [
        {'name': 'plain_case', 'status': 'PASS'}],
     'sub_groups': [
        {'name': 'param_case', 'sub_groups': [], 'test_cases': [
            {'name': 'p=1', 'status': 'PASS'},
            {'name': 'p=2', 'status': 'SKIP'}]}]}]}


class LeavesTest(unittest.TestCase):
    def test_same_ids_both_ways(self):
        ours = kpc.ktap_leaves(ktap.kunit_records(CONSOLE))
        self.assertEqual(ours, {
            'kunit: suite_a.plain_case': 'PASS',
            'kunit: suite_a.param_case: p=1': 'PASS',
            'kunit: suite_a.param_case: p=2': 'SKIP'})
        self.assertEqual(kpc.kunit_py_leaves(JSON), ours)
        self.assertEqual(kpc.compare(ours, kpc.kunit_py_leaves(JSON)), [])

    def test_differences_are_named(self):
        ours = kpc.ktap_leaves(ktap.kunit_records(CONSOLE))
        theirs = kpc.kunit_py_leaves(JSON)
        theirs['kunit: suite_a.plain_case'] = 'FAIL'
        del theirs['kunit: suite_a.param_case: p=2']
        theirs['kunit: suite_a.extra'] = 'PASS'
        self.assertEqual(kpc.compare(ours, theirs), [
            'kunit: suite_a.extra: ktap.py absent, kunit.py PASS',
            'kunit: suite_a.param_case: p=2: ktap.py SKIP, kunit.py absent',
            'kunit: suite_a.plain_case: ktap.py PASS, kunit.py FAIL'])

    def test_error_counts_as_failure(self):
        data = {'sub_groups': [{'name': 's', 'sub_groups': [], 'test_cases': [
            {'name': 'c', 'status': 'ERROR'}]}], 'test_cases': []}
        self.assertEqual(kpc.kunit_py_leaves(data), {'kunit: s.c': 'FAIL'})


if __name__ == '__main__':
    unittest.main()
