# A DynamIQ-like variant of the emulated Hikey960 board (arm64), sourced by
# scripts/vm.
#
# The Hikey960's CPUs, OPP tables and energy model, but in one cluster
# that shares one L3 cache, as Arm's DynamIQ clusters mix big and LITTLE
# cores: the last-level cache domain holds CPUs of two capacities, which
# the Hikey960's two clusters never do.  CPUs 0..N/2-1 are LITTLE, the
# others big; each half keeps its own frequency domain.
# shellcheck shell=sh
# shellcheck source=scripts/boards/hikey960.sh
. "${here:-$(pwd)/scripts}/boards/hikey960.sh"
# Read by hikey960.sh's board_qemu_args.
# shellcheck disable=SC2034
board_layout=dynamiq
