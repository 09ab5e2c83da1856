// SPDX-License-Identifier: GPL-2.0
/*
 * The averaged thermal pressure of idle CPUs follows a cap.
 *
 * A CPU that has been idle for a while, with its tick stopped, has no
 * blocked load left: the idle load balancer stopped updating its averages.
 * A cap set on its policy then must still reach its averaged pressure
 * within a few halflives, not only when the CPU wakes up: wake-up placement
 * and EAS read the capacity of exactly the idle CPUs they choose between.
 *
 * With sched_thermal_decay_ms = 32, a CPU spinning outside the policy (its
 * tick drives the idle load balancer), and the policy's CPUs idle for
 * IDLE_MS (their tick stopped, their blocked load gone), the policy is
 * capped at its lowest frequency through its cooling device.  The
 * sched_events module's thermal_pressure trace event
 * fires whenever a CPU's average moves; over the WATCH_MS that follow
 * (ten halflives and more) each CPU of the policy must show updates after
 * the one the cap itself makes, and an average of at least MIN_PERCENT of
 * the pressure: the closed form gives 99.9% after ten halflives, 75% after
 * two.  Nothing in the test reads the debugfs file, which would update the
 * averages it prints, before the trace is read.
 *
 * SKIPs without root, the knob, the trace event (the sched_events module),
 * or a cpufreq policy with a cooling device that leaves a CPU outside it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tp_sysfs.h"

#define TRACING		"/sys/kernel/tracing"
#define EVENT		TRACING "/events/sched_events/thermal_pressure/enable"
#define DECAY_MS	32
/*
 * Long enough for the blocked load of earlier work (boot, module loading,
 * the previous test) to be gone: with 1.5 s the idle load balancer was
 * still updating the CPUs in most runs here, with 4 s it no longer was.
 */
#define IDLE_MS		4000
#define WATCH_MS	(12 * DECAY_MS)
#define MIN_PERCENT	75
#define MIN_UPDATES	3	/* the cap's own and at least two more */

/* The policy to cap: its CPUs, its cooling device */
struct target {
	int cpus[MAX_CPUS];
	int nr;
	char cur_state[192];
	unsigned long max_state;
	int outside;			/* a CPU outside the policy */
};

static int policy_cpus(const char *dir, int *cpus)
{
	char path[256], buf[256], *tok, *save;
	int nr = 0;

	snprintf(path, sizeof(path), "%.200s/affected_cpus", dir);
	if (kio_read_line(path, buf, sizeof(buf)) || !buf[0])
		return 0;
	for (tok = strtok_r(buf, " ", &save); tok && nr < MAX_CPUS;
	     tok = strtok_r(NULL, " ", &save))
		cpus[nr++] = atoi(tok);
	return nr;
}

/*
 * The policy with a cooling device whose first CPU is the highest, among
 * those that leave a CPU outside: NULL, or why there is none
 */
static const char *target_find(struct target *t)
{
	int online[MAX_CPUS], nr_online, i, j, best = -1;
	char dir[64];

	memset(t, 0, sizeof(*t));
	nr_online = online_cpus(online);
	if (nr_online < 2)
		return "fewer than two online CPUs";
	for (i = 0; i < nr_online; i++) {
		struct target c;

		memset(&c, 0, sizeof(c));
		snprintf(dir, sizeof(dir), CPUFREQ "/policy%d", online[i]);
		c.nr = policy_cpus(dir, c.cpus);
		if (!c.nr || c.nr >= nr_online || online[i] <= best)
			continue;
		if (find_cdev(online[i], c.cur_state, sizeof(c.cur_state),
			      &c.max_state))
			continue;
		c.outside = -1;
		for (j = 0; j < nr_online && c.outside < 0; j++) {
			int k, in = 0;

			for (k = 0; k < c.nr; k++)
				in |= c.cpus[k] == online[j];
			if (!in)
				c.outside = online[j];
		}
		if (c.outside < 0)
			continue;
		*t = c;
		best = online[i];
	}
	return best < 0 ? "no cpufreq policy with a cooling device and a CPU outside it" : NULL;
}

static const char *absent(struct target *t)
{
	if (geteuid())
		return "needs root";
	if (!knob_present())
		return KNOB " is missing: kernel without averaged thermal pressure";
	if (access(EVENT, W_OK))
		return "no sched_events:thermal_pressure trace event (sched_events module not loaded?)";
	return target_find(t);
}

