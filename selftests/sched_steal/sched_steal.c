// SPDX-License-Identifier: GPL-2.0
/*
 * STEAL: a CPU about to go idle steals a runnable CFS task from an
 * overloaded CPU of its LLC (CONFIG_SCHED_STEAL, sched feature STEAL).
 *
 * Checks the feature toggle, the /sys/kernel/debug/sched/steal counters,
 * that stealing happens under an overload and not with NO_STEAL, that it
 * lowers the run-queue wait of a bursty workload, and that CPU hotplug
 * during an overload is clean.  Skips (exit 4) without the feature.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "knob_io.h"
#include "steal_util.h"

#define FEATURES_PATH	"/sys/kernel/debug/sched/features"
#define STEAL_PATH	"/sys/kernel/debug/sched/steal"
#define SCHEDSTATS_PATH	"/proc/sys/kernel/sched_schedstats"
#define EAS_PATH	"/proc/sys/kernel/sched_energy_aware"
#define ONLINE_PATH	"/sys/devices/system/cpu/online"

#define MAX_CPUS	256
#define MAX_TASKS	512

/* The bursty workload of the run-queue wait test; see runq_wait. */
#define BURST_US	1000
#define BURST_SLEEP_US	1000
#define BURSTS		150
#define WAIT_TASKS	3
#define WAIT_PAIRS	16	/* even: as many with STEAL first as last */
#define WAIT_MAX_SHUT	8	/* STEAL rounds with the gate shut, at most */
#define WAIT_STARVED_SEARCH_NS	500000	/* a search this long: a starved vCPU */
#define WAIT_MAX_RATIO	0.90
#define WAIT_MIN_WINS	12

struct steal_stats {
	long attempts[MAX_CPUS];
	long stolen[MAX_CPUS];
	long failed[MAX_CPUS];
	long skipped[MAX_CPUS];
	long search_ns[MAX_CPUS];
	bool present[MAX_CPUS];
	int lines;
};

struct workload {
	pid_t pids[MAX_TASKS];
	int n;
};

/* 1 when the features file lists STEAL, 0 for NO_STEAL, -errno if absent. */
static int steal_feature(void)
{
	return kio_sched_feature(FEATURES_PATH, "STEAL");
}

static int set_steal(bool on)
{
	return kio_write_str(FEATURES_PATH, on ? "STEAL" : "NO_STEAL");
}

/*
 * Parses the steal file, "cpu<N> name=value ..." per line, field by field:
 * fields added later are accepted, the four read here must be there.
 * Returns the number of lines or -1 on a bad line.
 */
static int read_steal(struct steal_stats *st)
{
	char buf[MAX_CPUS * 192], *line, *save;

	memset(st, 0, sizeof(*st));
	if (kio_read(STEAL_PATH, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		long *dst[5], val;
		char *tok, *tsave, *end;
		int cpu, end_cpu = 0, seen = 0, i;
		static const char *const names[5] = {
			"attempts", "stolen", "failed", "skipped", "search_ns",
		};

		if (sscanf(line, "cpu%d %n", &cpu, &end_cpu) != 1 || !end_cpu ||
		    cpu < 0 || cpu >= MAX_CPUS || st->present[cpu])
			return -1;
		dst[0] = &st->attempts[cpu];
		dst[1] = &st->stolen[cpu];
		dst[2] = &st->failed[cpu];
		dst[3] = &st->skipped[cpu];
		dst[4] = &st->search_ns[cpu];
		for (tok = strtok_r(line + end_cpu, " ", &tsave); tok;
		     tok = strtok_r(NULL, " ", &tsave)) {
			char *eq = strchr(tok, '=');

			if (!eq)
				return -1;
			*eq = '\0';
			val = strtol(eq + 1, &end, 10);
			if (end == eq + 1 || *end)
				return -1;
			for (i = 0; i < 5; i++) {
				if (!strcmp(tok, names[i])) {
					*dst[i] = val;
					seen |= 1 << i;
				}
			}
		}
		if (seen != 0x1f)
			return -1;
		st->present[cpu] = true;
		st->lines++;
	}
	return st->lines;
}

static long total_stolen(const struct steal_stats *st)
{
	long sum = 0;
	int cpu;

	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		sum += st->stolen[cpu];
	return sum;
}

/* The online CPUs, in increasing order; returns how many. */
static int online_cpus(int *cpus)
{
	char buf[1024], *tok, *save;
	int n = 0, a, b;

	if (kio_read(ONLINE_PATH, buf, sizeof(buf)) < 0)
		return -1;
	for (tok = strtok_r(buf, ",\n", &save); tok;
	     tok = strtok_r(NULL, ",\n", &save)) {
		if (sscanf(tok, "%d-%d", &a, &b) != 2)
			b = a = atoi(tok);
		for (; a <= b && n < MAX_CPUS; a++)
			cpus[n++] = a;
	}
	return n;
}

static void spin_cpu_ns(long ns)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000000000L +
		 (t.tv_nsec - t0.tv_nsec) < ns);
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Forks a child allowed on @set that runs @body and never returns. */
static pid_t spawn(struct workload *w, const cpu_set_t *set,
		   void (*body)(long arg), long arg)
{
	pid_t pid;

	if (w->n >= MAX_TASKS)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (set && sched_setaffinity(0, sizeof(*set), set))
			_exit(1);
		body(arg);
		_exit(0);
	}
	w->pids[w->n++] = pid;
	return pid;
}

