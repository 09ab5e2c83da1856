// SPDX-License-Identifier: GPL-2.0
/* JSON output for schedcmp; numbers that are not defined are written as null. */
#include <math.h>

#include "json.h"

void json_string(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(fp, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", fp);
		else if (ch == '\t')
			fputs("\\t", fp);
		else if (ch < 0x20)
			fprintf(fp, "\\u%04x", ch);
		else
			fputc(ch, fp);
	}
	fputc('"', fp);
}

static void num(FILE *fp, const char *key, double v, int last)
{
	fprintf(fp, "\"%s\": ", key);
	if (isfinite(v))
		fprintf(fp, "%.17g", v);
	else
		fputs("null", fp);
	fputs(last ? "" : ", ", fp);
}

static const char *status_name(const struct column *c, int base)
{
	if (base)
		return "base";
	switch (c->w.status) {
	case WELCH_OK:
		return "ok";
	case WELCH_ZERO_VAR:
		return "zero-variance";
	case WELCH_TOO_FEW:
		break;
	}
	return "too-few-samples";
}

static void write_column(FILE *fp, const struct column *c, int base)
{
	size_t i;

	fputs("        {\"name\": ", fp);
	json_string(fp, c->name);
	fputs(", \"setting\": ", fp);
	json_string(fp, c->setting);
	fprintf(fp, ", \"source\": %zu, \"n\": %zu,\n         ", c->src, c->n);
	num(fp, "min", c->sum.min, 0);
	num(fp, "mean", c->sum.mean, 0);
	num(fp, "stddev", c->sum.sd, 0);
	num(fp, "coeffvar_pct", c->sum.cv, 0);
	num(fp, "max", c->sum.max, 1);
	fputs(",\n         ", fp);
	num(fp, "min_change_pct", c->min_pct, 0);
	num(fp, "mean_change_pct", c->mean_pct, 0);
	num(fp, "max_change_pct", c->max_pct, 1);
	fputs(",\n         ", fp);
	num(fp, "ci95_low_pct", base ? NAN : c->lo_pct, 0);
	num(fp, "ci95_high_pct", base ? NAN : c->hi_pct, 0);
	num(fp, "welch_t", base ? NAN : c->w.t, 0);
	num(fp, "welch_df", base ? NAN : c->w.df, 0);
	num(fp, "p_value", base ? NAN : c->w.p, 1);
	fprintf(fp, ",\n         \"significant\": %s, \"status\": \"%s\",\n         \"values\": [",
		c->significant ? "true" : "false", status_name(c, base));
	for (i = 0; i < c->n; i++)
		fprintf(fp, "%s%.17g", i ? ", " : "", c->x[i]);
	fputs("]}", fp);
}

