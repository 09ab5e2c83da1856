// SPDX-License-Identifier: GPL-2.0
/* Host unit tests of schedtrace's statistics and the model (no trace). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"

static int failures, tests;

#define CHECK(cond, ...)						\
	do {								\
		tests++;						\
		if (!(cond)) {						\
			failures++;					\
			printf("not ok %d - %s:%d: ", tests, __func__,	\
			       __LINE__);				\
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

static int near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

/* PELT's closed form for a task running from util u0: 32 ms halflife. */
static void pelt_ramp(struct util_sample *s, size_t n, double u0, double dt)
{
	size_t i;

	for (i = 0; i < n; i++) {
		double t = i * dt;

		s[i].t = 1.0 + t;
		s[i].cpu = 0;
		s[i].util = (unsigned long)(1024 - (1024 - u0) * pow(0.5, t / 0.032));
	}
}

static void test_ramp_closed_form(void)
{
	struct util_sample s[400];
	struct ramp r;
	/* from 0 to 80%: 32 ms * log2(5) = 74.3 ms */
	double want = 0.032 * log2(5.0);

	pelt_ramp(s, 400, 0, 0.001);
	CHECK(ramp_time(s, 400, 0.8, RAMP_FROM_ANY, &r) == RAMP_OK, "80%% must be reached");
	CHECK(near(r.dt, want, 0.0015), "dt %.4f, want %.4f", r.dt, want);
	CHECK(r.from == 0 && near(r.start, 1.0, 1e-9), "start %.3f from %lu",
	      r.start, r.from);
	CHECK(ramp_time(s, 400, 0.5, RAMP_FROM_ANY, &r) == RAMP_OK && near(r.dt, 0.032, 0.0015),
	      "50%% after one halflife, got %.4f", r.dt);
}

static void test_ramp_starts_at_trough(void)
{
	/* decaying (sleep), then ramping: start at the lowest point */
	struct util_sample s[] = {
		{ 0.00, 0, 600, 0, 0 }, { 0.10, 0, 100, 0, 0 },
		{ 0.20, 0, 40, 0, 0 }, { 0.21, 0, 300, 0, 0 },
		{ 0.22, 0, 700, 0, 0 }, { 0.23, 0, 900, 0, 0 },
	};
	struct ramp r;

	CHECK(ramp_time(s, 6, 0.8, RAMP_FROM_ANY, &r) == RAMP_OK, "reached");
	CHECK(near(r.start, 0.20, 1e-9) && r.from == 40, "start %.2f", r.start);
	/* 819.2 between 700 @0.22 and 900 @0.23 */
	CHECK(near(r.cross, 0.22 + 0.01 * 119.2 / 200, 1e-9), "cross %.5f",
	      r.cross);
}

static void test_ramp_edges(void)
{
	struct util_sample s[] = {
		{ 0.0, 0, 900, 0, 0 }, { 0.1, 0, 100, 0, 0 },
	};
	struct ramp r;

	CHECK(ramp_time(s, 1, 0.8, RAMP_FROM_ANY, &r) == RAMP_ABOVE, "above throughout");
	CHECK(ramp_time(s, 2, 0.8, RAMP_FROM_ANY, &r) == RAMP_NEVER, "above, then below");
	CHECK(ramp_time(s + 1, 1, 0.8, RAMP_FROM_ANY, &r) == RAMP_NEVER, "never");
	CHECK(ramp_time(s, 0, 0.8, RAMP_FROM_ANY, &r) == RAMP_NEVER, "empty");
	/* a step: equal neighbours need no interpolation */
	s[0].util = 0;
	s[1].util = 1024;
	CHECK(ramp_time(s, 2, 1.0, RAMP_FROM_ANY, &r) == RAMP_OK && near(r.cross, 0.1, 1e-9),
	      "step cross %.3f", r.cross);
}

