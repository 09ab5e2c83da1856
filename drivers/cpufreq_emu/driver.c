// SPDX-License-Identifier: GPL-2.0
/*
 * cpufreq_emu: a cpufreq driver for machines without frequency control.
 *
 * QEMU's emulated CPUs run at whatever speed the host gives them, so there
 * is nothing to program.  This driver still gives the kernel the view of a
 * real DVFS platform: a frequency table per policy, instant frequency
 * switches that the cpufreq core reports to the scheduler (on arm64 the
 * frequency-invariance scale follows them through arch_set_freq_scale()),
 * a cooling device per policy that caps policy->max through a frequency QoS
 * request, and an energy model where the device tree describes power.
 *
 * Frequency tables come from one of two places:
 *
 *  - the CPUs' operating-points-v2 tables in the device tree (the emulated
 *    Hikey960 board); CPUs sharing a table with opp-shared share a policy,
 *    the cpufreq core registers the cooling devices (#cooling-cells in the
 *    CPU nodes) and dev_pm_opp_of_register_em() builds the energy model;
 *
 *  - module parameters (the emulated Sandy Bridge board, or any machine):
 *    freqs=F0,F1,...[/G0,G1,...] in kHz, one table for every policy or one
 *    table per policy, and policies=CPULIST[/CPULIST...] saying which CPUs
 *    share a policy (default: one policy per CPU).  The driver registers
 *    the cooling devices itself, since the generic cpufreq cooling device
 *    needs THERMAL_OF.
 *
 * Policies that share one clock, as the cores of a Sandy Bridge client
 * package do, are given with clocks=CPULIST[/CPULIST...]: each policy
 * keeps its own request (intel_pstate's policies are per CPU too), and
 * every CPU of the clock runs at the highest frequency requested in it.
 *
 * With emulate_speed=1 the CPUs also compute at the speed their capacity
 * and frequency say, by losing time in hard-IRQ context, in pieces
 * between which interrupts are answered (speed.c).
 *
 * A hardware cap can be told to the scheduler through debugfs (hw_cap.c).
 *
 * Nothing is registered when the tables or parameters are invalid.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpufreq.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/pm_opp.h>
#include <linux/pm_qos.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/thermal.h>

#include "emu.h"

#define EMU_MAX_FREQS		64
#define EMU_DEFAULT_LATENCY_NS	20000
#define EMU_SPEED_PERIOD_US_MIN	100
#define EMU_SPEED_PERIOD_US_MAX	1000

static char *freqs;
module_param(freqs, charp, 0444);
MODULE_PARM_DESC(freqs,
		 "Frequency tables in kHz, ascending: F0,F1,... for every policy, or one table per policy separated by '/' (default: the device tree's operating-points-v2)");

static char *policies;
module_param(policies, charp, 0444);
MODULE_PARM_DESC(policies,
		 "CPUs sharing a policy with freqs=: CPULIST[/CPULIST...], covering every possible CPU (default: one policy per CPU)");

static char *clocks;
module_param(clocks, charp, 0444);
MODULE_PARM_DESC(clocks,
		 "CPUs whose policies share one clock, running at the highest frequency requested in it: CPULIST[/CPULIST...], whole policies (default: one clock per policy)");

static unsigned int latency_ns = EMU_DEFAULT_LATENCY_NS;
module_param(latency_ns, uint, 0444);
MODULE_PARM_DESC(latency_ns,
		 "Transition latency reported for freqs= tables, in ns (default 20000)");

static bool fast_switch;
module_param(fast_switch, bool, 0444);
MODULE_PARM_DESC(fast_switch,
		 "Let schedutil switch frequency from scheduler context (default: off, switches go through the governor's worker like cpufreq-dt)");

static bool emulate_speed;
module_param(emulate_speed, bool, 0444);
MODULE_PARM_DESC(emulate_speed,
		 "Make each busy CPU compute at capacity/1024 * cur/max of its policy by spinning in hard-IRQ context (default: off, every CPU runs as fast as the host lets it)");

static unsigned int speed_period_us = EMU_SPEED_PERIOD_US_MAX;
module_param(speed_period_us, uint, 0444);
MODULE_PARM_DESC(speed_period_us,
		 "Period of the speed emulation in us, 100..1000 (default 1000)");

/**
 * struct emu_domain - CPUs switching frequency together.
 * @cpus:	the CPUs of the domain (the policy's related_cpus)
 * @table:	frequency table, ascending, CPUFREQ_TABLE_END terminated
 * @nr_freqs:	number of valid entries in @table
 * @latency_ns:	transition latency reported to the cpufreq core
 * @cur:	the emulated current frequency in kHz
 * @from_dt:	@table was built from the device tree's OPPs
 * @cdev:	cooling device registered by this driver, or NULL
 * @cdev_state:	cooling state last set through @cdev
 * @cdev_lock:	serialises @cdev_state and @qos updates
 * @qos:	max-frequency request on the policy, owned by @cdev
 * @hw_cap:	hardware cap told to the scheduler in kHz, 0 for none (hw_cap.c)
 * @clock:	the CPUs of the clock the domain runs on: @cpus, or one of
 *		emu_clocks when clocks= makes it shared
 */
