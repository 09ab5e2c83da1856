/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A CPU-bound child for the tests of this directory: it runs a setup
 * function (a scheduling policy, an affinity), reports how that went and
 * spins until it is killed, or dies with its parent.
 */
#ifndef SCHED_STRESS_SPINNER_H
#define SCHED_STRESS_SPINNER_H

#include <errno.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <signal.h>
#include <unistd.h>

/*
 * Fork the spinner; *err is what @setup returned in it (0 or -errno), or
 * -EIO if it never said.  Returns its pid, or -1 if it could not fork.
 */
static inline pid_t spawn_spinner(int (*setup)(void *), void *arg, int *err)
{
	int pipefd[2], ret = 0;
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (!pid) {
		volatile unsigned long x = 0;

		/* Not left spinning if the harness kills the test. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		ret = setup(arg);
		if (write(pipefd[1], &ret, sizeof(ret)) != sizeof(ret) || ret)
			_exit(1);
		for (;;)
			x++;
	}
	close(pipefd[1]);
	if (pid > 0 && read(pipefd[0], &ret, sizeof(ret)) != sizeof(ret))
		ret = -EIO;
	close(pipefd[0]);
	*err = ret;
	return pid;
}

#endif
