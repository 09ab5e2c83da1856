// SPDX-License-Identifier: GPL-2.0
/*
 * frames: a frame-like periodic load, as a UI thread renders it.  Bursts
 * of BURST frames, one per PERIOD_US, with IDLE_MS of idle between two
 * bursts (a list that scrolls, stops and scrolls again); each frame
 * wakes at its period's start and does a varying amount of work
 * (framestat.h: uniform within VAR% around a mean of PCT% of a period at
 * the top speed of the fastest CPU).  A frame that is not done within
 * its period is missed; the next one waits for the next period's start.
 * The scheduler places the task where it likes; the PELT halflife sets
 * how far its utilization swings within a frame and how fast it follows
 * the load, and so the CPU and the frequency its frames get.
 *
 *   frames -L LOOPS_PER_MS [-F FRAMES] [-b BURST] [-i IDLE_MS]
 *          [-p PERIOD_US] [-u PCT] [-v VAR]
 *   frames -C [-c CPU]        print the loops per ms of CPU, to give -L
 *   frames -n                 check the interfaces (exit 0) or say what is missing
 *
 * -L is what "frames -C" printed on the fastest CPU at its top frequency,
 * so that PCT means the same on every host: the loops per ms of a frame's
 * work, the reads between its chunks included.  The work is integer loops,
 * which take longer at a lower speed only where the board emulates one
 * (cpufreq_emu emulate_speed=Y) or on real hardware.
 *
 * Prints "MEAN_FRAME_MS MISSED_PCT MEAN_MHZ": the mean time from a
 * frame's period start to its end, the share of frames longer than a
 * period, and the mean scaling_cur_freq of the CPU the work ran on,
 * weighted by time.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "benchlib.h"
#include "framestat.h"
#include "freqstat.h"

#define PROG "frames"
/* a work chunk between two clock and frequency reads, in ms at top speed */
#define CHUNK_MS	0.05
#define CALIBRATE_MS	200
#define CALIBRATE_RUNS	3

static void usage(void)
{
	fprintf(stderr, "usage: " PROG " -L LOOPS_PER_MS [-F FRAMES] [-b BURST] [-i IDLE_MS] [-p PERIOD_US] [-u PCT] [-v VAR]\n"
		"       " PROG " -C [-c CPU]\n"
		"       " PROG " -n\n");
	exit(2);
}

static uint64_t spin_state = 88172645463325252ULL;

static void spin(long loops)
{
	spin_state = bl_work(loops, spin_state);
}

/*
 * One frame's work: @loops in chunks of @chunk, the clock, the CPU and its
 * frequency read after each chunk.  The frequency goes into @acc, each
 * chunk credited with the reading before it.
 */
static int frame_work(long loops, long chunk, const struct bl_attr *cur, int ncpu,
		      struct freq_acc *acc, double t0)
{
	long khz = bl_cur_freq_here(cur, ncpu), n;

	for (;;) {
		if (khz <= 0) {
			fprintf(stderr, PROG ": cannot read scaling_cur_freq\n");
			return -1;
		}
		freq_acc_sample(acc, bl_now_ms() - t0, khz);
		if (loops <= 0)
			return 0;
		n = loops < chunk ? loops : chunk;
		spin(n);
		loops -= n;
		khz = bl_cur_freq_here(cur, ncpu);
	}
}

/* Loops per ms of frame_work() with chunks of @chunk, over CALIBRATE_MS. */
static double work_rate(long chunk, const struct bl_attr *cur, int ncpu)
{
	struct freq_acc acc;
	double t0, t;
	long n = 0;

	freq_acc_init(&acc);
	t0 = bl_now_ms();
	do {
		if (frame_work(chunk * 20, chunk, cur, ncpu, &acc, t0))
			return -1;
		n += chunk * 20;
		t = bl_now_ms() - t0;
	} while (t < CALIBRATE_MS);
	return (double)n / t;
}

