/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the STEAL kselftests steal_rules.c and steal_exact.c: the
 * debugfs views read field by field (later fields are accepted), the
 * CPUs of an LLC, and forked tasks pinned to CPUs.
 */
#ifndef STEAL_UTIL_H
#define STEAL_UTIL_H

/* The includer defines _GNU_SOURCE first (cpu_set_t). */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "knob_io.h"

#define SU_FEATURES	"/sys/kernel/debug/sched/features"
#define SU_STEAL	"/sys/kernel/debug/sched/steal"
#define SU_STEAL_DEBUG	"/sys/kernel/debug/sched/steal_debug"
#define SU_SCHEDSTATS	"/proc/sys/kernel/sched_schedstats"
#define SU_MIGR_COST	"/sys/kernel/debug/sched/migration_cost_ns"
#define SU_ONLINE	"/sys/devices/system/cpu/online"

#define SU_MAX_CPUS	256
#define SU_MAX_FIELDS	8
#define SU_MAX_TASKS	64

/* One view of a per-CPU debugfs file: "cpu<N> name=value ..." lines. */
struct su_view {
	int nfields;
	const char *names[SU_MAX_FIELDS];
	bool present[SU_MAX_CPUS];
	long long val[SU_MAX_CPUS][SU_MAX_FIELDS];
	int lines;
};

/*
 * Read @path into @v, taking the values of the fields named in @names (a
 * NULL-terminated list) from every line.  Fields not asked for are
 * ignored.  Returns the number of lines, or -1 when a line does not start
 * with "cpu<N> ", repeats a CPU, or lacks a field asked for (a message
 * saying which goes to stderr).
 */
static inline int su_read_view(const char *path, const char *const *names,
			       struct su_view *v)
{
	static char buf[SU_MAX_CPUS * 192];
	char *line, *save;

	memset(v, 0, sizeof(*v));
	while (names[v->nfields] && v->nfields < SU_MAX_FIELDS) {
		v->names[v->nfields] = names[v->nfields];
		v->nfields++;
	}
	if (kio_read(path, buf, sizeof(buf)) < 0) {
		fprintf(stderr, "# cannot read %s\n", path);
		return -1;
	}
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok, *tsave, *end;
		bool seen[SU_MAX_FIELDS] = { false };
		long cpu;
		int i;

		if (strncmp(line, "cpu", 3))
			goto bad;
		cpu = strtol(line + 3, &end, 10);
		if (end == line + 3 || *end != ' ' || cpu < 0 ||
		    cpu >= SU_MAX_CPUS || v->present[cpu])
			goto bad;
		for (tok = strtok_r(end + 1, " ", &tsave); tok;
		     tok = strtok_r(NULL, " ", &tsave)) {
			char *eq = strchr(tok, '=');

			if (!eq)
				goto bad;
			*eq = '\0';
			for (i = 0; i < v->nfields; i++) {
				if (strcmp(tok, v->names[i]))
					continue;
				v->val[cpu][i] = strtoll(eq + 1, &end, 10);
				if (end == eq + 1 || *end)
					goto bad;
				seen[i] = true;
			}
		}
		for (i = 0; i < v->nfields; i++) {
			if (!seen[i]) {
				fprintf(stderr, "# %s: cpu%ld has no %s=\n",
					path, cpu, v->names[i]);
				return -1;
			}
		}
		v->present[cpu] = true;
		v->lines++;
	}
	return v->lines;
bad:
	fprintf(stderr, "# %s: bad line '%s'\n", path, line);
	return -1;
}

static inline long long su_get(const struct su_view *v, int cpu,
			       const char *name)
{
	int i;

	for (i = 0; i < v->nfields; i++)
		if (!strcmp(v->names[i], name))
			return v->val[cpu][i];
	return 0;
}

/* Parse a CPU list ("0-3,5") into @cpus; returns how many. */
static inline int su_parse_cpulist(const char *s, int *cpus, int max)
{
	int n = 0;

	while (*s && *s != '\n') {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			return -1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (; lo <= hi && n < max; lo++)
			cpus[n++] = (int)lo;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static inline int su_online_cpus(int *cpus)
{
	char buf[1024];

	if (kio_read(SU_ONLINE, buf, sizeof(buf)) < 0)
		return -1;
	return su_parse_cpulist(buf, cpus, SU_MAX_CPUS);
}

/*
 * The CPUs sharing @cpu's last-level cache (the highest cache level that
 * cacheinfo lists), or just @cpu when cacheinfo says nothing.
 */
static inline int su_llc_cpus(int cpu, int *cpus)
{
	char path[128], buf[1024];
	int idx, level, best = -1, n = 0;

	for (idx = 0; idx < 8; idx++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 cpu, idx);
		if (kio_read(path, buf, sizeof(buf)) <= 0)
			break;
		level = atoi(buf);
		if (level <= best)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
			 cpu, idx);
		if (kio_read(path, buf, sizeof(buf)) <= 0)
			continue;
		best = level;
		n = su_parse_cpulist(buf, cpus, SU_MAX_CPUS);
	}
	if (n <= 0) {
		cpus[0] = cpu;
		n = 1;
	}
	return n;
}

