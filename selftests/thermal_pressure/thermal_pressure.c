// SPDX-License-Identifier: GPL-2.0
/*
 * Averaged thermal pressure: kernel.sched_thermal_decay_ms validation, the
 * /sys/kernel/debug/sched/thermal_pressure format, and the pressure of a
 * frequency cap applied through a cpufreq cooling device (or
 * scaling_max_freq), instantaneous and averaged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tp_sysfs.h"

/* Halflife of the behaviour test and the tolerance on its timing (25%) */
#define HALFLIFE_MS	250
#define SLACK_MS	(HALFLIFE_MS / 4)

/* ---- knob validation ---- */

FIXTURE(knob) {
	unsigned long saved;
};

FIXTURE_SETUP(knob)
{
	if (!knob_present())
		SKIP(return, "%s is missing: kernel without averaged thermal pressure", KNOB);
	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(0, kio_read_ul(KNOB, &self->saved));
}

FIXTURE_TEARDOWN(knob)
{
	if (knob_present() && !geteuid())
		kio_write_ul(KNOB, self->saved);
}

TEST_F(knob, good_values)
{
	static const unsigned long good[] = { 0, 1, 8, 32, 250, 1000, 32767, 32768, 0 };
	unsigned long v;
	unsigned int i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ASSERT_EQ(0, kio_write_ul(KNOB, good[i])) TH_LOG("writing %lu", good[i]);
		ASSERT_EQ(0, kio_read_ul(KNOB, &v));
		EXPECT_EQ(good[i], v);
	}
	/* Surrounding white space is fine */
	ASSERT_EQ(0, kio_write_str(KNOB, " 64\n"));
	ASSERT_EQ(0, kio_read_ul(KNOB, &v));
	EXPECT_EQ(64UL, v);
}

FIXTURE(bad) {
	unsigned long saved;
};

FIXTURE_VARIANT(bad) {
	const char *value;	/* NULL: 4 KiB of digits */
};

FIXTURE_VARIANT_ADD(bad, minus_one) { .value = "-1" };
FIXTURE_VARIANT_ADD(bad, above_max) { .value = "32769" };
FIXTURE_VARIANT_ADD(bad, issue_example) { .value = "40000" };
FIXTURE_VARIANT_ADD(bad, uint_max) { .value = "4294967295" };
FIXTURE_VARIANT_ADD(bad, above_uint) { .value = "4294967296" };
FIXTURE_VARIANT_ADD(bad, overflow) { .value = "99999999999999999999999" };
FIXTURE_VARIANT_ADD(bad, negative_big) { .value = "-32768" };
FIXTURE_VARIANT_ADD(bad, junk) { .value = "abc" };
FIXTURE_VARIANT_ADD(bad, trailing_junk) { .value = "12abc" };
FIXTURE_VARIANT_ADD(bad, fraction) { .value = "1.5" };
FIXTURE_VARIANT_ADD(bad, long_string) { .value = NULL };

FIXTURE_SETUP(bad)
{
	if (!knob_present())
		SKIP(return, "%s is missing: kernel without averaged thermal pressure", KNOB);
	if (geteuid())
		SKIP(return, "needs root");
	ASSERT_EQ(0, kio_read_ul(KNOB, &self->saved));
	ASSERT_EQ(0, kio_write_ul(KNOB, HALFLIFE_MS));
}

FIXTURE_TEARDOWN(bad)
{
	if (knob_present() && !geteuid())
		kio_write_ul(KNOB, self->saved);
}

TEST_F(bad, refused_and_unchanged)
{
	static char big[4096];
	unsigned long v;
	int ret;

	if (variant->value) {
		ret = kio_write_str(KNOB, variant->value);
	} else {
		memset(big, '1', sizeof(big));
		ret = kio_write_all(KNOB, big, sizeof(big));
	}
	EXPECT_EQ(-EINVAL, ret) TH_LOG("writing '%.20s'", variant->value ?: big);
	ASSERT_EQ(0, kio_read_ul(KNOB, &v));
	EXPECT_EQ((unsigned long)HALFLIFE_MS, v);
}

