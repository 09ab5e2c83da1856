# schedstack: scheduler and cpufreq patches for Linux v6.12, with the
# pipeline to build, boot, test and benchmark them.  See README.md.

ARCH ?= x86_64
CONFIG ?=
BENCH ?=
ROUNDS ?=
BOOTS ?=
STRESS_ARCHES ?= x86_64 arm64
EXPECTED_ARCHES ?= x86_64 arm64
STRESS_SECONDS ?= 80
SEED ?=
FAULT ?= tests/faults/steal-stale-llc-mask.patch
MUTANTS ?=

SHELL := /bin/bash
.DEFAULT_GOAL := help
.PHONY: help deps tree export kernel modules selftests initramfs vm-ready \
	mbox run expected check check-bisect check-mutants configs bench bench-kernels stress stress-fault clean

help:
	@echo "make run [ARCH=x86_64|arm64]   build, boot and test one VM (KUnit + kselftests)"
	@echo "make check                      everything CI checks, both arches"
	@echo "make expected [EXPECTED_ARCHES=..] boot and rewrite tests/expected/ARCH.txt"
	@echo "make check-bisect               every prefix of the series builds (both arches)"
	@echo "make check-mutants [MUTANTS=..] each tests/mutants patch breaks a feature: the tests it names must fail"
	@echo "make tree                       build/linux: the patched tree, one commit per patch"
	@echo "make export                     write build/linux's commits back to patches/"
	@echo "make mbox                       build/mbox/schedstack.mbox: cover letter + series, checked with b4 am"
	@echo "make kernel ARCH=...            the VM kernel in build/ARCH (CONFIG=debug: build/ARCH-debug)"
	@echo "make kselftest-install ARCH=... the kselftests in the kernel's layout (run_kselftest.sh)"
	@echo "make configs                    regenerate and check the board defconfigs"
	@echo "make config-matrix              W=1 builds (and links) of the config corners: no new warning"
	@echo "make board-kernels [BOARDS=..]  the real boards' kernels, built and booted on the emulated boards"
	@echo "make lava [LAVA_URL=...]        build/lava: the kselftests as LAVA jobs, and their artifacts"
	@echo "make lava-check                 the jobs checked and the QEMU ones run by LAVA's dispatcher"
	@echo "make bench [BENCH=..] [ROUNDS=N] A/B benchmarks in the VM"
	@echo "make bench-kernels [BOOTS=N]    v6.12 against the series (knobs at defaults)"
	@echo "make docs-table DATA=F [BENCH=B] [BASE=S]  a table of Documentation/ from its data F"
	@echo "make docs-check                 every documented table and number follows from its data or names its source"
	@echo "make stress [SEED=N]            the stress kselftest on the debug kernels of both boards"
	@echo "make stress-fault [FAULT=PATCH] show that the stress fails with a deliberate bug"

deps:
	@scripts/deps

tree: deps
	@scripts/tree

export:
	@scripts/export

mbox: tree
	@scripts/mbox --check

kernel: tree
	@scripts/kernel $(ARCH) $(CONFIG)
	@KOUT=$(if $(CONFIG),build/$(ARCH)-$(CONFIG)) scripts/modules $(ARCH)
	@if [ "$(ARCH)" = arm64 ]; then scripts/board-dtb -c 4 build/arm64$(if $(CONFIG),-$(CONFIG))/board.dtb; fi

selftests: kernel
	@KOUT=$(if $(CONFIG),build/$(ARCH)-$(CONFIG)) scripts/selftests $(ARCH)

# The same kselftests as "make -C tools/testing/selftests install" lays
# them out, for a root file system: build/ARCH/kselftest_install(.tar.xz).
.PHONY: kselftest-install
kselftest-install: selftests
	@KOUT=$(if $(CONFIG),build/$(ARCH)-$(CONFIG)) scripts/kselftest-install $(ARCH)

initramfs: deps
	@scripts/initramfs $(ARCH)

vm-ready: selftests initramfs

run: vm-ready
	@scripts/run $(ARCH)

# The expected results are a reviewed promise: rewrite them from real boots.
expected: deps
	@for a in $(EXPECTED_ARCHES); do \
		$(MAKE) --no-print-directory vm-ready ARCH=$$a && \
		WRITE_EXPECTED=1 scripts/run $$a || exit 1; \
	done
	@git --no-pager diff --stat -- tests/expected

check: deps
	@scripts/check

check-bisect: tree
	@scripts/check-bisect

check-mutants: tree
	@scripts/check-mutants $(MUTANTS)

configs: tree
	@scripts/configs

# Too slow for make check: an hour and more on 2 cores.
BOARDS ?=
.PHONY: board-kernels
board-kernels: tree
	@scripts/board-kernels $(BOARDS)

.PHONY: config-matrix
config-matrix: tree
	@scripts/config-matrix

# LAVA (Documentation/lava.rst).  The VM kernels are built only where
# they are missing.
LAVA_ARCHES := x86_64 arm64
.PHONY: lava lava-built lava-devices lava-check
lava-built:
	@for a in $(LAVA_ARCHES); do \
		[ -f build/$$a/kselftest/kselftest-list.txt ] && [ -d build/initramfs ] || \
		$(MAKE) --no-print-directory vm-ready ARCH=$$a || exit 1; \
	done

lava: deps lava-built
	@scripts/lava/make-jobs

# configs/lava/device-*.yaml, rendered by LAVA's own device-type templates
lava-devices: deps lava-built
	@scripts/lava/check --write-devices

# the jobs checked by LAVA's schema and dispatcher, the QEMU ones run
lava-check: deps lava-built
	@scripts/lava/check

bench: vm-ready
	@ROUNDS=$(ROUNDS) scripts/bench-vm $(ARCH) $(BENCH)

bench-kernels: vm-ready
	@ROUNDS=$(ROUNDS) BOOTS=$(BOOTS) scripts/bench-kernels $(ARCH) $(BENCH)

# Documentation/'s tables and quoted numbers, from Documentation/data/.
.PHONY: docs-table docs-check
docs-table:
	@if [ -z "$(DATA)" ]; then \
		echo "make docs-table DATA=Documentation/data/FILE.tsv [BENCH=NAME] [BASE=SETTING]" >&2; exit 2; fi
	@scripts/docs/docs table $(DATA)$(if $(BASE),@$(BASE)) $(BENCH)

docs-check:
	@scripts/docs/docs check

stress: tree
	@scripts/stress $(foreach a,$(STRESS_ARCHES),--arch $(a)) \
		--seconds $(STRESS_SECONDS) $(if $(SEED),--seed $(SEED))

stress-fault: tree
	@scripts/stress --arch x86_64 --fault $(FAULT) $(if $(SEED),--seed $(SEED))

clean:
	rm -rf build