void json_write(FILE *fp, const struct dataset *ds, const struct report *r)
{
	size_t i, j;

	fputs("{\n  \"confidence\": 0.95,\n  \"sources\": [\n", fp);
	for (i = 0; i < ds->nsrc; i++) {
		const struct source *src = &ds->src[i];

		fputs("    {\"path\": ", fp);
		json_string(fp, src->path);
		fputs(", \"label\": ", fp);
		json_string(fp, src->label);
		fputs(", \"meta\": [", fp);
		for (j = 0; j < src->nmeta; j++) {
			fputs(j ? ", [" : "[", fp);
			json_string(fp, src->meta[j].key);
			fputs(", ", fp);
			json_string(fp, src->meta[j].value);
			fputs("]", fp);
		}
		fprintf(fp, "]}%s\n", i + 1 < ds->nsrc ? "," : "");
	}
	fputs("  ],\n  \"comparisons\": [\n", fp);
	for (i = 0; i < r->ng; i++) {
		const struct group *g = &r->g[i];

		fputs("    {\"benchmark\": ", fp);
		json_string(fp, g->bench);
		fputs(", \"parameter\": ", fp);
		json_string(fp, g->param);
		fputs(", \"unit\": ", fp);
		json_string(fp, g->unit);
		fprintf(fp, ", \"direction\": \"%s\",\n      \"columns\": [\n",
			direction_name(g->dir));
		for (j = 0; j < g->ncol; j++) {
			write_column(fp, &g->col[j], j == 0);
			fputs(j + 1 < g->ncol ? ",\n" : "\n", fp);
		}
		fprintf(fp, "      ]}%s\n", i + 1 < r->ng ? "," : "");
	}
	fputs("  ]", fp);
	if (r->npool)
		fputs(",\n  \"pooled\": [\n", fp);
	for (i = 0; i < r->npool; i++) {
		const struct pooled *p = &r->pool[i];

		fputs("    {\"benchmark\": ", fp);
		json_string(fp, p->bench);
		fputs(", \"unit\": ", fp);
		json_string(fp, p->unit);
		fprintf(fp, ", \"direction\": \"%s\", \"base\": ", direction_name(p->dir));
		json_string(fp, p->base);
		fputs(", \"name\": ", fp);
		json_string(fp, p->name);
		fprintf(fp, ", \"source\": %zu,\n     \"pairs\": %zu, \"parameters\": %zu, ",
			p->src, p->n, p->nparam);
		num(fp, "change_pct", p->change_pct, 0);
		num(fp, "ci95_low_pct", p->lo_pct, 0);
		num(fp, "ci95_high_pct", p->hi_pct, 0);
		num(fp, "mean_log_ratio", p->w.diff, 0);
		num(fp, "t", p->w.t, 0);
		num(fp, "df", p->w.df, 0);
		num(fp, "p_value", p->w.p, 1);
		fprintf(fp, ", \"significant\": %s}%s\n", p->significant ? "true" : "false",
			i + 1 < r->npool ? "," : "");
	}
	if (r->npool)
		fputs("  ]", fp);
	if (r->npos || r->nhalf)
		fputs(",\n  \"positions\": [\n", fp);
	for (i = 0; i < r->npos; i++) {
		const struct position *p = &r->pos[i];

		fputs("    {\"benchmark\": ", fp);
		json_string(fp, p->bench);
		fputs(", \"unit\": ", fp);
		json_string(fp, p->unit);
		fprintf(fp, ", \"direction\": \"%s\", \"source\": %zu, \"position\": %zu, \"runs\": %zu,\n     ",
			direction_name(p->dir), p->src, p->pos, p->n);
		num(fp, "change_pct", p->change_pct, 0);
		num(fp, "ci95_low_pct", p->lo_pct, 0);
		num(fp, "ci95_high_pct", p->hi_pct, 0);
		num(fp, "p_value", p->w.p, 1);
		fprintf(fp, ", \"significant\": %s}%s\n", p->significant ? "true" : "false",
			i + 1 < r->npos ? "," : "");
	}
	if (r->npos || r->nhalf)
		fputs("  ],\n  \"halves\": [\n", fp);
	for (i = 0; i < r->nhalf; i++) {
		const struct half *h = &r->half[i];

		fputs("    {\"benchmark\": ", fp);
		json_string(fp, h->g->bench);
		fputs(", \"parameter\": ", fp);
		json_string(fp, h->g->param);
		fputs(", \"name\": ", fp);
		json_string(fp, h->c->name);
		fprintf(fp, ", \"first\": %zu, \"second\": %zu,\n     ", h->first.n,
			h->second.n);
		num(fp, "change_pct", h->change_pct, 0);
		num(fp, "ci95_low_pct", h->lo_pct, 0);
		num(fp, "ci95_high_pct", h->hi_pct, 0);
		num(fp, "p_value", h->w.p, 1);
		fprintf(fp, ", \"significant\": %s}%s\n", h->significant ? "true" : "false",
			i + 1 < r->nhalf ? "," : "");
	}
	if (r->npos || r->nhalf)
		fputs("  ]", fp);
	fputs("\n}\n", fp);
}
