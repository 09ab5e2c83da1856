# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: a fake benchmark for the runner's tests
#
# Prints the knob's current value (plus FAKE_OFFSET) as its result and logs
# every run to $FAKE_LOG, so the tests can check which setting was active.
# FAKE_SLEEP makes each run take that long; FAKE_FAIL=LABEL makes the runs
# with the knob at that value fail.

BENCH_UNIT=ms
BENCH_DIRECTION=lower
BENCH_KNOB=${FAKE_KNOB:?}
BENCH_SETTINGS=${FAKE_SETTINGS:-"a=10 b=20 c=30"}
BENCH_PARAMS="p1 p2"
BENCH_QUICK_PARAMS=p1

bench_init() {
	[ -z "${FAKE_SKIP:-}" ] || {
		echo "$FAKE_SKIP"
		return 1
	}
}

bench_cmd() {
	echo "fake $1"
}

bench_run() {
	fk_v=$(cat "$BENCH_KNOB")
	echo "$1 $fk_v" >>"${FAKE_LOG:-/dev/null}"
	[ -z "${FAKE_SLEEP:-}" ] || sleep "$FAKE_SLEEP"
	[ "${FAKE_FAIL:-}" != "$fk_v" ] || return 3
	echo "some output"
	echo "Time: $((fk_v + ${FAKE_OFFSET:-0}))"
}
