// SPDX-License-Identifier: GPL-2.0
/*
 * STEAL: the overload masks are exact and the search is bounded, checked
 * with the counters of CONFIG_SCHED_STEAL_DEBUG
 * (/sys/kernel/debug/sched/steal_debug: per possible CPU, the sets and
 * clears of its overload bit, the mismatches found by the kernel's own
 * check, and the victims it tried to steal from).
 *
 * delayed_dequeue: a CPU running one CPU-bound task and one sleep-wake
 *   task sets its bit once per wakeup of the sleeper, not also when the
 *   sleeper's delayed dequeue completes (one runnable task throughout).
 * offline_throttled: a CPU whose throttled CFS group is unthrottled as it
 *   goes offline leaves no bit behind.
 * victims_bounded: an idle CPU tries at most two victims per idle entry.
 * no_reports: under overload, throttling, hotplug and STEAL toggling the
 *   kernel's check finds nothing.
 * toggled_back_to_back: nor while STEAL is turned on and off as fast as
 *   the features file takes it, under a load of short sleeps on every CPU
 *   (the key does not turn off for all CPUs at one instant, and the check
 *   must not look at a CPU that no longer keeps its bit); and once the
 *   write of NO_STEAL has returned, no steal attempt is counted.
 *
 * Skips (exit 4) without the STEAL feature or without
 * CONFIG_SCHED_STEAL_DEBUG.
 */
#define _GNU_SOURCE
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>

#include "kselftest_harness.h"
#include "steal_util.h"

static const char *const debug_fields[] = {
	"sets", "clears", "reports", "victims", NULL
};
static const char *const steal_fields[] = {
	"attempts", "stolen", "failed", NULL
};

/* The sleeper of delayed_dequeue: 2 ms of CPU time, then 10 ms asleep. */
#define DELAY_RUN_US	2000
#define DELAY_SLEEP_US	10000
#define DELAY_SECONDS	3
/*
 * Sets allowed per sleeper wakeup, with slack for kernel threads waking on
 * the CPU: measured 1.00-1.02 with the fix, 1.6-2.0 without (see the
 * commit that added this test).
 */
#define DELAY_SETS_PCT	130
#define DELAY_SETS_SLACK	20

#define MAX_VICTIMS	2

/* A CFS bandwidth group: 1 ms every 100 ms keeps it throttled. */
#define CG_QUOTA	"1000 100000"

FIXTURE(steal_exact) {
	int was_on;
	char schedstats[16];
	int cpus[SU_MAX_CPUS];
	int ncpu;
	int hot_cpu;
	char cgroot[64];
	char cgdir[128];
	bool mounted;
	struct su_tasks t;
	/* Views of steal_debug and steal before and after a measurement */
	struct su_view a, b, sa, sb;
};

FIXTURE_SETUP(steal_exact)
{
	self->t.n = 0;
	self->hot_cpu = -1;
	self->cgdir[0] = '\0';
	self->mounted = false;
	self->was_on = kio_sched_feature(SU_FEATURES, "STEAL");
	ASSERT_LE(0, self->was_on);
	ASSERT_EQ(0, kio_read_line(SU_SCHEDSTATS, self->schedstats,
				   sizeof(self->schedstats)));
	self->ncpu = su_online_cpus(self->cpus);
	ASSERT_LT(0, self->ncpu);
}

FIXTURE_TEARDOWN(steal_exact)
{
	su_stop(&self->t);
	if (self->hot_cpu >= 0)
		su_set_cpu_online(self->hot_cpu, true);
	if (self->cgdir[0])
		rmdir(self->cgdir);
	if (self->mounted) {
		umount(self->cgroot);
		rmdir(self->cgroot);
	}
	su_set_steal(self->was_on);
	kio_write_str(SU_SCHEDSTATS, self->schedstats);
}

static long long total(const struct su_view *v, const char *name)
{
	long long sum = 0;
	int cpu;

	for (cpu = 0; cpu < SU_MAX_CPUS; cpu++)
		if (v->present[cpu])
			sum += su_get(v, cpu, name);
	return sum;
}

/*
 * One CPU, two tasks pinned to it: a CPU-bound one and a sleeper.  Each
 * wakeup of the sleeper makes two tasks runnable (set) and its sleep one
 * (clear); its sleep is usually delayed (DELAY_DEQUEUE), and the dequeue
 * completes later while only the CPU-bound task is runnable, which must
 * not touch the bit.
 */
