#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# cpufreq_emu refuses bad tables and parameters: insmod fails with a clear
# message in the kernel log and no cpufreq driver stays registered.  The
# driver is unloaded for the test and loaded again with its parameters.
#
# The module is looked for in $CPUFREQ_EMU_KO, /lib/modules/extra and
# /lib/modules/$(uname -r)/extra; the test skips without it or without root.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

# shellcheck source=selftests/boards/emu_module.sh
. "$(dirname "$0")/emu_module.sh"

n=0
failed=0

skip_all() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

ok() {
	n=$((n + 1))
	echo "ok $n $*"
}

not_ok() {
	n=$((n + 1))
	failed=1
	echo "not ok $n $*"
}

# expect_refused NAME MESSAGE ARGS...: insmod must fail, log MESSAGE and
# leave neither the module nor a cpufreq driver behind.
expect_refused() {
	name=$1 msg=$2
	shift 2
	dmesg -c >/dev/null 2>&1
	if insmod "$ko" "$@" 2>/dev/null; then
		rmmod $mod
		not_ok "$name # insmod $* succeeded"
		return
	fi
	if [ -d /sys/module/$mod ] || [ -e "$driver" ]; then
		not_ok "$name # something stayed registered after insmod $*"
		return
	fi
	if ! dmesg | grep -q "$mod: .*$msg"; then
		echo "# kernel log after insmod $*:"
		dmesg | tail -n 5 | sed 's/^/#   /'
		not_ok "$name # no '$msg' in the kernel log"
		return
	fi
	ok "$name"
}

[ "$(id -u)" -eq 0 ] || skip_all "needs root to load modules"
ko=$(find_ko) || skip_all "no $mod.ko (not an emulated board)"
if [ -d /sys/module/$mod ]; then
	args=$(saved_args)
	rmmod $mod || skip_all "cannot unload $mod"
else
	args=
	[ ! -e "$driver" ] || skip_all "another cpufreq driver ($(cat "$driver")) is registered"
fi
ncpus=$(grep -c '^processor' /proc/cpuinfo)

echo "TAP version 13"
echo "1..13"
expect_refused "malformed_frequency" "'abc' is not a frequency in kHz" freqs=1600000,abc
expect_refused "descending_table" "must be strictly ascending" freqs=2000000,1000000
expect_refused "zero_frequency" "'0' is not a frequency in kHz" freqs=0,1000000
expect_refused "empty_entry" "'' is not a frequency in kHz" freqs=1000000,,2000000
expect_refused "unknown_cpu" "names a CPU that does not exist" freqs=1000000 policies=0-999
expect_refused "table_count" "9 tables for" \
	freqs=1/2/3/4/5/6/7/8/9 policies=0-$((ncpus - 1))
expect_refused "clock_unknown_cpu" "clocks: '0-999' names a CPU that does not exist" \
	freqs=1000000 clocks=0-999
expect_refused "speed_period_range" "speed_period_us=5000 is out of range" \
	emulate_speed=1 speed_period_us=5000
if [ "$ncpus" -ge 2 ]; then
	expect_refused "cpu_in_no_policy" "are in no policy" freqs=1000000 policies=0
	expect_refused "overlapping_policies" "overlaps another policy" \
		freqs=1000000 policies=0-1/1-$((ncpus - 1))
	expect_refused "overlapping_clocks" "overlaps another clock" \
		freqs=1000000 clocks=0-1/1
	expect_refused "clock_splits_policy" "'0' splits the policy of CPUs 0-1" \
		freqs=1000000 policies=0-1/2-$((ncpus - 1)) clocks=0
else
	ok "cpu_in_no_policy # SKIP needs 2 CPUs"
	ok "overlapping_policies # SKIP needs 2 CPUs"
	ok "overlapping_clocks # SKIP needs 2 CPUs"
	ok "clock_splits_policy # SKIP needs 2 CPUs"
fi

# shellcheck disable=SC2086
if insmod "$ko" $args && [ "$(cat "$driver" 2>/dev/null)" = $mod ]; then
	ok "reload ${args:-without parameters}"
else
	not_ok "reload ${args:-without parameters}"
fi
[ $failed -eq 0 ] && exit $KSFT_PASS
exit $KSFT_FAIL
