// SPDX-License-Identifier: GPL-2.0
/* schedtrace: text and JSON summaries. */
#include <fnmatch.h>
#include <string.h>

#include "read.h"
#include "report.h"
#include "stats.h"

#define MAX_FREQS 64
#define MAX_STEPS 16

int task_selected(const struct options *o, const struct task *tk)
{
	if (o->pid && tk->pid != o->pid)
		return 0;
	if (o->comm && fnmatch(o->comm, tk->comm, 0))
		return 0;
	return tk->n > 0;
}

static void text_tasks(FILE *f, const struct trace *tr, const struct options *o)
{
	size_t i;
	int j;

	fprintf(f, "tasks (util_avg of sched_events:pelt_se, max 1024):\n");
	for (i = 0; i < tr->ntasks; i++) {
		const struct task *tk = &tr->tasks[i];

		if (!task_selected(o, tk))
			continue;
		fprintf(f, "  %-16s pid %-6d samples %-6zu util max %-4lu migrations %lu\n",
			tk->comm, tk->pid, tk->n, util_max(tk->s, tk->n),
			tk->migrations);
		for (j = 0; j < o->nfractions; j++) {
			struct ramp r;

			switch (ramp_time(tk->s, tk->n, o->fractions[j],
					  o->ramp_from, &r)) {
			case RAMP_OK:
				fprintf(f, "    util %.0f%%: %.1f ms (from util %lu at %.6f s)\n",
					o->fractions[j] * 100, r.dt * 1e3,
					r.from, r.start);
				break;
			case RAMP_NEVER:
				fprintf(f, "    util %.0f%%: no ramp reached it\n",
					o->fractions[j] * 100);
				break;
			case RAMP_ABOVE:
				fprintf(f, "    util %.0f%%: above it throughout\n",
					o->fractions[j] * 100);
				break;
			}
		}
	}
}

static void text_thermal(FILE *f, const struct trace *tr, const struct cpu *c)
{
	struct therm_step st[MAX_STEPS];
	struct summary in, avg;
	size_t k, n;

	therm_summary(c->therm, c->ntherm, THERM_INSTANT, tr->t_end, &in);
	therm_summary(c->therm, c->ntherm, THERM_AVG, tr->t_end, &avg);
	fprintf(f, "  thermal pressure instant min %lu mean %.0f max %lu; "
		"avg min %lu mean %.0f max %lu\n", in.min, in.mean, in.max,
		avg.min, avg.mean, avg.max);
	n = therm_steps(c->therm, c->ntherm, st, MAX_STEPS);
	for (k = 0; k < n; k++) {
		fprintf(f, "    step at %.6f s, avg %lu -> %lu: ", st[k].t,
			st[k].from, st[k].to);
		if (st[k].half >= 0)
			fprintf(f, "half way after %.1f ms\n", st[k].half * 1e3);
		else
			fprintf(f, "not half way by the next step or the end\n");
	}
}

static void text_cpus(FILE *f, const struct trace *tr, const struct options *o)
{
	struct residency res[MAX_FREQS];
	struct summary cap, pres;
	double unknown;
	size_t k, n;
	int i;

	for (i = 0; i < tr->nr_cpus; i++) {
		const struct cpu *c = &tr->cpus[i];

		fprintf(f, "cpu%d:", i);
		if (o->have & NEED_MIGRATIONS)
			fprintf(f, " migrations in %lu out %lu", c->migrations_in,
				c->migrations_out);
		if (o->have & NEED_STEAL)
			fprintf(f, " steals %lu stolen from it %lu", c->steals,
				c->stolen_from);
		fputc('\n', f);
		if ((o->have & NEED_CAPACITY) && c->ncap) {
			cap_summary(c->cap, c->ncap, CAP_CAPACITY, tr->t_end, &cap);
			cap_summary(c->cap, c->ncap, CAP_PRESSURE, tr->t_end, &pres);
			fprintf(f, "  capacity min %lu mean %.0f max %lu (orig %lu); "
				"pressure min %lu mean %.0f max %lu\n",
				cap.min, cap.mean, cap.max, c->cap[c->ncap - 1].capacity_orig,
				pres.min, pres.mean, pres.max);
		}
		if ((o->have & NEED_THERMAL) && c->ntherm)
			text_thermal(f, tr, c);
		if (!(o->have & NEED_FREQ))
			continue;
		n = freq_residency(c->freq, c->nfreq, tr->t_end, res, MAX_FREQS,
				   &unknown);
		if (!n) {
			fprintf(f, "  no frequency change\n");
			continue;
		}
		fprintf(f, "  frequency residency (kHz: s):");
		for (k = 0; k < n; k++)
			fprintf(f, " %lu: %.3f", res[k].khz, res[k].seconds);
		fprintf(f, "; before the first change %.3f\n", unknown);
	}
}

void report_text(FILE *f, const struct trace *tr, const struct options *o)
{
	fprintf(f, "trace %s: %.3f s, %d CPUs\n", o->trace, tr->t_end,
		tr->nr_cpus);
	if (o->have & NEED_UTIL)
		text_tasks(f, tr, o);
	text_cpus(f, tr, o);
}

