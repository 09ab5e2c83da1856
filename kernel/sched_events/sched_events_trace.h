/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events fed by the scheduler's bare tracepoints.
 *
 * The field names and meanings are an interface (Documentation/tracing.rst):
 * add fields at the end, never rename or reuse one.  Every value is in the
 * scheduler's own units: util, runnable and capacity in [0..1024], load in
 * weight units, pressure as capacity lost.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_events

#if !defined(_SCHED_EVENTS_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SCHED_EVENTS_TRACE_H

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>

#ifndef _SCHED_EVENTS_REGFUNCS
#define _SCHED_EVENTS_REGFUNCS
/*
 * Each event attaches to its bare tracepoint only while it is enabled (see
 * sched_events.c), so that a loaded module costs nothing when not tracing.
 */
#define SCHED_EVENTS_REGFUNCS(ev)				\
	int sched_events_reg_##ev(void);			\
	void sched_events_unreg_##ev(void)

SCHED_EVENTS_REGFUNCS(pelt_cfs);
SCHED_EVENTS_REGFUNCS(pelt_rt);
SCHED_EVENTS_REGFUNCS(pelt_dl);
SCHED_EVENTS_REGFUNCS(pelt_irq);
SCHED_EVENTS_REGFUNCS(pelt_hw);
SCHED_EVENTS_REGFUNCS(pelt_se);
SCHED_EVENTS_REGFUNCS(cpu_capacity);
SCHED_EVENTS_REGFUNCS(overutilized);
SCHED_EVENTS_REGFUNCS(util_est_cfs);
SCHED_EVENTS_REGFUNCS(util_est_se);
SCHED_EVENTS_REGFUNCS(nr_running);
SCHED_EVENTS_REGFUNCS(thermal_pressure);
SCHED_EVENTS_REGFUNCS(steal);
#endif

/* PELT signals of a CFS runqueue (the root one or a task group's). */
TRACE_EVENT_FN(pelt_cfs,

	TP_PROTO(int cpu, u64 cgroup, const struct sched_avg *avg),

	TP_ARGS(cpu, cgroup, avg),

	TP_STRUCT__entry(
		__field(int,		cpu)
		__field(u64,		cgroup)
		__field(unsigned long,	load)
		__field(unsigned long,	runnable)
		__field(unsigned long,	util)
	),

	TP_fast_assign(
		__entry->cpu		= cpu;
		__entry->cgroup		= cgroup;
		__entry->load		= avg->load_avg;
		__entry->runnable	= avg->runnable_avg;
		__entry->util		= avg->util_avg;
	),

	TP_printk("cpu=%d cgroup=%llu load=%lu runnable=%lu util=%lu",
		  __entry->cpu, (unsigned long long)__entry->cgroup,
		  __entry->load, __entry->runnable, __entry->util),

	sched_events_reg_pelt_cfs, sched_events_unreg_pelt_cfs
);

/* PELT signals a runqueue keeps for rt, dl, irq time and hw pressure. */
DECLARE_EVENT_CLASS(sched_events_pelt_rq,

	TP_PROTO(int cpu, const struct sched_avg *avg),

	TP_ARGS(cpu, avg),

	TP_STRUCT__entry(
		__field(int,		cpu)
		__field(unsigned long,	load)
		__field(unsigned long,	runnable)
		__field(unsigned long,	util)
	),

	TP_fast_assign(
		__entry->cpu		= cpu;
		__entry->load		= avg->load_avg;
		__entry->runnable	= avg->runnable_avg;
		__entry->util		= avg->util_avg;
	),

	TP_printk("cpu=%d load=%lu runnable=%lu util=%lu",
		  __entry->cpu, __entry->load, __entry->runnable,
		  __entry->util)
);

