#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Compare the test cases of a lava-run log with the verdicts scripts/run
prints for the same boot.

  results.py LABEL LAVA_LOG CONSOLE_OUT

LAVA_LOG is what lava-run printed: one YAML record per line.  Its "target"
records are the board's console: they are written to CONSOLE_OUT and read
by scripts/ktap/ktap.py, the parser behind scripts/run's lines.  Its
"results" records of the "kselftest" definition are the cases LAVA
recorded.  Every kselftest id of the console must be a LAVA case with the
same verdict, and LAVA must have no other case.  Prints one line per
difference, the failed cases, and a count; exits 1 on a difference, a
failed case, a kernel splat on the console, or a job LAVA did not pass.
"""

import os
import re
import sys

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'ktap'))
import ktap  # noqa: E402

# scripts/vm's list of what a console must never show.
SPLAT = re.compile(r'^\[ *\d+\.\d+\] .*(WARNING:|BUG:|Oops|possible circular locking|'
                   r'possible recursive locking|inconsistent lock state|KASAN:|'
                   r'UBSAN:|blocked for more than|Kernel panic|detected stall)')


KERNEL_LINE = re.compile(r'^\[ *\d+\.\d+\] ')


def read_log(path):
    console, cases, lava = [], [], {}
    with open(path, errors='replace') as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line.startswith('{'):
                continue
            try:
                rec = yaml.safe_load(line)
            except yaml.YAMLError:
                print('results.py: %s:%d is no YAML record' % (path, n))
                continue
            lvl, msg = rec.get('lvl'), rec.get('msg')
            if lvl == 'target' and isinstance(msg, str):
                console.append(msg)
            elif lvl == 'results' and isinstance(msg, dict):
                if msg.get('definition') == 'kselftest':
                    tid = (msg.get('extra') or {}).get('test_case_id', msg['case'])
                    cases.append((tid, msg['result']))
                elif msg.get('definition') == 'lava':
                    lava[msg.get('case')] = msg
    return console, cases, lava


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split('\n\n')[1])
    label, log, console_out = sys.argv[1:]
    console, cases, lava = read_log(log)
    with open(console_out, 'w') as f:
        f.write('\n'.join(console) + '\n')
    text = '\n'.join(console)
    problems = []

    # LAVA strips a case id ("ok 4 # SKIP why" has an empty name: the id
    # ends in ": "), so the ids are compared stripped.
    ref = {}
    for status, tid, reason in ktap.kselftest_records(text):
        ref[re.sub(r'^kselftest: ', '', tid).strip()] = (status.lower(), reason)
    kunit = ktap.kunit_records(text)
    got = {}
    for tid, result in cases:
        tid = tid.strip()
        if tid in got:
            problems.append('TWICE %s: LAVA recorded it twice' % tid)
        got[tid] = result

    for tid, (want, reason) in ref.items():
        if tid not in got:
            problems.append('MISSING %s: scripts/run says %s, LAVA has no such case'
                            % (tid, want))
        elif got[tid] != want:
            problems.append('DIFFERENT %s: scripts/run says %s%s, LAVA says %s'
                            % (tid, want, ' (%s)' % reason if reason else '',
                               got[tid]))
    for tid in got:
        if tid not in ref:
            problems.append('EXTRA %s: LAVA says %s, scripts/run has no such test'
                            % (tid, got[tid]))
    kernel = [line.strip() for line in console if KERNEL_LINE.match(line)]
    first = True
    for n, line in enumerate(kernel):
        if SPLAT.match(line):
            problems.append('SPLAT %s' % line)
            # Around the first: what the code printed before its WARN,
            # and the WARN's own message, which follows the stamp line.
            if first:
                for near in kernel[max(0, n - 2):n] + kernel[n + 1:n + 2]:
                    problems.append('SPLAT-CONTEXT %s' % near)
                first = False
    job = lava.get('job', {}).get('result')
    if job != 'pass':
        why = (lava.get('job', {}).get('error_msg')
               or 'the job never ended: see %s' % log)
        problems.append('JOB LAVA says the job did %s: %s'
                        % ('not pass' if job else 'not finish', why))
    monitor = (lava.get('lava-test-monitor', {}).get('extra') or {}).get('status')
    if monitor != 'passed':
        problems.append('MONITOR the monitor did not see the end of the '
                        'kselftests (%s)' % (monitor or 'no record'))

    failed = [tid for tid, r in cases if r == 'fail']
    for tid in failed:
        print('%s: LAVA case fail: %s (%s)' % (label, tid, ref.get(tid, ('', ''))[1]
                                                or 'no reason in the output'))
    for p in problems:
        print('%s: %s' % (label, p))
    count = {r: sum(1 for _, x in cases if x == r) for r in ('pass', 'fail', 'skip')}
    print('%s: %d LAVA kselftest cases (%d pass, %d fail, %d skip), %d from '
          "scripts/run's parser, %d difference(s); KUnit at boot: %d records "
          '(not LAVA cases)'
          % (label, len(cases), count['pass'], count['fail'], count['skip'],
             len(ref), len([p for p in problems if not p.startswith(('JOB', 'SPLAT',
                                                                     'MONITOR'))]),
             len(kunit)))
    if not ref:
        print('%s: no kselftest ran on the console (%s): that is not a pass'
              % (label, console_out))
        return 1
    return 1 if problems or failed else 0


if __name__ == '__main__':
    sys.exit(main())
