# Build a schedstack kselftest target standalone, against a kernel tree.
#
# Inside a kernel tree (the targets installed under tools/testing/selftests)
# "include ../lib.mk" reaches the kernel's own lib.mk and this file is not
# used.  Here it forwards to the lib.mk of KSRC (default: the project's
# patched tree, build/linux), hiding itself from MAKEFILE_LIST because the
# kernel's lib.mk finds its own directory by looking for "%/lib.mk" there.
# Evaluated now: MAKEFILE_LIST still ends with this file.
SCHEDSTACK_SELFTESTS := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
KSRC ?= $(SCHEDSTACK_SELFTESTS)/../build/linux
ifeq ($(wildcard $(KSRC)/tools/testing/selftests/lib.mk),)
$(error KSRC=$(KSRC) has no tools/testing/selftests/lib.mk: set KSRC to a kernel tree)
endif
MAKEFILE_LIST := $(filter-out $(lastword $(MAKEFILE_LIST)),$(MAKEFILE_LIST))
include $(KSRC)/tools/testing/selftests/lib.mk