static inline void su_spin_ns(long ns)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
		 (t.tv_nsec - t0.tv_nsec) < ns);
}

static inline void su_sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

struct su_tasks {
	pid_t pid[SU_MAX_TASKS];
	int n;
};

/* Allow @pid (0: the caller) on the @ncpu CPUs of @cpus: 0 or -1 */
static inline int su_set_affinity(pid_t pid, const int *cpus, int ncpu)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < ncpu; i++)
		CPU_SET(cpus[i], &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

/*
 * Fork a task of scheduling @policy (SCHED_OTHER, SCHED_BATCH...) allowed
 * on the @ncpu CPUs of @cpus that runs @run_us of CPU time, then sleeps
 * @sleep_us, forever (@sleep_us 0: it only runs).  Returns its pid or -1.
 */
static inline pid_t su_spawn_policy(struct su_tasks *t, const int *cpus,
				    int ncpu, long run_us, long sleep_us,
				    int policy)
{
	struct sched_param param = { .sched_priority = 0 };
	pid_t pid;

	if (t->n >= SU_MAX_TASKS)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		volatile unsigned long x = 0;

		if (su_set_affinity(0, cpus, ncpu) ||
		    sched_setscheduler(0, policy, &param))
			_exit(1);
		for (;;) {
			if (!sleep_us) {
				x++;
				continue;
			}
			su_spin_ns(run_us * 1000);
			su_sleep_us(sleep_us);
		}
	}
	t->pid[t->n++] = pid;
	return pid;
}

static inline pid_t su_spawn(struct su_tasks *t, const int *cpus, int ncpu,
			     long run_us, long sleep_us)
{
	return su_spawn_policy(t, cpus, ncpu, run_us, sleep_us, SCHED_OTHER);
}

static inline void su_stop(struct su_tasks *t)
{
	int i;

	for (i = 0; i < t->n; i++)
		kill(t->pid[i], SIGKILL);
	for (i = 0; i < t->n; i++)
		waitpid(t->pid[i], NULL, 0);
	t->n = 0;
}

/* A field of /proc/PID/status ("voluntary_ctxt_switches"), or -1. */
static inline long su_status_field(pid_t pid, const char *name)
{
	char path[64], buf[4096], *p;
	size_t len = strlen(name);

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (kio_read(path, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; *p; p++) {
		if (!strncmp(p, name, len) && p[len] == ':')
			return strtol(p + len + 1, NULL, 10);
		p = strchr(p, '\n');
		if (!p)
			break;
	}
	return -1;
}

static inline int su_set_steal(bool on)
{
	return kio_write_str(SU_FEATURES, on ? "STEAL" : "NO_STEAL");
}

static inline int su_set_cpu_online(int cpu, bool on)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return kio_write_str(path, on ? "1" : "0");
}

/* A hotplug step slower than this is logged by su_hotplug_logged(). */
#define SU_HOTPLUG_SLOW_MS	1000

/*
 * su_set_cpu_online() in cycle @cycle of a test, logging the step when it
 * takes more than SU_HOTPLUG_SLOW_MS: on the emulated boards a step
 * usually takes well under a second.  The includer includes
 * kselftest_harness.h first (TH_LOG).
 */
static inline int su_hotplug_logged(struct __test_metadata *_metadata,
				    int cpu, bool on, int cycle)
{
	struct timespec t0, t;
	long took;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = su_set_cpu_online(cpu, on);
	clock_gettime(CLOCK_MONOTONIC, &t);
	took = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
	if (took > SU_HOTPLUG_SLOW_MS)
		TH_LOG("cycle %d: cpu%d %s took %ld ms", cycle, cpu,
		       on ? "online" : "offline", took);
	return ret;
}

static inline bool su_cpu_hotpluggable(int cpu)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	return !access(path, W_OK);
}

/*
 * Why the STEAL tests cannot run here (NULL when they can): they need
 * root, the STEAL feature in debugfs, its statistics and schedstats.
 */
static inline const char *su_why_skip(void)
{
	if (geteuid())
		return "must be run as root";
	if (access(SU_FEATURES, R_OK))
		return "no " SU_FEATURES " (CONFIG_SCHED_DEBUG, debugfs)";
	if (kio_sched_feature(SU_FEATURES, "STEAL") < 0)
		return "no STEAL sched feature (CONFIG_SCHED_STEAL)";
	if (access(SU_STEAL, R_OK))
		return "no " SU_STEAL;
	if (access(SU_SCHEDSTATS, W_OK))
		return "no " SU_SCHEDSTATS " (CONFIG_SCHEDSTATS)";
	return NULL;
}

#endif /* STEAL_UTIL_H */
