// SPDX-License-Identifier: GPL-2.0
/*
 * ipi_roundtrip: how long a CPU takes to answer an IPI, for the tests of
 * the emulated boards.
 *
 * Writing "CPU SAMPLES" to /sys/kernel/debug/ipi_roundtrip sends SAMPLES
 * function-call IPIs from the writing CPU to CPU, each waiting for the
 * empty function to have run there, and keeps the time of each round
 * trip.  Between two, the sender waits a random time of up to
 * IPI_RT_GAP_US, busy: IPIs sent back to back would fall into the gaps
 * of whatever keeps CPU from answering (the first one to wait out a
 * stretch is answered at its end, and the next ones at once), and
 * measure the length of the gaps, not the wait of an IPI that comes at
 * any time.  Reading the file gives the last measurement:
 *
 *	cpu=2 from=0 samples=1000 mean_ns=... p50_ns=... p90_ns=... p99_ns=... max_ns=...
 *
 * The writer must stay on one CPU other than CPU (pin it there): a round
 * trip that would start on CPU itself, or on another CPU than the first
 * one, fails the write with EINVAL.  The percentiles are nearest-rank:
 * p90 of 2000 round trips is the 1800th shortest.  A fatal signal stops
 * a measurement (EINTR).  This is the cost an
 * IPI-driven wake-up, a remote TLB flush or an smp_call_function() pays
 * on the way to a busy CPU, which the speed emulation of cpufreq_emu
 * must not stretch the way it stretches the CPU's computing.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define IPI_RT_SAMPLES_MAX	10000
#define IPI_RT_GAP_US		1000

/* The last measurement, under ipi_rt_lock. */
struct ipi_rt_result {
	unsigned int cpu;
	unsigned int from;
	unsigned int samples;
	u64 mean_ns;
	u64 p50_ns;
	u64 p90_ns;
	u64 p99_ns;
	u64 max_ns;
};

static DEFINE_MUTEX(ipi_rt_lock);
static struct ipi_rt_result ipi_rt_last;
static bool ipi_rt_valid;
static struct dentry *ipi_rt_file;

static void ipi_rt_nop(void *info)
{
}

static int ipi_rt_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* The index of the @pct-th percentile of @n sorted values, nearest-rank. */
static unsigned int ipi_rt_rank(unsigned int n, unsigned int pct)
{
	return DIV_ROUND_UP(n * pct, 100) - 1;
}

/* @samples round trips to @cpu; the percentiles into @res. */
static int ipi_rt_measure(unsigned int cpu, unsigned int samples,
			  struct ipi_rt_result *res)
{
	unsigned int i, from = 0;
	u64 *t, sum = 0;
	int ret = 0;

	t = kvmalloc_array(samples, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	for (i = 0; i < samples; i++) {
		u64 start;

		/* The same sender for every sample, and never @cpu itself. */
		from = get_cpu();
		if (from == cpu || (i && from != res->from)) {
			put_cpu();
			ret = -EINVAL;
			break;
		}
		res->from = from;
		start = ktime_get_ns();
		ret = smp_call_function_single(cpu, ipi_rt_nop, NULL, 1);
		t[i] = ktime_get_ns() - start;
		put_cpu();
		sum += t[i];
		if (ret)
			break;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
		udelay(get_random_u32_below(IPI_RT_GAP_US));
	}
	if (!ret) {
		sort(t, samples, sizeof(*t), ipi_rt_cmp, NULL);
		res->cpu = cpu;
		res->samples = samples;
		res->mean_ns = div_u64(sum, samples);
		res->p50_ns = t[ipi_rt_rank(samples, 50)];
		res->p90_ns = t[ipi_rt_rank(samples, 90)];
		res->p99_ns = t[ipi_rt_rank(samples, 99)];
		res->max_ns = t[samples - 1];
	}
	kvfree(t);
	return ret;
}

static ssize_t ipi_rt_write(struct file *file, const char __user *ubuf,
			    size_t len, loff_t *ppos)
{
	struct ipi_rt_result res = { };
	unsigned int cpu, samples;
	char buf[32], *sp;
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	sp = strchr(strim(buf), ' ');
	if (!sp)
		return -EINVAL;
	*sp++ = '\0';
	if (kstrtouint(buf, 10, &cpu) || kstrtouint(skip_spaces(sp), 10, &samples))
		return -EINVAL;
	if (cpu >= nr_cpu_ids || !cpu_online(cpu) || !samples ||
	    samples > IPI_RT_SAMPLES_MAX)
		return -EINVAL;

	if (mutex_lock_interruptible(&ipi_rt_lock))
		return -EINTR;
	ret = ipi_rt_measure(cpu, samples, &res);
	if (!ret) {
		ipi_rt_last = res;
		ipi_rt_valid = true;
	}
	mutex_unlock(&ipi_rt_lock);
	return ret ? ret : len;
}

static int ipi_rt_show(struct seq_file *m, void *v)
{
	mutex_lock(&ipi_rt_lock);
	if (ipi_rt_valid)
		seq_printf(m, "cpu=%u from=%u samples=%u mean_ns=%llu p50_ns=%llu p90_ns=%llu p99_ns=%llu max_ns=%llu\n",
			   ipi_rt_last.cpu, ipi_rt_last.from,
			   ipi_rt_last.samples, ipi_rt_last.mean_ns,
			   ipi_rt_last.p50_ns, ipi_rt_last.p90_ns,
			   ipi_rt_last.p99_ns, ipi_rt_last.max_ns);
	mutex_unlock(&ipi_rt_lock);
	return 0;
}

DEFINE_SHOW_STORE_ATTRIBUTE(ipi_rt);

static int __init ipi_rt_init(void)
{
	ipi_rt_file = debugfs_create_file("ipi_roundtrip", 0600, NULL, NULL,
					  &ipi_rt_fops);
	return 0;
}

static void __exit ipi_rt_exit(void)
{
	debugfs_remove(ipi_rt_file);
}

module_init(ipi_rt_init);
module_exit(ipi_rt_exit);

MODULE_DESCRIPTION("Time IPI round trips to a CPU, for the emulated boards' tests");
MODULE_LICENSE("GPL");
