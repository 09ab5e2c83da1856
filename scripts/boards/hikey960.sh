# The emulated Hikey960 board (arm64), sourced by scripts/vm.
#
# QEMU's virt machine with Cortex-A57 CPUs and a device tree that describes
# Hikey960's two clusters (scripts/board-dtb): half of the CPUs LITTLE, half
# big, with the board's OPP tables, energy model coefficients and cooling
# cells.  cpufreq_emu takes its tables from it and, with emulate_speed,
# makes a CPU's speed follow its capacity and frequency.
# Uses $cpus, $kout and $emulate_speed; the tree is cached as
# $kout/board.dtb (4 CPUs) or $kout/board-$cpus.dtb.  scripts/boards/dynamiq.sh
# is this board with its CPUs in one cluster (board_layout).
# shellcheck shell=sh
# Set by scripts/vm: cpus, kout, emulate_speed; read by it: board_arch.
# shellcheck disable=SC2034,SC2154
board_arch=arm64
# scripts/board-dtb -l: the clusters and caches; "board" or "board-dynamiq"
board_layout=hikey960

board_qemu_args() {
	name=board
	[ "$board_layout" = hikey960 ] || name=board-$board_layout
	case "$cpus" in
	4) dtb=$kout/$name.dtb ;;
	8) dtb=$kout/$name-8.dtb ;;
	*)
		echo "$board_layout: --cpus $cpus is not supported: use 4 (2 LITTLE + 2 big) or 8 (4 + 4, as the real board)" >&2
		return 1
		;;
	esac
	gen=${here:-$(pwd)/scripts}/board-dtb
	if [ ! -s "$dtb" ] || [ -n "$(find "$gen" -newer "$dtb")" ]; then
		"$gen" -c "$cpus" -l "$board_layout" "$dtb" >&2 || return 1
	fi
	echo "-machine virt -cpu cortex-a57 -dtb $dtb"
}

board_modparams() {
	# The frequency tables come from the device tree.
	echo "cpufreq_emu emulate_speed=$emulate_speed"
}