static void stop_all(struct workload *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		kill(w->pids[i], SIGKILL);
	for (i = 0; i < w->n; i++)
		waitpid(w->pids[i], NULL, 0);
	w->n = 0;
}

static void hog_body(long unused)
{
	volatile unsigned long x = 0;

	(void)unused;
	for (;;)
		x++;
}

/* Runs for @arg us of CPU time, sleeps 2 ms, forever. */
static void sleeper_body(long arg)
{
	for (;;) {
		spin_cpu_ns(arg * 1000);
		sleep_us(2000);
	}
}

static int burst_fd = -1;

/* A fixed amount of bursty work, then tells the parent and waits. */
static void bursty_body(long bursts)
{
	long i;

	for (i = 0; i < bursts; i++) {
		spin_cpu_ns(BURST_US * 1000L);
		sleep_us(BURST_SLEEP_US);
	}
	if (write(burst_fd, "x", 1) != 1)
		_exit(1);
	for (;;)
		pause();
}

/* Field 2 of /proc/PID/schedstat: time spent waiting on a run queue. */
static long run_delay_ns(pid_t pid)
{
	unsigned long long run, wait;
	char path[64], buf[256];

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	if (kio_read(path, buf, sizeof(buf)) < 0 ||
	    sscanf(buf, "%llu %llu", &run, &wait) != 2)
		return -1;
	return (long)wait;
}

