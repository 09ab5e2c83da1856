// SPDX-License-Identifier: GPL-2.0
/*
 * STEAL where big and LITTLE CPUs share a last-level cache: a steal must
 * not move a task down to a CPU it does not fit, which misfit balancing
 * would undo.
 *
 * no_steal_down: two CPU hogs, allowed on a big CPU and on one LITTLE CPU
 *   of the same LLC, are put back on the big CPU again and again; the
 *   LITTLE CPU, going idle often, must never steal one (the steal events
 *   of the sched_events module name the task).  The hogs ask for a
 *   uclamp_min of 1024, so that they fit no LITTLE CPU whatever their
 *   utilization: one that the load balancer moved to the LITTLE CPU,
 *   where it ran at a low frequency for a while, can come back with a
 *   utilization that fits it, and task_fits_cpu() then rightly lets it
 *   be stolen (4 such steals in 40 cycles were seen without the clamp).
 *   Skips unless cpu0's LLC holds CPUs of two capacities (the dynamiq
 *   board), without the module and without uclamp.
 * no_steal_under_eas: with EAS on and the root domain not overutilized,
 *   new-idle balance leaves tasks where EAS put them, and so must STEAL.
 *   Three CPU hogs with a uclamp_max of 64, stacked on cpu0 and allowed
 *   on a second CPU of its LLC that goes idle about a thousand times a
 *   second: capped tasks do not make a CPU overutilized, so the root
 *   domain stays below the tipping point with cpu0 overloaded, and no
 *   hog may be stolen while it does (the overutilized and steal events
 *   of the sched_events module give both).  Skips without EAS (no energy
 *   model: the sandybridge board), the module or uclamp, and when the
 *   root domain was overutilized for most of the window.
 *
 * Skips (exit 4) without the STEAL feature.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>
#include <linux/sched/types.h>

#include "kselftest_harness.h"
#include "steal_util.h"

#define TRACEFS		"/sys/kernel/tracing"
#define EV_STEAL	TRACEFS "/events/sched_events/steal/enable"
#define EV_OVERUTIL	TRACEFS "/events/sched_events/overutilized/enable"
#define EAS_PATH	"/proc/sys/kernel/sched_energy_aware"

static const char *const stolen_count[] = { "stolen", NULL };

/* The hogs are put back on the big CPU every CYCLE_MS, CYCLES times. */
#define DOWN_CYCLE_MS		100
#define DOWN_CYCLES		40
/* The ticker on the LITTLE CPU: it goes idle about a thousand times a second */
#define DOWN_TICK_RUN_US	20
#define DOWN_TICK_SLEEP_US	1000

/* sched_attr.sched_flags: keep the policy and its parameters, set uclamp_min */
#define CLAMP_MIN_FLAGS		(0x08 | 0x10 | 0x20)
/* ... and set uclamp_max instead */
#define CLAMP_MAX_FLAGS		(0x08 | 0x10 | 0x40)

/*
 * no_steal_under_eas: EAS_HOGS hogs capped at EAS_UCLAMP_MAX on the
 * victim, a ticker on the thief, EAS_CYCLES cycles of EAS_CYCLE_MS that
 * each put the hogs back on the victim.  A steal tests
 * the flag when its search starts and is traced when it ends, and the
 * host may stop a vCPU between the two: a steal within EAS_SLACK_MS of
 * the flag going to 0 counts for neither state.  The root domain must
 * have been at 0 for EAS_MIN_ZERO_PERCENT of the window for a result.
 */
#define EAS_HOGS		3
#define EAS_UCLAMP_MAX		64
#define EAS_CYCLE_MS		200
#define EAS_CYCLES		20
#define EAS_SLACK_MS		50
#define EAS_MIN_ZERO_PERCENT	50

FIXTURE(steal_capacity) {
	int was_on;
	char schedstats[16];
	struct su_tasks t;
	struct su_view a, b;
};

FIXTURE_SETUP(steal_capacity)
{
	self->t.n = 0;
	self->was_on = kio_sched_feature(SU_FEATURES, "STEAL");
	ASSERT_LE(0, self->was_on);
	ASSERT_EQ(0, kio_read_line(SU_SCHEDSTATS, self->schedstats,
				   sizeof(self->schedstats)));
}

