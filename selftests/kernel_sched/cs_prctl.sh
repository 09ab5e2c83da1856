#!/bin/sh
# The kernel's cs_prctl_test (tools/testing/selftests/sched): core
# scheduling cookies created, shared and read back across a hierarchy of
# processes, threads and process groups.  SKIP where core scheduling
# cannot work (no CONFIG_SCHED_CORE, or no SMT siblings).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rc=0
why=$("$here/core_sched_probe") || rc=$?
if [ "$rc" -eq 4 ]; then
	echo "1..0 # SKIP $why"
	exit 4
elif [ "$rc" -ne 0 ]; then
	echo "core_sched_probe exited $rc: $why"
	exit 1
fi
cd "$here"
exec ./cs_prctl_test