/* State letter and last CPU (fields 3 and 39) of /proc/PID/stat. */
static int task_cpu_state(pid_t pid, char *state)
{
	char path[64], buf[1024], *p;
	int field, cpu = -1;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (kio_read(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	*state = p[2];
	/* p + 2 is field 3; walk to field 39. */
	for (field = 3, p += 2; field < 39 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (p)
		cpu = atoi(p);
	return cpu;
}

static void cpuset_of(cpu_set_t *set, const int *cpus, int n)
{
	int i;

	CPU_ZERO(set);
	for (i = 0; i < n; i++)
		CPU_SET(cpus[i], set);
}

/*
 * The overload: the first half of the CPUs each run three CPU-bound tasks
 * pinned to them, which keeps them overloaded; two sleep-wake tasks per CPU
 * may run anywhere.  The other CPUs go idle whenever their sleep-wake tasks
 * sleep, while sleep-wake tasks wait behind the pinned ones.
 */
static int start_overload(struct workload *w, const int *cpus, int ncpu)
{
	int nbusy = (ncpu + 1) / 2, i, j;
	cpu_set_t set;

	for (i = 0; i < nbusy; i++) {
		cpuset_of(&set, &cpus[i], 1);
		for (j = 0; j < 3; j++)
			if (spawn(w, &set, hog_body, 0) < 0)
				return -1;
	}
	cpuset_of(&set, cpus, ncpu);
	for (i = 0; i < 2 * ncpu; i++)
		if (spawn(w, &set, sleeper_body, 1000) < 0)
			return -1;
	return nbusy;
}

/* Counts the kernel log lines that report a splat. */
static int count_splats(void)
{
	static const char *const splat[] = {
		"WARNING:", "BUG:", "Oops", "possible circular", NULL
	};
	int n = kio_kmsg_count(splat, NULL, 0);

	return n < 0 ? 0 : n;
}

static int set_cpu_online(int cpu, bool on)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return kio_write_str(path, on ? "1" : "0");
}

FIXTURE(steal) {
	int was_on;
	char schedstats[16];
	int cpus[MAX_CPUS];
	int ncpu;
	int hot_cpu;
	struct workload w;
	/* The governors that full_speed() replaced, to restore. */
	int gov_cpu[2];
	char gov[2][32];
	int ngov;
	/* sched_energy_aware as eas_off() found it, to restore ("" if kept) */
	char eas[8];
};

FIXTURE_SETUP(steal)
{
	self->was_on = steal_feature();
	self->hot_cpu = -1;
	self->w.n = 0;
	self->eas[0] = '\0';
	ASSERT_LE(0, self->was_on) TH_LOG("STEAL vanished from " FEATURES_PATH);
	ASSERT_LT(0, kio_read(SCHEDSTATS_PATH, self->schedstats,
			       sizeof(self->schedstats)));
	self->ncpu = online_cpus(self->cpus);
	ASSERT_LT(0, self->ncpu);
}

FIXTURE_TEARDOWN(steal)
{
	stop_all(&self->w);
	if (self->hot_cpu >= 0)
		set_cpu_online(self->hot_cpu, true);
	if (self->was_on >= 0)
		set_steal(self->was_on);
	kio_write_str(SCHEDSTATS_PATH, self->schedstats);
	if (self->eas[0])
		kio_write_str(EAS_PATH, self->eas);
	while (self->ngov--) {
		char path[96];

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor",
			 self->gov_cpu[self->ngov]);
		kio_write_str(path, self->gov[self->ngov]);
	}
}

/*
 * Run the first @ncpus (at most two) of @cpus at their top frequency
 * (performance governor) until the teardown: a test of what the scheduler
 * does, not of the frequency.  On the emulated boards a CPU below full
 * speed spins in 1 ms periods (cpufreq_emu emulate_speed), and a spin that
 * lands in a steal search makes it look as costly as a whole period.  A
 * CPU without cpufreq is left as it is.
 */
static void full_speed(FIXTURE_DATA(steal) *self, const int *cpus, int ncpus)
{
	char path[96];
	int i, n;

	for (i = 0; i < ncpus && i < 2; i++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpus[i]);
		n = self->ngov;
		if (kio_read(path, self->gov[n], sizeof(self->gov[n])) <= 0)
			continue;
		self->gov[n][strcspn(self->gov[n], "\n")] = '\0';
		if (kio_write_str(path, "performance"))
			continue;
		self->gov_cpu[n] = cpus[i];
		self->ngov++;
	}
}

/*
 * Turn EAS off until the teardown, where it is on (the hikey960 board).
 * While no CPU is overutilized EAS leaves the placement of tasks to the
 * wakeup path and stealing stays out (steal_capacity tests that); a test
 * of what a steal does to a load that does not overutilize its CPUs needs
 * it off.
 */
static int eas_off(FIXTURE_DATA(steal) *self)
{
	char now[8];

	if (kio_read_line(EAS_PATH, now, sizeof(now)) || strcmp(now, "1"))
		return 0;
	if (kio_write_str(EAS_PATH, "0"))
		return -1;
	strcpy(self->eas, now);
	return 0;
}

