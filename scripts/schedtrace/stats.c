// SPDX-License-Identifier: GPL-2.0
/* schedtrace: statistics on the series. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/*
 * Time a task's util takes to climb to frac * 1024.  A ramp ends at a sample
 * at or above the target that follows one below it (a task forked or woken
 * above the target is measured on a later ramp); it starts at the lowest
 * sample since the series was last above the target (the latest one within
 * RAMP_FLOOR of it), so a task that slept first is measured from its wakeup,
 * where its util had decayed to.  The first ramp
 * starting at or below max_from is reported.  The crossing is interpolated
 * between the last sample below the target and the first one at or above.
 */
enum ramp_result ramp_time(const struct util_sample *s, size_t n, double frac,
			   unsigned long max_from, struct ramp *r)
{
	double target = frac * UTIL_SCALE;
	size_t i, k, b = 0, lo;
	int below = 0;
	double t;

	for (k = 0; k < n; k++) {
		if ((double)s[k].util < target) {
			below = 1;
			continue;
		}
		if (k > b) {
			lo = b;
			for (i = b + 1; i < k; i++)
				if (s[i].util < s[lo].util)
					lo = i;
			/* the latest sample on the floor: the wakeup, not
			 * an update while the task still slept */
			for (i = k - 1; i > lo; i--)
				if (s[i].util <= s[lo].util + RAMP_FLOOR)
					break;
			lo = i;
			if (s[lo].util <= max_from)
				goto found;
		}
		b = k + 1;		/* above: a ramp starts after it */
	}
	return below ? RAMP_NEVER : (n ? RAMP_ABOVE : RAMP_NEVER);
found:
	t = s[k].t;
	if (s[k].util != s[k - 1].util)
		t = s[k - 1].t + (s[k].t - s[k - 1].t) *
			(target - (double)s[k - 1].util) /
			((double)s[k].util - (double)s[k - 1].util);
	r->start = s[lo].t;
	r->cross = t;
	r->dt = t - s[lo].t;
	r->from = s[lo].util;
	return RAMP_OK;
}

static int cmp_khz(const void *a, const void *b)
{
	const struct residency *x = a, *y = b;

	return (x->khz > y->khz) - (x->khz < y->khz);
}

/*
 * Time spent at each frequency between the first change and t_end, sorted by
 * frequency; *unknown gets the time before the first change (the frequency
 * then is not in the trace).  Returns the number of entries in out.
 */
size_t freq_residency(const struct freq_event *ev, size_t n, double t_end,
		      struct residency *out, size_t max, double *unknown)
{
	size_t i, j, nout = 0;

	*unknown = n ? ev[0].t : t_end;
	for (i = 0; i < n; i++) {
		double end = i + 1 < n ? ev[i + 1].t : t_end;
		double d = end > ev[i].t ? end - ev[i].t : 0;

		for (j = 0; j < nout; j++)
			if (out[j].khz == ev[i].khz)
				break;
		if (j == nout) {
			if (nout == max)
				continue;
			out[nout].khz = ev[i].khz;
			out[nout].seconds = 0;
			nout++;
		}
		out[j].seconds += d;
	}
	qsort(out, nout, sizeof(*out), cmp_khz);
	return nout;
}

/*
 * Summary of a step series: n samples of size bytes at base, each with a
 * double time at t_off and an unsigned long value at v_off.  Each value
 * holds until the next sample; the last one until t_end.
 */
static void step_summary(const void *base, size_t n, size_t size,
			 size_t t_off, size_t v_off, double t_end,
			 struct summary *out)
{
	const char *p = base;
	double area = 0, span, t0 = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	for (i = 0; i < n; i++) {
		const char *rec = p + i * size;
		double t = *(const double *)(rec + t_off);
		unsigned long v = *(const unsigned long *)(rec + v_off);
		double end = i + 1 < n ?
			*(const double *)(rec + size + t_off) : t_end;

		if (!i) {
			t0 = t;
			out->min = out->max = v;
		}
		if (v < out->min)
			out->min = v;
		if (v > out->max)
			out->max = v;
		if (end > t)
			area += (double)v * (end - t);
		out->last = v;
	}
	span = t_end - t0;
	out->mean = span > 0 ? area / span : (double)out->last;
}

