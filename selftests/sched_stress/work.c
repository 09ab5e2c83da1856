// SPDX-License-Identifier: GPL-2.0
/*
 * sched_stress: the workload.  hackbench runs back to back in one cgroup
 * and CPU hogs spin in two others, each with a CFS bandwidth limit
 * (cpu.max) below what it asks for, so that the groups are throttled and
 * unthrottled all the time:
 *
 *   sched_stress.PID/          cpu.max max
 *     hackbench/               cpu.max NCPUS * 50% of the period
 *     hogs/                    cpu.max NCPUS * 25% of the period
 *       a/                     cpu.max max: throttled through hogs/
 *       b/                     cpu.max 20% of the period: throttled itself
 *
 * Half of the hogs (one per CPU in all) go to a/, half to b/, so hogs/
 * asks for more than its quota and both levels are throttled.
 * The period is 1 s by default (-P).  Under an emulator the period timer
 * fires late; when it overruns a short period several times in a row the
 * kernel doubles the period and says so with pr_warn_ratelimited() while
 * holding cfs_b->lock, which lockdep reports as a circular dependency
 * through the console (v6.12, sched_cfs_period_timer()).  With a 1 s
 * period that needs stalls of seconds.
 *
 * The work is bounded: no hackbench run starts after the end, and the hogs
 * stop spinning at the end.  All of it must then finish within a grace
 * period: a task that never runs again (a lost wakeup, a group left
 * throttled, a task left on an offline CPU) shows up as work that does not
 * complete.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stress.h"

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0' || p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

static bool find_cgroup2(char *mnt, size_t len)
{
	char dev[256], dir[256], type[64];
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/mounts", "re");
	if (!f)
		return false;
	while (fscanf(f, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "cgroup2")) {
			snprintf(mnt, len, "%s", dir);
			found = true;
			break;
		}
	}
	fclose(f);
	return found;
}

/* dir/name into @dst of @len bytes: 0, or -1 when it does not fit. */
static int sub(char *dst, size_t len, const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);

	if (d + 1 + n + 1 > len)
		return -1;
	memcpy(dst, dir, d);
	dst[d] = '/';
	memcpy(dst + d + 1, name, n + 1);
	return 0;
}

static int cg_write(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];

	if (sub(path, sizeof(path), dir, file))
		return -ENAMETOOLONG;
	return kio_write_str(path, val);
}

static int cg_mkdir(const char *dir, const char *max)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return max ? cg_write(dir, "cpu.max", max) : 0;
}

int cgroups_setup(struct cgroups *cg, int ncpus, long period_us)
{
	char path[PATH_MAX], buf[512], q[64];
	int ret;

	memset(cg, 0, sizeof(*cg));
	if (!find_cgroup2(cg->mnt, sizeof(cg->mnt))) {
		snprintf(cg->mnt, sizeof(cg->mnt), "/tmp/sched_stress_cg.XXXXXX");
		if (!mkdtemp(cg->mnt) ||
		    mount("cgroup2", cg->mnt, "cgroup2", 0, NULL)) {
			snprintf(cg->why, sizeof(cg->why),
				 "no cgroup2 file system (mount: %s)", strerror(errno));
			rmdir(cg->mnt);
			return -1;
		}
		cg->mounted = true;
	}
	sub(path, sizeof(path), cg->mnt, "cgroup.controllers");
	if (kio_read(path, buf, sizeof(buf)) < 0 || !has_word(buf, "cpu")) {
		snprintf(cg->why, sizeof(cg->why),
			 "no cpu controller in %.100s (CONFIG_CGROUP_SCHED)", path);
		goto fail;
	}
	ret = cg_write(cg->mnt, "cgroup.subtree_control", "+cpu");
	if (ret) {
		snprintf(cg->why, sizeof(cg->why),
			 "cannot enable the cpu controller: %s", strerror(-ret));
		goto fail;
	}
	snprintf(cg->top, sizeof(cg->top), "%s/sched_stress.%d", cg->mnt, getpid());
	if (sub(cg->hb, sizeof(cg->hb), cg->top, "hackbench") ||
	    sub(cg->hog, sizeof(cg->hog), cg->top, "hogs") ||
	    sub(cg->hog_a, sizeof(cg->hog_a), cg->hog, "a") ||
	    sub(cg->hog_b, sizeof(cg->hog_b), cg->hog, "b")) {
		snprintf(cg->why, sizeof(cg->why), "cgroup path too long");
		goto fail;
	}
	ret = cg_mkdir(cg->top, NULL);
	if (!ret)
		ret = cg_write(cg->top, "cgroup.subtree_control", "+cpu");
	if (ret) {
		snprintf(cg->why, sizeof(cg->why), "cannot make %.100s: %s", cg->top,
			 strerror(-ret));
		goto fail;
	}
	sub(path, sizeof(path), cg->top, "cpu.max");
	if (access(path, F_OK)) {
		snprintf(cg->why, sizeof(cg->why),
			 "no cpu.max (CONFIG_CFS_BANDWIDTH)");
		goto fail;
	}
	snprintf(q, sizeof(q), "%ld %ld", ncpus * period_us / 2, period_us);
	ret = cg_mkdir(cg->hb, q);
	snprintf(q, sizeof(q), "%ld %ld", ncpus * period_us / 4, period_us);
	if (!ret)
		ret = cg_mkdir(cg->hog, q);
	if (!ret)
		ret = cg_write(cg->hog, "cgroup.subtree_control", "+cpu");
	snprintf(q, sizeof(q), "max %ld", period_us);
	if (!ret)
		ret = cg_mkdir(cg->hog_a, q);
	snprintf(q, sizeof(q), "%ld %ld", period_us / 5, period_us);
	if (!ret)
		ret = cg_mkdir(cg->hog_b, q);
	if (ret) {
		snprintf(cg->why, sizeof(cg->why), "cannot set up the groups: %s",
			 strerror(-ret));
		goto fail;
	}
	cg->on = true;
	return 0;
fail:
	cgroups_teardown(cg);
	return -1;
}

