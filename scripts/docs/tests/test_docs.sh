#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Tests of docs.py: a small tree with one page and one data file, checked
# as it is (passes) and broken in each way the check must catch.
#
#   sh tests/test_docs.sh PATH/TO/schedcmp
set -eu

SCHEDCMP=${1:?usage: test_docs.sh PATH/TO/schedcmp}
case $SCHEDCMP in /*) ;; *) SCHEDCMP=$(pwd)/$SCHEDCMP ;; esac
export SCHEDCMP
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=scripts/tap.sh
. "$(dirname "$0")/../../tap.sh"

# A tree: scripts/docs/docs.py, Documentation/{page.rst,data/run.tsv}
tree() {
	rm -rf "$tmp/t"
	mkdir -p "$tmp/t/scripts/docs" "$tmp/t/Documentation/data"
	cp "$here/docs.py" "$here/pagenumbers.py" "$tmp/t/scripts/docs/"
	{
		echo '# columns: benchmark parameter setting round value unit direction timestamp'
		echo '# host-command: make bench'
		echo '# board: test'
		echo '# date: 2026-12-01T00:00:00Z'
		echo '# kernel: 6.12.0-test'
		echo '# series: 0000000'
		echo '# settings: bench: A B'
		r=1
		while [ "$r" -le 6 ]; do
			printf 'bench\tp\tA\t%d\t1.%d\ts\tlower\t%d\n' "$r" "$r" $((1700000000 + 2 * r))
			printf 'bench\tp\tB\t%d\t2.%d\ts\tlower\t%d\n' "$r" "$r" $((1700000001 + 2 * r))
			r=$((r + 1))
		done
	} >"$tmp/t/Documentation/data/run.tsv"
	table=$(python3 "$tmp/t/scripts/docs/docs.py" table run bench)
	change=$(python3 "$tmp/t/scripts/docs/docs.py" facts run | sed -n 's|^bench/p/B change = ||p')
	cat >"$tmp/t/Documentation/page.rst" <<EOT
Results
=======

\`\`make docs-table DATA=Documentation/data/run.tsv BENCH=bench\`\` prints:

$table

.. data: run bench/p/B: change

B changed the time by $change against A.
EOT
}

check() { # NAME EXPECTED-MESSAGE (empty: must pass)
	rc=0
	python3 "$tmp/t/scripts/docs/docs.py" check >"$tmp/out" 2>&1 || rc=$?
	if [ -z "$2" ]; then
		if [ "$rc" -eq 0 ]; then ok "$1"; else fail "$1"; cat "$tmp/out"; fi
	elif [ "$rc" -ne 0 ] && grep -q "$2" "$tmp/out"; then
		ok "$1: $(grep -m1 "$2" "$tmp/out")"
	else
		fail "$1 (rc $rc, wanted '$2')"
		cat "$tmp/out"
	fi
}

page=$tmp/t/Documentation/page.rst
data=$tmp/t/Documentation/data/run.tsv

tree
check "the tree as generated passes" ""
proved() { sed -n 's/.*a changed digit was caught in each of \([0-9]*\) numbers.*/\1/p' "$tmp/out"; }
nproved=$(proved)

tree
sed -i 's/^bench\tp\tB\t3\t2\.3/bench\tp\tB\t3\t2.9/' "$data"
check "a changed sample breaks the table" "page.rst:[0-9]*: the table does not follow from"

tree
sed -i 's/^B changed the time by .* against A\./B changed the time by +1.0% against A./' "$page"
check "a wrong number in the paragraph" "does not say bench/p/B change"

tree
sed -i 's|^\.\. data: run bench/p/B: change|.. data: run bench/p/B: nonsense|' "$page"
check "an unknown fact" "has no fact 'bench/p/B nonsense'"

tree
sed -i '/^# board:/d' "$data"
check "a data file without its board line" "run.tsv: no '# board:' line"

tree
cp "$data" "$tmp/t/Documentation/data/unused.tsv"
check "a data file no page uses" "unused.tsv: no page shows"

tree
mkdir -p "$tmp/t/Documentation/images"
: >"$tmp/t/Documentation/images/stray.png"
check "an image no page shows" "stray.png: no page shows this image"

tree
sed -i '/docs-table/q' "$page"
check "a docs-table command without its table" "no table follows this docs-table command"

