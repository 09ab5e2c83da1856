#!/bin/sh
# Run one test of the kernel's cpufreq selftests (main.sh -t TEST) from
# ./upstream/cpufreq, and put every policy's governor and frequency limits
# back afterwards, so the tests after it find the board as it was.
#   upstream.sh basic|sptest1|sptest2|sptest3|sptest4
set -eu

ksft_skip=4
here=$(cd "$(dirname "$0")" && pwd)
test=${1:?usage: upstream.sh basic|sptest1|sptest2|sptest3|sptest4}
policies=/sys/devices/system/cpu/cpufreq

skip() {
	echo "1..0 # SKIP $*"
	exit "$ksft_skip"
}

[ "$(id -u)" -eq 0 ] || skip "needs root"
[ -d "$here/upstream/cpufreq" ] || skip "the kernel's cpufreq selftests were not installed beside this script"
command -v bash >/dev/null || skip "the kernel's cpufreq selftests need bash"
command -v sudo >/dev/null || skip "the kernel's cpufreq selftests call sudo"
ls -d "$policies"/policy* >/dev/null 2>&1 || skip "no cpufreq policy"
# The special tests switch to these by name; a kernel built without one
# (a board's defconfig, with no modules in the initramfs) fails the
# switch, which says nothing of the governors it has.
case $test in
sptest1 | sptest2 | sptest4) wanted="ondemand conservative" ;;
sptest3) wanted="ondemand userspace" ;;
*) wanted= ;;
esac
for gov in $wanted; do
	for p in "$policies"/policy*; do
		grep -qw "$gov" "$p/scaling_available_governors" ||
			skip "${p##*/} has no $gov governor, which $test switches to (tools/testing/selftests/cpufreq/config asks for it)"
	done
done
case "${CPUFREQ_SPTEST_LOOPS-1}" in
'' | *[!0-9]* | 0*)
	echo "upstream.sh: CPUFREQ_SPTEST_LOOPS='$CPUFREQ_SPTEST_LOOPS' is not a positive number" >&2
	exit 1 ;;
esac

saved=$(mktemp)
for p in "$policies"/policy*; do
	echo "$p $(cat "$p/scaling_governor") $(cat "$p/scaling_min_freq") $(cat "$p/scaling_max_freq")"
done >"$saved"

# Limits in an order that is always valid: widen, then narrow.
restore() {
	while read -r p gov min max; do
		[ -d "$p" ] || continue
		if ! { echo "$gov" >"$p/scaling_governor" &&
			cat "$p/cpuinfo_max_freq" >"$p/scaling_max_freq" &&
			echo "$min" >"$p/scaling_min_freq" &&
			echo "$max" >"$p/scaling_max_freq"; }; then
			echo "# could not put $p back to $gov $min..$max kHz"
			return 1
		fi
	done <"$saved"
}

# CPUFREQ_SPTEST_LOOPS=N runs the special tests from a copy whose loops
# (sptest2's 101 rounds, sptest3's 1000 shuffles, sptest4's 5000 hotplugs
# and frequency sweeps per CPU) are cut to N rounds: under emulation the
# full counts take hours.  Each count must be found, so that a change
# upstream cannot turn the cut into a silent no-op.
suite=$here/upstream/cpufreq
loops=${CPUFREQ_SPTEST_LOOPS:-}
if [ -n "$loops" ]; then
	copy=$(mktemp -d)
	mkdir "$copy/cpufreq"
	cp "$suite"/*.sh "$copy/cpufreq/"
	cp -r "$here/upstream/kselftest" "$copy/"
	suite=$copy/cpufreq
	# upstream's loop : its cut
	for cut in "seq 0 100:seq 1 $loops" "seq 1000:seq $loops" "seq 1 5000:seq 1 $loops"; do
		count=${cut%%:*}
		grep -q "\`$count\`" "$suite/special-tests.sh" || {
			echo "upstream.sh: special-tests.sh has no \`$count\` loop any more: update CPUFREQ_SPTEST_LOOPS' rewrite" >&2
			exit 1
		}
		sed -i "s/\`$count\`/\`${cut#*:}\`/g" "$suite/special-tests.sh"
	done
	echo "# special tests' loops cut to $loops rounds (CPUFREQ_SPTEST_LOOPS)"
fi

# What this test left running: its main.sh processes, and the governor
# writers sptest3's shufflers start in the background ("sudo tee
# .../scaling_governor"; the brackets keep grep from finding itself).
running() {
	for f in /proc/[0-9]*/cmdline; do
		{ tr '\0' ' ' <"$f"; } 2>/dev/null |
			grep -qE "^bash ./main.sh -t $test |[t]ee .*/scaling_governo[r]" && echo "$f"
	done
}

rc=0
(cd "$suite" && bash ./main.sh -t "$test" -o "/tmp/cpufreq_selftest.$test") || rc=$?
# sptest3 starts its governor shufflers in the background and returns:
# wait for them and their writers before the governors are put back.
n=0
while [ -n "$(running)" ]; do
	n=$((n + 1))
	if [ "$n" -gt 600 ]; then
		echo "# the background work of $test did not end within 600 s"
		rc=1
		break
	fi
	sleep 1
done
[ "$n" -eq 0 ] || echo "# waited $n s for the background work of $test"
restore || rc=1
rm -f "$saved"
[ -z "$loops" ] || rm -rf "$copy"
exit "$rc"
