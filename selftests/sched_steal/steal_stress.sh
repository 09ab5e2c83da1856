#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Toggle STEAL/NO_STEAL every 5 ms for 20 s while hackbench runs and a CPU
# goes offline and online repeatedly.  The kernel must not splat (the
# harness watches the console); here we check that everything is
# restored and that the steal statistics still have one line per CPU.
set -eu

KSFT_SKIP=4
features=/sys/kernel/debug/sched/features
stats=/sys/kernel/debug/sched/steal
schedstats=/proc/sys/kernel/sched_schedstats
duration=${STEAL_STRESS_SECONDS:-20}

skip() {
	echo "1..0 # SKIP $*"
	exit "$KSFT_SKIP"
}

fail() {
	echo "not ok 1 steal_stress # $*"
	exit 1
}

steal_state() {
	tr ' ' '\n' <"$features" | grep -x -e STEAL -e NO_STEAL
}

online_count() {
	# "0-2,4" -> 4
	tr ',' '\n' </sys/devices/system/cpu/online |
		awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n }'
}

# Stop the background loops.  The hackbench loop runs in a process group
# of its own: killing only its shell would leave the hackbench it is
# running, and that hackbench's senders and receivers, to load the CPUs
# for whatever test runs next.
pids=
hb_group=
stop_load() {
	for p in $pids; do
		kill "$p" 2>/dev/null || true
	done
	if [ -n "$hb_group" ]; then
		kill -- "-$hb_group" 2>/dev/null || kill "$hb_group" 2>/dev/null || true
		n=0
		while kill -0 -- "-$hb_group" 2>/dev/null && [ "$n" -lt 50 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		kill -KILL -- "-$hb_group" 2>/dev/null || true
	fi
	wait 2>/dev/null || true
	pids=
	hb_group=
}

cleanup() {
	stop_load
	[ -z "${hot:-}" ] || echo 1 >"/sys/devices/system/cpu/cpu$hot/online" 2>/dev/null || true
	[ -z "${old_state:-}" ] || echo "$old_state" >"$features"
	[ -z "${old_stats:-}" ] || echo "$old_stats" >"$schedstats"
}

[ "$(id -u)" -eq 0 ] || skip "must be run as root"
[ -r "$features" ] || skip "no $features"
old_state=$(steal_state) || skip "no STEAL sched feature (CONFIG_SCHED_STEAL)"
[ -r "$stats" ] || skip "no $stats"
old_stats=$(cat "$schedstats")
trap cleanup EXIT INT TERM

echo "TAP version 13"
echo "1..1"

# The highest-numbered CPU other than 0 that can go offline.
hot=
for d in /sys/devices/system/cpu/cpu[1-9]*; do
	[ -w "$d/online" ] && hot=${d##*cpu}
done
[ -n "$hot" ] || echo "# no CPU can go offline: toggling only"

echo 1 >"$schedstats"

if command -v hackbench >/dev/null; then
	# Not a process group leader, so setsid(1) runs sh in place: $! is
	# the new group's id.
	setsid sh -c 'while :; do hackbench -g 2 -l 2000 || true; done' \
		>/dev/null 2>&1 &
	hb_group=$!
else
	for _ in 1 2 3 4 5 6; do
		(while :; do :; done) &
		pids="$pids $!"
	done
fi

(while :; do
	echo STEAL >"$features"
	sleep 0.005
	echo NO_STEAL >"$features"
	sleep 0.005
done) &
pids="$pids $!"

if [ -n "$hot" ]; then
	(while :; do
		echo 0 >"/sys/devices/system/cpu/cpu$hot/online"
		sleep 0.2
		echo 1 >"/sys/devices/system/cpu/cpu$hot/online"
		sleep 0.2
	done) &
	pids="$pids $!"
fi

sleep "$duration"
stop_load
[ -z "$hot" ] || echo 1 >"/sys/devices/system/cpu/cpu$hot/online"

lines=$(wc -l <"$stats")
cpus=$(online_count)
[ "$lines" -eq "$cpus" ] || fail "$lines lines in $stats for $cpus online CPUs"
echo "# $(awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); s[kv[1]] += kv[2] } }
	END { printf "attempts=%d stolen=%d failed=%d", s["attempts"], s["stolen"], s["failed"] }' "$stats")"
echo "ok 1 steal_stress"