FIXTURE_TEARDOWN(steal_capacity)
{
	kio_write_str(EV_STEAL, "0");
	su_stop(&self->t);
	su_set_steal(self->was_on);
	kio_write_str(SU_SCHEDSTATS, self->schedstats);
}

static bool is_hog(pid_t pid, const pid_t *hogs, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (hogs[i] == pid)
			return true;
	return false;
}

/*
 * Whether @line is a steal event of one of the @n tasks of @hogs to
 * @dst_cpu ("... steal: comm=... pid=P src_cpu=S dst_cpu=D ...")
 */
static bool hog_stolen_to(const char *line, const pid_t *hogs, int n,
			  int dst_cpu)
{
	const char *p = strstr(line, ": steal: ");
	int pid, src, dst;

	if (!p || line[0] == '#')
		return false;
	p = strstr(p, " pid=");
	return p && sscanf(p, " pid=%d src_cpu=%d dst_cpu=%d", &pid, &src,
			   &dst) == 3 && dst == dst_cpu && is_hog(pid, hogs, n);
}

/* The traced steals of one of the @n tasks of @pids to @dst_cpu. */
static long hog_steals(const pid_t *pids, int n, int dst_cpu)
{
	char line[512];
	long count = 0;
	FILE *f;

	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		count += hog_stolen_to(line, pids, n, dst_cpu);
	fclose(f);
	return count;
}

/* Set @pid's uclamp_max (@max) or uclamp_min: 0 or -errno */
static int set_uclamp(pid_t pid, bool max, unsigned int value)
{
	struct sched_attr attr = {
		.size = sizeof(attr),
		.sched_flags = max ? CLAMP_MAX_FLAGS : CLAMP_MIN_FLAGS,
	};

	if (max)
		attr.sched_util_max = value;
	else
		attr.sched_util_min = value;
	return syscall(SYS_sched_setattr, pid, &attr, 0) ? -errno : 0;
}

/* The timestamp of a trace line ("... [001] d.h2. 123.456789: ..."), or -1 */
static double trace_ts(const char *line)
{
	const char *p = strrchr(line, ']');
	double ts;

	return p && sscanf(p + 1, "%*s %lf", &ts) == 1 ? ts : -1;
}

/* What the trace says of the root domain's flag and the hogs' steals */
struct eas_record {
	double secs[2];		/* time at 0 and at 1, from the first write on */
	long steals[2];		/* hogs stolen to the thief at 0 and at 1 */
	long slack;		/* steals in the slack after a change to 0 */
	double first_ms;	/* the first steal at 0: ms after the flag went 0 */
};

/*
 * Read the trace: "TIMESTAMP: overutilized: overutilized=F" and
 * "TIMESTAMP: steal: ... pid=P src_cpu=S dst_cpu=D", in time order, from
 * the first write of the flag on.
 */
static int eas_read_trace(struct eas_record *r, const pid_t *hogs, int n,
			  int thief)
{
	const char *tag = ": overutilized: overutilized=";
	double ts = 0, since = 0, zero_at = 0;
	int flag = -1, was;
	char line[512], *p;
	FILE *f;

	memset(r, 0, sizeof(*r));
	r->first_ms = -1;
	f = fopen(TRACEFS "/trace", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || (ts = trace_ts(line)) < 0)
			continue;
		p = strstr(line, tag);
		if (p) {
			was = flag;
			flag = p[strlen(tag)] == '1';
			/* The load balancer writes 0 again while it stays 0. */
			if (was == flag)
				continue;
			if (was >= 0)
				r->secs[was] += ts - since;
			since = ts;
			if (!flag)
				zero_at = ts;
			continue;
		}
		if (flag < 0 || !hog_stolen_to(line, hogs, n, thief))
			continue;
		if (!flag && (ts - zero_at) * 1e3 <= EAS_SLACK_MS) {
			r->slack++;
			continue;
		}
		if (!flag && r->first_ms < 0)
			r->first_ms = (ts - zero_at) * 1e3;
		r->steals[flag]++;
	}
	if (flag >= 0)
		r->secs[flag] += ts - since;
	fclose(f);
	return 0;
}

