# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: time to the highest frequency, fast_ramp_up 0 against 1
#
# Sourced by schedbench.  Runs the freqramp program on the CPU with the
# highest frequency (FREQRAMP_CPU to choose another): sleep 1 s, then spin
# until scaling_cur_freq reaches cpuinfo_max_freq, in ms.  The knob is
# schedutil's per-policy fast_ramp_up (the governor is switched to schedutil
# for the run when it is available), else intel_pstate's.

BENCH_UNIT=ms
BENCH_DIRECTION=lower
BENCH_SETTINGS="fast0=0 fast1=1"
BENCH_PARAMS=to-max

bench_init() {
	fr_cpu=${FREQRAMP_CPU:-$(big_cpu)}
	fr_dir=/sys/devices/system/cpu/cpu$fr_cpu/cpufreq
	BENCH_PARAMS=cpu$fr_cpu-to-max
	command -v freqramp >/dev/null 2>&1 || {
		echo "the freqramp program is not installed next to schedbench"
		return 1
	}
	if [ -e /sys/devices/system/cpu/intel_pstate/fast_ramp_up ]; then
		BENCH_KNOB=/sys/devices/system/cpu/intel_pstate/fast_ramp_up
	else
		[ -d "$fr_dir" ] || {
			echo "CPU $fr_cpu has no cpufreq policy"
			return 1
		}
		if [ "$(cat "$fr_dir/scaling_governor")" != schedutil ] &&
			grep -qw schedutil "$fr_dir/scaling_available_governors" 2>/dev/null; then
			knob_set "$fr_dir/scaling_governor" schedutil
		fi
		BENCH_KNOB=$fr_dir/schedutil/fast_ramp_up
	fi
	freqramp -n -c "$fr_cpu"
}

bench_cmd() {
	echo "freqramp -c $fr_cpu"
}

bench_run() {
	freqramp -c "$fr_cpu"
}
