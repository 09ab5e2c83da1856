// SPDX-License-Identifier: GPL-2.0
/* schedtrace: trace.dat to struct trace, through libtracecmd. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <trace-cmd.h>
#include <event-parse.h>

#include "read.h"

struct reader {
	struct tep_handle *tep;
	struct trace *tr;
	struct tep_event *pelt_se, *freq, *cap, *hw, *migrate, *steal, *therm;
	unsigned long long t0;
	int have_t0;
	unsigned long records;
};

const char *need_events(unsigned int need)
{
	switch (need) {
	case NEED_UTIL:
		return "sched_events:pelt_se";
	case NEED_FREQ:
		return "power:cpu_frequency";
	case NEED_CAPACITY:
		return "sched_events:cpu_capacity";
	case NEED_MIGRATIONS:
		return "sched:sched_migrate_task";
	case NEED_STEAL:
		return "sched_events:steal";
	case NEED_THERMAL:
		return "sched_events:thermal_pressure";
	default:
		return "?";
	}
}

static unsigned long long field(struct tep_event *ev, struct tep_record *rec,
				const char *name, int *ok)
{
	unsigned long long v = 0;

	if (tep_get_field_val(NULL, ev, name, rec, &v, 0))
		*ok = 0;
	return v;
}

/* A task's comm, with control characters (from /proc/PID/comm) as '?'. */
static void comm_of(struct tep_event *ev, struct tep_record *rec,
		    const char *name, char *comm)
{
	int len = 0, i;
	const char *p = tep_get_field_raw(NULL, ev, name, rec, &len, 0);

	comm[0] = '\0';
	if (!p || len <= 0)
		return;
	if (len > COMM_LEN - 1)
		len = COMM_LEN - 1;
	memcpy(comm, p, len);
	comm[len] = '\0';
	for (i = 0; comm[i]; i++)
		if ((unsigned char)comm[i] < 0x20 || comm[i] == 0x7f)
			comm[i] = '?';
}

static int bad_record(const char *what)
{
	fprintf(stderr, "schedtrace: a %s record lacks an expected field "
		"(a different event format?)\n", what);
	return -1;
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec,
		     int rcpu, void *data)
{
	struct reader *rd = data;
	struct trace *tr = rd->tr;
	int id = tep_data_type(rd->tep, rec), ok = 1;
	char comm[COMM_LEN];
	struct cpu *c;
	double t;

	(void)h;
	(void)rcpu;
	if (!rd->have_t0) {
		rd->t0 = rec->ts;
		rd->have_t0 = 1;
	}
	t = (double)(rec->ts - rd->t0) / 1e9;
	if (t > tr->t_end)
		tr->t_end = t;
	rd->records++;

	if (rd->pelt_se && id == rd->pelt_se->id) {
		struct util_sample s;
		int pid = (int)(long long)field(rd->pelt_se, rec, "pid", &ok);

		s.t = t;
		s.cpu = (int)field(rd->pelt_se, rec, "cpu", &ok);
		s.util = field(rd->pelt_se, rec, "util", &ok);
		s.runnable = field(rd->pelt_se, rec, "runnable", &ok);
		s.load = field(rd->pelt_se, rec, "load", &ok);
		if (!ok)
			return bad_record("sched_events:pelt_se");
		tr->n_pelt_se++;
		if (pid <= 0)		/* group entities, the idle task */
			return 0;
		comm_of(rd->pelt_se, rec, "comm", comm);
		task_add(trace_task(tr, pid, comm), &s);
	} else if (rd->freq && id == rd->freq->id) {
		unsigned long khz = field(rd->freq, rec, "state", &ok);
		int cpu = (int)field(rd->freq, rec, "cpu_id", &ok);

		if (!ok)
			return bad_record("power:cpu_frequency");
		tr->n_freq++;
		c = trace_cpu(tr, cpu);
		if (c)
			cpu_add_freq(c, t, khz);
	} else if (rd->cap && id == rd->cap->id) {
		struct cap_sample s;
		int cpu = (int)field(rd->cap, rec, "cpu", &ok);

		s.t = t;
		s.capacity = field(rd->cap, rec, "capacity", &ok);
		s.capacity_orig = field(rd->cap, rec, "capacity_orig", &ok);
		s.pressure = field(rd->cap, rec, "pressure", &ok);
		if (!ok)
			return bad_record("sched_events:cpu_capacity");
		tr->n_cap++;
		c = trace_cpu(tr, cpu);
		if (c)
			cpu_add_cap(c, &s);
	} else if (rd->hw && id == rd->hw->id) {
		int cpu = (int)field(rd->hw, rec, "cpu", &ok);
		unsigned long p = field(rd->hw, rec, "util", &ok);

		if (!ok)
			return bad_record("sched_events:pelt_hw");
		tr->n_hw++;
		c = trace_cpu(tr, cpu);
		if (c)
			cpu_add_hw(c, t, p);
	} else if (rd->migrate && id == rd->migrate->id) {
		int pid = (int)field(rd->migrate, rec, "pid", &ok);
		int from = (int)field(rd->migrate, rec, "orig_cpu", &ok);
		int to = (int)field(rd->migrate, rec, "dest_cpu", &ok);

		if (!ok)
			return bad_record("sched:sched_migrate_task");
		tr->n_migrate++;
		comm_of(rd->migrate, rec, "comm", comm);
		trace_task(tr, pid, comm)->migrations++;
		c = trace_cpu(tr, from);
		if (c)
			c->migrations_out++;
		c = trace_cpu(tr, to);
		if (c)
			c->migrations_in++;
	} else if (rd->steal && id == rd->steal->id) {
		int src = (int)field(rd->steal, rec, "src_cpu", &ok);
		int dst = (int)field(rd->steal, rec, "dst_cpu", &ok);

		if (!ok)
			return bad_record("sched_events:steal");
		tr->n_steal++;
		c = trace_cpu(tr, dst);
		if (c)
			c->steals++;
		c = trace_cpu(tr, src);
		if (c)
			c->stolen_from++;
	} else if (rd->therm && id == rd->therm->id) {
		struct therm_sample s;
		int cpu = (int)field(rd->therm, rec, "cpu", &ok);

		s.t = t;
		s.instant = field(rd->therm, rec, "instant", &ok);
		s.avg = field(rd->therm, rec, "avg", &ok);
		if (!ok)
			return bad_record("sched_events:thermal_pressure");
		tr->n_therm++;
		c = trace_cpu(tr, cpu);
		if (c)
			cpu_add_therm(c, &s);
	}
	return 0;
}

