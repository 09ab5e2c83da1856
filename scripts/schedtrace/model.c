// SPDX-License-Identifier: GPL-2.0
/* schedtrace: growable per-task and per-CPU series. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 64;

	if (need <= *cap)
		return p;
	while (n < need)
		n *= 2;
	p = realloc(p, n * size);
	if (!p) {
		fprintf(stderr, "schedtrace: out of memory\n");
		exit(1);
	}
	*cap = n;
	return p;
}

void trace_init(struct trace *tr, int nr_cpus)
{
	memset(tr, 0, sizeof(*tr));
	tr->nr_cpus = nr_cpus > 0 ? nr_cpus : 1;
	tr->cpus = calloc(tr->nr_cpus, sizeof(*tr->cpus));
	if (!tr->cpus) {
		fprintf(stderr, "schedtrace: out of memory\n");
		exit(1);
	}
}

void trace_free(struct trace *tr)
{
	size_t i;

	for (i = 0; i < tr->ntasks; i++)
		free(tr->tasks[i].s);
	free(tr->tasks);
	for (i = 0; i < (size_t)tr->nr_cpus; i++) {
		free(tr->cpus[i].freq);
		free(tr->cpus[i].cap);
		free(tr->cpus[i].hw);
		free(tr->cpus[i].therm);
	}
	free(tr->cpus);
	memset(tr, 0, sizeof(*tr));
}

/* The task with this pid, created on first use; the latest comm wins. */
struct task *trace_task(struct trace *tr, int pid, const char *comm)
{
	struct task *tk;
	size_t i;

	for (i = 0; i < tr->ntasks; i++) {
		tk = &tr->tasks[i];
		if (tk->pid == pid)
			goto found;
	}
	tr->tasks = grow(tr->tasks, &tr->captasks, tr->ntasks + 1,
			 sizeof(*tr->tasks));
	tk = &tr->tasks[tr->ntasks++];
	memset(tk, 0, sizeof(*tk));
	tk->pid = pid;
found:
	if (comm && *comm) {
		strncpy(tk->comm, comm, COMM_LEN - 1);
		tk->comm[COMM_LEN - 1] = '\0';
	}
	return tk;
}

/* NULL for a CPU number outside the trace's range. */
struct cpu *trace_cpu(struct trace *tr, int cpu)
{
	if (cpu < 0 || cpu >= tr->nr_cpus)
		return NULL;
	return &tr->cpus[cpu];
}

void task_add(struct task *tk, const struct util_sample *s)
{
	tk->s = grow(tk->s, &tk->cap, tk->n + 1, sizeof(*tk->s));
	tk->s[tk->n++] = *s;
}

void cpu_add_freq(struct cpu *c, double t, unsigned long khz)
{
	c->freq = grow(c->freq, &c->capfreq, c->nfreq + 1, sizeof(*c->freq));
	c->freq[c->nfreq].t = t;
	c->freq[c->nfreq].khz = khz;
	c->nfreq++;
}

void cpu_add_cap(struct cpu *c, const struct cap_sample *s)
{
	c->cap = grow(c->cap, &c->capcap, c->ncap + 1, sizeof(*c->cap));
	c->cap[c->ncap++] = *s;
}

void cpu_add_hw(struct cpu *c, double t, unsigned long pressure)
{
	c->hw = grow(c->hw, &c->caphw, c->nhw + 1, sizeof(*c->hw));
	memset(&c->hw[c->nhw], 0, sizeof(*c->hw));
	c->hw[c->nhw].t = t;
	c->hw[c->nhw].pressure = pressure;
	c->nhw++;
}

void cpu_add_therm(struct cpu *c, const struct therm_sample *s)
{
	c->therm = grow(c->therm, &c->captherm, c->ntherm + 1,
			sizeof(*c->therm));
	c->therm[c->ntherm++] = *s;
}
