/* SPDX-License-Identifier: GPL-2.0 */
/* schedtrace: text, CSV, JSON and gnuplot output. */
#ifndef SCHEDTRACE_REPORT_H
#define SCHEDTRACE_REPORT_H

#include <stdio.h>

#include "model.h"

#define MAX_FRACTIONS 8

struct options {
	const char *trace;
	const char *out;		/* directory for CSV, JSON, PNG */
	double fractions[MAX_FRACTIONS];
	int nfractions;
	unsigned long ramp_from;	/* only ramps from this util or below */
	int pid;			/* 0: every task */
	const char *comm;		/* a pattern, NULL: every task */
	int json;			/* summary as JSON on stdout */
	int plot;
	unsigned int have;		/* analyses the trace allows */
};

int task_selected(const struct options *o, const struct task *tk);
void report_text(FILE *f, const struct trace *tr, const struct options *o);
void report_json(FILE *f, const struct trace *tr, const struct options *o);
int report_csv(const char *dir, const struct trace *tr,
	       const struct options *o);
int report_plots(const char *dir, const struct trace *tr,
		 const struct options *o);

#endif