/*
 * Refuse what is not a trace.dat before libtracecmd sees it, so that the
 * error names the problem.  A truncated file then fails in
 * tracecmd_init_data(), which checks each CPU's data against the file size.
 */
static int check_open(const char *path)
{
	struct stat st;
	FILE *f;
	char magic[10];

	if (stat(path, &st)) {
		fprintf(stderr, "schedtrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "schedtrace: %s: not a regular file\n", path);
		return -1;
	}
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "schedtrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (fread(magic, 1, sizeof(magic), f) != sizeof(magic) ||
	    memcmp(magic, "\x17\x08\x44tracing", 10)) {
		fclose(f);
		fprintf(stderr, "schedtrace: %s: not a trace.dat file "
			"(record one with 'trace-cmd record')\n", path);
		return -1;
	}
	fclose(f);
	return 0;
}

static unsigned int have_mask(const struct reader *rd)
{
	unsigned int have = 0;

	if (rd->pelt_se)
		have |= NEED_UTIL;
	if (rd->freq)
		have |= NEED_FREQ;
	if (rd->cap)
		have |= NEED_CAPACITY;
	if (rd->migrate)
		have |= NEED_MIGRATIONS;
	if (rd->steal)
		have |= NEED_STEAL;
	if (rd->therm)
		have |= NEED_THERMAL;
	return have;
}

int trace_read(const char *path, unsigned int want, int strict,
	       struct trace *tr, unsigned int *have)
{
	struct tracecmd_input *h;
	struct reader rd;
	unsigned int b, missing;
	int ret;

	if (check_open(path))
		return -1;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	/*
	 * tracecmd_open() is tracecmd_open_head() plus tracecmd_init_data(),
	 * but libtracecmd 3.1 crashes cleaning up after the latter fails (a
	 * file cut in its data); so call both, and on that failure leave the
	 * handle alone: the program is about to exit.
	 */
	h = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "schedtrace: %s: cannot read its headers: "
			"truncated or damaged trace.dat\n", path);
		return -1;
	}
	if (tracecmd_init_data(h) < 0) {
		fprintf(stderr, "schedtrace: %s: the event data is cut short: "
			"truncated trace.dat (was trace-cmd stopped early?)\n",
			path);
		return -1;
	}
	memset(&rd, 0, sizeof(rd));
	rd.tep = tracecmd_get_tep(h);
	rd.tr = tr;
	rd.pelt_se = tep_find_event_by_name(rd.tep, "sched_events", "pelt_se");
	rd.freq = tep_find_event_by_name(rd.tep, "power", "cpu_frequency");
	rd.cap = tep_find_event_by_name(rd.tep, "sched_events", "cpu_capacity");
	rd.hw = tep_find_event_by_name(rd.tep, "sched_events", "pelt_hw");
	rd.migrate = tep_find_event_by_name(rd.tep, "sched", "sched_migrate_task");
	rd.steal = tep_find_event_by_name(rd.tep, "sched_events", "steal");
	rd.therm = tep_find_event_by_name(rd.tep, "sched_events",
					  "thermal_pressure");

	*have = have_mask(&rd) & want;
	missing = want & ~*have;
	if (!*have || (strict && missing)) {
		fprintf(stderr, "schedtrace: %s: the trace lacks the events needed:\n",
			path);
		for (b = 1; b < NEED_ALL; b <<= 1)
			if (missing & b)
				fprintf(stderr, "  %s\n", need_events(b));
		fprintf(stderr, "record them with trace-cmd record -e ... "
			"(sched_events needs the sched_events module loaded)\n");
		tracecmd_close(h);
		return -1;
	}

	trace_init(tr, tep_get_cpus(rd.tep));
	ret = tracecmd_iterate_events(h, NULL, 0, on_record, &rd);
	tracecmd_close(h);
	if (ret < 0) {
		fprintf(stderr, "schedtrace: %s: reading the events failed "
			"(truncated file?)\n", path);
		return -1;
	}
	if (!rd.records) {
		fprintf(stderr, "schedtrace: %s: the trace holds no events "
			"(truncated, or nothing happened while recording)\n", path);
		return -1;
	}
	return 0;
}
