#!/bin/sh
# The kernel's cpufreq selftest "basic": the basic tests: every policy's files read and written, each governor tried, each frequency set.
exec "$(dirname "$0")/upstream.sh" basic