void cap_summary(const struct cap_sample *s, size_t n, enum cap_field f,
		 double t_end, struct summary *out)
{
	size_t v_off = f == CAP_CAPACITY ? offsetof(struct cap_sample, capacity) :
		       f == CAP_ORIG ? offsetof(struct cap_sample, capacity_orig) :
		       offsetof(struct cap_sample, pressure);

	step_summary(s, n, sizeof(*s), offsetof(struct cap_sample, t), v_off,
		     t_end, out);
}

void therm_summary(const struct therm_sample *s, size_t n, enum therm_field f,
		   double t_end, struct summary *out)
{
	size_t v_off = f == THERM_INSTANT ? offsetof(struct therm_sample, instant) :
		       offsetof(struct therm_sample, avg);

	step_summary(s, n, sizeof(*s), offsetof(struct therm_sample, t), v_off,
		     t_end, out);
}

/* How far avg still is from the step's new pressure. */
static double therm_left(const struct therm_step *st, unsigned long avg)
{
	return fabs((double)st->to - (double)avg);
}

/*
 * When the distance left went from a (at ta) to b (at tb) through the value
 * x: on an exponential, log(distance) is linear in time, which holds however
 * far apart the samples are (a guest's vCPU may not run for a while).
 */
static double therm_cross(double ta, double a, double tb, double b, double x)
{
	double f = a > 0 && b > 0 ? (log(a) - log(x)) / (log(a) - log(b)) :
				    (a - x) / (a - b);

	return ta + (tb - ta) * f;
}

/*
 * The steps of the instantaneous pressure (a cap set or lifted) and, for
 * each, the time the average took to go half the way from its value at the
 * step to the new pressure: one halflife of sched_thermal_decay_ms, 0 with
 * no decay.  The kernel brings the average up to date under the old cap
 * before it reports the new one, so the step's sample carries the average
 * from before the step, unless there is no decay (then it is already the
 * new pressure and the previous sample's is taken).  The first sample is a
 * step when its average is on the way to its pressure: the cap came before,
 * but an exponential takes one halflife to go half the way from any point.
 * The crossing is interpolated between the samples around it along the
 * exponential (therm_cross()).  Steps of less than THERM_MIN_STEP are
 * skipped.  Returns the number of entries in
 * out.
 */
size_t therm_steps(const struct therm_sample *s, size_t n,
		   struct therm_step *out, size_t max)
{
	size_t i, j, nout = 0;

	for (i = 0; i < n && nout < max; i++) {
		struct therm_step *st = &out[nout];
		double half;

		if (i ? s[i].instant == s[i - 1].instant :
			s[i].instant == s[i].avg)
			continue;
		st->t = s[i].t;
		st->from = s[i].avg != s[i].instant || !i ? s[i].avg :
			   s[i - 1].avg;
		st->to = s[i].instant;
		st->half = -1;
		if (st->to + THERM_MIN_STEP > st->from &&
		    st->from + THERM_MIN_STEP > st->to)
			continue;
		nout++;
		half = therm_left(st, st->from) / 2;
		for (j = i; j < n && s[j].instant == st->to; j++) {
			double b = therm_left(st, s[j].avg), a;

			if (b > half)
				continue;
			a = j > i ? therm_left(st, s[j - 1].avg) : b;
			st->half = a > b ?
				therm_cross(s[j - 1].t, a, s[j].t, b, half) - st->t :
				s[j].t - st->t;
			break;
		}
	}
	return nout;
}

unsigned long util_max(const struct util_sample *s, size_t n)
{
	unsigned long m = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i].util > m)
			m = s[i].util;
	return m;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* RFC 4180: quoted when it holds a comma, quote or line break. */
void csv_string(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}
