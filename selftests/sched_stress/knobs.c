// SPDX-License-Identifier: GPL-2.0
/*
 * sched_stress: the knobs of the series, CPU hotplug and the debugfs views.
 *
 * Every knob the stress may write is found once at start, with its value
 * then (restored at the end) and the values the stress picks from.  Each
 * write is read back at once, except for scaling_max_freq, which the
 * cpufreq core applies from a work item: that one is read back when the
 * stress has stopped.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stress.h"

#define PELT_PATH	"/proc/sys/kernel/sched_pelt_multiplier"
#define DECAY_PATH	"/proc/sys/kernel/sched_thermal_decay_ms"
#define FEATURES_PATH	"/sys/kernel/debug/sched/features"
#define PRESSURE_PATH	"/sys/kernel/debug/sched/thermal_pressure"
#define STEAL_PATH	"/sys/kernel/debug/sched/steal"
#define CPU_DIR		"/sys/devices/system/cpu"
#define CPUFREQ_DIR	CPU_DIR "/cpufreq"
#define THERMAL_DIR	"/sys/class/thermal"

/* How long an async knob may take to read what was written. */
#define SETTLE_S	3.0

struct knobs kn;

static const long pelt_values[] = { 1, 2, 4 };
static const long decay_values[] = { 0, 1, 8, 32, 100, 250, 1000, 32768 };
static const long bool_values[] = { 0, 1 };
static const long rate_values[] = { 0, 500, 1000, 2000, 10000, 50000 };

static struct knob *knob_new(const char *label, const char *path,
			     enum knob_type type, const long *values, int n)
{
	struct knob *k;
	int i;

	if (kn.n >= MAX_KNOBS || n > MAX_VALUES)
		return NULL;
	k = &kn.k[kn.n];
	memset(k, 0, sizeof(*k));
	snprintf(k->label, sizeof(k->label), "%s", label);
	snprintf(k->path, sizeof(k->path), "%s", path);
	k->type = type;
	k->policy = -1;
	for (i = 0; i < n; i++)
		k->values[i] = values[i];
	k->nvalues = n;
	if (knob_read(k, &k->orig))
		return NULL;
	k->expect = k->orig;
	kn.n++;
	return k;
}

int knob_read(const struct knob *k, long *val)
{
	int ret;

	if (k->type == KNOB_FEATURE) {
		ret = kio_sched_feature(FEATURES_PATH, k->label);
		if (ret < 0)
			return ret;
		*val = ret;
		return 0;
	}
	return kio_read_l(k->path, val);
}

static int knob_write(const struct knob *k, long val)
{
	char buf[80];

	if (k->type == KNOB_FEATURE)
		snprintf(buf, sizeof(buf), "%s%s", val ? "" : "NO_", k->label);
	else
		snprintf(buf, sizeof(buf), "%ld", val);
	return kio_write_str(k->path, buf);
}

int knob_set(struct knob *k, long val)
{
	long got;
	int ret;

	ret = knob_write(k, val);
	if (ret)
		return ret;
	k->expect = val;
	k->written = true;
	if (k->async || (k->policy >= 0 && kn.outside_hotplug))
		return 0;
	ret = knob_read(k, &got);
	if (ret)
		problem("%s: wrote %ld, read-back failed: %s", k->label, val,
			strerror(-ret));
	else if (got != val)
		problem("%s: wrote %ld, reads %ld", k->label, val, got);
	return 0;
}

/* "0-2,4" or "0 1 2" -> set; number of CPUs or -1. */
static int parse_cpus(const char *s, cpu_set_t *set)
{
	const char *p = s;
	char *end;
	int n = 0;

	CPU_ZERO(set);
	while (*p) {
		long a, b;

		while (*p == ' ' || *p == ',' || *p == '\n')
			p++;
		if (!*p)
			break;
		a = strtol(p, &end, 10);
		if (end == p || a < 0 || a >= MAX_CPUS)
			return -1;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b >= MAX_CPUS)
				return -1;
			p = end;
		}
		for (; a <= b; a++, n++)
			CPU_SET(a, set);
	}
	return n;
}

int cpu_online_set(cpu_set_t *set)
{
	char buf[256];
	int n;

	n = kio_read(CPU_DIR "/online", buf, sizeof(buf));
	if (n < 0)
		return n;
	return parse_cpus(buf, set);
}

