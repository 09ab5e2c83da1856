// SPDX-License-Identifier: GPL-2.0
/*
 * sched_stress: hackbench and CPU hogs in cgroups with CFS bandwidth
 * limits, while the knobs of the series flip and CPUs go offline and
 * online.  Meant for debug kernels (lockdep, KASAN, UBSAN, ...): the
 * kernel's own checkers find what goes wrong inside, this test checks what
 * can be seen from outside.
 *
 *   sched_stress [-t SECONDS] [-s SEED] [-p PHASE[,PHASE...]] [-P PERIOD_US]
 *                [-c COMMAND]
 *
 * Phases (all by default), with their length at -t 80:
 *   pelt     10 s  kernel.sched_pelt_multiplier 1 -> 4 -> 2 -> 1 ... every 10 ms;
 *                  the hogs' util_avg and runnable_avg stay within 1024
 *   thermal  20 s  cap / uncap the biggest cpufreq policies every 20 ms (their
 *                  cooling devices, else scaling_max_freq) while
 *                  kernel.sched_thermal_decay_ms flips among 0, 8 and 1000
 *   steal    20 s  STEAL / NO_STEAL every 5 ms while CPUs go offline and online
 *   random   30 s  every knob at random (pelt multiplier, thermal decay, STEAL,
 *                  schedutil fast_ramp_up / up_rate_limit_us /
 *                  down_rate_limit_us and scaling_max_freq of each policy),
 *                  every 1..20 ms, while CPUs go offline and online
 * -t scales them to the given total (default 40 s, env SCHED_STRESS_SECONDS).
 * The seed (printed; -s or SCHED_STRESS_SEED) fixes the sequence of
 * choices, not their timing.  -P sets the CFS bandwidth period of the
 * groups (default 1 s; see work.c).
 *
 * -c runs the random phase alone, with COMMAND (sh -c) as its work instead
 * of hackbench and the hogs and without a hotplug thread of its own (a
 * stressor such as stress-ng's cpu-online may bring its own), for as long
 * as COMMAND runs (at most the phase's length and COMMAND_GRACE_S more);
 * the phase fails unless COMMAND exits 0.  Its CPU hotplug may take a
 * policy's governor, and with it the tunables, away at any time: the
 * policies' knobs are then flipped but not checked (a refused write is
 * counted); the global knobs are checked as always.
 *
 * A phase passes when all its work completed (every hackbench run exited 0,
 * every hog reached its end), throttling happened, each knob reads what
 * the test wrote last (then the originals are restored), every CPU is
 * online again, and the debugfs views are well formed (one line per CPU,
 * pressures within the capacity, no pressure left once the caps are
 * lifted, steal attempts = stolen + failed once stealing stops).  Knobs
 * that are absent are reported as SKIP, with the reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sys/wait.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "stress.h"

#define SCHEDSTATS_PATH	"/proc/sys/kernel/sched_schedstats"
#define DEFAULT_SECONDS	40
#define MAX_SECONDS	3600
#define DEFAULT_PERIOD_US	1000000
#define MIN_PERIOD_US	10000
#define MAX_PERIOD_US	1000000
#define NR_INVENTORY	13
#define COMMAND_GRACE_S	300

enum { PH_PELT, PH_THERMAL, PH_STEAL, PH_RANDOM, NR_PHASES };

struct ctx {
	struct prng r;
	const struct workload *w;
	unsigned long steps;
	unsigned int idx;
	bool capped;
};

struct phase {
	const char *name;
	const char *what;
	double base;		/* seconds at -t 80 */
	double period;		/* between steps; 0: 1..20 ms at random */
	bool hotplug;
	bool schedstats;
	bool (*ready)(char *why, size_t len);
	void (*step)(struct ctx *c);
};

static volatile int interrupted;
static volatile int phase_stop;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Write a knob the stress flips; a policy's only while it is active. */
static void flip(struct knob *k, long val)
{
	struct policy *p = k->policy >= 0 ? &kn.pol[k->policy] : NULL;
	int ret;

	if (p && pthread_rwlock_tryrdlock(&p->lock))
		return;	/* its last CPU is going offline or online */
	ret = knob_set(k, val);
	if (p)
		pthread_rwlock_unlock(&p->lock);
	if (ret && p && kn.outside_hotplug)
		kn.refused++;	/* its CPUs may be offline: not ours to know */
	else if (ret)
		problem("%s: writing %ld failed: %s", k->label, val, strerror(-ret));
}

