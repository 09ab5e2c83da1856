/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pure parts of frames: the work of each frame and what the frames
 * add up to.  No system calls here: unit-tested by tests/freqstat_test.c.
 */
#ifndef FRAMESTAT_H
#define FRAMESTAT_H

#include <stdint.h>

/*
 * The work of successive frames, in milliseconds at the top speed of the
 * fastest CPU: uniform in [mean * (1 - var), mean * (1 + var)], from a
 * fixed pseudo-random sequence, so that every run renders the same frames.
 */
struct frame_plan {
	uint64_t state;
	double mean_ms;
	double var;		/* 0 .. 1 */
};

void frame_plan_init(struct frame_plan *p, uint64_t seed, double mean_ms, double var);
double frame_plan_next(struct frame_plan *p);

/* What the frames came to: a frame longer than its period is missed. */
struct frame_stats {
	long frames;
	long missed;
	double sum_ms;		/* of the frames' durations */
};

void frame_stats_init(struct frame_stats *s);
/* A frame that started at @start and was done at @end (ms). */
void frame_stats_add(struct frame_stats *s, double start, double end, double period_ms);
double frame_stats_mean_ms(const struct frame_stats *s);	/* 0 without frames */
double frame_stats_missed_pct(const struct frame_stats *s);	/* 0 without frames */

#endif
