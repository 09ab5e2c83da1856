# Board definition sourced by scripts/vm (placeholder: plain QEMU machine).
# shellcheck shell=sh
board_arch=x86_64

board_qemu_args() {
	echo "-machine pc -cpu SandyBridge"
}

board_modparams() {
	:
}
