# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: many short-lived processes: time and mean frequency, fast_ramp_up x PELT multiplier against performance and powersave
#
# Sourced by schedbench.  The intel_pstate seed's gitsource experiment on
# an emulated board: shorttasks starts SHORTTASKS_N (default 2000; -q:
# 500) processes, SHORTTASKS_JOBS (2) at a time, each doing
# SHORTTASKS_LOOPS (100000) loop iterations and exiting, the starter
# sleeping SHORTTASKS_GAP_US (2000) after each start, so the work hops
# between CPUs that go idle in between, and no task lives long enough to
# build up utilization of its own.  It needs the board's speed emulation
# (cpufreq_emu emulate_speed=Y): without it the frequency costs no time
# and the benchmark skips.  Two parameters, one run each:
#
#   time       the wall time of the whole stream, in ms (lower is better)
#   meanfreq   the mean frequency the tasks ran at, in MHz: the energy
#              side (lower costs less)
#
# Settings, interleaved; every policy gets the governor:
#
#   perf       performance: the limit, every CPU at its top frequency
#   save       powersave: the floor, every CPU at its lowest
#   fFmM       schedutil with its per-policy fast_ramp_up F and
#              /proc/sys/kernel/sched_pelt_multiplier M, for F in 0 1 and
#              M in SHORTTASKS_MULTS (default "1 4")
#
# Where intel_pstate runs instead of a cpufreq governor (a real Sandy
# Bridge), the definition skips: its fast_ramp_up is freqramp's knob.
#
# Traces (round 1 kept, scripts/bench/traceplot draws them, and
# scripts/bench/rampjumps counts the rises that went halfway to the top):
#
#   time        each task's start: when, its CPU's frequency then and
#               when its work ended, the CPU (shorttasks -T)
#   cpuN-freq   the kernel's frequency changes of the policy whose first
#               CPU is N (the power:cpu_frequency event, when tracefs has
#               it); recorded in every round, so that every run pays alike

BENCH_UNIT=ms
BENCH_DIRECTION=lower
BENCH_PARAMS="time meanfreq"
ST_MULT_KNOB=/proc/sys/kernel/sched_pelt_multiplier
ST_TRACEFS=/sys/kernel/tracing

st_settings() {
	printf 'perf=performance save=powersave'
	for st_m in ${SHORTTASKS_MULTS:-1 4}; do
		for st_f in 0 1; do
			printf ' f%sm%s=schedutil,%s,%s' "$st_f" "$st_m" "$st_f" "$st_m"
		done
	done
}
BENCH_SETTINGS=$(st_settings)

bench_init() {
	command -v shorttasks >/dev/null 2>&1 || {
		echo "the shorttasks program is not installed next to schedbench"
		return 1
	}
	speed_emulated || return 1
	st_n=${SHORTTASKS_N:-2000}
	[ "$QUICK" = 1 ] && st_n=${SHORTTASKS_N:-500}
	st_jobs=${SHORTTASKS_JOBS:-2}
	st_loops=${SHORTTASKS_LOOPS:-100000}
	st_gap=${SHORTTASKS_GAP_US:-2000}
	st_list=$(cpufreq_policies)
	[ -n "$st_list" ] || {
		echo "no cpufreq policy"
		return 1
	}
	BENCH_KNOBS=$ST_MULT_KNOB
	for st_p in $st_list; do
		policy_governors "$st_p" performance powersave schedutil || return 1
		BENCH_KNOBS="$BENCH_KNOBS,$st_p/scaling_governor"
		save_schedutil_tunables "$st_p"
	done
	st_trace=$TMP/shorttasks-trace.csv
	st_ftrace=
	if [ -w "$ST_TRACEFS/events/power/cpu_frequency/enable" ]; then
		knob_set "$ST_TRACEFS/events/power/cpu_frequency/enable" 1
		knob_set "$ST_TRACEFS/tracing_on" 1
		st_ftrace=$ST_TRACEFS
	else
		say "shorttasks: no $ST_TRACEFS/events/power/cpu_frequency: the kernel's frequency changes are not traced"
	fi
	shorttasks -n
}

# st_freq_traces: from the trace buffer, "ms,khz" per policy (its first
# CPU's events; the time from the run's marker), kept by record_trace.
st_freq_traces() {
	for st_p in $st_list; do
		st_first=$(sed 's/[-, ].*//' "$st_p/related_cpus")
		awk -v cpu="$st_first" '
		{
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) t = substr($i, 1, length($i) - 1) * 1000
		}
		/: shorttasks start$/ { t0 = t; on = 1; print "ms,khz"; next }
		on && / cpu_frequency: / {
			s = $0; sub(/.* state=/, "", s); sub(/ .*/, "", s)
			c = $0; sub(/.* cpu_id=/, "", c); sub(/[^0-9].*/, "", c)
			if (c == cpu) printf "%.3f,%s\n", t - t0, s
		}' "$st_ftrace/trace" >"$TMP/shorttasks-freq.csv"
		record_trace "cpu$st_first-freq" "$TMP/shorttasks-freq.csv"
	done
}

# bench_apply GOVERNOR[,FAST,MULT]: every run starts with every CPU at
# its lowest frequency (powersave first), as after a pause, and not at
# whatever the previous setting left.  perf and save run with the default
# multiplier, which also steers where EAS places the tasks.
bench_apply() {
	st_gov=${1%%,*}
	st_rest=${1#*,}
	[ "$st_gov" = schedutil ] || st_rest=0,1
	knob_set "$ST_MULT_KNOB" "${st_rest#*,}"
	for st_p in $st_list; do
		knob_set "$st_p/scaling_governor" powersave
		knob_write "$st_p/scaling_governor" "$st_gov" || return 1
	done
	[ "$st_gov" = schedutil ] || return 0
	# A governor started again starts with default tunables: written
	# each time, not saved.
	for st_p in $st_list; do
		knob_write "$st_p/schedutil/fast_ramp_up" "${st_rest%,*}" || return 1
	done
}

bench_unit() {
	case $1 in
	meanfreq) echo "MHz lower" ;;
	*) echo "ms lower" ;;
	esac
}

bench_cmd() {
	echo "shorttasks -N $st_n -j $st_jobs -l $st_loops -g $st_gap"
}

bench_run() {
	rm -f "$st_trace"
	if [ -n "$st_ftrace" ]; then
		: >"$st_ftrace/trace"
		echo "shorttasks start" >"$st_ftrace/trace_marker"
	fi
	st_out=$(shorttasks -N "$st_n" -j "$st_jobs" -l "$st_loops" -g "$st_gap" -T "$st_trace") || return 1
	[ "$1" != time ] || record_trace "$1" "$st_trace"
	[ -z "$st_ftrace" ] || [ "$1" != time ] || st_freq_traces
	# shellcheck disable=SC2086 # two numbers
	set -- "$1" $st_out
	case $1 in
	meanfreq) echo "$3" ;;
	*) echo "$2" ;;
	esac
}
