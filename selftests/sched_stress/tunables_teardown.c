// SPDX-License-Identifier: GPL-2.0
/*
 * A write to a governor tunable while the governor's last policy leaves
 * it.  gov_attr_set_put() drops usage_count under update_lock and, at 0,
 * destroys the lock and then puts the kobject, whose cleanup removes the
 * sysfs files.  A store that got into governor_store() in between takes
 * the destroyed lock to find usage_count 0 and return -EBUSY; with
 * CONFIG_DEBUG_MUTEXES v6.12 warns "DEBUG_LOCKS_WARN_ON(lock->magic !=
 * lock)" in __mutex_lock().
 *
 * store_while_switching: one process writes schedutil's rate_limit_us of
 * every policy (or its global one) in a loop while the test moves every
 * policy from schedutil to another governor and back; the kernel log must
 * hold no lock debugging warning (DEBUG_LOCKS_WARN_ON: a store that holds
 * the lock as it is destroyed warns "mutex_is_locked(lock)" instead), from
 * this test or from anything earlier in the boot, and lock debugging must
 * still be on after it (a first lock warning turns it off).  Leaving
 * schedutil everywhere frees its tunables: they come back at their
 * defaults.
 *
 * Skips (exit 4) without root, without lockdep (no /proc/lockdep; the
 * debug kernels have it, and with it CONFIG_DEBUG_MUTEXES, which tells a
 * destroyed lock from a live one) or with lock debugging already turned
 * off, when a policy runs schedutil but offers no other governor (it
 * would keep the tunables alive), and with more than 64 policies.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "knob_io.h"
#include "mono_time.h"

#define MAX_POLICIES	64
#define GOV_LEN		32
/* Seconds of switching (env TUNABLES_TEARDOWN_SECONDS, at most MAX_SECONDS) */
#define SWITCH_SECONDS	10
#define MAX_SECONDS	60

static const char rate_limit_glob[] =
	"/sys/devices/system/cpu/cpufreq/{policy*/,}schedutil/rate_limit_us";

/* Lock debugging is built in and still on: /proc/lockdep_stats says so. */
static bool debug_locks_on(void)
{
	char buf[8192];
	const char *p;

	if (kio_read("/proc/lockdep_stats", buf, sizeof(buf)) <= 0)
		return false;
	p = strstr(buf, "debug_locks:");
	return p && strtol(p + strlen("debug_locks:"), NULL, 10) == 1;
}

/*
 * The writer: every rate_limit_us there is, until killed.  @busy counts
 * the stores refused with EBUSY: those that reached governor_store()
 * after the last policy had left, the window this test is about.
 */
static void write_tunables(long *busy)
{
	glob_t g;
	size_t i;

	for (;;) {
		if (glob(rate_limit_glob, GLOB_BRACE, NULL, &g))
			continue;
		for (i = 0; i < g.gl_pathc; i++)
			if (kio_write_str(g.gl_pathv[i], "1000") == -EBUSY)
				__atomic_fetch_add(busy, 1, __ATOMIC_RELAXED);
		globfree(&g);
	}
}

FIXTURE(tunables)
{
	int npolicies;
	char policy[MAX_POLICIES][96];	/* scaling_governor paths */
	char saved[MAX_POLICIES][GOV_LEN];
	char other[MAX_POLICIES][GOV_LEN];
	pid_t writer;
	long *busy;	/* shared with the writer, atomic */
};

/* A governor of @avail other than schedutil, preferably performance. */
static bool pick_other(const char *avail, char *out, size_t len)
{
	char copy[256], *tok, *save;

	if (strstr(avail, "performance")) {
		snprintf(out, len, "performance");
		return true;
	}
	snprintf(copy, sizeof(copy), "%s", avail);
	for (tok = strtok_r(copy, "\t\n ", &save); tok;
	     tok = strtok_r(NULL, "\t\n ", &save)) {
		if (strcmp(tok, "schedutil")) {
			snprintf(out, len, "%s", tok);
			return true;
		}
	}
	return false;
}