int cpu_set_online(int cpu, bool on)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), CPU_DIR "/cpu%d/online", cpu);
	return kio_write_str(path, on ? "1" : "0");
}

bool cpus_all_back(void)
{
	cpu_set_t now;

	if (cpu_online_set(&now) < 0)
		return false;
	return CPU_EQUAL(&now, &kn.online0);
}

struct policy *policy_of_cpu(int cpu)
{
	int i;

	for (i = 0; i < kn.npol; i++)
		if (CPU_ISSET(cpu, &kn.pol[i].cpus))
			return &kn.pol[i];
	return NULL;
}

static int policy_online_cpus(const struct policy *p)
{
	cpu_set_t on, both;

	if (cpu_online_set(&on) < 0)
		return -1;
	CPU_AND(&both, &on, &p->cpus);
	return CPU_COUNT(&both);
}

/* The cooling device of @p (type cpufreq-cpuN, N one of its CPUs). */
static void find_cooling_device(struct policy *p)
{
	char path[PATH_MAX], type[64], label[64];
	struct dirent *de;
	long maxst;
	DIR *d;
	int cpu;

	d = opendir(THERMAL_DIR);
	if (!d)
		return;
	while ((de = readdir(d))) {
		long vals[MAX_VALUES];
		int i;

		if (strncmp(de->d_name, "cooling_device", 14))
			continue;
		snprintf(path, sizeof(path), THERMAL_DIR "/%s/type", de->d_name);
		if (kio_read(path, type, sizeof(type)) < 0 ||
		    sscanf(type, "cpufreq-cpu%d", &cpu) != 1 ||
		    cpu < 0 || cpu >= MAX_CPUS || !CPU_ISSET(cpu, &p->cpus))
			continue;
		snprintf(path, sizeof(path), THERMAL_DIR "/%s/max_state", de->d_name);
		if (kio_read_l(path, &maxst) || maxst < 1 || maxst >= MAX_VALUES)
			continue;
		for (i = 0; i <= maxst; i++)
			vals[i] = i;
		snprintf(path, sizeof(path), THERMAL_DIR "/%s/cur_state", de->d_name);
		snprintf(label, sizeof(label), "policy%d %.24s cur_state", p->id,
			 de->d_name);
		p->cdev = knob_new(label, path, KNOB_NUMBER, vals, maxst + 1);
		if (p->cdev)
			p->cdev->policy = p - kn.pol;
		break;
	}
	closedir(d);
}

static struct knob *policy_knob(struct policy *p, const char *file,
				const long *values, int n)
{
	char path[PATH_MAX], label[64];
	struct knob *k;

	snprintf(path, sizeof(path), "%s/%s", p->dir, file);
	if (access(path, F_OK))
		return NULL;
	snprintf(label, sizeof(label), "policy%d %s", p->id, file);
	k = knob_new(label, path, KNOB_NUMBER, values, n);
	if (k)
		k->policy = p - kn.pol;
	return k;
}

/*
 * The default of both schedutil rate limits, as sugov_init() sets them:
 * cpufreq_policy_transition_delay_us(), which is the driver's
 * policy->transition_delay_us when it sets one, else 1.5 times
 * cpuinfo_transition_latency (in us), else 1 ms.  The drivers of v6.12
 * that set transition_delay_us are listed: sysfs does not show the value,
 * so for them it is learnt from the first rebuild and every later rebuild
 * must give the same.
 */
static const char * const own_delay_drivers[] = {
	"intel_cpufreq", "amd-pstate", "cppc_cpufreq", "scmi", "longhaul",
};

static void policy_rate_default(struct policy *p)
{
	char path[PATH_MAX], drv[64];
	unsigned int i;
	long ns;

	p->rate_default = -1;
	snprintf(path, sizeof(path), "%s/scaling_driver", p->dir);
	if (kio_read_line(path, drv, sizeof(drv)))
		return;
	for (i = 0; i < sizeof(own_delay_drivers) / sizeof(own_delay_drivers[0]); i++)
		if (!strcmp(drv, own_delay_drivers[i]))
			return;
	snprintf(path, sizeof(path), "%s/cpuinfo_transition_latency", p->dir);
	if (kio_read_l(path, &ns) || ns < 0)
		return;
	p->rate_default = ns / 1000 ? ns / 1000 + ns / 1000 / 2 : 1000;
}

