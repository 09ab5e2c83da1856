// SPDX-License-Identifier: GPL-2.0
/*
 * freqduty: the mean frequency a periodic task runs at.  After SLEEP_MS of
 * light load, once the CPU is at its lowest frequency and the task's
 * util_est has come down (as in freqramp), the task wakes up every
 * PERIOD_MS, does PCT% of a period's worth of work and sleeps until the
 * next period, for DURATION_MS.  Prints the mean of scaling_cur_freq over
 * the time the task ran, in MHz.
 *
 *   freqduty [-c CPU] [-d PCT] [-p PERIOD_MS] [-D DURATION_MS]
 *            [-s SLEEP_MS] [-T TRACE.csv] [-n]
 *
 * The work is counted in milliseconds at the highest frequency: spinning
 * for dt ms at f kHz does dt * f / cpuinfo_max_freq of it.  On a real CPU
 * that is what the frequency does to a fixed amount of work; in an emulator
 * that runs at one speed whatever the emulated frequency, it makes the task
 * behave the same way.  A period whose work is not done when the next one
 * should start skips to the next period boundary (counted as missed).
 *
 * -T writes the frequency the task saw while running, as "ms,khz" lines
 * (the changes only, see freqstat.h).  -n only checks that the interfaces
 * exist (exit 0) or says what is missing.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "benchlib.h"
#include "freqstat.h"

#define PROG "freqduty"

static void usage(void)
{
	fprintf(stderr, "usage: " PROG " [-c CPU] [-d PCT] [-p PERIOD_MS] [-D DURATION_MS] [-s SLEEP_MS] [-T TRACE.csv] [-n]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long pct = 30, period = 16, duration = 2000;
	long khz, periods = 0, missed = 0;
	double t0, t, start, work, ms_per_period;
	struct freq_trace trace;
	struct bl_cpufreq f;
	struct freq_acc acc;
	struct bl_opts o;
	FILE *trace_fp;
	int opt;

	bl_opts_init(&o);
	while ((opt = getopt(argc, argv, "c:d:p:D:s:T:nh")) != -1) {
		if (bl_opt(PROG, opt, optarg, &o))
			continue;
		switch (opt) {
		case 'd':
			pct = bl_number(PROG, optarg, 1, 100);
			break;
		case 'p':
			period = bl_number(PROG, optarg, 1, 10000);
			break;
		case 'D':
			duration = bl_number(PROG, optarg, 1, 600000);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	if (bl_cpufreq_open(&f, PROG, o.cpu))
		return 1;
	if (o.check)
		return 0;
	if (bl_trace_open(PROG, o.trace, &trace_fp))
		return 1;
	freq_trace_init(&trace, trace_fp);
	freq_acc_init(&acc);
	if (bl_cpufreq_settle(&f, PROG, o.sleep_ms))
		return 1;

	ms_per_period = (double)period * (double)pct / 100;
	t0 = bl_now_ms();
	for (start = 0; start < (double)duration;) {
		periods++;
		work = 0;
		do {
			t = bl_now_ms() - t0;
			khz = bl_attr_read(&f.cur);
			if (khz <= 0) {
				fprintf(stderr, PROG ": cannot read CPU %d's scaling_cur_freq\n", f.cpu);
				return 1;
			}
			freq_trace_sample(&trace, t, khz);
			work += freq_acc_sample(&acc, t, khz) / (double)f.max_khz;
		} while (work < ms_per_period);
		freq_acc_stop(&acc, t);
		start = duty_next_start(start, (double)period, t, &missed);
		bl_sleep_ms(start - (bl_now_ms() - t0));
	}
	freq_trace_end(&trace);
	if (bl_trace_close(PROG, o.trace, trace_fp))
		return 1;

	fprintf(stderr, PROG ": CPU %d: %ld periods of %ld ms (%ld missed), busy %.1f%% of %.0f ms\n",
		f.cpu, periods, period, missed, 100 * acc.ms / start, start);
	printf("%.1f\n", freq_acc_mean(&acc) / 1000);
	return 0;
}
