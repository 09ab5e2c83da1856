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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "knob_io.h"

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
	if (!ret)
		ret = ramp_path(path, p->dir, "scaling_governor");
	if (!ret)
		ret = kio_read_line(path, p->old_governor, sizeof(p->old_governor));
	if (ret)
		return ret;
	if (strcmp(p->old_governor, "schedutil")) {
		ret = kio_write_str(path, "schedutil");
		if (ret)
			return ret == -EINVAL ? -ENOENT : ret;
	}

	/* Per-policy tunables if the driver asks for them, else global. */
	ramp_path(p->tunables, p->dir, "schedutil");
	if (access(p->tunables, F_OK))
		snprintf(p->tunables, sizeof(p->tunables), CPUFREQ_DIR "/schedutil");
	return access(p->tunables, F_OK) ? -ENOENT : 0;
}

static inline void ramp_policy_put(struct ramp_policy *p)
{
	char path[PATH_MAX];

	if (!p->old_governor[0] || !strcmp(p->old_governor, "schedutil"))
		return;
	if (!ramp_path(path, p->dir, "scaling_governor"))
		kio_write_str(path, p->old_governor);
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

/* Path of a schedutil tunable of @p. */
static inline const char *ramp_tunable(const struct ramp_policy *p,
				       const char *name, char *buf)
{
	if (ramp_path(buf, p->tunables, name))
		buf[0] = '\0';
	return buf;
}

#endif
