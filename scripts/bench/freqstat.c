// SPDX-License-Identifier: GPL-2.0
/* Frequency statistics and traces; see freqstat.h. */
#include <math.h>

#include "freqstat.h"

void freq_acc_init(struct freq_acc *a)
{
	a->khz_ms = 0;
	a->ms = 0;
	a->last_t = 0;
	a->last_khz = 0;
	a->running = 0;
}

void freq_acc_start(struct freq_acc *a, double t, long khz)
{
	a->last_t = t;
	a->last_khz = khz;
	a->running = 1;
}

double freq_acc_sample(struct freq_acc *a, double t, long khz)
{
	double dt, credit = 0;

	if (!a->running) {
		freq_acc_start(a, t, khz);
		return 0;
	}
	dt = t - a->last_t;
	if (dt > 0) {
		credit = dt * (double)a->last_khz;
		a->khz_ms += credit;
		a->ms += dt;
	}
	a->last_t = t;
	a->last_khz = khz;
	return credit;
}

void freq_acc_stop(struct freq_acc *a, double t)
{
	if (!a->running)
		return;
	freq_acc_sample(a, t, a->last_khz);
	a->running = 0;
}

double freq_acc_mean(const struct freq_acc *a)
{
	return a->ms > 0 ? a->khz_ms / a->ms : 0;
}

static void trace_write(struct freq_trace *tr)
{
	if (tr->fp)
		fprintf(tr->fp, "%.3f,%ld\n", tr->t, tr->khz);
	tr->lines++;
	tr->pending = 0;
}

void freq_trace_init(struct freq_trace *tr, FILE *fp)
{
	tr->fp = fp;
	tr->t = 0;
	tr->khz = 0;
	tr->pending = 0;
	tr->started = 0;
	tr->lines = 0;
	if (fp)
		fputs("ms,khz\n", fp);
}

void freq_trace_sample(struct freq_trace *tr, double t, long khz)
{
	int changed = !tr->started || khz != tr->khz;

	tr->started = 1;
	tr->t = t;
	tr->khz = khz;
	tr->pending = 1;
	if (changed)
		trace_write(tr);
}

void freq_trace_end(struct freq_trace *tr)
{
	if (tr->pending)
		trace_write(tr);
	if (tr->fp)
		fflush(tr->fp);
}

double duty_next_start(double start, double period, double now, long *missed)
{
	double next = start + period, n;

	if (now <= next)
		return next;
	/*
	 * The periods that began while the task was still busy; one that
	 * begins exactly @now is not missed (as for @now == next).
	 */
	n = ceil((now - next) / period);
	*missed += (long)n;
	return next + n * period;
}