/* The feature toggles and reads back; an unknown name is refused. */
TEST_F(steal, toggle)
{
	char before[8192], after[8192];

	ASSERT_EQ(0, set_steal(true));
	EXPECT_EQ(1, steal_feature());
	ASSERT_EQ(0, set_steal(false));
	EXPECT_EQ(0, steal_feature());
	ASSERT_EQ(0, set_steal(true));
	EXPECT_EQ(1, steal_feature());

	ASSERT_LT(0, kio_read(FEATURES_PATH, before, sizeof(before)));
	EXPECT_EQ(-EINVAL, kio_write_str(FEATURES_PATH, "STEAL_NO_SUCH_FEATURE"));
	EXPECT_EQ(-EINVAL, kio_write_str(FEATURES_PATH, "NO_STEALX"));
	ASSERT_LT(0, kio_read(FEATURES_PATH, after, sizeof(after)));
	EXPECT_STREQ(before, after);
}

/* One well-formed line per online CPU. */
TEST_F(steal, stats_format)
{
	struct steal_stats st;
	int i;

	ASSERT_EQ(self->ncpu, read_steal(&st));
	for (i = 0; i < self->ncpu; i++)
		EXPECT_TRUE(st.present[self->cpus[i]])
			TH_LOG("no line for cpu%d", self->cpus[i]);
}

/*
 * The CPUs that share the last-level cache of @cpu (the highest level in
 * its cacheinfo) in @set: how many, 0 when cacheinfo does not say.
 */
static int llc_cpus(int cpu, cpu_set_t *set)
{
	char path[96], buf[256], *p;
	int idx, level, best = -1;

	CPU_ZERO(set);
	for (idx = 0; idx < 8; idx++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
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
		CPU_ZERO(set);
		for (p = buf; *p && *p != '\n';) {
			long lo = strtol(p, &p, 10), hi = lo;

			if (*p == '-')
				hi = strtol(p + 1, &p, 10);
			for (; lo <= hi && lo < CPU_SETSIZE; lo++)
				CPU_SET(lo, set);
			if (*p != ',')
				break;
			p++;
		}
	}
	return CPU_COUNT(set);
}

/*
 * Number of CPUs in cpu0's last-level cache, from cacheinfo (0 when
 * unknown).  Stealing stays inside an LLC.
 */
static int llc_weight(void)
{
	cpu_set_t set;

	return llc_cpus(0, &set);
}

/*
 * Under an overload STEAL steals on the idle CPUs; NO_STEAL does not.  The
 * host may starve the guest's CPUs for a while, so the overload is watched
 * in windows of two seconds, up to WINDOWS of them, until enough CPUs stole.
 */
#define WINDOWS	4

TEST_F(steal, overload)
{
	struct steal_stats a, b, c;
	int nbusy, i, grew = 0, want, window;

	if (self->ncpu < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, kio_write_str(SCHEDSTATS_PATH, "1"));
	ASSERT_EQ(0, set_steal(true));
	nbusy = start_overload(&self->w, self->cpus, self->ncpu);
	ASSERT_LT(0, nbusy);
	/* two of the CPUs that are to steal (those asked for), as in runq_wait */
	full_speed(self, &self->cpus[nbusy], self->ncpu - nbusy);
	/*
	 * The CPUs that go idle: all but the nbusy ones, at most two asked.
	 * When the CPUs do not share one LLC (the hikey960 board's clusters),
	 * the idle cluster can only steal inside itself: one CPU is enough.
	 */
	want = self->ncpu - nbusy < 2 ? self->ncpu - nbusy : 2;
	if (llc_weight() && llc_weight() < self->ncpu)
		want = 1;

	sleep(1);
	ASSERT_EQ(self->ncpu, read_steal(&a));
	for (window = 1; window <= WINDOWS && grew < want; window++) {
		sleep(2);
		ASSERT_EQ(self->ncpu, read_steal(&b));
		for (grew = 0, i = 0; i < self->ncpu; i++)
			if (b.stolen[self->cpus[i]] > a.stolen[self->cpus[i]])
				grew++;
	}
	for (i = 0; i < self->ncpu; i++) {
		int cpu = self->cpus[i];

		TH_LOG("STEAL cpu%d: stolen +%ld failed +%ld attempts +%ld skipped +%ld",
		       cpu, b.stolen[cpu] - a.stolen[cpu],
		       b.failed[cpu] - a.failed[cpu],
		       b.attempts[cpu] - a.attempts[cpu],
		       b.skipped[cpu] - a.skipped[cpu]);
		EXPECT_LE(a.stolen[cpu], b.stolen[cpu]);
	}
	EXPECT_LE(want, grew) TH_LOG("stolen grew on %d CPUs in %d s", grew, 2 * (window - 1));

	ASSERT_EQ(0, set_steal(false));
	ASSERT_EQ(self->ncpu, read_steal(&b));
	sleep(2);
	ASSERT_EQ(self->ncpu, read_steal(&c));
	for (i = 0; i < self->ncpu; i++) {
		int cpu = self->cpus[i];

		EXPECT_EQ(b.stolen[cpu], c.stolen[cpu])
			TH_LOG("cpu%d stole with NO_STEAL", cpu);
		EXPECT_EQ(b.attempts[cpu], c.attempts[cpu]);
	}
}

