/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw sample files: "# key: value" metadata lines, then one sample per line:
 *   benchmark parameter setting round value unit direction [timestamp]
 * separated by tabs or spaces.  See Documentation/benchmarks.rst.
 */
#ifndef SCHEDCMP_SAMPLES_H
#define SCHEDCMP_SAMPLES_H

#include <stddef.h>
#include <stdio.h>

enum direction { DIR_LOWER, DIR_HIGHER };

struct meta {
	char *key;
	char *value;
};

struct source {
	char *path;
	char *label;		/* "# label:" or the file name without extension */
	struct meta *meta;	/* in file order; keys may repeat (skipped, failed) */
	size_t nmeta;
};

struct sample {
	size_t src;		/* index into dataset.src */
	unsigned long line;	/* line number in that file */
	char *bench;
	char *param;
	char *setting;
	unsigned long round;
	double value;
	char *unit;
	enum direction dir;
	long long ts;		/* -1 when absent */
};

struct dataset {
	struct source *src;
	size_t nsrc;
	struct sample *s;
	size_t n;
};

/*
 * Append the samples of @path ("-" is stdin) to @ds.  On a malformed line
 * return -1 with "path:line: reason" in @err; 0 on success.
 */
int samples_load(struct dataset *ds, const char *path, char *err, size_t errlen);

/* Parse one sample line (without newline); the test suite uses it directly. */
int samples_parse_line(char *line, struct sample *out, char *why, size_t whylen);

/* First value of metadata @key in source @src, or NULL. */
const char *source_meta(const struct source *src, const char *key);

const char *direction_name(enum direction d);

void dataset_free(struct dataset *ds);

/* Allocation helpers: print an error and exit on failure. */
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
