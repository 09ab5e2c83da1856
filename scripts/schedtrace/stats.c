// SPDX-License-Identifier: GPL-2.0
/* schedtrace: statistics on the series. */
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

static unsigned long cap_value(const struct cap_sample *s, enum cap_field f)
{
	switch (f) {
	case CAP_CAPACITY:
		return s->capacity;
	case CAP_ORIG:
		return s->capacity_orig;
	default:
		return s->pressure;
	}
}

/* Each value holds until the next sample; the last one until t_end. */
void cap_summary(const struct cap_sample *s, size_t n, enum cap_field f,
		 double t_end, struct summary *out)
{
	double area = 0, span;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->n = n;
	if (!n)
		return;
	out->min = out->max = cap_value(&s[0], f);
	for (i = 0; i < n; i++) {
		unsigned long v = cap_value(&s[i], f);
		double end = i + 1 < n ? s[i + 1].t : t_end;

		if (v < out->min)
			out->min = v;
		if (v > out->max)
			out->max = v;
		if (end > s[i].t)
			area += (double)v * (end - s[i].t);
	}
	out->last = cap_value(&s[n - 1], f);
	span = t_end - s[0].t;
	out->mean = span > 0 ? area / span : (double)out->last;
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
