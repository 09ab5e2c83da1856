#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# speed_test with the speed emulation of cpufreq_emu on: the module is
# loaded again with emulate_speed=1 for the test, then with the
# parameters it had.  When the emulation is already on, speed_test alone
# runs (it checks whichever state the module is in).

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
[ "$(cat "$params/emulate_speed")" = Y ] && exec "$test"
ko=$(find_ko) || skip "no $mod.ko to load again"
args=$(saved_args | sed 's/emulate_speed=[^ ]* //')

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
if ! insmod "$ko" $args emulate_speed=1; then
	echo "# insmod $ko $args emulate_speed=1 failed:"
	dmesg | tail -n 3 | sed 's/^/#   /'
	restore
	exit $KSFT_FAIL
fi
"$test"
rc=$?
trap - TERM INT HUP
restore || rc=$KSFT_FAIL
exit $rc
