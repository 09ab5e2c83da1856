/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pure parts of freqramp and freqduty: a time-weighted mean of the
 * frequency over the intervals a task ran, the work done at those
 * frequencies, the trace of frequency changes, and the schedule of a
 * periodic task.  No system calls here: unit-tested by tests/freqstat_test.c.
 */
#ifndef FREQSTAT_H
#define FREQSTAT_H

#include <stdio.h>

/*
 * Frequency samples taken while a task runs.  Each sample holds until the
 * next one; the intervals between a stop and the next start (the task
 * sleeping) are left out.
 */
struct freq_acc {
	double khz_ms;		/* sum of frequency x time */
	double ms;		/* time covered */
	double last_t;
	long last_khz;
	int running;
};

void freq_acc_init(struct freq_acc *a);
void freq_acc_start(struct freq_acc *a, double t, long khz);
/* A sample at @t; returns the frequency x time credited (kHz x ms). */
double freq_acc_sample(struct freq_acc *a, double t, long khz);
void freq_acc_stop(struct freq_acc *a, double t);
/* The mean frequency in kHz over the covered time, 0 without any. */
double freq_acc_mean(const struct freq_acc *a);

/*
 * A trace of time,frequency samples as CSV ("ms,khz" header line): the
 * first sample, every sample whose frequency differs from the previous
 * one, and the last sample (freq_trace_end()).  Drawn with steps, it is the
 * frequency as the task saw it.  @fp may be NULL (no trace).
 */
struct freq_trace {
	FILE *fp;
	double t;		/* the latest sample, not yet written */
	long khz;
	int pending;
	int started;
	long lines;		/* samples written */
};

void freq_trace_init(struct freq_trace *tr, FILE *fp);
void freq_trace_sample(struct freq_trace *tr, double t, long khz);
void freq_trace_end(struct freq_trace *tr);

/*
 * The start of the period after the one that began at @start, for a task
 * that is done at @now: @start + @period, or, when @now is already past it,
 * the start of the first period that begins after @now (the missed ones
 * counted in *@missed).
 */
double duty_next_start(double start, double period, double now, long *missed);

#endif
