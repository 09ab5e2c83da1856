// SPDX-License-Identifier: GPL-2.0
/*
 * The speed emulation of cpufreq_emu (emulate_speed=1): a fixed amount of
 * work, pinned to each CPU at each of its OPPs, takes 1/speed as long as
 * on the fastest CPU at its top OPP, where
 *
 *	speed = cpu_capacity / 1024 * f / cpuinfo_max_freq
 *
 * (at least EMU_MIN_SPEED); with emulate_speed=0 it takes as long on
 * every CPU at every OPP.  The reference and the point are measured in
 * turn, SAMPLES times each, so that the host's drift touches both; the
 * ratio of their medians is compared with the expected ratio.  Skips
 * where cpufreq_emu does not drive the CPUs.
 */
#define _GNU_SOURCE
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "knob_io.h"

#define CPU		"/sys/devices/system/cpu"
#define PARAM		"/sys/module/cpufreq_emu/parameters/"
#define SPEED_VIEW	"/sys/kernel/debug/cpufreq_emu_speed"
#define MAX_CPUS	64
#define MAX_FREQS	32
#define SAMPLES		9
#define REF_MS		100	/* the work's length at speed 1024 */
#define EMU_MIN_SPEED	128	/* drivers/cpufreq_emu/emu.h */

/*
 * Two checks per CPU and OPP (see TEST_F(speed, ratios) for the data).
 * The fraction of the work's time that cpufreq_emu took (its debugfs
 * view) is at least 1 - speed/1024 - LOST_TOL (0 when off): the driver
 * counts from the expiry due, and a host that stops the vCPU makes the
 * interrupt late, so more is no error of the driver's; the time check
 * bounds what the work lost.  The work's time over the
 * reference's is 1024/speed within TIME_TOL plus TIME_SPREAD times the
 * spread of the samples (their median absolute deviation over their
 * median), at most TIME_TOL_MAX.
 */
#define LOST_TOL	0.12
#define FULL_SPEED_LOST	0.01
#define TIME_TOL	0.25
#define TIME_SPREAD	2.0
#define TIME_TOL_MAX	0.35

/*
 * The driver makes up for an interrupt's lateness up to a share of the
 * period (speed.c): beyond that (overdue_ns) a host that let the vCPU
 * compute on made it faster than its speed, by up to overdue time x
 * (1024 - speed) / speed of work that should have been lost.  A sample
 * whose time that could have moved by more than OVERDUE_EFFECT measures
 * the host, not the driver: it is taken again, up to TAKES_MAX times
 * SAMPLES per point.
 */
#define OVERDUE_EFFECT	0.15
#define TAKES_MAX	2

/* Points taken a second time when out, at most (TEST_F(speed, ratios)) */
#define RETAKES_MAX	4

struct cpu_info {
	int cpu;
	unsigned long capacity;		/* 1024 without cpu_capacity */
	unsigned long max_freq;		/* cpuinfo_max_freq, kHz */
	int nr_freqs;
	unsigned long freqs[MAX_FREQS];	/* ascending */
	char governor[32];		/* to restore */
	unsigned long scaling_max;	/* to restore */
};

FIXTURE(speed) {
	int nr;
	struct cpu_info cpus[MAX_CPUS];
	int ref;			/* index of the fastest CPU */
	bool emulated;
	bool changed;			/* governors and limits to restore */
	unsigned long loops;		/* REF_MS of work at the reference */
	int nkids;
	pid_t kids[MAX_CPUS];		/* spinners to kill in teardown */
};

static int cpu_read_str(int cpu, const char *file, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), CPU "/cpu%d/%s", cpu, file);
	if (kio_read_line(path, buf, size))
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static long cpu_read_ul(int cpu, const char *file)
{
	char path[128];
	unsigned long v;

	snprintf(path, sizeof(path), CPU "/cpu%d/%s", cpu, file);
	return kio_read_ul(path, &v) ? -1 : (long)v;
}

/* Through cpu<N>/cpufreq: the policy directory need not be named <N>. */
static int policy_write(int cpu, const char *file, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), CPU "/cpu%d/cpufreq/%s", cpu, file);
	return kio_write_str(path, val);
}

static int policy_set_max(int cpu, unsigned long khz)
{
	char val[32];

	snprintf(val, sizeof(val), "%lu", khz);
	return policy_write(cpu, "scaling_max_freq", val);
}

/*
 * Whether @cpu is in the CPU list @list ("0-3,5"): -1 when it is not a
 * list.
 */
static int in_cpulist(const char *list, int cpu)
{
	const char *p = list;
	char *end;

	while (*p) {
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return -1;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p || hi < lo)
				return -1;
		}
		if (cpu >= lo && cpu <= hi)
			return 1;
		if (*end && *end != ',')
			return -1;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* Whether @b is in @a's policy (related_cpus of @a). */
