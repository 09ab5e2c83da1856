// SPDX-License-Identifier: GPL-2.0
/*
 * schedcmp: compare benchmark samples taken with different settings.
 *
 *   schedcmp [--base NAME] [--pooled] [--order] [--json FILE] [--plot DIR] FILE...
 *
 * Exit status: 0 on success, 1 on bad input or an output error, 2 on usage.
 */
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "json.h"
#include "plot.h"
#include "table.h"

static void usage(FILE *fp)
{
	fputs("usage: schedcmp [--base NAME] [--pooled] [--order] [--json FILE] [--plot DIR] FILE...\n"
	      "Compare raw benchmark samples (\"-\" reads stdin) per benchmark and\n"
	      "parameter: min, mean, stddev, coeffvar, max per setting, the %\n"
	      "change against the first setting (positive is better), its 95%\n"
	      "confidence interval and Welch's t-test p-value.\n"
	      "  --base NAME  compare against column NAME instead of the first\n"
	      "  --pooled     also pool each setting against the base over all\n"
	      "               parameters of a benchmark, paired by round\n"
	      "  --order      also the order of the runs: each place in the round\n"
	      "               against its round's mean, each column's later half\n"
	      "               of runs against its earlier half\n"
	      "  --json FILE  also write the results as JSON (\"-\": stdout)\n"
	      "  --plot DIR   write gnuplot scripts and, with gnuplot, PNGs to DIR\n",
	      fp);
}

static int has_skips(const struct dataset *ds)
{
	size_t i;

	for (i = 0; i < ds->nsrc; i++)
		if (source_meta(&ds->src[i], "skipped"))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *json = NULL, *plot = NULL, *base = NULL;
	struct dataset ds = { 0 };
	struct report r;
	char err[1024];
	int i, nfiles = 0, ret = 0, pooled = 0, order = 0;

	for (i = 1; i < argc; i++) {
		const char **opt = NULL;

		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--pooled")) {
			pooled = 1;
			continue;
		} else if (!strcmp(argv[i], "--order")) {
			order = 1;
			continue;
		} else if (!strcmp(argv[i], "--json")) {
			opt = &json;
		} else if (!strcmp(argv[i], "--plot")) {
			opt = &plot;
		} else if (!strcmp(argv[i], "--base")) {
			opt = &base;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "schedcmp: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			break;
		}
		if (++i == argc) {
			fprintf(stderr, "schedcmp: %s needs an argument\n", argv[i - 1]);
			return 2;
		}
		*opt = argv[i];
	}
	if (i == argc) {
		usage(stderr);
		return 2;
	}

	for (; i < argc; i++, nfiles++) {
		if (samples_load(&ds, argv[i], err, sizeof(err))) {
			fprintf(stderr, "schedcmp: %s\n", err);
			dataset_free(&ds);
			return 1;
		}
	}
	if (!ds.n && !has_skips(&ds)) {
		fprintf(stderr, "schedcmp: no samples in %s%s\n", argv[argc - 1],
			nfiles > 1 ? " and the other files" : "");
		dataset_free(&ds);
		return 1;
	}
	if (report_build(&ds, base, &r, err, sizeof(err))) {
		fprintf(stderr, "schedcmp: %s\n", err);
		report_free(&r);
		dataset_free(&ds);
		return 1;
	}
	if ((pooled && report_pool(&ds, &r, err, sizeof(err))) ||
	    (order && report_order(&ds, &r, err, sizeof(err)))) {
		fprintf(stderr, "schedcmp: %s\n", err);
		report_free(&r);
		dataset_free(&ds);
		return 1;
	}

	table_print(stdout, &ds, &r);
	if (!ds.n)
		printf("\nno samples: every benchmark was skipped\n");

	if (json) {
		FILE *fp = strcmp(json, "-") ? fopen(json, "w") : stdout;

		if (!fp) {
			perror(json);
			ret = 1;
		} else {
			json_write(fp, &ds, &r);
			if (fp != stdout ? fclose(fp) : fflush(fp)) {
				perror(json);
				ret = 1;
			}
		}
	}
	if (plot && plot_write(plot, &r, err, sizeof(err))) {
		fprintf(stderr, "schedcmp: %s\n", err);
		ret = 1;
	}
	report_free(&r);
	dataset_free(&ds);
	if (fflush(stdout)) {
		perror("stdout");
		ret = 1;
	}
	return ret;
}
