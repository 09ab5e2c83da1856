// SPDX-License-Identifier: GPL-2.0
/* The pure parts of frames; see framestat.h. */
#include "framestat.h"

void frame_plan_init(struct frame_plan *p, uint64_t seed, double mean_ms, double var)
{
	/* xorshift64 must not start at 0, where it stays */
	p->state = seed ? seed : 88172645463325252ULL;
	p->mean_ms = mean_ms;
	p->var = var;
}

double frame_plan_next(struct frame_plan *p)
{
	double u;

	p->state ^= p->state << 13;
	p->state ^= p->state >> 7;
	p->state ^= p->state << 17;
	/* the top 53 bits, uniform in [0, 1) */
	u = (double)(p->state >> 11) / (double)(1ULL << 53);
	return p->mean_ms * (1 + p->var * (2 * u - 1));
}

void frame_stats_init(struct frame_stats *s)
{
	s->frames = 0;
	s->missed = 0;
	s->sum_ms = 0;
}

void frame_stats_add(struct frame_stats *s, double start, double end, double period_ms)
{
	s->frames++;
	s->sum_ms += end - start;
	if (end - start > period_ms)
		s->missed++;
}

double frame_stats_mean_ms(const struct frame_stats *s)
{
	return s->frames ? s->sum_ms / (double)s->frames : 0;
}

double frame_stats_missed_pct(const struct frame_stats *s)
{
	return s->frames ? 100.0 * (double)s->missed / (double)s->frames : 0;
}
