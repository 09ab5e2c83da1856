# SPDX-License-Identifier: GPL-2.0
# AddressSanitizer/UBSan for the host tools' unit tests (scripts/*/Makefile).
#
# $(call san_ok,CC) is "yes" when CC compiles and links a program with
# $(SAN), i.e. the sanitizer runtimes are installed.  The check targets
# probe with it and then build their sanitizer binaries without hiding the
# compiler's output, so that a real build error fails the check instead of
# passing for a missing runtime.
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
san_ok = $(shell echo 'int main(void) { return 0; }' | \
	$(1) $(SAN) -x c - -o /dev/null 2>/dev/null && echo yes)
