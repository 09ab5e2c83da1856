// SPDX-License-Identifier: GPL-2.0
/*
 * Check that an emulated board is what it claims to be: the emulated
 * Hikey960 (arm64) and Sandy Bridge (x86_64) boards of schedstack, whose
 * frequency control is the cpufreq_emu driver.  Skips on machines where
 * cpufreq_emu does not drive the CPUs (real boards, other VMs).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "knob_io.h"

#define CPUFREQ		"/sys/devices/system/cpu/cpufreq"
#define CPU		"/sys/devices/system/cpu"
#define THERMAL		"/sys/class/thermal"
#define MAX_CPUS	64
#define MAX_FREQS	32

/* One kind of CPU of a board: its capacity and frequency table (kHz). */
struct cpu_kind {
	const char *name;
	unsigned long capacity;		/* 0: not checked (no cpu_capacity) */
	unsigned long freqs[MAX_FREQS];	/* ascending, 0-terminated */
};

#if defined(__aarch64__)
#define BOARD "hikey960"
/* Hikey960: the first half of the CPUs LITTLE, the second half big. */
static const struct cpu_kind kinds[] = {
	{ "LITTLE", 462, { 533000, 999000, 1402000, 1709000, 1844000 } },
	{ "big", 1024, { 903000, 1421000, 1805000, 2112000, 2362000 } },
};
#elif defined(__x86_64__)
#define BOARD "sandybridge"
/* Sandy Bridge: one policy per CPU, 1600..3400 MHz in 100 MHz steps. */
static const struct cpu_kind kinds[] = {
	{ "core", 0, { 1600000, 1700000, 1800000, 1900000, 2000000, 2100000,
		       2200000, 2300000, 2400000, 2500000, 2600000, 2700000,
		       2800000, 2900000, 3000000, 3100000, 3200000, 3300000,
		       3400000 } },
};
#else
#define BOARD "none"
static const struct cpu_kind kinds[] = { { "none", 0, { 0 } } };
#endif

