#!/bin/sh
# shellcheck shell=sh
# Run in the guest by tests/vmcheck.sh (scripts/vm --out): check that the
# sched_events module is loaded and behaves, and record the test traces into
# $SCHEDSTACK_OUT with vm-trace (scripts/guest/vm-trace).  Prints "ok"/"not
# ok" lines for the guest-side checks and "NAME VALUE" lines for the host.
set -u

fail=0
check() {
	if "$@" >/tmp/check.out 2>&1; then
		echo "ok - guest: $*"
	else
		echo "not ok - guest: $*"
		sed 's/^/    /' /tmp/check.out
		fail=1
	fi
}

ev=/sys/kernel/tracing/events/sched_events
check test -d "$ev"
check sh -c "dmesg | grep -q 'sched_events: 13 of 13 tracepoints found'"

# rmmod must be refused while an event is on, work once it is off, and the
# module must load again.
echo 1 >"$ev/pelt_se/enable"
check sh -c '! rmmod sched_events 2>/dev/null'
echo 0 >"$ev/pelt_se/enable"
sleep 0.1
check rmmod sched_events
check insmod /lib/modules/extra/sched_events.ko
check test -d "$ev"

# 1. the util ramp of a CPU hog that slept first (its util decays to about
#    0, then climbs), with frequency, capacity, pressure and migrations;
#    the hog's pid goes to the host in a "hog-pid N" line
#    (the first second lets the probes attach, see sched_events.c)
cat >/tmp/hog.sh <<'EOF2'
sleep 1
sh -c 'echo $$ >/tmp/hog.pid; sleep 0.5; while :; do :; done' &
sleep 1.5
kill $!
EOF2
check vm-trace record full.dat "sched_events:pelt_se sched_events:cpu_capacity \
sched_events:pelt_hw power:cpu_frequency sched:sched_migrate_task \
sched:sched_switch" sh /tmp/hog.sh
echo "hog-pid $(cat /tmp/hog.pid)"

# 2. every sched_events event at once, briefly (each must be recordable)
check vm-trace record all.dat "sched_events" sleep 0.2

# 3. none of the events the tool reads
check vm-trace record switch-only.dat "sched:sched_switch" sleep 0.2

# 4. thermal pressure: the policy of the last CPU (hikey960's big cluster)
#    capped to its lowest frequency for 0.7 s and released for 0.7 s, with
#    a 250 ms halflife, through its cooling device (as the user_space
#    thermal governor does) or else scaling_max_freq; a spinner on each
#    capped CPU keeps the tick, and so the average's updates, going.
#    "thermal-cpus CPU..." names the capped CPUs for the host.
cpu=0
for d in /sys/devices/system/cpu/cpu[0-9]*; do
	[ "${d##*cpu}" -le "$cpu" ] || cpu=${d##*cpu}
done
pol=/sys/devices/system/cpu/cpu$cpu/cpufreq
cpus=$(cat "$pol/related_cpus")
cdev=
for d in /sys/class/thermal/cooling_device*; do
	[ "$(cat "$d/type" 2>/dev/null)" = "cpufreq-cpu${cpus%% *}" ] && cdev=$d
done
cat >/tmp/thermal.sh <<EOF2
pids=
for c in $cpus; do
	taskset -c \$c sh -c 'while :; do :; done' &
	pids="\$pids \$!"
done
sleep 1
if [ -n "$cdev" ]; then
	cat $cdev/max_state >$cdev/cur_state
	sleep 0.7
	echo 0 >$cdev/cur_state
else
	cat $pol/cpuinfo_min_freq >$pol/scaling_max_freq
	sleep 0.7
	cat $pol/cpuinfo_max_freq >$pol/scaling_max_freq
fi
sleep 0.7
kill \$pids
EOF2
echo "thermal-cpus $cpus"
echo "thermal-via ${cdev:-$pol/scaling_max_freq}"
decay=/proc/sys/kernel/sched_thermal_decay_ms
if [ -w "$decay" ]; then
	echo 250 >"$decay"
	check vm-trace record thermal.dat "sched_events:thermal_pressure \
sched_events:cpu_capacity" sh /tmp/thermal.sh
	echo 0 >"$decay"
else
	echo "not ok - guest: no $decay (the series' thermal pressure average)"
	fail=1
fi

# 5. STEAL on, then off, under the same overload: three bursty tasks per
#    CPU (1 ms asleep, a short spin, 30 times), which leave CPUs idle while
#    others have tasks waiting; the steal events are counted on the host.
cat >/tmp/bursty.sh <<'EOF2'
sleep 1
for i in $(seq $(($(nproc) * 3))); do
	(j=0; while [ $j -lt 30 ]; do
		j=$((j + 1)); usleep 1000
		k=0; while [ $k -lt 50 ]; do k=$((k + 1)); done
	done) &
done
wait
EOF2
features=/sys/kernel/debug/sched/features
for f in STEAL NO_STEAL; do
	if echo "$f" >"$features"; then
		check vm-trace record "steal-$f.dat" "sched_events:steal \
sched:sched_migrate_task" sh /tmp/bursty.sh
	else
		echo "not ok - guest: echo $f >$features"
		fail=1
	fi
done
echo NO_STEAL >"$features"

exit "$fail"
