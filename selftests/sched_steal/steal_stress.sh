#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Toggle STEAL/NO_STEAL every 5 ms for 20 s while hackbench runs and a CPU
# goes offline and online repeatedly.  The kernel must not splat (the
# harness watches the console); here we check that every write of the
# toggle and hotplug loops succeeded, that both loops went round at least
# once, that every hackbench run exited 0, that everything is restored
# and that the steal statistics still have one line per CPU.
set -eu

KSFT_SKIP=4
features=/sys/kernel/debug/sched/features
stats=/sys/kernel/debug/sched/steal
schedstats=/proc/sys/kernel/sched_schedstats
duration=${STEAL_STRESS_SECONDS:-20}
# How long the load may take to stop once asked to
stop_wait=10

skip() {
	echo "1..0 # SKIP $*"
	exit "$KSFT_SKIP"
}

steal_state() {
	tr ' ' '\n' <"$features" | grep -x -e STEAL -e NO_STEAL
}

online_count() {
	# "0-2,4" -> 4
	tr ',' '\n' </sys/devices/system/cpu/online |
		awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n }'
}

# put VALUE FILE LOOP CYCLE: write VALUE to FILE; on failure leave a line
# in LOOP.fail saying which cycle wrote what where, and why it failed.
put() {
	if ! { echo "$1" >"$2"; } 2>"$dir/$3.err"; then
		echo "$3 cycle $4: writing '$1' to $2 failed: $(tr '\n' ' ' <"$dir/$3.err")" \
			>"$dir/$3.fail"
		return 1
	fi
}

# The loops run until $dir/stop exists, finish the cycle they are in and
# leave the number of cycles they completed in $dir/LOOP.cycles.
toggle_loop() {
	n=0
	while [ ! -e "$dir/stop" ]; do
		put STEAL "$features" toggle $((n + 1)) || break
		sleep 0.005
		put NO_STEAL "$features" toggle $((n + 1)) || break
		sleep 0.005
		n=$((n + 1))
	done
	echo "$n" >"$dir/toggle.cycles"
}

hotplug_loop() {
	n=0
	f=/sys/devices/system/cpu/cpu$hot/online
	while [ ! -e "$dir/stop" ]; do
		put 0 "$f" hotplug $((n + 1)) || break
		sleep 0.2
		put 1 "$f" hotplug $((n + 1)) || break
		sleep 0.2
		n=$((n + 1))
	done
	echo "$n" >"$dir/hotplug.cycles"
}

# hackbench runs in a loop, in a process group of its own: the stop
# signals the whole group, else the hackbench being run, with its senders
# and receivers, would load the CPUs for whatever test runs next.  Each run
# appends its exit status to $dir/hackbench.runs.  A run that ends after
# the stop was asked for was cut short by it: hackbench catches SIGTERM,
# reaps its workers and exits 0; one killed before it set its handler up
# exits 143.  Any other status, or any non-zero status before the stop,
# is a failure of hackbench, and its last words go to hackbench.fail.
# (A script for sh -c: expanded there, not here.)
# shellcheck disable=SC2016
hackbench_loop='
	dir=$1
	# Survive the stop, to record how the run it interrupts ended
	trap true TERM
	n=0
	while [ ! -e "$dir/stop" ]; do
		rc=0
		hackbench -g 2 -l 2000 >/dev/null 2>"$dir/hackbench.err" || rc=$?
		n=$((n + 1))
		echo "$rc" >>"$dir/hackbench.runs"
		if [ -e "$dir/stop" ] && { [ "$rc" -eq 0 ] || [ "$rc" -eq 143 ]; }; then
			break
		fi
		[ "$rc" -eq 0 ] ||
			echo "hackbench run $n exited $rc: $(tail -n 3 "$dir/hackbench.err" | tr "\n" " ")" \
				>>"$dir/hackbench.fail"
	done
'

# Stop the background load: ask the loops to finish, signal hackbench's
# group, and give both $stop_wait seconds before killing what is left.
pids=
hb_group=
stopped=
stop_load() {
	[ -z "$stopped" ] || return 0
	stopped=1
	touch "$dir/stop"
	[ -z "$hb_group" ] || kill -TERM "-$hb_group" 2>/dev/null || true
	n=0
	while [ "$n" -lt $((stop_wait * 10)) ]; do
		alive=
		for p in $pids; do
			! kill -0 "$p" 2>/dev/null || alive=1
		done
		[ -z "$hb_group" ] || ! kill -0 "-$hb_group" 2>/dev/null || alive=1
		[ -n "$alive" ] || break
		sleep 0.1
		n=$((n + 1))
	done
	if [ -n "$alive" ]; then
		echo "the load did not stop within ${stop_wait}s of being asked to: killed" \
			>"$dir/stop.fail"
		for p in $pids; do
			kill -KILL "$p" 2>/dev/null || true
		done
		[ -z "$hb_group" ] || kill -KILL "-$hb_group" 2>/dev/null || true
	fi
	wait 2>/dev/null || true
}