TEST_F(steal_exact, delayed_dequeue)
{
	int cpu = self->cpus[self->ncpu - 1];
	struct su_view *a = &self->a, *b = &self->b;
	long long sets, cycles;
	long vcsw0, vcsw1;
	pid_t sleeper;

	if (kio_sched_feature(SU_FEATURES, "DELAY_DEQUEUE") != 1)
		SKIP(return, "DELAY_DEQUEUE is off: no delayed dequeue to check");
	ASSERT_EQ(0, su_set_steal(true));
	ASSERT_LT(0, su_spawn(&self->t, &cpu, 1, 0, 0));
	sleeper = su_spawn(&self->t, &cpu, 1, DELAY_RUN_US, DELAY_SLEEP_US);
	ASSERT_LT(0, sleeper);

	sleep(1);
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, a));
	vcsw0 = su_status_field(sleeper, "voluntary_ctxt_switches");
	sleep(DELAY_SECONDS);
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, b));
	vcsw1 = su_status_field(sleeper, "voluntary_ctxt_switches");
	ASSERT_LE(0, vcsw0);
	ASSERT_LE(0, vcsw1);

	sets = su_get(b, cpu, "sets") - su_get(a, cpu, "sets");
	cycles = vcsw1 - vcsw0;
	TH_LOG("cpu%d: %lld sleeper wakeups, %lld sets, %lld clears of its bit (%.2f sets per wakeup)",
	       cpu, cycles, sets,
	       su_get(b, cpu, "clears") - su_get(a, cpu, "clears"),
	       cycles ? (double)sets / cycles : 0.0);
	ASSERT_LT(20, cycles) TH_LOG("the sleeper hardly ran");
	EXPECT_LE(sets, cycles * DELAY_SETS_PCT / 100 + DELAY_SETS_SLACK)
		TH_LOG("the bit is set more often than the CPU gets two runnable tasks");
	EXPECT_EQ(total(a, "reports"), total(b, "reports"));
}

/* Mount cgroup v2 if it is not, and make a group with a CFS quota. */
static int make_throttled_group(FIXTURE_DATA(steal_exact) *self)
{
	char path[192];
	const char *root = "/sys/fs/cgroup";

	snprintf(path, sizeof(path), "%s/cgroup.controllers", root);
	if (access(path, R_OK)) {
		snprintf(self->cgroot, sizeof(self->cgroot), "/tmp/steal-cg.XXXXXX");
		if (!mkdtemp(self->cgroot))
			return -errno;
		if (mount("none", self->cgroot, "cgroup2", 0, NULL)) {
			rmdir(self->cgroot);
			return -errno;
		}
		self->mounted = true;
		root = self->cgroot;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", root);
	if (kio_write_str(path, "+cpu"))
		return -EOPNOTSUPP;
	snprintf(self->cgdir, sizeof(self->cgdir), "%s/steal_exact.%d", root,
		 getpid());
	if (mkdir(self->cgdir, 0755)) {
		self->cgdir[0] = '\0';
		return -errno;
	}
	snprintf(path, sizeof(path), "%s/cpu.max", self->cgdir);
	return kio_write_str(path, CG_QUOTA);
}

static int join_group(FIXTURE_DATA(steal_exact) *self, pid_t pid)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/cgroup.procs", self->cgdir);
	return kio_write_ul(path, pid);
}

/*
 * Three CPU-bound tasks in a throttled group, pinned to the last CPU,
 * which goes offline: unthrottling them on the way (rq_offline_fair())
 * must not leave the CPU's bit set once it is offline.
 *
 * 90 s, not the harness's 30, as no_reports: the make check of CI on
 * 2026-12-07 killed this test at 30 s on the hikey960 board, with no
 * kernel message and the tests after it, hotplug included, passing.  Its
 * six hotplug steps and 1.2 s of sleeps usually take a few seconds; a
 * slow step is logged, and a hang still fails.
 */
