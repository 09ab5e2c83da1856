// SPDX-License-Identifier: GPL-2.0
/*
 * Speed emulation for cpufreq_emu (emulate_speed=1).
 *
 * Under QEMU every vCPU computes as fast as the host lets it, whatever
 * frequency the driver reports.  With speed emulation, a CPU that runs
 * anything but its idle task loses the fraction 1 - speed of its time,
 * where speed is capacity_orig / 1024 * cur / max of its policy
 * (emu_cpu_speed()): a per-CPU hrtimer in soft-IRQ mode expires after
 * speed * period, and its callback, in softirq context, spins for the
 * rest of the period, and longer when it came late.
 *
 * Softirq context, with interrupts on: a slow CPU of the silicon
 * computes slowly but answers an interrupt within microseconds, and so
 * must this one.  An IPI (a wake-up, a function call, a TLB flush) or a
 * timer interrupt that comes during a spin runs at once, and the spin
 * goes on after it; only what waits for the softirq to end (a context
 * switch, other softirqs) waits for the spin.  The spin used to run in
 * hard-IRQ context, from an irq_work, which kept such interrupts waiting
 * for up to a period: the 90th percentile of an IPI's round trip to a
 * hikey960 LITTLE at its lowest OPP was 1.06 to 1.12 ms, and is 32 to
 * 46 us with the spin in the softirq (selftests/boards/speed_test's
 * ipi_answered_at_lowest_opp; Documentation/data/ipi-roundtrip-20261207/).
 * A soft timer's callback does not run in hrtimer_interrupt(), so a spin
 * there cannot make that interrupt find its timers expired again and
 * give up ("hrtimer: interrupt took N ns"), which is what a spin in a
 * hard timer's callback did.
 *
 * Softirqs run on the way out of the interrupt that raised them, in the
 * context of the task it interrupted, which makes the lost time look
 * like a slower CPU to the scheduler and like nothing else.  Without
 * CONFIG_IRQ_TIME_ACCOUNTING the time is charged to the interrupted
 * task: its runtime, its PELT running time and rq_clock_task() all
 * include it, and no RT, DL or IRQ average grows, so the capacity the
 * scheduler computes is untouched.  With IRQ time accounting the spin
 * would be taken from the task and show as IRQ pressure, so that kernel
 * is refused.  When the softirq code leaves the rest of its work to
 * ksoftirqd (when a reschedule is due, after a jiffy of it or after ten
 * rounds), a spin that runs there is charged to ksoftirqd instead: the
 * CPU is just as slow, but ksoftirqd shows as a task that runs.  With
 * PREEMPT_RT every softirq runs in a thread, where the spin could be
 * preempted and would be a task of its own: that kernel is refused too
 * (threadirqs on the command line does the same, and is not checked).
 *
 * The timer runs only while the CPU is busy: a sched_switch probe cancels
 * it when the CPU switches to its idle task and starts it when the CPU
 * runs anything else, so that idle CPUs lose nothing and take no
 * interrupts.  The spin reads the speed each period: a frequency
 * change takes effect within one period.  The spin reads the clocksource,
 * so guest time does not drift; what waits for the end of the softirq (a
 * context switch, the tick's own softirq work) waits for at most one spin
 * (21/16 of a period at EMU_MIN_SPEED, with the lateness at its cap).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/topology.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>

#include "emu.h"

/**
 * struct emu_speed_cpu - one CPU's speed emulation.
 * @timer:	expires at the end of the period's share that runs, and
 *		spins for the rest of the period
 * @cpu:	the CPU
 * @online:	the timer and its spin may run; written and read on @cpu only
 * @parked:	busy at full speed, so the timer is off: @kick restarts it
 * @cb_parked:	the running callback parked the CPU and will not re-arm
 *		the timer, so emu_speed_resume() may; written on @cpu
 *		with interrupts off
 * @run_left_ns: what was left of the share to run when the CPU went idle
 * @kick:	restarts the timer on @cpu after a frequency change
 * @kick_pending: @kick is queued; cleared by @cpu when it ran
 * @lost_ns:	time taken from @cpu's tasks: the spins
 * @expired:	expirations that took time
 * @overdue_ns: the lateness beyond a share, which no spin made up for
 */
struct emu_speed_cpu {
	struct hrtimer timer;
	unsigned int cpu;
	bool online;
	bool parked;
	bool cb_parked;
	u64 run_left_ns;
	call_single_data_t kick;
	atomic_t kick_pending;
	u64 lost_ns;
	unsigned long expired;
	u64 overdue_ns;
};

