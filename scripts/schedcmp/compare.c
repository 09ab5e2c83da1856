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

static struct pooled *find_pool(struct report *r, const struct group *g,
				 const struct column *c)
{
	size_t i;

	for (i = 0; i < r->npool; i++) {
		struct pooled *p = &r->pool[i];

		if (!strcmp(p->bench, g->bench) && !strcmp(p->unit, g->unit) &&
		    p->dir == g->dir && p->src == c->src &&
		    !strcmp(p->base, g->col[0].name) && !strcmp(p->name, c->name))
			return p;
	}
	r->pool = xrealloc(r->pool, (r->npool + 1) * sizeof(*r->pool));
	memset(&r->pool[r->npool], 0, sizeof(r->pool[r->npool]));
	r->pool[r->npool] = (struct pooled){ .bench = g->bench, .unit = g->unit,
					      .dir = g->dir, .src = c->src,
					      .base = g->col[0].name,
					      .name = c->name };
	return &r->pool[r->npool++];
}

/* The one sample of column @c of group @g in @round, or NULL; -1 if two. */
static int find_run(const struct dataset *ds, const struct group *g,
		    const struct column *c, unsigned long round,
		    const struct sample **out)
{
	size_t i;

	*out = NULL;
	for (i = 0; i < ds->n; i++) {
		const struct sample *s = &ds->s[i];

		if (s->src != c->src || s->round != round ||
		    strcmp(s->setting, c->setting) || strcmp(s->bench, g->bench) ||
		    strcmp(s->param, g->param))
			continue;
		if (*out)
			return -1;
		*out = s;
	}
	return 0;
}

static int positive(const struct dataset *ds, const struct sample *s,
		    char *err, size_t errlen)
{
	if (s->value > 0.0)
		return 0;
	snprintf(err, errlen, "%s:%lu: %s %s %s round %lu: %g cannot be pooled (a ratio needs values above 0)",
		 ds->src[s->src].path, s->line, s->bench, s->param, s->setting,
		 s->round, s->value);
	return -1;
}

int report_pool(const struct dataset *ds, struct report *r, char *err,
		size_t errlen)
{
	double **logs = NULL;
	size_t *nlogs = NULL, i, j, k;
	int ret = -1;

	for (i = 0; i < r->ng; i++) {
		const struct group *g = &r->g[i];
		const struct column *b = &g->col[0];

		for (j = 1; j < g->ncol; j++) {
			const struct column *c = &g->col[j];
			struct pooled *p;
			size_t idx, before;

			if (c->src != b->src)
				continue;
			before = r->npool;
			p = find_pool(r, g, c);
			idx = (size_t)(p - r->pool);
			if (r->npool > before) {
				logs = xrealloc(logs, r->npool * sizeof(*logs));
				nlogs = xrealloc(nlogs, r->npool * sizeof(*nlogs));
				logs[idx] = NULL;
				nlogs[idx] = 0;
			}
			before = nlogs[idx];
			for (k = 0; k < ds->n; k++) {
				const struct sample *s = &ds->s[k], *sb, *sc;

				if (s->src != b->src || strcmp(s->setting, b->setting) ||
				    strcmp(s->bench, g->bench) || strcmp(s->param, g->param))
					continue;
				if (find_run(ds, g, b, s->round, &sb) ||
				    find_run(ds, g, c, s->round, &sc)) {
					snprintf(err, errlen, "%s:%lu: %s %s round %lu: a setting has two runs in this round, which cannot be paired",
						 ds->src[s->src].path, s->line, g->bench,
						 g->param, s->round);
					goto out;
				}
				if (sb != s || !sc)
					continue;
				if (positive(ds, sb, err, errlen) ||
				    positive(ds, sc, err, errlen))
					goto out;
				logs[idx] = xrealloc(logs[idx], (nlogs[idx] + 1) * sizeof(double));
				logs[idx][nlogs[idx]++] = log(sc->value / sb->value);
			}
			if (nlogs[idx] > before)
				p->nparam++;
		}
	}
	for (i = 0; i < r->npool; i++) {
		struct pooled *p = &r->pool[i];
		double lo, hi;

		p->n = nlogs[i];
		paired_t(logs[i], nlogs[i], CONF_LEVEL, &p->w);
		p->change_pct = p->n ? change_pct(1.0, exp(p->w.diff), p->dir) : NAN;
		p->lo_pct = p->hi_pct = NAN;
		if (p->w.status == WELCH_TOO_FEW)
			continue;
		lo = change_pct(1.0, exp(p->w.lo), p->dir);
		hi = change_pct(1.0, exp(p->w.hi), p->dir);
		p->lo_pct = lo < hi ? lo : hi;
		p->hi_pct = lo < hi ? hi : lo;
		p->significant = p->w.lo > 0.0 || p->w.hi < 0.0;
	}
	ret = 0;
out:
	for (i = 0; logs && i < r->npool; i++)
		free(logs[i]);
	free(logs);
	free(nlogs);
	return ret;
}

static void interval_pct(double base, const struct welch *w, enum direction dir,
			 double *lo, double *hi)
{
	double a = change_pct(base, base + w->lo, dir);
	double b = change_pct(base, base + w->hi, dir);

	*lo = a < b ? a : b;
	*hi = a < b ? b : a;
}

static struct position *find_position(struct report *r, const struct group *g,
				      size_t src, size_t pos)
{
	size_t i;

	for (i = 0; i < r->npos; i++) {
		struct position *p = &r->pos[i];

		if (!strcmp(p->bench, g->bench) && !strcmp(p->unit, g->unit) &&
		    p->dir == g->dir && p->src == src && p->pos == pos)
			return p;
	}
	r->pos = xrealloc(r->pos, (r->npos + 1) * sizeof(*r->pos));
	r->pos[r->npos] = (struct position){ .bench = g->bench, .unit = g->unit,
					      .dir = g->dir, .src = src, .pos = pos };
	return &r->pos[r->npos++];
}

