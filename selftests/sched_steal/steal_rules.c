// SPDX-License-Identifier: GPL-2.0
/*
 * STEAL: which tasks an idle CPU steals, and what its statistics say.
 *
 * warm_tasks_stolen: within an LLC a task is stolen however recently it
 *   ran: with sched/migration_cost_ns at -1 every task is "cache hot" to
 *   the load balancer (task_hot()), and idle CPUs of the LLC must still
 *   steal waiting tasks.
 * stats_fields: /sys/kernel/debug/sched/steal has one line per online CPU
 *   with attempts, stolen, failed, skipped, search_ns and backoff, and
 *   attempts = stolen + failed once stealing is off.
 * failed_searches_back_off: a CPU of the LLC overloaded with tasks pinned
 *   to it, which no search can move, does not make every idle entry of
 *   another CPU of the LLC search it, nor stop its searches.
 * newidle_off_no_steals: where the LLC's domain does not balance newly
 *   idle CPUs (SD_BALANCE_NEWIDLE cleared by relax_domain_level= or a
 *   cpuset's sched_relax_domain_level), no CPU of it steals either.
 *
 * Skips (exit 4) without the STEAL feature.
 */
#define _GNU_SOURCE
#include "kselftest_harness.h"
#include "steal_util.h"

static const char *const steal_fields[] = {
	"attempts", "stolen", "failed", "skipped", "search_ns", "backoff", NULL
};
/* What failed_searches_back_off reads */
static const char *const backoff_counts[] = {
	"attempts", "stolen", "skipped", "backoff", NULL
};
/* What warm_tasks_stolen needs, so that it judges only what it tests. */
static const char *const steal_counts[] = {
	"attempts", "stolen", "failed", NULL
};

/* Y: the scheduler shows each domain's flags under sched/domains/ */
#define SCHED_VERBOSE		"/sys/kernel/debug/sched/verbose"
#define SCHED_DOMAINS		"/sys/kernel/debug/sched/domains"

/* (unsigned int)-1: task_hot() calls every CFS task hot. */
#define WARM_MIGRATION_COST_NS	"4294967295"
#define WARM_WINDOWS		4
#define WARM_WINDOW_S		2
/*
 * Under the cache-hot rule no task can be stolen at all: task_hot() is 1
 * for every SCHED_NORMAL and SCHED_BATCH task when migration_cost_ns is
 * -1.  Without it 7 to 150 steals a window were seen (2 and 4 vCPUs on the
 * emulated Sandy Bridge board).
 */
#define WARM_MIN_STEALS		1

FIXTURE(steal_rules) {
	int was_on;
	char schedstats[16];
	char migr_cost[32];
	char verbose[4];	/* sched/verbose: the domains' debugfs files */
	struct su_tasks t;
	/* Views of the steal file before and after a measurement */
	struct su_view a, b;
};

FIXTURE_SETUP(steal_rules)
{
	self->t.n = 0;
	self->was_on = kio_sched_feature(SU_FEATURES, "STEAL");
	ASSERT_LE(0, self->was_on);
	ASSERT_EQ(0, kio_read_line(SU_SCHEDSTATS, self->schedstats,
				   sizeof(self->schedstats)));
	ASSERT_EQ(0, kio_read_line(SU_MIGR_COST, self->migr_cost,
				   sizeof(self->migr_cost)));
	/* Only newidle_off_no_steals needs it, and skips without it. */
	if (kio_read_line(SCHED_VERBOSE, self->verbose, sizeof(self->verbose)))
		self->verbose[0] = '\0';
}

FIXTURE_TEARDOWN(steal_rules)
{
	su_stop(&self->t);
	kio_write_str(SU_MIGR_COST, self->migr_cost);
	if (self->verbose[0])
		kio_write_str(SCHED_VERBOSE, self->verbose);
	su_set_steal(self->was_on);
	kio_write_str(SU_SCHEDSTATS, self->schedstats);
}

/*
 * The flags of @cpu's LLC domain, the highest with SD_SHARE_LLC, in @buf
 * (SCHED_DOMAINS/cpuN/domainM/flags, there while sched/verbose is Y):
 * 0, or -1 where no domain of @cpu shares its LLC.
 */
