#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# speed_test with the speed emulation of cpufreq_emu in the state the
# board did not boot with: speed_test checks the state the module is in,
# so the module is loaded again with emulate_speed flipped for the test,
# then with the parameters it had.  A run thus checks both states,
# whichever the board booted with (scripts/vm --speed).

KSFT_FAIL=1
KSFT_SKIP=4

# shellcheck source=selftests/boards/emu_module.sh
. "$(dirname "$0")/emu_module.sh"

skip() {
	echo "TAP version 13"
	echo "1..0 # SKIP $*"
	exit $KSFT_SKIP
}

test=$(dirname "$0")/speed_test
[ "$(id -u)" -eq 0 ] || skip "needs root to load modules"
[ -d /sys/module/$mod ] || skip "$mod is not loaded (not an emulated board)"
[ -r "$params/emulate_speed" ] || skip "this $mod has no emulate_speed parameter"
case $(cat "$params/emulate_speed") in
Y) flipped=0 ;;
*) flipped=1 ;;
esac
ko=$(find_ko) || skip "no $mod.ko to load again"
args=$(saved_args)
others=$(echo "$args" | sed 's/emulate_speed=[^ ]* *//')

restore() {
	rmmod $mod 2>/dev/null
	# shellcheck disable=SC2086
	insmod "$ko" $args && [ "$(cat "$driver" 2>/dev/null)" = $mod ] && return 0
	echo "# could not load $mod again with: ${args:-no parameters}"
	return 1
}

rmmod $mod || skip "cannot unload $mod"
# Killed at its timeout, the test must still leave the module as it was.
trap 'restore; exit $KSFT_FAIL' TERM INT HUP
# shellcheck disable=SC2086
if ! insmod "$ko" $others emulate_speed=$flipped; then
	log=$(dmesg | tail -n 3)
	# What the driver must do on such a kernel (speed.c), as the real
	# boards' configurations have it: not a failure of the board.
	if [ $flipped = 1 ] && echo "$log" | grep -q 'emulate_speed: this kernel has CONFIG_IRQ_TIME_ACCOUNTING'; then
		restore || exit $KSFT_FAIL
		skip "the kernel has CONFIG_IRQ_TIME_ACCOUNTING, with which $mod refuses emulate_speed=1"
	fi
	echo "# insmod $ko $others emulate_speed=$flipped failed:"
	echo "$log" | sed 's/^/#   /'
	restore
	exit $KSFT_FAIL
fi
"$test"
rc=$?
trap - TERM INT HUP
restore || rc=$KSFT_FAIL
exit $rc
