// SPDX-License-Identifier: GPL-2.0
/*
 * schedtrace: reduce a trace.dat recorded with trace-cmd to per-task util
 * ramps and per-CPU frequency, capacity, pressure (hw and the series'
 * averaged thermal pressure), migration and steal figures.  See
 * Documentation/tracing.rst.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read.h"
#include "report.h"
#include "stats.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: schedtrace [options] TRACE.DAT\n"
"  -f, --util-fraction F  report the time a task's util takes to reach\n"
"                         F * 1024 (0 < F <= 1; repeatable; default 0.8)\n"
"  -r, --ramp-from U      only ramps starting at util U or below (e.g. 50\n"
"                         for ramps from rest; default: any)\n"
"  -p, --pid PID          only this task\n"
"  -c, --comm NAME        only tasks whose comm matches NAME, a shell\n"
"                         pattern (e.g. 'hog-*')\n"
"  -o, --out DIR          write CSV files and summary.json into DIR\n"
"  -g, --plot             with --out, also util.png, freq.png, pressure.png\n"
"  -j, --json             print the summary as JSON instead of text\n"
"  -n, --need LIST        analyses that must be possible, comma separated:\n"
"                         util,freq,capacity,migrations,steal,thermal\n"
"                         (default: those the trace has events for; at\n"
"                         least one)\n"
"  -h, --help\n");
}

static int parse_need(const char *arg, unsigned int *need)
{
	static const struct { const char *name; unsigned int bit; } names[] = {
		{ "util", NEED_UTIL }, { "freq", NEED_FREQ },
		{ "capacity", NEED_CAPACITY }, { "migrations", NEED_MIGRATIONS },
		{ "steal", NEED_STEAL }, { "thermal", NEED_THERMAL },
		{ "all", NEED_ALL },
	};
	char buf[256], *tok, *save = NULL;
	size_t i;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	*need = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(tok, names[i].name))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			fprintf(stderr, "schedtrace: --need: unknown analysis '%s'\n", tok);
			return -1;
		}
		*need |= names[i].bit;
	}
	return *need ? 0 : -1;
}

static int parse_args(int argc, char **argv, struct options *o,
		      unsigned int *need)
{
	static const struct option longs[] = {
		{ "util-fraction", required_argument, NULL, 'f' },
		{ "ramp-from", required_argument, NULL, 'r' },
		{ "pid", required_argument, NULL, 'p' },
		{ "comm", required_argument, NULL, 'c' },
		{ "out", required_argument, NULL, 'o' },
		{ "plot", no_argument, NULL, 'g' },
		{ "json", no_argument, NULL, 'j' },
		{ "need", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "f:r:p:c:o:gjn:h", longs, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (o->nfractions == MAX_FRACTIONS) {
				fprintf(stderr, "schedtrace: at most %d fractions\n",
					MAX_FRACTIONS);
				return -1;
			}
			o->fractions[o->nfractions] = strtod(optarg, &end);
			if (*end || end == optarg ||
			    !(o->fractions[o->nfractions] > 0 &&
			      o->fractions[o->nfractions] <= 1)) {
				fprintf(stderr, "schedtrace: --util-fraction wants a "
					"number in (0, 1], not '%s'\n", optarg);
				return -1;
			}
			o->nfractions++;
			break;
		case 'r':
			o->ramp_from = strtoul(optarg, &end, 10);
			if (*end || end == optarg || *optarg == '-' ||
			    o->ramp_from > 1024) {
				fprintf(stderr, "schedtrace: --ramp-from wants a "
					"util in 0..1024, not '%s'\n", optarg);
				return -1;
			}
			break;
		case 'p':
			o->pid = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || o->pid <= 0) {
				fprintf(stderr, "schedtrace: --pid wants a positive "
					"number, not '%s'\n", optarg);
				return -1;
			}
			break;
		case 'c':
			o->comm = optarg;
			break;
		case 'o':
			o->out = optarg;
			break;
		case 'g':
			o->plot = 1;
			break;
		case 'j':
			o->json = 1;
			break;
		case 'n':
			if (parse_need(optarg, need))
				return -1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "schedtrace: %s\n", optind < argc ?
			"one trace file only" : "no trace file given");
		usage(stderr);
		return -1;
	}
	if (o->plot && !o->out) {
		fprintf(stderr, "schedtrace: --plot needs --out DIR\n");
		return -1;
	}
	o->trace = argv[optind];
	if (!o->nfractions)
		o->fractions[o->nfractions++] = 0.8;
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	struct trace tr;
	unsigned int need = 0;
	int ret = 0;

	memset(&o, 0, sizeof(o));
	o.ramp_from = RAMP_FROM_ANY;
	memset(&tr, 0, sizeof(tr));
	if (parse_args(argc, argv, &o, &need))
		return 2;
	if (trace_read(o.trace, need ? need : NEED_ALL, need != 0, &tr, &o.have))
		return 1;
	if (o.json)
		report_json(stdout, &tr, &o);
	else
		report_text(stdout, &tr, &o);
	if (o.out && report_csv(o.out, &tr, &o))
		ret = 1;
	if (!ret && o.plot && report_plots(o.out, &tr, &o))
		ret = 1;
	trace_free(&tr);
	return ret;
}