static int by_time(const void *a, const void *b)
{
	const struct sample *x = *(const struct sample *const *)a;
	const struct sample *y = *(const struct sample *const *)b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The samples of group @g from file @src (round @round, or all rounds if -1). */
static size_t runs_of(const struct dataset *ds, const struct group *g, size_t src,
		      const char *setting, long round, const struct sample **out)
{
	size_t i, n = 0;

	for (i = 0; i < ds->n; i++) {
		const struct sample *s = &ds->s[i];

		if (s->src != src || strcmp(s->bench, g->bench) ||
		    strcmp(s->param, g->param) ||
		    (setting && strcmp(s->setting, setting)) ||
		    (round >= 0 && s->round != (unsigned long)round))
			continue;
		out[n++] = s;
	}
	return n;
}

static void finish_change(double base, const struct welch *w, enum direction dir,
			  double *change, double *lo, double *hi, int *sig)
{
	*change = change_pct(base, base + w->diff, dir);
	*lo = *hi = NAN;
	*sig = 0;
	if (w->status == WELCH_TOO_FEW)
		return;
	interval_pct(base, w, dir, lo, hi);
	*sig = w->lo > 0.0 || w->hi < 0.0;
}

int report_order(const struct dataset *ds, struct report *r, char *err,
		 size_t errlen)
{
	const struct sample **runs = xrealloc(NULL, (ds->n + 1) * sizeof(*runs));
	double **logs = NULL, *x = xrealloc(NULL, (ds->n + 1) * sizeof(*x));
	size_t *nlogs = NULL, i, j, k;
	int ret = -1;

	for (i = 0; i < r->ng; i++) {
		const struct group *g = &r->g[i];
		unsigned long maxround = 0;
		size_t src = g->col[0].src;

		for (k = 0; k < ds->n; k++)
			if (ds->s[k].src == src && !strcmp(ds->s[k].bench, g->bench) &&
			    !strcmp(ds->s[k].param, g->param) && ds->s[k].round > maxround)
				maxround = ds->s[k].round;
		for (k = 0; k <= maxround; k++) {
			size_t n = runs_of(ds, g, src, NULL, (long)k, runs), m;
			double mean = 0.0;

			for (j = 0; j < n; j++)
				if (runs[j]->ts < 0)
					break;
			if (n < 2 || j < n)
				continue;
			for (j = 0; j < n; j++) {
				if (runs[j]->value <= 0.0) {
					snprintf(err, errlen, "%s:%lu: %g: the order of the runs is measured on ratios, which need values above 0",
						 ds->src[src].path, runs[j]->line, runs[j]->value);
					goto out;
				}
				mean += log(runs[j]->value) / (double)n;
			}
			qsort(runs, n, sizeof(*runs), by_time);
			for (j = 0; j < n; j++) {
				size_t before = r->npos;
				struct position *p = find_position(r, g, src, j + 1);

				m = (size_t)(p - r->pos);
				if (r->npos > before) {
					logs = xrealloc(logs, r->npos * sizeof(*logs));
					nlogs = xrealloc(nlogs, r->npos * sizeof(*nlogs));
					logs[m] = NULL;
					nlogs[m] = 0;
				}
				logs[m] = xrealloc(logs[m], (nlogs[m] + 1) * sizeof(double));
				logs[m][nlogs[m]++] = log(runs[j]->value) - mean;
			}
		}
		for (j = 0; j < g->ncol; j++) {
			const struct column *c = &g->col[j];
			size_t n = runs_of(ds, g, c->src, c->setting, -1, runs), h;
			struct half *hf;

			if (n < 4)
				continue;
			for (k = 0; k < n && runs[k]->ts >= 0; k++)
				;
			if (k == n)
				qsort(runs, n, sizeof(*runs), by_time);
			h = n / 2;
			r->half = xrealloc(r->half, (r->nhalf + 1) * sizeof(*r->half));
			hf = &r->half[r->nhalf++];
			memset(hf, 0, sizeof(*hf));
			hf->g = g;
			hf->c = c;
			for (k = 0; k < n; k++)
				x[k] = runs[k]->value;
			summarize(x, h, &hf->first);
			summarize(x + h, n - h, &hf->second);
			welch(&hf->first, &hf->second, CONF_LEVEL, &hf->w);
			finish_change(hf->first.mean, &hf->w, g->dir, &hf->change_pct,
				      &hf->lo_pct, &hf->hi_pct, &hf->significant);
		}
	}
	for (i = 0; i < r->npos; i++) {
		struct position *p = &r->pos[i];
		struct welch w;

		p->n = nlogs[i];
		paired_t(logs[i], nlogs[i], CONF_LEVEL, &p->w);
		/* as a change against a round mean of 1 */
		w = p->w;
		w.diff = exp(p->w.diff) - 1.0;
		w.lo = exp(p->w.lo) - 1.0;
		w.hi = exp(p->w.hi) - 1.0;
		finish_change(1.0, &w, p->dir, &p->change_pct, &p->lo_pct,
			      &p->hi_pct, &p->significant);
	}
	ret = 0;
out:
	for (i = 0; logs && i < r->npos; i++)
		free(logs[i]);
	free(logs);
	free(nlogs);
	free(runs);
	free(x);
	return ret;
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
	free(r->pool);
	free(r->pos);
	free(r->half);
	memset(r, 0, sizeof(*r));
}