TEST_F(knob, empty_write_unchanged)
{
	unsigned long v;

	ASSERT_EQ(0, kio_write_ul(KNOB, 32));
	EXPECT_EQ(0, kio_write_all(KNOB, "", 0));
	ASSERT_EQ(0, kio_read_ul(KNOB, &v));
	EXPECT_EQ(32UL, v);
}

TEST_F(knob, non_root_refused)
{
	struct kio_result r;
	unsigned long v;

	ASSERT_EQ(0, kio_write_ul(KNOB, 32));
	ASSERT_EQ(0, kio_write_as(KIO_AS_NOBODY, KNOB, "8", 1, &r));
	ASSERT_EQ(0, r.setup_err) TH_LOG("cannot become nobody: %s",
					 strerror(r.setup_err));
	/* EACCES from the file mode, EPERM from the handler */
	EXPECT_TRUE(kio_refused(&r)) TH_LOG("a non-root write was not refused");
	ASSERT_EQ(0, kio_read_ul(KNOB, &v));
	EXPECT_EQ(32UL, v);
}

/* ---- debugfs view ---- */

TEST(debugfs_format)
{
	struct tp_line lines[MAX_CPUS];
	int online[MAX_CPUS], nr_online, nr, i;
	unsigned long decay;
	char bad[256];

	if (geteuid())
		SKIP(return, "needs root");
	if (access(DEBUGFS, R_OK))
		SKIP(return, "%s is missing (debugfs not mounted, or no averaged thermal pressure)", DEBUGFS);
	ASSERT_EQ(0, kio_read_ul(KNOB, &decay));

	nr_online = online_cpus(online);
	ASSERT_LT(0, nr_online);
	nr = read_debugfs(lines, bad, sizeof(bad));
	ASSERT_LE(0, nr) TH_LOG("%s", bad);
	ASSERT_EQ(nr_online, nr) TH_LOG("one line per online CPU");

	for (i = 0; i < nr; i++) {
		struct tp_line *l = &lines[i];

		EXPECT_EQ(online[i], l->cpu);
		EXPECT_LT(0UL, l->orig);
		EXPECT_GE(1024UL, l->orig);
		EXPECT_GE(l->orig, l->instant);
		EXPECT_GE(l->orig, l->avg);
		EXPECT_GE(l->orig, l->actual);
		/* actual = orig - max(hw_load_avg, pressure in use) */
		EXPECT_GE(l->orig - (decay ? l->avg : l->instant), l->actual)
			TH_LOG("cpu%d orig=%lu instant=%lu avg=%lu actual=%lu",
			       l->cpu, l->orig, l->instant, l->avg, l->actual);
		if (!decay)
			EXPECT_EQ(l->instant, l->avg);
	}
}

/* ---- behaviour under a cap ---- */

FIXTURE(cap) {
	unsigned long saved_decay;
	int cpu;			/* first CPU of the policy */
	char policy[128];
	char cdev[128];			/* cur_state path, "" if none */
	unsigned long max_state;
	unsigned long cpuinfo_max, cpuinfo_min, saved_max;
	unsigned long orig;
	int capped;
};

static int cap_apply(FIXTURE_DATA(cap) *self, int on)
{
	char path[192];

	if (self->cdev[0])
		return kio_write_ul(self->cdev, on ? self->max_state : 0);
	snprintf(path, sizeof(path), "%s/scaling_max_freq", self->policy);
	return kio_write_ul(path, on ? self->cpuinfo_min : self->saved_max);
}

