# The emulated Sandy Bridge board (x86_64), sourced by scripts/vm.
#
# QEMU's pc machine with SandyBridge CPUs (default 4).  QEMU has no P-states,
# so cpufreq_emu provides them: one policy per CPU, each with the P-state
# table of a Sandy Bridge desktop part, 1600..3400 MHz in 100 MHz steps,
# and, with emulate_speed, a CPU speed that follows the P-state.  The cores
# of the package share one clock, which runs at the highest P-state any of
# them requests (clocks=).
# shellcheck shell=sh
# Set by scripts/vm: cpus, kout, emulate_speed; read by it: board_arch.
# shellcheck disable=SC2034,SC2154
board_arch=x86_64

board_qemu_args() {
	case "$cpus" in
	[1-8]) ;;
	*)
		echo "sandybridge: --cpus $cpus is not supported: use 1 to 8 (4 as the real part)" >&2
		return 1
		;;
	esac
	echo "-machine pc -cpu SandyBridge"
}

# 1600000,1700000,...,3400000 (kHz)
sandybridge_freqs() {
	f=1600000
	list=$f
	while [ "$f" -lt 3400000 ]; do
		f=$((f + 100000))
		list=$list,$f
	done
	echo "$list"
}

board_modparams() {
	echo "cpufreq_emu emulate_speed=$emulate_speed freqs=$(sandybridge_freqs) clocks=0-$((cpus - 1))"
}
