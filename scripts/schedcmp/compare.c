// SPDX-License-Identifier: GPL-2.0
/* Grouping samples and comparing settings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

double change_pct(double base, double v, enum direction dir)
{
	if (base == 0.0 || isnan(base) || isnan(v))
		return NAN;
	return (dir == DIR_HIGHER ? v - base : base - v) / fabs(base) * 100.0;
}

static struct group *find_group(struct report *r, const struct sample *s)
{
	size_t i;

	for (i = 0; i < r->ng; i++)
		if (!strcmp(r->g[i].bench, s->bench) &&
		    !strcmp(r->g[i].param, s->param))
			return &r->g[i];
	r->g = xrealloc(r->g, (r->ng + 1) * sizeof(*r->g));
	memset(&r->g[r->ng], 0, sizeof(r->g[r->ng]));
	r->g[r->ng].bench = s->bench;
	r->g[r->ng].param = s->param;
	r->g[r->ng].unit = s->unit;
	r->g[r->ng].dir = s->dir;
	return &r->g[r->ng++];
}

static struct column *find_column(struct group *g, size_t src, const char *setting)
{
	size_t i;

	for (i = 0; i < g->ncol; i++)
		if (g->col[i].src == src && !strcmp(g->col[i].setting, setting))
			return &g->col[i];
	g->col = xrealloc(g->col, (g->ncol + 1) * sizeof(*g->col));
	memset(&g->col[g->ncol], 0, sizeof(g->col[g->ncol]));
	g->col[g->ncol].src = src;
	g->col[g->ncol].setting = setting;
	return &g->col[g->ncol++];
}

/*
 * Position of @setting in the "# settings:" line of @src that applies to
 * @bench: "# settings: BENCH: S1 S2 ..." for one benchmark or
 * "# settings: S1 S2 ..." for all.  A large number when not declared.
 */
static size_t declared_rank(const struct source *src, const char *bench,
			    const char *setting)
{
	size_t i, blen = strlen(bench), slen = strlen(setting);

	for (i = 0; i < src->nmeta; i++) {
		const char *list = src->meta[i].value;
		const char *first_end = list + strcspn(list, " \t");
		size_t rank = 0;

		if (strcmp(src->meta[i].key, "settings"))
			continue;
		if (first_end > list && first_end[-1] == ':') {
			if ((size_t)(first_end - 1 - list) != blen ||
			    strncmp(list, bench, blen))
				continue;
			list = first_end;
		}
		while (*list) {
			while (*list == ' ' || *list == '\t')
				list++;
			if (!*list)
				break;
			if (!strncmp(list, setting, slen) &&
			    (list[slen] == '\0' || list[slen] == ' ' || list[slen] == '\t'))
				return rank;
			list += strcspn(list, " \t");
			rank++;
		}
	}
	return (size_t)-1;
}

/* Stable insertion sort: by file, then declared order, then first appearance. */
static void order_columns(const struct dataset *ds, struct group *g)
{
	size_t i, j;

	for (i = 1; i < g->ncol; i++) {
		struct column c = g->col[i];
		size_t rc = declared_rank(&ds->src[c.src], g->bench, c.setting);

		for (j = i; j > 0; j--) {
			struct column *p = &g->col[j - 1];
			size_t rp = declared_rank(&ds->src[p->src], g->bench,
						   p->setting);

			if (p->src < c.src || (p->src == c.src && rp <= rc))
				break;
			g->col[j] = *p;
		}
		g->col[j] = c;
	}
}

static void compare_column(const struct group *g, struct column *c)
{
	const struct column *b = &g->col[0];
	double scale;

	summarize(c->x, c->n, &c->sum);
	c->min_pct = change_pct(b->sum.min, c->sum.min, g->dir);
	c->mean_pct = change_pct(b->sum.mean, c->sum.mean, g->dir);
	c->max_pct = change_pct(b->sum.max, c->sum.max, g->dir);
	welch(&b->sum, &c->sum, CONF_LEVEL, &c->w);

	c->lo_pct = c->hi_pct = NAN;
	c->significant = 0;
	if (c == b || c->w.status == WELCH_TOO_FEW || b->sum.mean == 0.0)
		return;
	scale = 100.0 / fabs(b->sum.mean);
	if (g->dir == DIR_HIGHER) {
		c->lo_pct = c->w.lo * scale;
		c->hi_pct = c->w.hi * scale;
	} else {
		c->lo_pct = -c->w.hi * scale;
		c->hi_pct = -c->w.lo * scale;
	}
	/* The interval of the difference excludes 0 (a degenerate one too). */
	c->significant = c->w.lo > 0.0 || c->w.hi < 0.0;
}

int report_build(const struct dataset *ds, const char *base,
		 struct report *r, char *err, size_t errlen)
{
	size_t i, j;

	memset(r, 0, sizeof(*r));
	r->multi = ds->nsrc > 1;
	for (i = 0; i < ds->n; i++) {
		const struct sample *s = &ds->s[i];
		struct group *g = find_group(r, s);
		struct column *c;

		if (g->dir != s->dir || strcmp(g->unit, s->unit)) {
			snprintf(err, errlen,
				 "%s:%lu: %s %s is '%s, %s is better' here but '%s, %s is better' before",
				 ds->src[s->src].path, s->line, s->bench, s->param,
				 s->unit, direction_name(s->dir), g->unit,
				 direction_name(g->dir));
			return -1;
		}
		c = find_column(g, s->src, s->setting);
		c->x = xrealloc(c->x, (c->n + 1) * sizeof(*c->x));
		c->x[c->n++] = s->value;
	}

	for (i = 0; i < r->ng; i++) {
		struct group *g = &r->g[i];

		order_columns(ds, g);
		for (j = 0; j < g->ncol; j++) {
			struct column *c = &g->col[j];
			const char *label = ds->src[c->src].label;
			size_t len = strlen(label) + strlen(c->setting) + 2;

			c->name = xrealloc(NULL, len);
			if (r->multi)
				snprintf(c->name, len, "%s/%s", label, c->setting);
			else
				snprintf(c->name, len, "%s", c->setting);
		}
		if (base) {
			for (j = 0; j < g->ncol; j++)
				if (!strcmp(g->col[j].name, base) ||
				    !strcmp(g->col[j].setting, base))
					break;
			if (j == g->ncol) {
				snprintf(err, errlen, "%s %s has no column '%s'",
					 g->bench, g->param, base);
				return -1;
			}
			if (j) {
				struct column c = g->col[j];

				memmove(&g->col[1], &g->col[0], j * sizeof(c));
				g->col[0] = c;
			}
		}
		summarize(g->col[0].x, g->col[0].n, &g->col[0].sum);
		for (j = 0; j < g->ncol; j++)
			compare_column(g, &g->col[j]);
	}
	return 0;
}

void report_free(struct report *r)
{
	size_t i, j;

	for (i = 0; i < r->ng; i++) {
		for (j = 0; j < r->g[i].ncol; j++) {
			free(r->g[i].col[j].x);
			free(r->g[i].col[j].name);
		}
		free(r->g[i].col);
	}
	free(r->g);
	memset(r, 0, sizeof(*r));
}