static void add_policy(int id)
{
	struct policy *p = &kn.pol[kn.npol];
	char path[PATH_MAX], buf[1024], *tok, *save;
	long freqs[MAX_VALUES];
	int nf = 0;

	memset(p, 0, sizeof(*p));
	p->id = id;
	snprintf(p->dir, sizeof(p->dir), CPUFREQ_DIR "/policy%d", id);
	snprintf(path, sizeof(path), "%s/related_cpus", p->dir);
	if (kio_read(path, buf, sizeof(buf)) < 0 || parse_cpus(buf, &p->cpus) <= 0)
		return;
	snprintf(path, sizeof(path), "%s/cpuinfo_min_freq", p->dir);
	if (kio_read_l(path, &p->min_khz))
		return;	/* inactive (its CPUs offline) or broken */
	snprintf(path, sizeof(path), "%s/cpuinfo_max_freq", p->dir);
	if (kio_read_l(path, &p->max_khz))
		return;
	pthread_rwlock_init(&p->lock, NULL);
	kn.npol++;

	/* The table's frequencies, else the two ends. */
	snprintf(path, sizeof(path), "%s/scaling_available_frequencies", p->dir);
	if (kio_read(path, buf, sizeof(buf)) > 0) {
		for (tok = strtok_r(buf, " \n", &save); tok && nf < MAX_VALUES;
		     tok = strtok_r(NULL, " \n", &save)) {
			long f = strtol(tok, NULL, 10);

			if (f >= p->min_khz && f <= p->max_khz)
				freqs[nf++] = f;
		}
	}
	if (nf < 2) {
		freqs[0] = p->min_khz;
		freqs[1] = p->max_khz;
		nf = 2;
	}
	if (p->max_khz > p->min_khz) {
		p->max_freq = policy_knob(p, "scaling_max_freq", freqs, nf);
		if (p->max_freq)
			p->max_freq->async = true;
	}
	policy_rate_default(p);
	p->fast_ramp_up = policy_knob(p, "schedutil/fast_ramp_up", bool_values, 2);
	p->up_rate = policy_knob(p, "schedutil/up_rate_limit_us", rate_values,
				 sizeof(rate_values) / sizeof(rate_values[0]));
	p->down_rate = policy_knob(p, "schedutil/down_rate_limit_us", rate_values,
				   sizeof(rate_values) / sizeof(rate_values[0]));
	find_cooling_device(p);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void discover_policies(void)
{
	int ids[MAX_POLICIES], n = 0, i;
	struct dirent *de;
	long top = 0;
	DIR *d;

	d = opendir(CPUFREQ_DIR);
	if (!d)
		return;
	while ((de = readdir(d)) && n < MAX_POLICIES) {
		int id;

		if (sscanf(de->d_name, "policy%d", &id) == 1)
			ids[n++] = id;
	}
	closedir(d);
	qsort(ids, n, sizeof(ids[0]), cmp_int);
	for (i = 0; i < n; i++)
		add_policy(ids[i]);
	for (i = 0; i < kn.npol; i++)
		if (kn.pol[i].max_khz > top)
			top = kn.pol[i].max_khz;
	for (i = 0; i < kn.npol; i++)
		kn.pol[i].big = kn.pol[i].max_khz == top;
}

static void discover_hotplug(void)
{
	char path[PATH_MAX];
	int cpu;

	if (cpu_online_set(&kn.online0) < 0)
		return;
	for (cpu = 1; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/online", cpu);
		if (CPU_ISSET(cpu, &kn.online0) && !access(path, W_OK))
			kn.hot[kn.nhot++] = cpu;
	}
}

void knobs_discover(void)
{
	memset(&kn, 0, sizeof(kn));
	kn.pelt = knob_new("kernel.sched_pelt_multiplier", PELT_PATH,
			   KNOB_NUMBER, pelt_values, 3);
	kn.decay = knob_new("kernel.sched_thermal_decay_ms", DECAY_PATH,
			    KNOB_NUMBER, decay_values,
			    sizeof(decay_values) / sizeof(decay_values[0]));
	kn.steal = knob_new("STEAL", FEATURES_PATH, KNOB_FEATURE, bool_values, 2);
	discover_policies();
	discover_hotplug();
}

/* Forget what was written (a new phase starts from the originals). */
void knobs_forget(void)
{
	int i;

	for (i = 0; i < kn.n; i++) {
		kn.k[i].written = false;
		kn.k[i].expect = kn.k[i].orig;
	}
}

/* Read @k until it shows @want (async knobs get SETTLE_S). */
static bool knob_settles(const struct knob *k, long want, long *got)
{
	double end = now_s() + (k->async ? SETTLE_S : 0);
	int ret;

	for (;;) {
		ret = knob_read(k, got);
		if (!ret && *got == want)
			return true;
		if (now_s() >= end)
			break;
		nap(0.02, NULL);
	}
	if (ret) {
		problem("%s: cannot be read: %s", k->label, strerror(-ret));
		*got = -1;
	}
	return false;
}

bool knobs_verify(const char *phase)
{
	bool ok = true;
	int i;

	for (i = 0; i < kn.n; i++) {
		struct knob *k = &kn.k[i];
		long got;

		if (!k->written || (k->policy >= 0 && kn.outside_hotplug))
			continue;
		if (!knob_settles(k, k->expect, &got)) {
			problem("%s: %s ends at %ld, the test set %ld last",
				phase, k->label, got, k->expect);
			ok = false;
		}
	}
	return ok;
}

bool knobs_restore(void)
{
	bool ok = true;
	int i;

	/* Backwards: a policy's cooling device before its scaling_max_freq. */
	for (i = kn.n - 1; i >= 0; i--) {
		struct knob *k = &kn.k[i];
		long got;
		int ret;

		if (!knob_read(k, &got) && got == k->orig && !k->async)
			continue;
		ret = knob_write(k, k->orig);
		if (ret) {
			problem("%s: restoring %ld failed: %s", k->label,
				k->orig, strerror(-ret));
			ok = false;
			continue;
		}
		k->expect = k->orig;
		if (!knob_settles(k, k->orig, &got)) {
			problem("%s: restored %ld, reads %ld", k->label,
				k->orig, got);
			ok = false;
		}
	}
	return ok;
}

/*
 * The policy came back from inactive.  cpufreq exits the governor when a
 * policy's last CPU goes offline (__cpufreq_offline(), also with drivers
 * that have ->offline, as cpufreq_emu) and starts it afresh when a CPU of
 * it comes back: sugov_exit() dropped the last reference to the policy's
 * tunables, and sugov_init() allocated new ones, zeroed (fast_ramp_up 0)
 * with both rate limits at their default.  Whatever the test wrote
 * before, each tunable must read its default now, and is expected to keep
 * it until the test writes it again.
 */
static void adopt_policy(struct policy *p, struct hotplug_stats *st)
{
	struct knob *ks[] = { p->fast_ramp_up, p->up_rate, p->down_rate };
	unsigned int i;

	st->rebuilds++;
	if (p->rate_default < 0 && p->up_rate &&
	    !knob_read(p->up_rate, &p->rate_default))
		printf("# policy%d: the driver sets its own transition delay: the rate limits' default, %ld us, is taken from the first rebuild\n",
		       p->id, p->rate_default);
	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		long got, want = ks[i] == p->fast_ramp_up ? 0 : p->rate_default;
		int ret;

		if (!ks[i])
			continue;
		ret = knob_read(ks[i], &got);
		if (ret) {
			problem("%s: unreadable after cpu online: %s",
				ks[i]->label, strerror(-ret));
			continue;
		}
		if (want < 0) {
			problem("%s: no default known to check %ld against",
				ks[i]->label, got);
			continue;
		}
		if (got != want)
			problem("%s: reads %ld after the policy was rebuilt, not its default %ld (it held %ld)",
				ks[i]->label, got, want, ks[i]->expect);
		ks[i]->expect = want;
		ks[i]->written = true;
	}
}

