#!/bin/sh
# The kernel's cpufreq selftest "sptest2": special test 2: special test 1 a hundred times on every policy at once.
exec "$(dirname "$0")/upstream.sh" sptest2