static long pick(struct ctx *c, const struct knob *k)
{
	return k->values[prng_below(&c->r, k->nvalues)];
}

/* ---- pelt ---- */

static bool pelt_ready(char *why, size_t len)
{
	if (!kn.pelt)
		snprintf(why, len, "no kernel.sched_pelt_multiplier");
	return kn.pelt;
}

static void pelt_step(struct ctx *c)
{
	static const long seq[] = { 4, 2, 1 };
	int i;

	flip(kn.pelt, seq[c->idx++ % 3]);
	if (c->steps % 10 == 0)
		for (i = 0; i < c->w->nhogs; i++)
			task_pelt_check(c->w->hogs[i]);
}

/* ---- thermal ---- */

static bool thermal_ready(char *why, size_t len)
{
	int i;

	if (!kn.decay) {
		snprintf(why, len, "no kernel.sched_thermal_decay_ms");
		return false;
	}
	for (i = 0; i < kn.npol; i++)
		if (kn.pol[i].big && (kn.pol[i].cdev || kn.pol[i].max_freq))
			return true;
	snprintf(why, len, "no cpufreq policy whose frequency can be capped");
	return false;
}

static void thermal_step(struct ctx *c)
{
	static const long decays[] = { 0, 8, 1000 };
	int i;

	c->capped = !c->capped;
	for (i = 0; i < kn.npol; i++) {
		struct policy *p = &kn.pol[i];

		if (!p->big)
			continue;
		if (p->cdev)
			flip(p->cdev, c->capped ? p->cdev->values[p->cdev->nvalues - 1] : 0);
		else if (p->max_freq)
			flip(p->max_freq, c->capped ? p->max_freq->values[0] : p->max_khz);
	}
	flip(kn.decay, decays[prng_below(&c->r, 3)]);
	if (c->steps % 5 == 0)
		view_thermal_pressure(NULL);
}

/* ---- steal ---- */

static bool steal_ready(char *why, size_t len)
{
	if (!kn.steal)
		snprintf(why, len, "no STEAL sched feature (CONFIG_SCHED_STEAL, debugfs)");
	return kn.steal;
}

static void steal_step(struct ctx *c)
{
	flip(kn.steal, !(c->idx++ & 1));
	if (c->steps % 20 == 0)
		view_steal(false);
}

/* ---- random ---- */

static bool random_ready(char *why, size_t len)
{
	if (!kn.n)
		snprintf(why, len, "no knob of the series");
	return kn.n;
}

static void random_step(struct ctx *c)
{
	/*
	 * Any knob but the cooling devices (the thermal phase's), a debugfs
	 * view, or the hogs' PELT signals.
	 */
	unsigned int choice = prng_below(&c->r, kn.n + 3);
	struct knob *k;
	int i;

	if (choice == (unsigned int)kn.n) {
		view_thermal_pressure(NULL);
		return;
	}
	if (choice == (unsigned int)kn.n + 1) {
		view_steal(false);
		return;
	}
	if (choice == (unsigned int)kn.n + 2) {
		for (i = 0; i < c->w->nhogs; i++)
			task_pelt_check(c->w->hogs[i]);
		return;
	}
	k = &kn.k[choice];
	if (k->policy >= 0 && k == kn.pol[k->policy].cdev)
		return;
	flip(k, pick(c, k));
}

static const struct phase phases[NR_PHASES] = {
	[PH_PELT] = { "pelt", "sched_pelt_multiplier 1->4->2->1 every 10 ms",
		      10, 0.010, false, false, pelt_ready, pelt_step },
	[PH_THERMAL] = { "thermal", "cap/uncap the biggest policies every 20 ms, decay among 0, 8, 1000",
			 20, 0.020, false, false, thermal_ready, thermal_step },
	[PH_STEAL] = { "steal", "STEAL/NO_STEAL every 5 ms, CPU hotplug",
		       20, 0.005, true, true, steal_ready, steal_step },
	[PH_RANDOM] = { "random", "every knob at random every 1..20 ms, CPU hotplug",
			30, 0, true, true, random_ready, random_step },
};

/* ---- options ---- */

