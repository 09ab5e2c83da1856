// SPDX-License-Identifier: GPL-2.0
/*
 * A hardware frequency cap, as firmware or a power controller imposes one
 * (Qualcomm's LMh, for example): the scheduler is told of it through
 * arch_update_hw_pressure(), which feeds the hw_load_avg signal, while the
 * policy's limits and the cpufreq pressure stay as they are.  It lets the
 * tests see how the scheduler treats a cap it learns of that way.
 *
 *   echo "CPU KHZ" > /sys/kernel/debug/cpufreq_emu_hw_cap
 *
 * caps the domain (policy) of CPU at KHZ, which must lie within its table;
 * KHZ 0 lifts the cap.  Reading lists each domain's cap, 0 for none.  The
 * speed emulation does not follow the cap: only the scheduler's view does.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/kernel.h>
#include <linux/sched/topology.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "emu.h"

static struct dentry *emu_hw_cap_debugfs;

static int emu_hw_cap_show(struct seq_file *m, void *v)
{
	emu_hw_cap_print(m);
	return 0;
}

static ssize_t emu_hw_cap_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	unsigned int cpu, khz;
	char buf[32];
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%u %u", &cpu, &khz) != 2)
		return -EINVAL;

	ret = emu_set_hw_cap(cpu, khz);
	return ret ? ret : count;
}

DEFINE_SHOW_STORE_ATTRIBUTE(emu_hw_cap);

/* Only where the architecture feeds a hardware pressure to the scheduler */
void emu_hw_cap_start(void)
{
	if (IS_ENABLED(CONFIG_SCHED_HW_PRESSURE))
		emu_hw_cap_debugfs = debugfs_create_file("cpufreq_emu_hw_cap",
							 0644, NULL, NULL,
							 &emu_hw_cap_fops);
}

void emu_hw_cap_stop(void)
{
	debugfs_remove(emu_hw_cap_debugfs);
}
