// SPDX-License-Identifier: GPL-2.0
/*
 * STEAL on asymmetric machines: a steal must not undo what the energy-aware
 * scheduler (EAS) and misfit balancing decided.
 *
 * eas_keeps_placement: while EAS is on and the root domain is not
 *   overutilized, load balancing leaves tasks where their wakeup put them,
 *   and so must stealing.  Light tasks on the CPUs of cpu0's LLC stack up
 *   on CPUs while others idle (EAS places by utilization, not by who runs
 *   now), and the root domain goes in and out of overutilized.  The trace
 *   of the project's sched_events module records every write of the flag
 *   (sched_overutilized_tp) and every steal: no steal may come while the
 *   flag was last written 0.  Skips without EAS or without the module.
 * no_steal_down: two CPU hogs, allowed on a big CPU and on one LITTLE CPU
 *   of the same LLC, are put back on the big CPU again and again; the
 *   LITTLE CPU, going idle often, must never steal one (the steal events
 *   of the sched_events module name the task): a hog does not fit a
 *   LITTLE CPU, and misfit balancing would move it back up.  The hogs ask
 *   for a uclamp_min of 1024, so that they fit no LITTLE CPU whatever
 *   their utilization: one that the load balancer moved to the LITTLE
 *   CPU, where it ran at a low frequency for a while, can come back with
 *   a utilization that fits it, and task_fits_cpu() then rightly lets it
 *   be stolen (4 such steals in 40 cycles were seen without the clamp).
 *   Skips unless cpu0's LLC holds CPUs of two capacities (the dynamiq
 *   board), without the module and without uclamp.
 *
 * Skips (exit 4) without the STEAL feature.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <linux/sched/types.h>

#include "kselftest_harness.h"
#include "steal_util.h"

#define EAS_AWARE	"/proc/sys/kernel/sched_energy_aware"
#define TRACEFS		"/sys/kernel/tracing"
#define EV_OVERUTIL	TRACEFS "/events/sched_events/overutilized/enable"
#define EV_STEAL	TRACEFS "/events/sched_events/steal/enable"

static const char *const stolen_count[] = { "stolen", NULL };

/* The light load: each task runs EAS_RUN_US and sleeps EAS_SLEEP_US. */
#define EAS_RUN_US		100
#define EAS_SLEEP_US		1900
#define EAS_WINDOW_S		4
/*
 * A steal tests the flag when its search starts and is traced when it
 * ends: one that started before the flag went to 0 may be traced after
 * it.  A search takes tens of microseconds, but the host may stop the
 * vCPU in the middle for its own time slices (3.5 ms, once 28 ms, on a
 * host building two kernels beside the guest).  Steals in the first
 * EAS_SLACK_US of a spell at 0 count for neither state.
 */
#define EAS_SLACK_US		5000
/*
 * What the test compares: steals per second while the flag reads 0 and
 * while it reads 1.  Without the EAS rule they are alike; with it, the
 * first may be at most EAS_MAX_PERCENT of the second, plus EAS_MAX_LATE
 * steals that a stalled vCPU made late.  At least EAS_MIN_ZERO_MS at 0
 * are needed to tell.
 */
#define EAS_MAX_PERCENT		10
#define EAS_MAX_LATE		2
#define EAS_MIN_ZERO_MS		300
/* The steals while not overutilized that the log shows one by one */
#define EAS_SHOWN		8

/* The hogs are put back on the big CPU every CYCLE_MS, CYCLES times. */
#define DOWN_CYCLE_MS		100
#define DOWN_CYCLES		40
/* The ticker on the LITTLE CPU: it goes idle about a thousand times a second */
#define DOWN_TICK_RUN_US	20
#define DOWN_TICK_SLEEP_US	1000

/* sched_attr.sched_flags: keep the policy and its parameters, set uclamp_min */
#define CLAMP_FLAGS		(0x08 | 0x10 | 0x20)

FIXTURE(steal_capacity) {
	int was_on;
	char schedstats[16];
	struct su_tasks t;
	struct su_view a, b;
};

FIXTURE_SETUP(steal_capacity)
{
	self->t.n = 0;
	self->was_on = kio_sched_feature(SU_FEATURES, "STEAL");
	ASSERT_LE(0, self->was_on);
	ASSERT_EQ(0, kio_read_line(SU_SCHEDSTATS, self->schedstats,
				   sizeof(self->schedstats)));
}

FIXTURE_TEARDOWN(steal_capacity)
{
	kio_write_str(EV_STEAL, "0");
	kio_write_str(EV_OVERUTIL, "0");
	su_stop(&self->t);
	su_set_steal(self->was_on);
	kio_write_str(SU_SCHEDSTATS, self->schedstats);
}

