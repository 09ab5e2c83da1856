// SPDX-License-Identifier: GPL-2.0
/*
 * Whether core scheduling works here: exit 0 when a task's cookie can be
 * read, 4 (kselftest's skip) with the reason when not.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE		62
#define PR_SCHED_CORE_GET	0
#endif
#define PIDTYPE_PID		0
#define KSFT_SKIP		4

int main(void)
{
	unsigned long long cookie;
	char seed[16];

	/*
	 * PR_SCHED_CORE_GET reports a cookie as a hash of its address, and
	 * reads 0 until the pointer-hashing key is filled, which waits for
	 * the crng: a guest without an entropy source may not have it when
	 * the test runs.  A blocking getrandom() makes the kernel gather
	 * jitter entropy and initialise it now.
	 */
	if (getrandom(seed, sizeof(seed), 0) != sizeof(seed)) {
		printf("getrandom() failed: %s\n", strerror(errno));
		return 1;
	}
	if (!prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, PIDTYPE_PID,
		   (unsigned long)&cookie))
		return 0;
	if (errno == EINVAL)
		printf("kernel without CONFIG_SCHED_CORE\n");
	else if (errno == ENODEV)
		printf("no SMT siblings: core scheduling needs them (scripts/vm --threads 2 on the sandybridge board)\n");
	else
		printf("PR_SCHED_CORE_GET failed: %s\n", strerror(errno));
	return KSFT_SKIP;
}
