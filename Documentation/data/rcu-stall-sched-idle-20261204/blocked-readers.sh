#!/bin/sh
# In the guest: for each task that an RCU stall report names as blocking
# the grace period, print its name, state, nice, policy (5 is SCHED_IDLE),
# CPU, /proc/PID/schedstat (run time, run_delay, slices, in ns) and its
# waits from /proc/PID/sched, as "MON" lines on the console.
set -eu

show() {
	pid=$1
	if [ ! -r "/proc/$pid/stat" ]; then
		echo "MON P$pid gone"
		return
	fi
	stat=$(cat "/proc/$pid/stat")
	# shellcheck disable=SC2086 # the fields after "(comm) ", split on purpose
	set -- ${stat#*) }
	echo "MON P$pid comm=$(cat "/proc/$pid/comm") state=$1 nice=${17} policy=${39} cpu=${37} schedstat=$(cat "/proc/$pid/schedstat")"
	grep -E 'policy|prio|vruntime|sum_exec|nr_.*switches|wait_max|slice' \
		"/proc/$pid/sched" | sed 's/^/MON   /' || true
}

while read -r line; do
	case "$line" in
	*"Tasks blocked"*)
		for p in $(echo "$line" | grep -o ' P[0-9]*' | tr -d ' P'); do
			show "$p" >/dev/console
		done
		;;
	esac
done </proc/kmsg