struct emu_domain {
	cpumask_var_t cpus;
	struct cpufreq_frequency_table *table;
	unsigned int nr_freqs;
	unsigned int latency_ns;
	unsigned int cur;
	bool from_dt;
	struct thermal_cooling_device *cdev;
	unsigned long cdev_state;
	struct mutex cdev_lock;		/* protects cdev_state and qos */
	struct freq_qos_request qos;
	unsigned int hw_cap;
	struct cpumask *clock;
};

static struct emu_domain *emu_domains;
static unsigned int emu_nr_domains;
static DEFINE_PER_CPU(struct emu_domain *, emu_domain_of);
static bool emu_core_cooling;
static cpumask_var_t *emu_clocks;
static unsigned int emu_nr_clocks;

/* Cooling device: state 0 is uncapped, state N caps at the N-th OPP from the top. */

static int emu_cdev_get_max_state(struct thermal_cooling_device *cdev,
				  unsigned long *state)
{
	struct emu_domain *d = cdev->devdata;

	*state = d->nr_freqs - 1;
	return 0;
}

static int emu_cdev_get_cur_state(struct thermal_cooling_device *cdev,
				  unsigned long *state)
{
	struct emu_domain *d = cdev->devdata;

	mutex_lock(&d->cdev_lock);
	*state = d->cdev_state;
	mutex_unlock(&d->cdev_lock);
	return 0;
}

static int emu_cdev_set_cur_state(struct thermal_cooling_device *cdev,
				  unsigned long state)
{
	struct emu_domain *d = cdev->devdata;
	unsigned int freq;
	int ret;

	if (state >= d->nr_freqs)
		return -EINVAL;

	freq = d->table[d->nr_freqs - 1 - state].frequency;

	mutex_lock(&d->cdev_lock);
	ret = freq_qos_update_request(&d->qos, freq);
	if (ret >= 0) {
		d->cdev_state = state;
		ret = 0;
	}
	mutex_unlock(&d->cdev_lock);
	return ret;
}

static const struct thermal_cooling_device_ops emu_cdev_ops = {
	.get_max_state = emu_cdev_get_max_state,
	.get_cur_state = emu_cdev_get_cur_state,
	.set_cur_state = emu_cdev_set_cur_state,
};

static void emu_cdev_register(struct cpufreq_policy *policy,
			      struct emu_domain *d)
{
	char type[THERMAL_NAME_LENGTH];
	struct thermal_cooling_device *cdev;
	int ret;

	ret = freq_qos_add_request(&policy->constraints, &d->qos, FREQ_QOS_MAX,
				   FREQ_QOS_MAX_DEFAULT_VALUE);
	if (ret < 0) {
		pr_warn("policy%u: no max-frequency request (%d), no cooling device\n",
			policy->cpu, ret);
		return;
	}

	/* The same name the generic cpufreq cooling device would use. */
	snprintf(type, sizeof(type), "cpufreq-cpu%u",
		 cpumask_first(d->cpus));
	d->cdev_state = 0;
	cdev = thermal_cooling_device_register(type, d, &emu_cdev_ops);
	if (IS_ERR(cdev)) {
		pr_warn("policy%u: cooling device not registered (%ld)\n",
			policy->cpu, PTR_ERR(cdev));
		freq_qos_remove_request(&d->qos);
		return;
	}
	d->cdev = cdev;
}

