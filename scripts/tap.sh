# TAP lines for the tests of the pipeline's own tools (sourced, POSIX sh):
#   ok TEXT, fail TEXT   "ok N - TEXT", "not ok N - TEXT", counted
#   tap_end NAME         "NAME: N tests, F failed"; false after a failure
# shellcheck shell=sh
n=0
failed=0

ok() {
	n=$((n + 1))
	echo "ok $n - $*"
}

fail() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $*"
}

tap_end() {
	echo "$1: $n tests, $failed failed"
	[ "$failed" -eq 0 ]
}