/* @path's content without trailing newlines and spaces: 0 or -errno */
static int read_str(const char *path, char *buf, size_t size)
{
	ssize_t n = kio_read(path, buf, size);

	if (n < 0)
		return n;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* @path's number, or -1 */
static long read_long(const char *path)
{
	long v;

	return kio_read_l(path, &v) ? -1 : v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int nr_freqs(const struct cpu_kind *k)
{
	int n = 0;

	while (n < MAX_FREQS && k->freqs[n])
		n++;
	return n;
}

struct policy {
	int cpu;			/* policy<cpu>: its first CPU */
	int nr_cpus;
	int cpus[MAX_CPUS];		/* related_cpus */
	const struct cpu_kind *kind;	/* what the board says it must be */
	int cdev;			/* its cooling_device<N>, or -1 */
};

FIXTURE(board) {
	int nr_cpus;			/* online CPUs */
	int nr_policies;
	struct policy pol[MAX_CPUS];
	int capped;			/* cooling device to reset in teardown */
};

static int parse_cpus(const char *s, int *cpus)
{
	int n = 0;
	char *end;

	while (*s && n < MAX_CPUS) {
		long c = strtol(s, &end, 10);

		if (end == s)
			break;
		cpus[n++] = (int)c;
		s = end;
		while (*s == ' ')
			s++;
	}
	return n;
}

/* The kind of CPU the board puts at @cpu (of @nr_cpus). */
static const struct cpu_kind *kind_of(int cpu, int nr_cpus)
{
	int nkinds = ARRAY_SIZE(kinds);

	return &kinds[cpu * nkinds / nr_cpus];
}

static void find_cdev(struct policy *p)
{
	char want[32], path[300], type[64];
	struct dirent *de;
	DIR *d;

	snprintf(want, sizeof(want), "cpufreq-cpu%d", p->cpu);
	p->cdev = -1;
	d = opendir(THERMAL);
	if (!d)
		return;
	while ((de = readdir(d))) {
		int id;

		if (sscanf(de->d_name, "cooling_device%d", &id) != 1)
			continue;
		snprintf(path, sizeof(path), THERMAL "/cooling_device%d/type", id);
		if (!read_str(path, type, sizeof(type)) && !strcmp(type, want))
			p->cdev = id;
	}
	closedir(d);
}

/* Why this machine is not an emulated board, or NULL when it is one. */
static const char *board_absent(void)
{
	char buf[64];

	if (!strcmp(BOARD, "none"))
		return "no emulated board for this architecture";
	if (read_str(CPUFREQ "/policy0/scaling_driver", buf, sizeof(buf)) ||
	    strcmp(buf, "cpufreq_emu"))
		return "cpufreq_emu does not drive CPU0: not an emulated board";
	return NULL;
}

FIXTURE_SETUP(board)
{
	char path[256], buf[512];
	int cpu;

	if (board_absent())
		SKIP(return, "%s", board_absent());

	self->nr_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	ASSERT_GT(self->nr_cpus, 0);
	ASSERT_LE(self->nr_cpus, MAX_CPUS);
	self->nr_policies = 0;
	self->capped = -1;
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		struct policy *p = &self->pol[self->nr_policies];

		snprintf(path, sizeof(path), CPUFREQ "/policy%d/related_cpus", cpu);
		if (read_str(path, buf, sizeof(buf)))
			continue;
		p->cpu = cpu;
		p->nr_cpus = parse_cpus(buf, p->cpus);
		p->kind = kind_of(cpu, self->nr_cpus);
		find_cdev(p);
		self->nr_policies++;
	}
	ASSERT_GT(self->nr_policies, 0);
}

FIXTURE_TEARDOWN(board)
{
	char path[300];

	if (self->capped >= 0) {
		snprintf(path, sizeof(path), THERMAL "/cooling_device%d/cur_state",
			 self->capped);
		kio_write_str(path, "0");
	}
}

/* Every online CPU is in a cpufreq_emu policy governed by schedutil. */
TEST_F(board, schedutil_everywhere)
{
	char path[256], buf[64];
	int cpu;

	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		snprintf(path, sizeof(path), CPU "/cpu%d/cpufreq/scaling_driver", cpu);
		ASSERT_EQ(0, read_str(path, buf, sizeof(buf)))
			TH_LOG("CPU%d has no cpufreq policy", cpu);
		EXPECT_STREQ("cpufreq_emu", buf);
		snprintf(path, sizeof(path), CPU "/cpu%d/cpufreq/scaling_governor", cpu);
		ASSERT_EQ(0, read_str(path, buf, sizeof(buf)));
		EXPECT_STREQ("schedutil", buf) TH_LOG("CPU%d", cpu);
	}
}

/* The policies group the CPUs as the board does, with its OPPs. */
TEST_F(board, policies_and_opps)
{
	char path[256], buf[512], want[512];
	int i, j, len;

#if defined(__aarch64__)
	ASSERT_TRUE(self->nr_cpus == 4 || self->nr_cpus == 8)
		TH_LOG("hikey960 has 4 or 8 CPUs, not %d", self->nr_cpus);
	ASSERT_EQ(2, self->nr_policies) TH_LOG("one policy per cluster");
#else
	ASSERT_EQ(self->nr_cpus, self->nr_policies) TH_LOG("one policy per CPU");
#endif
	for (i = 0; i < self->nr_policies; i++) {
		struct policy *p = &self->pol[i];
		const struct cpu_kind *k = p->kind;
		int n = nr_freqs(k);

		for (j = 0; j < p->nr_cpus; j++)
			EXPECT_EQ(k, kind_of(p->cpus[j], self->nr_cpus))
				TH_LOG("policy%d mixes CPU kinds (CPU%d)", p->cpu, p->cpus[j]);
#if defined(__aarch64__)
		EXPECT_EQ(self->nr_cpus / 2, p->nr_cpus) TH_LOG("policy%d", p->cpu);
#else
		EXPECT_EQ(1, p->nr_cpus) TH_LOG("policy%d", p->cpu);
#endif
		len = 0;
		for (j = 0; j < n; j++)
			len += snprintf(want + len, sizeof(want) - len, "%s%lu",
					j ? " " : "", k->freqs[j]);
		snprintf(path, sizeof(path),
			 CPUFREQ "/policy%d/scaling_available_frequencies", p->cpu);
		ASSERT_EQ(0, read_str(path, buf, sizeof(buf)));
		EXPECT_STREQ(want, buf) TH_LOG("policy%d (%s)", p->cpu, k->name);
		snprintf(path, sizeof(path), CPUFREQ "/policy%d/cpuinfo_min_freq", p->cpu);
		EXPECT_EQ((long)k->freqs[0], read_long(path));
		snprintf(path, sizeof(path), CPUFREQ "/policy%d/cpuinfo_max_freq", p->cpu);
		EXPECT_EQ((long)k->freqs[n - 1], read_long(path));
	}
}