cleanup() {
	[ -z "${dir:-}" ] || stop_load
	[ -z "${hot:-}" ] || { echo 1 >"/sys/devices/system/cpu/cpu$hot/online"; } 2>/dev/null || true
	[ -z "${old_state:-}" ] || echo "$old_state" >"$features"
	[ -z "${old_stats:-}" ] || echo "$old_stats" >"$schedstats"
	[ -z "${dir:-}" ] || rm -rf "$dir"
}

[ "$(id -u)" -eq 0 ] || skip "must be run as root"
[ -r "$features" ] || skip "no $features"
old_state=$(steal_state) || skip "no STEAL sched feature (CONFIG_SCHED_STEAL)"
[ -r "$stats" ] || skip "no $stats"
case "$duration" in
'' | *[!0-9]* | 0) echo "STEAL_STRESS_SECONDS='$duration': give a whole number of seconds, 1 or more" >&2
	exit 2 ;;
esac
old_stats=$(cat "$schedstats")
dir=
trap cleanup EXIT
trap 'exit 1' INT TERM
dir=$(mktemp -d "${TMPDIR:-/tmp}/steal_stress.XXXXXX")

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
	setsid sh -c "$hackbench_loop" sh "$dir" >/dev/null 2>&1 &
	hb_group=$!
else
	echo "# no hackbench: six CPU hogs instead"
	for _ in 1 2 3 4 5 6; do
		(while [ ! -e "$dir/stop" ]; do :; done) &
		pids="$pids $!"
	done
fi

toggle_loop &
pids="$pids $!"
if [ -n "$hot" ]; then
	hotplug_loop &
	pids="$pids $!"
fi

# Whether a loop has failed: a write, or a hackbench run
failed() {
	for f in "$dir"/*.fail; do
		[ ! -e "$f" ] || return 0
	done
	return 1
}

# Until the time is up, or something failed.  By the clock: under the
# load, a round of this loop takes far longer than its 0.1 s sleep.
start=$(date +%s)
end=$((start + duration))
while [ "$(date +%s)" -lt "$end" ] && ! failed; do
	sleep 0.1
done
stop_load

problems=0
problem() {
	echo "# $*"
	problems=$((problems + 1))
	[ -n "${first:-}" ] || first=$*
}

for f in "$dir"/toggle.fail "$dir"/hotplug.fail "$dir"/hackbench.fail "$dir"/stop.fail; do
	[ ! -s "$f" ] || while IFS= read -r line; do
		problem "$line"
	done <"$f"
done
toggles=$(cat "$dir/toggle.cycles" 2>/dev/null || echo 0)
echo "# toggle: $toggles STEAL/NO_STEAL cycles in $(($(date +%s) - start)) s"
[ "$toggles" -gt 0 ] || problem "the toggle loop completed no cycle"
if [ ! -e "$dir/toggle.fail" ] && [ "$(steal_state)" != NO_STEAL ]; then
	problem "the toggle loop's last write, NO_STEAL, does not read back"
fi
if [ -n "$hot" ]; then
	plugs=$(cat "$dir/hotplug.cycles" 2>/dev/null || echo 0)
	echo "# hotplug: $plugs offline/online cycles of cpu$hot"
	[ "$plugs" -gt 0 ] || problem "the hotplug loop completed no cycle"
fi
# The hotplug loop ends with the CPU online, unless it failed
f=/sys/devices/system/cpu/cpu$hot/online
if [ -n "$hot" ] && ! { echo 1 >"$f"; } 2>"$dir/restore.err"; then
	problem "after the loops: writing '1' to $f failed: $(tr '\n' ' ' <"$dir/restore.err")"
fi
if [ -n "$hb_group" ]; then
	runs=$(grep -c . "$dir/hackbench.runs" 2>/dev/null || true)
	bad=$(grep -c . "$dir/hackbench.fail" 2>/dev/null || true)
	echo "# hackbench: ${runs:-0} runs, ${bad:-0} failed"
	# The run the stop cuts short counts too: none is a broken loop
	[ "${runs:-0}" -gt 0 ] || problem "the hackbench loop recorded no run"
fi

lines=$(wc -l <"$stats")
cpus=$(online_count)
[ "$lines" -eq "$cpus" ] || problem "$lines lines in $stats for $cpus online CPUs"
echo "# $(awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); s[kv[1]] += kv[2] } }
	END { printf "attempts=%d stolen=%d failed=%d", s["attempts"], s["stolen"], s["failed"] }' "$stats")"
if [ "$problems" -gt 0 ]; then
	echo "not ok 1 steal_stress # $problems problem(s), the first: $first"
	exit 1
fi
echo "ok 1 steal_stress"
