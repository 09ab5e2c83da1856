// SPDX-License-Identifier: GPL-2.0
/*
 * utilramp: how long a task that wakes after a long sleep must run before
 * its PELT utilization (se.avg.util_avg in /proc/self/sched) reaches a share
 * of its CPU's capacity.  Prints the time in milliseconds.
 *
 *   utilramp [-c CPU] [-p PERCENT] [-s SLEEP_MS] [-t TIMEOUT_MS] [-n]
 *
 * -n only checks that the interfaces exist (exit 0) or says what is missing.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "benchlib.h"

#define PROG "utilramp"

static void usage(void)
{
	fprintf(stderr, "usage: " PROG " [-c CPU] [-p PERCENT] [-s SLEEP_MS] [-t TIMEOUT_MS] [-n]\n");
	exit(2);
}

static long cpu_capacity(int cpu)
{
	char path[128];
	long cap;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	cap = bl_read_long(path);
	return cap > 0 ? cap : 1024;
}

static long read_util(void *ctx, double t)
{
	(void)ctx;
	(void)t;
	return bl_sched_field("se.avg.util_avg");
}

int main(int argc, char **argv)
{
	long pct = 80, timeout_ms = 5000, cap, target, util;
	struct bl_opts o;
	int cpu, opt;
	double t;

	bl_opts_init(&o);
	while ((opt = getopt(argc, argv, "c:p:s:t:nh")) != -1) {
		if (bl_opt(PROG, opt, optarg, &o))
			continue;
		switch (opt) {
		case 'p':
			pct = bl_number(PROG, optarg, 1, 100);
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

	cpu = bl_pin_cpu(PROG, o.cpu);
	if (cpu < 0)
		return 1;
	if (bl_sched_field("se.avg.util_avg") < 0) {
		fprintf(stderr, PROG ": no se.avg.util_avg in /proc/self/sched (needs CONFIG_SCHED_DEBUG)\n");
		return 1;
	}
	cap = cpu_capacity(cpu);
	target = cap * pct / 100;
	if (o.check)
		return 0;

	bl_sleep_ms((double)o.sleep_ms);
	t = bl_poll(read_util, NULL, target, (double)timeout_ms, &util);
	if (t >= 0) {
		printf("%.3f\n", t);
		return 0;
	}
	fprintf(stderr, PROG ": util_avg %ld still below %ld (%ld%% of %ld) after %ld ms on CPU %d: is another task running there?\n",
		util, target, pct, cap, timeout_ms, cpu);
	return 1;
}
