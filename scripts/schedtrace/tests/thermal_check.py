#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check schedtrace's JSON of a thermal trace (tests/vmcheck.sh).

Usage: thermal_check.py SUMMARY.JSON "CAPPED CPUS" [HALFLIFE_MS]

Each capped CPU must show a step of its instantaneous pressure up and one
back down to 0, each followed by the average going half the way within 25%
of the halflife (SPEC.md: "in the VM: within 25%"); every other CPU must show
no pressure.  An idle CPU updates its average only when something looks at
it, so a capped CPU may have no sample between two steps: its half-way time
is then unknown, which is not a failure as long as, in each direction, some
capped CPU has one.  Prints what it saw; exits 1 on a failure.
"""
import json
import sys


def main():
    per_cpu = json.load(open(sys.argv[1]))["per_cpu"]
    capped = [int(c) for c in sys.argv[2].split()]
    halflife = float(sys.argv[3]) if len(sys.argv) > 3 else 250.0
    lo, hi = halflife * 0.75, halflife * 1.25
    bad = []
    measured = {"up": 0, "down": 0}
    if not capped:
        bad.append("no capped CPU named")
    for c in per_cpu:
        cpu, steps = c["cpu"], c["thermal_steps"]
        peak = c["thermal_instant"]["max"]
        print("cpu%d: instant max %d, steps %s" % (cpu, peak, steps))
        if cpu not in capped:
            if peak:
                bad.append("cpu%d: pressure %d without a cap" % (cpu, peak))
            continue
        up = [s for s in steps if s["to"] > s["from"]]
        down = [s for s in steps if s["to"] == 0 and s["from"] > 0]
        if not up or not down:
            bad.append("cpu%d: no step up and back down" % cpu)
            continue
        for way, s in (("up", up[0]), ("down", down[0])):
            half = s["half_ms"]
            if half is None:
                print("cpu%d: %s step without a sample half way" % (cpu, way))
                continue
            measured[way] += 1
            if not lo <= half <= hi:
                bad.append("cpu%d: %d -> %d half way after %s ms, not in "
                           "%.1f..%.1f" % (cpu, s["from"], s["to"], half,
                                           lo, hi))
    for way, n in measured.items():
        if capped and not n:
            bad.append("no capped CPU has a half-way time for the step %s" % way)
    for b in bad:
        print("FAIL " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