static DEFINE_PER_CPU(struct emu_speed_cpu, emu_speed_cpus);
static u64 emu_speed_period_ns;
static struct tracepoint *emu_sched_switch_tp;
static int emu_speed_hp_state;
static struct dentry *emu_speed_debugfs;
static bool emu_speed_running;

/* The share of a period that @cpu runs at its speed now, in ns. */
static u64 emu_run_ns(unsigned int cpu)
{
	return (emu_speed_period_ns * emu_cpu_speed(cpu)) >> SCHED_CAPACITY_SHIFT;
}

/*
 * Park @s's CPU: true when it stays at full speed.  A frequency change
 * stores the new one before it reads @parked (emu_speed_changed()), and
 * this reads the speed again after @parked is set: either it sees the
 * slowdown here, or the change sees @parked and kicks.
 */
static bool emu_speed_park(struct emu_speed_cpu *s)
{
	WRITE_ONCE(s->parked, true);
	/* Pairs with the barrier of emu_speed_changed(). */
	smp_mb();
	if (emu_run_ns(s->cpu) >= emu_speed_period_ns)
		return true;
	WRITE_ONCE(s->parked, false);
	return false;
}

/*
 * The share ran: spin for the rest of the period.  In softirq context on
 * s->cpu, interrupts on: they come in during the spin.  Nothing can
 * switch the CPU to another task meanwhile; an interrupt that makes one
 * due (a wake-up) has it happen after the spin, once the softirq ends.
 */
static enum hrtimer_restart emu_speed_expired(struct hrtimer *timer)
{
	struct emu_speed_cpu *s = container_of(timer, struct emu_speed_cpu, timer);
	u64 due = ktime_to_ns(hrtimer_get_expires(timer));
	u64 run, late, spin, start, now;

	/* An idle CPU loses nothing: the next switch away from idle restarts. */
	if (!READ_ONCE(s->online) || is_idle_task(current))
		return HRTIMER_NORESTART;

	run = emu_run_ns(s->cpu);
	if (run >= emu_speed_period_ns) {
		bool parked;

		/*
		 * No timer at full speed: its interrupts would slow it down.
		 * A kick for a slowdown that the park missed can come before
		 * this returns: with @cb_parked set in the same stretch with
		 * interrupts off, it starts the timer itself.
		 */
		local_irq_disable();
		parked = emu_speed_park(s);
		WRITE_ONCE(s->cb_parked, parked);
		local_irq_enable();
		if (parked)
			return HRTIMER_NORESTART;
		run = emu_run_ns(s->cpu);
	}
	/*
	 * Under emulation the callback runs late, and part of the lateness
	 * is the vCPU computing on before the host tells it (the rest is
	 * the guest's own interrupt entry and the softirq's start): a spin
	 * in proportion to the share and half the lateness keeps the speed
	 * of both boards within their noise (Documentation/boards.rst has
	 * the data).  A lateness beyond a share is the host stopping the
	 * vCPU, not time run, and counts as one share at most.  When it
	 * was run after all, the CPU ran faster than its speed: the rest is
	 * added up, so that a measurement of the speed can tell the host's
	 * doing from the driver's.
	 */
	start = ktime_get_ns();
	late = start > due ? start - due : 0;
	if (late > run) {
		WRITE_ONCE(s->overdue_ns, s->overdue_ns + late - run);
		late = run;
	}
	spin = div64_u64((run + late / 2) * (emu_speed_period_ns - run), run);
	do {
		cpu_relax();
		now = ktime_get_ns();
	} while (now < start + spin);
	WRITE_ONCE(s->lost_ns, s->lost_ns + now - start);
	WRITE_ONCE(s->expired, s->expired + 1);
	/*
	 * The next period starts where the spin ends.  Nothing started the
	 * timer meanwhile: emu_speed_resume() leaves a timer whose
	 * callback runs to it, unless the callback parked.
	 */
	hrtimer_set_expires(timer, ns_to_ktime(now + run));
	return HRTIMER_RESTART;
}

/*
 * On s->cpu with interrupts off, while it runs something else than its
 * idle task: start the timer unless the CPU is at full speed.
 */
