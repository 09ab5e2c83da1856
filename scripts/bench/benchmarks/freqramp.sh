# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: time to the highest frequency and a 30% task's mean frequency, fast_ramp_up x PELT multiplier
#
# Sourced by schedbench.  Two parameters, both on the CPU with the highest
# capacity (FREQRAMP_CPU to choose another), both lower is better:
#
#   cpuN-to-max           freqramp: a light load (1 ms every 20 ms) for
#                         1 s and until the CPU is at its lowest frequency,
#                         then spin until scaling_cur_freq reaches
#                         cpuinfo_max_freq, in ms: how fast the governor
#                         answers a step load.
#   cpuN-dutyP-meanfreq   freqduty: the same start, then for FREQDUTY_MS
#                         (2000) ms wake every FREQDUTY_PERIOD_MS (16) ms and
#                         do FREQDUTY_PCT (30) % of a period's worth of work
#                         at the highest frequency; the mean frequency while
#                         it ran, in MHz.  Such a task meets its period at
#                         any frequency of the boards' tables, so a higher
#                         frequency buys it nothing and costs power: this is
#                         the price of a faster ramp.
#
# The settings are compound, FAST,MULT: schedutil's per-policy fast_ramp_up
# (the governor is switched to schedutil for the run when it is available;
# intel_pstate's fast_ramp_up where that driver runs) and
# /proc/sys/kernel/sched_pelt_multiplier (FREQRAMP_MULTS, default "1 4").
# Every run writes the frequency it saw over time; those of round 1 are
# kept in the sample file for the plots of scripts/bench/traceplot.

BENCH_UNIT=ms
BENCH_DIRECTION=lower
BENCH_PARAMS="to-max duty30-meanfreq"
FR_MULT_KNOB=/proc/sys/kernel/sched_pelt_multiplier

fr_settings() {
	for fr_m in ${FREQRAMP_MULTS:-1 4}; do
		for fr_f in 0 1; do
			printf 'f%sm%s=%s,%s ' "$fr_f" "$fr_m" "$fr_f" "$fr_m"
		done
	done
}
BENCH_SETTINGS=$(fr_settings)
BENCH_SETTINGS=${BENCH_SETTINGS% }

bench_init() {
	fr_cpu=${FREQRAMP_CPU:-$(big_cpu)}
	fr_dir=/sys/devices/system/cpu/cpu$fr_cpu/cpufreq
	fr_pct=${FREQDUTY_PCT:-30}
	fr_period=${FREQDUTY_PERIOD_MS:-16}
	fr_ms=${FREQDUTY_MS:-2000}
	BENCH_PARAMS="cpu$fr_cpu-to-max cpu$fr_cpu-duty$fr_pct-meanfreq"
	for fr_p in freqramp freqduty; do
		command -v "$fr_p" >/dev/null 2>&1 || {
			echo "the $fr_p program is not installed next to schedbench"
			return 1
		}
	done
	if [ -e /sys/devices/system/cpu/intel_pstate/fast_ramp_up ]; then
		fr_knob=/sys/devices/system/cpu/intel_pstate/fast_ramp_up
	else
		[ -d "$fr_dir" ] || {
			echo "CPU $fr_cpu has no cpufreq policy"
			return 1
		}
		if [ "$(cat "$fr_dir/scaling_governor")" != schedutil ] &&
			grep -qw schedutil "$fr_dir/scaling_available_governors" 2>/dev/null; then
			knob_set "$fr_dir/scaling_governor" schedutil
		fi
		fr_knob=$fr_dir/schedutil/fast_ramp_up
	fi
	# schedbench checks both knobs (knob_problem)
	BENCH_KNOBS="$fr_knob,$FR_MULT_KNOB"
	fr_trace=$TMP/freqramp-trace.csv
	freqramp -n -c "$fr_cpu" && freqduty -n -c "$fr_cpu"
}

# bench_apply FAST,MULT
bench_apply() {
	knob_set "$fr_knob" "${1%,*}"
	knob_set "$FR_MULT_KNOB" "${1#*,}"
}

bench_unit() {
	case $1 in
	*-meanfreq) echo "MHz lower" ;;
	*) echo "ms lower" ;;
	esac
}

bench_cmd() {
	case $1 in
	*-meanfreq) echo "freqduty -c $fr_cpu -d $fr_pct -p $fr_period -D $fr_ms" ;;
	*) echo "freqramp -c $fr_cpu" ;;
	esac
}

bench_run() {
	rm -f "$fr_trace"
	case $1 in
	*-meanfreq)
		freqduty -c "$fr_cpu" -d "$fr_pct" -p "$fr_period" -D "$fr_ms" -T "$fr_trace" || return
		;;
	*) freqramp -c "$fr_cpu" -T "$fr_trace" || return ;;
	esac
	record_trace "$1" "$fr_trace"
}
