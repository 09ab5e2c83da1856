# Board definition sourced by scripts/vm (placeholder: plain virt machine).
# shellcheck shell=sh
board_arch=arm64

board_qemu_args() {
	echo "-machine virt -cpu cortex-a57"
}

board_modparams() {
	:
}
