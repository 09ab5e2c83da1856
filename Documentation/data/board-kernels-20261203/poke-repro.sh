#!/bin/sh
# Toggle a static key with branch sites in enqueue/dequeue while the
# other CPUs wake tasks up: STEAL (ours) or schedstats (upstream).
KEY=${1:-steal}
N=${2:-1000}
F=/sys/kernel/debug/sched/features
on() { case $KEY in steal) echo STEAL >$F ;; stats) echo 1 >/proc/sys/kernel/sched_schedstats ;; esac; }
off() { case $KEY in steal) echo NO_STEAL >$F ;; stats) echo 0 >/proc/sys/kernel/sched_schedstats ;; esac; }
hackbench -g 2 -l 1000000 -T >/dev/null 2>&1 &
hb=$!
i=0
while [ $i -lt "$N" ]; do
	on; off
	i=$((i + 1))
	[ $((i % 100)) -eq 0 ] && echo "$KEY toggles: $i"
done
kill $hb 2>/dev/null
echo "done: $N $KEY toggles"