static void emu_speed_resume(struct emu_speed_cpu *s)
{
	u64 run;

	/*
	 * A timer whose callback runs (a kick that came during the spin)
	 * re-arms itself, unless the callback parked the CPU: then it is
	 * done with the timer, which may be started again under it.
	 */
	if (!READ_ONCE(s->online) || hrtimer_is_queued(&s->timer) ||
	    (hrtimer_callback_running(&s->timer) && !READ_ONCE(s->cb_parked)))
		return;
	run = emu_run_ns(s->cpu);
	if (run >= emu_speed_period_ns && emu_speed_park(s))
		return;
	WRITE_ONCE(s->parked, false);
	/*
	 * What was left of the share when the CPU went idle: bursts shorter
	 * than a share must lose time too, as on a slower CPU.
	 */
	if (s->run_left_ns && s->run_left_ns < run)
		run = s->run_left_ns;
	s->run_left_ns = 0;
	/* Until the next callback parks again. */
	WRITE_ONCE(s->cb_parked, false);
	hrtimer_start(&s->timer, ns_to_ktime(run), HRTIMER_MODE_REL_PINNED_SOFT);
}

/* Called with the rq lock held and interrupts off, on the switching CPU. */
static void emu_speed_switch(void *data, bool preempt,
			     struct task_struct *prev, struct task_struct *next,
			     unsigned int prev_state)
{
	struct emu_speed_cpu *s = this_cpu_ptr(&emu_speed_cpus);

	if (is_idle_task(next)) {
		if (hrtimer_is_queued(&s->timer)) {
			s64 left = ktime_to_ns(hrtimer_get_remaining(&s->timer));

			s->run_left_ns = max_t(s64, left, 1);
			hrtimer_try_to_cancel(&s->timer);
		}
		WRITE_ONCE(s->parked, false);
		return;
	}
	emu_speed_resume(s);
}

/* In hard-IRQ context on the CPU that a frequency change slowed down. */
static void emu_speed_kick(void *info)
{
	struct emu_speed_cpu *s = info;

	/*
	 * The csd is free again before this runs: clear the flag first, so
	 * that a change after the speed is read below kicks once more.
	 */
	atomic_set(&s->kick_pending, 0);
	/* Clear before reading the speed: pairs with emu_speed_changed(). */
	smp_mb__after_atomic();
	if (!is_idle_task(current))
		emu_speed_resume(s);
}

/**
 * emu_speed_changed() - the frequency of @cpus changed.
 * @cpus:	the CPUs of the policy
 *
 * A CPU that runs at full speed has no timer; when its speed drops, it
 * must lose time at once, not at its next context switch.
 */
void emu_speed_changed(const struct cpumask *cpus)
{
	unsigned int cpu;

	if (!READ_ONCE(emu_speed_running))
		return;
	/* The new frequency is stored: now read @parked (emu_speed_park()). */
	smp_mb();
	for_each_cpu(cpu, cpus) {
		struct emu_speed_cpu *s = per_cpu_ptr(&emu_speed_cpus, cpu);

		if (!READ_ONCE(s->parked) ||
		    emu_cpu_speed(cpu) >= SCHED_CAPACITY_SCALE ||
		    atomic_cmpxchg(&s->kick_pending, 0, 1))
			continue;
		if (smp_call_function_single_async(cpu, &s->kick))
			atomic_set(&s->kick_pending, 0);
	}
}

/* CPU hotplug callbacks of CPUHP_AP_ONLINE_DYN run on the CPU itself. */
static int emu_speed_online(unsigned int cpu)
{
	struct emu_speed_cpu *s = per_cpu_ptr(&emu_speed_cpus, cpu);

	WRITE_ONCE(s->online, true);
	/* This runs in a kthread: the CPU is busy now. */
	local_irq_disable();
	emu_speed_resume(s);
	local_irq_enable();
	return 0;
}

static int emu_speed_offline(unsigned int cpu)
{
	struct emu_speed_cpu *s = per_cpu_ptr(&emu_speed_cpus, cpu);

	/*
	 * Before the cancel: a switch in between must not start it again.
	 * The cancel waits for a callback that runs, which may have re-armed
	 * the timer, and takes the timer off again.
	 */
	WRITE_ONCE(s->online, false);
	hrtimer_cancel(&s->timer);
	WRITE_ONCE(s->parked, false);
	return 0;
}

/*
 * One line per online CPU: its speed now, what it lost so far, the
 * periods that took time and the lateness that no spin made up for.
 */
