// SPDX-License-Identifier: GPL-2.0
/*
 * STEAL where big and LITTLE CPUs share a last-level cache: a steal must
 * not move a task down to a CPU it does not fit, which misfit balancing
 * would undo.
 *
 * no_steal_down: two CPU hogs, allowed on a big CPU and on one LITTLE CPU
 *   of the same LLC, are put back on the big CPU again and again; the
 *   LITTLE CPU, going idle often, must never steal one (the steal events
 *   of the sched_events module name the task).  The hogs ask for a
 *   uclamp_min of 1024, so that they fit no LITTLE CPU whatever their
 *   utilization: one that the load balancer moved to the LITTLE CPU,
 *   where it ran at a low frequency for a while, can come back with a
 *   utilization that fits it, and task_fits_cpu() then rightly lets it
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

#define TRACEFS		"/sys/kernel/tracing"
#define EV_STEAL	TRACEFS "/events/sched_events/steal/enable"

static const char *const stolen_count[] = { "stolen", NULL };

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
	su_stop(&self->t);
	su_set_steal(self->was_on);
	kio_write_str(SU_SCHEDSTATS, self->schedstats);
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
		su_set_affinity(0, &other, 1);

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
	ASSERT_EQ(0, kio_truncate(TRACEFS "/trace"));
	ASSERT_EQ(0, kio_write_str(EV_STEAL, "1"));
	/*
	 * Let the hogs' utilization grow to a big CPU's, and the module
	 * attach its probe (from a work item, within a second).
	 */
	sleep(1);

	ASSERT_LT(0, su_read_view(SU_STEAL, stolen_count, &self->a));
	for (cycle = 0; cycle < DOWN_CYCLES; cycle++) {
		for (i = 0; i < 2; i++)
			su_set_affinity(hog[i], &big, 1);
		su_sleep_us(2000);
		for (i = 0; i < 2; i++)
			su_set_affinity(hog[i], allowed, 2);
		su_sleep_us(DOWN_CYCLE_MS * 1000 - 2000);
	}
	ASSERT_LT(0, su_read_view(SU_STEAL, stolen_count, &self->b));
	kio_write_str(EV_STEAL, "0");
	stolen = hog_steals(hog, 2, little);
	kio_truncate(TRACEFS "/trace");
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
