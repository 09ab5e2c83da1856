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

rc=0
(cd "$here/upstream/cpufreq" && bash ./main.sh -t "$test" -o "/tmp/cpufreq_selftest.$test") || rc=$?
restore || rc=1
rm -f "$saved"
exit "$rc"
