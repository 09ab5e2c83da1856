#!/bin/sh
# The kernel's cpufreq selftest "sptest1": special test 1: each policy switched ondemand -> conservative (a lockdep report it once caught).
exec "$(dirname "$0")/upstream.sh" sptest1