static void test_ramp_after_initial_high(void)
{
	/* forked above the target, slept to 0, ramped again */
	struct util_sample s[] = {
		{ 0.00, 0, 600, 0, 0 }, { 0.01, 0, 650, 0, 0 },
		{ 0.10, 0, 20, 0, 0 }, { 0.60, 0, 0, 0, 0 },
		{ 0.62, 0, 300, 0, 0 }, { 0.64, 0, 600, 0, 0 },
	};
	struct ramp r;

	CHECK(ramp_time(s, 6, 0.5, RAMP_FROM_ANY, &r) == RAMP_OK, "second ramp found");
	CHECK(near(r.start, 0.60, 1e-9) && r.from == 0, "start %.2f from %lu",
	      r.start, r.from);
	CHECK(near(r.cross, 0.62 + 0.02 * 212.0 / 300, 1e-9), "cross %.5f",
	      r.cross);
}

static void test_ramp_from(void)
{
	/* a ramp from 500 (a fork), a sleep to 0, a ramp from 0 */
	struct util_sample s[] = {
		{ 0.00, 0, 500, 0, 0 }, { 0.05, 0, 900, 0, 0 },
		{ 0.60, 0, 3, 0, 0 }, { 0.70, 0, 700, 0, 0 },
		{ 0.72, 0, 850, 0, 0 },
	};
	struct ramp r;

	CHECK(ramp_time(s, 5, 0.8, RAMP_FROM_ANY, &r) == RAMP_OK &&
	      r.from == 500, "first ramp, from %lu", r.from);
	CHECK(ramp_time(s, 5, 0.8, 50, &r) == RAMP_OK && r.from == 3 &&
	      near(r.start, 0.60, 1e-9), "ramp from rest, from %lu", r.from);
	CHECK(ramp_time(s, 5, 0.8, 2, &r) == RAMP_NEVER, "none from <= 2");
}

static void test_ramp_floor(void)
{
	/* a blocked update at 0 while asleep, the wakeup at 1: start there */
	struct util_sample s[] = {
		{ 0.00, 0, 900, 0, 0 }, { 0.30, 0, 0, 0, 0 },
		{ 0.80, 0, 1, 0, 0 }, { 0.90, 0, 900, 0, 0 },
	};
	struct ramp r;

	CHECK(ramp_time(s, 4, 0.8, RAMP_FROM_ANY, &r) == RAMP_OK &&
	      near(r.start, 0.80, 1e-9) && r.from == 1,
	      "start %.2f from %lu", r.start, r.from);
}

static void test_residency(void)
{
	struct freq_event ev[] = {
		{ 0.5, 1600000 }, { 1.0, 3400000 }, { 1.5, 1600000 },
		{ 2.0, 2000000 },
	};
	struct residency res[4];
	double unknown;
	size_t n;

	n = freq_residency(ev, 4, 3.0, res, 4, &unknown);
	CHECK(n == 3, "three frequencies, got %zu", n);
	CHECK(near(unknown, 0.5, 1e-9), "unknown %.3f", unknown);
	CHECK(res[0].khz == 1600000 && near(res[0].seconds, 1.0, 1e-9),
	      "1.6 GHz %.3f", res[0].seconds);
	CHECK(res[1].khz == 2000000 && near(res[1].seconds, 1.0, 1e-9),
	      "2.0 GHz %.3f", res[1].seconds);
	CHECK(res[2].khz == 3400000 && near(res[2].seconds, 0.5, 1e-9),
	      "3.4 GHz %.3f", res[2].seconds);
	n = freq_residency(ev, 4, 3.0, res, 1, &unknown);
	CHECK(n == 1 && res[0].khz == 1600000, "capped output");
	n = freq_residency(ev, 0, 3.0, res, 4, &unknown);
	CHECK(n == 0 && near(unknown, 3.0, 1e-9), "no events");
}