TEST_F(steal_capacity, no_steal_down)
{
	int llc[SU_MAX_CPUS], nllc, allowed[2], little = -1, big = -1;
	int other = -1, i, cycle;
	long cap, min_cap = 0, max_cap = 0;
	pid_t hog[2];
	long stolen;

	nllc = su_llc_cpus(0, llc);
	for (i = 0; i < nllc; i++) {
		cap = kio_cpu_capacity(llc[i]);
		if (!i || cap < min_cap)
			min_cap = cap;
		if (!i || cap > max_cap)
			max_cap = cap;
	}
	if (min_cap == max_cap)
		SKIP(return, "the CPUs of cpu0's last-level cache all have capacity %ld",
		     min_cap);
	for (i = 0; i < nllc; i++) {
		cap = kio_cpu_capacity(llc[i]);
		if (cap == min_cap && little < 0)
			little = llc[i];
		else if (cap == max_cap && big < 0)
			big = llc[i];
		else if (other < 0)
			other = llc[i];
	}
	if (access(EV_STEAL, W_OK))
		SKIP(return, "no sched_events:steal event (the sched_events module)");
	ASSERT_EQ(0, kio_write_str(SU_SCHEDSTATS, "1"));
	ASSERT_EQ(0, su_set_steal(true));
	/* This process stays off the CPUs it watches. */
	if (other >= 0)
		su_set_affinity(0, &other, 1);

	ASSERT_LT(0, su_spawn(&self->t, &little, 1, DOWN_TICK_RUN_US,
			      DOWN_TICK_SLEEP_US));
	/* No other LITTLE CPU, which could steal from this one */
	allowed[0] = little;
	allowed[1] = big;
	for (i = 0; i < 2; i++) {
		hog[i] = su_spawn(&self->t, &big, 1, 0, 0);
		ASSERT_LT(0, hog[i]);
		if (set_uclamp(hog[i], false, 1024))
			SKIP(return, "sched_setattr() cannot set uclamp_min (CONFIG_UCLAMP_TASK)");
	}
	ASSERT_EQ(0, kio_truncate(TRACEFS "/trace"));
	ASSERT_EQ(0, kio_write_str(EV_STEAL, "1"));
	/*
	 * Let the hogs' utilization grow to a big CPU's, and the module
	 * attach its probe (from a work item, within a second).
	 */
	sleep(1);

	ASSERT_LT(0, su_read_view(SU_STEAL, stolen_count, &self->a));
	for (cycle = 0; cycle < DOWN_CYCLES; cycle++) {
		for (i = 0; i < 2; i++)
			su_set_affinity(hog[i], &big, 1);
		su_sleep_us(2000);
		for (i = 0; i < 2; i++)
			su_set_affinity(hog[i], allowed, 2);
		su_sleep_us(DOWN_CYCLE_MS * 1000 - 2000);
	}
	ASSERT_LT(0, su_read_view(SU_STEAL, stolen_count, &self->b));
	kio_write_str(EV_STEAL, "0");
	stolen = hog_steals(hog, 2, little);
	kio_truncate(TRACEFS "/trace");
	ASSERT_LE(0, stolen);
	TH_LOG("two hogs put back on big cpu%d (capacity %ld) %d times: LITTLE cpu%d (capacity %ld) stole a hog %ld times, %lld tasks in all",
	       big, max_cap, DOWN_CYCLES, little, min_cap, stolen,
	       su_get(&self->b, little, "stolen") -
	       su_get(&self->a, little, "stolen"));
	EXPECT_EQ(0, stolen)
		TH_LOG("a LITTLE CPU stole a task that does not fit it");
}

