#!/bin/bash
# The stress-ng suite of scripts/stress, arm64 (hikey960 board, debug
# kernel in build/arm64-debug), N times, from the top of the repository:
#
#   Documentation/data/rcu-stall-sched-idle-20261204/run-stress-ng.sh \
#       TAG N SEED SPEED [KERNEL-ARGS] [watch]
#
# SPEED is scripts/vm's --speed (on, off, auto); KERNEL-ARGS are added to
# the kernel's command line (e.g. rcupdate.rcu_cpu_stall_timeout=5);
# "watch" runs blocked-readers.sh in the guest, which shows the policy
# and wait of each task that an RCU stall report names.  Consoles go to
# OUT/TAG-I.log (OUT defaults to build/rcu-stall), one line per run to
# OUT/summary: exit status (120: the console had a splat), seconds, the
# number of RCU stall reports.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
[ $# -ge 4 ] || { sed -n '2,15s/^# \{0,1\}//p' "$0"; exit 2; }
tag=$1 n=$2 seed=$3 speed=$4 kargs=${5:-} watch=${6:-}
out=${OUT:-build/rcu-stall}
mkdir -p "$out"

ng="stress-ng --temp-path /tmp --metrics-brief"
all="$ng --timeout 80s --pathological"
for st in affinity clone fifo fork futex hrtimers mutex nanosleep pthread \
	race-sched schedpolicy sem switch yield cpu-online; do
	all="$all --$st 1"
done
alone="$ng --timeout 21s --resched 1"
cmd="/kselftests/sched_stress/sched_stress -t 80 -s $seed -c '$all && $alone'"
extra=()
[ -z "$kargs" ] || extra+=(--append "$kargs")
if [ "$watch" = watch ]; then
	extra+=(--add "$here/blocked-readers.sh:/blocked-readers.sh")
	cmd="/blocked-readers.sh & $cmd"
fi

for i in $(seq 1 "$n"); do
	echo "[$tag $i/$n] booting hikey960 (speed $speed${kargs:+, $kargs})"
	t0=$(date +%s)
	rc=0
	KOUT=build/arm64-debug scripts/vm --arch arm64 --board hikey960 \
		--cpus 4 --mem 1024 --speed "$speed" --timeout 1140 \
		--log "$out/$tag-$i.log" "${extra[@]}" -- sh -c "$cmd" \
		>"$out/$tag-$i.out" 2>&1 || rc=$?
	echo "$tag run $i rc=$rc $(($(date +%s) - t0))s $(grep -c 'rcu: INFO' "$out/$tag-$i.log")" |
		tee -a "$out/summary"
done