/*
 * The loops per ms of a frame's work, reads included: a first rate sizes
 * the chunks, then the best of CALIBRATE_RUNS (the host's noise only ever
 * slows a run).
 */
static double calibrate(const struct bl_attr *cur, int ncpu)
{
	double rate, best = 0;
	int run;

	rate = work_rate(10000, cur, ncpu);
	for (run = 0; rate > 0 && run < CALIBRATE_RUNS; run++) {
		double r = work_rate((long)(CHUNK_MS * rate) + 1, cur, ncpu);

		if (r < 0)
			return -1;
		best = r > best ? r : best;
	}
	return rate > 0 ? best : -1;
}

int main(int argc, char **argv)
{
	long frames = 300, burst = 30, idle_ms = 200, period_us = 16667;
	long pct = 40, var = 50, loops_per_ms = 0, i, skipped = 0;
	int opt, ncpu, cal = 0;
	double t0, due, end, period, work;
	struct frame_stats stats;
	struct frame_plan plan;
	struct freq_acc acc;
	struct bl_attr *cur;
	struct bl_opts o;

	bl_opts_init(&o);
	while ((opt = getopt(argc, argv, "L:F:b:i:p:u:v:Cc:nh")) != -1) {
		if (bl_opt(PROG, opt, optarg, &o))
			continue;
		switch (opt) {
		case 'L':
			loops_per_ms = bl_number(PROG, optarg, 1, 1000000000);
			break;
		case 'F':
			frames = bl_number(PROG, optarg, 1, 1000000);
			break;
		case 'b':
			burst = bl_number(PROG, optarg, 1, 1000000);
			break;
		case 'i':
			idle_ms = bl_number(PROG, optarg, 0, 60000);
			break;
		case 'p':
			period_us = bl_number(PROG, optarg, 1000, 1000000);
			break;
		case 'u':
			pct = bl_number(PROG, optarg, 1, 100);
			break;
		case 'v':
			var = bl_number(PROG, optarg, 0, 100);
			break;
		case 'C':
			cal = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	cur = bl_cur_freqs_open(PROG, &ncpu);
	if (!cur)
		return 1;
	if (o.check)
		return 0;
	if (cal) {
		double rate;

		if (bl_pin_cpu(PROG, o.cpu) < 0)
			return 1;
		rate = calibrate(cur, ncpu);
		if (rate < 0)
			return 1;
		printf("%.0f\n", rate);
		return 0;
	}
	if (!loops_per_ms) {
		fprintf(stderr, PROG ": -L is missing: give it what '" PROG " -C -c CPU' prints for the fastest CPU at its top frequency\n");
		return 2;
	}

	period = (double)period_us / 1000;
	frame_plan_init(&plan, 1, period * (double)pct / 100, (double)var / 100);
	frame_stats_init(&stats);
	freq_acc_init(&acc);
	t0 = bl_now_ms();
	due = 0;
	for (i = 0; i < frames; i++) {
		if (i && i % burst == 0)
			due = bl_now_ms() - t0 + (double)idle_ms;
		bl_sleep_ms(due - (bl_now_ms() - t0));
		work = frame_plan_next(&plan);
		if (frame_work((long)(work * (double)loops_per_ms),
			       (long)(CHUNK_MS * (double)loops_per_ms) + 1,
			       cur, ncpu, &acc, t0))
			return 1;
		end = bl_now_ms() - t0;
		freq_acc_stop(&acc, end);
		frame_stats_add(&stats, due, end, period);
		due = duty_next_start(due, period, end, &skipped);
	}
	fprintf(stderr, PROG ": %ld frames of %.2f ms in bursts of %ld, %ld missed, %ld periods skipped\n",
		stats.frames, period, burst, stats.missed, skipped);
	printf("%.2f %.1f %.0f\n", frame_stats_mean_ms(&stats),
	       frame_stats_missed_pct(&stats), freq_acc_mean(&acc) / 1000);
	return 0;
}
