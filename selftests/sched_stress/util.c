// SPDX-License-Identifier: GPL-2.0
/*
 * sched_stress: naps that a stop cuts short, and the problem log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stress.h"

/* Problems printed in full per phase; the rest are only counted. */
#define PROBLEMS_SHOWN	25

static pthread_mutex_t problem_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long nproblems;

bool nap(double s, volatile int *stop)
{
	double end = now_s() + s;

	for (;;) {
		double left = end - now_s();
		struct timespec ts;

		if (stop && *stop)
			return true;
		if (left <= 0)
			return false;
		if (left > 0.05)
			left = 0.05;
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(left * 1e9);
		nanosleep(&ts, NULL);
	}
}

void problem(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);

	pthread_mutex_lock(&problem_lock);
	nproblems++;
	if (nproblems <= PROBLEMS_SHOWN)
		printf("# problem: %s\n", msg);
	else if (nproblems == PROBLEMS_SHOWN + 1)
		printf("# problem: (more problems are counted, not shown)\n");
	fflush(stdout);
	pthread_mutex_unlock(&problem_lock);
}

unsigned long problems(void)
{
	unsigned long n;

	pthread_mutex_lock(&problem_lock);
	n = nproblems;
	pthread_mutex_unlock(&problem_lock);
	return n;
}

void problems_reset(void)
{
	pthread_mutex_lock(&problem_lock);
	nproblems = 0;
	pthread_mutex_unlock(&problem_lock);
}
