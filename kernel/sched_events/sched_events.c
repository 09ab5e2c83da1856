// SPDX-License-Identifier: GPL-2.0
/*
 * sched_events: trace events from the scheduler's bare tracepoints.
 *
 * v6.12 exposes PELT, capacity and util_est only through bare tracepoints
 * (DECLARE_TRACE in include/trace/events/sched.h): they have no trace event,
 * so tracefs and trace-cmd cannot record them.  This module attaches a probe
 * to each, and to the bare tracepoints the schedstack series adds (averaged
 * thermal pressure, STEAL), and emits a trace event with documented fields
 * (system "sched_events", see Documentation/tracing.rst of the project).
 *
 * Layouts.  The tracepoints pass struct rq, cfs_rq, sched_entity and
 * root_domain pointers, whose layouts are private to kernel/sched/sched.h.
 * The sched_trace_*() accessors that older kernels exported for such modules
 * were removed upstream in 2022, and v6.12 has no replacement.  Rather than
 * regenerating the structures from BTF or DWARF, the module includes
 * kernel/sched/sched.h of the very tree it is built against (-I$(srctree),
 * see Kbuild).  The module must therefore run on a kernel built from that
 * tree and configuration, which the vermagic and symbol CRC checks ask for
 * anyway; a scheduler patch that changes a layout is picked up by the next
 * module build.  Only fields and static inline helpers are used, never an
 * unexported symbol.
 *
 * Entities.  pelt_se_tp fires for tasks and, with CONFIG_FAIR_GROUP_SCHED,
 * for task groups' entities.  A group entity owns a runqueue (se->my_q), a
 * task's does not: that is the kernel's own entity_is_task(), used here
 * before task_of().  Without group scheduling every entity is a task.
 *
 * Cost.  Each event attaches its probe to the bare tracepoint only while the
 * event is enabled (TRACE_EVENT_FN reg/unreg callbacks), so a loaded module
 * does not put a call into the PELT paths until somebody traces.  The
 * callbacks run with the tracepoint core's mutex held, where registering
 * another probe would deadlock; they record the wish and a work item
 * attaches or detaches.  Events within that delay after enabling are lost
 * (up to about a second on a busy emulated guest).  While any event is
 * enabled the module holds a reference on itself, so it cannot be unloaded
 * under a running trace.
 *
 * Absent tracepoints (another kernel version, or the series' tracepoints on
 * a kernel without the series) are looked up by name at load time; a missing
 * one is reported with a pr_info() and its event never fires.
 *
 * To follow a new bare tracepoint: add an event with TRACE_EVENT_FN() to
 * sched_events_trace.h (with its SCHED_EVENTS_REGFUNCS() line), a probe with
 * the tracepoint's prototype below, and a line in sched_events_probes[].
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cgroup.h>
#include <linux/mmu_context.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

/* sched.h relies on what kernel/sched/build_*.c include before it. */
#include <kernel/sched/sched.h>

#define CREATE_TRACE_POINTS
#include "sched_events_trace.h"

#ifndef CONFIG_SMP
#error "sched_events needs CONFIG_SMP: PELT signals only exist on SMP kernels"
#endif

/* cgroup2 id (inode number) of a task group: 1 is the root, 0 an autogroup. */
static u64 sched_events_tg_cgroup(struct task_group *tg)
{
#ifdef CONFIG_CGROUP_SCHED
	struct cgroup *cgrp = tg->css.cgroup;

	return cgrp ? cgroup_id(cgrp) : 0;
#else
	return 1;
#endif
}

static u64 sched_events_cfs_rq_cgroup(struct cfs_rq *cfs_rq)
{
#ifdef CONFIG_FAIR_GROUP_SCHED
	return sched_events_tg_cgroup(cfs_rq->tg);
#else
	return 1;
#endif
}