/*
 * Two online CPUs of one LLC for the run-queue wait test: the last online
 * CPU and the highest other online CPU of its LLC (the big cluster of the
 * hikey960 board).  0, or -1 when there are no two such CPUs.
 */
static int wait_pair(const int *cpus, int ncpu, int *pair)
{
	cpu_set_t llc;
	int i, last = cpus[ncpu - 1];

	if (ncpu < 2)
		return -1;
	pair[0] = -1;
	pair[1] = last;
	if (!llc_cpus(last, &llc)) {
		/* No cacheinfo to go by: the last two CPUs. */
		pair[0] = cpus[ncpu - 2];
		return 0;
	}
	for (i = ncpu - 2; i >= 0 && pair[0] < 0; i--)
		if (CPU_ISSET(cpus[i], &llc))
			pair[0] = cpus[i];
	return pair[0] < 0 ? -1 : 0;
}

/* The steal counters of the two CPUs of @pair, summed. */
struct pair_counts {
	long attempts;
	long stolen;
	long skipped;
	long search_ns;
};

static int pair_counts(const int *pair, struct pair_counts *c)
{
	struct steal_stats st;
	int i;

	memset(c, 0, sizeof(*c));
	if (read_steal(&st) < 0)
		return -1;
	for (i = 0; i < 2; i++) {
		c->attempts += st.attempts[pair[i]];
		c->stolen += st.stolen[pair[i]];
		c->skipped += st.skipped[pair[i]];
		c->search_ns += st.search_ns[pair[i]];
	}
	return 0;
}

static long long mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* One round of the run-queue wait test, as measured. */
struct wait_sample {
	long long wait_ns;	/* total run-queue wait of the tasks */
	long stolen;		/* steals by the two CPUs */
	long attempts;		/* their searches */
	long skipped;		/* idle entries with no search: avg_idle short */
	long search_ns;		/* time their searches took */
	long long elapsed_us;
};

/*
 * One round of the run-queue wait test: WAIT_TASKS bursty tasks allowed
 * on the two CPUs of @pair only.  While they run, this process (on
 * another CPU) sleeps until they are done: a watcher that woke up every
 * millisecond would keep a third vCPU busy on a host of two cores, and
 * the host's delays would swamp the scheduler's.  0 or -1.
 */
