#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tests of schedbench on this host, with a temporary file as the knob and a
# fake benchmark (tests/fake.sh): interleaving, seeding, knob restore (at
# the end, on failure, on SIGTERM and SIGINT), the sample format (read back
# by schedcmp), skips, the marker lines and run-host; with tests/fake-pair.sh
# compound settings, a unit per parameter, traces, traceplot and rampjumps.  Runs with every shell
# found among: sh, dash, bash, busybox sh.
#
#   sh tests/run.sh
# $SH is split on purpose ("busybox sh"):
# shellcheck disable=SC2086
set -eu

here=$(cd "$(dirname "$0")" && pwd)
bench=$here/../schedbench
runhost=$here/../run-host
fake=$here/fake.sh
pair=$here/fake-pair.sh
traceplot=$here/../traceplot
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

make -s -C "$root/scripts/schedcmp" O="$tmp" "$tmp/schedcmp" >/dev/null
schedcmp=$tmp/schedcmp

n=0
failed=0
ok() {
	n=$((n + 1))
	echo "ok $n - $SH: $*"
}
fail() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $SH: $*"
	[ ! -s "$tmp/err" ] || sed 's/^/#   /' "$tmp/err"
}
check() { # DESCRIPTION COMMAND...
	_d=$1
	shift
	if "$@"; then ok "$_d"; else fail "$_d"; fi
}
not() {
	! "$@"
}
# to FILE COMMAND...: COMMAND with its stdout in FILE
to() {
	_f=$1
	shift
	"$@" >"$_f"
}

# run [ENV=VALUE...] -- SCHEDBENCH-ARGS: the fake benchmark, 3 rounds, no
# cooldown, output in $tmp/s.tsv, stderr in $tmp/err
run() {
	_env=
	while [ "$1" != -- ]; do
		_env="$_env $1"
		shift
	done
	shift
	# shellcheck disable=SC2086 # the VAR=value words are split on purpose
	env FAKE_KNOB="$tmp/knob" FAKE_LOG="$tmp/log" $_env \
		$SH "$bench" -c 0 -w 0 -o "$tmp/s.tsv" "$@" 2>"$tmp/err"
}

# pair_fails DESCRIPTION MESSAGE ENV=VALUE: tests/fake-pair.sh run with
# ENV=VALUE stops with exit 1 and MESSAGE, and both knobs are restored
pair_fails() {
	echo 7 >"$tmp/knob"
	echo 8 >"$tmp/knob2"
	_rc=0
	env FAKE_KNOB="$tmp/knob" FAKE_KNOB2="$tmp/knob2" "$3" $SH "$bench" -c 0 -w 0 -r 2 \
		-o "$tmp/s.tsv" "$pair" 2>"$tmp/err" || _rc=$?
	if [ "$_rc" -eq 1 ] && grep -qF "$2" "$tmp/err" &&
		[ "$(cat "$tmp/knob")" = 7 ] && [ "$(cat "$tmp/knob2")" = 8 ]; then
		ok "$1"
	else
		fail "$1"
	fi
}

rows() { # FILE: the sample rows
	grep -v '^#' "$1" | grep -v '^$' || true
}

# the order of settings per round and parameter, e.g. "1 p1 b a c"
orders() {
	rows "$1" | awk '{ k = $4 " " $2; if (!(k in o)) { n++; key[n] = k }; o[k] = o[k] " " $3 }
		END { for (i = 1; i <= n; i++) print key[i] o[key[i]] }'
}

