#!/bin/sh
# In the guest: IPI round trips (the ipi_roundtrip module) from SENDER to
# a busy REF at full speed, then to a busy TARGET held at LOWEST_KHZ,
# three measurements of 2000 each.
#   ipi-roundtrip.sh SENDER REF TARGET LOWEST_KHZ
set -eu
S=$1 R=$2 T=$3 L=$4
F=/sys/kernel/debug/ipi_roundtrip
m() { taskset -c "$S" sh -c "echo '$1 2000' > $F && cat $F"; }
for c in "$R" "$T"; do
	echo performance >"/sys/devices/system/cpu/cpu$c/cpufreq/scaling_governor"
done
taskset -c "$R" sh -c 'while :; do :; done' &
p=$!
sleep 0.2
echo "ref: busy cpu$R at full speed"
m "$R"; m "$R"; m "$R"
kill "$p"
taskset -c "$T" sh -c 'while :; do :; done' &
p=$!
echo "$L" >"/sys/devices/system/cpu/cpu$T/cpufreq/scaling_max_freq"
sleep 0.2
echo "low: busy cpu$T at $(cat "/sys/devices/system/cpu/cpu$T/cpufreq/scaling_cur_freq") kHz"
m "$T"; m "$T"; m "$T"
kill "$p"
