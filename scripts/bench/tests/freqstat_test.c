// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pure parts of freqramp and freqduty (freqstat.c), of
 * frames (framestat.c) and of the option parsing the measuring programs
 * share (benchlib.c).  TAP output; exit 1 when a
 * test fails.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benchlib.h"
#include "framestat.h"
#include "freqstat.h"

static int tests, failures;

static void ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failures++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

static int near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1);
}

static void test_acc_constant(void)
{
	struct freq_acc a;

	freq_acc_init(&a);
	ok(freq_acc_mean(&a) == 0, "acc: no samples, mean 0");
	freq_acc_start(&a, 10, 903000);
	freq_acc_sample(&a, 11, 903000);
	freq_acc_sample(&a, 14, 903000);
	freq_acc_stop(&a, 20);
	ok(near(a.ms, 10), "acc: constant frequency covers start..stop");
	ok(near(freq_acc_mean(&a), 903000), "acc: constant frequency is the mean");
}

static void test_acc_step(void)
{
	struct freq_acc a;
	double credit;

	freq_acc_init(&a);
	/* 1000 kHz for 3 ms, then 2000 kHz for 1 ms */
	ok(freq_acc_sample(&a, 0, 1000) == 0, "acc: the first sample starts, credits nothing");
	credit = freq_acc_sample(&a, 3, 2000);
	ok(near(credit, 3000), "acc: a sample credits the previous frequency until now");
	credit = freq_acc_sample(&a, 4, 2000);
	ok(near(credit, 2000), "acc: ... and the new one after it");
	ok(near(freq_acc_mean(&a), 5000.0 / 4), "acc: time-weighted mean of a step");
}

static void test_acc_gaps(void)
{
	struct freq_acc a;

	freq_acc_init(&a);
	/* two busy phases at different frequencies, a long sleep between */
	freq_acc_start(&a, 0, 1000);
	freq_acc_sample(&a, 2, 1000);
	freq_acc_stop(&a, 2);
	freq_acc_start(&a, 100, 3000);
	freq_acc_sample(&a, 101, 3000);
	freq_acc_stop(&a, 102);
	ok(near(a.ms, 4), "acc: the sleep between stop and start is left out");
	ok(near(freq_acc_mean(&a), 2000), "acc: mean over the busy time only");
	freq_acc_stop(&a, 500);
	ok(near(a.ms, 4), "acc: a second stop adds nothing");
	freq_acc_sample(&a, 600, 5000);
	ok(near(a.ms, 4) && a.running, "acc: a sample after a stop starts a new phase");
}

static void test_acc_backwards(void)
{
	struct freq_acc a;

	freq_acc_init(&a);
	freq_acc_start(&a, 5, 1000);
	ok(freq_acc_sample(&a, 4, 1000) == 0 && a.ms == 0,
	   "acc: a sample earlier than the last credits nothing");
}

/* Run the samples through a trace into a buffer and compare. */
static void trace_case(const char *what, const double *t, const long *khz, int n,
		      const char *want, long want_lines)
{
	struct freq_trace tr;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int i;

	if (!fp) {
		ok(0, what);
		return;
	}
	freq_trace_init(&tr, fp);
	for (i = 0; i < n; i++)
		freq_trace_sample(&tr, t[i], khz[i]);
	freq_trace_end(&tr);
	fclose(fp);
	ok(!strcmp(buf, want) && tr.lines == want_lines, what);
	if (strcmp(buf, want))
		printf("# got:\n%s# want:\n%s", buf, want);
	free(buf);
}

static void test_trace(void)
{
	static const double t[] = { 0, 0.5, 1.25, 2, 3.5, 4 };
	static const long f[] = { 903000, 903000, 1421000, 1421000, 2362000, 2362000 };
	static const double t1[] = { 7 };
	static const long f1[] = { 533000 };
	struct freq_trace tr;

	trace_case("trace: the first sample, the changes and the last sample",
		   t, f, 6,
		   "ms,khz\n0.000,903000\n1.250,1421000\n3.500,2362000\n4.000,2362000\n", 4);
	trace_case("trace: the last sample is not written twice when it is a change",
		   t, f, 5,
		   "ms,khz\n0.000,903000\n1.250,1421000\n3.500,2362000\n", 3);
	trace_case("trace: one sample, one line", t1, f1, 1, "ms,khz\n7.000,533000\n", 1);
	trace_case("trace: no samples, only the header", t1, f1, 0, "ms,khz\n", 0);

	freq_trace_init(&tr, NULL);
	freq_trace_sample(&tr, 1, 1);
	freq_trace_sample(&tr, 2, 2);
	freq_trace_sample(&tr, 3, 2);
	freq_trace_end(&tr);
	ok(tr.lines == 3, "trace: without a file, only counted");
}

