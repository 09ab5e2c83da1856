// SPDX-License-Identifier: GPL-2.0
/*
 * Speed emulation for cpufreq_emu (emulate_speed=1).
 *
 * Under QEMU every vCPU computes as fast as the host lets it, whatever
 * frequency the driver reports.  With speed emulation, a CPU that runs
 * anything but its idle task loses the fraction 1 - speed of its time,
 * where speed is capacity_orig / 1024 * cur / max of its policy, cur
 * being the frequency of its clock (emu_cpu_speed()): a per-CPU hrtimer
 * expires after speed * period and queues a hard irq_work on its CPU,
 * which spins in hard-IRQ context for the rest of the period, and longer
 * when the interrupt came late.
 *
 * The spin is taken in pieces of at most EMU_SPIN_PIECE_NS: each piece
 * queues the irq_work again, and the interrupts that came meanwhile run
 * between two pieces.  A slow CPU of the silicon computes slowly but
 * answers an interrupt within microseconds, and so must this one: an
 * IPI (a wake-up, a function call, a TLB flush) that waited for the
 * whole spin waited up to a period, and the 90th percentile of IPI round
 * trips to a hikey960 LITTLE at its lowest OPP was 1.06 to 1.12 ms
 * (selftests/boards/speed_test's ipi_answered_at_lowest_opp,
 * Documentation/data/ipi-roundtrip-20261207/).  The IPIs come first: on
 * x86 their vectors rank above the irq_work's, on arm64 their SGIs are
 * numbered below it.  The timer's own interrupt, which ranks below the
 * irq_work's on both, still waits for the whole spin.  Softirq context,
 * where interrupts are on anyway, was tried: the spins there used up the
 * softirqs' time budget and woke ksoftirqd again and again, an uncapped
 * task that made EAS see the root domain overutilized (sched_steal's
 * steal_capacity, hikey960 board).
 *
 * The spin is not in the timer's callback: hrtimer_interrupt() runs only
 * the timers that expired before it started, then retries while the next
 * expiry is already past.  A tick that fell due during a spin, and took
 * longer than a share to run, let the re-armed timer expire within the
 * same interrupt, which spun again: after three such retries the kernel
 * gives up (nr_hangs in /proc/timer_list; the first one of a boot prints
 * "hrtimer: interrupt took N ns") and throttles every hrtimer of the CPU
 * for that long.  From the irq_work, the spin ends before the tick's
 * interrupt starts, and the timer is re-armed after the spin.  On x86
 * the irq_work's interrupt may come while the timer's interrupt runs its
 * softirqs: a spin then uses up their time budget, and more of them go
 * to ksoftirqd.
 *
 * Hard-IRQ context makes the lost time look like a slower CPU to the
 * scheduler and like nothing else.  Without CONFIG_IRQ_TIME_ACCOUNTING
 * the time is charged to the interrupted task: its runtime, its PELT
 * running time and rq_clock_task() all include it, and no RT, DL or IRQ
 * average grows, so the capacity the scheduler computes is untouched.
 * With IRQ time accounting the spin would be taken from the task and
 * show as IRQ pressure, so that kernel is refused.  A spinning RT kthread
 * would show as RT pressure, and a stopper as a task that does not run.
 *
 * The timer runs only while the CPU is busy: a sched_switch probe cancels
 * it when the CPU switches to its idle task and starts it when the CPU
 * runs anything else, so that idle CPUs lose nothing and take no
 * interrupts.  The spin reads the speed each period: a frequency
 * change takes effect within one period.  The spin reads the clocksource,
 * so guest time does not drift; the tick and other interrupts of the CPU
 * wait for at most one spin (21/16 of a period at EMU_MIN_SPEED, with
 * the lateness at its cap).
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
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
 * @timer:	expires at the end of the period's share that runs
 * @spin:	the rest of the period, queued by @timer
 * @late_ns:	how late @timer's callback ran, for @spin
 * @spin_start:	when the spin under way began, 0 when none is
 * @spin_end:	when it is to end
 * @spin_run:	the share to run after it
 * @cpu:	the CPU
 * @online:	the timer and its spin may run; written and read on @cpu only
 * @parked:	busy at full speed, so the timer is off: @kick restarts it
 * @run_left_ns: what was left of the share to run when the CPU went idle
 * @kick:	restarts the timer on @cpu after a frequency change
 * @kick_pending: @kick is queued; cleared by @cpu when it ran
 * @lost_ns:	time taken from @cpu's tasks: the spins
 * @expired:	expirations that took time
 * @overdue_ns: the lateness beyond a share, which no spin made up for
 */
struct emu_speed_cpu {
	struct hrtimer timer;
	struct irq_work spin;
	u64 late_ns;
	u64 spin_start;
	u64 spin_end;
	u64 spin_run;
	unsigned int cpu;
	bool online;
	bool parked;
	u64 run_left_ns;
	call_single_data_t kick;
	atomic_t kick_pending;
	u64 lost_ns;
	unsigned long expired;
	u64 overdue_ns;
};

/*
 * The longest stretch of a spin with interrupts off: an IPI that comes
 * during a spin waits at most about this long.
 */
#define EMU_SPIN_PIECE_NS	(10 * NSEC_PER_USEC)

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

/* The share ran: spin for the rest of the period, once the interrupt ends. */
static enum hrtimer_restart emu_speed_expired(struct hrtimer *timer)
{
	struct emu_speed_cpu *s = container_of(timer, struct emu_speed_cpu, timer);
	u64 due = ktime_to_ns(hrtimer_get_expires(timer)), now = ktime_get_ns();

