// SPDX-License-Identifier: GPL-2.0
/* Reading raw sample files for schedcmp. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "samples.h"

#define MAX_FIELDS 9

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "schedcmp: out of memory\n");
		exit(1);
	}
	return p;
}

char *xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;

	return memcpy(xrealloc(NULL, len), s, len);
}

const char *direction_name(enum direction d)
{
	return d == DIR_LOWER ? "lower" : "higher";
}

static void seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Split on runs of blanks; returns the number of fields (at most max + 1). */
static int split(char *s, char **f, int max)
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			return n;
		if (n == max)
			return n + 1;
		f[n++] = s;
		while (*s && *s != ' ' && *s != '\t')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

static int parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*v = strtoul(s, &end, 10);
	return errno || *end ? -1 : 0;
}

int samples_parse_line(char *line, struct sample *out, char *why, size_t whylen)
{
	char *f[MAX_FIELDS];
	unsigned long ul;
	char *end;
	int n = split(line, f, 8);

	if (n < 7 || n > 8) {
		seterr(why, whylen,
		       "expected 7 or 8 fields (benchmark parameter setting round value unit direction [timestamp]), got %d",
		       n);
		return -1;
	}
	if (parse_ulong(f[3], &out->round)) {
		seterr(why, whylen, "round '%s' is not a non-negative integer", f[3]);
		return -1;
	}
	errno = 0;
	out->value = strtod(f[4], &end);
	if (end == f[4] || *end || errno == ERANGE) {
		seterr(why, whylen, "value '%s' is not a number", f[4]);
		return -1;
	}
	if (!isfinite(out->value)) {
		seterr(why, whylen, "value '%s' is not a finite number", f[4]);
		return -1;
	}
	if (!strcmp(f[6], "lower")) {
		out->dir = DIR_LOWER;
	} else if (!strcmp(f[6], "higher")) {
		out->dir = DIR_HIGHER;
	} else {
		seterr(why, whylen, "direction '%s' is neither 'lower' nor 'higher'", f[6]);
		return -1;
	}
	out->ts = -1;
	if (n == 8) {
		if (parse_ulong(f[7], &ul)) {
			seterr(why, whylen, "timestamp '%s' is not a non-negative integer", f[7]);
			return -1;
		}
		out->ts = (long long)ul;
	}
	out->bench = f[0];
	out->param = f[1];
	out->setting = f[2];
	out->unit = f[5];
	return 0;
}

/* "# key: value" with key made of [A-Za-z0-9_.-]; anything else is a comment. */
static void parse_meta(struct source *src, char *line)
{
	char *p = line + 1, *key, *colon;

	while (*p == ' ' || *p == '\t')
		p++;
	key = p;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == '.')
		p++;
	if (p == key || *p != ':')
		return;
	colon = p;
	*colon = '\0';
	src->meta = xrealloc(src->meta, (src->nmeta + 1) * sizeof(*src->meta));
	src->meta[src->nmeta].key = xstrdup(key);
	src->meta[src->nmeta].value = xstrdup(trim(colon + 1));
	src->nmeta++;
}

const char *source_meta(const struct source *src, const char *key)
{
	size_t i;

	for (i = 0; i < src->nmeta; i++)
		if (!strcmp(src->meta[i].key, key))
			return src->meta[i].value;
	return NULL;
}

static char *default_label(const char *path)
{
	const char *base = strrchr(path, '/');
	char *label, *dot;

	label = xstrdup(base ? base + 1 : path);
	dot = strrchr(label, '.');
	if (dot && dot != label)
		*dot = '\0';
	return label;
}

int samples_load(struct dataset *ds, const char *path, char *err, size_t errlen)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	struct source *src;
	char *line = NULL, why[256];
	size_t cap = 0, i;
	unsigned long lineno = 0;
	ssize_t len;
	const char *label;
	int ret = 0;

	if (!fp) {
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ds->src = xrealloc(ds->src, (ds->nsrc + 1) * sizeof(*ds->src));
	src = &ds->src[ds->nsrc++];
	memset(src, 0, sizeof(*src));
	src->path = xstrdup(path);

	while ((len = getline(&line, &cap, fp)) >= 0) {
		struct sample s;
		char *t;

		lineno++;
		if (memchr(line, '\0', (size_t)len)) {
			seterr(err, errlen, "%s:%lu: NUL byte in line", path, lineno);
			ret = -1;
			break;
		}
		t = trim(line);
		if (!*t)
			continue;
		if (*t == '#') {
			parse_meta(src, t);
			continue;
		}
		if (samples_parse_line(t, &s, why, sizeof(why))) {
			seterr(err, errlen, "%s:%lu: %s", path, lineno, why);
			ret = -1;
			break;
		}
		s.src = ds->nsrc - 1;
		s.line = lineno;
		s.bench = xstrdup(s.bench);
		s.param = xstrdup(s.param);
		s.setting = xstrdup(s.setting);
		s.unit = xstrdup(s.unit);
		ds->s = xrealloc(ds->s, (ds->n + 1) * sizeof(*ds->s));
		ds->s[ds->n++] = s;
	}
	if (!ret && ferror(fp)) {
		seterr(err, errlen, "%s: read error", path);
		ret = -1;
	}
	free(line);
	if (fp != stdin)
		fclose(fp);

	/* Labels name the files in tables when more than one is compared. */
	label = source_meta(src, "label");
	src->label = label && *label ? xstrdup(label) : default_label(path);
	for (i = 0; i + 1 < ds->nsrc; i++) {
		if (!strcmp(ds->src[i].label, src->label)) {
			size_t n = strlen(src->label) + 24;
			char *l = xrealloc(NULL, n);

			snprintf(l, n, "%s#%zu", src->label, ds->nsrc);
			free(src->label);
			src->label = l;
			break;
		}
	}
	return ret;
}

void dataset_free(struct dataset *ds)
{
	size_t i, j;

	for (i = 0; i < ds->n; i++) {
		free(ds->s[i].bench);
		free(ds->s[i].param);
		free(ds->s[i].setting);
		free(ds->s[i].unit);
	}
	for (i = 0; i < ds->nsrc; i++) {
		for (j = 0; j < ds->src[i].nmeta; j++) {
			free(ds->src[i].meta[j].key);
			free(ds->src[i].meta[j].value);
		}
		free(ds->src[i].meta);
		free(ds->src[i].path);
		free(ds->src[i].label);
	}
	free(ds->s);
	free(ds->src);
	memset(ds, 0, sizeof(*ds));
}