FIXTURE_SETUP(cap)
{
	struct tp_line lines[MAX_CPUS], *l;
	unsigned long best = 0;
	char bad[256], path[192];
	glob_t g;
	size_t i;
	int nr;

	self->capped = 0;
	if (!knob_present())
		SKIP(return, "%s is missing: kernel without averaged thermal pressure", KNOB);
	if (geteuid())
		SKIP(return, "needs root");
	if (access(DEBUGFS, R_OK))
		SKIP(return, "%s is missing", DEBUGFS);
	ASSERT_EQ(0, kio_read_ul(KNOB, &self->saved_decay));
	if (glob(CPUFREQ "/policy*", 0, NULL, &g) || !g.gl_pathc)
		SKIP(return, "no cpufreq driver: no policy to cap");

	nr = read_debugfs(lines, bad, sizeof(bad));
	ASSERT_LE(0, nr) TH_LOG("%s", bad);

	/* The policy of the biggest CPUs: capping it is what moves capacity most */
	self->cpu = -1;
	for (i = 0; i < g.gl_pathc; i++) {
		int cpu = atoi(strrchr(g.gl_pathv[i], 'y') + 1);

		l = find_cpu(lines, nr, cpu);
		if (l && l->orig > best) {
			best = l->orig;
			self->cpu = cpu;
			snprintf(self->policy, sizeof(self->policy), "%s", g.gl_pathv[i]);
		}
	}
	globfree(&g);
	if (self->cpu < 0)
		SKIP(return, "no online policy CPU");
	self->orig = best;

	snprintf(path, sizeof(path), "%s/cpuinfo_max_freq", self->policy);
	ASSERT_EQ(0, kio_read_ul(path, &self->cpuinfo_max));
	snprintf(path, sizeof(path), "%s/cpuinfo_min_freq", self->policy);
	ASSERT_EQ(0, kio_read_ul(path, &self->cpuinfo_min));
	snprintf(path, sizeof(path), "%s/scaling_max_freq", self->policy);
	ASSERT_EQ(0, kio_read_ul(path, &self->saved_max));
	if (self->cpuinfo_min >= self->cpuinfo_max)
		SKIP(return, "%s has a single frequency", self->policy);
	/* Without a cooling device, cdev stays "" and scaling_max_freq caps */
	find_cdev(self->cpu, self->cdev, sizeof(self->cdev), &self->max_state);
	TH_LOG("capping %s (cpu%d, orig %lu) through %s", self->policy, self->cpu,
	       self->orig, self->cdev[0] ? self->cdev : "scaling_max_freq");

	/* Start uncapped, with the instantaneous pressure */
	ASSERT_EQ(0, kio_write_ul(KNOB, 0));
	ASSERT_EQ(0, cap_apply(self, 0));
}

FIXTURE_TEARDOWN(cap)
{
	if (!knob_present() || geteuid() || access(DEBUGFS, R_OK))
		return;
	if (self->policy[0])
		cap_apply(self, 0);
	kio_write_ul(KNOB, self->saved_decay);
}

/*
 * The longest time between two polls of the debugfs view since it was last
 * reset: when the host starves the guest, a crossing is seen that much late.
 */
static long poll_gap_max;

static void poll_gap(long *last)
{
	long t = now_ms();

	if (*last && t - *last > poll_gap_max)
		poll_gap_max = t - *last;
	*last = t;
}

/*
 * Wait (up to 2 s) until @cpu's instantaneous pressure satisfies
 * (instant != 0) == @capped; the time it was first seen, or -1.
 */
static long wait_instant(int cpu, int capped, struct tp_line *l)
{
	long start = now_ms(), last = 0;

	while (now_ms() - start < 2000) {
		poll_gap(&last);
		if (read_cpu(cpu, l))
			return -1;
		if (!!l->instant == !!capped)
			return now_ms();
		sleep_ms(2);
	}
	return -1;
}

/* The pressure the cap should give, from the frequency the policy got */
static unsigned long expected_pressure(FIXTURE_DATA(cap) *self, unsigned long *capped)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/scaling_max_freq", self->policy);
	if (kio_read_ul(path, capped)) {
		*capped = 0;
		return 0;
	}
	return self->orig - self->orig * *capped / self->cpuinfo_max;
}

TEST_F(cap, instant_pressure)
{
	unsigned long want, freq;
	struct tp_line l;

	ASSERT_LT(0, wait_instant(self->cpu, 0, &l)) TH_LOG("pressure stays without a cap");
	ASSERT_EQ(0, cap_apply(self, 1));
	ASSERT_LT(0, wait_instant(self->cpu, 1, &l)) TH_LOG("no pressure from the cap");
	want = expected_pressure(self, &freq);
	TH_LOG("capped to %lu of %lu kHz: cpu%d orig=%lu instant=%lu avg=%lu actual=%lu (want %lu)",
	       freq, self->cpuinfo_max, l.cpu, l.orig, l.instant, l.avg, l.actual, want);
	EXPECT_GE(1L, labs((long)l.instant - (long)want));
	/* Decay 0: avg is the instantaneous pressure, actual accounts for it */
	EXPECT_EQ(l.instant, l.avg);
	EXPECT_GE(l.orig - l.instant, l.actual);

	ASSERT_EQ(0, cap_apply(self, 0));
	ASSERT_LT(0, wait_instant(self->cpu, 0, &l)) TH_LOG("pressure stays after the cap is lifted");
	EXPECT_EQ(0UL, l.avg);
}

