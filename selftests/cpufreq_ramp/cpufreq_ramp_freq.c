// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of schedutil's ramp-up tunables on a real (or emulated) cpufreq
 * driver, observed through scaling_cur_freq:
 *  - a step load (one CPU-bound task on a lightly loaded CPU) reaches the
 *    policy's maximum frequency no later with fast_ramp_up=1 than with 0;
 *  - a large up_rate_limit_us delays reaching the maximum by about as much;
 *  - a large down_rate_limit_us keeps the maximum for about as long after
 *    the load stops.
 * SKIPs when there is no cpufreq policy (no driver) or no schedutil.
 *
 * Timing in a virtual machine is noisy: rounds are interleaved, medians
 * compared with a tolerance, and the figures printed.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>

#include "kselftest_harness.h"
#include "ramp_sysfs.h"

#define POLL_US		1000
#define SETTLE_MIN_US	300000		/* light load before the step */
#define SETTLE_MAX_US	3000000
#define STEP_MAX_US	3000000		/* give up waiting for a change */
#define BASE_LIMIT_US	1000		/* up/down limit of the reference */

enum { TICKLE, SPIN, STOP, QUIT };

static const char * const saved_knobs[] = {
	"rate_limit_us", "up_rate_limit_us", "down_rate_limit_us",
	"fast_ramp_up",
};

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * The load on the measured CPU. Both kinds of child wake up every
 * millisecond, so that the governor keeps being called while the CPU is
 * almost idle and a new task's utilization estimate decays before the step.
 * The spinner then spins while told to and exits, taking its utilization
 * with it: what keeps the frequency up afterwards is the governor only.
 */
static void load_child(int cpu, volatile int *phase, int spinner)
{
	if (pin(cpu))
		_exit(1);
	while (*phase != QUIT) {
		if (spinner && *phase == SPIN) {
			while (*phase == SPIN)
				;
			_exit(0);
		}
		if (spinner && *phase == STOP)
			_exit(0);
		sleep_us(POLL_US);
	}
	_exit(0);
}

FIXTURE(ramp) {
	struct ramp_policy p;
	char saved[4][64];
	char cur_path[PATH_MAX];
	unsigned long lo, hi;		/* scaling_min_freq, scaling_max_freq */
	volatile int *phase;
	pid_t child;			/* the ticking child */
};

static unsigned long cur_freq(struct __test_metadata *_metadata,
			      FIXTURE_DATA(ramp) *self)
{
	unsigned long f = 0;

	EXPECT_EQ(0, kio_read_ul(self->cur_path, &f));
	return f;
}

static void set_knob(struct __test_metadata *_metadata,
		     FIXTURE_DATA(ramp) *self, const char *name,
		     unsigned long val)
{
	char path[PATH_MAX];

	ASSERT_EQ(0, kio_write_ul(ramp_tunable(&self->p, name, path), val))
		TH_LOG("cannot set %s to %lu", name, val);
}