static void probe_pelt_cfs(void *data, struct cfs_rq *cfs_rq)
{
	trace_pelt_cfs(cpu_of(rq_of(cfs_rq)), sched_events_cfs_rq_cgroup(cfs_rq),
		       &cfs_rq->avg);
}

static void probe_pelt_rt(void *data, struct rq *rq)
{
	trace_pelt_rt(cpu_of(rq), &rq->avg_rt);
}

static void probe_pelt_dl(void *data, struct rq *rq)
{
	trace_pelt_dl(cpu_of(rq), &rq->avg_dl);
}

static void probe_pelt_irq(void *data, struct rq *rq)
{
#ifdef CONFIG_HAVE_SCHED_AVG_IRQ
	trace_pelt_irq(cpu_of(rq), &rq->avg_irq);
#endif
}

static void probe_pelt_hw(void *data, struct rq *rq)
{
#ifdef CONFIG_SCHED_HW_PRESSURE
	trace_pelt_hw(cpu_of(rq), &rq->avg_hw);
#endif
}

static void probe_pelt_se(void *data, struct sched_entity *se)
{
	struct task_struct *p = NULL;
	u64 cgroup = 0;
	int cpu;

#ifdef CONFIG_FAIR_GROUP_SCHED
	cpu = cpu_of(rq_of(se->cfs_rq));
	if (entity_is_task(se))
		p = task_of(se);
	else
		cgroup = sched_events_tg_cgroup(se->my_q->tg);
#else
	p = task_of(se);
	cpu = task_cpu(p);
#endif
	trace_pelt_se(cpu, p, cgroup, &se->avg);
}

static unsigned long sched_events_hw_pressure(struct rq *rq)
{
#ifdef CONFIG_SCHED_HW_PRESSURE
	return READ_ONCE(rq->avg_hw.util_avg);
#else
	return 0;
#endif
}

static void probe_cpu_capacity(void *data, struct rq *rq)
{
	int cpu = cpu_of(rq);

	trace_cpu_capacity(cpu, READ_ONCE(rq->cpu_capacity),
			   arch_scale_cpu_capacity(cpu),
			   sched_events_hw_pressure(rq));
}

static void probe_overutilized(void *data, struct root_domain *rd,
			       bool overutilized)
{
	trace_overutilized(rd->span, overutilized);
}

static void probe_util_est_cfs(void *data, struct cfs_rq *cfs_rq)
{
	trace_util_est_cfs(cpu_of(rq_of(cfs_rq)), &cfs_rq->avg);
}

/* v6.12 fires sched_util_est_se_tp with a task's entity only. */
static void probe_util_est_se(void *data, struct sched_entity *se)
{
	struct task_struct *p = container_of(se, struct task_struct, se);

	trace_util_est_se(task_cpu(p), p, &se->avg);
}

static void probe_nr_running(void *data, struct rq *rq, int change)
{
	trace_nr_running(cpu_of(rq), change, READ_ONCE(rq->nr_running));
}

/*
 * The series' own tracepoints pass plain values and the task, so these
 * probes read no private layout.  Their prototypes are copied from
 * include/trace/events/sched.h of the series: the module also builds
 * against a tree without it, where the lookup below finds no tracepoint.
 */
static void probe_thermal_pressure(void *data, int cpu, unsigned long instant,
				   unsigned long avg)
{
	trace_thermal_pressure(cpu, instant, avg);
}

static void probe_steal(void *data, struct task_struct *p, int src_cpu,
			int dst_cpu)
{
	trace_steal(p, src_cpu, dst_cpu);
}

struct sched_events_probe {
	const char *tp_name;	/* the bare tracepoint */
	const char *event;	/* our trace event */
	void *probe;
	struct tracepoint *tp;	/* NULL when the kernel lacks tp_name */
	bool wanted;		/* the event is enabled */
	bool attached;		/* probe registered on tp */
};

