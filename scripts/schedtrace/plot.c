// SPDX-License-Identifier: GPL-2.0
/* schedtrace: gnuplot PNGs from the CSV files of the output directory. */
#include <stdio.h>
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
	for (j = 0; j < n; j++)
		fprintf(g, "%s'%s/util.csv' every ::1 using 3:($1==%d ? $5 : 1/0) "
			"with steps title '%s %d'", j ? ", " : "", dir,
			pick[j]->pid, pick[j]->comm, pick[j]->pid);
	fprintf(g, "\n");
}

/* One step curve per CPU of column col / div of csv (cpu in column 1). */
static void plot_per_cpu(FILE *g, const char *dir, const struct trace *tr,
			 const char *csv, int col, int div, const char *what,
			 const char *style, int first)
{
	int i;

	for (i = 0; i < tr->nr_cpus; i++) {
		fprintf(g, "%s'%s/%s' every ::1 using 2:($1==%d ? $%d / %d.0 : 1/0) "
			"with steps %s title 'cpu%d %s'", first ? "plot " : ", ",
			dir, csv, i, col, div, style, i, what);
		first = 0;
	}
}

int report_plots(const char *dir, const struct trace *tr,
		 const struct options *o)
{
	FILE *g = popen("gnuplot", "w");
	int st;

	if (!g) {
		fprintf(stderr, "schedtrace: cannot run gnuplot\n");
		return -1;
	}
	if (o->have & NEED_UTIL)
		plot_util(g, dir, tr, o);
	if ((o->have & NEED_FREQ) && tr->n_freq) {
		header(g, dir, "freq.png", "CPU frequency", "MHz");
		plot_per_cpu(g, dir, tr, "freq.csv", 3, 1000, "", "", 1);
		fprintf(g, "\n");
	}
	if ((o->have & NEED_CAPACITY) && tr->n_cap) {
		header(g, dir, "pressure.png", "capacity and pressure",
		       "capacity units (of 1024)");
		plot_per_cpu(g, dir, tr, "capacity.csv", 3, 1, "capacity", "", 1);
		plot_per_cpu(g, dir, tr, "capacity.csv", 5, 1, "pressure",
			     "dashtype 2", 0);
		fprintf(g, "\n");
	}
	st = pclose(g);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "schedtrace: gnuplot failed (is gnuplot-nox installed?)\n");
		return -1;
	}
	return 0;
}