static int online_again(int cpu)
{
	int tries, ret = 0;

	for (tries = 0; tries < 5; tries++) {
		ret = cpu_set_online(cpu, true);
		if (!ret)
			return 0;
		nap(0.1, NULL);
	}
	return ret;
}

void *hotplug_thread(void *arg)
{
	struct hotplug_arg *a = arg;
	struct prng r;

	prng_init(&r, a->seed, 0x40);
	while (!*a->stop) {
		int cpu = kn.hot[prng_below(&r, kn.nhot)];
		struct policy *p = policy_of_cpu(cpu);
		bool sole = p && policy_online_cpus(p) == 1;
		int ret;

		if (sole)
			pthread_rwlock_wrlock(&p->lock);
		ret = cpu_set_online(cpu, false);
		if (ret == -EBUSY) {
			a->st.busy++;
		} else if (ret) {
			problem("cpu%d: going offline failed: %s", cpu,
				strerror(-ret));
		} else {
			/* Offline for 20..200 ms, and always back online. */
			nap(0.02 + prng_below(&r, 181) / 1000.0, a->stop);
			ret = online_again(cpu);
			if (ret)
				problem("cpu%d: does not come back online: %s",
					cpu, strerror(-ret));
			else
				a->st.cycles++;
		}
		if (sole) {
			if (!ret)
				adopt_policy(p, &a->st);
			pthread_rwlock_unlock(&p->lock);
		}
		if (ret && ret != -EBUSY)
			break;
		nap(0.02 + prng_below(&r, 181) / 1000.0, a->stop);
	}
	return NULL;
}

