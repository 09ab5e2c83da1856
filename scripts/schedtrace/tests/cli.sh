#!/bin/sh
# Command-line tests of schedtrace that need no trace: usage errors and
# files that are not traces.  Usage: tests/cli.sh PATH/TO/schedtrace
set -eu

tool=${1:?usage: tests/cli.sh PATH/TO/schedtrace}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/schedtrace-cli.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

# expect STATUS PATTERN ARGS...: exit status and a line of stderr.
expect() {
	want=$1
	pattern=$2
	shift 2
	n=$((n + 1))
	set +e
	"$tool" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	if [ "$got" -ne "$want" ] || ! grep -q -- "$pattern" "$tmp/err"; then
		echo "not ok $n - schedtrace $*: exit $got (want $want), stderr:"
		sed 's/^/    /' "$tmp/err"
		failed=$((failed + 1))
		return 0
	fi
	echo "ok $n - schedtrace $*"
}

expect 2 "no trace file given"
expect 2 "one trace file only" a.dat b.dat
expect 2 "util-fraction wants" -f 1.5 x.dat
expect 2 "util-fraction wants" -f abc x.dat
expect 2 "pid wants" --pid -3 x.dat
expect 2 "ramp-from wants" --ramp-from 2000 x.dat
expect 2 "ramp-from wants" --ramp-from -1 x.dat
expect 2 "needs --out" --plot x.dat
expect 2 "unknown analysis 'bogus'" --need util,bogus x.dat
expect 1 "No such file or directory" "$tmp/missing.dat"
expect 1 "No such file or directory" --need thermal,steal "$tmp/missing.dat"
expect 1 "not a regular file" "$tmp"
printf 'hello\n' >"$tmp/text.dat"
expect 1 "not a trace.dat file" "$tmp/text.dat"
: >"$tmp/empty.dat"
expect 1 "not a trace.dat file" "$tmp/empty.dat"
# the magic alone: headers missing
printf '\027\010\104tracing6\000' >"$tmp/magic.dat"
expect 1 "cannot read its headers" "$tmp/magic.dat"

echo "cli: $n tests, $failed failed"
[ "$failed" -eq 0 ]