static int llc_domain_flags(int cpu, char *buf, size_t size)
{
	char path[96], flags[512];
	int level, found = -1;

	for (level = 0; ; level++) {
		snprintf(path, sizeof(path), SCHED_DOMAINS "/cpu%d/domain%d/flags",
			 cpu, level);
		if (kio_read_line(path, flags, sizeof(flags)))
			break;
		if (!strstr(flags, "SD_SHARE_LLC"))
			continue;
		snprintf(buf, size, "%s", flags);
		found = 0;
	}
	return found;
}

/*
 * Whether cpu0's LLC domain balances newly idle CPUs: 1 or 0, its flags
 * in @flags; -1 where that cannot be read.  Only where it does may its
 * CPUs steal (relax_domain_level=0 clears SD_BALANCE_NEWIDLE).
 */
static int llc_balances_newidle(FIXTURE_DATA(steal_rules) *self,
				char *flags, size_t size)
{
	if (!self->verbose[0] || kio_write_str(SCHED_VERBOSE, "Y") ||
	    llc_domain_flags(0, flags, size))
		return -1;
	return !!strstr(flags, "SD_BALANCE_NEWIDLE");
}

#define NEWIDLE_OFF_SKIP \
	"cpu0's LLC domain does not balance newly idle CPUs (relax_domain_level=): its CPUs may not steal"

/*
 * Two sleep-wake tasks per CPU of cpu0's LLC, allowed anywhere in it,
 * load each CPU to about 90%: each runs 1 ms of CPU time and sleeps
 * 1.2 ms.  They are SCHED_BATCH, which does not preempt on wakeup, so a
 * task woken on a busy CPU waits there while another CPU of the LLC goes
 * idle: a load that STEAL acts on.
 */
static int spawn_llc_load(struct su_tasks *t, const int *llc, int nllc)
{
	int i;

	for (i = 0; i < 2 * nllc; i++)
		if (su_spawn_policy(t, llc, nllc, 1000, 1200, SCHED_BATCH) <= 0)
			return -1;
	return 0;
}

/* What the CPUs of the LLC added to @field of the steal file from @a to @b */
static long long llc_delta(const struct su_view *a, const struct su_view *b,
			   const int *llc, int nllc, const char *field)
{
	long long sum = 0;
	int i;

	for (i = 0; i < nllc; i++)
		sum += su_get(b, llc[i], field) - su_get(a, llc[i], field);
	return sum;
}

/*
 * spawn_llc_load(), with migration_cost_ns at -1: the load balancer calls
 * every task cache hot; stealing must not care.
 */
TEST_F(steal_rules, warm_tasks_stolen)
{
	struct su_view *a = &self->a, *b = &self->b;
	int llc[SU_MAX_CPUS], nllc, i, window;
	long long stolen = 0, best = 0;
	char flags[512];

	nllc = su_llc_cpus(0, llc);
	if (nllc < 2)
		SKIP(return, "cpu0 shares its last-level cache with no other CPU");
	if (!llc_balances_newidle(self, flags, sizeof(flags)))
		SKIP(return, NEWIDLE_OFF_SKIP);
	ASSERT_EQ(0, kio_write_str(SU_SCHEDSTATS, "1"));
	ASSERT_EQ(0, kio_write_str(SU_MIGR_COST, WARM_MIGRATION_COST_NS));
	ASSERT_EQ(0, su_set_steal(true));

	ASSERT_EQ(0, spawn_llc_load(&self->t, llc, nllc));

	sleep(1);
	ASSERT_LT(0, su_read_view(SU_STEAL, steal_counts, a));
	/* The host may starve the guest for a while: windows of 2 s. */
	for (window = 1; window <= WARM_WINDOWS && best < WARM_MIN_STEALS;
	     window++) {
		sleep(WARM_WINDOW_S);
		ASSERT_LT(0, su_read_view(SU_STEAL, steal_counts, b));
		stolen = llc_delta(a, b, llc, nllc, "stolen");
		TH_LOG("window %d: the CPUs of the LLC stole %lld tasks", window,
		       stolen);
		for (i = 0; i < nllc; i++)
			TH_LOG("  cpu%d: attempts +%lld stolen +%lld failed +%lld",
			       llc[i],
			       su_get(b, llc[i], "attempts") - su_get(a, llc[i], "attempts"),
			       su_get(b, llc[i], "stolen") - su_get(a, llc[i], "stolen"),
			       su_get(b, llc[i], "failed") - su_get(a, llc[i], "failed"));
		if (stolen > best)
			best = stolen;
		memcpy(a, b, sizeof(*a));
	}
	EXPECT_LE(WARM_MIN_STEALS, best)
		TH_LOG("the CPUs of the LLC stole at most %lld tasks in a %d s window, with every task cache hot to task_hot()",
		       best, WARM_WINDOW_S);
}