/* arch_topology normalised the DT capacities with the max frequencies. */
TEST_F(board, capacities)
{
	char path[256];
	int cpu;

	if (!kinds[0].capacity)
		SKIP(return, "the " BOARD " board has no cpu_capacity to check");
	for (cpu = 0; cpu < self->nr_cpus; cpu++) {
		const struct cpu_kind *k = kind_of(cpu, self->nr_cpus);

		snprintf(path, sizeof(path), CPU "/cpu%d/cpu_capacity", cpu);
		EXPECT_EQ((long)k->capacity, read_long(path))
			TH_LOG("CPU%d (%s)", cpu, k->name);
	}
}

/* One cooling device per policy, one state per OPP below the top. */
TEST_F(board, cooling_devices)
{
	char path[300];
	int i;

	for (i = 0; i < self->nr_policies; i++) {
		struct policy *p = &self->pol[i];

		ASSERT_LE(0, p->cdev)
			TH_LOG("no cooling device of type cpufreq-cpu%d", p->cpu);
		snprintf(path, sizeof(path), THERMAL "/cooling_device%d/max_state", p->cdev);
		EXPECT_EQ(nr_freqs(p->kind) - 1, read_long(path))
			TH_LOG("cooling_device%d (policy%d)", p->cdev, p->cpu);
		snprintf(path, sizeof(path), THERMAL "/cooling_device%d/cur_state", p->cdev);
		EXPECT_EQ(0, read_long(path)) TH_LOG("cooling_device%d starts capped", p->cdev);
	}
}

/* Policy limits are applied from a work item: give them time to land. */
static long wait_value(const char *path, long want, double timeout)
{
	double end = now() + timeout;
	long v;

	do {
		v = read_long(path);
		if (v == want)
			break;
		usleep(2000);
	} while (now() < end);
	return v;
}

static long wait_cur_at_most(int policy, long khz, double timeout)
{
	char path[256];
	double end = now() + timeout;
	long cur;

	snprintf(path, sizeof(path), CPUFREQ "/policy%d/scaling_cur_freq", policy);
	do {
		cur = read_long(path);
		if (cur >= 0 && cur <= khz)
			break;
		usleep(10000);
	} while (now() < end);
	return cur;
}

/* Each cooling state caps scaling_max_freq at its OPP; the frequency follows. */
TEST_F(board, cooling_caps_policy)
{
	char path[300], state[16];
	int i, s;

	if (geteuid())
		SKIP(return, "writing cur_state needs root");
	for (i = 0; i < self->nr_policies; i++) {
		struct policy *p = &self->pol[i];
		int n = nr_freqs(p->kind);
		char max_path[256];

		ASSERT_LE(0, p->cdev);
		snprintf(path, sizeof(path), THERMAL "/cooling_device%d/cur_state", p->cdev);
		snprintf(max_path, sizeof(max_path), CPUFREQ "/policy%d/scaling_max_freq", p->cpu);
		self->capped = p->cdev;
		for (s = n - 1; s >= 0; s -= (s > 1 ? n / 2 : 1)) {
			long cap = p->kind->freqs[n - 1 - s];

			snprintf(state, sizeof(state), "%d", s);
			ASSERT_EQ(0, kio_write_str(path, state)) TH_LOG("%s: %s", path, state);
			EXPECT_EQ(s, read_long(path));
			EXPECT_EQ(cap, wait_value(max_path, cap, 1.0))
				TH_LOG("policy%d, state %d", p->cpu, s);
			EXPECT_GE(cap, wait_cur_at_most(p->cpu, cap, 1.0))
				TH_LOG("policy%d: scaling_cur_freq above the cap %ld", p->cpu, cap);
		}
		snprintf(state, sizeof(state), "%d", n);
		EXPECT_NE(0, kio_write_str(path, state)) TH_LOG("state %d accepted", n);
		EXPECT_EQ(0, read_long(path));
		EXPECT_EQ((long)p->kind->freqs[n - 1],
			  wait_value(max_path, p->kind->freqs[n - 1], 1.0));
		self->capped = -1;
	}
}

