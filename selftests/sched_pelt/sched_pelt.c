// SPDX-License-Identifier: GPL-2.0
/*
 * kernel.sched_pelt_multiplier: the knob accepts 1, 2 and 4 only, from root
 * only, and a spinning task's util_avg ramps up faster with a larger
 * multiplier (halflife 32, 16 and 8 PELT ms).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "knob_io.h"

#define KNOB		"/proc/sys/kernel/sched_pelt_multiplier"
#define BIG_LEN		4096

/* PELT's halflife is 32 periods of 1024 * 1024 ns: 33.554 ms */
#define HALFLIFE1_US	33554.0
#define TOLERANCE	0.35
/*
 * util_avg in /proc/self/sched moves only when the running task's PELT
 * sums are updated, at the scheduler tick: a reading lags by up to a tick
 * (4 ms at HZ=250), and the 80% crossing is seen up to two ticks late.
 */
#define TICK_SLACK_MS	8.0
#define ROUNDS		5	/* odd: the median is a sample; a stalled vCPU spoils one or two */
#define SLEEP_US	400000
#define RAMP_LIMIT_MS	1000.0

/* The knob's value, or -errno */
static int knob_read(void)
{
	long v;
	int ret;

	ret = kio_read_l(KNOB, &v);
	return ret ? ret : (int)v;
}

static int knob_set(int mult)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d\n", mult);
	return kio_write_str(KNOB, buf);
}

static const char *knob_absent(void)
{
	if (access(KNOB, F_OK))
		return KNOB " is absent: the kernel has no runtime PELT halflife";
	if (geteuid())
		return "needs root";
	return NULL;
}

FIXTURE(knob) {
	int saved;
};

FIXTURE_SETUP(knob)
{
	const char *why = knob_absent();

	self->saved = 0;
	if (why)
		SKIP(return, "%s", why);
	self->saved = knob_read();
	ASSERT_GT(self->saved, 0);
}

FIXTURE_TEARDOWN(knob)
{
	if (self->saved > 0)
		EXPECT_EQ(0, knob_set(self->saved));
}

TEST_F(knob, good_values)
{
	static const int good[] = { 1, 2, 4, 2, 1, 4, 1 };
	unsigned int i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		EXPECT_EQ(0, knob_set(good[i])) TH_LOG("writing %d", good[i]);
		EXPECT_EQ(good[i], knob_read());
	}
	/* Surrounding white space is accepted by the sysctl parser */
	EXPECT_EQ(0, kio_write_all(KNOB, " 2 \n", 4));
	EXPECT_EQ(2, knob_read());
}

TEST_F(knob, empty_write)
{
	int ret;

	ASSERT_EQ(0, knob_set(2));
	ret = kio_write_all(KNOB, "", 0);
	EXPECT_TRUE(ret == 0 || ret == -EINVAL) TH_LOG("empty write: %s",
						       strerror(-ret));
	EXPECT_EQ(2, knob_read());
}

TEST_F(knob, non_root)
{
	struct kio_result r;

	ASSERT_EQ(0, knob_set(4));
	ASSERT_EQ(0, kio_write_as(KIO_AS_NOBODY, KNOB, "1\n", 2, &r));
	ASSERT_EQ(0, r.setup_err) TH_LOG("cannot become uid %d: %s",
					 KIO_NOBODY, strerror(r.setup_err));
	EXPECT_TRUE(kio_refused(&r))
		TH_LOG("a write as uid %d was not refused", KIO_NOBODY);
	EXPECT_EQ(4, knob_read());
}

/* Each bad value is refused with EINVAL and leaves the value in place */
FIXTURE(bad) {
	int saved;
};

FIXTURE_VARIANT(bad) {
	const char *value;	/* NULL: BIG_LEN digits */
};

FIXTURE_VARIANT_ADD(bad, zero) { .value = "0" };
FIXTURE_VARIANT_ADD(bad, three) { .value = "3" };
FIXTURE_VARIANT_ADD(bad, eight) { .value = "8" };
FIXTURE_VARIANT_ADD(bad, minus_one) { .value = "-1" };
FIXTURE_VARIANT_ADD(bad, above_u32) { .value = "4294967297" };
FIXTURE_VARIANT_ADD(bad, trailing_junk) { .value = "4abc" };
FIXTURE_VARIANT_ADD(bad, letters) { .value = "abc" };
FIXTURE_VARIANT_ADD(bad, four_kib) { .value = NULL };

FIXTURE_SETUP(bad)
{
	const char *why = knob_absent();

	self->saved = 0;
	if (why)
		SKIP(return, "%s", why);
	self->saved = knob_read();
	ASSERT_GT(self->saved, 0);
}

FIXTURE_TEARDOWN(bad)
{
	if (self->saved > 0)
		EXPECT_EQ(0, knob_set(self->saved));
}

TEST_F(bad, refused)
{
	static const int start[] = { 4, 1, 2 };
	char big[BIG_LEN];
	const char *buf = variant->value;
	size_t len;
	unsigned int i;

	if (!buf) {
		memset(big, '4', sizeof(big));
		buf = big;
		len = sizeof(big);
	} else {
		len = strlen(buf);
	}

	for (i = 0; i < sizeof(start) / sizeof(start[0]); i++) {
		ASSERT_EQ(0, knob_set(start[i]));
		EXPECT_EQ(-EINVAL, kio_write_all(KNOB, buf, len))
			TH_LOG("writing \"%.16s\"%s (%zu bytes)", buf,
			       len > 16 ? "..." : "", len);
		EXPECT_EQ(start[i], knob_read());
	}
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* se.avg.util_avg of the calling task, or -1 */
static long util_avg(void)
{
	static char buf[16384];
	const char *p;

	if (kio_read("/proc/self/sched", buf, sizeof(buf)) <= 0)
		return -1;
	p = strstr(buf, "se.avg.util_avg");
	if (!p)
		return -1;
	p = strchr(p, ':');
	return p ? strtol(p + 1, NULL, 10) : -1;
}

/*
 * The CPU to measure on: among those we may use, the highest-numbered one
 * with the largest (@little: smallest) capacity, away from CPU0's
 * housekeeping; -1 when @little and all capacities are equal.
 */
static int pick_cpu(bool little)
{
	long best_cap = 0, cap;
	int cpu, best = -1;
	bool equal = true;
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		cap = kio_cpu_capacity(cpu);
		if (best >= 0 && cap != best_cap)
			equal = false;
		if (best < 0 || (little ? cap <= best_cap : cap >= best_cap)) {
			best = cpu;
			best_cap = cap;
		}
	}
	return little && equal ? -1 : best;
}

