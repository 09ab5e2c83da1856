# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: cyclictest wake-up latency beside hackbench, STEAL x multiplier
#
# Sourced by schedbench.  One SCHED_FIFO cyclictest thread per CPU wakes
# every LATENCY_INTERVAL_US (default 1000) for LATENCY_SECONDS (default 10)
# while hackbench (LATENCY_GROUPS groups, default 1, pipes, processes)
# keeps the CPUs busy and their run queues changing, which is when an idle
# CPU goes stealing.  Parameters:
#
#   p99   the 99th percentile of all threads' wake-up latencies, in us
#         (cyclictest's histogram, 1 us buckets)
#   max   the largest latency seen, in us
#
# Settings, compound (bench_apply): STEAL or NO_STEAL with
# sched_pelt_multiplier 1 or 4.  A steal search runs with interrupts off
# only while it holds a victim's rq lock, so what stealing adds shows at
# the tail: compare p99 and max of steal-* against nosteal-*.

BENCH_UNIT=us
BENCH_DIRECTION=lower
BENCH_SETTINGS="nosteal-m1=NO_STEAL:1 steal-m1=STEAL:1 nosteal-m4=NO_STEAL:4 steal-m4=STEAL:4"
BENCH_PARAMS="p99 max"
BENCH_QUICK_PARAMS="p99 max"

lt_features=/sys/kernel/debug/sched/features
lt_mult=/proc/sys/kernel/sched_pelt_multiplier
# cyclictest's histogram ends here; a latency beyond it counts as overflow
# (and a p99 in the overflow is reported as this bound).  cyclictest
# prints one line per bucket: 100000 of them took the guest's awk 5 s
# to read on an idle 2-vCPU board and made a 10 s run last a minute.
lt_hist_us=20000

bench_init() {
	for lt_tool in cyclictest hackbench; do
		command -v "$lt_tool" >/dev/null 2>&1 || {
			echo "$lt_tool (rt-tests) is not installed"
			return 1
		}
	done
	grep -qw -e STEAL -e NO_STEAL "$lt_features" 2>/dev/null || {
		echo "no STEAL sched feature in $lt_features"
		return 1
	}
	[ -w "$lt_mult" ] || {
		echo "no $lt_mult (kernel without the runtime PELT multiplier)"
		return 1
	}
	for lt_v in "${LATENCY_SECONDS:-10}" "${LATENCY_INTERVAL_US:-1000}" "${LATENCY_GROUPS:-1}"; do
		case $lt_v in
		'' | *[!0-9]* | 0) echo "LATENCY_SECONDS, LATENCY_INTERVAL_US, LATENCY_GROUPS: '$lt_v' is not a positive number"; return 1 ;;
		esac
	done
	BENCH_KNOBS="$lt_features,$lt_mult"
	lt_setting=
}

# bench_apply FEATURE:MULTIPLIER
bench_apply() {
	lt_setting=$1
	knob_set "$lt_features" "${1%%:*}" && knob_set "$lt_mult" "${1#*:}"
}

# The arguments of the load and of the measurement, for bench_cmd and bench_run
lt_hb_args() {
	echo "-P -g ${LATENCY_GROUPS:-1} -p -l 1000000"
}

lt_ct_args() {
	echo "-q -m -S -p 90 -i ${LATENCY_INTERVAL_US:-1000} -D ${LATENCY_SECONDS:-10} -h $lt_hist_us"
}

bench_cmd() {
	echo "setsid hackbench $(lt_hb_args) & cyclictest $(lt_ct_args); kill -- -\$!  # $1"
}

# lt_from_histogram p99|max: cyclictest -h output on stdin
lt_from_histogram() {
	awk -v what="$1" '
		/^[0-9]+/ {
			# "bucket count count ..." one column per thread
			for (i = 2; i <= NF; i++) {
				n[$1 + 0] += $i
				total += $i
			}
			next
		}
		/^# Max Latencies:/ {
			for (i = 4; i <= NF; i++) if ($i + 0 > max) max = $i + 0
		}
		/^# Histogram Overflows:/ {
			for (i = 4; i <= NF; i++) over += $i
		}
		END {
			if (!total) exit 1
			if (what == "max") { print max; exit 0 }
			total += over
			need = total * 0.99
			for (b = 0; b < '"$lt_hist_us"'; b++) {
				seen += n[b]
				if (seen >= need) { print b; exit 0 }
			}
			print '"$lt_hist_us"'	# in the overflow
		}'
}

bench_run() {
	[ -n "$lt_setting" ] || {
		echo "no setting applied: this schedbench does not call bench_apply" >&2
		return 1
	}
	# A session of its own, so that its senders and receivers go with it
	# shellcheck disable=SC2046 # the arguments are split on purpose
	setsid hackbench $(lt_hb_args) >/dev/null 2>&1 &
	lt_hb=$!
	lt_rc=0
	# shellcheck disable=SC2046
	lt_out=$(cyclictest $(lt_ct_args) 2>&1) || lt_rc=$?
	kill -TERM -- "-$lt_hb" 2>/dev/null
	wait "$lt_hb" 2>/dev/null
	[ "$lt_rc" -eq 0 ] || {
		printf '%s\n' "$lt_out" | tail -n 3 >&2
		return 1
	}
	printf '%s\n' "$lt_out" | lt_from_histogram "$1"
}