static void spin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	for (;;)
		;
}

/*
 * schedutil takes a busy CPU of the fastest policy to its top OPP within a
 * second (a generous bound in an emulator) and lowers it once it is idle.
 *
 * It starts from idle: within 3 s an idle policy of the board is in the
 * lower half of its OPPs.  On the emulated boards nothing else runs, so a
 * policy that stays up while idle is a regression (of the driver, of
 * schedutil's way down or its down rate limit, or a limit or a load an
 * earlier test left behind), and fails.  Machines without cpufreq_emu
 * skipped in the fixture.
 */
TEST_F(board, busy_cpu_reaches_max)
{
	struct policy *p = &self->pol[self->nr_policies - 1];
	int n = nr_freqs(p->kind), cpu = p->cpus[p->nr_cpus - 1];
	long top = p->kind->freqs[n - 1], low = p->kind->freqs[(n - 1) / 2];
	char path[256], gov[64] = "?";
	long cur = -1;
	double t0, t;
	pid_t pid;

	snprintf(path, sizeof(path), CPUFREQ "/policy%d/scaling_cur_freq", p->cpu);
	cur = wait_cur_at_most(p->cpu, low, 3.0);
	if (cur < 0 || cur > low) {
		char min_path[256], gov_path[256], down_path[256];

		snprintf(min_path, sizeof(min_path), CPUFREQ "/policy%d/scaling_min_freq", p->cpu);
		snprintf(gov_path, sizeof(gov_path), CPUFREQ "/policy%d/scaling_governor", p->cpu);
		snprintf(down_path, sizeof(down_path),
			 CPUFREQ "/policy%d/schedutil/down_rate_limit_us", p->cpu);
		read_str(gov_path, gov, sizeof(gov));
		ASSERT_LE(0, cur) TH_LOG("%s cannot be read", path);
		ASSERT_GE(low, cur)
			TH_LOG("policy%d stays at %ld kHz when idle for 3 s, above %ld (governor %s, scaling_min_freq %ld, down_rate_limit_us %ld)",
			       p->cpu, cur, low, gov, read_long(min_path), read_long(down_path));
	}
	TH_LOG("CPU%d starts at %ld kHz", cpu, cur);

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid)
		spin(cpu);
	t0 = now();
	do {
		usleep(5000);
		cur = read_long(path);
		t = now() - t0;
	} while (cur < top && t < 2.0);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	TH_LOG("CPU%d reached %ld kHz after %.0f ms", cpu, cur, t * 1000);
	EXPECT_EQ(top, cur);
	EXPECT_LT(t, 1.0 + 0.25) TH_LOG("slower than a second (with a margin for the poll)");

	cur = wait_cur_at_most(p->cpu, top - 1, 3.0);
	EXPECT_LT(cur, top) TH_LOG("policy%d stays at its top OPP when idle", p->cpu);
}

/* The energy model exists and the scheduler can use it (arm64). */
TEST_F(board, energy_aware)
{
	char path[256], buf[16];
	struct stat st;
	int i;

	if (!kinds[0].capacity)
		SKIP(return, "the " BOARD " board has no energy model");
	if (!stat("/sys/kernel/debug/energy_model", &st)) {
		for (i = 0; i < self->nr_policies; i++) {
			snprintf(path, sizeof(path),
				 "/sys/kernel/debug/energy_model/cpu%d", self->pol[i].cpu);
			EXPECT_EQ(0, stat(path, &st)) TH_LOG("no %s", path);
		}
	} else {
		TH_LOG("debugfs is not mounted: energy model not inspected");
	}
	/* The sysctl reads empty when EAS is not possible. */
	ASSERT_EQ(0, read_str("/proc/sys/kernel/sched_energy_aware", buf, sizeof(buf)));
	EXPECT_STREQ("1", buf) TH_LOG("EAS is not possible on this board");
}

int main(int argc, char **argv)
{
	const char *why = board_absent();

	/* The harness would count a run of skipped tests as a pass. */
	if (why) {
		ksft_print_header();
		ksft_exit_skip("%s\n", why);
	}
	return test_harness_run(argc, argv);
}