FIXTURE_SETUP(ramp)
{
	char path[PATH_MAX];
	unsigned int i;
	int ret, cpu, poll_cpu = -1;
	long ncpus;

	if (geteuid())
		SKIP(return, "must run as root");
	ret = ramp_policy_get(&self->p);
	if (ret == -ENOENT)
		SKIP(return, "no cpufreq policy with the schedutil governor");
	ASSERT_EQ(0, ret);
	for (i = 0; i < ARRAY_SIZE(saved_knobs); i++) {
		ramp_tunable(&self->p, saved_knobs[i], path);
		if (access(path, F_OK)) {
			ramp_policy_put(&self->p);
			SKIP(return, "%s missing: kernel without the ramp-up tweaks",
			     path);
		}
		ASSERT_EQ(0, kio_read_line(path, self->saved[i], sizeof(self->saved[i])));
	}
	ASSERT_EQ(0, ramp_path(self->cur_path, self->p.dir, "scaling_cur_freq"));
	ASSERT_EQ(0, ramp_path(path, self->p.dir, "scaling_min_freq"));
	ASSERT_EQ(0, kio_read_ul(path, &self->lo));
	ASSERT_EQ(0, ramp_path(path, self->p.dir, "scaling_max_freq"));
	ASSERT_EQ(0, kio_read_ul(path, &self->hi));
	if (self->lo >= self->hi)
		SKIP(return, "policy limited to one frequency (%lu kHz)", self->lo);

	/* Watch from a CPU outside the policy if there is one. */
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	for (cpu = 0; cpu < ncpus; cpu++) {
		if (cpu == self->p.cpu)
			continue;
		if (poll_cpu < 0 || !ramp_policy_has_cpu(&self->p, cpu))
			poll_cpu = cpu;
		if (!ramp_policy_has_cpu(&self->p, cpu))
			break;
	}
	if (poll_cpu >= 0)
		ASSERT_EQ(0, pin(poll_cpu));

	self->phase = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->phase);
	*self->phase = TICKLE;
	self->child = fork();
	ASSERT_LE(0, self->child);
	if (!self->child)
		load_child(self->p.cpu, self->phase, 0);

	TH_LOG("%s: cpu%d (watched from cpu%d), %lu..%lu kHz, tunables in %s",
	       self->p.dir, self->p.cpu, poll_cpu, self->lo, self->hi,
	       self->p.tunables);
}