void cgroups_teardown(struct cgroups *cg)
{
	const char *dirs[] = { cg->hog_a, cg->hog_b, cg->hog, cg->hb, cg->top };
	unsigned int i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (dirs[i][0])
			rmdir(dirs[i]);
	if (cg->mounted) {
		umount(cg->mnt);
		rmdir(cg->mnt);
		cg->mounted = false;
	}
	cg->on = false;
}

long cgroup_nr_throttled(const char *dir)
{
	char path[PATH_MAX], buf[1024], *p;

	if (sub(path, sizeof(path), dir, "cpu.stat") ||
	    kio_read(path, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "nr_throttled ");
	return p ? strtol(p + 13, NULL, 10) : -1;
}

/*
 * A task's util_avg and runnable_avg (in /proc/PID/sched) stay within
 * SCHED_CAPACITY_SCALE; a PELT underflow shows up as a huge value.
 * Returns the number of values checked (0 when the task is gone).
 */
int task_pelt_check(pid_t pid)
{
	static const char *const keys[] = { "se.avg.util_avg", "se.avg.runnable_avg" };
	char path[64], buf[8192];
	unsigned int i;
	int n = 0;

	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	if (kio_read(path, buf, sizeof(buf)) < 0)
		return 0;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char *p = strstr(buf, keys[i]);
		unsigned long long v;

		if (!p || !(p = strchr(p, ':')))
			continue;
		v = strtoull(p + 1, NULL, 10);
		if (v > 1024)
			problem("pid %d: %s = %llu, above 1024", pid, keys[i], v);
		n++;
	}
	return n;
}

