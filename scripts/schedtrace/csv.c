// SPDX-License-Identifier: GPL-2.0
/* schedtrace: CSV files and summary.json in the output directory. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "read.h"
#include "report.h"
#include "stats.h"

#define MAX_FREQS 64

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		fprintf(stderr, "schedtrace: %s: %s\n", path, strerror(errno));
	return f;
}

static int close_out(FILE *f, const char *name)
{
	int bad = ferror(f);

	if (fclose(f) || bad) {
		fprintf(stderr, "schedtrace: writing %s failed\n", name);
		return -1;
	}
	return 0;
}

static int csv_util(const char *dir, const struct trace *tr,
		    const struct options *o)
{
	FILE *f = open_out(dir, "util.csv");
	size_t i, k;

	if (!f)
		return -1;
	fprintf(f, "pid,comm,time_s,cpu,util,runnable,load\n");
	for (i = 0; i < tr->ntasks; i++) {
		const struct task *tk = &tr->tasks[i];

		if (!task_selected(o, tk))
			continue;
		for (k = 0; k < tk->n; k++) {
			const struct util_sample *s = &tk->s[k];

			fprintf(f, "%d,", tk->pid);
			csv_string(f, tk->comm);
			fprintf(f, ",%.6f,%d,%lu,%lu,%lu\n", s->t, s->cpu,
				s->util, s->runnable, s->load);
		}
	}
	return close_out(f, "util.csv");
}

static int csv_freq(const char *dir, const struct trace *tr)
{
	struct residency res[MAX_FREQS];
	FILE *f = open_out(dir, "freq.csv"), *g;
	double unknown;
	size_t k, n;
	int i;

	if (!f)
		return -1;
	fprintf(f, "cpu,time_s,khz\n");
	for (i = 0; i < tr->nr_cpus; i++)
		for (k = 0; k < tr->cpus[i].nfreq; k++)
			fprintf(f, "%d,%.6f,%lu\n", i, tr->cpus[i].freq[k].t,
				tr->cpus[i].freq[k].khz);
	if (close_out(f, "freq.csv"))
		return -1;
	g = open_out(dir, "residency.csv");
	if (!g)
		return -1;
	fprintf(g, "cpu,khz,seconds\n");
	for (i = 0; i < tr->nr_cpus; i++) {
		const struct cpu *c = &tr->cpus[i];

		n = freq_residency(c->freq, c->nfreq, tr->t_end, res, MAX_FREQS,
				   &unknown);
		for (k = 0; k < n; k++)
			fprintf(g, "%d,%lu,%.6f\n", i, res[k].khz, res[k].seconds);
	}
	return close_out(g, "residency.csv");
}

static int csv_capacity(const char *dir, const struct trace *tr)
{
	FILE *f = open_out(dir, "capacity.csv"), *g;
	size_t k;
	int i;

	if (!f)
		return -1;
	fprintf(f, "cpu,time_s,capacity,capacity_orig,pressure\n");
	for (i = 0; i < tr->nr_cpus; i++)
		for (k = 0; k < tr->cpus[i].ncap; k++) {
			const struct cap_sample *s = &tr->cpus[i].cap[k];

			fprintf(f, "%d,%.6f,%lu,%lu,%lu\n", i, s->t, s->capacity,
				s->capacity_orig, s->pressure);
		}
	if (close_out(f, "capacity.csv"))
		return -1;
	g = open_out(dir, "hw_pressure.csv");
	if (!g)
		return -1;
	fprintf(g, "cpu,time_s,pressure\n");
	for (i = 0; i < tr->nr_cpus; i++)
		for (k = 0; k < tr->cpus[i].nhw; k++)
			fprintf(g, "%d,%.6f,%lu\n", i, tr->cpus[i].hw[k].t,
				tr->cpus[i].hw[k].pressure);
	return close_out(g, "hw_pressure.csv");
}

static int csv_thermal(const char *dir, const struct trace *tr)
{
	FILE *f = open_out(dir, "thermal.csv");
	size_t k;
	int i;

	if (!f)
		return -1;
	fprintf(f, "cpu,time_s,instant,avg\n");
	for (i = 0; i < tr->nr_cpus; i++)
		for (k = 0; k < tr->cpus[i].ntherm; k++) {
			const struct therm_sample *s = &tr->cpus[i].therm[k];

			fprintf(f, "%d,%.6f,%lu,%lu\n", i, s->t, s->instant,
				s->avg);
		}
	return close_out(f, "thermal.csv");
}

static int csv_cpus(const char *dir, const struct trace *tr)
{
	FILE *f = open_out(dir, "cpus.csv");
	int i;

	if (!f)
		return -1;
	fprintf(f, "cpu,migrations_in,migrations_out,steals,stolen_from\n");
	for (i = 0; i < tr->nr_cpus; i++)
		fprintf(f, "%d,%lu,%lu,%lu,%lu\n", i, tr->cpus[i].migrations_in,
			tr->cpus[i].migrations_out, tr->cpus[i].steals,
			tr->cpus[i].stolen_from);
	return close_out(f, "cpus.csv");
}

int report_csv(const char *dir, const struct trace *tr,
	       const struct options *o)
{
	FILE *f;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "schedtrace: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	if ((o->have & NEED_UTIL) && csv_util(dir, tr, o))
		return -1;
	if ((o->have & NEED_FREQ) && csv_freq(dir, tr))
		return -1;
	if ((o->have & NEED_CAPACITY) && csv_capacity(dir, tr))
		return -1;
	if ((o->have & NEED_THERMAL) && csv_thermal(dir, tr))
		return -1;
	if (csv_cpus(dir, tr))
		return -1;
	f = open_out(dir, "summary.json");
	if (!f)
		return -1;
	report_json(f, tr, o);
	return close_out(f, "summary.json");
}
