# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: hackbench (rt-tests) time, STEAL against NO_STEAL
#
# Sourced by schedbench.  Parameters g<groups>-<process|thread>-<pipe|socket>.
# Environment: HACKBENCH_GROUPS (1 2 4), HACKBENCH_MODES (process thread),
# HACKBENCH_IPC (pipe socket), HACKBENCH_LOOPS (200; 2000 on a real board),
# HACKBENCH_FDS (hackbench's default, 20).  -q runs g1 and g2 with pipes.

BENCH_UNIT=s
BENCH_DIRECTION=lower
BENCH_KNOB=/sys/kernel/debug/sched/features
BENCH_SETTINGS="NO_STEAL STEAL"

hb_params() { # GROUPS MODES IPC
	for hb_g in $1; do
		for hb_m in $2; do
			for hb_i in $3; do
				printf 'g%s-%s-%s ' "$hb_g" "$hb_m" "$hb_i"
			done
		done
	done
}

BENCH_PARAMS=$(hb_params "${HACKBENCH_GROUPS:-1 2 4}" \
	"${HACKBENCH_MODES:-process thread}" "${HACKBENCH_IPC:-pipe socket}")
BENCH_QUICK_PARAMS=$(hb_params "1 2" "process thread" pipe)

bench_init() {
	command -v hackbench >/dev/null 2>&1 || {
		echo "hackbench (rt-tests) is not installed"
		return 1
	}
}

# hb_args PARAM: hackbench's arguments for g<N>-<mode>-<ipc>
hb_args() {
	hb_rest=${1#g}
	hb_g=${hb_rest%%-*}
	hb_rest=${hb_rest#*-}
	case ${hb_rest%-*} in
	thread) hb_mode=-T ;;
	*) hb_mode=-P ;;
	esac
	case ${hb_rest#*-} in
	pipe) hb_ipc=-p ;;
	*) hb_ipc= ;;
	esac
	echo "$hb_mode -g $hb_g $hb_ipc${hb_ipc:+ }-l ${HACKBENCH_LOOPS:-200}${HACKBENCH_FDS:+ -f $HACKBENCH_FDS}"
}

bench_cmd() {
	echo "hackbench $(hb_args "$1")"
}

bench_run() {
	# shellcheck disable=SC2046 # the arguments are split on purpose
	hb_out=$(hackbench $(hb_args "$1")) || return 1
	printf '%s\n' "$hb_out" | awk '$1 == "Time:" { v = $2 } END { if (v == "") exit 1; print v }'
}
