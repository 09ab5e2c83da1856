// SPDX-License-Identifier: GPL-2.0
/* Helpers of the measuring programs; see benchlib.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchlib.h"

int bl_parse_long(const char *s, long min, long max, long *v)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n < min || n > max)
		return -1;
	*v = n;
	return 0;
}

long bl_number(const char *prog, const char *s, long min, long max)
{
	long v;

	if (bl_parse_long(s, min, max, &v)) {
		fprintf(stderr, "%s: '%s' is not a number in [%ld, %ld]\n", prog, s, min, max);
		exit(2);
	}
	return v;
}

void bl_opts_init(struct bl_opts *o)
{
	o->cpu = -1;
	o->sleep_ms = 1000;
	o->trace = NULL;
	o->check = 0;
}

int bl_opt(const char *prog, int opt, const char *arg, struct bl_opts *o)
{
	switch (opt) {
	case 'c':
		o->cpu = (int)bl_number(prog, arg, 0, CPU_SETSIZE - 1);
		return 1;
	case 's':
		o->sleep_ms = bl_number(prog, arg, 0, 60000);
		return 1;
	case 'T':
		o->trace = arg;
		return 1;
	case 'n':
		o->check = 1;
		return 1;
	}
	return 0;
}

uint64_t bl_work(long loops, uint64_t x)
{
	while (loops-- > 0) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

double bl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void bl_sleep_ms(double ms)
{
	struct timespec ts;

	if (ms <= 0)
		return;
	ts.tv_sec = (time_t)(ms / 1e3);
	ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1e3) * 1e6);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int bl_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int bl_pin_cpu(const char *prog, int cpu)
{
	if (cpu < 0)
		cpu = sched_getcpu();
	if (cpu < 0 || bl_pin(cpu)) {
		fprintf(stderr, "%s: cannot run on CPU %d: %s\n", prog, cpu, strerror(errno));
		return -1;
	}
	return cpu;
}

struct bl_attr *bl_cur_freqs_open(const char *prog, int *ncpu)
{
	struct bl_attr *cur;
	char path[128];
	int cpu, n;

	n = (int)sysconf(_SC_NPROCESSORS_CONF);
	cur = n > 0 ? calloc(n, sizeof(*cur)) : NULL;
	if (!cur) {
		fprintf(stderr, "%s: cannot count the CPUs\n", prog);
		return NULL;
	}
	for (cpu = 0; cpu < n; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", cpu);
		if (bl_attr_open(&cur[cpu], path) || bl_attr_read(&cur[cpu]) < 0) {
			fprintf(stderr, "%s: CPU %d has no cpufreq policy (%s)\n", prog, cpu, path);
			while (cpu >= 0)
				bl_attr_close(&cur[cpu--]);
			free(cur);
			return NULL;
		}
	}
	*ncpu = n;
	return cur;
}

long bl_cur_freq_here(const struct bl_attr *cur, int ncpu)
{
	int cpu = sched_getcpu();

	return cpu >= 0 && cpu < ncpu ? bl_attr_read(&cur[cpu]) : -1;
}

long bl_read_long(const char *path)
{
	struct bl_attr a;
	long v;

	if (bl_attr_open(&a, path))
		return -1;
	v = bl_attr_read(&a);
	bl_attr_close(&a);
	return v;
}

int bl_attr_open(struct bl_attr *a, const char *path)
{
	a->fd = open(path, O_RDONLY | O_CLOEXEC);
	return a->fd < 0 ? -1 : 0;
}

long bl_attr_read(const struct bl_attr *a)
{
	char buf[64], *end;
	ssize_t n;
	long v;

	n = pread(a->fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -1;
	return v;
}

void bl_attr_close(struct bl_attr *a)
{
	if (a->fd >= 0)
		close(a->fd);
	a->fd = -1;
}

long bl_sched_field(const char *name)
{
	size_t len = strlen(name);
	char line[256];
	long v = -1;
	FILE *fp = fopen("/proc/self/sched", "r");

	if (!fp)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		char *colon;

		if (strncmp(line, name, len) || (line[len] != ' ' && line[len] != ':'))
			continue;
		colon = strchr(line, ':');
		if (colon)
			v = strtol(colon + 1, NULL, 10);
		break;
	}
	fclose(fp);
	return v;
}

int bl_settle(const struct bl_attr *cur, long floor_khz, double idle_ms,
	      double max_ms, long *khz, long *util_est)
{
	double t0 = bl_now_ms(), start, t;

	do {
		start = bl_now_ms();
		while (bl_now_ms() - start < BL_SETTLE_RUN_MS)
			;
		bl_sleep_ms(start + BL_SETTLE_PERIOD_MS - bl_now_ms());
		t = bl_now_ms() - t0;
		*khz = bl_attr_read(cur);
		*util_est = bl_sched_field("se.avg.util_est");
		if (t >= idle_ms && *khz >= 0 && *khz <= floor_khz &&
		    *util_est <= BL_SETTLE_UTIL_EST)
			return 0;
	} while (t < max_ms);
	return -1;
}

static long cpufreq_read(int cpu, const char *attr)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/%s", cpu, attr);
	return bl_read_long(path);
}

int bl_cpufreq_open(struct bl_cpufreq *f, const char *prog, int cpu)
{
	char path[128];

	f->cur.fd = -1;
	f->cpu = bl_pin_cpu(prog, cpu);
	if (f->cpu < 0)
		return -1;
	f->max_khz = cpufreq_read(f->cpu, "cpuinfo_max_freq");
	f->min_khz = cpufreq_read(f->cpu, "scaling_min_freq");
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_cur_freq", f->cpu);
	if (f->max_khz <= 0 || f->min_khz <= 0 || bl_attr_open(&f->cur, path) ||
	    bl_attr_read(&f->cur) < 0) {
		fprintf(stderr, "%s: CPU %d has no cpufreq policy (scaling_cur_freq, scaling_min_freq, cpuinfo_max_freq)\n",
			prog, f->cpu);
		return -1;
	}
	return 0;
}

int bl_cpufreq_settle(struct bl_cpufreq *f, const char *prog, long idle_ms)
{
	double max_ms = (double)idle_ms + BL_SETTLE_EXTRA_MS;
	long khz, est;

	if (!bl_settle(&f->cur, f->min_khz, (double)idle_ms, max_ms, &khz, &est))
		return 0;
	fprintf(stderr, "%s: CPU %d at %ld kHz (lowest %ld), util_est %ld (at most %d wanted) after %.0f ms of light load: is the governor performance, or another task running there?\n",
		prog, f->cpu, khz, f->min_khz, est, BL_SETTLE_UTIL_EST, max_ms);
	return -1;
}

int bl_trace_open(const char *prog, const char *path, FILE **fp)
{
	*fp = NULL;
	if (!path)
		return 0;
	*fp = fopen(path, "w");
	if (*fp)
		return 0;
	fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(errno));
	return -1;
}

int bl_trace_close(const char *prog, const char *path, FILE *fp)
{
	if (!fp || !fclose(fp))
		return 0;
	fprintf(stderr, "%s: cannot write %s: %s\n", prog, path, strerror(errno));
	return -1;
}

double bl_poll(long (*read)(void *ctx, double t), void *ctx, long target,
	       double timeout_ms, long *last)
{
	double t0 = bl_now_ms(), t;
	long v;

	do {
		t = bl_now_ms() - t0;
		v = read(ctx, t);
		*last = v;
		if (v >= target)
			return t;
	} while (t < timeout_ms);
	return -1;
}
