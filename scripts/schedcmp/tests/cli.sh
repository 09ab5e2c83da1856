#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Command-line tests of schedcmp: the acceptance cases of the benchmark
# tooling (identical samples, a 10% shift, garbage lines) and the outputs.
#
#   sh tests/cli.sh PATH/TO/schedcmp
set -eu

SCHEDCMP=${1:?usage: cli.sh PATH/TO/schedcmp}
case $SCHEDCMP in /*) ;; *) SCHEDCMP=$(pwd)/$SCHEDCMP ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck source=scripts/tap.sh
. "$(dirname "$0")/../../tap.sh"

# gen FILE SCALE: 10 rounds of two settings A and B; B = A * SCALE.
# Values spread by about +-1% around 2.0 s.
gen() {
	awk -v scale="$2" 'BEGIN {
		print "# kernel: 6.12.0-test"
		print "# config: test"
		print "# series: 0000000"
		print "# seed: 1"
		print "# settings: A B"
		for (r = 1; r <= 10; r++) {
			v = 2.0 * (1 + ((r * 7) % 11 - 5) / 500)
			printf "hackbench\tg1-process-pipe\tA\t%d\t%.6f\ts\tlower\t%d\n", r, v, 1700000000 + r
			printf "hackbench\tg1-process-pipe\tB\t%d\t%.6f\ts\tlower\t%d\n", r, v * scale, 1700000000 + r
		}
	}' >"$1"
}

# mean_row FILE: the "Mean" line of the table in FILE
mean_row() {
	grep '^Mean ' "$1"
}

gen "$tmp/same.tsv" 1.0
gen "$tmp/faster.tsv" 0.9

# 1. identical settings in one file: 0% and no star
if "$SCHEDCMP" "$tmp/same.tsv" >"$tmp/out" 2>&1 &&
	mean_row "$tmp/out" | grep -q '(   0.00%) *$' &&
	! grep -q '\*$' "$tmp/out"; then
	ok "identical samples: 0%, no star"
else
	fail "identical samples: 0%, no star"; cat "$tmp/out"
fi

# 2. two copies of the same file: every copy column 0%, no star
cp "$tmp/same.tsv" "$tmp/copy.tsv"
if "$SCHEDCMP" --base same/A "$tmp/same.tsv" "$tmp/copy.tsv" >"$tmp/out" 2>&1 &&
	grep -q 'copy/A' "$tmp/out" &&
	[ "$(mean_row "$tmp/out" | grep -o '0\.00%' | wc -l)" -eq 4 ] &&
	! grep -v '^%' "$tmp/out" | grep -q '\*'; then
	ok "two copies: 0%, no star"
else
	fail "two copies: 0%, no star"; cat "$tmp/out"
fi

# 3. B 10% faster with ~1% spread: about +10% with a star
if "$SCHEDCMP" "$tmp/faster.tsv" >"$tmp/out" 2>&1 &&
	mean_row "$tmp/out" | grep -q '(  10\.00%)\*$' &&
	grep -q '^CI95 change .*\[+9\.[0-9]*%, +10\.[0-9]*%\]\*$' "$tmp/out"; then
	ok "10% shift: +10.00% with a star"
else
	fail "10% shift: +10.00% with a star"; cat "$tmp/out"
fi

# 4. across files: kernel X vs kernel Y
awk '$3 == "A" || /^#/' "$tmp/same.tsv" >"$tmp/base.tsv"
awk '/^#/ { print; next } $3 == "B" { $3 = "A"; print }' OFS='\t' "$tmp/faster.tsv" >"$tmp/new.tsv"
if "$SCHEDCMP" "$tmp/base.tsv" "$tmp/new.tsv" >"$tmp/out" 2>&1 &&
	grep -q 'base/A' "$tmp/out" && grep -q 'new/A' "$tmp/out" &&
	mean_row "$tmp/out" | grep -q '(  10\.00%)\*$'; then
	ok "file against file"
else
	fail "file against file"; cat "$tmp/out"
fi

# 5. garbage and NaN lines: file:line named, exit status 1
bad() { # NAME LINE-TO-INSERT EXPECTED-MESSAGE
	{ head -n 7 "$tmp/same.tsv"; printf '%s\n' "$2"; tail -n +8 "$tmp/same.tsv"; } >"$tmp/$1.tsv"
	rc=0
	"$SCHEDCMP" "$tmp/$1.tsv" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq 1 ] && grep -q "$1.tsv:8: .*$3" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$1 line: '$(cat "$tmp/err")'"
	else
		fail "$1 line (rc $rc)"; cat "$tmp/err" "$tmp/out"
	fi
}
bad garbage 'this is not a sample' 'expected 7 or 8 fields'
bad nan "$(printf 'hackbench\tg1-process-pipe\tA\t3\tnan\ts\tlower')" 'not a finite number'
bad word "$(printf 'hackbench\tg1-process-pipe\tA\t3\tTime:\ts\tlower')" 'not a number'
bad direction "$(printf 'hackbench\tg1-process-pipe\tA\t3\t1.0\ts\tbetter')" 'lower.*higher'
bad conflict "$(printf 'hackbench\tg1-process-pipe\tA\t3\t1.0\tms\thigher')" 'but .s, lower is better. before'

# 6. n = 1 and zero variance notes
printf '# settings: A B\nb p A 1 5 s lower\nb p A 2 5 s lower\nb p B 1 4 s lower\n' >"$tmp/n1.tsv"
if "$SCHEDCMP" "$tmp/n1.tsv" >"$tmp/out" 2>&1 &&
	grep -q 'note: B: n = 1, no variance and no confidence interval' "$tmp/out" &&
	! grep -v '^%' "$tmp/out" | grep -q '\*'; then
	ok "n = 1: note, no CI, no star"
else
	fail "n = 1: note, no CI, no star"; cat "$tmp/out"
fi

# 7. empty input and missing files are errors; skipped-only input is not
: >"$tmp/empty.tsv"
if ! "$SCHEDCMP" "$tmp/empty.tsv" >/dev/null 2>"$tmp/err" && grep -q 'no samples' "$tmp/err" &&
	! "$SCHEDCMP" "$tmp/missing.tsv" 2>/dev/null; then
	ok "empty or missing file: error"
else
	fail "empty or missing file: error"
fi
printf '# skipped: hackbench: no STEAL in /sys/kernel/debug/sched/features\n' >"$tmp/skip.tsv"
if "$SCHEDCMP" "$tmp/skip.tsv" >"$tmp/out" 2>&1 && grep -q 'skipped: hackbench: no STEAL' "$tmp/out"; then
	ok "skipped-only input: reasons shown, exit 0"
else
	fail "skipped-only input: reasons shown, exit 0"; cat "$tmp/out"
fi

# 8. JSON and plots
if "$SCHEDCMP" --json "$tmp/out.json" --plot "$tmp/plots" "$tmp/faster.tsv" >/dev/null 2>"$tmp/err" &&
	grep -q '"significant": true' "$tmp/out.json" &&
	[ -s "$tmp/plots/hackbench-g1-process-pipe.gp" ] &&
	[ -s "$tmp/plots/hackbench-g1-process-pipe.dat" ]; then
	ok "--json and --plot write their files"
else
	fail "--json and --plot write their files"; cat "$tmp/err"
fi
if command -v python3 >/dev/null 2>&1; then
	if python3 -m json.tool "$tmp/out.json" >/dev/null; then
		ok "JSON is well-formed"
	else
		fail "JSON is well-formed"
	fi
fi
if command -v gnuplot >/dev/null 2>&1; then
	if [ -s "$tmp/plots/hackbench-g1-process-pipe.png" ]; then
		ok "gnuplot made the PNG"
	else
		fail "gnuplot made the PNG"
	fi
fi

# 9. --pooled: pairs by round over parameters, the log ratio's interval
awk '/^#/ { print; next } { print; p = $0; sub(/g1-process-pipe/, "g2-process-pipe", p); print p }' \
	"$tmp/faster.tsv" >"$tmp/two.tsv"
if "$SCHEDCMP" --pooled --json "$tmp/pool.json" "$tmp/two.tsv" >"$tmp/out" 2>&1 &&
	grep -q '^hackbench (s, lower is better): B against A, 20 pairs from 2 parameters: change +10\.00%\*, CI95 \[+10\.00%, +10\.00%\]\*' "$tmp/out" &&
	grep -q '"pairs": 20, "parameters": 2' "$tmp/pool.json"; then
	ok "--pooled: 20 pairs of two parameters, +10%"
else
	fail "--pooled: 20 pairs of two parameters, +10%"; cat "$tmp/out"
fi
if "$SCHEDCMP" "$tmp/two.tsv" >"$tmp/out" 2>&1 && ! grep -q '^pooled' "$tmp/out"; then
	ok "no pooling without --pooled"
else
	fail "no pooling without --pooled"; cat "$tmp/out"
fi
{ cat "$tmp/same.tsv"; printf 'hackbench\tg1-process-pipe\tB\t11\t0\ts\tlower\n'; printf 'hackbench\tg1-process-pipe\tA\t11\t1\ts\tlower\n'; } >"$tmp/zero.tsv"
rc=0
"$SCHEDCMP" --pooled "$tmp/zero.tsv" >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 1 ] && grep -q 'zero.tsv:26: .*cannot be pooled' "$tmp/err"; then
	ok "--pooled refuses a value of 0: '$(cat "$tmp/err")'"
else
	fail "--pooled refuses a value of 0 (rc $rc)"; cat "$tmp/err"
fi
{ cat "$tmp/same.tsv"; printf 'hackbench\tg1-process-pipe\tB\t10\t2\ts\tlower\n'; } >"$tmp/twice.tsv"
rc=0
"$SCHEDCMP" --pooled "$tmp/twice.tsv" >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ "$rc" -eq 1 ] && grep -q 'two runs in this round' "$tmp/err"; then
	ok "--pooled refuses a run recorded twice"
else
	fail "--pooled refuses a run recorded twice (rc $rc)"; cat "$tmp/err"
fi

# 10. --order: the first run of every round 10% slower, a 20% step after
# round 5; and no positions without timestamps
awk 'BEGIN { print "# settings: A B"; t = 1700000000
	for (r = 1; r <= 10; r++) {
		a = r % 2 ? "A" : "B"; b = r % 2 ? "B" : "A"
		v = 2.0 * (1 + ((r * 7) % 11 - 5) / 500) * (r > 5 ? 1.2 : 1)
		printf "h\tp\t%s\t%d\t%.6f\ts\tlower\t%d\n", a, r, v * 1.1, t++
		printf "h\tp\t%s\t%d\t%.6f\ts\tlower\t%d\n", b, r, v, t++
	} }' >"$tmp/order.tsv"
if "$SCHEDCMP" --order --json "$tmp/order.json" "$tmp/order.tsv" >"$tmp/out" 2>&1 &&
	grep -q '^h (s, lower is better) run 1 of its round, 10 runs: change -4\.88%\*' "$tmp/out" &&
	grep -q '^h p A, 5 against 5 runs: change -1[0-9]\.[0-9]*%\*, CI95 \[-[0-9.]*%, -[0-9.]*%\]\*' "$tmp/out" &&
	grep -q '"position": 2, "runs": 10' "$tmp/order.json"; then
	ok "--order: a slower first run and a step are found"
else
	fail "--order: a slower first run and a step are found"; cat "$tmp/out"
fi
awk '/^#/ || NF < 8 { print; next } { NF = 7; print }' OFS='\t' "$tmp/order.tsv" >"$tmp/nots.tsv"
if "$SCHEDCMP" --order "$tmp/nots.tsv" >"$tmp/out" 2>&1 && ! grep -q 'of its round' "$tmp/out" &&
	grep -q '^h p B, 5 against 5 runs' "$tmp/out"; then
	ok "--order without timestamps: halves by round, no positions"
else
	fail "--order without timestamps: halves by round, no positions"; cat "$tmp/out"
fi

# 11. usage errors
rc=0
"$SCHEDCMP" --bogus x 2>/dev/null || rc=$?
if [ "$rc" -eq 2 ]; then ok "unknown option: exit 2"; else fail "unknown option: exit $rc"; fi

tap_end cli