static int wait_round(const int *pair, bool steal, struct wait_sample *s)
{
	struct workload w = { .n = 0 };
	long long t0, d;
	struct pair_counts before, after;
	int fds[2], i, done = 0, ret = 0;
	cpu_set_t set;
	char c;

	memset(s, 0, sizeof(*s));
	if (set_steal(steal) || pipe(fds))
		return -1;
	burst_fd = fds[1];
	if (pair_counts(pair, &before))
		ret = -1;
	cpuset_of(&set, pair, 2);
	t0 = mono_us();
	for (i = 0; i < WAIT_TASKS; i++)
		if (spawn(&w, &set, bursty_body, BURSTS) < 0)
			ret = -1;
	while (done < w.n && !ret) {
		if (read(fds[0], &c, 1) == 1)
			done++;
		else if (errno != EINTR)
			ret = -1;
	}
	s->elapsed_us = mono_us() - t0;
	for (i = 0; i < w.n && !ret; i++) {
		d = run_delay_ns(w.pids[i]);
		if (d < 0)
			ret = -1;
		s->wait_ns += d;
	}
	if (pair_counts(pair, &after))
		ret = -1;
	s->stolen = after.stolen - before.stolen;
	s->attempts = after.attempts - before.attempts;
	s->skipped = after.skipped - before.skipped;
	s->search_ns = after.search_ns - before.search_ns;
	stop_all(&w);
	close(fds[0]);
	close(fds[1]);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The wait STEAL exists to remove.  Three tasks that each run 1 ms and
 * sleep 1 ms share two CPUs of one LLC: half the time three are runnable,
 * one waits, and the other CPU goes idle as soon as its task sleeps.  Its
 * new-idle balance is mostly skipped (its average idle time is short),
 * so without STEAL the waiting task waits for a wakeup or a tick; with
 * STEAL the idle CPU takes it at once.  Two CPUs, so that the host's two
 * cores can run both vCPUs at the same time and a wait in the guest is a
 * wait of the scheduler, not of the host.
 *
 * STEAL and NO_STEAL rounds alternate in pairs (the order flips from pair
 * to pair, so that drift cancels) on the same kernel.  What is asserted
 * is one-sided: the median over the pairs of STEAL's wait over NO_STEAL's
 * is at most WAIT_MAX_RATIO, and STEAL waits less in at least
 * WAIT_MIN_WINS of the WAIT_PAIRS pairs.  With no effect, a pair goes
 * either way: 12 or more of 16 then has a chance of 3.8%, and the median
 * is near 1.
 *
 * Measured with this program in the 4-CPU guests of scripts/run on a
 * quiet 2-core host, 2026-12-01: median ratio 0.62 and 0.69 on the
 * sandybridge board, 0.71 on the hikey960 board (its bigs), STEAL lower
 * in 16 of 16 pairs each time.  With another guest building or booting
 * beside it, 0.82 and 0.85 (15 and 14 of 16).  The first version of the
 * test watched with a 1 ms poll() timeout, keeping a third vCPU busy:
 * 0.80 and 0.89 (14 and 11 of 16), which is why it now sleeps.
 *
 * The measurement needs a guest that the host does not starve.  When it
 * does, searches and idle periods both look long, and the gate of
 * steal_task() shuts, as it should: STEAL is then not asked to act.  A
 * STEAL round counts as starved when its searches cost more than
 * WAIT_STARVED_SEARCH_NS on average, or when the gate skipped
 * every one.  On the hikey960 board with a kernel build beside it,
 * 2026-12-02: 0 to 30 searches and 24 to 72 skips a round, searches of
 * up to 4.8 ms, median ratio 1.02; quiet, 36 to 104 searches and 0 to 29
 * skips, searches of 40 to 160 us, medians 0.75 and 0.77.  On the
 * sandybridge board of a second machine, quiet, 12 to 31 searches of 43
 * to 56 us and 19 to 55 skips a round, STEAL lower in most pairs: the
 * skips alone do not tell a starved guest (the first version of this
 * rule counted a round as shut when it skipped more than it searched,
 * and skipped that run).  The pair runs at its top frequency
 * (full_speed()).  With more
 * than WAIT_MAX_SHUT shut rounds, half of them, the test is skipped,
 * saying so.  It was a quarter until a run on the hikey960 board of
 * 2026-12-07, its host otherwise idle, counted 5 rounds of 16 as shut
 * (searches of 536 to 1184 us on average, none skipped, 69 to 82 steals
 * each) and skipped, though its median ratio was 0.70 and STEAL waited
 * less in 14 of its 16 pairs: slow searches that still steal are a
 * measurement, not a starved guest.  With fewer, every pair counts,
 * shut or not, so that no pair is chosen by how it came out.  A STEAL
 * that does nothing neither searches nor skips: its rounds are not shut,
 * and it fails.
 */
static bool wait_gate_shut(const struct wait_sample *on)
{
	if (!on->attempts)
		return on->skipped > 0;
	return on->search_ns / on->attempts > WAIT_STARVED_SEARCH_NS;
}

TEST_F_TIMEOUT(steal, runq_wait, 90)
{
	long long sum_on = 0, sum_off = 0;
	struct wait_sample on, off;
	double ratio[WAIT_PAIRS], median;
	int pair, shut = 0, wins = 0, cpus[2], i;
	long stolen = 0;
	cpu_set_t set;

	if (wait_pair(self->cpus, self->ncpu, cpus))
		SKIP(return, "needs two CPUs of one last-level cache");
	/* This process watches from outside the pair when it can. */
	CPU_ZERO(&set);
	for (i = 0; i < self->ncpu; i++)
		if (self->cpus[i] != cpus[0] && self->cpus[i] != cpus[1])
			CPU_SET(self->cpus[i], &set);
	if (CPU_COUNT(&set))
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(set), &set));
	ASSERT_EQ(0, kio_write_str(SCHEDSTATS_PATH, "1"));
	full_speed(self, cpus, 2);
	/* Three tasks at half duty load the pair to 75%: not overutilized. */
	ASSERT_EQ(0, eas_off(self));

	for (pair = 0; pair < WAIT_PAIRS; pair++) {
		bool steal_first = !(pair & 1);

		if (steal_first) {
			ASSERT_EQ(0, wait_round(cpus, true, &on));
			ASSERT_EQ(0, wait_round(cpus, false, &off));
		} else {
			ASSERT_EQ(0, wait_round(cpus, false, &off));
			ASSERT_EQ(0, wait_round(cpus, true, &on));
		}
		ASSERT_LT(0, off.wait_ns);
		EXPECT_EQ(0, off.stolen)
			TH_LOG("cpu%d,%d stole with NO_STEAL", cpus[0], cpus[1]);
		ratio[pair] = (double)on.wait_ns / off.wait_ns;
		wins += on.wait_ns < off.wait_ns;
		shut += wait_gate_shut(&on);
		sum_on += on.wait_ns;
		sum_off += off.wait_ns;
		stolen += on.stolen;
		TH_LOG("pair %2d: run-queue wait STEAL %6lld us (%3ld steals of %4ld searches of %4ld us, %4ld skipped%s, %4lld ms), NO_STEAL %6lld us (%4lld ms): %.2f",
		       pair, on.wait_ns / 1000, on.stolen, on.attempts,
		       on.attempts ? on.search_ns / 1000 / on.attempts : 0,
		       on.skipped, wait_gate_shut(&on) ? ": shut" : "",
		       on.elapsed_us / 1000, off.wait_ns / 1000,
		       off.elapsed_us / 1000, ratio[pair]);
	}
	if (shut > WAIT_MAX_SHUT)
		SKIP(return, "the steal gate was shut in %d of %d STEAL rounds (at most %d allowed): searches that cost more than %d us, or none, a starved guest",
		     shut, WAIT_PAIRS, WAIT_MAX_SHUT, WAIT_STARVED_SEARCH_NS / 1000);
	qsort(ratio, WAIT_PAIRS, sizeof(ratio[0]), cmp_double);
	median = (ratio[WAIT_PAIRS / 2 - 1] + ratio[WAIT_PAIRS / 2]) / 2;
	TH_LOG("cpu%d,%d: STEAL %lld us, NO_STEAL %lld us in all; median ratio %.2f (at most %.2f wanted), STEAL lower in %d of %d pairs (%d wanted), %ld steals, gate shut in %d rounds",
	       cpus[0], cpus[1], sum_on / 1000, sum_off / 1000, median,
	       WAIT_MAX_RATIO, wins, WAIT_PAIRS, WAIT_MIN_WINS, stolen, shut);
	/* a lower wait with no steal would be luck, not STEAL's doing */
	EXPECT_LT(0, stolen)
		TH_LOG("STEAL rounds stole nothing");
	EXPECT_LE(median, WAIT_MAX_RATIO)
		TH_LOG("STEAL did not lower the run-queue wait enough");
	EXPECT_GE(wins, WAIT_MIN_WINS)
		TH_LOG("STEAL did not lower the run-queue wait often enough");
}

