# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: A/A noise floor, every knob at its default (hackbench, sched pipe, frequency changes)
#
# Sourced by schedbench.  Both settings are the same: each project knob
# that exists is set to its default for the whole run.  A star here means the
# method is broken (or the machine is drifting).  To compare against a
# kernel without the series, run this on both kernels and give both sample
# files to schedcmp; scripts/bench-kernels does that with interleaved boots.
# Parameters: hackbench-P-g1 (hackbench -P -g 1 -p, HACKBENCH_LOOPS) and,
# where perf is installed, perf-sched-pipe (perf bench sched pipe, the
# wake-up round trip of two tasks, PIPE_LOOPS; its total time in seconds)
# and, where cpufreq keeps statistics, pipe-freq-changes (the frequency
# changes of every policy, stats/total_trans, during one such run: the
# governor's decisions, which with every knob at its default must be
# v6.12's too).

BENCH_UNIT=s
BENCH_DIRECTION=lower
BENCH_KNOB=
BENCH_SETTINGS="A=- A2=-"
BENCH_PARAMS=hackbench-P-g1
if command -v perf >/dev/null 2>&1; then
	BENCH_PARAMS="$BENCH_PARAMS perf-sched-pipe"
	if ls /sys/devices/system/cpu/cpufreq/policy*/stats/total_trans >/dev/null 2>&1; then
		BENCH_PARAMS="$BENCH_PARAMS pipe-freq-changes"
	fi
fi

# The frequency changes of all policies so far.
nc_freq_changes() {
	cat /sys/devices/system/cpu/cpufreq/policy*/stats/total_trans |
		awk '{ n += $1 } END { print n + 0 }'
}

bench_unit() {
	case $1 in
	pipe-freq-changes) echo "changes lower" ;;
	*) echo "s lower" ;;
	esac
}

nc_default() { # PATH VALUE
	if [ -w "$1" ]; then
		knob_set "$1" "$2"
	fi
	return 0
}

bench_init() {
	command -v hackbench >/dev/null 2>&1 || {
		echo "hackbench (rt-tests) is not installed"
		return 1
	}
	if grep -qw -e STEAL -e NO_STEAL /sys/kernel/debug/sched/features 2>/dev/null; then
		nc_default /sys/kernel/debug/sched/features NO_STEAL
	fi
	nc_default /proc/sys/kernel/sched_pelt_multiplier 1
	nc_default /proc/sys/kernel/sched_thermal_decay_ms 0
	nc_default /sys/devices/system/cpu/intel_pstate/fast_ramp_up 0
	for nc_f in /sys/devices/system/cpu/cpufreq/policy*/schedutil/fast_ramp_up; do
		nc_default "$nc_f" 0
	done
}

bench_cmd() {
	case $1 in
	perf-sched-pipe | pipe-freq-changes) echo "perf bench sched pipe -l ${PIPE_LOOPS:-10000}" ;;
	*) echo "hackbench -P -g 1 -p -l ${HACKBENCH_LOOPS:-200}" ;;
	esac
}

bench_run() {
	case $1 in
	perf-sched-pipe)
		nc_out=$(perf bench sched pipe -l "${PIPE_LOOPS:-10000}") || return 1
		printf '%s\n' "$nc_out" | awk '$1 == "Total" && $2 == "time:" { v = $3 } END { if (v == "") exit 1; print v }'
		;;
	pipe-freq-changes)
		nc_before=$(nc_freq_changes)
		perf bench sched pipe -l "${PIPE_LOOPS:-10000}" >/dev/null || return 1
		nc_changes=$(($(nc_freq_changes) - nc_before))
		# the statistics were reset meanwhile: no count for this run
		[ "$nc_changes" -ge 0 ] || return 1
		echo "$nc_changes"
		;;
	*)
		nc_out=$(hackbench -P -g 1 -p -l "${HACKBENCH_LOOPS:-200}") || return 1
		printf '%s\n' "$nc_out" | awk '$1 == "Time:" { v = $2 } END { if (v == "") exit 1; print v }'
		;;
	esac
}
