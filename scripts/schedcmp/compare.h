/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Grouping of samples per benchmark and parameter, one column per setting
 * (and per file when several files are compared), and the comparison of
 * every column against the first one.
 */
#ifndef SCHEDCMP_COMPARE_H
#define SCHEDCMP_COMPARE_H

#include "samples.h"
#include "stats.h"

#define CONF_LEVEL 0.95

struct column {
	char *name;		/* setting, or label/setting for several files */
	size_t src;
	const char *setting;
	double *x;		/* values in file order */
	size_t n;
	struct summary sum;
	struct welch w;		/* this column against the base column */
	/* % change against the base, signed so that positive is better */
	double min_pct, mean_pct, max_pct;
	double lo_pct, hi_pct;	/* confidence interval of mean_pct */
	int significant;	/* the interval excludes 0 */
};

struct group {
	const char *bench;
	const char *param;
	const char *unit;
	enum direction dir;
	struct column *col;	/* col[0] is the base */
	size_t ncol;
};

/*
 * A setting against the base over every parameter of a benchmark that has
 * the same unit and direction: each pair is the two runs of one parameter
 * in the same round of the same file, and the statistic is the mean of
 * log(value / base value), so that drift between rounds cancels and every
 * parameter weighs by its number of pairs whatever its scale.
 */
struct pooled {
	const char *bench;
	const char *unit;
	enum direction dir;
	size_t src;
	const char *base;	/* base column name */
	const char *name;	/* this column's name */
	size_t n;		/* pairs */
	size_t nparam;		/* parameters that gave pairs */
	struct welch w;		/* paired t-test of the log ratios */
	/* change of the geometric mean ratio, positive is better */
	double change_pct, lo_pct, hi_pct;
	int significant;
};

/*
 * The order of the runs (report_order()).  A position: every run of a
 * benchmark's parameters of one unit that came K-th in its round (by the
 * timestamps), against the geometric mean of its round.  A half: the later
 * half of one column's runs in the order they ran against the earlier half,
 * what a blocked A/A comparison of that setting would have reported.
 */
struct position {
	const char *bench;
	const char *unit;
	enum direction dir;
	size_t src;
	size_t pos;		/* 1 = first run of its round */
	size_t n;
	struct welch w;		/* paired t-test of log(run / round mean) */
	double change_pct, lo_pct, hi_pct;
	int significant;
};

struct half {
	const struct group *g;
	const struct column *c;
	struct summary first, second;
	struct welch w;		/* second - first */
	double change_pct, lo_pct, hi_pct;
	int significant;
};

struct report {
	struct group *g;
	size_t ng;
	int multi;		/* more than one source file */
	struct pooled *pool;	/* filled by report_pool() */
	size_t npool;
	struct position *pos;	/* filled by report_order() */
	size_t npos;
	struct half *half;
	size_t nhalf;
};

/*
 * Build @r from @ds.  @base names the base column (NULL: the first one).
 * Returns -1 with a message naming file:line on inconsistent input.
 */
int report_build(const struct dataset *ds, const char *base,
		 struct report *r, char *err, size_t errlen);

/*
 * Fill r->pool from a built report.  Columns from another file than their
 * base have no pairs and are left out.  Returns -1 with a message naming
 * file:line on a value that is not positive or a run recorded twice.
 */
int report_pool(const struct dataset *ds, struct report *r, char *err,
		size_t errlen);

/*
 * Fill r->pos and r->half from a built report.  Positions need the
 * timestamps of the samples; rounds with a run missing a timestamp, or with
 * a single run, are left out.  Returns -1 with a message when a value is
 * not positive.
 */
int report_order(const struct dataset *ds, struct report *r, char *err,
		 size_t errlen);

/* % change of @v against @base, positive = better for @dir; NAN if base is 0. */
double change_pct(double base, double v, enum direction dir);

void report_free(struct report *r);

#endif
