/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the thermal_pressure tests: a monotonic clock in ms,
 * the debugfs view of the pressure and the cpufreq cooling device of a
 * policy.  File reads and writes are knob_io.h's (selftests/sched_knobs).
 */
#ifndef TP_SYSFS_H
#define TP_SYSFS_H

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "knob_io.h"

#define KNOB		"/proc/sys/kernel/sched_thermal_decay_ms"
#define DEBUGFS		"/sys/kernel/debug/sched/thermal_pressure"
#define CPUFREQ		"/sys/devices/system/cpu/cpufreq"
#define MAX_CPUS	64

/* One line of the debugfs view */
struct tp_line {
	int cpu;
	unsigned long orig, instant, avg, actual;
};

static inline long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static inline int knob_present(void)
{
	return access(KNOB, F_OK) == 0;
}

/*
 * Parse the debugfs view into @lines (at most MAX_CPUS); the number of
 * lines, or -1 with the reason in @bad when a line does not have exactly
 * the expected format.
 */
static inline int read_debugfs(struct tp_line *lines, char *bad, size_t badlen)
{
	static char buf[MAX_CPUS * 128];
	char *line, *save = NULL;
	int nr = 0;

	if (kio_read(DEBUGFS, buf, sizeof(buf)) < 0) {
		snprintf(bad, badlen, "cannot read %s", DEBUGFS);
		return -1;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct tp_line *l = &lines[nr];
		int end = -1;

		if (nr == MAX_CPUS ||
		    sscanf(line, "cpu%d orig=%lu instant=%lu avg=%lu actual=%lu%n",
			   &l->cpu, &l->orig, &l->instant, &l->avg, &l->actual,
			   &end) != 5 || line[end] != '\0') {
			snprintf(bad, badlen, "bad line: '%s'", line);
			return -1;
		}
		nr++;
	}
	return nr;
}

static inline struct tp_line *find_cpu(struct tp_line *lines, int nr, int cpu)
{
	int i;

	for (i = 0; i < nr; i++)
		if (lines[i].cpu == cpu)
			return &lines[i];
	return NULL;
}

/* @cpu's debugfs line into @out; 0 or -1 */
static inline int read_cpu(int cpu, struct tp_line *out)
{
	struct tp_line lines[MAX_CPUS], *l;
	char bad[256];
	int nr;

	nr = read_debugfs(lines, bad, sizeof(bad));
	if (nr < 0)
		return -1;
	l = find_cpu(lines, nr, cpu);
	if (!l)
		return -1;
	*out = *l;
	return 0;
}

/* Online CPUs from /sys/devices/system/cpu/online into @online[] */
static inline int online_cpus(int *online)
{
	char buf[256], *p;
	int nr = 0, a, b, n;

	if (kio_read("/sys/devices/system/cpu/online", buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; *p && *p != '\n'; p += n) {
		if (sscanf(p, "%d-%d%n", &a, &b, &n) != 2) {
			if (sscanf(p, "%d%n", &a, &n) != 1)
				return -1;
			b = a;
		}
		while (a <= b && nr < MAX_CPUS)
			online[nr++] = a++;
		if (p[n] == ',')
			n++;
	}
	return nr;
}

/*
 * The cpufreq cooling device of the policy whose first CPU is @cpu (type
 * "cpufreq-cpu<cpu>", as the generic cpufreq cooling device and
 * cpufreq_emu name it): its cur_state path into @cur_state and its
 * max_state.  0, or -1 when there is none with a state to set.
 */
static inline int find_cdev(int cpu, char *cur_state, size_t len,
			    unsigned long *max_state)
{
	char want[32], type[64], path[192];
	int ret = -1;
	glob_t g;
	size_t i;

	cur_state[0] = '\0';
	snprintf(want, sizeof(want), "cpufreq-cpu%d\n", cpu);
	if (glob("/sys/class/thermal/cooling_device*", 0, NULL, &g))
		return -1;
	for (i = 0; i < g.gl_pathc; i++) {
		snprintf(path, sizeof(path), "%s/type", g.gl_pathv[i]);
		if (kio_read(path, type, sizeof(type)) < 0 || strcmp(type, want))
			continue;
		snprintf(path, sizeof(path), "%s/max_state", g.gl_pathv[i]);
		if (kio_read_ul(path, max_state) || !*max_state)
			continue;
		snprintf(cur_state, len, "%s/cur_state", g.gl_pathv[i]);
		ret = 0;
		break;
	}
	globfree(&g);
	return ret;
}

#endif
