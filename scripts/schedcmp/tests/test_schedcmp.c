// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for schedcmp: the t distribution against closed forms and
 * published tables, Welch's test against a published example, the edge
 * cases of the comparison, and the sample line parser.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../compare.h"
#include "../samples.h"
#include "../stats.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static int failures, checks;

#define CHECK(cond, ...)							\
	do {									\
		checks++;							\
		if (!(cond)) {							\
			failures++;						\
			printf("not ok %d - %s:%d: ", checks, __FILE__, __LINE__); \
			printf(__VA_ARGS__);					\
			printf("\n");						\
		}								\
	} while (0)

#define NEAR(got, want, tol, what)						\
	CHECK(fabs((got) - (want)) <= (tol), "%s: got %.12g, want %.12g (tol %g)", \
	      what, (double)(got), (double)(want), (double)(tol))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_incbeta(void)
{
	const double xs[] = { 0.01, 0.2, 0.5, 0.77, 0.999 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(xs); i++) {
		double x = xs[i];

		NEAR(incbeta(3.5, 1.0, x), pow(x, 3.5), 1e-13, "I_x(a,1) = x^a");
		NEAR(incbeta(1.0, 2.5, x), 1.0 - pow(1.0 - x, 2.5), 1e-13,
		     "I_x(1,b) = 1-(1-x)^b");
	}
	NEAR(incbeta(7.3, 7.3, 0.5), 0.5, 1e-13, "I_0.5(a,a) = 1/2");
	/* integer a, b: binomial tail; I_0.3(2,3) = P(Bin(4, 0.3) >= 2) */
	NEAR(incbeta(2.0, 3.0, 0.3), 0.3483, 1e-12, "I_0.3(2,3)");
	NEAR(incbeta(2.0, 3.0, 0.0), 0.0, 0.0, "I_0");
	NEAR(incbeta(2.0, 3.0, 1.0), 1.0, 0.0, "I_1");
	CHECK(isnan(incbeta(-1.0, 3.0, 0.5)), "a <= 0 gives NAN");
	CHECK(isnan(incbeta(1.0, 3.0, 1.5)), "x > 1 gives NAN");
}

static void test_t_cdf(void)
{
	const double ts[] = { -30.0, -2.5, -0.3, 0.0, 0.7, 1.96, 12.0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ts); i++) {
		double t = ts[i];

		/* df = 1 is the Cauchy distribution */
		NEAR(t_cdf(t, 1.0), 0.5 + atan(t) / M_PI, 1e-12, "t_cdf df=1");
		NEAR(t_cdf(t, 2.0), 0.5 + t / (2.0 * sqrt(2.0 + t * t)), 1e-12,
		     "t_cdf df=2");
		NEAR(t_cdf(t, 7.0) + t_cdf(-t, 7.0), 1.0, 1e-13, "symmetry");
	}
	/* large df approaches the normal distribution */
	NEAR(t_cdf(1.959963985, 1e7), 0.975, 1e-6, "t_cdf df=1e7");
}

static void test_t_quantile(void)
{
	/* published two-sided 95%, 90% and 99% critical values */
	static const struct { double p, df, t; } tab[] = {
		{ 0.975, 1, 12.7062047 }, { 0.975, 2, 4.3026527 },
		{ 0.975, 3, 3.1824463 },  { 0.975, 5, 2.5705818 },
		{ 0.975, 9, 2.2621572 },  { 0.975, 10, 2.2281389 },
		{ 0.975, 20, 2.0859634 }, { 0.975, 30, 2.0422725 },
		{ 0.975, 120, 1.9799304 }, { 0.95, 10, 1.8124611 },
		{ 0.995, 5, 4.0321430 },  { 0.995, 1, 63.6567412 },
		{ 0.9995, 1, 636.6192488 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tab); i++) {
		char what[64];

		snprintf(what, sizeof(what), "t(%g, df=%g)", tab[i].p, tab[i].df);
		NEAR(t_quantile(tab[i].p, tab[i].df), tab[i].t, 1e-6 * tab[i].t, what);
		NEAR(t_quantile(1.0 - tab[i].p, tab[i].df), -tab[i].t,
		     1e-6 * tab[i].t, what);
		NEAR(t_cdf(t_quantile(tab[i].p, tab[i].df), tab[i].df), tab[i].p,
		     1e-12, "cdf(quantile(p)) = p");
	}
	NEAR(t_quantile(0.975, 17.9), 2.1015, 5e-4, "fractional df");
	NEAR(t_quantile(0.5, 4.0), 0.0, 0.0, "median");
	CHECK(isnan(t_quantile(1.0, 4.0)), "p = 1 gives NAN");
	CHECK(isnan(t_quantile(0.9, 0.0)), "df = 0 gives NAN");
}