	/* An idle CPU loses nothing: the next switch away from idle restarts. */
	if (READ_ONCE(s->online) && !is_idle_task(current)) {
		/* The lateness the spin was calibrated on: to here. */
		s->late_ns = now > due ? now - due : 0;
		irq_work_queue(&s->spin);
	}
	return HRTIMER_NORESTART;
}

/*
 * In hard-IRQ context on s->cpu, once the timer's interrupt has run its
 * other timers (and on x86 maybe during its softirqs), then once per
 * piece of the spin.  A context switch can come in between (kernel
 * preemption on the way out of an interrupt): to another task, which
 * then pays for the rest, as a slower CPU would make it; to idle, where
 * nothing more is lost.  Meanwhile emu_speed_resume() leaves the timer
 * to this.
 */
static void emu_speed_spin(struct irq_work *work)
{
	struct emu_speed_cpu *s = container_of(work, struct emu_speed_cpu, spin);
	u64 run, late, spin, start, now;

	if (!READ_ONCE(s->online) || is_idle_task(current)) {
		/* What was spun so far was lost all the same. */
		if (s->spin_start) {
			now = ktime_get_ns();
			WRITE_ONCE(s->lost_ns, s->lost_ns + now - s->spin_start);
			s->spin_start = 0;
		}
		return;
	}

	if (!s->spin_start) {
		run = emu_run_ns(s->cpu);
		if (run >= emu_speed_period_ns) {
			/* No interrupts at full speed: they would slow it down. */
			if (emu_speed_park(s))
				return;
			run = emu_run_ns(s->cpu);
		}
		/*
		 * Under emulation the interrupt arrives late, and part of the
		 * lateness is the vCPU computing on before the host tells it
		 * (the rest is the guest's own interrupt entry): a spin in
		 * proportion to the share and half the lateness keeps the
		 * speed of both boards within their noise (all of it suits
		 * the hikey960 board, none the sandybridge one;
		 * Documentation/boards.rst has the data).  A lateness beyond
		 * a share is the host stopping the vCPU, not time run, and
		 * counts as one share at most.  When it was run after all,
		 * the CPU ran faster than its speed: the rest is added up, so
		 * that a measurement of the speed can tell the host's doing
		 * from the driver's.
		 */
		start = ktime_get_ns();
		late = s->late_ns;
		if (late > run) {
			WRITE_ONCE(s->overdue_ns, s->overdue_ns + late - run);
			late = run;
		}
		spin = div64_u64((run + late / 2) * (emu_speed_period_ns - run), run);
		s->spin_start = start;
		s->spin_end = start + spin;
		s->spin_run = run;
	}

	/* One piece, then the interrupts that came in. */
	now = ktime_get_ns();
	spin = min(s->spin_end, now + EMU_SPIN_PIECE_NS);
	while (now < spin) {
		cpu_relax();
		now = ktime_get_ns();
	}
	if (now < s->spin_end) {
		irq_work_queue(&s->spin);
		return;
	}
	WRITE_ONCE(s->lost_ns, s->lost_ns + now - s->spin_start);
	WRITE_ONCE(s->expired, s->expired + 1);
	s->spin_start = 0;
	/* The next period starts where the spin ends. */
	hrtimer_start(&s->timer, ns_to_ktime(now + s->spin_run),
		      HRTIMER_MODE_ABS_PINNED_HARD);
}

/*
 * On s->cpu with interrupts off, while it runs something else than its
 * idle task: start the timer unless the CPU is at full speed.
 */
static void emu_speed_resume(struct emu_speed_cpu *s)
{
	u64 run;

	/* A spin that is queued re-arms the timer itself. */
	if (!READ_ONCE(s->online) || hrtimer_is_queued(&s->timer) ||
	    irq_work_is_pending(&s->spin))
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
	hrtimer_start(&s->timer, ns_to_ktime(run), HRTIMER_MODE_REL_PINNED_HARD);
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

	/* Before the cancel: a switch in between must not start it again. */
	WRITE_ONCE(s->online, false);
	hrtimer_cancel(&s->timer);
	/*
	 * A spin that ran before @online was cleared re-armed the timer,
	 * which the cancel took; one that runs later does nothing.  The
	 * sync makes sure of it.
	 */
	irq_work_sync(&s->spin);
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
 * Return: 0, -EINVAL on a kernel with IRQ time accounting or without an
 * irq_work interrupt, or the error
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
	if (!arch_irq_work_has_interrupt()) {
		pr_err("emulate_speed: no interrupt for irq_work on this machine: the spins would wait for the tick\n");
		return -EINVAL;
	}
	emu_speed_period_ns = (u64)period_us * NSEC_PER_USEC;
	for_each_possible_cpu(cpu) {
		struct emu_speed_cpu *s = per_cpu_ptr(&emu_speed_cpus, cpu);

		hrtimer_init(&s->timer, CLOCK_MONOTONIC,
			     HRTIMER_MODE_REL_PINNED_HARD);
		s->timer.function = emu_speed_expired;
		s->spin = IRQ_WORK_INIT_HARD(emu_speed_spin);
		s->cpu = cpu;
		s->online = false;
		s->parked = false;
		s->run_left_ns = 0;
		INIT_CSD(&s->kick, emu_speed_kick, s);
		atomic_set(&s->kick_pending, 0);
		s->lost_ns = 0;
		s->expired = 0;
		s->overdue_ns = 0;
		s->spin_start = 0;
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
