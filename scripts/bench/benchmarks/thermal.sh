# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: sysbench cpu throughput with the big cluster capped, decay 0 against 250 ms
#
# Sourced by schedbench.  Every run caps the policy of the biggest CPU
# through its cpufreq cooling device (cur_state THERMAL_CAP_STATE, default
# max_state) right before sysbench starts and lifts the cap afterwards, so
# each run sees the step and the scheduler's pressure signal follows it
# instantly (decay 0) or averaged (250 ms).  SYSBENCH_TIME (5 s),
# SYSBENCH_THREADS (the number of CPUs).

BENCH_UNIT=events/s
BENCH_DIRECTION=higher
BENCH_KNOB=/proc/sys/kernel/sched_thermal_decay_ms
BENCH_SETTINGS="decay0=0 decay250=250"
BENCH_PARAMS=capped

bench_init() {
	command -v sysbench >/dev/null 2>&1 || {
		echo "sysbench is not installed"
		return 1
	}
	th_cpu=$(big_cpu)
	th_dev=
	for th_d in /sys/class/thermal/cooling_device*; do
		[ -r "$th_d/type" ] || continue
		th_type=$(cat "$th_d/type")
		th_first=${th_type#cpufreq-cpu}
		[ "$th_first" != "$th_type" ] || continue
		# the device of the policy that holds th_cpu
		th_rel=/sys/devices/system/cpu/cpu$th_first/cpufreq/related_cpus
		if [ "$th_first" = "$th_cpu" ] ||
			{ [ -r "$th_rel" ] && grep -qw "$th_cpu" "$th_rel"; }; then
			th_dev=$th_d
			break
		fi
	done
	[ -n "$th_dev" ] || {
		echo "no cpufreq cooling device for CPU $th_cpu"
		return 1
	}
	th_state=${THERMAL_CAP_STATE:-$(cat "$th_dev/max_state")}
	th_threads=${SYSBENCH_THREADS:-$(ncpus)}
	BENCH_PARAMS=cap$th_state-threads$th_threads
	# saved once, so the device is restored at the end whatever happens
	knob_set "$th_dev/cur_state" 0
}

bench_cmd() {
	echo "echo $th_state > $th_dev/cur_state; sysbench cpu --threads=$th_threads --time=${SYSBENCH_TIME:-5} run"
}

bench_run() {
	knob_write "$th_dev/cur_state" "$th_state" || return 1
	th_out=$(sysbench cpu --threads="$th_threads" --time="${SYSBENCH_TIME:-5}" run) || return 1
	printf '%s\n' "$th_out" | awk '/events per second:/ { v = $NF } END { if (v == "") exit 1; print v }'
}

bench_after_run() {
	knob_write "$th_dev/cur_state" 0
}
