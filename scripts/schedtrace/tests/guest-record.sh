#!/bin/sh
# shellcheck shell=sh
# Run in the guest by tests/vmcheck.sh (through vmtrace): check that the
# sched_events module is loaded and behaves, record the test traces and send
# them back.  Prints "ok"/"not ok" lines for the guest-side checks.
# shellcheck source=scripts/schedtrace/guest.sh
. /root/schedtrace-guest.sh

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
check sh -c "dmesg | grep -q 'sched_events: 11 of 11 tracepoints found'"

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
st_record full.dat "sched_events:pelt_se sched_events:cpu_capacity \
sched_events:pelt_hw power:cpu_frequency sched:sched_migrate_task \
sched:sched_switch" sh /tmp/hog.sh
echo "hog-pid $(cat /tmp/hog.pid)"

# 2. every sched_events event at once, briefly (each must be recordable)
st_record all.dat "sched_events" sleep 0.2

# 3. none of the events the tool reads
st_record switch-only.dat "sched:sched_switch" sleep 0.2

exit "$fail"
