#!/bin/sh
# schedtrace on traces recorded by the tests themselves in the guest.
# Usage: tests/vmcheck.sh PATH/TO/schedtrace [x86_64|arm64]
# (KOUT as for scripts/vm; VMCHECK_OUT: the directory for the traces and
# reports, VMCHECK_LOG: the console log, default VMCHECK_OUT/console.log)
set -eu

tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
arch=${2:-x86_64}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${VMCHECK_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/schedtrace-vm.XXXXXX")}
mkdir -p "$out"
log=${VMCHECK_LOG:-$out/console.log}
# shellcheck source=scripts/tap.sh
. "$top/scripts/tap.sh"

# run_tool STATUS PATTERN ARGS...: exit status and a pattern in its output.
run_tool() {
	want=$1
	pattern=$2
	shift 2
	st=0
	"$tool" "$@" >"$out/stdout" 2>"$out/stderr" || st=$?
	if [ "$st" -eq "$want" ] && cat "$out/stdout" "$out/stderr" | grep -q -- "$pattern"; then
		ok "schedtrace $* (exit $st)"
	else
		fail "schedtrace $*: exit $st (want $want, output matching '$pattern'):"
		sed 's/^/    /' "$out/stdout" "$out/stderr"
	fi
}

echo "# recording in the $arch guest into $out"
# hikey960 has 2 + 2 CPUs at least; Sandy Bridge is timed with 2.
cpus=2
[ "$arch" = x86_64 ] || cpus=4
if "$top/scripts/vm" --out "$out" --arch "$arch" --cpus "$cpus" --timeout 300 \
	--log "$log" --add "$here/guest-record.sh:/root/guest-record.sh" \
	-- sh /root/guest-record.sh >"$out/guest.log" 2>&1; then
	ok "guest checks and recording"
else
	fail "guest checks and recording:"
	sed 's/^/    /' "$out/guest.log"
fi
grep '^ok\|^not ok' "$out/guest.log" | sed 's/^/# /' || true

for f in full.dat all.dat switch-only.dat thermal.dat steal-STEAL.dat \
	steal-NO_STEAL.dat; do
	if [ -s "$out/$f" ]; then ok "$f came back"; else fail "$f came back"; fi
done

# The hog's ramp to 80%: PELT's 32 ms halflife gives 74 ms from zero (78.8
# ms measured in this guest, NOTES.md); the guest is noisy (a starved vCPU
# delays the samples), so only a wide band (multiplier 2 or 4 would be
# below it) is asserted.
hog=$(sed -n 's/^hog-pid \([0-9]*\)$/\1/p' "$out/guest.log")
# --ramp-from 50: the ramp after the sleep, not the one of fork and exec.
run_tool 0 "util 80%" --pid "${hog:-0}" --ramp-from 50 "$out/full.dat"
ms=$("$tool" --pid "${hog:-0}" --ramp-from 50 --json "$out/full.dat" |
	python3 -c 'import json,sys
t = json.load(sys.stdin)["tasks"]
print(t[0]["ramps"][0]["ms"] if t and t[0]["ramps"][0]["ms"] is not None else "none")' || echo none)
case "$ms" in
none) fail "the hog (pid ${hog:-?}) reached 80% util" ;;
*)
	if python3 -c "import sys; sys.exit(0 if 45 <= $ms <= 225 else 1)"; then
		ok "time to 80% util $ms ms is within 45..225 ms"
	else
		fail "time to 80% util $ms ms is outside 45..225 ms"
	fi
	;;
esac

run_tool 0 "cpu0" --out "$out/report" --plot --util-fraction 0.5 \
	--util-fraction 0.8 "$out/full.dat"
for f in util.csv capacity.csv cpus.csv summary.json util.png; do
	if [ -s "$out/report/$f" ]; then ok "report/$f written"; else fail "report/$f written"; fi
done
if python3 -m json.tool "$out/report/summary.json" >/dev/null; then
	ok "summary.json is JSON"
else
	fail "summary.json is JSON"
fi
if head -n 1 "$out/report/util.csv" | grep -qx 'pid,comm,time_s,cpu,util,runnable,load'; then
	ok "util.csv header"
else
	fail "util.csv header"
fi

run_tool 0 "trace" "$out/all.dat"
run_tool 1 "sched_events:pelt_se" "$out/switch-only.dat"
run_tool 1 "power:cpu_frequency" --need util,freq,capacity,migrations,steal "$out/all.dat"
run_tool 1 "sched_events:thermal_pressure" --need thermal "$out/switch-only.dat"

# Thermal pressure: on the capped CPUs a step up and a step back down, each
# followed by the average going half the way in one halflife (250 ms; the
# spec allows 25% in the VM); no pressure on the others.
tcpus=$(sed -n 's/^thermal-cpus //p' "$out/guest.log")
run_tool 0 "thermal pressure" --need thermal --out "$out/thermal" --plot \
	"$out/thermal.dat"
if "$tool" --json --need thermal "$out/thermal.dat" >"$out/thermal.json" 2>&1 &&
	python3 "$here/thermal_check.py" "$out/thermal.json" "$tcpus" \
		>"$out/thermal.check" 2>&1; then
	ok "thermal pressure on cpus $tcpus: halflife 250 ms +- 25%, none elsewhere"
else
	fail "thermal pressure on cpus $tcpus:"
	sed 's/^/    /' "$out/thermal.check"
fi
for f in thermal.csv pressure.png; do
	if [ -s "$out/thermal/$f" ]; then ok "thermal/$f written"; else fail "thermal/$f written"; fi
done
if head -n 1 "$out/thermal/thermal.csv" 2>/dev/null | grep -qx 'cpu,time_s,instant,avg'; then
	ok "thermal.csv header"
else
	fail "thermal.csv header"
fi

# STEAL: steals under the overload with STEAL, none with NO_STEAL; every
# steal counted once at each end.
steals() {
	"$tool" --json --need steal "$1" | python3 -c 'import json, sys
c = json.load(sys.stdin)["per_cpu"]
s, f = sum(x["steals"] for x in c), sum(x["stolen_from"] for x in c)
print(s if s == f else "mismatch: %d stolen, %d stolen from" % (s, f))'
}
n_on=$(steals "$out/steal-STEAL.dat" 2>&1 || true)
n_off=$(steals "$out/steal-NO_STEAL.dat" 2>&1 || true)
case "$n_on" in
'' | *[!0-9]* | 0) fail "steals with STEAL: $n_on" ;;
*) ok "steals with STEAL: $n_on" ;;
esac
if [ "$n_off" = 0 ]; then ok "no steal with NO_STEAL"; else fail "steals with NO_STEAL: $n_off"; fi
run_tool 0 "stolen from it" --need steal --out "$out/steal" "$out/steal-STEAL.dat"
if head -n 1 "$out/steal/cpus.csv" 2>/dev/null | grep -qx 'cpu,migrations_in,migrations_out,steals,stolen_from'; then
	ok "cpus.csv header"
else
	fail "cpus.csv header"
fi

# A trace cut in its data and one cut in its headers.
size=$(wc -c <"$out/full.dat")
head -c $((size * 3 / 4)) "$out/full.dat" >"$out/cut-data.dat"
head -c 2000 "$out/full.dat" >"$out/cut-head.dat"
run_tool 1 "truncated" "$out/cut-data.dat"
run_tool 1 "truncated" "$out/cut-head.dat"

echo "vmcheck: $n tests, $failed failed (files in $out)"
[ "$failed" -eq 0 ]
