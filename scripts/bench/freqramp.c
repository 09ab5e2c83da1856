// SPDX-License-Identifier: GPL-2.0
/*
 * freqramp: how long a CPU-bound task that starts on an idle CPU waits for
 * that CPU to reach its highest frequency (scaling_cur_freq reaching
 * cpuinfo_max_freq).  Prints the time in milliseconds.
 *
 * Before that the task runs a light load (1 ms of every 20 ms) for SLEEP_MS
 * (default 1000) and until the CPU is at its lowest frequency
 * (scaling_min_freq) and the task's util_est has come down (bl_settle()):
 * every run starts from the same place, a task that has been nearly idle
 * for a while.
 *
 *   freqramp [-c CPU] [-f TARGET_KHZ] [-s SLEEP_MS] [-t TIMEOUT_MS]
 *            [-T TRACE.csv] [-n]
 *
 * -T writes the frequency the task saw while spinning, as "ms,khz" lines
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

#define PROG "freqramp"

static void usage(void)
{
	fprintf(stderr, "usage: " PROG " [-c CPU] [-f TARGET_KHZ] [-s SLEEP_MS] [-t TIMEOUT_MS] [-T TRACE.csv] [-n]\n");
	exit(2);
}

struct ramp {
	struct bl_cpufreq f;
	struct freq_trace trace;
};

static long read_freq(void *ctx, double t)
{
	struct ramp *r = ctx;
	long khz = bl_attr_read(&r->f.cur);

	freq_trace_sample(&r->trace, t, khz);
	return khz;
}

int main(int argc, char **argv)
{
	long target = 0, timeout_ms = 5000, cur;
	struct bl_opts o;
	FILE *trace_fp;
	int opt;
	struct ramp r;
	double t;

	bl_opts_init(&o);
	while ((opt = getopt(argc, argv, "c:f:s:t:T:nh")) != -1) {
		if (bl_opt(PROG, opt, optarg, &o))
			continue;
		switch (opt) {
		case 'f':
			target = bl_number(PROG, optarg, 1, 100000000);
			break;
		case 't':
			timeout_ms = bl_number(PROG, optarg, 1, 600000);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	if (bl_cpufreq_open(&r.f, PROG, o.cpu))
		return 1;
	if (!target)
		target = r.f.max_khz;
	if (o.check)
		return 0;
	if (bl_trace_open(PROG, o.trace, &trace_fp))
		return 1;
	freq_trace_init(&r.trace, trace_fp);

	/* Start from the lowest frequency, with a nearly idle task. */
	if (bl_cpufreq_settle(&r.f, PROG, o.sleep_ms))
		return 1;
	t = bl_poll(read_freq, &r, target, (double)timeout_ms, &cur);
	freq_trace_end(&r.trace);
	if (bl_trace_close(PROG, o.trace, trace_fp))
		return 1;
	if (t < 0) {
		fprintf(stderr, PROG ": CPU %d at %ld kHz, below %ld kHz, after %ld ms\n",
			r.f.cpu, cur, target, timeout_ms);
		return 1;
	}
	printf("%.3f\n", t);
	return 0;
}
