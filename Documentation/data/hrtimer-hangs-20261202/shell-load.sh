#!/bin/sh
# 4 streams of short processes for 15 s; nr_hangs before and after
grep -E "nr_hangs" /proc/timer_list | tr -s ' ' | tr '\n' ' '; echo
for c in /sys/devices/system/cpu/cpufreq/policy*; do cat $c/scaling_min_freq > $c/scaling_max_freq; done
end=$(( $(date +%s) + 15 ))
for i in 1 2 3 4; do ( while [ "$(date +%s)" -lt $end ]; do /bin/true; usleep 500; done ) & done
wait
grep -E "nr_hangs|nr_retries" /proc/timer_list | tr -s ' ' | tr '\n' ' '; echo
