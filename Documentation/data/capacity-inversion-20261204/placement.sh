#!/bin/sh
# Where sysbench's threads run, and how much of their time the host took,
# with the biggest CPUs capped to their lowest OPP, per thermal setting.
#
#   placement.sh ROUNDS EVENTS THREADS
#
# Run in the emulated Hikey960 (see README).  For each round and each
# setting of the thermal benchmark (uncapped, decay0, decay250,
# decay32768) prints one line: the time sysbench took, the overdue time
# cpufreq_emu counted on all CPUs during the run (timer interrupts that
# came more than a share late: the host had stopped the vCPU), and the
# busy share of each CPU, in %, from /proc/stat.
set -eu

rounds=${1:?rounds}
events=${2:?events}
threads=${3:?threads}
decay=/proc/sys/kernel/sched_thermal_decay_ms
speedfile=/sys/kernel/debug/cpufreq_emu_speed

# the cooling device of the policy of the last (biggest) CPU
last=$(($(nproc) - 1))
cdev=
for d in /sys/class/thermal/cooling_device*; do
	first=$(sed -n 's/^cpufreq-cpu//p' "$d/type")
	[ -n "$first" ] || continue
	if grep -qw "$last" "/sys/devices/system/cpu/cpu$first/cpufreq/related_cpus"; then
		cdev=$d
	fi
done
[ -n "$cdev" ] || { echo "no cooling device for cpu$last" >&2; exit 1; }

overdue_ms() {
	awk '{ for (i = 1; i <= NF; i++) if (sub(/^overdue_ns=/, "", $i)) s += $i }
		END { printf "%d\n", s / 1e6 }' "$speedfile"
}

cpu_times() {
	grep '^cpu[0-9]' /proc/stat
}

# run SETTING: one sysbench run under SETTING
run() {
	echo 0 >"$decay"
	[ "$1" = uncapped ] || echo "${1#decay}" >"$decay"
	[ "$1" = uncapped ] || cat "$cdev/max_state" >"$cdev/cur_state"
	cpu_times >/tmp/stat0
	o0=$(overdue_ms)
	t=$(sysbench cpu --threads="$threads" --events="$events" --time=0 run |
		awk '/total time:/ { print $NF }')
	o1=$(overdue_ms)
	cpu_times >/tmp/stat1
	echo 0 >"$cdev/cur_state"
	echo 0 >"$decay"
	printf '%s\t%s\ttime=%s\toverdue_ms=%d\tbusy%%:' "$r" "$1" "$t" $((o1 - o0))
	# user nice system idle: columns 2-5 of each line, 13-16 of the pair
	paste /tmp/stat0 /tmp/stat1 | awk '{
		busy = ($13 + $14 + $15) - ($2 + $3 + $4); all = busy + $16 - $5
		printf " %d", (all > 0 ? 100 * busy / all : 0) } END { print "" }'
	sleep 1
}

echo "# cpu_capacity: $(cat /sys/devices/system/cpu/cpu*/cpu_capacity | tr '\n' ' ')"
echo "# capped: $cdev ($(cat "$cdev/type")), events $events, threads $threads"
r=1
while [ "$r" -le "$rounds" ]; do
	for s in uncapped decay0 decay250 decay32768; do
		run "$s"
	done
	r=$((r + 1))
done