static void test_welch_published(void)
{
	/*
	 * R, t.test(ts1, ts2) (Welch):
	 * t = -1.8325, df = 17.9, p-value = 0.08356,
	 * 95 percent confidence interval: -2.1469104 0.1469104
	 */
	const double ts1[] = { 11, 9, 10, 11, 10, 12, 9, 11, 12, 9 };
	const double ts2[] = { 11, 13, 10, 13, 12, 9, 11, 12, 12, 11 };
	struct summary a, b;
	struct welch w;

	summarize(ts2, ARRAY_SIZE(ts2), &a);
	summarize(ts1, ARRAY_SIZE(ts1), &b);
	welch(&a, &b, 0.95, &w);
	CHECK(w.status == WELCH_OK, "status ok");
	NEAR(w.diff, -1.0, 1e-12, "difference of means");
	NEAR(w.t, -1.8325, 5e-5, "Welch t");
	NEAR(w.df, 17.9, 0.05, "Welch-Satterthwaite df");
	NEAR(w.p, 0.08356, 5e-6, "two-sided p");
	NEAR(w.lo, -2.1469104, 1e-6, "CI low");
	NEAR(w.hi, 0.1469104, 1e-6, "CI high");
}

static void test_paired(void)
{
	/*
	 * R, t.test(c(1, 2, 3, 4, 5)):
	 * t = 4.2426, df = 4, p-value = 0.01324,
	 * 95 percent confidence interval: 1.036757 4.963243
	 */
	const double d[] = { 1, 2, 3, 4, 5 }, same[] = { 0.5, 0.5 };
	struct welch w;

	paired_t(d, ARRAY_SIZE(d), 0.95, &w);
	CHECK(w.status == WELCH_OK, "paired: status ok");
	NEAR(w.diff, 3.0, 1e-12, "paired: mean");
	NEAR(w.t, 4.2426, 5e-5, "paired: t");
	NEAR(w.df, 4.0, 0.0, "paired: df = n - 1");
	NEAR(w.p, 0.01324, 5e-6, "paired: two-sided p");
	NEAR(w.lo, 1.036757, 1e-6, "paired: CI low");
	NEAR(w.hi, 4.963243, 1e-6, "paired: CI high");
	paired_t(same, ARRAY_SIZE(same), 0.95, &w);
	CHECK(w.status == WELCH_ZERO_VAR && w.p == 0.0 && w.lo == 0.5,
	      "paired: zero variance, exact nonzero mean");
	paired_t(d, 1, 0.95, &w);
	CHECK(w.status == WELCH_TOO_FEW && isnan(w.lo) && w.diff == 1.0,
	      "paired: one pair, no interval");
}

static void test_summary(void)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct summary s;

	summarize(x, ARRAY_SIZE(x), &s);
	NEAR(s.mean, 5.0, 1e-15, "mean");
	NEAR(s.var, 32.0 / 7.0, 1e-14, "sample variance");
	NEAR(s.min, 2.0, 0.0, "min");
	NEAR(s.max, 9.0, 0.0, "max");
	NEAR(s.cv, sqrt(32.0 / 7.0) / 5.0 * 100.0, 1e-12, "coeffvar");

	summarize(x, 1, &s);
	CHECK(s.n == 1 && s.mean == 2.0 && isnan(s.sd) && isnan(s.cv),
	      "n = 1: mean only");
}

/* Build a one-group report from two columns "A" and "B". */
static int two_columns(const double *a, size_t na, const double *b, size_t nb,
		       enum direction dir, struct dataset *ds, struct report *r)
{
	static char bench[] = "bench", param[] = "p", unit[] = "s";
	static char sa[] = "A", sb[] = "B", path[] = "mem";
	static struct source src = { .path = path, .label = path };
	static struct sample s[64];
	char err[256];
	size_t i, n = 0;

	for (i = 0; i < na + nb; i++, n++) {
		s[n] = (struct sample){ .bench = bench, .param = param, .unit = unit,
					.dir = dir, .round = i, .line = i + 1,
					.setting = i < na ? sa : sb,
					.value = i < na ? a[i] : b[i - na] };
	}
	ds->src = &src;
	ds->nsrc = 1;
	ds->s = s;
	ds->n = n;
	return report_build(ds, NULL, r, err, sizeof(err));
}