static void json_ramps(FILE *f, const struct task *tk, const struct options *o)
{
	int j;

	fprintf(f, "\"ramps\": [");
	for (j = 0; j < o->nfractions; j++) {
		struct ramp r;
		enum ramp_result rr = ramp_time(tk->s, tk->n, o->fractions[j],
						 o->ramp_from, &r);

		fprintf(f, "%s{\"fraction\": %g, ", j ? ", " : "", o->fractions[j]);
		if (rr == RAMP_OK)
			fprintf(f, "\"ms\": %.3f, \"start_s\": %.6f, \"from\": %lu}",
				r.dt * 1e3, r.start, r.from);
		else
			fprintf(f, "\"ms\": null, \"reason\": \"%s\"}",
				rr == RAMP_NEVER ? "not reached" : "above throughout");
	}
	fprintf(f, "]");
}

static void json_tasks(FILE *f, const struct trace *tr, const struct options *o)
{
	int first = 1;
	size_t i;

	fprintf(f, "  \"tasks\": [");
	for (i = 0; i < tr->ntasks; i++) {
		const struct task *tk = &tr->tasks[i];

		if (!task_selected(o, tk))
			continue;
		fprintf(f, "%s\n    {\"pid\": %d, \"comm\": ", first ? "" : ",",
			tk->pid);
		json_string(f, tk->comm);
		fprintf(f, ", \"samples\": %zu, \"util_max\": %lu, \"migrations\": %lu, ",
			tk->n, util_max(tk->s, tk->n), tk->migrations);
		json_ramps(f, tk, o);
		fprintf(f, "}");
		first = 0;
	}
	fprintf(f, "\n  ],\n");
}

/* ", NAME: {...}": a summary as the next member of an object. */
static void json_summary(FILE *f, const char *name, const struct summary *s)
{
	fprintf(f, ", \"%s\": {\"samples\": %zu, \"min\": %lu, \"mean\": %.1f, "
		"\"max\": %lu, \"last\": %lu}", name, s->n, s->min, s->mean,
		s->max, s->last);
}

static void json_thermal(FILE *f, const struct trace *tr, const struct cpu *c)
{
	struct therm_step st[MAX_STEPS];
	struct summary s;
	size_t k, n;

	therm_summary(c->therm, c->ntherm, THERM_INSTANT, tr->t_end, &s);
	json_summary(f, "thermal_instant", &s);
	therm_summary(c->therm, c->ntherm, THERM_AVG, tr->t_end, &s);
	json_summary(f, "thermal_avg", &s);
	n = therm_steps(c->therm, c->ntherm, st, MAX_STEPS);
	fprintf(f, ", \"thermal_steps\": [");
	for (k = 0; k < n; k++) {
		fprintf(f, "%s{\"t_s\": %.6f, \"from\": %lu, \"to\": %lu, ",
			k ? ", " : "", st[k].t, st[k].from, st[k].to);
		if (st[k].half >= 0)
			fprintf(f, "\"half_ms\": %.3f}", st[k].half * 1e3);
		else
			fprintf(f, "\"half_ms\": null}");
	}
	fprintf(f, "]");
}

static void json_cpu(FILE *f, const struct trace *tr, const struct options *o,
		     int i)
{
	const struct cpu *c = &tr->cpus[i];
	struct residency res[MAX_FREQS];
	struct summary s;
	double unknown;
	size_t k, n;

	fprintf(f, "    {\"cpu\": %d", i);
	if (o->have & NEED_MIGRATIONS)
		fprintf(f, ", \"migrations_in\": %lu, \"migrations_out\": %lu",
			c->migrations_in, c->migrations_out);
	if (o->have & NEED_STEAL)
		fprintf(f, ", \"steals\": %lu, \"stolen_from\": %lu", c->steals,
			c->stolen_from);
	if (o->have & NEED_CAPACITY) {
		cap_summary(c->cap, c->ncap, CAP_CAPACITY, tr->t_end, &s);
		json_summary(f, "capacity", &s);
		cap_summary(c->cap, c->ncap, CAP_PRESSURE, tr->t_end, &s);
		json_summary(f, "pressure", &s);
	}
	if (o->have & NEED_THERMAL)
		json_thermal(f, tr, c);
	if (o->have & NEED_FREQ) {
		n = freq_residency(c->freq, c->nfreq, tr->t_end, res, MAX_FREQS,
				   &unknown);
		fprintf(f, ", \"freq_unknown_s\": %.6f, \"freq_residency\": [",
			unknown);
		for (k = 0; k < n; k++)
			fprintf(f, "%s{\"khz\": %lu, \"s\": %.6f}", k ? ", " : "",
				res[k].khz, res[k].seconds);
		fprintf(f, "]");
	}
	fprintf(f, "}");
}

void report_json(FILE *f, const struct trace *tr, const struct options *o)
{
	unsigned int b;
	int i, first = 1;

	fprintf(f, "{\n  \"trace\": ");
	json_string(f, o->trace);
	fprintf(f, ",\n  \"duration_s\": %.6f,\n  \"cpus\": %d,\n", tr->t_end,
		tr->nr_cpus);
	fprintf(f, "  \"missing_events\": [");
	for (b = 1; b < NEED_ALL; b <<= 1)
		if (!(o->have & b)) {
			fprintf(f, "%s", first ? "" : ", ");
			json_string(f, need_events(b));
			first = 0;
		}
	fprintf(f, "],\n");
	if (o->have & NEED_UTIL)
		json_tasks(f, tr, o);
	fprintf(f, "  \"per_cpu\": [\n");
	for (i = 0; i < tr->nr_cpus; i++) {
		json_cpu(f, tr, o, i);
		fprintf(f, "%s\n", i + 1 < tr->nr_cpus ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}