/* Empty the trace buffer: tracefs does it when "trace" is opened with O_TRUNC. */
static int trace_clear(void)
{
	int fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

struct eas_record {
	long steals[2];		/* steals while the flag read 0 and 1 */
	double secs[2];		/* time at 0 (but the slacks) and at 1 */
	long writes[2];		/* writes of 0 and of 1 */
	double late_ms[EAS_SHOWN];	/* steals at 0: how long after it went 0 */
};

static double trace_ts(const char *line)
{
	const char *p = strrchr(line, ']');
	double ts;

	return p && sscanf(p + 1, "%*s %lf", &ts) == 1 ? ts : -1;
}

/* A spell of @secs with the flag at @flag: a 0's first slack is left out */
static void eas_spell(struct eas_record *r, int flag, double secs)
{
	if (!flag)
		secs -= EAS_SLACK_US / 1e6;
	if (secs > 0)
		r->secs[flag] += secs;
}

/*
 * Read the trace: "... TIMESTAMP: overutilized: overutilized=F ..." and
 * "... TIMESTAMP: steal: comm=...", in time order, from the first write
 * of the flag on.
 */
static int eas_read_trace(struct eas_record *r)
{
	const char *tag = ": overutilized: overutilized=";
	double ts, since = 0, zero_at = 0;
	int flag = -1, was;
	char line[512], *p;
	FILE *f;

	memset(r, 0, sizeof(*r));
	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		ts = trace_ts(line);
		if (ts < 0)
			continue;
		p = strstr(line, tag);
		if (p) {
			was = flag;
			flag = p[strlen(tag)] == '1';
			r->writes[flag]++;
			/* The load balancer writes 0 again while it stays 0. */
			if (was == flag)
				continue;
			if (was >= 0)
				eas_spell(r, was, ts - since);
			since = ts;
			if (!flag)
				zero_at = ts;
			continue;
		}
		if (!strstr(line, ": steal: ") || flag < 0)
			continue;
		if (!flag && ts - zero_at <= EAS_SLACK_US / 1e6)
			continue;
		if (!flag && r->steals[0] < EAS_SHOWN)
			r->late_ms[r->steals[0]] = (ts - zero_at) * 1e3;
		r->steals[flag]++;
	}
	if (flag >= 0)
		eas_spell(r, flag, ts - since);
	fclose(f);
	return 0;
}

/* The traced steals of one of the @n tasks of @pids to @dst_cpu. */
static long hog_steals(const pid_t *pids, int n, int dst_cpu)
{
	char line[512], *p;
	int pid, src, dst, i;
	long count = 0;
	FILE *f;

	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, ": steal: ");
		if (!p || line[0] == '#')
			continue;
		p = strstr(p, " pid=");
		if (!p || sscanf(p, " pid=%d src_cpu=%d dst_cpu=%d", &pid, &src,
				 &dst) != 3 || dst != dst_cpu)
			continue;
		for (i = 0; i < n; i++)
			count += pid == pids[i];
	}
	fclose(f);
	return count;
}

TEST_F(steal_capacity, eas_keeps_placement)
{
	int llc[SU_MAX_CPUS], nllc, i;
	struct eas_record r;
	double limit;
	long eas = 0;

	if (kio_read_l(EAS_AWARE, &eas) || eas != 1)
		SKIP(return, "EAS is off (%s does not read 1)", EAS_AWARE);
	if (access(EV_OVERUTIL, W_OK) || access(EV_STEAL, W_OK))
		SKIP(return, "no sched_events:overutilized and steal events (the sched_events module)");
	nllc = su_llc_cpus(0, llc);
	if (nllc < 2)
		SKIP(return, "cpu0 shares its last-level cache with no other CPU");
	ASSERT_EQ(0, kio_write_str(SU_SCHEDSTATS, "1"));
	ASSERT_EQ(0, su_set_steal(true));

	for (i = 0; i < 2 * nllc; i++)
		ASSERT_LT(0, su_spawn_policy(&self->t, llc, nllc, EAS_RUN_US,
					     EAS_SLEEP_US, SCHED_BATCH));
	ASSERT_EQ(0, trace_clear());
	ASSERT_EQ(0, kio_write_str(EV_OVERUTIL, "1"));
	ASSERT_EQ(0, kio_write_str(EV_STEAL, "1"));
	/* The module attaches its probes from a work item, within a second. */
	sleep(1 + EAS_WINDOW_S);
	kio_write_str(EV_STEAL, "0");
	kio_write_str(EV_OVERUTIL, "0");
	ASSERT_EQ(0, eas_read_trace(&r));
	trace_clear();

	TH_LOG("%d light tasks on the %d CPUs of cpu0's LLC: %ld writes of overutilized=0, %ld of 1",
	       2 * nllc, nllc, r.writes[0], r.writes[1]);
	TH_LOG("overutilized %.2f s: %ld steals; not overutilized %.2f s: %ld steals",
	       r.secs[1], r.steals[1], r.secs[0], r.steals[0]);
	for (i = 0; i < r.steals[0] && i < EAS_SHOWN; i++)
		TH_LOG("  a steal %.1f ms after overutilized went to 0",
		       r.late_ms[i]);
	if (r.secs[0] * 1000 < EAS_MIN_ZERO_MS || r.secs[1] <= 0)
		SKIP(return, "the root domain was not overutilized for only %.0f ms",
		     r.secs[0] * 1000);
	limit = EAS_MAX_LATE + r.steals[1] / r.secs[1] * r.secs[0] *
			       EAS_MAX_PERCENT / 100;
	EXPECT_GE(limit, r.steals[0])
		TH_LOG("stealing moved tasks that EAS placed, with the root domain not overutilized (at most %.1f steals wanted)",
		       limit);
}