/*
 * Poll until avg crosses @level (upwards when @rising), up to 8 halflives;
 * the time of the first poll past it, or -1.
 */
static long wait_avg(int cpu, unsigned long level, int rising, struct tp_line *l)
{
	long start = now_ms(), last = 0;

	while (now_ms() - start < 8 * HALFLIFE_MS) {
		poll_gap(&last);
		if (read_cpu(cpu, l))
			return -1;
		if (rising ? l->avg >= level : l->avg <= level)
			return now_ms();
		sleep_ms(2);
	}
	return -1;
}

TEST_F(cap, averaged_pressure)
{
	long before, seen, crossed;
	struct tp_line l;
	unsigned long p;

	ASSERT_LT(0, wait_instant(self->cpu, 0, &l));
	ASSERT_EQ(0, kio_write_ul(KNOB, HALFLIFE_MS));
	ASSERT_EQ(0, read_cpu(self->cpu, &l));
	ASSERT_EQ(0UL, l.avg) TH_LOG("the restarted average starts at the instantaneous pressure");

	/*
	 * The cap lands between @before and @seen (cpufreq applies it from a
	 * work item); a crossing is seen up to poll_gap_max late.
	 */
	poll_gap_max = 0;
	before = now_ms();
	ASSERT_EQ(0, cap_apply(self, 1));
	seen = wait_instant(self->cpu, 1, &l);
	ASSERT_LT(0, seen);
	p = l.instant;
	/* 2^(-1/4) > 3/4: a quarter halflife in, the average is below P/4 */
	if (seen - before <= HALFLIFE_MS / 4) {
		EXPECT_GT(p / 4, l.avg) TH_LOG("avg %lu jumped towards %lu at once", l.avg, p);
	} else {
		TH_LOG("the cap was seen %ld ms late: no at-once check", seen - before);
	}
	self->capped = 1;

	crossed = wait_avg(self->cpu, p / 2, 1, &l);
	ASSERT_LT(0, crossed) TH_LOG("avg never reached %lu/2", p);
	TH_LOG("cap: avg %lu >= %lu/2 after %ld..%ld ms (halflife %d ms, polls up to %ld ms apart)",
	       l.avg, p, crossed - seen, crossed - before, HALFLIFE_MS, poll_gap_max);
	EXPECT_LE(HALFLIFE_MS - SLACK_MS, crossed - before);
	EXPECT_GE(HALFLIFE_MS + SLACK_MS + poll_gap_max, crossed - seen);

	/* Settled, then lifted: back to P/2 after one halflife */
	ASSERT_LT(0, wait_avg(self->cpu, p - p / 64, 1, &l));
	poll_gap_max = 0;
	before = now_ms();
	ASSERT_EQ(0, cap_apply(self, 0));
	seen = wait_instant(self->cpu, 0, &l);
	ASSERT_LT(0, seen);
	crossed = wait_avg(self->cpu, p / 2, 0, &l);
	ASSERT_LT(0, crossed) TH_LOG("avg never fell to %lu/2", p);
	TH_LOG("lift: avg %lu <= %lu/2 after %ld..%ld ms (polls up to %ld ms apart)",
	       l.avg, p, crossed - seen, crossed - before, poll_gap_max);
	EXPECT_LE(HALFLIFE_MS - SLACK_MS, crossed - before);
	EXPECT_GE(HALFLIFE_MS + SLACK_MS + poll_gap_max, crossed - seen);
}

int main(int argc, char **argv)
{
	/* Without the feature, skip as a whole rather than pass by skipping */
	if (!knob_present()) {
		ksft_print_header();
		ksft_exit_skip("%s is missing: kernel without averaged thermal pressure\n",
			       KNOB);
	}
	return test_harness_run(argc, argv);
}
