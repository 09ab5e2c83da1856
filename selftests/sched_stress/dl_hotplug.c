// SPDX-License-Identifier: GPL-2.0
/*
 * A throttled SCHED_DEADLINE task whose CPU goes offline.  Its
 * replenishment timer can fire on the CPU after the run queue went
 * offline; dl_task_timer() then moves the task to an active CPU
 * (dl_task_offline_migration()), and the bandwidth it moves reaches
 * cpufreq_update_util(), which reads both run queues' clocks.  v6.12 read
 * them after double_lock_balance() had cleared their RQCF_UPDATED, and
 * warned "rq->clock_update_flags < RQCF_ACT_SKIP" whenever a governor with
 * a utilization hook (schedutil) ran the CPUs.
 *
 * offline_while_throttled: one deadline task per CPU, each using up its
 * runtime and throttled most of its period, while every CPU that can go
 * offline goes offline and online in turn; the kernel log must not hold
 * the warning, from this test or from anything earlier in the boot (it is
 * a WARN_ONCE: after a first one the kernel stays silent).
 *
 * Skips (exit 4) without root or CPU hotplug, without CONFIG_SCHED_DEBUG
 * (which makes the check) or a CPU run by schedutil (whose hook reads the
 * clock), and when SCHED_DEADLINE is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sched/types.h>

#include "kselftest_harness.h"
#include "knob_io.h"
#include "mono_time.h"
#include "spinner.h"

#define DL_POLICY	6		/* SCHED_DEADLINE */
/*
 * 2 ms every 20 ms: throttled 90% of the time, so a CPU going offline
 * usually has a timer armed; 10% per task keeps admission control happy
 * with one CPU fewer.
 */
#define DL_RUNTIME_NS	2000000ULL
#define DL_PERIOD_NS	20000000ULL
#define MAX_CPUS	64
/* Seconds of hotplug (env DL_HOTPLUG_SECONDS) */
#define HOTPLUG_SECONDS	10

static int set_deadline(void)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_policy = DL_POLICY,
		.sched_runtime = DL_RUNTIME_NS,
		.sched_deadline = DL_PERIOD_NS,
		.sched_period = DL_PERIOD_NS,
	};

	return syscall(SYS_sched_setattr, 0, &attr, 0) ? -errno : 0;
}

/* Does schedutil run any CPU? */
static bool schedutil_in_use(void)
{
	glob_t g;
	char gov[32];
	bool found = false;
	size_t i;

	if (glob("/sys/devices/system/cpu/cpufreq/policy*/scaling_governor",
		 0, NULL, &g))
		return false;
	for (i = 0; i < g.gl_pathc && !found; i++)
		found = !kio_read_line(g.gl_pathv[i], gov, sizeof(gov)) &&
			!strcmp(gov, "schedutil");
	globfree(&g);
	return found;
}

static int cpu_online_path(int cpu, char *path, size_t len)
{
	return snprintf(path, len, "/sys/devices/system/cpu/cpu%d/online", cpu);
}

FIXTURE(dl_hotplug) {
	pid_t pid[MAX_CPUS];
	int ntasks;
	int cpus[MAX_CPUS];	/* CPUs that can go offline */
	int ncpus;
	int offline;		/* a CPU left offline by a failed step, or -1 */
};

FIXTURE_SETUP(dl_hotplug)
{
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	char path[96];
	int cpu;

	self->ntasks = 0;
	self->ncpus = 0;
	self->offline = -1;
	if (geteuid())
		SKIP(return, "needs root");
	for (cpu = 1; cpu < ncpu && cpu < MAX_CPUS; cpu++) {
		cpu_online_path(cpu, path, sizeof(path));
		if (!access(path, W_OK))
			self->cpus[self->ncpus++] = cpu;
	}
	if (!self->ncpus)
		SKIP(return, "no CPU can go offline (CONFIG_HOTPLUG_CPU)");
	if (access("/sys/kernel/debug/sched", F_OK))
		SKIP(return, "no /sys/kernel/debug/sched: without CONFIG_SCHED_DEBUG the kernel does not check the rq clock");
	if (!schedutil_in_use())
		SKIP(return, "no CPU runs schedutil, whose hook reads the rq clock");
}

FIXTURE_TEARDOWN(dl_hotplug)
{
	char path[96];
	int i;

	for (i = 0; i < self->ntasks; i++)
		kill(self->pid[i], SIGKILL);
	for (i = 0; i < self->ntasks; i++)
		waitpid(self->pid[i], NULL, 0);
	if (self->offline >= 0) {
		cpu_online_path(self->offline, path, sizeof(path));
		kio_write_str(path, "1");
	}
}

/* The setup of a spinner that is a deadline task */
static int deadline_setup(void *arg)
{
	(void)arg;
	return set_deadline();
}

TEST_F(dl_hotplug, offline_while_throttled)
{
	static const char *const clock_warning[] = { "RQCF_ACT_SKIP", NULL };
	const char *env = getenv("DL_HOTPLUG_SECONDS");
	int secs = env ? atoi(env) : HOTPLUG_SECONDS;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	long cycles = 0, busy = 0;
	char path[96], line[512];
	double t0;
	int i, err, ret;

	ASSERT_LT(0, secs);
	for (i = 0; i < ncpu && i < MAX_CPUS; i++) {
		pid_t pid = spawn_spinner(deadline_setup, NULL, &err);

		ASSERT_LT(0, pid);
		self->pid[self->ntasks++] = pid;
		if (err == -EPERM || err == -EBUSY || err == -EINVAL)
			SKIP(return, "SCHED_DEADLINE refused: %s", strerror(-err));
		ASSERT_EQ(0, err);
	}

	t0 = now_s();
	do {
		for (i = 0; i < self->ncpus; i++) {
			cpu_online_path(self->cpus[i], path, sizeof(path));
			ret = kio_write_str(path, "0");
			if (ret == -EBUSY) {	/* refused for now: next round */
				busy++;
				continue;
			}
			ASSERT_EQ(0, ret);
			self->offline = self->cpus[i];
			ASSERT_EQ(0, kio_write_str(path, "1"));
			self->offline = -1;
		}
		cycles++;
	} while (now_s() - t0 < secs);

	TH_LOG("%ld hotplug cycles of %d CPUs (%ld offlines refused) with %d deadline tasks in %d s",
	       cycles, self->ncpus, busy, self->ntasks, secs);
	ASSERT_LT(0, cycles * self->ncpus - busy);
	ret = kio_kmsg_count(clock_warning, line, sizeof(line));
	ASSERT_LE(0, ret);
	if (ret)
		TH_LOG("the kernel warned: %s", line);
	EXPECT_EQ(0, ret);
}

TEST_HARNESS_MAIN