/* Every field of every online CPU's line, and attempts = stolen + failed. */
TEST_F(steal_rules, stats_fields)
{
	struct su_view *v = &self->a, *w = &self->b;
	int cpus[SU_MAX_CPUS], n, i;

	n = su_online_cpus(cpus);
	ASSERT_LT(0, n);
	/* Nothing steals while this reads: the sums are settled. */
	ASSERT_EQ(0, su_set_steal(false));
	usleep(100000);
	ASSERT_EQ(n, su_read_view(SU_STEAL, steal_fields, v))
		TH_LOG("want one line per online CPU, each with attempts=, stolen=, failed=, skipped=, search_ns= and backoff=");
	ASSERT_EQ(n, su_read_view(SU_STEAL, steal_fields, w));
	for (i = 0; i < n; i++) {
		int c = cpus[i];

		EXPECT_TRUE(v->present[c]) TH_LOG("no line for cpu%d", c);
		EXPECT_EQ(su_get(v, c, "attempts"),
			  su_get(v, c, "stolen") + su_get(v, c, "failed"))
			TH_LOG("cpu%d: attempts != stolen + failed", c);
		EXPECT_LE(0, su_get(v, c, "skipped"));
		EXPECT_LE(0, su_get(v, c, "search_ns"));
		EXPECT_LE(0, su_get(v, c, "backoff"));
		/* Stealing is off: nothing moves. */
		EXPECT_EQ(su_get(v, c, "attempts"), su_get(w, c, "attempts"));
		EXPECT_EQ(su_get(v, c, "skipped"), su_get(w, c, "skipped"));
		EXPECT_EQ(su_get(v, c, "backoff"), su_get(w, c, "backoff"));
	}
}

/*
 * Two CPU hogs pinned to a CPU of cpu0's LLC keep it overloaded with
 * nothing a search may move; a task pinned to another CPU of the LLC runs
 * 20 us and sleeps BACKOFF_SLEEP_US, so that CPU goes idle hundreds of
 * times a second, each time with an avg_idle far above a search's cost.
 * Without a back-off every such idle entry searches, takes the victim's
 * lock and finds nothing: 2151 searches in 2151 idle entries of 3 s on
 * the emulated Sandy Bridge board.  With it, the waits after failed
 * searches double up to about 8 ms, which allows some 125 searches a
 * second: 330 in 1634 idle entries (20%).  At least BACKOFF_MIN_IDLE idle
 * entries a second are needed to tell the two apart
 * (Documentation/data/failfirst-20261206/).  The back-off must end too:
 * a CPU that stopped searching for good would pass the first check, so
 * at least BACKOFF_MIN_SEARCHES a second, a fifth of what the longest
 * wait allows, and the idle entries it skipped counted as backoff=.
 *
 * A CPU searches only while its avg_idle exceeds its average search cost
 * (steal_fits(); it counts skipped= otherwise), and that average decays
 * by about 1% a second while nothing measures it.  avg_idle is at most
 * about 1 ms here, and searches made slow by a host that preempted the
 * vCPU can lift the average above it for tens of seconds: in the make
 * check of 2026-12-07 on the sandybridge board, cpu1 went idle 1771 times
 * in the window and searched none, and had searched 34 times where each
 * other CPU of the LLC searched 125 to 190 in the test before.  So the
 * sleeper first tries each CPU of the LLC for BACKOFF_PROBE_MS and stays
 * on the first whose searches, backed off or not, outnumber its skips;
 * and the share is of the idle entries not skipped.  A test without a
 * CPU that searches is skipped, saying so.
 */