bool have_hackbench(void)
{
	const char *env = getenv("PATH");
	char path[PATH_MAX], *dirs, *d, *save;
	bool found = false;

	dirs = strdup(env ? env : "/usr/bin:/bin");
	if (!dirs)
		return false;
	for (d = strtok_r(dirs, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(path, sizeof(path), "%s/hackbench", d);
		found = !access(path, X_OK);
	}
	free(dirs);
	return found;
}

static void child_setup(const char *cgroup)
{
	signal(SIGTERM, SIG_DFL);
	signal(SIGINT, SIG_DFL);
	if (cgroup && cgroup[0] && cg_write(cgroup, "cgroup.procs", "0")) {
		printf("# cannot join %s\n", cgroup);
		fflush(stdout);
		_exit(3);
	}
}

/* Without hackbench: two processes bouncing a byte over two pipes. */
static int pingpong(unsigned int rounds)
{
	int ab[2], ba[2], status;
	unsigned int i;
	pid_t pid;
	char c = 0;

	if (pipe(ab))
		return 1;
	if (pipe(ba)) {
		close(ab[0]);
		close(ab[1]);
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		close(ab[0]);
		close(ab[1]);
		close(ba[0]);
		close(ba[1]);
		return 1;
	}
	if (!pid) {
		for (i = 0; i < rounds; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < rounds; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			break;
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	return i == rounds && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}

/* One hackbench run with arguments from @r: 0 when it exits 0. */
static int hackbench_once(struct prng *r)
{
	char g[16], f[16], l[16];
	const char *argv[12];
	int a = 0, status;
	pid_t pid;

	snprintf(g, sizeof(g), "%u", 1 + prng_below(r, 2));
	snprintf(f, sizeof(f), "%u", 2 + prng_below(r, 4));
	snprintf(l, sizeof(l), "%u", 20 + prng_below(r, 61));
	argv[a++] = "hackbench";
	argv[a++] = "-g";
	argv[a++] = g;
	argv[a++] = "-f";
	argv[a++] = f;
	argv[a++] = "-l";
	argv[a++] = l;
	if (prng_below(r, 2))
		argv[a++] = "-p";
	argv[a++] = prng_below(r, 2) ? "-T" : "-P";
	argv[a] = NULL;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp("hackbench", (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	printf("# hackbench -g %s -f %s -l %s%s %s: %s %d\n", g, f, l,
	       a == 9 ? " -p" : "", argv[a - 1],
	       WIFEXITED(status) ? "exit" : "signal",
	       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	fflush(stdout);
	return 1;
}

static int hackbench_loop(struct workload *w, uint64_t seed, bool hackbench)
{
	long runs = 0, failures = 0;
	struct prng r;

	prng_init(&r, seed, 0x11);
	while (now_s() < w->end) {
		int ret = hackbench ? hackbench_once(&r) : pingpong(2000);

		runs++;
		if (ret)
			failures++;
		__atomic_store_n(&w->sh->hb_runs, runs, __ATOMIC_RELAXED);
		__atomic_store_n(&w->sh->hb_failures, failures, __ATOMIC_RELAXED);
	}
	return failures || !runs;
}

static void hog(struct workload *w, int i)
{
	volatile unsigned long x = i;
	long loops = 0;

	while (now_s() < w->end) {
		int k;

		for (k = 0; k < 20000; k++)
			x = x * 6364136223846793005UL + 1442695040888963407UL;
		loops++;
		__atomic_store_n(&w->sh->hog_loops[i], loops, __ATOMIC_RELAXED);
	}
}

int work_start(struct workload *w, const struct cgroups *cg, int nhogs,
	       double seconds, uint64_t seed, bool hackbench)
{
	int i;

	memset(w, 0, sizeof(*w));
	if (nhogs > MAX_HOGS)
		nhogs = MAX_HOGS;
	w->sh = mmap(NULL, sizeof(*w->sh), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w->sh == MAP_FAILED) {
		w->sh = NULL;
		return -errno;
	}
	memset(w->sh, 0, sizeof(*w->sh));
	w->end = now_s() + seconds;
	fflush(stdout);

	w->runner = fork();
	if (w->runner < 0)
		return -errno;
	if (!w->runner) {
		setpgid(0, 0);
		child_setup(cg->on ? cg->hb : NULL);
		_exit(hackbench_loop(w, seed, hackbench));
	}
	setpgid(w->runner, w->runner);
	for (i = 0; i < nhogs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (!pid) {
			child_setup(cg->on ? (i % 2 ? cg->hog_b : cg->hog_a) : NULL);
			hog(w, i);
			_exit(0);
		}
		w->hogs[w->nhogs++] = pid;
	}
	return 0;
}

/* waitpid() with a deadline; 1 when reaped (status in *st), 0 if not. */
static int reap(pid_t pid, int *st, double until)
{
	for (;;) {
		pid_t r = waitpid(pid, st, WNOHANG);

		if (r == pid)
			return 1;
		if (r < 0)
			return -1;
		if (now_s() >= until)
			return 0;
		nap(0.05, NULL);
	}
}

static bool finish_one(pid_t pid, bool group, const char *what, double until,
		       int *status)
{
	int r = reap(pid, status, until);

	if (r > 0)
		return true;
	if (r == 0) {
		problem("%s (pid %d) still running %.0f s after the end of the work: killed",
			what, pid, now_s() - until);
		kill(group ? -pid : pid, SIGKILL);
		if (reap(pid, status, now_s() + 10) <= 0)
			problem("%s (pid %d) does not die", what, pid);
	} else {
		problem("%s (pid %d): waitpid: %s", what, pid, strerror(errno));
	}
	return false;
}

/* Whether a reaped child exited 0; a problem is logged when not. */
static bool exited_cleanly(const char *what, int st)
{
	if (WIFEXITED(st) && !WEXITSTATUS(st))
		return true;
	problem("%s: %s %d", what, WIFEXITED(st) ? "exit" : "signal",
		WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	return false;
}

void work_finish(struct workload *w, double grace)
{
	double until = w->end + grace;
	long runs, fails;
	char what[32];
	int i, st;

	if (!w->sh)
		return;
	if (w->runner > 0) {
		if (finish_one(w->runner, true, "hackbench runner", until, &st))
			exited_cleanly("hackbench runner", st);
		/* Its hackbench children, should any be left. */
		kill(-w->runner, SIGKILL);
	}
	runs = w->sh->hb_runs;
	fails = w->sh->hb_failures;
	if (fails)
		problem("hackbench: %ld of %ld runs failed", fails, runs);
	else if (!runs)
		problem("hackbench: no run completed");

	for (i = 0; i < w->nhogs; i++) {
		snprintf(what, sizeof(what), "hog %d", i);
		if (finish_one(w->hogs[i], false, what, until, &st) &&
		    exited_cleanly(what, st) && !w->sh->hog_loops[i])
			problem("hog %d did no work", i);
	}
	printf("# work: %ld hackbench runs, %ld failed; hog loops:", runs, fails);
	for (i = 0; i < w->nhogs; i++)
		printf(" %ld", w->sh->hog_loops[i]);
	printf("\n");
	munmap(w->sh, sizeof(*w->sh));
	w->sh = NULL;
}
