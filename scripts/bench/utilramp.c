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
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SCHED_FILE "/proc/self/sched"

static void usage(void)
{
	fprintf(stderr, "usage: utilramp [-c CPU] [-p PERCENT] [-s SLEEP_MS] [-t TIMEOUT_MS] [-n]\n");
	exit(2);
}

static long number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "utilramp: '%s' is not a number in [%ld, %ld]\n", s, min, max);
		exit(2);
	}
	return v;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* se.avg.util_avg of this task, or -1 when the field is missing. */
static long util_avg(void)
{
	char line[256];
	long v = -1;
	FILE *fp = fopen(SCHED_FILE, "r");

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		char *colon;

		if (strncmp(line, "se.avg.util_avg", 15) || (line[15] != ' ' && line[15] != ':'))
			continue;
		colon = strchr(line, ':');
		if (colon)
			v = strtol(colon + 1, NULL, 10);
		break;
	}
	fclose(fp);
	return v;
}

static long cpu_capacity(int cpu)
{
	char path[128];
	long cap = 1024;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	fp = fopen(path, "r");
	if (fp) {
		if (fscanf(fp, "%ld", &cap) != 1)
			cap = 1024;
		fclose(fp);
	}
	return cap;
}

int main(int argc, char **argv)
{
	long pct = 80, sleep_ms = 1000, timeout_ms = 5000, cap, target, util;
	int cpu = -1, check = 0, opt;
	double t0, t;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:p:s:t:nh")) != -1) {
		switch (opt) {
		case 'c':
			cpu = (int)number(optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'p':
			pct = number(optarg, 1, 100);
			break;
		case 's':
			sleep_ms = number(optarg, 0, 60000);
			break;
		case 't':
			timeout_ms = number(optarg, 1, 600000);
			break;
		case 'n':
			check = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	if (cpu < 0)
		cpu = sched_getcpu();
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "utilramp: cannot run on CPU %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	if (util_avg() < 0) {
		fprintf(stderr, "utilramp: no se.avg.util_avg in %s (needs CONFIG_SCHED_DEBUG)\n",
			SCHED_FILE);
		return 1;
	}
	cap = cpu_capacity(cpu);
	target = cap * pct / 100;
	if (check)
		return 0;

	usleep((useconds_t)sleep_ms * 1000);
	t0 = now_ms();
	do {
		util = util_avg();
		t = now_ms() - t0;
		if (util >= target) {
			printf("%.3f\n", t);
			return 0;
		}
	} while (t < (double)timeout_ms);

	fprintf(stderr, "utilramp: util_avg %ld still below %ld (%ld%% of %ld) after %ld ms on CPU %d: is another task running there?\n",
		util, target, pct, cap, timeout_ms, cpu);
	return 1;
}
