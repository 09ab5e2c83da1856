/* SPDX-License-Identifier: GPL-2.0 */
/* schedtrace: trace.dat to struct trace, through libtracecmd. */
#ifndef SCHEDTRACE_READ_H
#define SCHEDTRACE_READ_H

#include "model.h"

/* What an analysis needs; a trace that lacks them is refused by name. */
enum need {
	NEED_UTIL = 1 << 0,		/* sched_events:pelt_se */
	NEED_FREQ = 1 << 1,		/* power:cpu_frequency */
	NEED_CAPACITY = 1 << 2,		/* sched_events:cpu_capacity */
	NEED_MIGRATIONS = 1 << 3,	/* sched:sched_migrate_task */
	NEED_STEAL = 1 << 4,		/* sched_events:steal */
	NEED_THERMAL = 1 << 5,		/* sched_events:thermal_pressure */
	NEED_ALL = (1 << 6) - 1,
};

/*
 * Read path into tr.  want: the analyses asked for; on return *have holds
 * those whose events the trace has.  Returns 0, or prints why and returns
 * non-zero: the file cannot be opened, is not a trace.dat, is truncated,
 * or lacks the events of an analysis asked for with strict set.
 */
int trace_read(const char *path, unsigned int want, int strict,
	       struct trace *tr, unsigned int *have);

const char *need_events(unsigned int need);

#endif