static void emu_cdev_unregister(struct emu_domain *d)
{
	if (!d->cdev)
		return;
	thermal_cooling_device_unregister(d->cdev);
	d->cdev = NULL;
	freq_qos_remove_request(&d->qos);
}

/* cpufreq driver */

static int emu_cpufreq_init(struct cpufreq_policy *policy)
{
	struct emu_domain *d = per_cpu(emu_domain_of, policy->cpu);

	if (!d)
		return -ENODEV;

	cpumask_copy(policy->cpus, d->cpus);
	policy->driver_data = d;
	policy->freq_table = d->table;
	policy->cpuinfo.transition_latency = d->latency_ns;
	policy->dvfs_possible_from_any_cpu = true;
	policy->fast_switch_possible = fast_switch;
	if (!READ_ONCE(d->cur))
		WRITE_ONCE(d->cur, d->table[d->nr_freqs - 1].frequency);
	return 0;
}

/*
 * With ->online and ->offline the policy (and its cooling device) survives
 * its CPUs going offline; ->exit only runs when the driver goes away.
 */
static int emu_cpufreq_online(struct cpufreq_policy *policy)
{
	return 0;
}

static int emu_cpufreq_offline(struct cpufreq_policy *policy)
{
	return 0;
}

static void emu_cpufreq_exit(struct cpufreq_policy *policy)
{
	struct emu_domain *d = policy->driver_data;

	/* Also called when ->init failed, before driver_data was set. */
	if (d)
		emu_cdev_unregister(d);
}

static void emu_cpufreq_ready(struct cpufreq_policy *policy)
{
	struct emu_domain *d = policy->driver_data;

	if (!emu_core_cooling && !d->cdev)
		emu_cdev_register(policy, d);
}

static unsigned int emu_cpufreq_get(unsigned int cpu)
{
	struct emu_domain *d = per_cpu(emu_domain_of, cpu);

	return d ? READ_ONCE(d->cur) : 0;
}

/*
 * The switch itself is instant.  The cpufreq core wraps ->target_index in
 * the transition notifiers, updates policy->cur and calls
 * arch_set_freq_scale(); ->fast_switch callers do the same.
 */
static int emu_cpufreq_target_index(struct cpufreq_policy *policy,
				    unsigned int index)
{
	struct emu_domain *d = policy->driver_data;

	WRITE_ONCE(d->cur, policy->freq_table[index].frequency);
	emu_speed_changed(d->clock);
	return 0;
}

static unsigned int emu_cpufreq_fast_switch(struct cpufreq_policy *policy,
					    unsigned int target_freq)
{
	struct emu_domain *d = policy->driver_data;
	int index;

	/* schedutil passes a resolved frequency: this finds its entry. */
	index = cpufreq_table_find_index_l(policy, target_freq, false);
	WRITE_ONCE(d->cur, policy->freq_table[index].frequency);
	emu_speed_changed(d->clock);
	return policy->freq_table[index].frequency;
}

/*
 * The frequency @d runs at: the highest one requested on its clock, at
 * most @d's own top.  A request counts while its CPUs idle, as it does
 * on a part whose idle cores stay in C1 (deeper C-states of the silicon
 * give up their request; the board does not model them).
 */
static unsigned int emu_clock_khz(const struct emu_domain *d)
{
	unsigned int cpu, khz = READ_ONCE(d->cur);

	if (d->clock == d->cpus)
		return khz;
	for_each_cpu(cpu, d->clock) {
		const struct emu_domain *o = per_cpu(emu_domain_of, cpu);

		if (o)
			khz = max(khz, READ_ONCE(o->cur));
	}
	return min(khz, d->table[d->nr_freqs - 1].frequency);
}

unsigned int emu_cpu_speed(unsigned int cpu)
{
	struct emu_domain *d = per_cpu(emu_domain_of, cpu);
	unsigned long speed;

	if (!d)
		return SCHED_CAPACITY_SCALE;
	speed = div_u64((u64)arch_scale_cpu_capacity(cpu) * emu_clock_khz(d),
			d->table[d->nr_freqs - 1].frequency);
	return clamp_t(unsigned long, speed, EMU_MIN_SPEED, SCHED_CAPACITY_SCALE);
}

