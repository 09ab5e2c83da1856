#!/bin/bash
# One digit changed on a page, then make docs-check; the page put back.
# Run from the top of the project:
#   bash Documentation/data/docs-check-20261207/one-digit.sh > one-digit.txt
set -u
change() { # PAGE FROM TO
	cp "$1" "$1.orig"
	python3 -c 'import sys; p, a, b = sys.argv[1:]; s = open(p).read(); assert a in s; open(p, "w").write(s.replace(a, b, 1))' "$@"
	echo "\$ # $1: '$2' -> '$3'"
	echo "\$ make docs-check"
	make -s docs-check 2>&1 | grep -v 'sample of' | sed 's/^/  /'
	echo "  (exit ${PIPESTATUS[0]})"
	mv "$1.orig" "$1"
}
change Documentation/knobs.rst '0 .. 32768' '0 .. 32769'
change Documentation/boards.rst '533/999/1402/1709/1844' '533/999/1402/1709/1845'
change README.md 'halflife 32, 16, 8 ms' 'halflife 32, 16, 9 ms'
change Documentation/stress.rst 'stress-ng 0.15' 'stress-ng 0.16'
