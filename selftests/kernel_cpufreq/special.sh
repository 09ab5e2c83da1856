#!/bin/sh
# The kernel's four cpufreq special tests (main.sh -t sptest1..4) one after
# the other, for the stress run on the debug kernels: governor switches
# (lockdep), concurrent switches, governor races, CPU hotplug with
# frequency updates.  Their loops are cut to CPUFREQ_SPTEST_LOOPS rounds
# (default 20, see upstream.sh): a lock-order or use-after-free report
# needs each racing path taken once, not thousands of times.  KTAP, one
# result per test; the kernel's reports fail the run (scripts/vm).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
export CPUFREQ_SPTEST_LOOPS="${CPUFREQ_SPTEST_LOOPS:-20}"
rcfile=$(mktemp)
trap 'rm -f "$rcfile"' EXIT

echo "TAP version 13"
echo "1..4"
fails=0
n=0
for t in sptest1 sptest2 sptest3 sptest4; do
	n=$((n + 1))
	start=$(date +%s)
	{
		rc=0
		"$here/upstream.sh" "$t" 2>&1 || rc=$?
		echo "$rc" >"$rcfile"
	} | sed 's/^/# /'
	rc=$(cat "$rcfile")
	took=$(($(date +%s) - start))
	case "$rc" in
	0) echo "ok $n kernel cpufreq $t in $took s" ;;
	4) echo "ok $n kernel cpufreq $t # SKIP" ;;
	*) echo "not ok $n kernel cpufreq $t: exit $rc after $took s"; fails=$((fails + 1)) ;;
	esac
done
[ "$fails" -eq 0 ]