FIXTURE_SETUP(tunables)
{
	char avail[256], path[128];
	glob_t g;
	size_t i;
	int n;

	self->npolicies = 0;
	self->writer = 0;
	self->busy = NULL;
	if (geteuid())
		SKIP(return, "needs root");
	if (access("/proc/lockdep", F_OK))
		SKIP(return, "no /proc/lockdep: without lockdep and CONFIG_DEBUG_MUTEXES a destroyed lock cannot be seen");
	if (!debug_locks_on())
		SKIP(return, "lock debugging was turned off by an earlier lock warning");
	if (glob("/sys/devices/system/cpu/cpufreq/policy*/scaling_governor", 0, NULL, &g)) {
		globfree(&g);
		SKIP(return, "no cpufreq policy");
	}
	if (g.gl_pathc > MAX_POLICIES) {
		globfree(&g);
		SKIP(return, "more than %d policies", MAX_POLICIES);
	}
	for (i = 0; i < g.gl_pathc; i++) {
		n = self->npolicies;
		snprintf(path, sizeof(path), "%.*s/scaling_available_governors",
			 (int)(strrchr(g.gl_pathv[i], '/') - g.gl_pathv[i]), g.gl_pathv[i]);
		if (kio_read_line(path, avail, sizeof(avail)) < 0 ||
		    !strstr(avail, "schedutil"))
			continue;
		snprintf(self->policy[n], sizeof(self->policy[n]), "%s", g.gl_pathv[i]);
		ASSERT_LE(0, kio_read_line(self->policy[n], self->saved[n], GOV_LEN));
		if (!pick_other(avail, self->other[n], GOV_LEN)) {
			if (!strcmp(self->saved[n], "schedutil")) {
				globfree(&g);
				SKIP(return, "%s: schedutil and no other governor", g.gl_pathv[i]);
			}
			continue;
		}
		self->npolicies++;
	}
	globfree(&g);
	if (!self->npolicies)
		SKIP(return, "no policy offers schedutil and another governor");
}

FIXTURE_TEARDOWN(tunables)
{
	int i;

	if (self->writer > 0) {
		kill(self->writer, SIGKILL);
		waitpid(self->writer, NULL, 0);
	}
	if (self->busy)
		munmap(self->busy, sizeof(*self->busy));
	for (i = 0; i < self->npolicies; i++)
		kio_write_str(self->policy[i], self->saved[i]);
}

/* Every policy to schedutil (@to_schedutil) or to its other governor. */
static int switch_all(FIXTURE_DATA(tunables) *self, bool to_schedutil)
{
	int i, ret;

	for (i = 0; i < self->npolicies; i++) {
		ret = kio_write_str(self->policy[i],
				    to_schedutil ? "schedutil" : self->other[i]);
		if (ret)
			return ret;
	}
	return 0;
}

TEST_F_TIMEOUT(tunables, store_while_switching, MAX_SECONDS + 30)
{
	static const char *const lock_warning[] = { "DEBUG_LOCKS_WARN_ON", NULL };
	const char *env = getenv("TUNABLES_TEARDOWN_SECONDS");
	int secs = env ? atoi(env) : SWITCH_SECONDS;
	char line[512];
	long cycles = 0;
	void *shared;
	double t0;
	int ret;

	ASSERT_LT(0, secs);
	ASSERT_GE(MAX_SECONDS, secs);
	ASSERT_EQ(0, switch_all(self, true));
	shared = mmap(NULL, sizeof(*self->busy), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, shared);
	self->busy = shared;
	self->writer = fork();
	ASSERT_LE(0, self->writer);
	if (!self->writer) {
		/* Not left writing if the harness kills the test. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		write_tunables(self->busy);
		_exit(0);
	}

	t0 = now_s();
	do {
		ASSERT_EQ(0, switch_all(self, false));
		ASSERT_EQ(0, switch_all(self, true));
		cycles++;
	} while (now_s() - t0 < secs);

	TH_LOG("%ld times every one of %d policies left schedutil and came back, in %d s, under writes to rate_limit_us (%ld refused with EBUSY)",
	       cycles, self->npolicies, secs,
	       __atomic_load_n(self->busy, __ATOMIC_RELAXED));
	ASSERT_LT(0, cycles);
	ret = kio_kmsg_count(lock_warning, line, sizeof(line));
	ASSERT_LE(0, ret);
	if (ret)
		TH_LOG("the kernel warned: %s", line);
	EXPECT_EQ(0, ret);
	EXPECT_TRUE(debug_locks_on())
		TH_LOG("lock debugging is off after the test: a lock warning turned it off");
}

TEST_HARNESS_MAIN
