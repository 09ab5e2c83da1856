/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the measuring programs (utilramp, freqramp, freqduty) share: option
 * parsing, the clock, pinning, reading a number from a kernel attribute,
 * the busy polling loop, and for the two frequency programs the CPU's
 * cpufreq attributes, the settling before a measurement and the trace file.
 * Errors are said on stderr, starting with the program's name.
 */
#ifndef BENCHLIB_H
#define BENCHLIB_H

#include <stdint.h>
#include <stdio.h>

/* Parse a decimal integer in [min, max] into *v: 0, or -1 if it is not one. */
int bl_parse_long(const char *s, long min, long max, long *v);

/* bl_parse_long() or exit 2 with "PROG: 'S' is not a number in [MIN, MAX]". */
long bl_number(const char *prog, const char *s, long min, long max);

/* The options the programs share: -c CPU, -s SLEEP_MS, -T TRACE.csv, -n. */
struct bl_opts {
	int cpu;		/* -1: the CPU it starts on */
	long sleep_ms;		/* 1000 */
	const char *trace;	/* NULL */
	int check;		/* only check the interfaces */
};

void bl_opts_init(struct bl_opts *o);
/* Take getopt's @opt and @arg if the option is a shared one: 1, else 0. */
int bl_opt(const char *prog, int opt, const char *arg, struct bl_opts *o);

/*
 * @loops steps of xorshift64 from @x, a fixed amount of integer work:
 * each step depends on the last, nothing to vectorize.  Keep the result,
 * so that the loop is not removed.
 */
uint64_t bl_work(long loops, uint64_t x);

/* CLOCK_MONOTONIC in milliseconds. */
double bl_now_ms(void);

/* Sleep @ms milliseconds (restarted when interrupted). */
void bl_sleep_ms(double ms);

/* Run the calling thread on @cpu only: 0, or -1 with errno. */
int bl_pin(int cpu);

/* Pin to @cpu, or to the CPU it runs on when @cpu < 0: that CPU, or -1. */
int bl_pin_cpu(const char *prog, int cpu);

/* The first integer in the file at @path, or -1. */
long bl_read_long(const char *path);

/*
 * An attribute kept open for fast repeated reads (sysfs allows pread at
 * offset 0 to read it again).
 */
struct bl_attr {
	int fd;
};

int bl_attr_open(struct bl_attr *a, const char *path);	/* 0 or -1, errno */
long bl_attr_read(const struct bl_attr *a);		/* the value or -1 */
void bl_attr_close(struct bl_attr *a);

/*
 * scaling_cur_freq of every CPU, for a task that the scheduler moves:
 * an array of *@ncpu attributes, or NULL after saying which CPU has no
 * cpufreq policy.
 */
struct bl_attr *bl_cur_freqs_open(const char *prog, int *ncpu);
/* The frequency of the CPU the caller runs on, in kHz, or -1. */
long bl_cur_freq_here(const struct bl_attr *cur, int ncpu);

/*
 * A field of this task's /proc/self/sched (CONFIG_SCHED_DEBUG), e.g.
 * "se.avg.util_avg", or -1 when it is missing.
 */
long bl_sched_field(const char *name);

/* The light load of bl_settle(): 1 ms of every 20 ms. */
#define BL_SETTLE_RUN_MS	1
#define BL_SETTLE_PERIOD_MS	20
/* bl_settle() waits for the task's util_est to fall to this or below, */
#define BL_SETTLE_UTIL_EST	150
/* and bl_cpufreq_settle() for at most this much more than it was asked. */
#define BL_SETTLE_EXTRA_MS	10000

/*
 * Before a measurement, bring the task and its CPU to the state of a task
 * that has been nearly idle for a while: run a light load (1 ms of every
 * 20 ms) until @idle_ms have passed, @cur reads @floor_khz (the lowest
 * frequency) or less and the task's se.avg.util_est, where /proc/self/sched
 * shows it, is at most BL_SETTLE_UTIL_EST; or until @max_ms have passed.
 * 0 when it got there, else -1.  *@khz and *@util_est get the last values
 * read.
 *
 * Why not just sleep: a new process starts with about half of its CPU's
 * spare capacity as utilization, and its first sleep makes that its
 * util_est.  Sleeping keeps an estimate; only activations bring it down,
 * and only those in which the task barely waited for the CPU (runnable_avg
 * close to util_avg).  Hence 1 ms of work at a time rather than empty
 * wake-ups every millisecond, which in an emulator are mostly wake-up
 * latency.  The measurement then starts from what a task that really is
 * that light gets.
 */
int bl_settle(const struct bl_attr *cur, long floor_khz, double idle_ms,
	      double max_ms, long *khz, long *util_est);

/* A CPU and its cpufreq policy, as the frequency programs use them. */
struct bl_cpufreq {
	int cpu;
	long max_khz;		/* cpuinfo_max_freq */
	long min_khz;		/* scaling_min_freq */
	struct bl_attr cur;	/* scaling_cur_freq */
};

/* Pin to @cpu (< 0: the current CPU) and open its cpufreq attributes: 0 or -1. */
int bl_cpufreq_open(struct bl_cpufreq *f, const char *prog, int cpu);

/* bl_settle() at the policy's lowest frequency, for @idle_ms or longer: 0 or -1. */
int bl_cpufreq_settle(struct bl_cpufreq *f, const char *prog, long idle_ms);

/* Open @path for writing a trace (NULL: no trace, *@fp = NULL): 0 or -1. */
int bl_trace_open(const char *prog, const char *path, FILE **fp);
/* Close the trace @fp of @path (NULL: nothing to do): 0 or -1. */
int bl_trace_close(const char *prog, const char *path, FILE *fp);

/*
 * Spin, calling @read(@ctx, t) with t the milliseconds from the start to
 * the call, until it returns a value >= @target or @timeout_ms have passed.
 * Returns the t of the read that saw the target, or -1 on timeout; *@last
 * gets the last value read.  (The start of the read, not its end: a vCPU
 * preempted by its host in the middle of a read would add the time it
 * waited to the result.)
 */
double bl_poll(long (*read)(void *ctx, double t), void *ctx, long target,
	       double timeout_ms, long *last);

#endif