#define BACKOFF_SLEEP_US	1000
#define BACKOFF_WINDOW_S	3
#define BACKOFF_MIN_IDLE	300
#define BACKOFF_MAX_PERCENT	50
#define BACKOFF_MIN_SEARCHES	25
#define BACKOFF_PROBE_MS	500

/* Whether @cpu searched (backed off or not) more often than it skipped */
static bool backoff_gate_open(const struct su_view *a, const struct su_view *b,
			      int cpu)
{
	long long tried = su_get(b, cpu, "attempts") - su_get(a, cpu, "attempts") +
			  su_get(b, cpu, "backoff") - su_get(a, cpu, "backoff");

	return tried > su_get(b, cpu, "skipped") - su_get(a, cpu, "skipped");
}

TEST_F(steal_rules, failed_searches_back_off)
{
	struct su_view *a = &self->a, *b = &self->b;
	int llc[SU_MAX_CPUS], nllc, victim, thief = -1, i;
	long long idle0, idle1, idle, searches, skipped, entries;
	char flags[512];
	cpu_set_t set;
	pid_t sleeper;

	nllc = su_llc_cpus(0, llc);
	if (nllc < 2)
		SKIP(return, "cpu0 shares its last-level cache with no other CPU");
	if (!llc_balances_newidle(self, flags, sizeof(flags)))
		SKIP(return, NEWIDLE_OFF_SKIP);
	victim = llc[0];
	ASSERT_EQ(0, kio_write_str(SU_SCHEDSTATS, "1"));
	ASSERT_EQ(0, su_set_steal(true));
	ASSERT_LT(0, su_spawn(&self->t, &victim, 1, 0, 0));
	ASSERT_LT(0, su_spawn(&self->t, &victim, 1, 0, 0));
	sleeper = su_spawn(&self->t, &llc[1], 1, 20, BACKOFF_SLEEP_US);
	ASSERT_LT(0, sleeper);

	for (i = 1; i < nllc && thief < 0; i++) {
		CPU_ZERO(&set);
		CPU_SET(llc[i], &set);
		ASSERT_EQ(0, sched_setaffinity(sleeper, sizeof(set), &set));
		usleep(BACKOFF_PROBE_MS * 1000 / 2);
		ASSERT_LT(0, su_read_view(SU_STEAL, backoff_counts, a));
		usleep(BACKOFF_PROBE_MS * 1000);
		ASSERT_LT(0, su_read_view(SU_STEAL, backoff_counts, b));
		if (backoff_gate_open(a, b, llc[i]))
			thief = llc[i];
		else
			TH_LOG("cpu%d skipped %lld searches in %d ms and tried %lld: its search costs more than its idle time",
			       llc[i], su_get(b, llc[i], "skipped") - su_get(a, llc[i], "skipped"),
			       BACKOFF_PROBE_MS,
			       su_get(b, llc[i], "attempts") - su_get(a, llc[i], "attempts") +
			       su_get(b, llc[i], "backoff") - su_get(a, llc[i], "backoff"));
	}
	if (thief < 0)
		SKIP(return, "no CPU of cpu0's LLC searches when going idle beside the hogs: searches cost more than the idle time (a starved guest)");

	ASSERT_LT(0, su_read_view(SU_STEAL, backoff_counts, a));
	idle0 = kio_schedstat(thief, NULL, KIO_SCHEDSTAT_GOIDLE);
	ASSERT_LE(0, idle0);
	sleep(BACKOFF_WINDOW_S);
	ASSERT_LT(0, su_read_view(SU_STEAL, backoff_counts, b));
	idle1 = kio_schedstat(thief, NULL, KIO_SCHEDSTAT_GOIDLE);
	ASSERT_LE(0, idle1);

	idle = idle1 - idle0;
	searches = su_get(b, thief, "attempts") - su_get(a, thief, "attempts");
	skipped = su_get(b, thief, "skipped") - su_get(a, thief, "skipped");
	entries = idle - skipped;
	TH_LOG("cpu%d, beside cpu%d and its two pinned hogs, went idle %lld times in %d s, skipped %lld searches as too costly and made %lld (stole %lld, backed off %lld times)",
	       thief, victim, idle, BACKOFF_WINDOW_S, skipped, searches,
	       su_get(b, thief, "stolen") - su_get(a, thief, "stolen"),
	       su_get(b, thief, "backoff") - su_get(a, thief, "backoff"));
	if (entries < BACKOFF_MIN_IDLE * BACKOFF_WINDOW_S)
		SKIP(return, "cpu%d went idle only %lld times in %d s (%lld of them not skipped): too few to show a back-off",
		     thief, idle, BACKOFF_WINDOW_S, entries);
	EXPECT_GE(BACKOFF_MAX_PERCENT, searches * 100 / entries)
		TH_LOG("%lld%% of the idle entries that could search searched a CPU with nothing to steal",
		       searches * 100 / entries);
	EXPECT_LE(BACKOFF_MIN_SEARCHES * BACKOFF_WINDOW_S, searches)
		TH_LOG("the back-off kept cpu%d from searching", thief);
	EXPECT_LT(su_get(a, thief, "backoff"), su_get(b, thief, "backoff"));
}