one_shell() {
	: >"$tmp/log"
	echo 7 >"$tmp/knob"

	# 1. interleaving: every round runs each setting once per parameter
	run -- -r 6 -S 12345 "$fake" >"$tmp/out"
	check "exit 0" [ $? -eq 0 ]
	check "6 rounds x 2 parameters x 3 settings = 36 samples" [ "$(rows "$tmp/s.tsv" | wc -l)" -eq 36 ]
	check "each round has a, b, c once per parameter" \
		[ "$(orders "$tmp/s.tsv" | awk '{ s = $3 $4 $5; if (s != "abc" && s != "acb" && s != "bac" && s != "bca" && s != "cab" && s != "cba") bad++ } END { print bad + 0 }')" -eq 0 ]
	check "the order changes between rounds" [ "$(orders "$tmp/s.tsv" | awk '{ print $3 $4 $5 }' | sort -u | wc -l)" -gt 1 ]
	check "the knob held the setting's value during each run" \
		[ "$(rows "$tmp/s.tsv" | awk '($3 == "a" && $5 != 10) || ($3 == "b" && $5 != 20) || ($3 == "c" && $5 != 30)' | wc -l)" -eq 0 ]
	check "the knob is restored at the end" [ "$(cat "$tmp/knob")" = 7 ]
	check "metadata: seed, kernel, settings order" \
		grep -q "^# seed: 12345$" "$tmp/s.tsv"
	check "metadata: kernel release" grep -qx "# kernel: $(uname -r)" "$tmp/s.tsv"
	check "metadata: settings order" grep -qx "# settings: fake: a b c" "$tmp/s.tsv"
	check "rows have 8 tab-separated fields with a timestamp" \
		[ "$(rows "$tmp/s.tsv" | awk -F '\t' 'NF != 8 || $8 !~ /^[0-9]+$/ || $6 != "ms" || $7 != "lower"' | wc -l)" -eq 0 ]
	check "progress on stderr" grep -q '^\[schedbench\] round 3/6, [abc]: fake p[12]$' "$tmp/err"
	check "nothing on stdout without -p" [ ! -s "$tmp/out" ]
	check "schedcmp reads the samples" to "$tmp/table" "$schedcmp" "$tmp/s.tsv"
	check "schedcmp: a first, b -100%, c -200%, with stars" \
		grep -q '^Mean .*(   0.00%) .*(-100.00%)\* .*(-200.00%)\*$' "$tmp/table"

	# 2. seeding: the same seed gives the same order, another seed another
	orders "$tmp/s.tsv" >"$tmp/order1"
	run -- -r 6 -S 12345 "$fake"
	orders "$tmp/s.tsv" >"$tmp/order2"
	check "same seed, same order" cmp -s "$tmp/order1" "$tmp/order2"
	cp "$tmp/order1" "$tmp/order.$(echo "$SH" | tr -c 'a-z\n' _)"
	run -- -r 6 -S 999 "$fake"
	orders "$tmp/s.tsv" >"$tmp/order3"
	check "other seed, other order" not cmp -s "$tmp/order1" "$tmp/order3"

	# 3. warm-up runs are not recorded; -q takes the quick parameters
	: >"$tmp/log"
	run -- -r 2 -w 2 -q -S 1 "$fake"
	if [ "$(wc -l <"$tmp/log")" -eq 8 ] && [ "$(rows "$tmp/s.tsv" | wc -l)" -eq 6 ] &&
		! grep -q p2 "$tmp/log"; then
		ok "-w 2 -q: 2 warm-ups + 2 rounds x 3 runs of p1 only"
	else
		fail "-w 2 -q: 2 warm-ups + 2 rounds x 3 runs of p1 only"
	fi

	# 4. -p: the samples between the marker lines on stdout, with a count
	run -- -r 1 -S 1 -p "$fake" >"$tmp/out"
	check "-p prints the samples between the markers" \
		[ "$(sed -n '/^--- schedstack-samples begin ---$/,/^--- schedstack-samples end ---$/p' "$tmp/out" | grep -c '^fake	')" -eq 6 ]
	check "-p prints the sample count" grep -qx '# samples: 6' "$tmp/out"
	check "run-host extracts and compares" \
		to "$tmp/rh.out" env SCHEDCMP="$schedcmp" $SH "$runhost" -n -o "$tmp/rh" "$tmp/out" 2>"$tmp/err"
	if [ -s "$tmp/rh/samples.tsv" ] && [ -s "$tmp/rh/results.json" ] && grep -q '^fake p1' "$tmp/rh/table.txt"; then
		ok "run-host: samples.tsv, table.txt, results.json"
	else
		fail "run-host: samples.tsv, table.txt, results.json"
	fi
	if env SCHEDCMP=/nonexistent $SH "$runhost" -x -o "$tmp/rh6" "$tmp/out" >"$tmp/rh6.out" 2>&1 &&
		cmp -s "$tmp/rh/samples.tsv" "$tmp/rh6/samples.tsv" && [ ! -e "$tmp/rh6/table.txt" ]; then
		ok "run-host -x: the samples only"
	else
		fail "run-host -x: the samples only"
	fi
	sed 's/^fake	p1	b	1	.*/[   12.5] kernel: noise/' "$tmp/out" >"$tmp/noisy"
	env SCHEDCMP="$schedcmp" $SH "$runhost" -n -o "$tmp/rh2" "$tmp/noisy" >/dev/null 2>"$tmp/rh.err" && rc=0 || rc=$?
	if [ "$rc" -ne 0 ] && grep -q 'lines were lost' "$tmp/rh.err" && grep -q 'dropped a kernel message' "$tmp/rh.err"; then
		ok "run-host: a lost line is an error"
	else
		fail "run-host: a lost line is an error"
	fi
	awk '/^fake	p2	a	1	/ { printf "fake	p2[  272.26] clocksource: noise\n"; sub(/^fake	p2/, "") } { print }' \
		"$tmp/out" >"$tmp/cut"
	if env SCHEDCMP="$schedcmp" $SH "$runhost" -n -o "$tmp/rh5" "$tmp/cut" >/dev/null 2>"$tmp/rh.err" &&
		cmp -s "$tmp/rh/samples.tsv" "$tmp/rh5/samples.tsv" && grep -q 'dropped a kernel message' "$tmp/rh.err"; then
		ok "run-host: a line cut by a kernel message is mended"
	else
		fail "run-host: a line cut by a kernel message is mended"
	fi
	env SCHEDCMP="$schedcmp" $SH "$runhost" -n -o "$tmp/rh3" "$tmp/knob" >/dev/null 2>"$tmp/rh.err" && rc=0 || rc=$?
	check "run-host: without markers is an error" [ "$rc" -ne 0 ]

	# 5. a failing run is recorded, the rest go on, exit 1, knob restored
	echo 7 >"$tmp/knob"
	rc=0
	run FAKE_FAIL=20 -- -r 2 -S 1 "$fake" || rc=$?
	check "failed runs: exit 1" [ "$rc" -eq 1 ]
	if [ "$(grep -c '^# failed: fake p[12] b round' "$tmp/s.tsv")" -eq 4 ] && [ "$(rows "$tmp/s.tsv" | wc -l)" -eq 8 ]; then
		ok "failed runs: '# failed' lines, the others recorded"
	else
		fail "failed runs: '# failed' lines, the others recorded"
	fi
	check "failed runs: knob restored" [ "$(cat "$tmp/knob")" = 7 ]

	# 6. skips: missing knob, init refusing; exit 0 with the reason
	rc=0
	env FAKE_KNOB="$tmp/missing" $SH "$bench" -c 0 -o "$tmp/s.tsv" "$fake" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq 0 ] && grep -qx "# skipped: fake: $tmp/missing does not exist" "$tmp/s.tsv"; then
		ok "missing knob: skipped with the reason, exit 0"
	else
		fail "missing knob: skipped with the reason, exit 0"
	fi
	rc=0
	env FAKE_KNOB="$tmp/knob" FAKE_KNOB2="$tmp/missing2" $SH "$bench" -c 0 -w 0 \
		-o "$tmp/s.tsv" "$pair" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq 0 ] && grep -qx "# skipped: fake-pair: $tmp/missing2 does not exist" "$tmp/s.tsv"; then
		ok "a missing knob of compound settings: skipped with the reason, exit 0"
	else
		fail "a missing knob of compound settings: skipped with the reason, exit 0"
	fi
	run FAKE_SKIP=no_tool_here -- "$fake"
	check "init refuses: skipped with its reason" grep -qx '# skipped: fake: no_tool_here' "$tmp/s.tsv"

	# 7. sched features: FEAT/NO_FEAT words, the original word restored
	mkdir -p "$tmp/sched"
	echo NO_STEAL >"$tmp/sched/features"
	: >"$tmp/log"
	env FAKE_KNOB="$tmp/sched/features" FAKE_LOG="$tmp/log" FAKE_SETTINGS="NO_STEAL STEAL" \
		FAKE_OFFSET=0 $SH "$bench" -c 0 -w 0 -r 2 -S 3 -o "$tmp/s.tsv" "$fake" 2>"$tmp/err" || true
	check "features: both words written" [ "$(sort -u "$tmp/log" | awk '{ print $2 }' | sort -u | tr '\n' ' ')" = "NO_STEAL STEAL " ]
	check "features: restored to NO_STEAL" [ "$(cat "$tmp/sched/features")" = NO_STEAL ]
	echo "GENTLE NO_OTHER" >"$tmp/sched/features"
	env FAKE_KNOB="$tmp/sched/features" FAKE_SETTINGS="NO_STEAL STEAL" \
		$SH "$bench" -c 0 -o "$tmp/s.tsv" "$fake" 2>"$tmp/err"
	check "features: an unknown feature is a skip" \
		grep -qx "# skipped: fake: no feature STEAL in $tmp/sched/features" "$tmp/s.tsv"

	# 8. the generic form: -k PATH -s LABEL=VALUE ... -- COMMAND
	echo 5 >"$tmp/knob"
	$SH "$bench" -c 0 -w 0 -r 3 -S 2 -o "$tmp/s.tsv" -k "$tmp/knob" -s lo=1 -s hi=2 \
		-n gen -u ops -d higher -- sh -c "echo result: \$(cat '$tmp/knob')" 2>"$tmp/err"
	if [ "$(rows "$tmp/s.tsv" | awk '$1 == "gen" && $2 == "default" && $7 == "higher" && (($3 == "lo" && $5 == 1) || ($3 == "hi" && $5 == 2))' | wc -l)" -eq 6 ] &&
		[ "$(cat "$tmp/knob")" = 5 ]; then
		ok "generic: 6 samples, values follow the knob, restored"
	else
		fail "generic: 6 samples, values follow the knob, restored"
	fi

	# 9. compound settings (bench_apply), a unit per parameter (bench_unit)
	# and traces (record_trace): tests/fake-pair.sh
	echo 7 >"$tmp/knob"
	echo 8 >"$tmp/knob2"
	env FAKE_KNOB="$tmp/knob" FAKE_KNOB2="$tmp/knob2" $SH "$bench" -c 0 -w 1 -r 3 -S 4 \
		-o "$tmp/s.tsv" "$pair" 2>"$tmp/err" && rc=0 || rc=$?
	if [ "$rc" -eq 0 ] && [ "$(rows "$tmp/s.tsv" | wc -l)" -eq 12 ]; then
		ok "compound: exit 0, 3 rounds x 2 parameters x 2 settings"
	else
		fail "compound: exit 0, 3 rounds x 2 parameters x 2 settings"
	fi
	check "compound: both knobs held the setting's values during each run" \
		[ "$(rows "$tmp/s.tsv" | awk '($3 == "x" && $5 != 102) || ($3 == "y" && $5 != 304)' | wc -l)" -eq 0 ]
	if [ "$(cat "$tmp/knob")" = 7 ] && [ "$(cat "$tmp/knob2")" = 8 ]; then
		ok "compound: both knobs restored"
	else
		fail "compound: both knobs restored"
	fi
	check "compound: the knobs are named in the header" \
		grep -qx "# benchmark: fake-pair: knob $tmp/knob,$tmp/knob2: x=1,2 y=3,4" "$tmp/s.tsv"
	check "bench_unit: p1 in ms, lower; p2 in MHz, higher" \
		[ "$(rows "$tmp/s.tsv" | awk '($2 == "p1" && $6 $7 == "mslower") || ($2 == "p2" && $6 $7 == "MHzhigher")' | wc -l)" -eq 12 ]
	if [ "$(grep -c '^# trace: fake-pair p[12] [xy] 1 ' "$tmp/s.tsv")" -eq 12 ] &&
		[ "$(grep -c '^# trace: ' "$tmp/s.tsv")" -eq 12 ] &&
		grep -qx '# trace: fake-pair p2 y 1 1.500,304' "$tmp/s.tsv" &&
		grep -qx '# trace: fake-pair p1 x 1 ms,khz' "$tmp/s.tsv"; then
		ok "traces: round 1 only, header and 2 samples per setting and parameter"
	else
		fail "traces: round 1 only, header and 2 samples per setting and parameter"
	fi
	check "traces: schedcmp reads the file" to "$tmp/table" "$schedcmp" "$tmp/s.tsv"
	if to "$tmp/tp.out" $SH "$traceplot" -n "$tmp/s.tsv" "$tmp/tp" 2>"$tmp/err" &&
		[ "$(grep -c '^# [xy] round 1$' "$tmp/tp/trace-fake-pair-p2.dat")" -eq 2 ] &&
		grep -q "index 1 using 1:(\$2/1000) with steps .* title 'y'" "$tmp/tp/trace-fake-pair-p1.gp"; then
		ok "traceplot: per parameter a .dat with a block per setting and a .gp"
	else
		fail "traceplot: per parameter a .dat with a block per setting and a .gp"
	fi
	if command -v gnuplot >/dev/null 2>&1; then
		if $SH "$traceplot" "$tmp/s.tsv" "$tmp/tp" 2>"$tmp/err" &&
			[ -s "$tmp/tp/trace-fake-pair-p1.png" ] && [ -s "$tmp/tp/trace-fake-pair-p2.png" ]; then
			ok "traceplot: gnuplot draws the PNGs"
		else
			fail "traceplot: gnuplot draws the PNGs"
		fi
	fi
	env FAKE_KNOB="$tmp/knob" FAKE_KNOB2="$tmp/knob2" $SH "$bench" -c 0 -w 0 -r 1 -S 4 -p \
		-o "$tmp/s2.tsv" "$pair" >"$tmp/out" 2>"$tmp/err"
	rm -rf "$tmp/rh4"
	if env SCHEDCMP="$schedcmp" $SH "$runhost" -o "$tmp/rh4" "$tmp/out" >/dev/null 2>"$tmp/err" &&
		[ -s "$tmp/rh4/plots/trace-fake-pair-p1.gp" ] && [ -s "$tmp/rh4/plots/trace-fake-pair-p2.dat" ]; then
		ok "run-host: the traces are drawn with the other plots"
	else
		fail "run-host: the traces are drawn with the other plots"
	fi
	printf '# trace: fake-pair p1 x 1 12,abc\n' >>"$tmp/s.tsv"
	rc=0
	$SH "$traceplot" -n "$tmp/s.tsv" "$tmp/tp" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq 1 ] && grep -q "s.tsv:[0-9]*: not a number pair: 12,abc" "$tmp/err"; then
		ok "traceplot: a bad trace line is an error naming the line"
	else
		fail "traceplot: a bad trace line is an error naming the line"
	fi
	# top 3400: 1600->2500 is halfway, 2500->2600 is not, 2600->3400 is;
	# round 2 and other traces are not counted
	cat >"$tmp/rj.tsv" <<-'EOF'
		# trace: st cpu0-freq f1 1 ms,khz
		# trace: st cpu0-freq f1 1 0.5,1600000
		# trace: st cpu0-freq f1 1 1.0,2500000
		# trace: st cpu0-freq f1 1 2.0,2600000
		# trace: st cpu0-freq f1 1 3.0,1600000
		# trace: st cpu0-freq f1 1 4.0,3400000
		# trace: st cpu0-freq f1 2 0.5,1700000
		# trace: st cpu0-freq f0 1 ms,khz
		# trace: st cpu0-freq f0 1 0.1,1600000
		# trace: st cpu0-freq f0 1 0.2,1700000
		# trace: st time f0 1 0.2,9999999
	EOF
	if to "$tmp/rj.out" $SH "$here/../rampjumps" "$tmp/rj.tsv" 2>"$tmp/err" &&
		grep -qx 'st cpu0-freq f1: 4 changes, 3 rises, 2 halfway or more (67%), top 3400 MHz' "$tmp/rj.out" &&
		grep -qx 'st cpu0-freq f0: 1 changes, 1 rises, 0 halfway or more (0%), top 3400 MHz' "$tmp/rj.out" &&
		[ "$(wc -l <"$tmp/rj.out")" -eq 2 ]; then
		ok "rampjumps: rises and halfway rises per setting, round 1"
	else
		fail "rampjumps: rises and halfway rises per setting, round 1"
	fi
	printf '# trace: st cpu0-freq f0 1 0.3,x\n' >>"$tmp/rj.tsv"
	rc=0
	$SH "$here/../rampjumps" "$tmp/rj.tsv" >/dev/null 2>"$tmp/err" || rc=$?
	check "rampjumps: a bad trace line is an error" [ "$rc" -eq 1 ]
	env FAKE_KNOB="$tmp/knob" FAKE_KNOB2="$tmp/knob2" SCHEDBENCH_TRACE=all $SH "$bench" -c 0 -w 0 \
		-r 2 -S 4 -o "$tmp/s.tsv" "$pair" 2>"$tmp/err"
	check "traces: SCHEDBENCH_TRACE=all keeps every round" \
		[ "$(grep -c '^# trace: fake-pair p1 x 2 ' "$tmp/s.tsv")" -eq 3 ]
	pair_fails "compound: a failing bench_apply stops the run with exit 1, knobs restored" \
		"bench_apply '3,4' failed" FAKE_APPLY_FAIL=3,4
	pair_fails "bench_unit: a bad direction is an error, knobs restored" \
		"bench_unit must print UNIT and lower or higher, not 'ms sideways'" FAKE_BAD_UNIT="ms sideways"

	# 10. bad usage
	rc=0
	$SH "$bench" -r x "$fake" 2>/dev/null || rc=$?
	check "bad -r: exit 2" [ "$rc" -eq 2 ]
	rc=0
	$SH "$bench" nosuchbench 2>/dev/null || rc=$?
	check "unknown benchmark: exit 2" [ "$rc" -eq 2 ]

	# 11. signals: the knob is restored and the partial samples kept
	for sig in TERM INT; do
		echo 7 >"$tmp/knob"
		rm -f "$tmp/s.tsv"
		# a background job starts with SIGINT ignored, which a shell
		# cannot trap: env --default-signal gives it back
		env --default-signal=INT FAKE_KNOB="$tmp/knob" FAKE_SLEEP=1 $SH "$bench" -c 0 -w 0 -r 50 \
			-o "$tmp/s.tsv" "$fake" 2>"$tmp/err" &
		pid=$!
		sleep 3
		kill -s "$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		echo "$rc" >"$tmp/rc"
		check "SIG$sig: exit 130" [ "$(cat "$tmp/rc")" -eq 130 ]
		check "SIG$sig: knob restored" [ "$(cat "$tmp/knob")" = 7 ]
		check "SIG$sig: samples kept and marked" grep -qx "# interrupted: SIG$sig" "$tmp/s.tsv"
	done
}

shells=
for s in sh dash bash "busybox sh"; do
	${s%% *} --help >/dev/null 2>&1 || command -v "${s%% *}" >/dev/null 2>&1 || continue
	[ "$s" = "busybox sh" ] && ! busybox sh -c : 2>/dev/null && continue
	shells="$shells${shells:+:}$s"
done
IFS=:
for SH in $shells; do
	IFS=' '
	one_shell
done
IFS=' '

SH=all
set -- "$tmp"/order.*
if [ $# -gt 1 ]; then
	check "every shell gives the same order for the same seed" \
		[ "$(cat "$@" | sort | uniq -c | awk '{ print $1 }' | sort -u | wc -l)" -eq 1 ]
fi

echo "schedbench: $n tests, $failed failed"
[ "$failed" -eq 0 ]
