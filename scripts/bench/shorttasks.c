// SPDX-License-Identifier: GPL-2.0
/*
 * shorttasks: the time a stream of short-lived processes takes, and the
 * frequency they ran at.  Starts TASKS processes, at most JOBS at a time,
 * as a build or a shell script does; each does LOOPS iterations of an
 * integer loop (a fixed amount of work, which takes longer at a lower
 * speed when the board emulates one) and exits.  The scheduler places
 * each new process where it likes, so the work hops between CPUs and no
 * task lives long enough for its own utilization to build up: the
 * frequency depends on how fast the governor answers a CPU's new load.
 *
 *   shorttasks [-N TASKS] [-j JOBS] [-l LOOPS] [-g GAP_US] [-T FILE] [-n]
 *
 * -g: the parent sleeps GAP_US after starting each task, as a script
 * that reads a file between two commands: the CPUs go idle in between,
 * so their utilization decays and each new task finds them slow.
 *
 * Prints "TIME_MS MEAN_MHZ": the wall time from the first fork to the last
 * exit, and the mean of scaling_cur_freq of the CPU each task ran on, read
 * when it starts and when it ends its work (the frequency the work ran
 * at, each task weighted alike, as each does the same work).  -n only
 * checks that the interfaces exist (exit 0) or says what is missing.
 *
 * -T FILE: one CSV line per task, in the order they were started, after a
 * header: "ms,khz,end_khz,cpu", the time its work started (from the first
 * fork), the frequency of its CPU then and when its work ended, and the
 * CPU.  It shows which levels the governor gave the stream's tasks, and
 * when: whether a rise lands halfway to the top.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "benchlib.h"

#define PROG "shorttasks"

/* What a task leaves for the parent: the frequency at its start and end. */
struct task_sample {
	double start_ms;	/* from the first fork */
	long khz_start;
	long khz_end;
	int cpu;
	uint64_t result;	/* the loop's result, so that it is not removed */
};

static void usage(void)
{
	fprintf(stderr, "usage: " PROG " [-N TASKS] [-j JOBS] [-l LOOPS] [-g GAP_US] [-T FILE] [-n]\n");
	exit(2);
}

static void task(struct task_sample *s, const struct bl_attr *cur, int ncpu, long loops,
		 double t0)
{
	s->start_ms = bl_now_ms() - t0;
	s->cpu = sched_getcpu();
	s->khz_start = bl_cur_freq_here(cur, ncpu);
	s->result = bl_work(loops, 88172645463325252ULL);
	s->khz_end = bl_cur_freq_here(cur, ncpu);
	_exit(0);
}

/* The -T file: 0, or -1 with a message. */
static int write_trace(const char *path, const struct task_sample *samples, long tasks)
{
	FILE *f = fopen(path, "w");
	long i;

	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "ms,khz,end_khz,cpu\n");
	for (i = 0; i < tasks; i++)
		fprintf(f, "%.3f,%ld,%ld,%d\n", samples[i].start_ms,
			samples[i].khz_start, samples[i].khz_end, samples[i].cpu);
	if (fclose(f)) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Wait for one task: 0, or -1 if it did not exit with 0. */
static int reap(void)
{
	int status;

	if (wait(&status) < 0) {
		fprintf(stderr, PROG ": wait: %s\n", strerror(errno));
		return -1;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	long tasks = 1000, jobs = 2, loops = 200000, gap_us = 0, i, running = 0, seen = 0;
	int opt, check = 0, ncpu, failed = 0;
	const char *trace = NULL;
	double t0, t1, khz_sum = 0;
	struct task_sample *samples;
	struct bl_attr *cur;

	while ((opt = getopt(argc, argv, "N:j:l:g:T:nh")) != -1) {
		switch (opt) {
		case 'N':
			tasks = bl_number(PROG, optarg, 1, 1000000);
			break;
		case 'j':
			jobs = bl_number(PROG, optarg, 1, 1024);
			break;
		case 'l':
			loops = bl_number(PROG, optarg, 1, 1000000000);
			break;
		case 'g':
			gap_us = bl_number(PROG, optarg, 0, 1000000);
			break;
		case 'T':
			trace = optarg;
			break;
		case 'n':
			check = 1;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	cur = bl_cur_freqs_open(PROG, &ncpu);
	if (!cur)
		return 1;
	if (check)
		return 0;

	samples = mmap(NULL, tasks * sizeof(*samples), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (samples == MAP_FAILED) {
		fprintf(stderr, PROG ": mmap: %s\n", strerror(errno));
		return 1;
	}

	t0 = bl_now_ms();
	for (i = 0; i < tasks; i++) {
		pid_t pid;

		if (running == jobs) {
			failed |= reap();
			running--;
		}
		pid = fork();
		if (pid < 0) {
			fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
			return 1;
		}
		if (pid == 0)
			task(&samples[i], cur, ncpu, loops, t0);
		running++;
		if (gap_us)
			bl_sleep_ms(gap_us / 1000.0);
	}
	while (running--)
		failed |= reap();
	t1 = bl_now_ms();
	if (failed) {
		fprintf(stderr, PROG ": a task failed\n");
		return 1;
	}

	for (i = 0; i < tasks; i++) {
		if (samples[i].khz_start < 0 || samples[i].khz_end < 0)
			continue;
		khz_sum += (samples[i].khz_start + samples[i].khz_end) / 2.0;
		seen++;
	}
	if (!seen) {
		fprintf(stderr, PROG ": no task could read its CPU's frequency\n");
		return 1;
	}
	if (trace && write_trace(trace, samples, tasks))
		return 1;
	printf("%.1f %.0f\n", t1 - t0, khz_sum / seen / 1000);
	return 0;
}