TEST_F_TIMEOUT(steal_exact, offline_throttled, 90)
{
	int cpu = self->cpus[self->ncpu - 1], cycle, i, ret;
	struct su_view *a = &self->a, *b = &self->b;

	if (self->ncpu < 2)
		SKIP(return, "needs two CPUs");
	if (!su_cpu_hotpluggable(cpu))
		SKIP(return, "cpu%d cannot go offline", cpu);
	ret = make_throttled_group(self);
	if (ret)
		SKIP(return, "no CFS bandwidth control in cgroup v2: %s",
		     strerror(-ret));
	ASSERT_EQ(0, su_set_steal(true));
	for (i = 0; i < 3; i++) {
		pid_t pid = su_spawn(&self->t, &cpu, 1, 0, 0);

		ASSERT_LT(0, pid);
		ASSERT_EQ(0, join_group(self, pid));
	}
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, a));
	self->hot_cpu = cpu;
	for (cycle = 0; cycle < 3; cycle++) {
		/* The group runs 1 ms in 100: throttled most of the time. */
		usleep(300000);
		ASSERT_EQ(0, su_hotplug_logged(_metadata, cpu, false, cycle));
		usleep(100000);
		ASSERT_EQ(0, su_hotplug_logged(_metadata, cpu, true, cycle));
	}
	self->hot_cpu = -1;
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, b));
	EXPECT_EQ(su_get(a, cpu, "reports"), su_get(b, cpu, "reports"))
		TH_LOG("cpu%d kept its overload bit while offline", cpu);
	EXPECT_EQ(total(a, "reports"), total(b, "reports"));
}

/*
 * Every CPU but the last of an LLC of four or more runs two CPU-bound
 * tasks pinned to it: overloaded, with nothing to steal.  The last CPU
 * runs a pinned task that sleeps often, so it goes idle often and
 * searches each time: it must try at most MAX_VICTIMS victims a search.
 */
TEST_F(steal_exact, victims_bounded)
{
	struct su_view *a = &self->a, *b = &self->b;
	struct su_view *sa = &self->sa, *sb = &self->sb;
	int llc[SU_MAX_CPUS], nllc, i, j, thief;
	long long att, vic;

	nllc = su_llc_cpus(0, llc);
	if (nllc < MAX_VICTIMS + 2)
		SKIP(return, "needs %d CPUs in cpu0's last-level cache, has %d",
		     MAX_VICTIMS + 2, nllc);
	thief = llc[nllc - 1];
	ASSERT_EQ(0, kio_write_str(SU_SCHEDSTATS, "1"));
	ASSERT_EQ(0, su_set_steal(true));
	for (i = 0; i < nllc - 1; i++)
		for (j = 0; j < 2; j++)
			ASSERT_LT(0, su_spawn(&self->t, &llc[i], 1, 0, 0));
	ASSERT_LT(0, su_spawn(&self->t, &thief, 1, 50, 500));

	/*
	 * The victims' window inside the searches' one: a search that ends
	 * between two reads then adds to the searches only.
	 */
	sleep(1);
	ASSERT_LT(0, su_read_view(SU_STEAL, steal_fields, sa));
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, a));
	sleep(2);
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, b));
	ASSERT_LT(0, su_read_view(SU_STEAL, steal_fields, sb));

	att = su_get(sb, thief, "attempts") - su_get(sa, thief, "attempts");
	vic = su_get(b, thief, "victims") - su_get(a, thief, "victims");
	TH_LOG("cpu%d: %lld searches, %lld victims tried (%.2f a search), %d overloaded CPUs",
	       thief, att, vic, att ? (double)vic / att : 0.0, nllc - 1);
	ASSERT_LT(10, att) TH_LOG("the idle CPU hardly searched");
	/*
	 * A search adds its victims, then counts itself, without a lock the
	 * reader takes: one search of slack for a read between the two.
	 */
	EXPECT_LE(vic, MAX_VICTIMS * (att + 1));
	EXPECT_EQ(total(a, "reports"), total(b, "reports"));
}

/*
 * Overload, a throttled group, hotplug and STEAL switched off and on, for
 * a few seconds: the kernel's own check of the masks reports nothing.
 *
 * 90 s, not the harness's 30: once, on the hikey960 board under
 * lava-run, this test was killed at 30 s, with no kernel message and the
 * tests after it passing; what took the time was not logged.  A CPU
 * hotplug step that takes more than a second is logged now, and a hang
 * still fails.
 */
