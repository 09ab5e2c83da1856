/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the cpufreq_ramp tests: finding a cpufreq policy run by
 * schedutil and its tunables.  Attribute reads and writes are knob_io.h's
 * (selftests/sched_knobs).
 */
#ifndef RAMP_SYSFS_H
#define RAMP_SYSFS_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "knob_io.h"

/* Time and placement helpers of the tests that watch a ramp. */
static inline long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/*
 * The climb of a ramp: from the first raise (@first us after the load
 * began, -1 if none was seen) to the maximum (@to_max), at least
 * @poll_us, the resolution of both.
 */
static inline long long ramp_climb_us(long long to_max, long long first,
				      long long poll_us)
{
	long long c = first < 0 ? to_max : to_max - first;

	return c < poll_us ? poll_us : c;
}

static inline void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static inline int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

#define CPUFREQ_DIR	"/sys/devices/system/cpu/cpufreq"
#define PSTATE_DIR	"/sys/devices/system/cpu/intel_pstate"

/* A cpufreq policy and the directory of its schedutil tunables. */
struct ramp_policy {
	char dir[PATH_MAX];		/* .../cpufreq/policyN */
	char tunables[PATH_MAX];	/* .../policyN/schedutil or global */
	char old_governor[64];
	char cpus[256];			/* affected_cpus, space separated */
	int cpu;			/* the last of them */
	unsigned long min_freq;		/* cpuinfo_min_freq */
	unsigned long max_freq;		/* cpuinfo_max_freq */
};

static inline int ramp_path(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/*
 * Switch the policy in @dir to schedutil, keeping its governor in @old
 * (@old_len bytes), and find its tunables: per policy if the driver asks
 * for them, else global, written to @tunables (@tun_len bytes).  0, or
 * -ENOENT when schedutil or its tunables are not there, or -errno.
 */
static inline int ramp_take_schedutil(const char *dir, char *old,
				      size_t old_len, char *tunables,
				      size_t tun_len)
{
	char path[PATH_MAX];
	int ret;

	ret = ramp_path(path, dir, "scaling_governor");
	if (!ret)
		ret = kio_read_line(path, old, old_len);
	if (ret)
		return ret;
	if (strcmp(old, "schedutil")) {
		ret = kio_write_str(path, "schedutil");
		if (ret)
			return ret == -EINVAL ? -ENOENT : ret;
	}
	if ((size_t)snprintf(tunables, tun_len, "%s/schedutil", dir) >= tun_len)
		return -ENAMETOOLONG;
	if (access(tunables, F_OK))
		snprintf(tunables, tun_len, CPUFREQ_DIR "/schedutil");
	return access(tunables, F_OK) ? -ENOENT : 0;
}

/* Put back the governor ramp_take_schedutil() found in @dir. */
static inline void ramp_give_back(const char *dir, const char *old)
{
	char path[PATH_MAX];

	if (!old[0] || !strcmp(old, "schedutil"))
		return;
	if (!ramp_path(path, dir, "scaling_governor"))
		kio_write_str(path, old);
}

/*
 * Pick the policy with the highest cpuinfo_max_freq (the big cluster on
 * big.LITTLE; the last one found on a tie) and the last CPU of it, switch it to schedutil and find its
 * tunables. 0, -ENOENT when there is no cpufreq policy or no schedutil,
 * or another -errno.
 */
static inline int ramp_policy_get(struct ramp_policy *p)
{
	char path[PATH_MAX], buf[256], *tok, *save;
	unsigned long max, best = 0;
	struct dirent *de;
	DIR *d;
	int ret;

	memset(p, 0, sizeof(*p));
	d = opendir(CPUFREQ_DIR);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "policy", 6))
			continue;
		snprintf(path, sizeof(path), CPUFREQ_DIR "/%s/cpuinfo_max_freq",
			 de->d_name);
		if (kio_read_ul(path, &max) || max < best)
			continue;
		/* An inactive policy (all CPUs offline) has no related CPUs. */
		snprintf(path, sizeof(path), CPUFREQ_DIR "/%s/affected_cpus",
			 de->d_name);
		if (kio_read_line(path, buf, sizeof(buf)) || !buf[0])
			continue;
		best = max;
		snprintf(p->dir, sizeof(p->dir), CPUFREQ_DIR "/%s", de->d_name);
		snprintf(p->cpus, sizeof(p->cpus), "%s", buf);
		p->cpu = -1;
		for (tok = strtok_r(buf, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save))
			p->cpu = atoi(tok);
	}
	closedir(d);
	if (!best || p->cpu < 0)
		return -ENOENT;

	p->max_freq = best;
	ret = ramp_path(path, p->dir, "cpuinfo_min_freq");
	if (!ret)
		ret = kio_read_ul(path, &p->min_freq);
	if (ret)
		return ret;
	return ramp_take_schedutil(p->dir, p->old_governor,
				   sizeof(p->old_governor), p->tunables,
				   sizeof(p->tunables));
}