TEST_F(steal_capacity, no_steal_under_eas)
{
	int llc[SU_MAX_CPUS], nllc, victim, thief, pair[2], other, i, cycle;
	pid_t hog[EAS_HOGS], ticker;
	struct eas_record r;
	char eas[8];
	double total;

	nllc = su_llc_cpus(0, llc);
	if (nllc < 2)
		SKIP(return, "cpu0 shares its last-level cache with no other CPU");
	if (kio_read_line(EAS_PATH, eas, sizeof(eas)) || strcmp(eas, "1"))
		SKIP(return, "EAS is off (no energy model, or " EAS_PATH " is 0)");
	if (access(EV_STEAL, W_OK) || access(EV_OVERUTIL, W_OK))
		SKIP(return, "no sched_events:steal and overutilized events (the sched_events module)");
	/* cpu0 runs more of the kernel's own work: the hogs go elsewhere */
	victim = llc[nllc - 1];
	thief = llc[0];
	/* This process stays off the two CPUs, on a third if there is one */
	for (other = -1, i = 0; i < SU_MAX_CPUS && other < 0; i++)
		if (i != victim && i != thief && !su_set_affinity(0, &i, 1))
			other = i;
	ASSERT_EQ(0, kio_write_str(SU_SCHEDSTATS, "1"));
	ASSERT_EQ(0, su_set_steal(true));

	/* Capped too: a task that is not would make a busy CPU overutilized */
	ticker = su_spawn(&self->t, &thief, 1, DOWN_TICK_RUN_US,
			  DOWN_TICK_SLEEP_US);
	ASSERT_LT(0, ticker);
	if (set_uclamp(ticker, true, EAS_UCLAMP_MAX))
		SKIP(return, "sched_setattr() cannot set uclamp_max (CONFIG_UCLAMP_TASK)");
	pair[0] = victim;
	pair[1] = thief;
	for (i = 0; i < EAS_HOGS; i++) {
		hog[i] = su_spawn(&self->t, &victim, 1, 0, 0);
		ASSERT_LT(0, hog[i]);
		if (set_uclamp(hog[i], true, EAS_UCLAMP_MAX))
			SKIP(return, "sched_setattr() cannot set uclamp_max (CONFIG_UCLAMP_TASK)");
	}
	/* Let the victim's utilization settle, and the flag fall to 0. */
	sleep(1);
	ASSERT_EQ(0, kio_truncate(TRACEFS "/trace"));
	ASSERT_EQ(0, kio_write_str(EV_OVERUTIL, "1"));
	ASSERT_EQ(0, kio_write_str(EV_STEAL, "1"));
	/* The module attaches its probes from a work item, within a second */
	sleep(1);
	/*
	 * Running on the victim, the hogs stay there: no wakeup moves them.
	 * Each cycle puts back a hog that was stolen, so that the thief has
	 * something to steal again.
	 */
	for (cycle = 0; cycle < EAS_CYCLES; cycle++) {
		for (i = 0; i < EAS_HOGS; i++)
			su_set_affinity(hog[i], &victim, 1);
		su_sleep_us(2000);
		for (i = 0; i < EAS_HOGS; i++)
			ASSERT_EQ(0, su_set_affinity(hog[i], pair, 2));
		su_sleep_us(EAS_CYCLE_MS * 1000 - 2000);
	}
	kio_write_str(EV_STEAL, "0");
	kio_write_str(EV_OVERUTIL, "0");
	ASSERT_EQ(0, eas_read_trace(&r, hog, EAS_HOGS, thief));
	kio_truncate(TRACEFS "/trace");

	total = r.secs[0] + r.secs[1];
	TH_LOG("%d hogs at uclamp_max %d put back on cpu%d %d times, allowed on cpu%d too; this process on cpu%d",
	       EAS_HOGS, EAS_UCLAMP_MAX, victim, EAS_CYCLES, thief, other);
	TH_LOG("root domain not overutilized %.2f s, overutilized %.2f s; hogs stolen to cpu%d: %ld and %ld (%ld within %d ms of a fall to 0)",
	       r.secs[0], r.secs[1], thief, r.steals[0], r.steals[1],
	       r.slack, EAS_SLACK_MS);
	if (r.first_ms >= 0)
		TH_LOG("the first steal while not overutilized came %.1f ms after the flag went to 0",
		       r.first_ms);
	if (total <= 0 || r.secs[0] * 100 < total * EAS_MIN_ZERO_PERCENT)
		SKIP(return, "the root domain was overutilized for most of the window (%.2f of %.2f s): nothing to show",
		     r.secs[1], total);
	EXPECT_EQ(0, r.steals[0])
		TH_LOG("STEAL moved a task that EAS placed, with the root domain not overutilized");
}

int main(int argc, char **argv)
{
	const char *why = su_why_skip();

	if (why) {
		ksft_print_header();
		ksft_exit_skip("%s\n", why);
	}
	return test_harness_run(argc, argv);
}
