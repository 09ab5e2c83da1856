// SPDX-License-Identifier: GPL-2.0
/*
 * The fair server (a SCHED_DEADLINE entity per CPU that runs CFS tasks
 * starved by RT ones) stops itself when it runs and finds no CFS task.
 * v6.12 stopped it again, dequeueing it a second time, when its runtime
 * was written in /sys/kernel/debug/sched/fair_server/cpuN/runtime (and
 * when its CPU died): the second dequeue took its bandwidth out of
 * running_bw twice and warned "dl_rq->running_bw > old".
 *
 * stopped_then_rewritten: a SCHED_FIFO hog starves a CFS spinner on one
 * CPU until the fair server runs it, the spinner exits while the hog
 * goes on, and the server's runtime is written back unchanged; ten
 * rounds, and the kernel log must not hold the warning, from this test
 * or from anything earlier in the boot.
 *
 * Skips (exit 4) without root, without a second CPU, without the
 * fair_server debugfs directory (CONFIG_SCHED_DEBUG) or when SCHED_FIFO
 * is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "knob_io.h"
#include "spinner.h"

#define ROUNDS		10
/* The server runs CFS tasks starved for most of its 1 s period. */
#define STARVE_MS	1500
#define CPU		1

FIXTURE(dl_server) {
	char runtime_path[96];
	char runtime[32];	/* as found, written back each round */
	pid_t spinner, hog;
};

FIXTURE_SETUP(dl_server)
{
	self->spinner = self->hog = 0;
	if (geteuid())
		SKIP(return, "needs root");
	if (sysconf(_SC_NPROCESSORS_ONLN) <= CPU)
		SKIP(return, "needs a CPU %d", CPU);
	snprintf(self->runtime_path, sizeof(self->runtime_path),
		 "/sys/kernel/debug/sched/fair_server/cpu%d/runtime", CPU);
	if (access(self->runtime_path, W_OK))
		SKIP(return, "no %s (CONFIG_SCHED_DEBUG)", self->runtime_path);
	/*
	 * Without a server that takes its parameters, the hog would starve
	 * the spinner for good.  v6.12 refuses them (EBUSY) once its root
	 * domain's deadline bandwidth has gone wrong across CPU hotplug
	 * (Documentation/stress.rst).
	 */
	if (kio_read_line(self->runtime_path, self->runtime,
			  sizeof(self->runtime)))
		SKIP(return, "cannot read %s", self->runtime_path);
	if (kio_write_str(self->runtime_path, self->runtime) == -EBUSY)
		SKIP(return, "the fair server's parameters are refused (EBUSY): the deadline bandwidth of the root domain is off");
}

static void reap(pid_t *pid)
{
	if (*pid > 0) {
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
	}
	*pid = 0;
}

FIXTURE_TEARDOWN(dl_server)
{
	/* The hog first: the spinner may be waiting for the CPU to exit. */
	reap(&self->hog);
	reap(&self->spinner);
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&t, NULL);
}

/* The setup of a spinner on CPU, SCHED_FIFO if *(bool *)@fifo */
static int pinned_setup(void *fifo)
{
	struct sched_param sp = { .sched_priority = 50 };
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(CPU, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    (*(bool *)fifo && sched_setscheduler(0, SCHED_FIFO, &sp)))
		return -errno;
	return 0;
}

TEST_F(dl_server, stopped_then_rewritten)
{
	static const char *const warning[] = { "running_bw > old", NULL };
	bool cfs = false, fifo = true;
	char line[512];
	int round, err, ret;

	for (round = 0; round < ROUNDS; round++) {
		self->spinner = spawn_spinner(pinned_setup, &cfs, &err);
		ASSERT_LT(0, self->spinner);
		ASSERT_EQ(0, err);
		self->hog = spawn_spinner(pinned_setup, &fifo, &err);
		ASSERT_LT(0, self->hog);
		if (err == -EPERM)
			SKIP(return, "SCHED_FIFO refused: %s", strerror(-err));
		ASSERT_EQ(0, err);
		sleep_ms(STARVE_MS);
		/* The server finds nothing to run next time, and stops. */
		reap(&self->spinner);
		sleep_ms(300 + 100 * (round % 6));
		ASSERT_EQ(0, kio_write_str(self->runtime_path, self->runtime));
		reap(&self->hog);
	}

	ret = kio_kmsg_count(warning, line, sizeof(line));
	ASSERT_LE(0, ret);
	if (ret)
		TH_LOG("the kernel warned: %s", line);
	EXPECT_EQ(0, ret);
}

TEST_HARNESS_MAIN