static void test_cap_summary(void)
{
	struct cap_sample s[] = {
		{ 1.0, 1024, 1024, 0 }, { 2.0, 512, 1024, 512 },
	};
	struct summary m;

	cap_summary(s, 2, CAP_PRESSURE, 4.0, &m);
	/* 0 for 1 s, 512 for 2 s */
	CHECK(m.min == 0 && m.max == 512 && m.last == 512, "min/max/last");
	CHECK(near(m.mean, 1024.0 / 3, 1e-6), "mean %.3f", m.mean);
	cap_summary(s, 2, CAP_CAPACITY, 2.0, &m);
	CHECK(near(m.mean, 1024, 1e-6), "mean at t_end == last sample %.1f",
	      m.mean);
	cap_summary(s, 0, CAP_CAPACITY, 2.0, &m);
	CHECK(m.n == 0 && m.max == 0, "empty");
}

/* A cap worth p from t = 1 s, lifted at t = 2 s, halflife h, ticks dt. */
static size_t therm_closed_form(struct therm_sample *s, size_t max,
				unsigned long p, double h, double dt)
{
	double t, lifted_at = 0;
	size_t n = 0;

	for (t = 0.5; t < 3.0 && n < max; t += dt) {
		struct therm_sample *x = &s[n++];

		x->t = t;
		if (t < 1.0) {
			x->instant = x->avg = 0;
		} else if (t < 2.0) {
			x->instant = p;
			x->avg = (unsigned long)(p * (1 - pow(0.5, (t - 1.0) / h)) + 0.5);
			lifted_at = x->avg;
		} else {
			x->instant = 0;
			x->avg = (unsigned long)(lifted_at * pow(0.5, (t - 2.0) / h) + 0.5);
		}
	}
	return n;
}

static void test_therm_steps(void)
{
	static struct therm_sample s[1000];
	struct therm_step st[4];
	struct summary m;
	size_t n, k;

	n = therm_closed_form(s, 1000, 542, 0.25, 0.004);
	k = therm_steps(s, n, st, 4);
	CHECK(k == 2, "two steps, got %zu", k);
	CHECK(near(st[0].t, 1.0, 0.004) && st[0].from == 0 && st[0].to == 542,
	      "cap: at %.3f from %lu to %lu", st[0].t, st[0].from, st[0].to);
	CHECK(near(st[0].half, 0.25, 0.005), "cap: half after %.4f s", st[0].half);
	CHECK(st[1].to == 0 && st[1].from > 500, "lift: from %lu to %lu",
	      st[1].from, st[1].to);
	CHECK(near(st[1].half, 0.25, 0.005), "lift: half after %.4f s", st[1].half);

	/* samples 0.1 s and 0.3 s after the cap only: still one halflife */
	n = therm_closed_form(s, 1000, 542, 0.25, 0.004);
	for (k = 0; k < n && !s[k].instant; k++)
		;
	s[k + 1] = s[k + 25];
	s[k + 2] = s[k + 75];
	s[k + 3] = s[n - 1];
	CHECK(therm_steps(s, k + 3, st, 4) == 1 && near(st[0].half, 0.25, 0.003),
	      "sparse: half %.4f", st[0].half);

	/* no decay: the average jumps with the cap */
	n = therm_closed_form(s, 1000, 542, 0.25, 0.004);
	for (k = 0; k < n; k++)
		s[k].avg = s[k].instant;
	k = therm_steps(s, n, st, 4);
	CHECK(k == 2 && st[0].half == 0 && st[1].half == 0,
	      "no decay: %zu steps, half %.4f", k, k ? st[0].half : -1.0);

	/* a step the trace ends before the average got half way */
	n = therm_closed_form(s, 1000, 542, 4.0, 0.004);
	k = therm_steps(s, n, st, 1);
	CHECK(k == 1 && st[0].half < 0, "not reached: half %.3f", st[0].half);

	/* a trace that starts with the cap: the first sample is the step */
	n = therm_closed_form(s, 1000, 542, 0.25, 0.004);
	for (k = 0; k < n && !s[k].instant; k++)
		;
	CHECK(therm_steps(s + k, n - k, st, 4) == 2 && st[0].from == 0 &&
	      near(st[0].half, 0.25, 0.005), "first sample: from %lu half %.4f",
	      st[0].from, st[0].half);
	/* ... and one that starts on the way: half way in a halflife still */
	CHECK(therm_steps(s + k + 50, n - k - 50, st, 4) == 2 &&
	      st[0].from > 200 && near(st[0].half, 0.25, 0.005),
	      "on the way: from %lu half %.4f", st[0].from, st[0].half);

	/* a step below THERM_MIN_STEP is no step */
	n = therm_closed_form(s, 1000, THERM_MIN_STEP - 1, 0.25, 0.004);
	CHECK(therm_steps(s, n, st, 4) == 0, "small steps skipped");

	/* 0 for 0.5 s, 542 for 1 s, 0 for 1 s */
	n = therm_closed_form(s, 1000, 542, 0.25, 0.004);
	therm_summary(s, n, THERM_INSTANT, 3.0, &m);
	CHECK(m.min == 0 && m.max == 542 && m.last == 0 &&
	      near(m.mean, 542 / 2.5, 1.5), "instant mean %.1f", m.mean);
	therm_summary(s, n, THERM_AVG, 3.0, &m);
	CHECK(m.max < 542 && m.max > 500 && m.mean < 542 / 2.5 + 40 &&
	      m.mean > 542 / 2.5 - 40, "avg max %lu mean %.1f", m.max, m.mean);
	therm_summary(s, 0, THERM_AVG, 3.0, &m);
	CHECK(m.n == 0 && m.max == 0, "empty");
}