struct opts {
	unsigned int seconds;
	unsigned long long seed;
	unsigned int phases;	/* bit mask */
	long period_us;		/* CFS bandwidth period of the groups */
	const char *command;	/* -c: the random phase's work */
};

static const char *command;

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-t SECONDS] [-s SEED] [-p PHASE[,PHASE...]] [-P PERIOD_US] [-c COMMAND]\n"
		"  -t  total time of the phases, 1..%d (default %d; env SCHED_STRESS_SECONDS)\n"
		"  -s  seed of the random choices (default: from the clock; env SCHED_STRESS_SEED)\n"
		"  -p  phases among pelt, thermal, steal, random (default all; env SCHED_STRESS_PHASES)\n"
		"  -P  CFS bandwidth period of the groups in us, %d..%d (default %d)\n"
		"  -c  the random phase alone, with COMMAND as its work; passes if it exits 0\n",
		prog, MAX_SECONDS, DEFAULT_SECONDS, MIN_PERIOD_US, MAX_PERIOD_US,
		DEFAULT_PERIOD_US);
}

static int parse_ull(const char *s, unsigned long long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int parse_phases(const char *s, unsigned int *mask)
{
	char *dup = strdup(s), *tok, *save;
	int i, ret = 0;

	if (!dup)
		return -1;
	*mask = 0;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_PHASES; i++)
			if (!strcmp(tok, phases[i].name))
				break;
		if (i == NR_PHASES) {
			fprintf(stderr, "sched_stress: unknown phase '%s'\n", tok);
			ret = -1;
			break;
		}
		*mask |= 1U << i;
	}
	free(dup);
	return ret || !*mask ? -1 : 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	const char *t = getenv("SCHED_STRESS_SECONDS");
	const char *s = getenv("SCHED_STRESS_SEED");
	const char *p = getenv("SCHED_STRESS_PHASES");
	const char *per = NULL;
	unsigned long long v;
	struct timespec ts;
	int c;

	o->command = NULL;
	while ((c = getopt(argc, argv, "t:s:p:P:c:h")) != -1) {
		switch (c) {
		case 't': t = optarg; break;
		case 's': s = optarg; break;
		case 'p': p = optarg; break;
		case 'P': per = optarg; break;
		case 'c': o->command = optarg; break;
		case 'h': usage(argv[0]); exit(0);
		default: return -1;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "sched_stress: unexpected argument '%s'\n", argv[optind]);
		return -1;
	}
	o->seconds = DEFAULT_SECONDS;
	if (t && *t) {
		if (parse_ull(t, &v) || v < 1 || v > MAX_SECONDS) {
			fprintf(stderr, "sched_stress: bad time '%s': 1..%d seconds\n",
				t, MAX_SECONDS);
			return -1;
		}
		o->seconds = v;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	o->seed = ((unsigned long long)ts.tv_sec * 1000003ULL) ^ ts.tv_nsec ^ getpid();
	if (s && *s && parse_ull(s, &o->seed)) {
		fprintf(stderr, "sched_stress: bad seed '%s'\n", s);
		return -1;
	}
	o->period_us = DEFAULT_PERIOD_US;
	if (per) {
		if (parse_ull(per, &v) || v < MIN_PERIOD_US || v > MAX_PERIOD_US) {
			fprintf(stderr, "sched_stress: bad period '%s': %d..%d us\n",
				per, MIN_PERIOD_US, MAX_PERIOD_US);
			return -1;
		}
		o->period_us = v;
	}
	o->phases = (1U << NR_PHASES) - 1;
	if (p && *p && parse_phases(p, &o->phases)) {
		fprintf(stderr, "sched_stress: bad phase list '%s'\n", p);
		return -1;
	}
	if (o->command) {
		if (!*o->command) {
			fprintf(stderr, "sched_stress: -c wants a command\n");
			return -1;
		}
		if (p && *p && o->phases != 1U << PH_RANDOM) {
			fprintf(stderr, "sched_stress: -c runs the random phase alone, not '%s'\n", p);
			return -1;
		}
		o->phases = 1U << PH_RANDOM;
	}
	return 0;
}

/* ---- what is there ---- */

