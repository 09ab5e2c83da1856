/* SPDX-License-Identifier: GPL-2.0 */
/* What the parts of cpufreq_emu share. */
#ifndef CPUFREQ_EMU_H
#define CPUFREQ_EMU_H

/*
 * The slowest speed emulated, of SCHED_CAPACITY_SCALE: a CPU spends at
 * most 7/8 of each period spinning, so that the tasks of a CPU at its
 * lowest OPP keep an eighth of its time (see speed.c).
 */
#define EMU_MIN_SPEED	(SCHED_CAPACITY_SCALE / 8)

/* speed.c */
int emu_speed_start(unsigned int period_us);
void emu_speed_stop(void);
void emu_speed_changed(const struct cpumask *cpus);

/* driver.c: @cpu's speed now, EMU_MIN_SPEED..SCHED_CAPACITY_SCALE. */
unsigned int emu_cpu_speed(unsigned int cpu);

/* driver.c: the hardware cap of @cpu's domain, 0 to lift it. */
struct seq_file;
int emu_set_hw_cap(unsigned int cpu, unsigned int khz);
void emu_hw_cap_print(struct seq_file *m);

/* hw_cap.c */
void emu_hw_cap_start(void);
void emu_hw_cap_stop(void);

#endif
