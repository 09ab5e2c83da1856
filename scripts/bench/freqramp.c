// SPDX-License-Identifier: GPL-2.0
/*
 * freqramp: how long a CPU-bound task that starts on an idle CPU waits for
 * that CPU to reach its highest frequency (scaling_cur_freq reaching
 * cpuinfo_max_freq).  Prints the time in milliseconds.
 *
 *   freqramp [-c CPU] [-f TARGET_KHZ] [-s SLEEP_MS] [-t TIMEOUT_MS] [-n]
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

static void usage(void)
{
	fprintf(stderr, "usage: freqramp [-c CPU] [-f TARGET_KHZ] [-s SLEEP_MS] [-t TIMEOUT_MS] [-n]\n");
	exit(2);
}

static long number(const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		fprintf(stderr, "freqramp: '%s' is not a number in [%ld, %ld]\n", s, min, max);
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

/* A cpufreq attribute of @cpu in kHz, or -1. */
static long cpufreq_read(int cpu, const char *attr)
{
	char path[160];
	long v = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu, attr);
	fp = fopen(path, "r");
	if (!fp)
		return -1;
	if (fscanf(fp, "%ld", &v) != 1)
		v = -1;
	fclose(fp);
	return v;
}

int main(int argc, char **argv)
{
	long target = 0, sleep_ms = 1000, timeout_ms = 5000, cur;
	int cpu = -1, check = 0, opt;
	double t0, t, waited = 0;
	cpu_set_t set;

	while ((opt = getopt(argc, argv, "c:f:s:t:nh")) != -1) {
		switch (opt) {
		case 'c':
			cpu = (int)number(optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'f':
			target = number(optarg, 1, 100000000);
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
		fprintf(stderr, "freqramp: cannot run on CPU %d: %s\n", cpu, strerror(errno));
		return 1;
	}
	if (!target)
		target = cpufreq_read(cpu, "cpuinfo_max_freq");
	if (target <= 0 || cpufreq_read(cpu, "scaling_cur_freq") < 0) {
		fprintf(stderr, "freqramp: CPU %d has no cpufreq policy (scaling_cur_freq, cpuinfo_max_freq)\n",
			cpu);
		return 1;
	}
	if (check)
		return 0;

	/* Sleep so the governor lowers the frequency, and make sure it did. */
	usleep((useconds_t)sleep_ms * 1000);
	while ((cur = cpufreq_read(cpu, "scaling_cur_freq")) >= target) {
		if (waited >= 5000) {
			fprintf(stderr, "freqramp: CPU %d stays at %ld kHz while idle: is the governor performance?\n",
				cpu, cur);
			return 1;
		}
		usleep(50 * 1000);
		waited += 50;
	}

	t0 = now_ms();
	do {
		cur = cpufreq_read(cpu, "scaling_cur_freq");
		t = now_ms() - t0;
		if (cur >= target) {
			printf("%.3f\n", t);
			return 0;
		}
	} while (t < (double)timeout_ms);

	fprintf(stderr, "freqramp: CPU %d at %ld kHz, below %ld kHz, after %ld ms\n",
		cpu, cur, target, timeout_ms);
	return 1;
}