/*
 * Run at the highest frequency while measuring, when cpufreq allows it:
 * the closed form assumes no frequency scaling. Returns the governor to
 * put back, or "" when nothing was changed.
 */
static void governor_set(int cpu, const char *gov, char *old, size_t len)
{
	char path[96];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
	/* No cpufreq, or no such governor here: leave it as it was */
	if (kio_read_line(path, old, len) || kio_write_str(path, gov))
		old[0] = '\0';
}

static void governor_restore(int cpu, const char *old)
{
	char tmp[64];

	if (old[0])
		governor_set(cpu, old, tmp, sizeof(tmp));
}

/*
 * Sleep until util_avg has decayed, then spin and return the ms until
 * util_avg >= 80% of @cap (-1 when it never gets there).
 */
static double ramp_ms(long cap)
{
	double t0, t;
	int tries;

	/*
	 * The ramp starts at the wake-up, not after the check, a read of
	 * /proc/self/sched: counted from after it, the hikey960 LITTLE's
	 * medians at multiplier 4 were 9.9 to 11.4 ms against a theory of
	 * 12.0, counted from the wake-up 13.0 and 13.8.
	 */
	for (tries = 0; tries < 5; tries++) {
		usleep(SLEEP_US);
		t0 = now_ms();
		if (util_avg() * 20 <= cap)
			break;
	}
	do {
		t = now_ms() - t0;
		if (util_avg() * 10 >= cap * 8)
			return t;
	} while (t < RAMP_LIMIT_MS);
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * Wall-clock ms for util_avg of a task spinning at the highest frequency on
 * a CPU of capacity @cap to go from 0 to 80% of @cap. The CPU's PELT clock
 * advances cap/1024 as fast as wall time, and util_avg approaches 1024 with
 * the halflife on that clock.
 */
static double theory_ms(long cap, int mult)
{
	double halflife = HALFLIFE1_US / 1000 / mult;

	return halflife * log2(1 / (1 - 0.8 * cap / 1024)) * 1024 / cap;
}

static void util_ramp(struct __test_metadata *_metadata, bool little)
{
	static const int mults[] = { 1, 2, 4 };
	double t[3][ROUNDS], med[3];
	char gov[64];
	cpu_set_t set;
	long cap;
	int cpu, r, m;

	cpu = pick_cpu(little);
	if (cpu < 0 && little)
		SKIP(return, "all CPUs have the same capacity");
	ASSERT_GE(cpu, 0);
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	cap = kio_cpu_capacity(cpu);
	if (util_avg() < 0)
		SKIP(return, "no se.avg.util_avg in /proc/self/sched");
	governor_set(cpu, "performance", gov, sizeof(gov));

	/* Interleaved rounds: drift of the host hits every multiplier alike */
	for (r = 0; r < ROUNDS; r++) {
		for (m = 0; m < 3; m++) {
			EXPECT_EQ(0, knob_set(mults[m]));
			t[m][r] = ramp_ms(cap);
		}
	}
	governor_restore(cpu, gov);

	for (m = 0; m < 3; m++) {
		double theory = theory_ms(cap, mults[m]);

		qsort(t[m], ROUNDS, sizeof(double), cmp_double);
		med[m] = t[m][ROUNDS / 2];
		ksft_print_msg("cpu%d capacity %ld multiplier %d: 80%% after %.1f ms (median of %d, %.1f..%.1f), theory %.1f ms\n",
			       cpu, cap, mults[m], med[m], ROUNDS, t[m][0],
			       t[m][ROUNDS - 1], theory);
		EXPECT_GE(t[m][0], 0)
			TH_LOG("util_avg did not reach 80%% of %ld within %.0f ms with multiplier %d",
			       cap, RAMP_LIMIT_MS, mults[m]);
		EXPECT_LE(med[m], theory * (1 + TOLERANCE) + TICK_SLACK_MS)
			TH_LOG("multiplier %d: %.1f ms, theory %.1f ms",
			       mults[m], med[m], theory);
		EXPECT_GE(med[m], theory * (1 - TOLERANCE))
			TH_LOG("multiplier %d: %.1f ms, theory %.1f ms",
			       mults[m], med[m], theory);
	}
	EXPECT_LT(med[2], med[1]);
	EXPECT_LT(med[1], med[0]);
}

/* On the biggest CPU */
TEST_F_TIMEOUT(knob, util_ramp, 60)
{
	util_ramp(_metadata, false);
}

/* On the smallest CPU of an asymmetric system (capacity invariance) */
TEST_F_TIMEOUT(knob, util_ramp_little, 60)
{
	util_ramp(_metadata, true);
}

int main(int argc, char **argv)
{
	const char *why = knob_absent();

	/* Nothing to test: skip the whole program rather than pass */
	if (why)
		ksft_exit_skip("%s\n", why);

	return test_harness_run(argc, argv);
}