static DEFINE_MUTEX(emu_hw_cap_lock);

int emu_set_hw_cap(unsigned int cpu, unsigned int khz)
{
	struct emu_domain *d;
	unsigned int max;

	if (cpu >= nr_cpu_ids || !cpu_possible(cpu))
		return -EINVAL;
	d = per_cpu(emu_domain_of, cpu);
	if (!d)
		return -ENODEV;
	max = d->table[d->nr_freqs - 1].frequency;
	if (khz && (khz < d->table[0].frequency || khz > max))
		return -EINVAL;

	guard(mutex)(&emu_hw_cap_lock);
	d->hw_cap = khz;
	arch_update_hw_pressure(d->cpus, khz ? khz : max);
	return 0;
}

void emu_hw_cap_print(struct seq_file *m)
{
	unsigned int i;

	guard(mutex)(&emu_hw_cap_lock);
	for (i = 0; i < emu_nr_domains; i++)
		if (emu_domains[i].table)
			seq_printf(m, "%*pbl %u\n",
				   cpumask_pr_args(emu_domains[i].cpus),
				   emu_domains[i].hw_cap);
}

static void emu_cpufreq_register_em(struct cpufreq_policy *policy)
{
	struct emu_domain *d = policy->driver_data;

	/* Power figures only exist in the device tree. */
	if (d->from_dt)
		cpufreq_register_em_with_opp(policy);
}

static struct cpufreq_driver emu_cpufreq_driver = {
	.name		= "cpufreq_emu",
	.flags		= CPUFREQ_HAVE_GOVERNOR_PER_POLICY,
	.verify		= cpufreq_generic_frequency_table_verify,
	.target_index	= emu_cpufreq_target_index,
	.fast_switch	= emu_cpufreq_fast_switch,
	.get		= emu_cpufreq_get,
	.init		= emu_cpufreq_init,
	.exit		= emu_cpufreq_exit,
	.online		= emu_cpufreq_online,
	.offline	= emu_cpufreq_offline,
	.ready		= emu_cpufreq_ready,
	.register_em	= emu_cpufreq_register_em,
	.attr		= cpufreq_generic_attr,
};

/* Domains from module parameters */

static int emu_parse_table(struct emu_domain *d, char *list)
{
	unsigned int f[EMU_MAX_FREQS];
	unsigned int n = 0, i;
	char *tok;

	while ((tok = strsep(&list, ","))) {
		unsigned int khz;

		if (n == EMU_MAX_FREQS) {
			pr_err("freqs: more than %d frequencies in a table\n",
			       EMU_MAX_FREQS);
			return -EINVAL;
		}
		if (kstrtouint(tok, 10, &khz) || !khz) {
			pr_err("freqs: '%s' is not a frequency in kHz\n", tok);
			return -EINVAL;
		}
		if (n && khz <= f[n - 1]) {
			pr_err("freqs: %u kHz after %u kHz: a table must be strictly ascending\n",
			       khz, f[n - 1]);
			return -EINVAL;
		}
		f[n++] = khz;
	}

	d->table = kcalloc(n + 1, sizeof(*d->table), GFP_KERNEL);
	if (!d->table)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		d->table[i].driver_data = i;
		d->table[i].frequency = f[i];
	}
	d->table[n].frequency = CPUFREQ_TABLE_END;
	d->nr_freqs = n;
	d->latency_ns = latency_ns;
	return 0;
}

static unsigned int emu_count(const char *s, char sep)
{
	unsigned int n = 1;

	for (; *s; s++)
		n += *s == sep;
	return n;
}

static int emu_alloc_domains(unsigned int n)
{
	unsigned int i;

	emu_domains = kcalloc(n, sizeof(*emu_domains), GFP_KERNEL);
	if (!emu_domains)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!zalloc_cpumask_var(&emu_domains[i].cpus, GFP_KERNEL))
			return -ENOMEM;
		mutex_init(&emu_domains[i].cdev_lock);
		emu_nr_domains++;
	}
	return 0;
}