static int emu_speed_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) {
		struct emu_speed_cpu *s = per_cpu_ptr(&emu_speed_cpus, cpu);

		seq_printf(m, "cpu%u speed=%u lost_ns=%llu expired=%lu overdue_ns=%llu\n",
			   cpu, emu_cpu_speed(cpu), READ_ONCE(s->lost_ns),
			   READ_ONCE(s->expired), READ_ONCE(s->overdue_ns));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(emu_speed);

static void emu_find_sched_switch(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_switch"))
		emu_sched_switch_tp = tp;
}

/**
 * emu_speed_start() - start the speed emulation of every online CPU.
 * @period_us:	the period, in microseconds
 *
 * Return: 0, -EINVAL on a kernel with IRQ time accounting or PREEMPT_RT,
 * or the error
 * of attaching to sched_switch or of the CPU hotplug state.
 */
int emu_speed_start(unsigned int period_us)
{
	unsigned int cpu;
	int ret;

	/* The probe's prototype; __same_type() references no symbol. */
	BUILD_BUG_ON(!__same_type(&register_trace_sched_switch,
				  int (*)(typeof(emu_speed_switch) *, void *)));

	if (IS_ENABLED(CONFIG_IRQ_TIME_ACCOUNTING)) {
		pr_err("emulate_speed: this kernel has CONFIG_IRQ_TIME_ACCOUNTING, which would show the emulated slowness as IRQ pressure; build it without\n");
		return -EINVAL;
	}
	if (IS_ENABLED(CONFIG_PREEMPT_RT)) {
		pr_err("emulate_speed: this kernel has CONFIG_PREEMPT_RT, which runs softirqs in threads, where the spins would show as tasks; build it without\n");
		return -EINVAL;
	}
	emu_speed_period_ns = (u64)period_us * NSEC_PER_USEC;
	for_each_possible_cpu(cpu) {
		struct emu_speed_cpu *s = per_cpu_ptr(&emu_speed_cpus, cpu);

		hrtimer_init(&s->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_SOFT);
		s->timer.function = emu_speed_expired;
		s->cpu = cpu;
		s->online = false;
		s->parked = false;
		s->cb_parked = false;
		s->run_left_ns = 0;
		INIT_CSD(&s->kick, emu_speed_kick, s);
		atomic_set(&s->kick_pending, 0);
		s->lost_ns = 0;
		s->expired = 0;
		s->overdue_ns = 0;
	}

	for_each_kernel_tracepoint(emu_find_sched_switch, NULL);
	if (!emu_sched_switch_tp) {
		pr_err("emulate_speed: no sched_switch tracepoint (CONFIG_TRACEPOINTS)\n");
		return -ENOENT;
	}
	ret = tracepoint_probe_register(emu_sched_switch_tp, emu_speed_switch,
					NULL);
	if (ret) {
		pr_err("emulate_speed: cannot attach to sched_switch (%d)\n", ret);
		return ret;
	}
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "cpufreq_emu/speed:online",
				emu_speed_online, emu_speed_offline);
	if (ret < 0) {
		pr_err("emulate_speed: no CPU hotplug state (%d)\n", ret);
		tracepoint_probe_unregister(emu_sched_switch_tp,
					    emu_speed_switch, NULL);
		tracepoint_synchronize_unregister();
		return ret;
	}
	emu_speed_hp_state = ret;
	WRITE_ONCE(emu_speed_running, true);
	/* A debug view: nothing depends on it being there. */
	emu_speed_debugfs = debugfs_create_file("cpufreq_emu_speed", 0444, NULL,
						NULL, &emu_speed_fops);
	pr_info("emulating CPU speed: period %u us, slowest %lu/%lu\n",
		period_us, EMU_MIN_SPEED, SCHED_CAPACITY_SCALE);
	return 0;
}

/* Stop every CPU's timer; after it returns, no callback, spin or probe runs. */
void emu_speed_stop(void)
{
	unsigned int cpu;

	WRITE_ONCE(emu_speed_running, false);
	debugfs_remove(emu_speed_debugfs);
	/* The offline callbacks cancel the timers; the probe then starts none. */
	cpuhp_remove_state(emu_speed_hp_state);
	tracepoint_probe_unregister(emu_sched_switch_tp, emu_speed_switch, NULL);
	tracepoint_synchronize_unregister();
	/*
	 * A kick still queued runs soon: its CPU is online or flushes it.
	 * The flag is cleared as the kick starts: wait for its end too (it
	 * runs with interrupts off).
	 */
	for_each_possible_cpu(cpu)
		while (atomic_read(&per_cpu_ptr(&emu_speed_cpus, cpu)->kick_pending))
			cpu_relax();
	synchronize_rcu();
}