static void test_next_start(void)
{
	long missed = 0;

	ok(near(duty_next_start(0, 16, 4.8, &missed), 16) && missed == 0,
	   "duty: done in time, the next period");
	ok(near(duty_next_start(32, 16, 48, &missed), 48) && missed == 0,
	   "duty: done exactly at the boundary, no period missed");
	ok(near(duty_next_start(0, 16, 17, &missed), 32) && missed == 1,
	   "duty: done late, the next boundary, one missed");
	missed = 0;
	ok(near(duty_next_start(0, 10, 35, &missed), 40) && missed == 3,
	   "duty: three periods started while busy");
	missed = 0;
	ok(near(duty_next_start(0, 16, 32, &missed), 32) && missed == 1,
	   "duty: done exactly at a later boundary, only the period before missed");
}

static void test_frame_plan(void)
{
	struct frame_plan a, b;
	double w, lo = 1e9, hi = 0, sum = 0;
	int i, same = 1, n = 10000;

	frame_plan_init(&a, 1, 6, 0.5);
	frame_plan_init(&b, 1, 6, 0.5);
	for (i = 0; i < n; i++) {
		w = frame_plan_next(&a);
		same &= w == frame_plan_next(&b);
		lo = w < lo ? w : lo;
		hi = w > hi ? w : hi;
		sum += w;
	}
	ok(same, "plan: the same seed renders the same frames");
	ok(lo >= 3 && hi < 9, "plan: within mean * (1 -+ var)");
	ok(lo < 3.1 && hi > 8.9, "plan: spread over the whole range");
	ok(fabs(sum / n - 6) < 0.1, "plan: mean as asked");
	frame_plan_init(&a, 0, 6, 0);
	ok(near(frame_plan_next(&a), 6) && near(frame_plan_next(&a), 6),
	   "plan: no variation, every frame the mean; seed 0 does not stick");
}

static void test_frame_stats(void)
{
	struct frame_stats s;

	frame_stats_init(&s);
	ok(frame_stats_mean_ms(&s) == 0 && frame_stats_missed_pct(&s) == 0,
	   "frames: none, mean and missed 0");
	frame_stats_add(&s, 0, 10, 16.667);
	frame_stats_add(&s, 16.667, 16.667 + 16.667, 16.667);
	frame_stats_add(&s, 33.333, 33.333 + 20, 16.667);
	frame_stats_add(&s, 66.667, 66.667 + 6, 16.667);
	ok(s.frames == 4 && s.missed == 1, "frames: only a frame longer than its period is missed");
	ok(near(frame_stats_missed_pct(&s), 25), "frames: missed share in percent");
	ok(fabs(frame_stats_mean_ms(&s) - (10 + 16.667 + 20 + 6) / 4) < 1e-6,
	   "frames: mean duration");
}

static void test_parse(void)
{
	long v = 42;

	ok(!bl_parse_long("30", 1, 100, &v) && v == 30, "parse: a number in range");
	ok(!bl_parse_long("-5", -10, 10, &v) && v == -5, "parse: negative");
	v = 42;
	ok(bl_parse_long("0", 1, 100, &v) && v == 42, "parse: below the range, untouched");
	ok(bl_parse_long("101", 1, 100, &v), "parse: above the range");
	ok(bl_parse_long("", 1, 100, &v), "parse: empty");
	ok(bl_parse_long("12ms", 1, 100, &v), "parse: trailing garbage");
	ok(bl_parse_long("1.5", 1, 100, &v), "parse: not an integer");
	ok(bl_parse_long("99999999999999999999999", 1, 100, &v), "parse: overflow");
}

static void test_opts(void)
{
	struct bl_opts o;

	bl_opts_init(&o);
	ok(o.cpu == -1 && o.sleep_ms == 1000 && !o.trace && !o.check, "opts: defaults");
	ok(bl_opt("t", 'c', "3", &o) && o.cpu == 3, "opts: -c");
	ok(bl_opt("t", 's', "0", &o) && o.sleep_ms == 0, "opts: -s");
	ok(bl_opt("t", 'T', "x.csv", &o) && !strcmp(o.trace, "x.csv"), "opts: -T");
	ok(bl_opt("t", 'n', NULL, &o) && o.check, "opts: -n");
	ok(!bl_opt("t", 'p', "30", &o), "opts: not a shared option");
}

int main(void)
{
	test_acc_constant();
	test_acc_step();
	test_acc_gaps();
	test_acc_backwards();
	test_trace();
	test_next_start();
	test_frame_plan();
	test_frame_stats();
	test_parse();
	test_opts();
	printf("1..%d\n# freqstat: %d tests, %d failed\n", tests, tests, failures);
	return failures ? 1 : 0;
}
