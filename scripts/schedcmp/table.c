// SPDX-License-Identifier: GPL-2.0
/* Text tables for schedcmp. */
#include <math.h>
#include <string.h>

#include "table.h"

#define LABEL_W 12
#define COL_W 26

static const char *const meta_keys[] = {
	"kernel", "config", "series", "arch", "seed", "rounds", "date", NULL
};

void fmt_num(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (v != 0.0 && (fabs(v) >= 1e7 || fabs(v) < 1e-3))
		snprintf(buf, len, "%.4e", v);
	else
		snprintf(buf, len, "%.4f", v);
}

static void print_sources(FILE *fp, const struct dataset *ds)
{
	size_t i, j;

	for (i = 0; i < ds->nsrc; i++) {
		const struct source *src = &ds->src[i];
		const char *sep = " (";

		fprintf(fp, "samples %s: %s", src->label, src->path);
		for (j = 0; meta_keys[j]; j++) {
			const char *v = source_meta(src, meta_keys[j]);

			if (v) {
				fprintf(fp, "%s%s %s", sep, meta_keys[j], v);
				sep = ", ";
			}
		}
		fprintf(fp, "%s\n", *sep == ',' ? ")" : "");
		for (j = 0; j < src->nmeta; j++)
			if (!strcmp(src->meta[j].key, "skipped") ||
			    !strcmp(src->meta[j].key, "failed"))
				fprintf(fp, "  %s: %s\n", src->meta[j].key,
					src->meta[j].value);
	}
	fprintf(fp, "%% change against the first column, positive is better; "
		"* = the %.0f%% confidence interval of the change (Welch) excludes 0\n",
		CONF_LEVEL * 100);
}

static int col_width(const struct column *c)
{
	int w = (int)strlen(c->name) + 2;

	return w > COL_W ? w : COL_W;
}

static void cell(FILE *fp, const struct column *c, const char *text)
{
	fprintf(fp, "%*s", col_width(c), text);
}

static void row_pct(FILE *fp, const struct group *g, const char *label,
		    size_t off_val, size_t off_pct, int star)
{
	size_t i;

	fprintf(fp, "%-*s", LABEL_W, label);
	for (i = 0; i < g->ncol; i++) {
		const struct column *c = &g->col[i];
		double v = *(const double *)((const char *)&c->sum + off_val);
		double pct = *(const double *)((const char *)c + off_pct);
		char num[32], buf[96];

		fmt_num(num, sizeof(num), v);
		if (isnan(pct))
			snprintf(buf, sizeof(buf), "%s (%8s)%s", num, "-", " ");
		else
			snprintf(buf, sizeof(buf), "%s (%7.2f%%)%s", num, pct,
				 star && c->significant ? "*" : " ");
		cell(fp, c, buf);
	}
	fputc('\n', fp);
}

static void row_plain(FILE *fp, const struct group *g, const char *label,
		      size_t off_val, int percent)
{
	size_t i;

	fprintf(fp, "%-*s", LABEL_W, label);
	for (i = 0; i < g->ncol; i++) {
		const struct column *c = &g->col[i];
		double v = *(const double *)((const char *)&c->sum + off_val);
		char num[32], buf[64];

		if (percent && !isnan(v))
			snprintf(num, sizeof(num), "%.2f%%", v);
		else
			fmt_num(num, sizeof(num), v);
		snprintf(buf, sizeof(buf), "%s%12s", num, "");
		cell(fp, c, buf);
	}
	fputc('\n', fp);
}

