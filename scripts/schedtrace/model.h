/* SPDX-License-Identifier: GPL-2.0 */
/* schedtrace: what a trace is reduced to before any statistics. */
#ifndef SCHEDTRACE_MODEL_H
#define SCHEDTRACE_MODEL_H

#include <stddef.h>

#define COMM_LEN 16

/* One PELT sample of a task (sched_events:pelt_se). */
struct util_sample {
	double t;		/* seconds since the trace's first event */
	int cpu;
	unsigned long util, runnable, load;
};

struct task {
	int pid;
	char comm[COMM_LEN];
	struct util_sample *s;
	size_t n, cap;
	unsigned long migrations;
};

/* A frequency change (power:cpu_frequency), kHz from t on. */
struct freq_event {
	double t;
	unsigned long khz;
};

/* sched_events:cpu_capacity, or sched_events:pelt_hw in .pressure. */
struct cap_sample {
	double t;
	unsigned long capacity, capacity_orig, pressure;
};

/* sched_events:thermal_pressure: the cap's pressure now and its average. */
struct therm_sample {
	double t;
	unsigned long instant, avg;
};

struct cpu {
	struct freq_event *freq;
	size_t nfreq, capfreq;
	struct cap_sample *cap;
	size_t ncap, capcap;
	struct cap_sample *hw;		/* pressure = pelt_hw util */
	size_t nhw, caphw;
	struct therm_sample *therm;
	size_t ntherm, captherm;
	unsigned long migrations_in, migrations_out;
	unsigned long steals;		/* tasks this CPU stole */
	unsigned long stolen_from;	/* tasks stolen from it */
};

struct trace {
	double t_end;			/* last event, seconds */
	int nr_cpus;
	struct cpu *cpus;
	struct task *tasks;
	size_t ntasks, captasks;
	/* records seen per event kind, to name what is missing */
	unsigned long n_pelt_se, n_freq, n_cap, n_hw, n_migrate, n_steal;
	unsigned long n_therm;
};

void trace_init(struct trace *tr, int nr_cpus);
void trace_free(struct trace *tr);
struct task *trace_task(struct trace *tr, int pid, const char *comm);
struct cpu *trace_cpu(struct trace *tr, int cpu);
void task_add(struct task *tk, const struct util_sample *s);
void cpu_add_freq(struct cpu *c, double t, unsigned long khz);
void cpu_add_cap(struct cpu *c, const struct cap_sample *s);
void cpu_add_hw(struct cpu *c, double t, unsigned long pressure);
void cpu_add_therm(struct cpu *c, const struct therm_sample *s);

#endif