enum {
	SE_PELT_CFS,
	SE_PELT_RT,
	SE_PELT_DL,
	SE_PELT_IRQ,
	SE_PELT_HW,
	SE_PELT_SE,
	SE_CPU_CAPACITY,
	SE_OVERUTILIZED,
	SE_UTIL_EST_CFS,
	SE_UTIL_EST_SE,
	SE_NR_RUNNING,
	SE_THERMAL_PRESSURE,
	SE_STEAL,
	SE_NR_PROBES
};

#define SE_PROBE(idx, tracepoint, ev)					\
	[idx] = { .tp_name = tracepoint, .event = #ev, .probe = probe_##ev }

static struct sched_events_probe sched_events_probes[SE_NR_PROBES] = {
	SE_PROBE(SE_PELT_CFS,		"pelt_cfs_tp",			pelt_cfs),
	SE_PROBE(SE_PELT_RT,		"pelt_rt_tp",			pelt_rt),
	SE_PROBE(SE_PELT_DL,		"pelt_dl_tp",			pelt_dl),
	SE_PROBE(SE_PELT_IRQ,		"pelt_irq_tp",			pelt_irq),
	SE_PROBE(SE_PELT_HW,		"pelt_hw_tp",			pelt_hw),
	SE_PROBE(SE_PELT_SE,		"pelt_se_tp",			pelt_se),
	SE_PROBE(SE_CPU_CAPACITY,	"sched_cpu_capacity_tp",	cpu_capacity),
	SE_PROBE(SE_OVERUTILIZED,	"sched_overutilized_tp",	overutilized),
	SE_PROBE(SE_UTIL_EST_CFS,	"sched_util_est_cfs_tp",	util_est_cfs),
	SE_PROBE(SE_UTIL_EST_SE,	"sched_util_est_se_tp",		util_est_se),
	SE_PROBE(SE_NR_RUNNING,		"sched_update_nr_running_tp",	nr_running),
	SE_PROBE(SE_THERMAL_PRESSURE,	"sched_thermal_pressure_tp",	thermal_pressure),
	SE_PROBE(SE_STEAL,		"sched_steal_tp",		steal),
};

/* Serialises attaching and detaching; taken before the tracepoint mutex. */
static DEFINE_MUTEX(sched_events_mutex);

static void sched_events_sync(struct work_struct *work)
{
	int i, ret;

	mutex_lock(&sched_events_mutex);
	for (i = 0; i < SE_NR_PROBES; i++) {
		struct sched_events_probe *p = &sched_events_probes[i];
		bool want = READ_ONCE(p->wanted);

		if (!p->tp || want == p->attached)
			continue;
		if (want) {
			ret = tracepoint_probe_register(p->tp, p->probe, NULL);
			if (ret)
				pr_warn("cannot attach %s to %s: %d\n",
					p->event, p->tp_name, ret);
			else
				p->attached = true;
		} else {
			ret = tracepoint_probe_unregister(p->tp, p->probe, NULL);
			WARN_ON_ONCE(ret);
			p->attached = false;
		}
	}
	mutex_unlock(&sched_events_mutex);
}

static DECLARE_WORK(sched_events_work, sched_events_sync);

/*
 * Called by the tracepoint core, with its mutex held, when one of our events
 * gets its first user (reg) or loses its last one (unreg).  The caller also
 * holds event_mutex, which the module's removal takes before freeing the
 * module, so the module_put() below cannot free code that is still running.
 */
static int sched_events_want(int idx)
{
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	WRITE_ONCE(sched_events_probes[idx].wanted, true);
	schedule_work(&sched_events_work);
	return 0;
}

static void sched_events_unwant(int idx)
{
	WRITE_ONCE(sched_events_probes[idx].wanted, false);
	schedule_work(&sched_events_work);
	module_put(THIS_MODULE);
}

#define SCHED_EVENTS_DEFINE_REGFUNCS(ev, idx)				\
int sched_events_reg_##ev(void) { return sched_events_want(idx); }	\
void sched_events_unreg_##ev(void) { sched_events_unwant(idx); }

SCHED_EVENTS_DEFINE_REGFUNCS(pelt_cfs, SE_PELT_CFS)
SCHED_EVENTS_DEFINE_REGFUNCS(pelt_rt, SE_PELT_RT)
SCHED_EVENTS_DEFINE_REGFUNCS(pelt_dl, SE_PELT_DL)
SCHED_EVENTS_DEFINE_REGFUNCS(pelt_irq, SE_PELT_IRQ)
SCHED_EVENTS_DEFINE_REGFUNCS(pelt_hw, SE_PELT_HW)
SCHED_EVENTS_DEFINE_REGFUNCS(pelt_se, SE_PELT_SE)
SCHED_EVENTS_DEFINE_REGFUNCS(cpu_capacity, SE_CPU_CAPACITY)
SCHED_EVENTS_DEFINE_REGFUNCS(overutilized, SE_OVERUTILIZED)
SCHED_EVENTS_DEFINE_REGFUNCS(util_est_cfs, SE_UTIL_EST_CFS)
SCHED_EVENTS_DEFINE_REGFUNCS(util_est_se, SE_UTIL_EST_SE)
SCHED_EVENTS_DEFINE_REGFUNCS(nr_running, SE_NR_RUNNING)
SCHED_EVENTS_DEFINE_REGFUNCS(thermal_pressure, SE_THERMAL_PRESSURE)
SCHED_EVENTS_DEFINE_REGFUNCS(steal, SE_STEAL)

static void sched_events_lookup(struct tracepoint *tp, void *priv)
{
	int i;

	for (i = 0; i < SE_NR_PROBES; i++)
		if (!strcmp(tp->name, sched_events_probes[i].tp_name))
			sched_events_probes[i].tp = tp;
}

/*
 * Built against the series, check the probes of its tracepoints against
 * their prototypes.  __same_type() is not evaluated: no symbol is referenced,
 * so the module still loads on a kernel that lacks the tracepoint.
 */
#define SE_CHECK_PROBE(tp, probe)					\
	BUILD_BUG_ON(!__same_type(&register_trace_##tp,			\
				  int (*)(typeof(probe) *, void *)))

static int __init sched_events_init(void)
{
	int i, found = 0;

#ifdef SCHED_THERMAL_DECAY_MS_MAX	/* the series' kernel/sched/thermal_pressure.h */
	SE_CHECK_PROBE(sched_thermal_pressure_tp, probe_thermal_pressure);
#endif
#ifdef CONFIG_SCHED_STEAL
	SE_CHECK_PROBE(sched_steal_tp, probe_steal);
#endif
	for_each_kernel_tracepoint(sched_events_lookup, NULL);
	for (i = 0; i < SE_NR_PROBES; i++) {
		struct sched_events_probe *p = &sched_events_probes[i];

		if (p->tp)
			found++;
		else
			pr_info("no tracepoint %s in this kernel: event %s stays silent\n",
				p->tp_name, p->event);
	}
	pr_info("%d of %d tracepoints found\n", found, SE_NR_PROBES);
	return 0;
}

static void __exit sched_events_exit(void)
{
	int i;

	/* No event is enabled (we would hold a reference): detach leftovers. */
	cancel_work_sync(&sched_events_work);
	mutex_lock(&sched_events_mutex);
	for (i = 0; i < SE_NR_PROBES; i++) {
		struct sched_events_probe *p = &sched_events_probes[i];

		if (p->attached) {
			WARN_ON_ONCE(tracepoint_probe_unregister(p->tp, p->probe, NULL));
			p->attached = false;
		}
	}
	mutex_unlock(&sched_events_mutex);
	tracepoint_synchronize_unregister();
}

module_init(sched_events_init);
module_exit(sched_events_exit);

MODULE_DESCRIPTION("Trace events from the scheduler's bare tracepoints");
MODULE_LICENSE("GPL");
