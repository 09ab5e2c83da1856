// SPDX-License-Identifier: GPL-2.0
/* schedtrace: gnuplot PNGs from the CSV files of the output directory. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "read.h"
#include "report.h"
#include "stats.h"

#define MAX_PLOTTED_TASKS 8

static void header(FILE *g, const char *dir, const char *png,
		   const char *title, const char *ylabel)
{
	fprintf(g, "set terminal pngcairo size 1000,600 noenhanced\n"
		"set output '%s/%s'\nset datafile separator ','\n"
		"set key outside right\nset grid\nset autoscale y\nset title '%s'\n"
		"set xlabel 'time (s)'\nset ylabel '%s'\n",
		dir, png, title, ylabel);
}

/* s inside a single-quoted gnuplot string: a quote is doubled. */
static void gnuplot_string(FILE *g, const char *s)
{
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', g);
		fputc(*s, g);
	}
}

/* The selected tasks with the highest util, at most MAX_PLOTTED_TASKS. */
static void plot_util(FILE *g, const char *dir, const struct trace *tr,
		      const struct options *o)
{
	const struct task *pick[MAX_PLOTTED_TASKS];
	size_t i, n = 0, j;

	for (i = 0; i < tr->ntasks; i++) {
		const struct task *tk = &tr->tasks[i];
		unsigned long m;

		if (!task_selected(o, tk))
			continue;
		m = util_max(tk->s, tk->n);
		if (n < MAX_PLOTTED_TASKS) {
			pick[n++] = tk;
			continue;
		}
		for (j = 0; j < n; j++)
			if (util_max(pick[j]->s, pick[j]->n) < m) {
				pick[j] = tk;
				break;
			}
	}
	if (!n)
		return;
	header(g, dir, "util.png", "task util_avg", "util_avg (of 1024)");
	fprintf(g, "set yrange [0:1100]\nplot ");
	for (j = 0; j < n; j++) {
		fprintf(g, "%s'%s/util.csv' every ::1 using 3:($1==%d ? $5 : 1/0) "
			"with steps title '", j ? ", " : "", dir, pick[j]->pid);
		gnuplot_string(g, pick[j]->comm);
		fprintf(g, " %d'", pick[j]->pid);
	}
	fprintf(g, "\n");
}

/*
 * One step curve per CPU of column col / div of csv (cpu in column 1), for
 * the CPUs flagged in want (every CPU when NULL), after nplotted curves of
 * the same plot.  Returns the number of curves plotted so far.
 */
static int plot_per_cpu(FILE *g, const char *dir, const struct trace *tr,
			const char *csv, int col, int div, const char *what,
			const char *style, const char *want, int nplotted)
{
	int i;

	for (i = 0; i < tr->nr_cpus; i++) {
		if (want && !want[i])
			continue;
		fprintf(g, "%s'%s/%s' every ::1 using 2:($1==%d ? $%d / %d.0 : 1/0) "
			"with steps %s title 'cpu%d %s'", nplotted ? ", " : "plot ",
			dir, csv, i, col, div, style, i, what);
		nplotted++;
	}
	return nplotted;
}

/*
 * The CPUs whose thermal pressure to plot: those that had some, or when
 * none had, those with samples.
 */
static void thermal_cpus(const struct trace *tr, char *want)
{
	int i, any = 0;
	size_t k;

	for (i = 0; i < tr->nr_cpus; i++) {
		const struct cpu *c = &tr->cpus[i];

		want[i] = 0;
		for (k = 0; k < c->ntherm; k++)
			if (c->therm[k].instant || c->therm[k].avg)
				want[i] = any = 1;
	}
	if (!any)
		for (i = 0; i < tr->nr_cpus; i++)
			want[i] = tr->cpus[i].ntherm > 0;
}

/* pressure.png: capacity and pressure of cpu_capacity, thermal pressure. */
static int plot_pressure(FILE *g, const char *dir, const struct trace *tr,
			 const struct options *o)
{
	int cap = (o->have & NEED_CAPACITY) && tr->n_cap;
	int therm = (o->have & NEED_THERMAL) && tr->n_therm;
	char *want;
	int n = 0;

	if (!cap && !therm)
		return 0;
	want = calloc(tr->nr_cpus, 1);
	if (!want) {
		fprintf(stderr, "schedtrace: out of memory\n");
		return -1;
	}
	header(g, dir, "pressure.png", "capacity and pressure",
	       "capacity units (of 1024)");
	if (cap) {
		n = plot_per_cpu(g, dir, tr, "capacity.csv", 3, 1, "capacity",
				 "", NULL, n);
		n = plot_per_cpu(g, dir, tr, "capacity.csv", 5, 1, "pressure",
				 "dashtype 2", NULL, n);
	}
	if (therm) {
		thermal_cpus(tr, want);
		n = plot_per_cpu(g, dir, tr, "thermal.csv", 3, 1,
				 "thermal instant", "dashtype 3", want, n);
		plot_per_cpu(g, dir, tr, "thermal.csv", 4, 1, "thermal avg",
			     "linewidth 2", want, n);
	}
	fprintf(g, "\n");
	free(want);
	return 0;
}

int report_plots(const char *dir, const struct trace *tr,
		 const struct options *o)
{
	FILE *g = popen("gnuplot", "w");
	int st, ret = 0;

	if (!g) {
		fprintf(stderr, "schedtrace: cannot run gnuplot\n");
		return -1;
	}
	if (o->have & NEED_UTIL)
		plot_util(g, dir, tr, o);
	if ((o->have & NEED_FREQ) && tr->n_freq) {
		header(g, dir, "freq.png", "CPU frequency", "MHz");
		plot_per_cpu(g, dir, tr, "freq.csv", 3, 1000, "", "", NULL, 0);
		fprintf(g, "\n");
	}
	if (plot_pressure(g, dir, tr, o))
		ret = -1;
	st = pclose(g);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "schedtrace: gnuplot failed (is gnuplot-nox installed?)\n");
		return -1;
	}
	return ret;
}