static void result(bool present, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void result(bool present, const char *name, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (present)
		ksft_test_result_pass("%s%s%s\n", name, msg[0] ? ": " : "", msg);
	else
		ksft_test_result_skip("%s: %s\n", name, msg);
}

static int count_policies(size_t offset)
{
	int i, n = 0;

	for (i = 0; i < kn.npol; i++)
		if (*(struct knob **)((char *)&kn.pol[i] + offset))
			n++;
	return n;
}

static void inventory(const struct cgroups *cg, bool hb)
{
	int online = CPU_COUNT(&kn.online0), n, bigs = 0, bigcdev = 0, i;

	result(kn.pelt, "knob kernel.sched_pelt_multiplier",
	       kn.pelt ? "" : "absent: no /proc/sys/kernel/sched_pelt_multiplier, not flipped");
	result(kn.decay, "knob kernel.sched_thermal_decay_ms",
	       kn.decay ? "" : "absent: no /proc/sys/kernel/sched_thermal_decay_ms, not flipped");
	result(kn.steal, "knob sched feature STEAL",
	       kn.steal ? "" : "absent: no STEAL in /sys/kernel/debug/sched/features, not flipped");
	n = count_policies(offsetof(struct policy, fast_ramp_up));
	result(n, "knob schedutil fast_ramp_up",
	       n ? "%d policies" : "absent: no policy runs schedutil with fast_ramp_up", n);
	n = count_policies(offsetof(struct policy, up_rate));
	result(n, "knob schedutil up_rate_limit_us",
	       n ? "%d policies" : "absent: no policy runs schedutil with up_rate_limit_us", n);
	n = count_policies(offsetof(struct policy, down_rate));
	result(n, "knob schedutil down_rate_limit_us",
	       n ? "%d policies" : "absent: no policy runs schedutil with down_rate_limit_us", n);
	n = count_policies(offsetof(struct policy, max_freq));
	result(n, "knob cpufreq scaling_max_freq",
	       n ? "%d policies" : "absent: no cpufreq policy with a frequency range", n);
	for (i = 0; i < kn.npol; i++) {
		bigs += kn.pol[i].big;
		bigcdev += kn.pol[i].big && kn.pol[i].cdev;
	}
	result(bigcdev, "knob cooling devices of the biggest policies",
	       bigcdev ? "%d of %d" : "absent: none registered, the thermal phase caps scaling_max_freq",
	       bigcdev, bigs);
	result(kn.nhot, "cpu hotplug",
	       kn.nhot ? "%d CPUs can go offline" : "absent: no CPU can go offline (CONFIG_HOTPLUG_CPU, one CPU)",
	       kn.nhot);
	/* The cgroup's path has a pid in it: a diagnostic, not the name. */
	if (cg->on)
		ksft_print_msg("cgroup v2 cpu.max throttling in %s\n", cg->top);
	result(cg->on, "cgroup v2 cpu.max throttling", "%s",
	       cg->on ? "" : cg->why);
	result(hb, "hackbench", "%s",
	       hb ? "" : "absent: not in PATH, a pipe ping-pong runs instead");

	n = view_thermal_pressure(NULL);
	if (n < 0)
		ksft_test_result_skip("debugfs sched/thermal_pressure: absent\n");
	else
		ksft_test_result(n == online && !problems(),
				 "debugfs sched/thermal_pressure: %d lines for %d CPUs\n",
				 n, online);
	problems_reset();
	n = view_steal(false);
	if (n < 0)
		ksft_test_result_skip("debugfs sched/steal: absent\n");
	else
		ksft_test_result(n == online && !problems(),
				 "debugfs sched/steal: %d lines for %d CPUs\n", n, online);
	problems_reset();
}

/* ---- a phase ---- */

static bool steal_off_at_end(void)
{
	long v;

	return kn.steal && !knob_read(kn.steal, &v) && !v;
}

static bool uncapped_at_start(void)
{
	int i;

	for (i = 0; i < kn.npol; i++) {
		const struct policy *p = &kn.pol[i];

		if ((p->cdev && p->cdev->orig) ||
		    (p->max_freq && p->max_freq->orig != p->max_khz))
			return false;
	}
	return true;
}

/* After the phase: the views have a line per CPU, pressure is gone. */
static void check_views(void)
{
	int online = CPU_COUNT(&kn.online0), n, capped = 0;
	double end = now_s() + 3;

	n = view_steal(steal_off_at_end());
	if (n >= 0 && n != online)
		problem("steal: %d lines for %d online CPUs", n, online);
	if (!uncapped_at_start())
		return;
	for (;;) {
		n = view_thermal_pressure(&capped);
		if (n < 0 || !capped || now_s() > end)
			break;
		nap(0.05, NULL);
	}
	if (n >= 0 && n != online)
		problem("thermal_pressure: %d lines for %d online CPUs", n, online);
	if (n >= 0 && capped)
		problem("thermal_pressure: %d CPUs keep an instant pressure after the cap was lifted",
			capped);
}

static void bring_cpus_back(void)
{
	int cpu;

	if (cpus_all_back())
		return;
	problem("not every CPU is online again after the phase");
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (CPU_ISSET(cpu, &kn.online0))
			cpu_set_online(cpu, true);
}

/* Start COMMAND in a process group of its own; its pid, or -errno */
static pid_t command_start(void)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		setpgid(0, 0);
		execl("/bin/sh", "sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	return pid;
}

/* COMMAND's end: whether it exited 0; a problem() when not */
static bool command_end(pid_t pid, int status, bool done)
{
	if (!done) {
		problem("'%s' did not end in time: killed", command);
		kill(-pid, SIGKILL);
		waitpid(pid, &status, 0);
		return false;
	}
	kill(-pid, SIGKILL);	/* what it left behind */
	if (WIFEXITED(status) && !WEXITSTATUS(status)) {
		ksft_print_msg("'%s' exited 0\n", command);
		return true;
	}
	if (WIFEXITED(status))
		problem("'%s' exited %d", command, WEXITSTATUS(status));
	else
		problem("'%s' was killed by signal %d", command, WTERMSIG(status));
	return false;
}

static void run_phase(int ph, double secs, unsigned long long seed,
		      const struct cgroups *cg, bool hb)
{
	const struct phase *P = &phases[ph];
	long thr0 = -1, thr1, thrb0 = -1, thrb1, schedstats = -1;
	struct hotplug_arg hp = { .stop = &phase_stop, .seed = seed + ph };
	bool hotplug = P->hotplug && kn.nhot && !command;
	pid_t cmd_pid = 0;
	int cmd_status = 0;
	bool cmd_done = false;
	int nhogs = CPU_COUNT(&kn.online0);
	double start, end, next, took = 0;
	struct workload w;
	pthread_t tid;
	struct ctx c;
	char why[160];
	int ret;

	if (!P->ready(why, sizeof(why))) {
		ksft_test_result_skip("phase %s: %s\n", P->name, why);
		return;
	}
	if (interrupted) {
		ksft_test_result_fail("phase %s: interrupted\n", P->name);
		return;
	}
	problems_reset();
	knobs_forget();
	memset(&c, 0, sizeof(c));
	prng_init(&c.r, seed, ph);
	if (command)
		ksft_print_msg("phase %s: every knob at random every 1..20 ms, no CPU hotplug of its own, while '%s' runs (at most %.0f s)\n",
			       P->name, command, secs + COMMAND_GRACE_S);
	else
		ksft_print_msg("phase %s: %s, %.1f s%s\n", P->name, P->what, secs,
			       hotplug ? "" : P->hotplug ? " (no CPU hotplug possible)" : "");

	if (cg->on) {
		thr0 = cgroup_nr_throttled(cg->hog);
		thrb0 = cgroup_nr_throttled(cg->hog_b);
	}
	if (command) {
		memset(&w, 0, sizeof(w));
		cmd_pid = command_start();
		ret = cmd_pid < 0 ? cmd_pid : 0;
	} else {
		ret = work_start(&w, cg, nhogs, secs, seed + 100 + ph, hb);
	}
	if (ret) {
		problem("cannot start the work: %s", strerror(-ret));
		goto out_work;
	}
	if (P->schedstats && !kio_read_l(SCHEDSTATS_PATH, &schedstats))
		kio_write_str(SCHEDSTATS_PATH, "1");
	c.w = &w;
	if (ph == PH_PELT)
		flip(kn.pelt, 1);
	phase_stop = 0;
	if (hotplug && pthread_create(&tid, NULL, hotplug_thread, &hp)) {
		problem("cannot start the hotplug thread");
		hotplug = false;
	}

	start = now_s();
	end = start + secs + (command ? COMMAND_GRACE_S : 0);
	next = start;
	while (!interrupted && now_s() < end) {
		if (command && waitpid(cmd_pid, &cmd_status, WNOHANG) == cmd_pid) {
			cmd_done = true;
			break;
		}
		P->step(&c);
		c.steps++;
		next += P->period ? P->period : (1 + prng_below(&c.r, 20)) / 1000.0;
		if (next < now_s())
			next = now_s();
		nap(next - now_s(), &interrupted);
	}
	took = now_s() - start;
	phase_stop = 1;
	if (hotplug)
		pthread_join(tid, NULL);
	bring_cpus_back();
	knobs_verify(P->name);
	knobs_restore();
	if (schedstats >= 0) {
		char v[24];

		snprintf(v, sizeof(v), "%ld", schedstats);
		kio_write_str(SCHEDSTATS_PATH, v);
	}
	if (command) {
		command_end(cmd_pid, cmd_status, cmd_done);
		ksft_print_msg("%lu writes to policy knobs refused while '%s' ran (CPUs offline)\n",
			       kn.refused, command);
	}
out_work:
	if (command)
		goto out_checks;
	if (interrupted)
		w.end = now_s() - 30 - secs;	/* no grace */
	/* Also after a partial start: reap what was forked */
	work_finish(&w, 30 + secs / 2);
	if (cg->on) {
		thr1 = cgroup_nr_throttled(cg->hog);
		thrb1 = cgroup_nr_throttled(cg->hog_b);
		ksft_print_msg("throttled: hogs %ld times, hogs/b %ld times\n",
			       thr1 - thr0, thrb1 - thrb0);
		if (!ret && thr0 >= 0 && thr1 <= thr0)
			problem("the hogs' group was never throttled");
		if (!ret && nhogs > 1 && thrb0 >= 0 && thrb1 <= thrb0)
			problem("hogs/b was never throttled");
	}
out_checks:
	check_views();
	ksft_print_msg("phase %s: %lu steps in %.1f s (%.0f/s)%s\n", P->name,
		       c.steps, took, took > 0 ? c.steps / took : 0.0,
		       interrupted ? ", interrupted" : "");
	if (hotplug)
		ksft_print_msg("hotplug: %lu offline/online cycles, %lu refused (EBUSY), %lu policies rebuilt with their defaults\n",
			       hp.st.cycles, hp.st.busy, hp.st.rebuilds);
	if (interrupted)
		problem("interrupted");
	ksft_test_result(!problems(), "phase %s\n", P->name);
}

int main(int argc, char **argv)
{
	double base = 0, secs[NR_PHASES];
	int inventory_passed;
	struct sigaction sa;
	struct cgroups cg;
	struct opts o;
	bool hb;
	int i;

	if (parse_opts(argc, argv, &o)) {
		usage(argv[0]);
		return KSFT_FAIL;
	}
	command = o.command;
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("must be run as root\n");
	ksft_set_plan(NR_INVENTORY + NR_PHASES);
	ksft_print_msg("seed %llu (again: -s %llu or SCHED_STRESS_SEED=%llu), %u s, CFS period %ld us\n",
		       o.seed, o.seed, o.seed, o.seconds, o.period_us);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	knobs_discover();
	kn.outside_hotplug = command != NULL;
	hb = have_hackbench();
	cgroups_setup(&cg, CPU_COUNT(&kn.online0), o.period_us);
	inventory(&cg, hb);
	/* Some inventory lines are skips: count the phases' passes alone */
	inventory_passed = ksft_get_pass_cnt();

	for (i = 0; i < NR_PHASES; i++)
		if (o.phases & (1U << i))
			base += phases[i].base;
	for (i = 0; i < NR_PHASES; i++) {
		secs[i] = phases[i].base * o.seconds / base;
		if (secs[i] < 2)
			secs[i] = 2;
	}
	for (i = 0; i < NR_PHASES; i++) {
		if (o.phases & (1U << i))
			run_phase(i, secs[i], o.seed, &cg, hb);
		else
			ksft_test_result_skip("phase %s: not selected (-p)\n",
					      phases[i].name);
	}

	if (!knobs_restore() || !cpus_all_back())
		ksft_print_msg("warning: the system is not as it was before the test\n");
	cgroups_teardown(&cg);
	ksft_print_msg("seed %llu\n", o.seed);
	ksft_print_cnts();
	if (ksft_get_fail_cnt())
		exit(KSFT_FAIL);
	exit(ksft_get_pass_cnt() > inventory_passed ? KSFT_PASS : KSFT_SKIP);
}