tree
printf 'other\tq\tA\t1\t1.0\ts\tlower\nother\tq\tB\t1\t1.1\ts\tlower\n' >>"$data"
check "a benchmark whose changed sample nothing notices" "can change without any page noticing"

# Against another base: a table and a fact, right and wrong.
tree
{
	echo
	# shellcheck disable=SC2016 # the backquotes are reStructuredText's
	echo '``make docs-table DATA=Documentation/data/run.tsv BENCH=bench BASE=B`` prints:'
	echo
	python3 "$tmp/t/scripts/docs/docs.py" table run@B bench
	echo
	echo '.. data: run@B bench/p/A: change'
	echo
	echo "A changed the time by $(python3 "$tmp/t/scripts/docs/docs.py" facts run@B |
		sed -n 's|^bench/p/A change = ||p') against B."
} >>"$page"
check "a table and a fact against base B pass" ""
if grep -q '^A changed the time by +' "$page"; then
	ok "against B, A is better"
else
	fail "against B, A is better"
fi
sed -i 's/^A changed the time by .* against B\./A changed the time by '"$change"' against B./' "$page"
check "a fact against B quoted from base A" "does not say bench/p/A change"
tree
{
	echo
	# shellcheck disable=SC2016 # the backquotes are reStructuredText's
	echo '``make docs-table DATA=Documentation/data/run.tsv BENCH=bench BASE=B`` prints:'
	echo
	echo "$table"
} >>"$page"
check "a table against B that is base A's" "does not follow from .*BASE=B)"

# README.md: a markdown table after "<!-- data: -->" lines is checked too.
tree
cat >"$tmp/t/README.md" <<EOT
# t

<!-- data: run bench/p/B: change -->
| setting | change |
|---|---|
| B | $change |
EOT
check "a README table that says what its data give" ""
sed -i "s/^| B | .* |$/| B | +1.0% |/" "$tmp/t/README.md"
check "a wrong number in a README table" "README.md:[0-9]*: the paragraph does not say bench/p/B change"

# Every number of a page has a source (pagenumbers.py).
tree
printf '\nThe run had 6 rounds of each setting.\n' >>"$page"
check "a number without a source" "page.rst:[0-9]*: 6 (1 time) has no source"
sed -i 's/^The run had 6 rounds/.. numbers: data\/run.tsv: 6\n\nThe run had 6 rounds/' "$page"
check "a number from its data file" ""
if [ "$(proved)" -eq $((nproved + 1)) ]; then
	ok "the check changes that number and sees the page fail"
else
	fail "the check changes that number and sees the page fail"
fi
sed -i 's/^The run had 6 rounds/The run had 7 rounds/; s/^\.\. numbers: data\/run.tsv: 6/.. numbers: data\/run.tsv: 7/' "$page"
check "a number its data file does not have" "page.rst:[0-9]*: 7 is not in data/run.tsv"
sed -i 's/^The run had 7 rounds/The run had 6 rounds/; s/^\.\. numbers: data\/run.tsv: 7/.. numbers: data\/run.tsv: 6 6/' "$page"
check "a number listed twice and said once" "6 is listed 1 more time than the block says it"
sed -i 's/^\.\. numbers: data\/run.tsv: 6 6/.. numbers: nowhere: 6/' "$page"
check "a source of no known kind" "the source 'nowhere' is none of"
sed -i 's/^\.\. numbers: nowhere: 6/.. numbers: cite:https:\/\/example.org\/paper: 6/' "$page"
check "a number cited from outside" ""
sed -i 's/^The run had 6 rounds/The run had 5 rounds/' "$page"
check "a changed digit after its source" "5 (1 time) has no source"
tree
printf '\nOn 4 CPUs::\n\n  make run\n\n  x86_64: 57 passed\n' >>"$page"
check "a literal block's numbers, blank lines and all" "57 (1 time) has no source"

tree
cat >"$tmp/t/README.md" <<EOT
# t

Built in 8 minutes.
EOT
check "a README number without a source" "README.md:3: 8 (1 time) has no source"
sed -i 's/^Built in 8/<!-- numbers: data\/run.tsv: 8 -->\nBuilt in 8/' "$tmp/t/README.md"
check "a README number its data file does not have" "8 is not in data/run.tsv"

tap_end docs