static void test_compare(void)
{
	const double a[] = { 1.00, 1.02, 0.98, 1.01, 0.99 };
	const double a10[] = { 0.90, 0.918, 0.882, 0.909, 0.891 };	/* a * 0.9 */
	const double five[] = { 5, 5, 5 }, four[] = { 4, 4, 4 }, one[] = { 3 };
	struct dataset ds;
	struct report r;
	struct column *c;

	/* identical samples: 0 %, p = 1, no star */
	CHECK(!two_columns(a, 5, a, 5, DIR_LOWER, &ds, &r), "build");
	c = &r.g[0].col[1];
	NEAR(c->mean_pct, 0.0, 1e-12, "identical: 0 %%");
	NEAR(c->w.p, 1.0, 1e-12, "identical: p = 1");
	CHECK(!c->significant, "identical: no star");
	CHECK(c->lo_pct < 0.0 && c->hi_pct > 0.0, "identical: CI around 0");
	CHECK(!r.g[0].col[0].significant, "the base is never starred");
	report_free(&r);

	/* 10% lower time, lower is better: +10 % with a star */
	CHECK(!two_columns(a, 5, a10, 5, DIR_LOWER, &ds, &r), "build");
	c = &r.g[0].col[1];
	NEAR(c->mean_pct, 10.0, 1e-9, "shifted: +10 %%");
	CHECK(c->significant && c->lo_pct > 0.0 && c->hi_pct > c->lo_pct &&
	      c->lo_pct < 10.0 && c->hi_pct > 10.0, "shifted: CI around +10 %%, star");
	CHECK(c->w.p < 1e-4, "shifted: p = %g", c->w.p);
	report_free(&r);

	/* the same numbers as throughput, higher is better: -10 % with a star */
	CHECK(!two_columns(a, 5, a10, 5, DIR_HIGHER, &ds, &r), "build");
	c = &r.g[0].col[1];
	NEAR(c->mean_pct, -10.0, 1e-9, "higher is better: -10 %%");
	CHECK(c->significant && c->hi_pct < 0.0, "higher is better: CI below 0");
	report_free(&r);

	/* zero variance */
	CHECK(!two_columns(five, 3, five, 3, DIR_LOWER, &ds, &r), "build");
	c = &r.g[0].col[1];
	CHECK(c->w.status == WELCH_ZERO_VAR && !c->significant && c->w.p == 1.0 &&
	      c->mean_pct == 0.0, "zero variance, same value: exact 0, no star");
	report_free(&r);
	CHECK(!two_columns(five, 3, four, 3, DIR_LOWER, &ds, &r), "build");
	c = &r.g[0].col[1];
	CHECK(c->w.status == WELCH_ZERO_VAR && c->significant &&
	      fabs(c->mean_pct - 20.0) < 1e-12 && c->lo_pct == c->hi_pct,
	      "zero variance, different value: exact +20 %%, star");
	CHECK(isnan(r.g[0].col[0].sum.cv) == 0 && r.g[0].col[0].sum.cv == 0.0,
	      "zero variance: coeffvar 0");
	report_free(&r);

	/* n = 1: a change but no interval, no p, no star */
	CHECK(!two_columns(a, 5, one, 1, DIR_LOWER, &ds, &r), "build");
	c = &r.g[0].col[1];
	CHECK(c->w.status == WELCH_TOO_FEW && isnan(c->lo_pct) && isnan(c->w.p) &&
	      !c->significant && !isnan(c->mean_pct), "n = 1: no CI");
	report_free(&r);

	NEAR(change_pct(10.0, 9.0, DIR_LOWER), 10.0, 1e-12, "lower: less is +");
	NEAR(change_pct(10.0, 11.0, DIR_HIGHER), 10.0, 1e-12, "higher: more is +");
	CHECK(isnan(change_pct(0.0, 1.0, DIR_LOWER)), "base 0: no %% change");
}

static void test_parse(void)
{
	static const struct { const char *line; const char *error; } tab[] = {
		{ "hackbench\tg1\tSTEAL\t3\t1.25\ts\tlower\t1700000000", NULL },
		{ "ramp p 2 1 78.8 ms lower", NULL },
		{ "a b c 1 2.5e3 ev/s higher", NULL },
		{ "a b c 1 abc s lower", "not a number" },
		{ "a b c 1 nan s lower", "not a finite number" },
		{ "a b c 1 inf s lower", "not a finite number" },
		{ "a b c 1 1e999 s lower", "not a number" },
		{ "a b c 1 1.5x s lower", "not a number" },
		{ "a b c x 1.5 s lower", "round" },
		{ "a b c -1 1.5 s lower", "round" },
		{ "a b c 1 1.5 s better", "direction" },
		{ "a b c 1 1.5 s lower 12x", "timestamp" },
		{ "a b c 1 1.5 s", "got 6" },
		{ "a b c 1 1.5 s lower 1 extra", "got 9" },
		{ "garbage", "got 1" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tab); i++) {
		char line[256], why[256] = "";
		struct sample s;
		int ret;

		snprintf(line, sizeof(line), "%s", tab[i].line);
		ret = samples_parse_line(line, &s, why, sizeof(why));
		if (!tab[i].error)
			CHECK(ret == 0, "'%s' parses (%s)", tab[i].line, why);
		else
			CHECK(ret == -1 && strstr(why, tab[i].error),
			      "'%s' is refused with '%s' (got '%s')", tab[i].line,
			      tab[i].error, why);
	}
}

int main(void)
{
	test_incbeta();
	test_t_cdf();
	test_t_quantile();
	test_summary();
	test_welch_published();
	test_paired();
	test_compare();
	test_parse();
	printf("%s: %d checks, %d failed\n", failures ? "FAIL" : "PASS", checks,
	       failures);
	return failures ? 1 : 0;
}