#define SCHED_EVENTS_PELT_RQ(ev)					\
DEFINE_EVENT_FN(sched_events_pelt_rq, ev,				\
	TP_PROTO(int cpu, const struct sched_avg *avg),			\
	TP_ARGS(cpu, avg),						\
	sched_events_reg_##ev, sched_events_unreg_##ev)

SCHED_EVENTS_PELT_RQ(pelt_rt);
SCHED_EVENTS_PELT_RQ(pelt_dl);
SCHED_EVENTS_PELT_RQ(pelt_irq);
SCHED_EVENTS_PELT_RQ(pelt_hw);

/*
 * PELT signals of a scheduling entity: a task (pid, comm) or, with
 * CONFIG_FAIR_GROUP_SCHED, a task group's entity (pid -1, empty comm,
 * cgroup set to the group it stands for).
 */
TRACE_EVENT_FN(pelt_se,

	TP_PROTO(int cpu, const struct task_struct *p, u64 cgroup,
		 const struct sched_avg *avg),

	TP_ARGS(cpu, p, cgroup, avg),

	TP_STRUCT__entry(
		__field(int,		cpu)
		__field(pid_t,		pid)
		__array(char,		comm,	TASK_COMM_LEN)
		__field(u64,		cgroup)
		__field(unsigned long,	load)
		__field(unsigned long,	runnable)
		__field(unsigned long,	util)
	),

	TP_fast_assign(
		__entry->cpu		= cpu;
		__entry->pid		= p ? p->pid : -1;
		if (p)
			memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		else
			memset(__entry->comm, 0, TASK_COMM_LEN);
		__entry->cgroup		= cgroup;
		__entry->load		= avg->load_avg;
		__entry->runnable	= avg->runnable_avg;
		__entry->util		= avg->util_avg;
	),

	TP_printk("cpu=%d pid=%d comm=%s cgroup=%llu load=%lu runnable=%lu util=%lu",
		  __entry->cpu, __entry->pid, __entry->comm,
		  (unsigned long long)__entry->cgroup, __entry->load,
		  __entry->runnable, __entry->util),

	sched_events_reg_pelt_se, sched_events_unreg_pelt_se
);

/*
 * The capacity left to CFS on a CPU (rq->cpu_capacity, refreshed by load
 * balancing), the CPU's original capacity and the averaged hw pressure the
 * scheduler subtracts (0 without CONFIG_SCHED_HW_PRESSURE).
 */
TRACE_EVENT_FN(cpu_capacity,

	TP_PROTO(int cpu, unsigned long capacity, unsigned long capacity_orig,
		 unsigned long pressure),

	TP_ARGS(cpu, capacity, capacity_orig, pressure),

	TP_STRUCT__entry(
		__field(int,		cpu)
		__field(unsigned long,	capacity)
		__field(unsigned long,	capacity_orig)
		__field(unsigned long,	pressure)
	),

	TP_fast_assign(
		__entry->cpu		= cpu;
		__entry->capacity	= capacity;
		__entry->capacity_orig	= capacity_orig;
		__entry->pressure	= pressure;
	),

	TP_printk("cpu=%d capacity=%lu capacity_orig=%lu pressure=%lu",
		  __entry->cpu, __entry->capacity, __entry->capacity_orig,
		  __entry->pressure),

	sched_events_reg_cpu_capacity, sched_events_unreg_cpu_capacity
);

/* A root domain became (or stopped being) overutilized. */
TRACE_EVENT_FN(overutilized,

	TP_PROTO(const struct cpumask *span, bool overutilized),

	TP_ARGS(span, overutilized),

	TP_STRUCT__entry(
		__field(int,		overutilized)
		__cpumask(span)
	),

	TP_fast_assign(
		__entry->overutilized	= overutilized;
		__assign_cpumask(span, cpumask_bits(span));
	),

	TP_printk("overutilized=%d span=%s", __entry->overutilized,
		  __get_cpumask(span)),

	sched_events_reg_overutilized, sched_events_unreg_overutilized
);

/* Estimated utilization of a CPU's root CFS runqueue. */
TRACE_EVENT_FN(util_est_cfs,

	TP_PROTO(int cpu, const struct sched_avg *avg),

	TP_ARGS(cpu, avg),

	TP_STRUCT__entry(
		__field(int,		cpu)
		__field(unsigned long,	util)
		__field(unsigned int,	util_est)
	),

	TP_fast_assign(
		__entry->cpu		= cpu;
		__entry->util		= avg->util_avg;
		__entry->util_est	= avg->util_est;
	),

	TP_printk("cpu=%d util=%lu util_est=%u",
		  __entry->cpu, __entry->util, __entry->util_est),

	sched_events_reg_util_est_cfs, sched_events_unreg_util_est_cfs
);

/* Estimated utilization of a task, at dequeue. */
TRACE_EVENT_FN(util_est_se,

	TP_PROTO(int cpu, const struct task_struct *p,
		 const struct sched_avg *avg),

	TP_ARGS(cpu, p, avg),

	TP_STRUCT__entry(
		__field(int,		cpu)
		__field(pid_t,		pid)
		__array(char,		comm,	TASK_COMM_LEN)
		__field(unsigned long,	util)
		__field(unsigned int,	util_est)
	),

	TP_fast_assign(
		__entry->cpu		= cpu;
		__entry->pid		= p->pid;
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->util		= avg->util_avg;
		__entry->util_est	= avg->util_est & ~UTIL_AVG_UNCHANGED;
	),

	TP_printk("cpu=%d pid=%d comm=%s util=%lu util_est=%u",
		  __entry->cpu, __entry->pid, __entry->comm,
		  __entry->util, __entry->util_est),

	sched_events_reg_util_est_se, sched_events_unreg_util_est_se
);

/* A change of a runqueue's number of runnable tasks (all classes). */
TRACE_EVENT_FN(nr_running,

	TP_PROTO(int cpu, int change, unsigned int nr_running),

	TP_ARGS(cpu, change, nr_running),

	TP_STRUCT__entry(
		__field(int,		cpu)
		__field(int,		change)
		__field(unsigned int,	nr_running)
	),

	TP_fast_assign(
		__entry->cpu		= cpu;
		__entry->change		= change;
		__entry->nr_running	= nr_running;
	),

	TP_printk("cpu=%d change=%d nr_running=%u",
		  __entry->cpu, __entry->change, __entry->nr_running),

	sched_events_reg_nr_running, sched_events_unreg_nr_running
);

/*
 * The series' averaged thermal pressure of a CPU: the capacity its policy's
 * max-frequency cap takes now (instant) and the average the scheduler uses
 * (avg: equal to instant when kernel.sched_thermal_decay_ms is 0).  Fires
 * when cpufreq changes the cap and whenever the average moves.
 */
TRACE_EVENT_FN(thermal_pressure,

	TP_PROTO(int cpu, unsigned long instant, unsigned long avg),

	TP_ARGS(cpu, instant, avg),

	TP_STRUCT__entry(
		__field(int,		cpu)
		__field(unsigned long,	instant)
		__field(unsigned long,	avg)
	),

	TP_fast_assign(
		__entry->cpu		= cpu;
		__entry->instant	= instant;
		__entry->avg		= avg;
	),

	TP_printk("cpu=%d instant=%lu avg=%lu",
		  __entry->cpu, __entry->instant, __entry->avg),

	sched_events_reg_thermal_pressure, sched_events_unreg_thermal_pressure
);

/* STEAL: idle CPU dst_cpu took a waiting task from overloaded src_cpu. */
TRACE_EVENT_FN(steal,

	TP_PROTO(const struct task_struct *p, int src_cpu, int dst_cpu),

	TP_ARGS(p, src_cpu, dst_cpu),

	TP_STRUCT__entry(
		__array(char,		comm,	TASK_COMM_LEN)
		__field(pid_t,		pid)
		__field(int,		src_cpu)
		__field(int,		dst_cpu)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid		= p->pid;
		__entry->src_cpu	= src_cpu;
		__entry->dst_cpu	= dst_cpu;
	),

	TP_printk("comm=%s pid=%d src_cpu=%d dst_cpu=%d",
		  __entry->comm, __entry->pid, __entry->src_cpu,
		  __entry->dst_cpu),

	sched_events_reg_steal, sched_events_unreg_steal
);

#endif /* _SCHED_EVENTS_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sched_events_trace
#include <trace/define_trace.h>
