# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Helpers of the tests that unload and load cpufreq_emu (sourced).

# Read by the scripts that source this file.
# shellcheck disable=SC2034
mod=cpufreq_emu
# shellcheck disable=SC2034
params=/sys/module/$mod/parameters
# shellcheck disable=SC2034
driver=/sys/devices/system/cpu/cpufreq/policy0/scaling_driver

find_ko() {
	for ko in ${CPUFREQ_EMU_KO:-} /lib/modules/extra/$mod.ko \
		"/lib/modules/$(uname -r)/extra/$mod.ko"; do
		[ -f "$ko" ] && { echo "$ko"; return 0; }
	done
	return 1
}

# The parameters the module is loaded with now, as insmod arguments.
saved_args() {
	for f in "$params"/*; do
		[ -r "$f" ] || continue
		p=${f##*/}
		v=$(cat "$f")
		[ "$v" = "(null)" ] || [ -z "$v" ] || printf '%s=%s ' "$p" "$v"
	done
}