/*
 * One CPULIST @tok of parameter @param into @mask: CPUs that exist and
 * are not in @seen, the lists before it, which it joins.  @what names a
 * list in the error of an overlap.
 */
static int emu_parse_cpulist(const char *param, const char *what, char *tok,
			     struct cpumask *mask, struct cpumask *seen)
{
	int ret = *tok ? cpulist_parse(tok, mask) : -EINVAL;

	if (ret == -ERANGE ||
	    (!ret && !cpumask_subset(mask, cpu_possible_mask))) {
		pr_err("%s: '%s' names a CPU that does not exist (possible: %*pbl)\n",
		       param, tok, cpumask_pr_args(cpu_possible_mask));
		return -EINVAL;
	}
	if (ret || cpumask_empty(mask)) {
		pr_err("%s: '%s' is not a CPU list\n", param, tok);
		return -EINVAL;
	}
	if (cpumask_intersects(mask, seen)) {
		pr_err("%s: '%s' overlaps another %s\n", param, tok, what);
		return -EINVAL;
	}
	cpumask_or(seen, seen, mask);
	return 0;
}

static int emu_parse_policies(void)
{
	cpumask_var_t seen;
	char *buf, *p, *tok;
	unsigned int i = 0, cpu;
	int ret = 0;

	if (!policies || !*policies) {
		ret = emu_alloc_domains(num_possible_cpus());
		if (ret)
			return ret;
		for_each_possible_cpu(cpu)
			cpumask_set_cpu(cpu, emu_domains[i++].cpus);
		return 0;
	}

	if (!zalloc_cpumask_var(&seen, GFP_KERNEL))
		return -ENOMEM;
	buf = kstrdup(policies, GFP_KERNEL);
	if (!buf) {
		ret = -ENOMEM;
		goto out;
	}
	ret = emu_alloc_domains(emu_count(buf, '/'));
	if (ret)
		goto out;

	p = buf;
	while ((tok = strsep(&p, "/"))) {
		ret = emu_parse_cpulist("policies", "policy", tok,
					emu_domains[i++].cpus, seen);
		if (ret)
			goto out;
	}
	if (!cpumask_equal(seen, cpu_possible_mask)) {
		cpumask_andnot(seen, cpu_possible_mask, seen);
		pr_err("policies: CPUs %*pbl are in no policy\n",
		       cpumask_pr_args(seen));
		ret = -EINVAL;
	}
out:
	kfree(buf);
	free_cpumask_var(seen);
	return ret;
}

