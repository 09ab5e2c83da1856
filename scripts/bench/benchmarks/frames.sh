# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: a 60 Hz frame-like load in bursts: frame time, missed frames and mean frequency at PELT multiplier 1, 2 and 4
#
# Sourced by schedbench.  The PELT seed's Jankbench on an emulated board:
# frames renders FRAMES_N frames (default 300; -q: 150), one per
# FRAMES_PERIOD_US (16667), in bursts of FRAMES_BURST (30) with
# FRAMES_IDLE_MS (200) of idle in between, each frame's work uniform
# within FRAMES_VAR (50) % around FRAMES_PCT (40) % of a period at the
# top speed of the biggest CPU, placed wherever the scheduler likes.
# The PELT halflife sets how far the task's utilization swings within a
# frame and how fast it follows the load, and so the CPU and the
# frequency its frames run at.
# It needs the board's speed emulation (cpufreq_emu emulate_speed=Y):
# without it the frequency costs no time and the benchmark skips.
# Three parameters, one run each:
#
#   frame      the mean time from a frame's period start to its end, ms
#   missed     the frames longer than a period, in % of all
#   meanfreq   the mean frequency the frames ran at, in MHz: the energy
#              side, roughly (a MHz of a LITTLE costs less than one of a
#              big)
#
# all lower is better.  Settings, interleaved, every policy under
# schedutil with its default tunables: m1, m2, m4,
# /proc/sys/kernel/sched_pelt_multiplier.

BENCH_UNIT=ms
BENCH_DIRECTION=lower
BENCH_PARAMS="frame missed meanfreq"
BENCH_SETTINGS="m1=1 m2=2 m4=4"
FR_MULT_KNOB=/proc/sys/kernel/sched_pelt_multiplier

# fr_governor GOVERNOR: every policy under GOVERNOR.
fr_governor() {
	for fr_p in $fr_list; do
		knob_write "$fr_p/scaling_governor" "$1" || return 1
	done
}

bench_init() {
	command -v frames >/dev/null 2>&1 || {
		echo "the frames program is not installed next to schedbench"
		return 1
	}
	speed_emulated || return 1
	[ -w "$FR_MULT_KNOB" ] || {
		echo "no $FR_MULT_KNOB: a kernel without the PELT multiplier"
		return 1
	}
	fr_n=${FRAMES_N:-300}
	[ "$QUICK" = 1 ] && fr_n=${FRAMES_N:-150}
	fr_list=$(cpufreq_policies)
	[ -n "$fr_list" ] || {
		echo "no cpufreq policy"
		return 1
	}
	BENCH_KNOBS=$FR_MULT_KNOB
	for fr_p in $fr_list; do
		policy_governors "$fr_p" performance schedutil || return 1
		# the calibration under performance resets them
		save_schedutil_tunables "$fr_p"
		knob_set "$fr_p/scaling_governor" "$(cat "$fr_p/scaling_governor")"
		BENCH_KNOBS="$BENCH_KNOBS,$fr_p/scaling_governor"
	done
	frames -n || return 1
	# The work is counted in loops of the biggest CPU at its top, so
	# that FRAMES_PCT means the same on every host.
	fr_governor performance || return 1
	fr_lpm=$(frames -C -c "$(big_cpu)") || return 1
	fr_governor schedutil || return 1
	fr_args="-L $fr_lpm -F $fr_n -b ${FRAMES_BURST:-30} -i ${FRAMES_IDLE_MS:-200}"
	fr_args="$fr_args -p ${FRAMES_PERIOD_US:-16667} -u ${FRAMES_PCT:-40} -v ${FRAMES_VAR:-50}"
}

bench_apply() {
	knob_set "$FR_MULT_KNOB" "$1"
}

bench_unit() {
	case $1 in
	missed) echo "% lower" ;;
	meanfreq) echo "MHz lower" ;;
	*) echo "ms lower" ;;
	esac
}

bench_cmd() {
	echo "frames $fr_args"
}

bench_run() {
	# shellcheck disable=SC2086 # the options' words
	fr_out=$(frames $fr_args) || return 1
	# shellcheck disable=SC2086 # three numbers
	set -- "$1" $fr_out
	case $1 in
	frame) echo "$2" ;;
	missed) echo "$3" ;;
	*) echo "$4" ;;
	esac
}