static void print_group(FILE *fp, const struct group *g)
{
	char buf[96];
	size_t i;

	fprintf(fp, "\n%s %s (%s, %s is better)\n", g->bench, g->param, g->unit,
		direction_name(g->dir));
	fprintf(fp, "%-*s", LABEL_W, "");
	for (i = 0; i < g->ncol; i++) {
		snprintf(buf, sizeof(buf), "%s ", g->col[i].name);
		cell(fp, &g->col[i], buf);
	}
	fputc('\n', fp);

	row_pct(fp, g, "Min", offsetof(struct summary, min),
		offsetof(struct column, min_pct), 0);
	row_pct(fp, g, "Mean", offsetof(struct summary, mean),
		offsetof(struct column, mean_pct), 1);
	row_plain(fp, g, "Stddev", offsetof(struct summary, sd), 0);
	row_plain(fp, g, "CoeffVar", offsetof(struct summary, cv), 1);
	row_pct(fp, g, "Max", offsetof(struct summary, max),
		offsetof(struct column, max_pct), 0);

	fprintf(fp, "%-*s", LABEL_W, "N");
	for (i = 0; i < g->ncol; i++) {
		snprintf(buf, sizeof(buf), "%zu%12s", g->col[i].n, "");
		cell(fp, &g->col[i], buf);
	}
	fputc('\n', fp);

	fprintf(fp, "%-*s", LABEL_W, "CI95 change");
	for (i = 0; i < g->ncol; i++) {
		const struct column *c = &g->col[i];

		if (i == 0 || isnan(c->lo_pct))
			snprintf(buf, sizeof(buf), "- ");
		else
			snprintf(buf, sizeof(buf), "[%+.2f%%, %+.2f%%]%s",
				 c->lo_pct, c->hi_pct,
				 c->significant ? "*" : " ");
		cell(fp, c, buf);
	}
	fputc('\n', fp);

	fprintf(fp, "%-*s", LABEL_W, "p (Welch)");
	for (i = 0; i < g->ncol; i++) {
		const struct column *c = &g->col[i];

		if (i == 0 || isnan(c->w.p))
			snprintf(buf, sizeof(buf), "- ");
		else if (c->w.p == 0.0)
			snprintf(buf, sizeof(buf), "0 ");
		else if (c->w.p < 1e-4)
			snprintf(buf, sizeof(buf), "%.1e ", c->w.p);
		else
			snprintf(buf, sizeof(buf), "%.4f ", c->w.p);
		cell(fp, c, buf);
	}
	fputc('\n', fp);

	for (i = 0; i < g->ncol; i++) {
		const struct column *c = &g->col[i];

		if (c->sum.cv > CV_WARN_PCT)
			fprintf(fp, "warning: %s: coeffvar %.2f%% > %.0f%%: noisy, add rounds or quiet the machine\n",
				c->name, c->sum.cv, CV_WARN_PCT);
		if (c->n < 2)
			fprintf(fp, "note: %s: n = %zu, no variance and no confidence interval\n",
				c->name, c->n);
		else if (i > 0 && g->col[0].n < 2)
			fprintf(fp, "note: %s: the base has n = %zu, no confidence interval\n",
				c->name, g->col[0].n);
		else if (i > 0 && c->w.status == WELCH_ZERO_VAR)
			fprintf(fp, "note: %s: zero variance in both columns, the difference is exact\n",
				c->name);
		if (i > 0 && g->col[0].sum.mean == 0.0)
			fprintf(fp, "note: %s: the base mean is 0, no %% change\n",
				c->name);
	}
}

static void print_pool(FILE *fp, const struct pooled *p)
{
	fprintf(fp, "%s (%s, %s is better): %s against %s, %zu pair%s from %zu parameter%s: ",
		p->bench, p->unit, direction_name(p->dir), p->name, p->base,
		p->n, p->n == 1 ? "" : "s", p->nparam, p->nparam == 1 ? "" : "s");
	if (!p->n) {
		fputs("no pairs\n", fp);
		return;
	}
	fprintf(fp, "change %+.2f%%", p->change_pct);
	if (isnan(p->lo_pct)) {
		fputs(", no interval (one pair)\n", fp);
		return;
	}
	fprintf(fp, "%s, CI95 [%+.2f%%, %+.2f%%]%s, p ", p->significant ? "*" : "",
		p->lo_pct, p->hi_pct, p->significant ? "*" : "");
	if (p->w.p == 0.0)
		fputs("0\n", fp);
	else if (p->w.p < 1e-4)
		fprintf(fp, "%.1e\n", p->w.p);
	else
		fprintf(fp, "%.4f\n", p->w.p);
}

static void print_change(FILE *fp, double change, double lo, double hi, int sig,
			 double p)
{
	fprintf(fp, "change %+.2f%%%s", change, sig ? "*" : "");
	if (isnan(lo)) {
		fputs(", no interval\n", fp);
		return;
	}
	fprintf(fp, ", CI95 [%+.2f%%, %+.2f%%]%s, p ", lo, hi, sig ? "*" : "");
	if (p == 0.0)
		fputs("0\n", fp);
	else if (p < 1e-4)
		fprintf(fp, "%.1e\n", p);
	else
		fprintf(fp, "%.4f\n", p);
}

static void print_order(FILE *fp, const struct report *r)
{
	size_t i;

	if (r->npos)
		fputs("\norder: each run against the geometric mean of its round, by its place in\n"
		      "the round (timestamps), all parameters of one unit together\n", fp);
	for (i = 0; i < r->npos; i++) {
		const struct position *p = &r->pos[i];

		fprintf(fp, "%s (%s, %s is better) run %zu of its round, %zu runs: ",
			p->bench, p->unit, direction_name(p->dir), p->pos, p->n);
		print_change(fp, p->change_pct, p->lo_pct, p->hi_pct,
			     p->significant, p->w.p);
	}
	if (r->nhalf)
		fputs("\nhalves: the later half of each column's runs, in the order they ran, against\n"
		      "the earlier half (what a blocked comparison of one setting reports)\n", fp);
	for (i = 0; i < r->nhalf; i++) {
		const struct half *h = &r->half[i];

		fprintf(fp, "%s %s %s, %zu against %zu runs: ", h->g->bench,
			h->g->param, h->c->name, h->second.n, h->first.n);
		print_change(fp, h->change_pct, h->lo_pct, h->hi_pct,
			     h->significant, h->w.p);
	}
}

void table_print(FILE *fp, const struct dataset *ds, const struct report *r)
{
	size_t i;

	print_sources(fp, ds);
	for (i = 0; i < r->ng; i++)
		print_group(fp, &r->g[i]);
	print_order(fp, r);
	if (!r->npool)
		return;
	fputs("\npooled: the geometric mean of setting / base over the runs of one parameter\n"
	      "in the same round, all parameters of one unit together (paired t-test of the logs)\n", fp);
	for (i = 0; i < r->npool; i++)
		print_pool(fp, &r->pool[i]);
}
