# shellcheck shell=sh disable=SC2034 # the BENCH_* variables are read by schedbench
# summary: a fake benchmark with compound settings for the runner's tests
#
# Settings A,B write A to $FAKE_KNOB and B to $FAKE_KNOB2 (bench_apply);
# FAKE_APPLY_FAIL=A,B makes bench_apply fail on that setting.  The result is 100 * A + B.  p1 is in
# ms (lower is better), p2 in MHz (higher is better), through bench_unit;
# FAKE_BAD_UNIT makes bench_unit print that instead.  Every run writes a
# two-sample trace "ms,khz" (its round and the result) with record_trace.

BENCH_UNIT=ms
BENCH_DIRECTION=lower
BENCH_KNOBS="${FAKE_KNOB:?},${FAKE_KNOB2:?}"
BENCH_SETTINGS="x=1,2 y=3,4"
BENCH_PARAMS="p1 p2"

bench_apply() {
	[ "${FAKE_APPLY_FAIL:-}" != "$1" ] || return 1
	knob_set "$FAKE_KNOB" "${1%,*}"
	knob_set "$FAKE_KNOB2" "${1#*,}"
}

bench_unit() {
	if [ -n "${FAKE_BAD_UNIT:-}" ]; then
		echo "$FAKE_BAD_UNIT"
		return
	fi
	case $1 in
	p2) echo "MHz higher" ;;
	*) echo "ms lower" ;;
	esac
}

bench_run() {
	fp_v=$(($(cat "$FAKE_KNOB") * 100 + $(cat "$FAKE_KNOB2")))
	printf 'ms,khz\n0.000,%s\n1.500,%s\n' "$BENCH_ROUND" "$fp_v" >"$TMP/fake-trace"
	record_trace "$1" "$TMP/fake-trace"
	echo "result $fp_v"
}