TEST_F_TIMEOUT(steal_exact, no_reports, 90)
{
	struct su_view *v0 = &self->a, *v = &self->b;
	int i, cycle, last = self->cpus[self->ncpu - 1];
	bool hotplug;

	if (self->ncpu < 2)
		SKIP(return, "needs two CPUs");
	hotplug = su_cpu_hotpluggable(last);
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, v0));
	ASSERT_EQ(0, su_set_steal(true));
	for (i = 0; i < self->ncpu; i++) {
		ASSERT_LT(0, su_spawn(&self->t, &self->cpus[i], 1, 0, 0));
		ASSERT_LT(0, su_spawn(&self->t, self->cpus, self->ncpu, 1000, 2000));
		ASSERT_LT(0, su_spawn(&self->t, self->cpus, self->ncpu, 300, 700));
	}
	if (!make_throttled_group(self))
		for (i = 0; i < 2; i++)
			ASSERT_EQ(0, join_group(self, su_spawn(&self->t, self->cpus,
							       self->ncpu, 0, 0)));
	for (cycle = 0; cycle < 8; cycle++) {
		usleep(250000);
		if (hotplug) {
			self->hot_cpu = last;
			ASSERT_EQ(0, su_hotplug_logged(_metadata, last,
						    !(cycle & 1), cycle));
		}
		if (cycle % 3 == 2) {
			ASSERT_EQ(0, su_set_steal(false));
			usleep(50000);
			ASSERT_EQ(0, su_set_steal(true));
		}
	}
	if (hotplug) {
		ASSERT_EQ(0, su_set_cpu_online(last, true));
		self->hot_cpu = -1;
	}
	usleep(250000);
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, v));
	for (i = 0; i < SU_MAX_CPUS; i++)
		if (v->present[i] && su_get(v, i, "reports") != su_get(v0, i, "reports"))
			TH_LOG("cpu%d: %lld reports", i,
			       su_get(v, i, "reports") - su_get(v0, i, "reports"));
	EXPECT_EQ(total(v0, "reports"), total(v, "reports"));
}

/*
 * Seconds of toggled_back_to_back (env STEAL_TOGGLE_SECONDS).  While the
 * kernel checked until after the key was off, 10 s found a stale bit in
 * each of 5 runs on the emulated Sandy Bridge board (1 to 5 reports a
 * run; the numbers are in the commit that made the check stop first).
 */
#define TOGGLE_SECONDS	10
/*
 * How long after NO_STEAL returned no attempt may be counted, looked at
 * every TOGGLE_LOOK_EVERY toggles (reading the counters is slow: the
 * toggles in between keep the check of the masks busy).
 */
#define TOGGLE_GAP_US		200
#define TOGGLE_LOOK_EVERY	8

TEST_F(steal_exact, toggled_back_to_back)
{
	struct su_view *v0 = &self->a, *v = &self->b;
	const char *env = getenv("STEAL_TOGGLE_SECONDS");
	int secs = env ? atoi(env) : TOGGLE_SECONDS;
	struct su_view *s0 = &self->sa, *s1 = &self->sb;
	struct timespec t0, t;
	long toggles = 0, late = 0;
	int i;

	if (self->ncpu < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_LT(0, secs);
	/* About one task per CPU: CPUs go idle and search, others overload. */
	for (i = 0; i < self->ncpu; i++) {
		ASSERT_LT(0, su_spawn(&self->t, self->cpus, self->ncpu, 50, 100));
		ASSERT_LT(0, su_spawn(&self->t, self->cpus, self->ncpu, 50, 100));
		ASSERT_LT(0, su_spawn(&self->t, self->cpus, self->ncpu, 200, 300));
	}
	ASSERT_EQ(0, kio_write_str(SU_SCHEDSTATS, "1"));
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, v0));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		ASSERT_EQ(0, su_set_steal(true));
		ASSERT_EQ(0, su_set_steal(false));
		/* A search still running would be counted meanwhile. */
		if (!(toggles++ % TOGGLE_LOOK_EVERY)) {
			ASSERT_LT(0, su_read_view(SU_STEAL, steal_fields, s0));
			su_sleep_us(TOGGLE_GAP_US);
			ASSERT_LT(0, su_read_view(SU_STEAL, steal_fields, s1));
			if (total(s1, "attempts") != total(s0, "attempts"))
				late++;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < secs);
	ASSERT_LT(0, su_read_view(SU_STEAL_DEBUG, debug_fields, v));
	TH_LOG("%ld toggles in %d s, %lld reports, %ld with attempts counted after NO_STEAL",
	       toggles, secs, total(v, "reports") - total(v0, "reports"), late);
	EXPECT_EQ(total(v0, "reports"), total(v, "reports"));
	EXPECT_EQ(0, late);
}

int main(int argc, char **argv)
{
	const char *why = su_why_skip();

	if (!why && access(SU_STEAL_DEBUG, R_OK))
		why = "no " SU_STEAL_DEBUG " (CONFIG_SCHED_STEAL_DEBUG)";
	if (why) {
		ksft_print_header();
		ksft_exit_skip("%s\n", why);
	}
	return test_harness_run(argc, argv);
}