static void test_model(void)
{
	struct trace tr;
	struct util_sample s = { 0.1, 1, 10, 10, 10 };
	struct therm_sample th = { 0.3, 100, 50 };
	struct task *a, *b;

	trace_init(&tr, 2);
	a = trace_task(&tr, 42, "spin");
	task_add(a, &s);
	b = trace_task(&tr, 42, "renamed");
	CHECK(a == b && tr.ntasks == 1 && !strcmp(b->comm, "renamed"),
	      "same pid, same task");
	b = trace_task(&tr, 43, "a-comm-longer-than-sixteen");
	CHECK(strlen(b->comm) == COMM_LEN - 1, "comm truncated");
	CHECK(trace_cpu(&tr, 2) == NULL && trace_cpu(&tr, -1) == NULL &&
	      trace_cpu(&tr, 1) != NULL, "cpu range");
	cpu_add_freq(trace_cpu(&tr, 1), 0.2, 1000);
	CHECK(tr.cpus[1].nfreq == 1, "freq added");
	cpu_add_therm(trace_cpu(&tr, 0), &th);
	CHECK(tr.cpus[0].ntherm == 1 && tr.cpus[0].therm[0].avg == 50,
	      "thermal sample added");
	trace_free(&tr);
}

static void test_escaping(void)
{
	char buf[128];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	json_string(f, "a\"b\\c\n");
	fputc('|', f);
	csv_string(f, "plain");
	fputc('|', f);
	csv_string(f, "x,\"y\"");
	fputc('\0', f);
	fclose(f);
	CHECK(!strcmp(buf, "\"a\\\"b\\\\c\\u000a\"|plain|\"x,\"\"y\"\"\""),
	      "got %s", buf);
}

int main(void)
{
	test_ramp_closed_form();
	test_ramp_starts_at_trough();
	test_ramp_edges();
	test_ramp_after_initial_high();
	test_ramp_from();
	test_ramp_floor();
	test_residency();
	test_cap_summary();
	test_therm_steps();
	test_model();
	test_escaping();
	printf("test_stats: %d checks, %d failed\n", tests, failures);
	return failures ? 1 : 0;
}
