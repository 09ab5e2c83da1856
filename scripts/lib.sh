# Helpers shared by the pipeline scripts (sourced, POSIX sh).
# shellcheck shell=sh

die() {
	echo "error: $*" >&2
	exit 1
}

warn() {
	echo "warning: $*" >&2
}

# A progress line, prefixed with the script's name.
step() {
	echo "[$(basename "$0")] $*"
}

as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		die "need root to run: $* (install sudo or run as root)"
	fi
}

apt_updated=
apt_install() {
	if [ -z "$apt_updated" ]; then
		as_root apt-get update -q >/dev/null
		apt_updated=1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -q --no-install-recommends "$@" >/dev/null
}

# Print the arches the pipeline knows, one per line.
known_arches() {
	printf '%s\n' x86_64 arm64
}

check_arch() {
	case "$1" in
	x86_64 | arm64) ;;
	*) die "unknown ARCH '$1': use one of: $(known_arches | tr '\n' ' ')" ;;
	esac
}

# The emulated board scripts/vm boots for an arch unless told --board.
default_board() {
	case "$1" in
	x86_64) echo sandybridge ;;
	arm64) echo hikey960 ;;
	esac
}

# Kernel ARCH= value and cross compiler prefix for one of our arches.
kbuild_arch() {
	case "$1" in
	x86_64) echo x86 ;;
	arm64) echo arm64 ;;
	esac
}

cross_compile() {
	case "$1" in
	x86_64) [ "$(uname -m)" = x86_64 ] || echo x86_64-linux-gnu- ;;
	arm64) [ "$(uname -m)" = aarch64 ] || echo aarch64-linux-gnu- ;;
	esac
}

jobs() {
	echo $(($(nproc) + 1))
}

# Print "SYMBOL (from FRAGMENT: want W, got G)" for every requested symbol
# of the fragments $2... that CONFIG ($1) does not have.
lost_symbols() {
	config=$1
	shift
	for f in "$@"; do
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*)
				sym=${line%%=*}
				grep -qxF "$line" "$config" ||
					echo "$sym (from $f: want ${line#*=}, got $(sed -n "s/^$sym=//p" "$config" | grep . || echo unset))"
				;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }
				sym=${sym%% *}
				! grep -q "^$sym=" "$config" || echo "$sym (from $f: want unset)"
				;;
			esac
		done <"$f"
	done
}

# ccache_basedir DIR...: unless CCACHE_BASEDIR is set, set it to the
# deepest directory that holds every DIR (the kernel tree and the output
# directory), so that ccache hands the compiler those paths relative to
# the output directory and finds the objects of the same build made from a
# checkout in another directory (a CI clone).  Nothing in common: unset.
ccache_basedir() {
	[ -z "${CCACHE_BASEDIR:-}" ] || return 0
	_cb=$(realpath -m "$1")
	shift
	for _d in "$@"; do
		_d=$(realpath -m "$_d")
		while [ "$_cb" != / ]; do
			case "$_d/" in "$_cb"/*) break ;; esac
			_cb=$(dirname "$_cb")
		done
	done
	[ "$_cb" = / ] || export CCACHE_BASEDIR="$_cb"
}

# tcg_threads MODE ARCH KOUT: multi or single, QEMU's TCG threading for a
# boot of the ARCH kernel in KOUT.  MODE is multi (a host thread per vCPU),
# single (one host thread runs every vCPU in turn) or auto: single for an
# x86_64 kernel with CONFIG_JUMP_LABEL=y, multi otherwise.  Such a kernel
# patches its static branches live with the INT3 protocol of
# text_poke_bp(), and on QEMU 7.2's multi-threaded TCG a vCPU can go on
# running a translation of the INT3 after the patch is done: it oopses
# ("Oops: int3") in a hot path within a minute of toggling a key with
# sites there, the upstream sched_schedstats key as well as STEAL's
# (Documentation/boards.rst).  The VM kernels have no CONFIG_JUMP_LABEL,
# and arm64 patches one instruction at a time with no INT3.
tcg_threads() {
	case "$1" in
	multi | single) echo "$1" ;;
	auto)
		if [ "$2" = x86_64 ] && grep -qx 'CONFIG_JUMP_LABEL=y' "$3/.config" 2>/dev/null; then
			echo single
		else
			echo multi
		fi
		;;
	*) die "TCG threading '$1': use multi, single or auto" ;;
	esac
}

# speed_emulation MODE KOUT: 1 or 0, the emulate_speed of cpufreq_emu for
# a boot of the kernel in KOUT.  MODE is on, off or auto (on, unless the
# kernel accounts IRQ time: the driver refuses to emulate speed then, as
# the time it takes would show as IRQ pressure, so auto gives 0 for the
# real boards' kernels).  on with such a kernel is an error.
speed_emulation() {
	_irqtime=
	grep -qx 'CONFIG_IRQ_TIME_ACCOUNTING=y' "$2/.config" 2>/dev/null && _irqtime=1
	case "$1" in
	on)
		[ -z "$_irqtime" ] ||
			die "speed emulation needs CONFIG_IRQ_TIME_ACCOUNTING off, and $2/.config has it on: use --speed off or auto"
		echo 1
		;;
	off) echo 0 ;;
	auto) if [ -n "$_irqtime" ]; then echo 0; else echo 1; fi ;;
	*) die "speed emulation '$1': use on, off or auto" ;;
	esac
}