/*
 * A CPU goes offline and online again during the overload: no splat, no
 * runnable task left on the offline CPU, and stealing goes on.
 *
 * 90 s, not the harness's 30: on the hikey960 board a hotplug step has
 * twice taken most of 30 s, with no kernel message (steal_exact's
 * no_reports and offline_throttled, one run each).  This test makes ten
 * such steps, each usually well under a second, around 5 s of sleeps; a
 * slow step is logged, and a hang still fails.
 */
TEST_F_TIMEOUT(steal, hotplug, 90)
{
	struct steal_stats a, b;
	int splats, cycle, i, k, online[MAX_CPUS], n;
	char path[96];
	long before;

	if (self->ncpu < 2)
		SKIP(return, "needs two CPUs");
	self->hot_cpu = self->cpus[self->ncpu - 1];
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 self->hot_cpu);
	if (access(path, W_OK)) {
		self->hot_cpu = -1;
		SKIP(return, "cpu%d cannot go offline", self->cpus[self->ncpu - 1]);
	}
	splats = count_splats();
	ASSERT_EQ(0, kio_write_str(SCHEDSTATS_PATH, "1"));
	ASSERT_EQ(0, set_steal(true));
	ASSERT_LT(0, start_overload(&self->w, self->cpus, self->ncpu));
	sleep(1);
	ASSERT_EQ(self->ncpu, read_steal(&a));

	for (cycle = 0; cycle < 5; cycle++) {
		ASSERT_EQ(0, su_hotplug_logged(_metadata, self->hot_cpu,
						   false, cycle));
		for (k = 0; k < 3; k++) {
			usleep(100000);
			n = online_cpus(online);
			EXPECT_EQ(n, read_steal(&b));
			EXPECT_FALSE(b.present[self->hot_cpu]);
			for (i = 0; i < self->w.n; i++) {
				char state = '?';
				int cpu = task_cpu_state(self->w.pids[i], &state);

				EXPECT_FALSE(state == 'R' && cpu == self->hot_cpu)
					TH_LOG("task %d runnable on offline cpu%d",
					       self->w.pids[i], cpu);
			}
		}
		ASSERT_EQ(0, su_hotplug_logged(_metadata, self->hot_cpu,
						   true, cycle));
		usleep(300000);
	}
	ASSERT_EQ(self->ncpu, read_steal(&b));
	EXPECT_LT(total_stolen(&a), total_stolen(&b));

	/* Still stealing after the last cycle. */
	before = total_stolen(&b);
	sleep(1);
	ASSERT_EQ(self->ncpu, read_steal(&b));
	EXPECT_LT(before, total_stolen(&b));
	TH_LOG("stolen during hotplug: %ld, after: %ld",
	       before - total_stolen(&a), total_stolen(&b) - before);

	stop_all(&self->w);
	self->hot_cpu = -1;
	EXPECT_EQ(splats, count_splats());
}

static const char *why_skip(void)
{
	if (geteuid())
		return "must be run as root";
	if (access(FEATURES_PATH, R_OK))
		return "no " FEATURES_PATH " (CONFIG_SCHED_DEBUG, debugfs)";
	if (steal_feature() < 0)
		return "no STEAL sched feature (CONFIG_SCHED_STEAL)";
	if (access(STEAL_PATH, R_OK))
		return "no " STEAL_PATH;
	if (access(SCHEDSTATS_PATH, W_OK))
		return "no " SCHEDSTATS_PATH " (CONFIG_SCHEDSTATS)";
	return NULL;
}

int main(int argc, char **argv)
{
	const char *why = why_skip();

	if (why) {
		ksft_print_header();
		ksft_exit_skip("%s\n", why);
	}
	return test_harness_run(argc, argv);
}
