/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Descriptive statistics, the Student t distribution and Welch's
 * unequal-variance t-test.
 */
#ifndef SCHEDCMP_STATS_H
#define SCHEDCMP_STATS_H

#include <stddef.h>

struct summary {
	size_t n;
	double min;
	double max;
	double mean;
	double var;	/* sample variance (n - 1); NAN when n < 2 */
	double sd;	/* sqrt(var); NAN when n < 2 */
	double cv;	/* sd / |mean| * 100; NAN when n < 2 or mean == 0 */
};

/* Fill @s from @n values (n >= 1). Two-pass mean/variance. */
void summarize(const double *x, size_t n, struct summary *s);

/* Regularized incomplete beta function I_x(a, b), a > 0, b > 0, 0 <= x <= 1. */
double incbeta(double a, double b, double x);

/* P(T <= t) for Student's t with @df > 0 degrees of freedom. */
double t_cdf(double t, double df);

/* Two-sided tail P(|T| >= |t|). */
double t_sf2(double t, double df);

/* The p-quantile of Student's t (0 < p < 1), found by bisection on t_cdf. */
double t_quantile(double p, double df);

enum welch_status {
	WELCH_OK,		/* df, t, p and the interval are valid */
	WELCH_TOO_FEW,		/* a sample has n < 2: no variance, no interval */
	WELCH_ZERO_VAR,		/* both variances 0: exact difference, p is 0 or 1 */
};

struct welch {
	enum welch_status status;
	double diff;	/* mean(b) - mean(a) */
	double se;	/* standard error of diff */
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double t;	/* diff / se */
	double p;	/* two-sided p-value */
	double lo;	/* confidence interval of diff */
	double hi;
};

/* Welch's test of mean(b) - mean(a) with a two-sided @conf interval (0.95). */
void welch(const struct summary *a, const struct summary *b, double conf,
	   struct welch *w);

/*
 * One-sample t-test of mean(@d) = 0 (paired differences), into the fields
 * of @w: diff is the mean, df = n - 1, the interval is that of the mean.
 */
void paired_t(const double *d, size_t n, double conf, struct welch *w);

#endif