static bool same_policy(int a, int b)
{
	char rel[256], *tok, *save;

	if (cpu_read_str(a, "cpufreq/related_cpus", rel, sizeof(rel)))
		return a == b;
	for (tok = strtok_r(rel, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (atoi(tok) == b)
			return true;
	return false;
}

/*
 * Whether @a and @b run on one clock: the lists of cpufreq_emu's clocks=
 * ("0-3/4-7"), else their policy.  A CPU whose own request is not the
 * highest on its clock runs faster than it asked.
 */
static bool same_clock(int a, int b)
{
	char buf[512], *tok, *save;

	if (!kio_read_line(PARAM "clocks", buf, sizeof(buf))) {
		buf[strcspn(buf, "\n")] = '\0';
		for (tok = strtok_r(buf, "/", &save); tok;
		     tok = strtok_r(NULL, "/", &save))
			if (in_cpulist(tok, a) == 1)
				return in_cpulist(tok, b) == 1;
	}
	return same_policy(a, b);
}

static const char *absent(void)
{
	char drv[64];

	if (cpu_read_str(0, "cpufreq/scaling_driver", drv, sizeof(drv)) ||
	    strcmp(drv, "cpufreq_emu"))
		return "cpufreq_emu does not drive CPU0: not an emulated board";
	if (access(PARAM "emulate_speed", R_OK))
		return "this cpufreq_emu has no emulate_speed parameter";
	if (access(CPU "/cpu0/cpufreq/scaling_max_freq", W_OK))
		return "scaling_max_freq is not writable (must be run as root)";
	return NULL;
}

static int parse_freqs(struct cpu_info *c, char *list)
{
	char *tok, *save;

	c->nr_freqs = 0;
	for (tok = strtok_r(list, " ", &save); tok && c->nr_freqs < MAX_FREQS;
	     tok = strtok_r(NULL, " ", &save))
		c->freqs[c->nr_freqs++] = strtoul(tok, NULL, 10);
	return c->nr_freqs ? 0 : -1;
}

static unsigned long expected_speed(const struct cpu_info *c,
				    unsigned long khz)
{
	unsigned long s = c->capacity * khz / c->max_freq;

	return s < EMU_MIN_SPEED ? EMU_MIN_SPEED : s > 1024 ? 1024 : s;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* What cpufreq_emu's debugfs view says of one CPU. */
struct emu_view {
	double lost_s;		/* the time it took so far */
	double overdue_s;	/* lateness that no spin made up for */
};

static int emu_view_read(int cpu, struct emu_view *v);

/*
 * One sample: @loops of work on @cpu, its length in seconds in @t.  With
 * the emulation on, what the driver did meanwhile in @d.
 */
struct sample {
	double t;
	struct emu_view d;
};

static int work(int cpu, unsigned long loops, bool emulated, struct sample *out)
{
	volatile unsigned long sink = 0;
	struct emu_view v0 = { 0 }, v1 = { 0 };
	double t0;
	unsigned long i;

	if (pin(cpu))
		return -1;
	usleep(1000);	/* be on @cpu, and let it see the new frequency */
	if (emulated && emu_view_read(cpu, &v0))
		return -1;
	t0 = now_s();
	for (i = 0; i < loops; i++)
		sink += i;
	out->t = now_s() - t0;
	if (emulated && emu_view_read(cpu, &v1))
		return -1;
	out->d.lost_s = v1.lost_s - v0.lost_s;
	out->d.overdue_s = v1.overdue_s - v0.overdue_s;
	return out->t > 0 ? 0 : -1;
}

/* @cpu's line of the debugfs view, in @v: 0, or -1. */
static int emu_view_read(int cpu, struct emu_view *v)
{
	char buf[MAX_CPUS * 96], *line, *save;
	unsigned long long lost, overdue;
	unsigned long speed;
	int c;

	if (kio_read(SPEED_VIEW, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "cpu%d speed=%lu lost_ns=%llu expired=%*u overdue_ns=%llu",
			   &c, &speed, &lost, &overdue) == 4 &&
		    c == cpu) {
			v->lost_s = lost / 1e9;
			v->overdue_s = overdue / 1e9;
			return 0;
		}
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_double_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The median absolute deviation of @v over its median @m. */
static double rel_spread(const double *v, int n, double m)
{
	double d[SAMPLES];
	int i;

	for (i = 0; i < n; i++)
		d[i] = fabs(v[i] - m);
	return median(d, n) / m;
}

FIXTURE_SETUP(speed)
{
	char buf[512];
	int cpu;

	if (absent())
		SKIP(return, "%s", absent());
	ASSERT_EQ(0, kio_read_line(PARAM "emulate_speed", buf, sizeof(buf)));
	self->emulated = buf[0] == 'Y';
	if (self->emulated) {
		struct emu_view v;

		ASSERT_EQ(0, emu_view_read(0, &v))
			TH_LOG("no " SPEED_VIEW " of this format with emulate_speed=Y");
	}
	self->nr = 0;
	self->ref = 0;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct cpu_info *c = &self->cpus[self->nr];
		long v;

		if (cpu_read_str(cpu, "cpufreq/scaling_available_frequencies",
				 buf, sizeof(buf)))
			continue;
		c->cpu = cpu;
		ASSERT_EQ(0, parse_freqs(c, buf));
		qsort(c->freqs, c->nr_freqs, sizeof(c->freqs[0]), cmp_double_ul);
		ASSERT_LT(0, v = cpu_read_ul(cpu, "cpufreq/cpuinfo_max_freq"));
		c->max_freq = v;
		v = cpu_read_ul(cpu, "cpu_capacity");
		c->capacity = v > 0 ? v : 1024;
		ASSERT_EQ(0, cpu_read_str(cpu, "cpufreq/scaling_governor",
					  c->governor, sizeof(c->governor)));
		ASSERT_LT(0, v = cpu_read_ul(cpu, "cpufreq/scaling_max_freq"));
		c->scaling_max = v;
		if (c->capacity > self->cpus[self->ref].capacity)
			self->ref = self->nr;
		self->nr++;
	}
	ASSERT_LT(0, self->nr);
}

/*
 * Every policy under performance at its top OPP, and REF_MS of work on
 * the reference CPU counted in loops.  In the test, not in the setup:
 * the teardown, which restores what this changes, runs only after a
 * setup that completed.
 */
static int prepare(FIXTURE_DATA(speed) *self)
{
	const struct cpu_info *ref = &self->cpus[self->ref];
	struct sample w;
	int i;

	self->changed = true;
	for (i = 0; i < self->nr; i++)
		if (policy_write(self->cpus[i].cpu, "scaling_governor", "performance") ||
		    policy_set_max(self->cpus[i].cpu, self->cpus[i].max_freq))
			return -1;
	self->loops = 1000000;
	for (i = 0; i < 5; i++) {
		if (work(ref->cpu, self->loops, false, &w))
			return -1;
		self->loops = self->loops * (REF_MS / 1000.0) / w.t;
	}
	return 0;
}

/*
 * The CPUs that share @c's clock, but for @c, capped at their lowest OPP
 * (@lowest) or at their top again: @c then runs at what it asks for.
 */
static int clock_mates_cap(FIXTURE_DATA(speed) *self, const struct cpu_info *c,
			   bool lowest)
{
	int i;

	for (i = 0; i < self->nr; i++) {
		const struct cpu_info *m = &self->cpus[i];

		if (m != c && same_clock(c->cpu, m->cpu) &&
		    policy_set_max(m->cpu, lowest ? m->freqs[0] : m->max_freq))
			return -1;
	}
	return 0;
}

FIXTURE_TEARDOWN(speed)
{
	char val[32];
	int i;

	for (i = 0; i < self->nkids; i++) {
		kill(self->kids[i], SIGKILL);
		waitpid(self->kids[i], NULL, 0);
	}
	if (!self->changed)
		return;
	for (i = 0; i < self->nr; i++) {
		struct cpu_info *c = &self->cpus[i];

		snprintf(val, sizeof(val), "%lu", c->scaling_max);
		policy_write(c->cpu, "scaling_max_freq", val);
		policy_write(c->cpu, "scaling_governor", c->governor);
	}
}

/* The OPPs measured: all of a short table, else lowest, middle, top. */
static int chosen_freqs(const struct cpu_info *c, unsigned long *f)
{
	int i;

	if (c->nr_freqs <= 5) {
		for (i = 0; i < c->nr_freqs; i++)
			f[i] = c->freqs[i];
		return c->nr_freqs;
	}
	f[0] = c->freqs[0];
	f[1] = c->freqs[c->nr_freqs / 2];
	f[2] = c->freqs[c->nr_freqs - 1];
	return 3;
}

/* One take of a point: SAMPLES kept samples of a CPU at an OPP. */
struct point {
	double ratio;		/* median time over the pair's median time */
	double tol;		/* the time's tolerance, from the spread */
	double lost;		/* the median share the driver took */
	double overdue;		/* the share of the time that came overdue */
	int taken;		/* samples taken, kept or not */
	bool measured;		/* SAMPLES kept */
};

/*
 * @c at @khz against @pair at its top, in turn, until SAMPLES are kept or
 * that can no longer happen.  The ratio of the medians: a sample the host
 * stretched, of the point or of the pair, moves neither.
 */
static void measure_point(struct __test_metadata *_metadata,
			  FIXTURE_DATA(speed) *self, const struct cpu_info *c,
			  unsigned long khz, const struct cpu_info *pair,
			  struct point *pt)
{
	double r[SAMPLES], rr[SAMPLES], lost[SAMPLES], spread;
	double overdue = 0, busy = 0;
	unsigned long sp = expected_speed(c, khz);
	int kept = 0, rejected = 0;

	pt->taken = 0;
	while (kept < SAMPLES && rejected <= SAMPLES * (TAKES_MAX - 1)) {
		struct sample tr, tp;

		pt->taken++;
		ASSERT_EQ(0, policy_set_max(pair->cpu, pair->max_freq));
		ASSERT_EQ(0, work(pair->cpu, self->loops, false, &tr));
		ASSERT_EQ(0, policy_set_max(c->cpu, khz));
		ASSERT_EQ(0, work(c->cpu, self->loops, self->emulated, &tp));
		ASSERT_EQ((long)khz, cpu_read_ul(c->cpu, "cpufreq/scaling_cur_freq"));
		ASSERT_EQ(0, policy_set_max(c->cpu, c->max_freq));
		overdue += tp.d.overdue_s;
		busy += tp.t;
		if (tp.d.overdue_s / tp.t * (1024 - sp) / sp > OVERDUE_EFFECT) {
			rejected++;
			continue;
		}
		r[kept] = tp.t;
		rr[kept] = tr.t;
		lost[kept] = tp.d.lost_s / tp.t;
		kept++;
	}
	pt->overdue = overdue / busy;
	pt->measured = kept == SAMPLES;
	if (!pt->measured)
		return;
	pt->ratio = median(r, SAMPLES);
	spread = rel_spread(r, SAMPLES, pt->ratio);
	pt->ratio /= median(rr, SAMPLES);
	pt->lost = median(lost, SAMPLES);
	pt->tol = TIME_TOL + TIME_SPREAD * spread;
	if (pt->tol > TIME_TOL_MAX)
		pt->tol = TIME_TOL_MAX;
}

/*
 * Every CPU at each chosen OPP against itself at its top OPP, and at its
 * top against the reference CPU at its top.  With emulate_speed=1 the
 * ratio must be that of the speeds, else 1.  Where the two CPUs have one
 * capacity (every sandybridge CPU, the hikey960 bigs) the ratio is the
 * host's alone, in either state: on 2026-12-04 such pairings put 1, 2
 * and 3 of the sandybridge board's 12 points out (0.680 to 1.657) while
 * every point on one CPU passed, so they are logged and not counted.
 *
 * Measured 2026-12-02 on two 2-core hosts, 4 vCPUs, period 1 ms.  On the
 * first, emulation off, all ratios were 0.98..1.02; on the second the
 * host's own noise moved them 0.74..1.36, and in one run of the whole
 * suite a vCPU ran at half speed for a whole series of its points, which
 * is why each point now pairs with the same CPU where it can (off:
 * 0.99..1.13 hikey960, 0.92..1.05 sandybridge).  On: the time over what
 * it should be was 0.90..1.17 (hikey960) and 0.99..1.15 (sandybridge),
 * and the fraction lost within 0.05 below 1 - speed/1024 (half of the
 * interrupt's lateness counts as run, see speed.c): hence
 * TIME_TOL, one point in ten allowed out, and LOST_TOL, a lower bound on
 * what the driver controls.  A build that does not spin fails the lost
 * check at every OPP but the top ones and the time check wherever the
 * wanted ratio exceeds 1.35: 15 of 20 points out on the first host.  The
 * data: Documentation/data/speed-emulation-20261202{,b}/, the ranges
 * from scripts/docs/speed-ranges.
 *
 * A busier host delivered the interrupts later than a share for long
 * stretches: in one run of make check, the hikey960 big CPUs lost 0.14 to
 * 0.20 less than wanted at their lower OPPs, and 5 of 20 points were out.
 * Such samples are taken again (OVERDUE_EFFECT); a point with too few
 * samples left is not measured, and a test with more such points than
 * measured ones skips, unless the measured ones fail.  On a quiet host 0 to 2 of 20 points are not
 * measured, the lowest OPPs of the LITTLEs, and a build that does not
 * spin still puts 16 of 20 out
 * (Documentation/data/speed-overdue-20261202/).
 *
 * A host can also be slow for longer than a sample without delaying the
 * interrupts: on 2026-12-06 one run of make check put 3 of 19 points out
 * (allowed 2) where the same build, run twice alone on that machine, put
 * 0 of 19 out.  So a point that is out is taken a second time, and
 * counts out only when both takes are: a driver that does not slow the
 * CPUs is out in every take, a host's slow stretch of a few seconds is
 * not.  At most RETAKES_MAX points are taken again; past that, a point
 * out at its first take counts out.
 *
 * The runner gives the whole program 450 s (settings); this test's own
 * limit leaves the other two tests their 40 s and more, so that a hang
 * here is reported by the harness, with the log so far.  Its worst case,
 * every sample taken TAKES_MAX times and RETAKES_MAX points taken again,
 * is about 290 s.
 */
TEST_F_TIMEOUT(speed, ratios, 360)
{
	const struct cpu_info *ref = &self->cpus[self->ref];
	unsigned long f[MAX_FREQS];
	int i, j, n, take, bad = 0, points = 0, unmeasured = 0, retaken = 0;
	int allowed;
	double full_speed_lost = 0;	/* the most taken at speed 1024 */

	ASSERT_EQ(0, prepare(self));
	TH_LOG("emulate_speed=%c, reference cpu%d (capacity %lu) at %lu kHz, %lu loops",
	       self->emulated ? 'Y' : 'N', ref->cpu, ref->capacity,
	       ref->max_freq, self->loops);
	for (i = 0; i < self->nr; i++) {
		const struct cpu_info *c = &self->cpus[i];

		n = chosen_freqs(c, f);
		/* Its top against the reference raises the reference again. */
		ASSERT_EQ(0, clock_mates_cap(self, c, true));
		for (j = 0; j < n; j++) {
			unsigned long sp = expected_speed(c, f[j]);
			/*
			 * A lower OPP against the same CPU at its top, the top
			 * against the reference CPU: a vCPU that the host
			 * slows for a while moves one point, not all of its
			 * CPU's.
			 */
			const struct cpu_info *pair = f[j] == c->max_freq ? ref : c;
			unsigned long sp_pair = expected_speed(pair, pair->max_freq);
			double want = self->emulated ? (double)sp_pair / sp : 1.0;
			double want_lost = self->emulated ? 1 - sp / 1024.0 : 0;
			/*
			 * Two CPUs of one capacity at their tops: the driver
			 * takes nothing from either, so their ratio is that of
			 * the host's vCPU threads.  Logged, not counted.
			 */
			bool twins = pair != c && pair->capacity == c->capacity;
			bool out = false, first_out = false;
			struct point pt;

			for (take = 1; take <= 2; take++) {
				measure_point(_metadata, self, c, f[j], pair, &pt);
				if (!pt.measured) {
					/* a second take the host spoiled: the first stands */
					if (first_out) {
						TH_LOG("cpu%d at %7lu kHz: second take not measured: the first, out, counts",
						       c->cpu, f[j]);
						pt.measured = true;
						out = true;
					}
					break;
				}
				/* emulate_speed=N: no view, nothing lost to count */
				out = fabs(pt.ratio / want - 1) > pt.tol ||
				      pt.lost < want_lost - LOST_TOL;
				TH_LOG("cpu%d at %7lu kHz: speed %4lu/1024: time %.3f x cpu%d at its top (%.3f wanted, tolerance %.3f), %.3f of it lost (%.3f wanted), %.1f%% overdue, %d samples%s%s%s",
				       c->cpu, f[j], sp, pt.ratio, pair->cpu, want,
				       pt.tol, pt.lost, want_lost,
				       100 * pt.overdue, pt.taken,
				       take > 1 ? ", second take" : "",
				       out ? ": OUT" : "",
				       twins ? " (the host's, not counted)" : "");
				if (sp >= 1024 && pt.lost > full_speed_lost)
					full_speed_lost = pt.lost;
				if (!out || twins || retaken >= RETAKES_MAX)
					break;
				first_out = true;
				retaken += take == 1;
			}
			if (!pt.measured) {
				TH_LOG("cpu%d at %7lu kHz: not measured: %.1f%% of the time overdue in %d samples",
				       c->cpu, f[j], 100 * pt.overdue, pt.taken);
				unmeasured++;
				continue;
			}
			if (twins)
				continue;
			bad += out;
			points++;
		}
		ASSERT_EQ(0, clock_mates_cap(self, c, false));
	}
	ASSERT_GT(points + unmeasured, 0);
	/*
	 * One point in ten, rounded up, may be out: with the emulation off,
	 * a noisy host alone moved a point's median by up to 0.35
	 * (2026-12-02, the second machine in the data), while a driver that
	 * does not slow the CPUs puts 15 of the hikey960 board's 20 points
	 * out.
	 */
	allowed = (points + 9) / 10;
	TH_LOG("%d of %d points out, at most %d allowed; %d taken again; %d not measured",
	       bad, points, allowed, retaken, unmeasured);
	/*
	 * Too few points measured is the host's doing, not a result, but
	 * only while the points that were measured pass: overdue_ns is the
	 * driver's own account, and a driver that fails where it could be
	 * measured must not be excused by it.
	 */
	if (bad <= allowed && unmeasured > points)
		SKIP(return, "the host delayed the timer interrupts past a share at %d of %d points: the speed cannot be measured here",
		     unmeasured, unmeasured + points);
	EXPECT_LE(bad, allowed);
	/*
	 * A CPU at full speed has no timer (speed.c): the driver takes
	 * nothing there, twins included, whatever the host does.
	 */
	EXPECT_GE(FULL_SPEED_LOST, full_speed_lost)
		TH_LOG("the driver took %.3f of a CPU's time at speed 1024",
		       full_speed_lost);
}

/*
 * Guest time stays honest at the slowest speed: every CPU busy at its
 * lowest OPP for longer than the soft-lockup threshold (20 s), the
 * tick-based clock (times(), jiffies) keeps up with CLOCK_MONOTONIC, and
 * the kernel reports no soft lockup, RCU stall or hung task.  The spins
 * hold interrupts off for at most 7/8 of a period, far less than a tick,
 * so jiffies, which the tick catches up from the clocksource, cannot
 * fall behind by more than a tick or two, or five (20 ms) while the host
 * stops the vCPU that keeps them (MAX_STALLED_JIFFIES, tick-sched.c);
 * times() counts in 10 ms steps.  CLOCK_TOL_S covers the two.
 */
#define LOWEST_SECONDS	25
#define CLOCK_TOL_S	0.05

/*
 * The tick-based clock and CLOCK_MONOTONIC read together: times() in
 * seconds, bracketed by two reads of CLOCK_MONOTONIC whose midpoint is
 * returned in @mono and half their distance, the reading's own
 * uncertainty, in @width.  A vCPU that the host stops between the reads
 * widens the bracket (the check in make check that read the two clocks
 * one after the other once found them 0.06 s apart), so the narrowest
 * of CLOCK_READS brackets is kept.
 */
#define CLOCK_READS	8

static void clocks_read(double *ticks, double *mono, double *width)
{
	struct tms tms;
	double a, b, t;
	int i;

	*width = -1;
	for (i = 0; i < CLOCK_READS; i++) {
		a = now_s();
		t = (double)times(&tms) / sysconf(_SC_CLK_TCK);
		b = now_s();
		if (*width < 0 || (b - a) / 2 < *width) {
			*width = (b - a) / 2;
			*mono = (a + b) / 2;
			*ticks = t;
		}
	}
}

/*
 * The times hrtimer_interrupt() gave up on expired timers (nr_hangs of
 * /proc/timer_list, summed over the CPUs), or -1 where it is not shown
 * (no CONFIG_HIGH_RES_TIMERS).  The kernel reports the first one only,
 * as "hrtimer: interrupt took N ns"; the count sees every one.
 * lowest_opp_short_tasks allows one per CPU in HANG_EVERY_S.
 */
#define HANG_EVERY_S	5

static long hrtimer_hangs(void)
{
	char line[256];
	long sum = -1, v;
	FILE *f = fopen("/proc/timer_list", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " .nr_hangs : %ld", &v) == 1)
			sum = (sum < 0 ? 0 : sum) + v;
	fclose(f);
	return sum;
}

/* What the lowest-OPP tests must not see in the kernel log. */
static const char *const lowest_splats[] = {
	"soft lockup", "rcu_sched self-detected stall",
	"rcu: INFO:", "blocked for more than", NULL,
};

/* Every policy capped at its lowest OPP; restored by the teardown. */
static int cap_lowest(FIXTURE_DATA(speed) *self)
{
	int i;

	self->changed = true;
	for (i = 0; i < self->nr; i++)
		if (policy_set_max(self->cpus[i].cpu, self->cpus[i].freqs[0]))
			return -1;
	return 0;
}

/* A task that spins on @c's CPU until the teardown kills it. */
static pid_t spin_on(FIXTURE_DATA(speed) *self, const struct cpu_info *c)
{
	volatile unsigned long sink = 0;
	pid_t pid = fork();

	if (pid) {
		if (pid > 0)
			self->kids[self->nkids++] = pid;
		return pid;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (pin(c->cpu))
		_exit(1);
	for (;;)
		sink++;
}

TEST_F_TIMEOUT(speed, lowest_opp_everywhere, 120)
{
	double ticks0, mono0, width0, ticks, mono, width, tol;
	long hangs;
	int i, before, status;

	if (!self->emulated)
		SKIP(return, "emulate_speed is off: nothing slows the CPUs");
	before = kio_kmsg_count(lowest_splats, NULL, 0);
	ASSERT_LE(0, before);
	hangs = hrtimer_hangs();
	ASSERT_EQ(0, cap_lowest(self));
	for (i = 0; i < self->nr; i++)
		ASSERT_LT(0, spin_on(self, &self->cpus[i]));
	clocks_read(&ticks0, &mono0, &width0);
	sleep(LOWEST_SECONDS);
	clocks_read(&ticks, &mono, &width);
	ticks -= ticks0;
	mono -= mono0;
	tol = CLOCK_TOL_S + width0 + width;
	/* Each spinner must have spun to the end, not failed to pin. */
	for (i = 0; i < self->nkids; i++) {
		kill(self->kids[i], SIGKILL);
		ASSERT_EQ(self->kids[i], waitpid(self->kids[i], &status, 0));
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	}
	self->nkids = 0;
	TH_LOG("%d CPUs at their lowest OPP for %.3f s of CLOCK_MONOTONIC: %.3f s of ticks (tolerance %.3f s, of it %.0f and %.0f us for the reads)",
	       self->nr, mono, ticks, tol, width0 * 1e6, width * 1e6);
	EXPECT_GE(tol, fabs(ticks - mono));
	EXPECT_EQ(before, kio_kmsg_count(lowest_splats, NULL, 0))
		TH_LOG("the kernel reported a lockup or a stall");
	/*
	 * Logged, not bounded: with every vCPU busy the host stops them in
	 * turn, which makes hangs too, and the hikey960 board counted 30 in
	 * 25 s here without telling whose they were.
	 */
	TH_LOG("%ld hrtimer hangs", hrtimer_hangs() - hangs);
}

/*
 * Short-lived processes at the lowest OPP: a stream of processes that
 * each compute SHORT_TASK_US and exit, with a SHORT_GAP_US sleep in the
 * parent between two, from one parent per CPU, for SHORT_SECONDS.  Each
 * fork, wakeup and sleep arms timers while the CPUs spin.  A spin in the
 * timer's own callback made hrtimer_interrupt() find the timer expired
 * again and give up: this test counted 106..140 hangs (nr_hangs) in
 * three runs on the 4-CPU sandybridge board, and 4..5 with the spin in
 * an irq_work.  Some hangs remain with the emulation off, where a host
 * that stops a vCPU in the interrupt is the cause (Documentation/boards.rst
 * has the data).  At most one hang per CPU in HANG_EVERY_S seconds passes.
 */
#define SHORT_SECONDS	15
#define SHORT_TASK_US	2000
#define SHORT_GAP_US	500

static void short_task_stream(double end)
{
	struct timespec gap = { 0, SHORT_GAP_US * 1000L };

	while (now_s() < end) {
		pid_t pid = fork();

		if (pid < 0)
			_exit(1);
		if (!pid) {
			double t = now_s() + SHORT_TASK_US / 1e6;
			volatile unsigned long sink = 0;

			while (now_s() < t)
				sink++;
			_exit(0);
		}
		if (waitpid(pid, NULL, 0) != pid)
			_exit(1);
		nanosleep(&gap, NULL);
	}
	_exit(0);
}

TEST_F_TIMEOUT(speed, lowest_opp_short_tasks, 120)
{
	double end;
	long hangs, after;
	int i, before, status;

	if (!self->emulated)
		SKIP(return, "emulate_speed is off: nothing slows the CPUs");
	hangs = hrtimer_hangs();
	if (hangs < 0)
		SKIP(return, "no nr_hangs in /proc/timer_list (CONFIG_HIGH_RES_TIMERS)");
	before = kio_kmsg_count(lowest_splats, NULL, 0);
	ASSERT_LE(0, before);
	ASSERT_EQ(0, cap_lowest(self));
	end = now_s() + SHORT_SECONDS;
	for (i = 0; i < self->nr; i++) {
		pid_t pid = fork();

		ASSERT_LE(0, pid);
		if (!pid) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			short_task_stream(end);
		}
		self->kids[self->nkids++] = pid;
	}
	for (i = 0; i < self->nkids; i++) {
		ASSERT_EQ(self->kids[i], waitpid(self->kids[i], &status, 0));
		EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	self->nkids = 0;
	after = hrtimer_hangs();
	TH_LOG("%d streams of short processes for %d s at the lowest OPPs: %ld hrtimer hangs",
	       self->nr, SHORT_SECONDS, after - hangs);
	EXPECT_GE(self->nr * SHORT_SECONDS / HANG_EVERY_S, after - hangs);
	EXPECT_EQ(before, kio_kmsg_count(lowest_splats, NULL, 0))
		TH_LOG("the kernel reported a lockup or a stall");
}

/*
 * A busy CPU at its lowest OPP still answers interrupts: the time the
 * emulation takes from it must not keep an IPI waiting, as it would not
 * on the silicon, where a slow CPU answers within microseconds.  The
 * ipi_roundtrip module (drivers/ipi_roundtrip) times IPI_SAMPLES
 * function-call IPIs, sent at random moments from a CPU at full speed, to
 * a CPU where a task spins: a reference CPU at full speed, where the
 * emulation takes nothing, then the target, the CPU whose lowest OPP is
 * the slowest, at that OPP; IPI_TAKES times each, in turn.  The target's
 * median 90th percentile must be within IPI_P90_EXCESS_NS, 100 us, of
 * the reference's.
 *
 * Measured 2026-12-07 on a quiet 2-core host, three measurements of 2000
 * round trips each way (Documentation/data/ipi-roundtrip-20261207/,
 * summary.py): with the spin in one piece the target's 90th percentile
 * was 1056 to 1120 us (hikey960, cpu0 at 533 MHz, speed 133) and 515 to
 * 521 us (sandybridge, cpu0 at 1.6 GHz, speed 481), against 21 to 31 us
 * at full speed; with the spin in pieces of 10 us, 52 to 89 and 43 to
 * 135 us, against 26 to 33 and 23 to 29 us.  Single measurements stray
 * (the 135), hence the median of three.  The 99th percentile is logged,
 * not bounded: QEMU alone puts 153 to 471 us there at full speed.
 *
 * The sender must be outside the target's clock, so that it stays at
 * full speed: the sandybridge board, whose one clock holds every CPU,
 * skips.  There a sender slows down with the target, and its own spins
 * count in the round trips: 750, 64 and 832 us at the 90th percentile
 * at 1.6 GHz, against 21 to 24 us at full speed, in that board's first
 * run (Documentation/data/package-clock-20261207/).
 *
 * A host that stops the vCPUs keeps the IPIs waiting too.  At full
 * speed the driver takes nothing (no timer runs there), so the
 * reference's round trips are the host's and QEMU's alone: 18 to 49 us
 * at the 90th percentile on a quiet host, up to 5.2 ms on 2026-12-07 on
 * a host whose cores slowed threefold within minutes
 * (Documentation/data/ipi-overdue-20261207/).  A take whose reference
 * waited more than IPI_HOST_P90_NS at the 90th percentile measures the
 * host: it is taken again, up to twice IPI_TAKES takes in all, and with
 * fewer than IPI_TAKES kept the test skips, saying so.  The target's own
 * account of late timer interrupts (overdue_ns) was tried as the sign
 * and dropped: it depends on the driver under test, whose long spins
 * make interrupts late too, and on a busy host it let the
 * speed-spin-in-one-piece mutant skip (18 to 39% of its takes' time
 * overdue) where this rule catches it (1052 against 26 us).
 */
#define IPI_VIEW		"/sys/kernel/debug/ipi_roundtrip"
#define IPI_SAMPLES		2000
#define IPI_P90_EXCESS_NS	100000.0
#define IPI_HOST_P90_NS		200000.0
#define IPI_TAKES		3

struct ipi_times {
	unsigned long long p50_ns, p90_ns, p99_ns;
};

/* Round trips from @from to @to, through the module's debugfs file. */
static int ipi_measure(int from, int to, struct ipi_times *t)
{
	char buf[256];
	int cpu, by;
	unsigned int n;

	if (pin(from))
		return -1;
	snprintf(buf, sizeof(buf), "%d %d", to, IPI_SAMPLES);
	if (kio_write_str(IPI_VIEW, buf) || kio_read_line(IPI_VIEW, buf, sizeof(buf)))
		return -1;
	if (sscanf(buf, "cpu=%d from=%d samples=%u mean_ns=%*u p50_ns=%llu p90_ns=%llu p99_ns=%llu max_ns=%*u",
		   &cpu, &by, &n, &t->p50_ns, &t->p90_ns, &t->p99_ns) != 6 ||
	    cpu != to || by != from || n != IPI_SAMPLES)
		return -1;
	return 0;
}

/* @c's policy under performance at @khz. */
static int policy_hold(const struct cpu_info *c, unsigned long khz)
{
	return policy_write(c->cpu, "scaling_governor", "performance") ||
	       policy_set_max(c->cpu, khz);
}

/*
 * Round trips from @from to @to while a task spins on @to: -1 when the
 * task is gone (it could not pin itself) or the measurement failed.
 */
static int ipi_busy_measure(FIXTURE_DATA(speed) *self,
			    const struct cpu_info *from,
			    const struct cpu_info *to, struct ipi_times *t)
{
	pid_t pid = spin_on(self, to);
	int ret = -1;

	if (pid <= 0)
		return -1;
	usleep(20000);
	if (!waitpid(pid, NULL, WNOHANG))
		ret = ipi_measure(from->cpu, to->cpu, t);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	self->nkids--;
	return ret;
}

TEST_F_TIMEOUT(speed, ipi_answered_at_lowest_opp, 120)
{
	const struct cpu_info *target = &self->cpus[0], *from = NULL, *ref = NULL;
	double full_p90[IPI_TAKES], low_p90[IPI_TAKES], full_med, low_med;
	struct ipi_times full, low;
	struct emu_view v0, v1;
	double t0, overdue;
	int i, taken;

	if (!self->emulated)
		SKIP(return, "emulate_speed is off: nothing slows the CPUs");
	if (access(IPI_VIEW, W_OK))
		SKIP(return, "no %s: the ipi_roundtrip module is not loaded", IPI_VIEW);
	for (i = 1; i < self->nr; i++)
		if (expected_speed(&self->cpus[i], self->cpus[i].freqs[0]) <
		    expected_speed(target, target->freqs[0]))
			target = &self->cpus[i];
	/*
	 * The sender at full speed, outside the target's clock, the
	 * reference CPU if it can be.  A sender on the target's clock would
	 * slow down with it, and its own spins would be timed too.
	 */
	for (i = 0; i < self->nr; i++) {
		const struct cpu_info *c = &self->cpus[i];

		if (same_clock(target->cpu, c->cpu) ||
		    expected_speed(c, c->max_freq) < 1024)
			continue;
		if (!from || c == &self->cpus[self->ref])
			from = c;
	}
	/* The reference: the target at its top if that is full speed. */
	for (i = 0; i < self->nr; i++) {
		const struct cpu_info *c = &self->cpus[i];

		if (c != from && expected_speed(c, c->max_freq) >= 1024 &&
		    (!ref || c == target))
			ref = c;
	}
	if (expected_speed(target, target->freqs[0]) >= 1024)
		SKIP(return, "cpu%d is at full speed at its lowest OPP: nothing slows it",
		     target->cpu);
	if (!from || !ref)
		SKIP(return, "no CPU at full speed outside cpu%d's clock to send from, or none besides to compare with",
		     target->cpu);

	self->changed = true;
	ASSERT_EQ(0, policy_hold(from, from->max_freq));
	/*
	 * In turn, so that the host's drift touches both alike, and one
	 * busy CPU at a time besides the sender: a third busy vCPU on a
	 * 2-core host stretched every round trip to milliseconds.
	 */
	for (i = 0, taken = 0; i < IPI_TAKES && taken < 2 * IPI_TAKES; taken++) {
		/* Where the target is the reference, this raises it again. */
		ASSERT_EQ(0, policy_hold(ref, ref->max_freq));
		ASSERT_EQ(0, ipi_busy_measure(self, from, ref, &full));
		ASSERT_EQ(0, policy_hold(target, target->freqs[0]));
		/* Nothing else on the target's clock may raise it. */
		ASSERT_EQ(0, clock_mates_cap(self, target, true));
		ASSERT_EQ(0, emu_view_read(target->cpu, &v0));
		t0 = now_s();
		ASSERT_EQ(0, ipi_busy_measure(self, from, target, &low));
		overdue = now_s() - t0;
		ASSERT_EQ(0, emu_view_read(target->cpu, &v1));
		overdue = (v1.overdue_s - v0.overdue_s) / overdue;
		ASSERT_EQ((long)target->freqs[0],
			  cpu_read_ul(target->cpu, "cpufreq/scaling_cur_freq"));
		TH_LOG("IPIs from cpu%d, %d round trips each: busy cpu%d at full speed: p50 %llu ns, p90 %llu ns, p99 %llu ns; busy cpu%d at %lu kHz (speed %lu/1024): p50 %llu ns, p90 %llu ns, p99 %llu ns, %.1f%% of the time overdue%s",
		       from->cpu, IPI_SAMPLES, ref->cpu, full.p50_ns,
		       full.p90_ns, full.p99_ns, target->cpu,
		       target->freqs[0], expected_speed(target, target->freqs[0]),
		       low.p50_ns, low.p90_ns, low.p99_ns, 100 * overdue,
		       full.p90_ns > IPI_HOST_P90_NS ? ": the host's, taken again" : "");
		if (full.p90_ns > IPI_HOST_P90_NS)
			continue;
		full_p90[i] = full.p90_ns;
		low_p90[i++] = low.p90_ns;
	}
	if (i < IPI_TAKES)
		SKIP(return, "the host stalled the vCPUs: more than %.0f us at the 90th percentile at full speed in %d of %d takes: IPIs cannot be timed here",
		     IPI_HOST_P90_NS / 1000, taken - i, taken);
	full_med = median(full_p90, IPI_TAKES);
	low_med = median(low_p90, IPI_TAKES);
	TH_LOG("median 90th percentiles: %.0f ns at full speed, %.0f ns at the lowest OPP (at most %.0f ns more wanted)",
	       full_med, low_med, IPI_P90_EXCESS_NS);
	EXPECT_GE(full_med + IPI_P90_EXCESS_NS, low_med)
		TH_LOG("a busy CPU at its lowest OPP kept IPIs waiting");
}

/*
 * One clock for several policies (cpufreq_emu's clocks=, the sandybridge
 * board's package): a busy CPU that asks for its lowest OPP runs at the
 * highest frequency asked for on its clock, here by an idle CPU of
 * another policy that asks for its top.  CLOCK_PAIRS times in turn: the
 * busy CPU's work with the idle one at its lowest OPP, then at its top.
 * The busy CPU's own request, and so its scaling_cur_freq, stays the
 * lowest throughout.
 *
 * What the driver takes from the busy CPU (its debugfs view) is checked
 * as TEST_F(speed, ratios) checks it: with the idle CPU at its top the
 * median share lost is at most FULL_SPEED_LOST, as at full speed; with it
 * at its lowest, at least 1 - speed/1024 - LOST_TOL.  A clock per policy
 * loses about half of the time either way.  The time itself must rise by
 * at least CLOCK_TIME_SHARE of what the speeds say: here the host has
 * the last word.  On 2026-12-07, on a host whose cores ran a fixed loop
 * up to 3 times slower than an hour before, the ratio of the median
 * times was 1.44 to 3.10 in thirteen runs (2.129 wanted), and a clock
 * per policy gave 0.998; in the last four the shares lost were 0.46 to
 * 0.55, then 0.000 (Documentation/data/package-clock-20261207/).  The
 * shares do not depend on how fast the host runs the vCPU, only on when
 * it delivers the timer's interrupt.
 */
#define CLOCK_PAIRS		5
#define CLOCK_TIME_SHARE	0.25

TEST_F_TIMEOUT(speed, clock_follows_highest_request, 60)
{
	const struct cpu_info *busy = NULL, *idle = NULL;
	double t_low[CLOCK_PAIRS], t_high[CLOCK_PAIRS];
	double lost_low[CLOCK_PAIRS], lost_high[CLOCK_PAIRS];
	double ratio, want, want_lost, low, high;
	unsigned long sp_low, sp_high;
	int i, j;

	if (!self->emulated)
		SKIP(return, "emulate_speed is off: nothing slows the CPUs");
	for (i = 0; i < self->nr && !idle; i++)
		for (j = 0; j < self->nr && !idle; j++) {
			const struct cpu_info *a = &self->cpus[i], *b = &self->cpus[j];

			if (!same_clock(a->cpu, b->cpu) ||
			    same_policy(a->cpu, b->cpu))
				continue;
			busy = a;
			idle = b;
		}
	if (!idle)
		SKIP(return, "no two policies share a clock: each CPU runs at its own request");
	sp_low = expected_speed(busy, busy->freqs[0]);
	sp_high = expected_speed(busy, busy->max_freq);
	if (sp_low >= sp_high || sp_high < 1024)
		SKIP(return, "cpu%d is not at full speed at its top OPP, or as fast at its lowest",
		     busy->cpu);
	want = (double)sp_high / sp_low;
	want_lost = 1 - sp_low / 1024.0;

	ASSERT_EQ(0, prepare(self));
	ASSERT_EQ(0, clock_mates_cap(self, busy, true));
	ASSERT_EQ(0, policy_set_max(busy->cpu, busy->freqs[0]));
	for (i = 0; i < CLOCK_PAIRS; i++) {
		struct sample lo, hi;

		ASSERT_EQ(0, policy_set_max(idle->cpu, idle->freqs[0]));
		ASSERT_EQ(0, work(busy->cpu, self->loops, true, &lo));
		ASSERT_EQ(0, policy_set_max(idle->cpu, idle->max_freq));
		ASSERT_EQ(0, work(busy->cpu, self->loops, true, &hi));
		ASSERT_EQ((long)busy->freqs[0],
			  cpu_read_ul(busy->cpu, "cpufreq/scaling_cur_freq"));
		t_low[i] = lo.t;
		t_high[i] = hi.t;
		lost_low[i] = lo.d.lost_s / lo.t;
		lost_high[i] = hi.d.lost_s / hi.t;
	}
	ratio = median(t_low, CLOCK_PAIRS) / median(t_high, CLOCK_PAIRS);
	low = median(lost_low, CLOCK_PAIRS);
	high = median(lost_high, CLOCK_PAIRS);
	TH_LOG("busy cpu%d asking %lu kHz, idle cpu%d asking %lu kHz, then %lu kHz: %.3f, then %.3f of the time lost (at least %.3f, then at most %.3f wanted); %.3f times as long (%.3f wanted, at least %.3f)",
	       busy->cpu, busy->freqs[0], idle->cpu, idle->freqs[0],
	       idle->max_freq, low, high, want_lost - LOST_TOL,
	       FULL_SPEED_LOST, ratio, want,
	       1 + CLOCK_TIME_SHARE * (want - 1));
	EXPECT_GE(FULL_SPEED_LOST, high)
		TH_LOG("the busy CPU lost time while its clock ran at the top");
	EXPECT_LE(want_lost - LOST_TOL, low)
		TH_LOG("the busy CPU lost too little while its clock ran at the lowest OPP");
	EXPECT_LE(1 + CLOCK_TIME_SHARE * (want - 1), ratio)
		TH_LOG("the busy CPU did not compute faster when its clock rose");
}

TEST_HARNESS_MAIN
