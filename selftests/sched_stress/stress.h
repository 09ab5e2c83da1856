/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched_stress: declarations shared by the knob, workload and main parts.
 */
#ifndef SCHED_STRESS_H
#define SCHED_STRESS_H

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "knob_io.h"
#include "mono_time.h"

#define MAX_CPUS	64
#define MAX_POLICIES	16
#define MAX_KNOBS	(4 + 5 * MAX_POLICIES)
#define MAX_VALUES	64
#define MAX_HOGS	16

/* ---- seeded PRNG (splitmix64): one stream per thread or process ---- */

struct prng {
	uint64_t s;
};

static inline uint64_t prng_next(struct prng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void prng_init(struct prng *r, uint64_t seed, uint64_t stream)
{
	r->s = seed ^ (stream * 0xd1342543de82ef95ULL);
	prng_next(r);
}

/* A number in [0, n). */
static inline unsigned int prng_below(struct prng *r, unsigned int n)
{
	return n ? (unsigned int)(prng_next(r) % n) : 0;
}

/* ---- time (now_s(): mono_time.h) ---- */

/* Sleep @s seconds, waking early (returning true) when stop is set. */
bool nap(double s, volatile int *stop);

/* ---- problems found while the stress runs (thread safe) ---- */

void problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
unsigned long problems(void);
void problems_reset(void);

/* ---- knobs ---- */

enum knob_type {
	KNOB_NUMBER,	/* a file holding one number */
	KNOB_FEATURE,	/* a sched feature: 1 writes NAME, 0 writes NO_NAME */
};

struct knob {
	char label[64];
	char path[PATH_MAX];
	enum knob_type type;
	long values[MAX_VALUES];	/* what the stress may write */
	int nvalues;
	int policy;		/* index in the policy table, or -1 */
	bool async;		/* read back only once things settle */
	long orig;		/* value found at start, restored at the end */
	long expect;		/* last value written by the test */
	bool written;
};

struct policy {
	int id;			/* N of policyN */
	char dir[128];
	cpu_set_t cpus;		/* related_cpus */
	long min_khz, max_khz;	/* cpuinfo_{min,max}_freq */
	long rate_default;	/* of schedutil's rate limits, us; -1: unknown */
	bool big;		/* among the policies with the highest max */
	/* Held for writing while a hotplug may leave the policy inactive. */
	pthread_rwlock_t lock;
	struct knob *fast_ramp_up, *up_rate, *down_rate, *max_freq, *cdev;
};

struct knobs {
	struct knob k[MAX_KNOBS];
	int n;
	struct knob *pelt, *decay, *steal;
	struct policy pol[MAX_POLICIES];
	int npol;
	/* CPUs that can go offline, and the online set at start */
	int hot[MAX_CPUS];
	int nhot;
	cpu_set_t online0;
	/*
	 * Something else takes CPUs offline (sched_stress -c): a policy may
	 * lose its governor, and with it its tunables, under the test at any
	 * time, so the policies' knobs are flipped but not checked.
	 */
	bool outside_hotplug;
	unsigned long refused;	/* policy writes refused meanwhile */
};

extern struct knobs kn;

void knobs_discover(void);
int knob_read(const struct knob *k, long *val);
/* Write @val; check the read-back unless the knob is async.  0 or -errno. */
int knob_set(struct knob *k, long val);
/* Whether every written knob reads what the test wrote last. */
bool knobs_verify(const char *phase);
/* Write the original values back and check them.  Returns true if all ok. */
bool knobs_restore(void);
void knobs_forget(void);
struct policy *policy_of_cpu(int cpu);

/* CPU hotplug */
int cpu_online_set(cpu_set_t *set);
int cpu_set_online(int cpu, bool on);
bool cpus_all_back(void);

struct hotplug_stats {
	unsigned long cycles, busy, rebuilds;
};
/* The hotplug thread: offline and online CPUs of kn.hot until *stop. */
struct hotplug_arg {
	volatile int *stop;
	uint64_t seed;
	struct hotplug_stats st;
};
void *hotplug_thread(void *arg);

/* debugfs views: check the format; the number of lines or -1 */
int view_thermal_pressure(int *capped);
int view_steal(bool settled);

/* ---- workload ---- */

struct cgroups {
	bool on;		/* cpu.max groups in use */
	char why[160];		/* why not */
	char mnt[256];		/* cgroup2 mount */
	bool mounted;		/* mounted by us */
	char top[320];
	char hb[384];
	char hog[384];
	char hog_a[448];
	char hog_b[448];
};

int cgroups_setup(struct cgroups *cg, int ncpus, long period_us);
void cgroups_teardown(struct cgroups *cg);
long cgroup_nr_throttled(const char *dir);

struct work_shared {
	long hb_runs;
	long hb_failures;
	long hog_loops[MAX_HOGS];
};

struct workload {
	pid_t runner;
	pid_t hogs[MAX_HOGS];
	int nhogs;
	struct work_shared *sh;
	double end;
};

bool have_hackbench(void);
int task_pelt_check(pid_t pid);
int work_start(struct workload *w, const struct cgroups *cg, int nhogs,
	       double seconds, uint64_t seed, bool hackbench);
/* Wait for the work to finish; what did not complete is a problem(). */
void work_finish(struct workload *w, double grace);

#endif
