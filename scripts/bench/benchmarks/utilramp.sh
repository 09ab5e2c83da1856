# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: time for util_avg to reach 80% of capacity, per PELT multiplier
#
# Sourced by schedbench.  Runs the utilramp program on the biggest CPU
# (UTILRAMP_CPU to choose another): sleep 1 s, then spin until
# se.avg.util_avg >= 80% of cpu_capacity, in ms.

BENCH_UNIT=ms
BENCH_DIRECTION=lower
BENCH_KNOB=/proc/sys/kernel/sched_pelt_multiplier
BENCH_SETTINGS="mult1=1 mult2=2 mult4=4"
BENCH_PARAMS=to80pct

bench_init() {
	ur_cpu=${UTILRAMP_CPU:-$(big_cpu)}
	BENCH_PARAMS=cpu$ur_cpu-to80pct
	command -v utilramp >/dev/null 2>&1 || {
		echo "the utilramp program is not installed next to schedbench"
		return 1
	}
	utilramp -n -c "$ur_cpu"
}

bench_cmd() {
	echo "utilramp -c $ur_cpu -p 80"
}

bench_run() {
	utilramp -c "$ur_cpu" -p 80
}
