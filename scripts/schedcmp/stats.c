// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics for schedcmp: sample summaries, the Student t distribution via
 * the regularized incomplete beta function, and Welch's t-test.
 */
#include <float.h>
#include <math.h>

#include "stats.h"

void summarize(const double *x, size_t n, struct summary *s)
{
	double sum = 0.0, ss = 0.0;
	size_t i;

	s->n = n;
	s->min = s->max = x[0];
	for (i = 0; i < n; i++) {
		sum += x[i];
		if (x[i] < s->min)
			s->min = x[i];
		if (x[i] > s->max)
			s->max = x[i];
	}
	s->mean = sum / (double)n;
	if (n < 2) {
		s->var = s->sd = s->cv = NAN;
		return;
	}
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->var = ss / (double)(n - 1);
	s->sd = sqrt(s->var);
	s->cv = s->mean != 0.0 ? s->sd / fabs(s->mean) * 100.0 : NAN;
}

/*
 * Continued fraction for I_x(a, b) (valid and fast for x < (a+1)/(a+b+2)),
 * evaluated with the modified Lentz method.  Terms:
 *   d(2m)   =  m (b - m) x / ((a + 2m - 1)(a + 2m))
 *   d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1))
 */
static double incbeta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double f = 1.0, c = 1.0, d = 0.0;
	int i;

	for (i = 0; i <= 1000; i++) {
		double m = (double)(i / 2), num, cd;

		if (i == 0)
			num = 1.0;
		else if (i % 2 == 0)
			num = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
		else
			num = -((a + m) * (a + b + m) * x) /
			      ((a + 2.0 * m) * (a + 2.0 * m + 1.0));

		d = 1.0 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		d = 1.0 / d;
		c = 1.0 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		cd = c * d;
		f *= cd;
		if (fabs(1.0 - cd) < eps)
			break;
	}
	return f - 1.0;
}

double incbeta(double a, double b, double x)
{
	double lfront;

	if (isnan(x) || isnan(a) || isnan(b) || a <= 0.0 || b <= 0.0 ||
	    x < 0.0 || x > 1.0)
		return NAN;
	if (x == 0.0)
		return 0.0;
	if (x == 1.0)
		return 1.0;
	/* Use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) where it converges faster. */
	if (x > (a + 1.0) / (a + b + 2.0))
		return 1.0 - incbeta(b, a, 1.0 - x);

	lfront = lgamma(a + b) - lgamma(a) - lgamma(b) +
		 a * log(x) + b * log1p(-x);
	return exp(lfront) / a * incbeta_cf(a, b, x);
}

double t_sf2(double t, double df)
{
	if (isnan(t) || !(df > 0.0))
		return NAN;
	if (isinf(t))
		return 0.0;
	return incbeta(df / 2.0, 0.5, df / (df + t * t));
}

double t_cdf(double t, double df)
{
	double tail = t_sf2(t, df) / 2.0;	/* P(T >= |t|) */

	if (isnan(tail))
		return NAN;
	return t > 0.0 ? 1.0 - tail : tail;
}

double t_quantile(double p, double df)
{
	double lo = 0.0, hi = 1.0;
	int i;

	if (isnan(p) || !(df > 0.0) || p <= 0.0 || p >= 1.0)
		return NAN;
	if (p == 0.5)
		return 0.0;
	if (p < 0.5)
		return -t_quantile(1.0 - p, df);

	while (t_cdf(hi, df) < p) {
		lo = hi;
		hi *= 2.0;
		if (hi > 1e300)
			return INFINITY;
	}
	for (i = 0; i < 200 && hi - lo > 4.0 * DBL_EPSILON * hi; i++) {
		double mid = lo + (hi - lo) / 2.0;

		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2.0;
}

void welch(const struct summary *a, const struct summary *b, double conf,
	   struct welch *w)
{
	double va, vb, q;

	w->diff = b->mean - a->mean;
	w->se = w->df = w->t = w->p = w->lo = w->hi = NAN;

	if (a->n < 2 || b->n < 2) {
		w->status = WELCH_TOO_FEW;
		return;
	}
	va = a->var / (double)a->n;
	vb = b->var / (double)b->n;
	w->se = sqrt(va + vb);
	if (w->se == 0.0) {
		w->status = WELCH_ZERO_VAR;
		w->lo = w->hi = w->diff;
		w->p = w->diff == 0.0 ? 1.0 : 0.0;
		return;
	}
	w->status = WELCH_OK;
	w->df = (va + vb) * (va + vb) /
		(va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	w->t = w->diff / w->se;
	w->p = t_sf2(w->t, w->df);
	q = t_quantile(1.0 - (1.0 - conf) / 2.0, w->df);
	w->lo = w->diff - q * w->se;
	w->hi = w->diff + q * w->se;
}

void paired_t(const double *d, size_t n, double conf, struct welch *w)
{
	struct summary s;
	double q;

	w->diff = w->se = w->df = w->t = w->p = w->lo = w->hi = NAN;
	if (n < 2) {
		if (n == 1)
			w->diff = d[0];
		w->status = WELCH_TOO_FEW;
		return;
	}
	summarize(d, n, &s);
	w->diff = s.mean;
	w->se = s.sd / sqrt((double)n);
	if (w->se == 0.0) {
		w->status = WELCH_ZERO_VAR;
		w->lo = w->hi = w->diff;
		w->p = w->diff == 0.0 ? 1.0 : 0.0;
		return;
	}
	w->status = WELCH_OK;
	w->df = (double)(n - 1);
	w->t = w->diff / w->se;
	w->p = t_sf2(w->t, w->df);
	q = t_quantile(1.0 - (1.0 - conf) / 2.0, w->df);
	w->lo = w->diff - q * w->se;
	w->hi = w->diff + q * w->se;
}