static inline void ramp_policy_put(struct ramp_policy *p)
{
	ramp_give_back(p->dir, p->old_governor);
}

/* Whether @cpu is one of the policy's CPUs. */
static inline int ramp_policy_has_cpu(const struct ramp_policy *p, int cpu)
{
	char buf[sizeof(p->cpus)], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", p->cpus);
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (atoi(tok) == cpu)
			return 1;
	return 0;
}

#define THERMAL_DIR	"/sys/class/thermal"
#define RAMP_MAX_CDEVS	8

/*
 * The limits of a policy as a test found them: scaling_min_freq,
 * scaling_max_freq and the cooling devices (cpufreq-cpuN, N a CPU of the
 * policy) that were capping it, with their cur_state.
 */
struct ramp_limits {
	char min[32];
	char max[32];
	int cdev[RAMP_MAX_CDEVS];
	char state[RAMP_MAX_CDEVS][16];
	int ncdev;
	int saved;
};

/* Whether cooling device @id is the cpufreq cooling device of @p. */
static inline int ramp_cdev_of(const struct ramp_policy *p, int id)
{
	char path[PATH_MAX], type[64], cpus[256], *tok, *save;
	int cpu;

	snprintf(path, sizeof(path), THERMAL_DIR "/cooling_device%d/type", id);
	if (kio_read_line(path, type, sizeof(type)) ||
	    sscanf(type, "cpufreq-cpu%d", &cpu) != 1)
		return 0;
	if (ramp_path(path, p->dir, "related_cpus") ||
	    kio_read_line(path, cpus, sizeof(cpus)))
		return 0;
	for (tok = strtok_r(cpus, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (atoi(tok) == cpu)
			return 1;
	return 0;
}

/*
 * Lift every limit of @p that a user (or an earlier test) can set: reset
 * the cooling devices that cap it to state 0, then scaling_max_freq to
 * cpuinfo_max_freq and scaling_min_freq to cpuinfo_min_freq.  What was
 * there is kept in @l for ramp_limits_restore().  0 or -errno.
 */
static inline int ramp_limits_lift(const struct ramp_policy *p,
				   struct ramp_limits *l)
{
	char path[PATH_MAX], state[16];
	struct dirent *de;
	DIR *d;
	int id, ret;

	memset(l, 0, sizeof(*l));
	ret = ramp_path(path, p->dir, "scaling_min_freq");
	if (!ret)
		ret = kio_read_line(path, l->min, sizeof(l->min));
	if (!ret)
		ret = ramp_path(path, p->dir, "scaling_max_freq");
	if (!ret)
		ret = kio_read_line(path, l->max, sizeof(l->max));
	if (ret)
		return ret;
	l->saved = 1;

	d = opendir(THERMAL_DIR);
	while (d && (de = readdir(d))) {
		if (sscanf(de->d_name, "cooling_device%d", &id) != 1 ||
		    !ramp_cdev_of(p, id))
			continue;
		snprintf(path, sizeof(path), THERMAL_DIR "/cooling_device%d/cur_state", id);
		if (kio_read_line(path, state, sizeof(state)) || !strcmp(state, "0"))
			continue;
		if (l->ncdev == RAMP_MAX_CDEVS) {
			ret = -E2BIG;
			break;
		}
		l->cdev[l->ncdev] = id;
		snprintf(l->state[l->ncdev], sizeof(l->state[0]), "%s", state);
		l->ncdev++;
		ret = kio_write_str(path, "0");
		if (ret)
			break;
	}
	if (d)
		closedir(d);
	if (ret)
		return ret;

	ret = ramp_path(path, p->dir, "scaling_max_freq");
	if (!ret)
		ret = kio_write_ul(path, p->max_freq);
	if (!ret)
		ret = ramp_path(path, p->dir, "scaling_min_freq");
	if (!ret)
		ret = kio_write_ul(path, p->min_freq);
	return ret;
}

/* Put back what ramp_limits_lift() found. */
static inline void ramp_limits_restore(const struct ramp_policy *p,
				       struct ramp_limits *l)
{
	char path[PATH_MAX];
	int i;

	if (!l->saved)
		return;
	/* The lifted minimum is cpuinfo_min_freq: any old maximum fits. */
	if (!ramp_path(path, p->dir, "scaling_max_freq"))
		kio_write_str(path, l->max);
	if (!ramp_path(path, p->dir, "scaling_min_freq"))
		kio_write_str(path, l->min);
	for (i = 0; i < l->ncdev; i++) {
		snprintf(path, sizeof(path), THERMAL_DIR "/cooling_device%d/cur_state",
			 l->cdev[i]);
		kio_write_str(path, l->state[i]);
	}
	l->saved = 0;
}

/* Path of a schedutil tunable of @p. */
static inline const char *ramp_tunable(const struct ramp_policy *p,
				       const char *name, char *buf)
{
	if (ramp_path(buf, p->tunables, name))
		buf[0] = '\0';
	return buf;
}

#endif