/*
 * Where the LLC's domain has no SD_BALANCE_NEWIDLE, new-idle balance
 * does not pull within it, and neither may STEAL: the same load that
 * makes the CPUs of the LLC steal tens of tasks a second must make them
 * steal none.  Runs on a kernel booted with relax_domain_level=0 (make
 * check's relax-domain step); elsewhere it skips.
 */
#define NEWIDLE_OFF_WINDOW_S	4

TEST_F(steal_rules, newidle_off_no_steals)
{
	struct su_view *a = &self->a, *b = &self->b;
	int llc[SU_MAX_CPUS], nllc;
	long long stolen, attempts;
	char flags[512];

	nllc = su_llc_cpus(0, llc);
	if (nllc < 2)
		SKIP(return, "cpu0 shares its last-level cache with no other CPU");
	switch (llc_balances_newidle(self, flags, sizeof(flags))) {
	case -1:
		SKIP(return, "the flags of cpu0's LLC domain cannot be read (" SCHED_VERBOSE ", SD_SHARE_LLC)");
	case 1:
		SKIP(return, "cpu0's LLC domain balances newly idle CPUs: boot with relax_domain_level=0 to run this test");
	}
	ASSERT_EQ(0, kio_write_str(SU_SCHEDSTATS, "1"));
	ASSERT_EQ(0, su_set_steal(true));
	ASSERT_EQ(0, spawn_llc_load(&self->t, llc, nllc));

	sleep(1);
	ASSERT_LT(0, su_read_view(SU_STEAL, steal_counts, a));
	sleep(NEWIDLE_OFF_WINDOW_S);
	ASSERT_LT(0, su_read_view(SU_STEAL, steal_counts, b));
	stolen = llc_delta(a, b, llc, nllc, "stolen");
	attempts = llc_delta(a, b, llc, nllc, "attempts");
	TH_LOG("cpu0's LLC domain: %s", flags);
	TH_LOG("in %d s the CPUs of the LLC searched %lld times and stole %lld tasks",
	       NEWIDLE_OFF_WINDOW_S, attempts, stolen);
	EXPECT_EQ(0, stolen);
	EXPECT_EQ(0, attempts);
}

int main(int argc, char **argv)
{
	const char *why = su_why_skip();

	if (!why && access(SU_MIGR_COST, W_OK))
		why = "no " SU_MIGR_COST;
	if (why) {
		ksft_print_header();
		ksft_exit_skip("%s\n", why);
	}
	return test_harness_run(argc, argv);
}