FIXTURE_TEARDOWN(ramp)
{
	char path[PATH_MAX];

	if (self->child > 0) {
		*self->phase = QUIT;
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	if (!self->saved[3][0])
		return;
	kio_write_str(ramp_tunable(&self->p, "rate_limit_us", path), self->saved[0]);
	kio_write_str(ramp_tunable(&self->p, "up_rate_limit_us", path), self->saved[1]);
	kio_write_str(ramp_tunable(&self->p, "down_rate_limit_us", path), self->saved[2]);
	kio_write_str(ramp_tunable(&self->p, "fast_ramp_up", path), self->saved[3]);
	ramp_policy_put(&self->p);
}

static void configure(struct __test_metadata *_metadata,
		      FIXTURE_DATA(ramp) *self, int fast,
		      unsigned long up_us, unsigned long down_us)
{
	set_knob(_metadata, self, "fast_ramp_up", fast);
	set_knob(_metadata, self, "up_rate_limit_us", up_us);
	set_knob(_metadata, self, "down_rate_limit_us", down_us);
}

/*
 * One round: light load until the frequency is at the bottom, then spin
 * and return the time (us) to the policy's maximum. With @hold_us, also
 * stop spinning as soon as the maximum is seen and store how long it stays.
 */
static long long step_round(struct __test_metadata *_metadata,
			    FIXTURE_DATA(ramp) *self, long long *hold_us)
{
	unsigned long f;
	long long t0, t;
	pid_t spinner;

	*self->phase = TICKLE;
	spinner = fork();
	ASSERT_LE(0, spinner);
	if (!spinner)
		load_child(self->p.cpu, self->phase, 1);
	t0 = now_us();
	do {
		sleep_us(POLL_US);
		t = now_us();
	} while (t - t0 < SETTLE_MAX_US &&
		 (t - t0 < SETTLE_MIN_US || cur_freq(_metadata, self) > self->lo));
	if (cur_freq(_metadata, self) > self->lo)
		TH_LOG("did not settle at %lu kHz, starting from %lu kHz",
		       self->lo, cur_freq(_metadata, self));

	*self->phase = SPIN;
	t0 = now_us();
	do {
		sleep_us(POLL_US);
		t = now_us();
		f = cur_freq(_metadata, self);
	} while (f < self->hi && t - t0 < STEP_MAX_US);
	*self->phase = STOP;
	waitpid(spinner, NULL, 0);
	EXPECT_GE(f, self->hi)
		TH_LOG("%lu kHz not reached in %d ms", self->hi, STEP_MAX_US / 1000);
	if (!hold_us || f < self->hi)
		return t - t0;

	t0 = now_us();
	while (cur_freq(_metadata, self) >= self->hi && now_us() - t0 < STEP_MAX_US)
		sleep_us(POLL_US);
	*hold_us = now_us() - t0;
	return t - t0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long median(long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define ROUNDS	5

TEST_F_TIMEOUT(ramp, fast_ramp_up_reaches_max_sooner, 120)
{
	long long slow[ROUNDS], fast[ROUNDS], ms, mf;
	int i, j;

	for (i = 0; i < ROUNDS; i++) {
		/* A B B A ...: drift affects both the same way. */
		for (j = 0; j < 2; j++) {
			int use_fast = (i + j) % 2;

			configure(_metadata, self, use_fast, BASE_LIMIT_US,
				  BASE_LIMIT_US);
			if (use_fast)
				fast[i] = step_round(_metadata, self, NULL);
			else
				slow[i] = step_round(_metadata, self, NULL);
		}
		TH_LOG("round %d: time to %lu kHz: fast_ramp_up=0 %lld us, =1 %lld us",
		       i, self->hi, slow[i], fast[i]);
	}
	ms = median(slow, ROUNDS);
	mf = median(fast, ROUNDS);
	TH_LOG("median time to max: fast_ramp_up=0 %lld us, =1 %lld us", ms, mf);
	EXPECT_LE(mf, ms + ms / 10);
}

#define UP_LIMIT_US	200000

TEST_F_TIMEOUT(ramp, up_rate_limit_delays_the_ramp, 90)
{
	long long base[3], limited[3], mb, ml;
	int i;

	for (i = 0; i < 3; i++) {
		configure(_metadata, self, 0, BASE_LIMIT_US, BASE_LIMIT_US);
		base[i] = step_round(_metadata, self, NULL);
		configure(_metadata, self, 0, UP_LIMIT_US, BASE_LIMIT_US);
		limited[i] = step_round(_metadata, self, NULL);
		TH_LOG("round %d: time to max: up_rate_limit_us=%d %lld us, =%d %lld us",
		       i, BASE_LIMIT_US, base[i], UP_LIMIT_US, limited[i]);
	}
	mb = median(base, 3);
	ml = median(limited, 3);
	/* Reaching the max takes at least two raises from the bottom. */
	EXPECT_GE(ml, UP_LIMIT_US * 3 / 4);
	EXPECT_GT(ml, mb);
}

#define DOWN_LIMIT_US	100000

TEST_F_TIMEOUT(ramp, down_rate_limit_holds_the_max, 90)
{
	long long base[3], limited[3], mb, ml;
	int i;

	for (i = 0; i < 3; i++) {
		configure(_metadata, self, 0, BASE_LIMIT_US, BASE_LIMIT_US);
		step_round(_metadata, self, &base[i]);
		configure(_metadata, self, 0, BASE_LIMIT_US, DOWN_LIMIT_US);
		step_round(_metadata, self, &limited[i]);
		TH_LOG("round %d: max kept after the load stopped: down_rate_limit_us=%d %lld us, =%d %lld us",
		       i, BASE_LIMIT_US, base[i], DOWN_LIMIT_US, limited[i]);
	}
	mb = median(base, 3);
	ml = median(limited, 3);
	/*
	 * The maximum was reached (a change) just before the load stopped, so
	 * no cut may come within the limit; without it the frequency drops as
	 * soon as the utilization is gone. The change is seen some time after
	 * it was made (polling, vCPUs preempted on a busy host), which is why
	 * only half of the limit is required.
	 */
	EXPECT_GE(ml, DOWN_LIMIT_US / 2);
	EXPECT_GT(ml, mb);
}

TEST_HARNESS_MAIN