static int emu_domains_from_params(void)
{
	unsigned int ntables, i;
	char *buf, *p, *tok;
	int ret;

	ret = emu_parse_policies();
	if (ret)
		return ret;

	ntables = emu_count(freqs, '/');
	if (ntables != 1 && ntables != emu_nr_domains) {
		pr_err("freqs: %u tables for %u policies: give one table, or one per policy\n",
		       ntables, emu_nr_domains);
		return -EINVAL;
	}

	buf = kstrdup(freqs, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	p = buf;
	for (i = 0; i < emu_nr_domains; i++) {
		char *copy;

		tok = ntables == 1 ? freqs : strsep(&p, "/");
		copy = kstrdup(tok, GFP_KERNEL);
		if (!copy) {
			ret = -ENOMEM;
			break;
		}
		ret = emu_parse_table(&emu_domains[i], copy);
		kfree(copy);
		if (ret)
			break;
	}
	kfree(buf);
	return ret;
}

/* Domains from the device tree */

static int emu_domains_from_dt(void)
{
	cpumask_var_t seen;
	unsigned int cpu, n = 0;
	int ret = 0;

	if (!of_have_populated_dt()) {
		pr_err("no frequency table: give freqs= (no device tree)\n");
		return -EINVAL;
	}
	if (!zalloc_cpumask_var(&seen, GFP_KERNEL))
		return -ENOMEM;

	ret = emu_alloc_domains(num_possible_cpus());
	if (ret)
		goto out;

	for_each_possible_cpu(cpu) {
		struct device *cpu_dev = get_cpu_device(cpu);
		struct emu_domain *d;
		int count;

		if (cpumask_test_cpu(cpu, seen))
			continue;
		d = &emu_domains[n];
		if (!cpu_dev) {
			pr_err("CPU%u has no device\n", cpu);
			ret = -ENODEV;
			goto out;
		}
		ret = dev_pm_opp_of_get_sharing_cpus(cpu_dev, d->cpus);
		if (ret) {
			pr_err("CPU%u: no usable operating-points-v2 in the device tree (%d): give freqs= instead\n",
			       cpu, ret);
			ret = -EINVAL;
			goto out;
		}
		/* A table that is not opp-shared leaves the mask empty. */
		cpumask_set_cpu(cpu, d->cpus);
		if (cpumask_intersects(d->cpus, seen)) {
			pr_err("CPU%u shares an OPP table with CPUs already in another policy\n",
			       cpu);
			ret = -EINVAL;
			goto out;
		}
		ret = dev_pm_opp_of_cpumask_add_table(d->cpus);
		if (ret) {
			pr_err("CPUs %*pbl: invalid OPP table (%d)\n",
			       cpumask_pr_args(d->cpus), ret);
			cpumask_clear(d->cpus);
			ret = -EINVAL;
			goto out;
		}
		d->from_dt = true;
		n++;
		cpumask_or(seen, seen, d->cpus);

		count = dev_pm_opp_get_opp_count(cpu_dev);
		if (count <= 0) {
			pr_err("CPUs %*pbl: the OPP table has no usable OPP\n",
			       cpumask_pr_args(d->cpus));
			ret = -EINVAL;
			goto out;
		}
		ret = dev_pm_opp_init_cpufreq_table(cpu_dev, &d->table);
		if (ret) {
			pr_err("CPUs %*pbl: no frequency table from the OPPs (%d)\n",
			       cpumask_pr_args(d->cpus), ret);
			goto out;
		}
		d->nr_freqs = count;
		d->latency_ns = dev_pm_opp_get_max_transition_latency(cpu_dev);
		if (!d->latency_ns)
			d->latency_ns = CPUFREQ_DEFAULT_TRANSITION_LATENCY_NS;
	}
out:
	free_cpumask_var(seen);
	return ret;
}

/*
 * The clocks of clocks=, once the domains are known: each a union of
 * whole policies.  A policy in none keeps a clock of its own.
 */
static int emu_parse_clocks(void)
{
	cpumask_var_t seen;
	char *buf, *p, *tok;
	unsigned int i, n;
	int ret = 0;

	for (i = 0; i < emu_nr_domains; i++)
		emu_domains[i].clock = emu_domains[i].cpus;
	if (!clocks || !*clocks)
		return 0;

	if (!zalloc_cpumask_var(&seen, GFP_KERNEL))
		return -ENOMEM;
	buf = kstrdup(clocks, GFP_KERNEL);
	n = emu_count(clocks, '/');
	emu_clocks = kcalloc(n, sizeof(*emu_clocks), GFP_KERNEL);
	if (!buf || !emu_clocks) {
		ret = -ENOMEM;
		goto out;
	}
	p = buf;
	while ((tok = strsep(&p, "/"))) {
		struct cpumask *clk;

		if (!zalloc_cpumask_var(&emu_clocks[emu_nr_clocks], GFP_KERNEL)) {
			ret = -ENOMEM;
			goto out;
		}
		clk = emu_clocks[emu_nr_clocks++];
		ret = emu_parse_cpulist("clocks", "clock", tok, clk, seen);
		if (ret)
			goto out;
		for (i = 0; i < emu_nr_domains; i++) {
			struct emu_domain *d = &emu_domains[i];

			if (!d->table || !cpumask_intersects(d->cpus, clk))
				continue;
			if (!cpumask_subset(d->cpus, clk)) {
				pr_err("clocks: '%s' splits the policy of CPUs %*pbl: a clock holds whole policies\n",
				       tok, cpumask_pr_args(d->cpus));
				ret = -EINVAL;
				goto out;
			}
			d->clock = clk;
		}
		pr_info("one clock for CPUs %*pbl\n", cpumask_pr_args(clk));
	}
out:
	kfree(buf);
	free_cpumask_var(seen);
	return ret;
}

static void emu_free_domains(void)
{
	unsigned int i, cpu;

	for_each_possible_cpu(cpu)
		per_cpu(emu_domain_of, cpu) = NULL;

	for (i = 0; i < emu_nr_domains; i++) {
		struct emu_domain *d = &emu_domains[i];

		if (d->from_dt) {
			struct device *cpu_dev =
				get_cpu_device(cpumask_first(d->cpus));

			if (d->table)
				dev_pm_opp_free_cpufreq_table(cpu_dev, &d->table);
			dev_pm_opp_of_cpumask_remove_table(d->cpus);
		} else {
			kfree(d->table);
		}
		mutex_destroy(&d->cdev_lock);
		free_cpumask_var(d->cpus);
	}
	kfree(emu_domains);
	emu_domains = NULL;
	emu_nr_domains = 0;
	for (i = 0; i < emu_nr_clocks; i++)
		free_cpumask_var(emu_clocks[i]);
	kfree(emu_clocks);
	emu_clocks = NULL;
	emu_nr_clocks = 0;
}

static int __init emu_cpufreq_module_init(void)
{
	unsigned int i, cpu;
	int ret;

	if (emulate_speed && (speed_period_us < EMU_SPEED_PERIOD_US_MIN ||
			      speed_period_us > EMU_SPEED_PERIOD_US_MAX)) {
		pr_err("speed_period_us=%u is out of range: use %u..%u\n",
		       speed_period_us, EMU_SPEED_PERIOD_US_MIN,
		       EMU_SPEED_PERIOD_US_MAX);
		return -EINVAL;
	}
	if (freqs && *freqs)
		ret = emu_domains_from_params();
	else
		ret = emu_domains_from_dt();
	if (!ret)
		ret = emu_parse_clocks();
	if (ret)
		goto err;

	for (i = 0; i < emu_nr_domains; i++) {
		struct emu_domain *d = &emu_domains[i];

		if (!d->table)
			continue;
		for_each_cpu(cpu, d->cpus)
			per_cpu(emu_domain_of, cpu) = d;
		pr_info("policy CPUs %*pbl: %u frequencies, %u..%u kHz\n",
			cpumask_pr_args(d->cpus), d->nr_freqs,
			d->table[0].frequency,
			d->table[d->nr_freqs - 1].frequency);
	}

	/*
	 * Device-tree domains use the generic cpufreq cooling device, which
	 * the cpufreq core registers from the CPU nodes' #cooling-cells (and
	 * which uses the energy model for its power callbacks).
	 */
	emu_core_cooling = emu_domains[0].from_dt &&
			   IS_ENABLED(CONFIG_CPU_FREQ_THERMAL);
	if (emu_core_cooling)
		emu_cpufreq_driver.flags |= CPUFREQ_IS_COOLING_DEV;
	else
		emu_cpufreq_driver.flags &= ~CPUFREQ_IS_COOLING_DEV;

	ret = cpufreq_register_driver(&emu_cpufreq_driver);
	if (ret) {
		pr_err("cannot register the cpufreq driver (%d)%s\n", ret,
		       ret == -EEXIST || ret == -EBUSY ?
		       ": another cpufreq driver is registered" : "");
		goto err;
	}
	if (emulate_speed) {
		ret = emu_speed_start(speed_period_us);
		if (ret) {
			cpufreq_unregister_driver(&emu_cpufreq_driver);
			goto err;
		}
	}
	emu_hw_cap_start();
	return 0;

err:
	emu_free_domains();
	return ret;
}
module_init(emu_cpufreq_module_init);

static void __exit emu_cpufreq_module_exit(void)
{
	unsigned int i;

	emu_hw_cap_stop();
	for (i = 0; i < emu_nr_domains; i++)
		if (emu_domains[i].hw_cap)
			emu_set_hw_cap(cpumask_first(emu_domains[i].cpus), 0);
	/* No frequency change, hence no kick, after the driver is gone. */
	cpufreq_unregister_driver(&emu_cpufreq_driver);
	if (emulate_speed)
		emu_speed_stop();
	emu_free_domains();
}
module_exit(emu_cpufreq_module_exit);

MODULE_DESCRIPTION("Emulated cpufreq driver with cooling devices and an energy model");
MODULE_LICENSE("GPL");