static int pin(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static pid_t start_spinner(int cpu)
{
	pid_t parent = getpid(), pid = fork();
	volatile unsigned long n = 0;

	if (pid)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent || pin(0, cpu))
		_exit(1);
	for (;;)
		n++;
}

/* What the trace says of one CPU */
struct seen {
	int updates;
	unsigned long instant, avg;	/* of the last event */
	char log[256];			/* "avg avg avg ..." */
};

/* Parse the trace for the CPUs of @t into @s[i] (same order); 0 or -1 */
static int read_trace(const struct target *t, struct seen *s)
{
	static char buf[1 << 20];
	char *line, *save, *p;
	int i;

	memset(s, 0, sizeof(*s) * t->nr);
	if (kio_read(TRACING "/trace", buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long instant, avg;
		int cpu;

		p = strstr(line, "thermal_pressure: ");
		if (!p || sscanf(p, "thermal_pressure: cpu=%d instant=%lu avg=%lu",
				 &cpu, &instant, &avg) != 3)
			continue;
		for (i = 0; i < t->nr; i++) {
			size_t len = strlen(s[i].log);

			if (t->cpus[i] != cpu)
				continue;
			s[i].updates++;
			s[i].instant = instant;
			s[i].avg = avg;
			if (len < sizeof(s[i].log) - 8)
				snprintf(s[i].log + len, sizeof(s[i].log) - len,
					 "%s%lu", len ? " " : "", avg);
		}
	}
	return 0;
}

static struct target main_target;
static unsigned long main_saved_decay;
static pid_t main_spinner;

static void restore(void)
{
	if (main_spinner > 0) {
		kill(main_spinner, SIGKILL);
		waitpid(main_spinner, NULL, 0);
		main_spinner = 0;
	}
	kio_write_str(EVENT, "0");
	kio_write_ul(main_target.cur_state, 0);
	kio_write_ul(KNOB, main_saved_decay);
}

TEST(idle_cpus_follow_a_cap)
{
	const struct target *t = &main_target;
	struct seen s[MAX_CPUS];
	int i;

	TH_LOG("capping cpu%d..(%d CPUs) through %s (state %lu); cpu%d spins",
	       t->cpus[0], t->nr, t->cur_state, t->max_state, t->outside);
	ASSERT_EQ(0, kio_write_ul(t->cur_state, 0));
	ASSERT_EQ(0, kio_write_ul(KNOB, DECAY_MS));
	main_spinner = start_spinner(t->outside);
	ASSERT_LT(0, main_spinner);
	ASSERT_EQ(0, pin(0, t->outside));

	/* The policy's CPUs go idle and their blocked load decays */
	sleep_ms(IDLE_MS);

	ASSERT_EQ(0, kio_write_str(TRACING "/tracing_on", "0"));
	ASSERT_EQ(0, kio_truncate(TRACING "/trace"));
	ASSERT_EQ(0, kio_write_str(EVENT, "1"));
	ASSERT_EQ(0, kio_write_str(TRACING "/tracing_on", "1"));
	ASSERT_EQ(0, kio_write_ul(t->cur_state, t->max_state));
	sleep_ms(WATCH_MS);
	ASSERT_EQ(0, kio_write_str(TRACING "/tracing_on", "0"));
	ASSERT_EQ(0, read_trace(t, s));
	restore();

	for (i = 0; i < t->nr; i++) {
		TH_LOG("cpu%d: %d updates in %d ms, instant %lu, averages: %s",
		       t->cpus[i], s[i].updates, WATCH_MS, s[i].instant, s[i].log);
		ASSERT_LT(0UL, s[i].instant)
			TH_LOG("cpu%d: the cap gave no pressure", t->cpus[i]);
		EXPECT_LE(MIN_UPDATES, s[i].updates);
		EXPECT_LE(s[i].instant * MIN_PERCENT / 100, s[i].avg);
	}
}

int main(int argc, char **argv)
{
	const char *reason = absent(&main_target);

	if (reason) {
		ksft_print_header();
		ksft_exit_skip("%s\n", reason);
	}
	if (kio_read_ul(KNOB, &main_saved_decay))
		ksft_exit_fail_msg("cannot read %s\n", KNOB);
	atexit(restore);
	return test_harness_run(argc, argv);
}
