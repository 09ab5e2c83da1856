/* SPDX-License-Identifier: GPL-2.0 */
/* schedtrace: statistics on the series (pure functions, unit tested). */
#ifndef SCHEDTRACE_STATS_H
#define SCHEDTRACE_STATS_H

#include <stddef.h>
#include <stdio.h>

#include "model.h"

#define UTIL_SCALE 1024

struct ramp {
	double start;		/* the trough the ramp starts from */
	double cross;		/* when util reached the target */
	double dt;		/* cross - start */
	unsigned long from;	/* util at the trough */
};

enum ramp_result {
	RAMP_OK = 0,
	RAMP_NEVER,		/* no ramp (from max_from or below) reached it */
	RAMP_ABOVE,		/* at or above it in every sample */
};

#define RAMP_FROM_ANY ((unsigned long)-1)
/* util a task gains in about 0.3 ms of running from 0 */
#define RAMP_FLOOR 8

enum ramp_result ramp_time(const struct util_sample *s, size_t n, double frac,
			   unsigned long max_from, struct ramp *r);

struct residency {
	unsigned long khz;
	double seconds;
};

size_t freq_residency(const struct freq_event *ev, size_t n, double t_end,
		      struct residency *out, size_t max, double *unknown);

struct summary {
	size_t n;
	unsigned long min, max, last;
	double mean;		/* time-weighted over [first sample, t_end] */
};

/* Over field(s[i]) where field picks capacity, capacity_orig or pressure. */
enum cap_field { CAP_CAPACITY, CAP_ORIG, CAP_PRESSURE };
void cap_summary(const struct cap_sample *s, size_t n, enum cap_field f,
		 double t_end, struct summary *out);
enum therm_field { THERM_INSTANT, THERM_AVG };
void therm_summary(const struct therm_sample *s, size_t n, enum therm_field f,
		   double t_end, struct summary *out);

/* How the averaged thermal pressure followed a step of the cap. */
struct therm_step {
	double t;		/* when the instantaneous pressure changed */
	unsigned long from;	/* the average at the step */
	unsigned long to;	/* the new instantaneous pressure */
	double half;		/* s until the average covered half the way;
				 * negative: not before the next step or the
				 * end of the trace */
};

/* steps smaller than this (capacity units) are not reported */
#define THERM_MIN_STEP 4

size_t therm_steps(const struct therm_sample *s, size_t n,
		   struct therm_step *out, size_t max);
unsigned long util_max(const struct util_sample *s, size_t n);

void json_string(FILE *f, const char *s);
void csv_string(FILE *f, const char *s);

#endif
