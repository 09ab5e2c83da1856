# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: sysbench cpu time, bigs capped with decay 0, 250 or 32768 ms, against uncapped
#
# Sourced by schedbench.  The Hikey960 capacity-inversion setup: the policy
# of the biggest CPUs is capped through its cpufreq cooling device
# (cur_state THERMAL_CAP_STATE, default max_state: the lowest OPP, where a
# big is below a LITTLE) right before sysbench starts and lifted when it
# ends, so every run sees the step.  Four settings, interleaved:
#
#   uncapped    no cap (sched_thermal_decay_ms 0)
#   decay0      capped, the scheduler sees the pressure at once (v6.12)
#   decay250    capped, the pressure averaged with a 250 ms halflife
#   decay32768  capped, the longest halflife: the control of the capacity
#               inversion (as in selftests/thermal_pressure) for runs much
#               shorter than 32 s, after which the average has reached
#               half the cap
#
# Parameters threads<N> for N in THERMAL_THREADS (default 4 5 6 7 8; -q: 4).
# Each run is a fixed amount of work, SYSBENCH_EVENTS events of sysbench's
# default prime search, and its result the total time in s, as sysbench
# reports it.  The default, 500, keeps a run of the emulated board within
# seconds; on a real board use enough events for a run of a minute or more,
# so that the board heats up as in normal use.
#
# The settings are compound (schedbench hands them to bench_apply): "none"
# for no cap, else the halflife with the cap.  Both knobs, the decay and the
# cooling device's cur_state, are restored by schedbench at the end.

BENCH_UNIT=s
BENCH_DIRECTION=lower
BENCH_SETTINGS="uncapped=none decay0=0 decay250=250 decay32768=32768"
BENCH_PARAMS=
BENCH_QUICK_PARAMS=threads4

th_decay=/proc/sys/kernel/sched_thermal_decay_ms

for th_n in ${THERMAL_THREADS:-4 5 6 7 8}; do
	BENCH_PARAMS="$BENCH_PARAMS${BENCH_PARAMS:+ }threads$th_n"
done

# th_cdev CPU: the cpufreq cooling device of the policy that holds CPU
th_cdev() {
	for th_d in /sys/class/thermal/cooling_device*; do
		[ -r "$th_d/type" ] || continue
		th_type=$(cat "$th_d/type")
		th_first=${th_type#cpufreq-cpu}
		[ "$th_first" != "$th_type" ] || continue
		th_rel=/sys/devices/system/cpu/cpu$th_first/cpufreq/related_cpus
		if [ "$th_first" = "$1" ] ||
			{ [ -r "$th_rel" ] && grep -qw "$1" "$th_rel"; }; then
			echo "$th_d"
			return 0
		fi
	done
	return 1
}

bench_init() {
	command -v sysbench >/dev/null 2>&1 || {
		echo "sysbench is not installed"
		return 1
	}
	for th_n in ${THERMAL_THREADS:-4 5 6 7 8}; do
		case $th_n in
		'' | *[!0-9]* | 0) echo "THERMAL_THREADS: '$th_n' is not a thread count"; return 1 ;;
		esac
	done
	th_events=${SYSBENCH_EVENTS:-500}
	case $th_events in
	'' | *[!0-9]* | 0) echo "SYSBENCH_EVENTS: '$th_events' is not a number of events"; return 1 ;;
	esac
	th_cpu=$(big_cpu)
	th_dev=$(th_cdev "$th_cpu") || {
		echo "no cpufreq cooling device for CPU $th_cpu"
		return 1
	}
	th_state=${THERMAL_CAP_STATE:-$(cat "$th_dev/max_state")}
	BENCH_KNOBS="$th_decay,$th_dev/cur_state"
	th_mode=
	# saved once, so that the device is restored whatever happens
	knob_set "$th_dev/cur_state" 0
}

# bench_apply none|HALFLIFE
bench_apply() {
	th_mode=$1
	# 0 first: a new halflife restarts the average from the current
	# (uncapped) pressure, so that no run inherits the tail of the last one
	knob_set "$th_decay" 0
	[ "$1" = none ] || knob_set "$th_decay" "$1"
}

bench_cmd() {
	th_run="sysbench cpu --threads=${1#threads} --events=$th_events --time=0 run"
	case $th_mode in
	none) echo "$th_run" ;;
	*) echo "echo $th_mode > $th_decay; echo $th_state > $th_dev/cur_state; $th_run" ;;
	esac
}

bench_run() {
	[ -n "$th_mode" ] || {
		echo "no setting applied: this schedbench does not call bench_apply" >&2
		return 1
	}
	if [ "$th_mode" != none ]; then
		knob_write "$th_dev/cur_state" "$th_state" || return 1
	fi
	th_out=$(sysbench cpu --threads="${1#threads}" --events="$th_events" --time=0 run) || return 1
	printf '%s\n' "$th_out" | awk '/total time:/ { v = $NF; sub(/s$/, "", v) } END { if (v == "") exit 1; print v }'
}

bench_after_run() {
	knob_write "$th_dev/cur_state" 0
}