/* Set @pid's uclamp_min: 0 or -errno */
static int set_uclamp_min(pid_t pid, unsigned int value)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_flags = CLAMP_FLAGS,
		.sched_util_min = value,
	};

	return syscall(SYS_sched_setattr, pid, &attr, 0) ? -errno : 0;
}

static void set_affinity(pid_t pid, const int *cpus, int n)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < n; i++)
		CPU_SET(cpus[i], &set);
	sched_setaffinity(pid, sizeof(set), &set);
}

TEST_F(steal_capacity, no_steal_down)
{
	int llc[SU_MAX_CPUS], nllc, allowed[2], little = -1, big = -1;
	int other = -1, i, cycle;
	long cap, min_cap = 0, max_cap = 0;
	pid_t hog[2];
	long stolen;

	nllc = su_llc_cpus(0, llc);
	for (i = 0; i < nllc; i++) {
		cap = kio_cpu_capacity(llc[i]);
		if (!i || cap < min_cap)
			min_cap = cap;
		if (!i || cap > max_cap)
			max_cap = cap;
	}
	if (min_cap == max_cap)
		SKIP(return, "the CPUs of cpu0's last-level cache all have capacity %ld",
		     min_cap);
	for (i = 0; i < nllc; i++) {
		cap = kio_cpu_capacity(llc[i]);
		if (cap == min_cap && little < 0)
			little = llc[i];
		else if (cap == max_cap && big < 0)
			big = llc[i];
		else if (other < 0)
			other = llc[i];
	}
	if (access(EV_STEAL, W_OK))
		SKIP(return, "no sched_events:steal event (the sched_events module)");
	ASSERT_EQ(0, kio_write_str(SU_SCHEDSTATS, "1"));
	ASSERT_EQ(0, su_set_steal(true));
	/* This process stays off the CPUs it watches. */
	if (other >= 0)
		set_affinity(0, &other, 1);

	ASSERT_LT(0, su_spawn(&self->t, &little, 1, DOWN_TICK_RUN_US,
			      DOWN_TICK_SLEEP_US));
	/* No other LITTLE CPU, which could steal from this one */
	allowed[0] = little;
	allowed[1] = big;
	for (i = 0; i < 2; i++) {
		hog[i] = su_spawn(&self->t, &big, 1, 0, 0);
		ASSERT_LT(0, hog[i]);
		if (set_uclamp_min(hog[i], 1024))
			SKIP(return, "sched_setattr() cannot set uclamp_min (CONFIG_UCLAMP_TASK)");
	}
	ASSERT_EQ(0, trace_clear());
	ASSERT_EQ(0, kio_write_str(EV_STEAL, "1"));
	/*
	 * Let the hogs' utilization grow to a big CPU's, and the module
	 * attach its probe (from a work item, within a second).
	 */
	sleep(1);

	ASSERT_LT(0, su_read_view(SU_STEAL, stolen_count, &self->a));
	for (cycle = 0; cycle < DOWN_CYCLES; cycle++) {
		for (i = 0; i < 2; i++)
			set_affinity(hog[i], &big, 1);
		su_sleep_us(2000);
		for (i = 0; i < 2; i++)
			set_affinity(hog[i], allowed, 2);
		su_sleep_us(DOWN_CYCLE_MS * 1000 - 2000);
	}
	ASSERT_LT(0, su_read_view(SU_STEAL, stolen_count, &self->b));
	kio_write_str(EV_STEAL, "0");
	stolen = hog_steals(hog, 2, little);
	trace_clear();
	ASSERT_LE(0, stolen);
	TH_LOG("two hogs put back on big cpu%d (capacity %ld) %d times: LITTLE cpu%d (capacity %ld) stole a hog %ld times, %lld tasks in all",
	       big, max_cap, DOWN_CYCLES, little, min_cap, stolen,
	       su_get(&self->b, little, "stolen") -
	       su_get(&self->a, little, "stolen"));
	EXPECT_EQ(0, stolen)
		TH_LOG("a LITTLE CPU stole a task that does not fit it");
}

int main(int argc, char **argv)
{
	const char *why = su_why_skip();

	if (why) {
		ksft_print_header();
		ksft_exit_skip("%s\n", why);
	}
	return test_harness_run(argc, argv);
}
