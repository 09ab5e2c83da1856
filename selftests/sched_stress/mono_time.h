/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Monotonic seconds, for the deadlines and phase lengths of the programs
 * of this directory.
 */
#ifndef SCHED_STRESS_MONO_TIME_H
#define SCHED_STRESS_MONO_TIME_H

#include <time.h>

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* SCHED_STRESS_MONO_TIME_H */