/*
 * /sys/kernel/debug/sched/thermal_pressure: every line
 * "cpu<N> orig=<> instant=<> avg=<> actual=<>" with the pressures and the
 * capacity within orig.  Returns the number of lines (and in @capped those
 * with an instant pressure), or -1 when the file cannot be read.
 */
int view_thermal_pressure(int *capped)
{
	char buf[MAX_CPUS * 128], *line, *save;
	int n = 0, c = 0;

	if (kio_read(PRESSURE_PATH, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long orig, inst, avg, act;
		int cpu, end = 0;

		if (sscanf(line, "cpu%d orig=%lu instant=%lu avg=%lu actual=%lu%n",
			   &cpu, &orig, &inst, &avg, &act, &end) != 5 ||
		    line[end]) {
			problem("thermal_pressure: bad line '%s'", line);
			continue;
		}
		if (inst > orig || avg > orig || act > orig)
			problem("thermal_pressure: out of range: '%s'", line);
		if (inst)
			c++;
		n++;
	}
	if (capped)
		*capped = c;
	return n;
}

/*
 * /sys/kernel/debug/sched/steal: every line "cpu<N> name=<n> ...", with at
 * least attempts, stolen, failed and search_ns (skipped= and any field
 * added later are accepted); with @settled (nothing steals any more)
 * attempts = stolen + failed on every line.
 */
int view_steal(bool settled)
{
	static const char *const names[] = {
		"attempts", "stolen", "failed", "search_ns",
	};
	const unsigned int nnames = sizeof(names) / sizeof(names[0]);
	char buf[MAX_CPUS * 192], *line, *save;
	int n = 0;

	if (kio_read(STEAL_PATH, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long val[4] = { 0 };
		char copy[192], *tok, *tsave, *end;
		unsigned int i, seen = 0;
		int cpu, start = 0;
		bool bad = false;

		snprintf(copy, sizeof(copy), "%s", line);
		if (sscanf(copy, "cpu%d %n", &cpu, &start) != 1 || !start)
			bad = true;
		for (tok = bad ? NULL : strtok_r(copy + start, " ", &tsave);
		     tok && !bad; tok = strtok_r(NULL, " ", &tsave)) {
			char *eq = strchr(tok, '=');

			if (!eq) {
				bad = true;
				break;
			}
			*eq = '\0';
			for (i = 0; i < nnames; i++) {
				if (strcmp(tok, names[i]))
					continue;
				val[i] = strtoull(eq + 1, &end, 10);
				bad |= end == eq + 1 || *end;
				seen |= 1U << i;
			}
		}
		if (bad || seen != (1U << nnames) - 1) {
			problem("steal: bad line '%s'", line);
			continue;
		}
		if (settled && val[0] != val[1] + val[2])
			problem("steal: attempts != stolen + failed: '%s'", line);
		n++;
	}
	return n;
}
