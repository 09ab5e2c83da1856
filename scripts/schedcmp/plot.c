// SPDX-License-Identifier: GPL-2.0
/* Box-and-jitter plots of each group with gnuplot. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plot.h"

static void safe_name(char *out, size_t len, const struct group *g)
{
	size_t i;

	snprintf(out, len, "%s-%s", g->bench, g->param);
	for (i = 0; out[i]; i++) {
		char ch = out[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.'))
			out[i] = '_';
	}
}

/* gnuplot single-quoted string: a quote is doubled. */
static void gp_string(FILE *fp, const char *s)
{
	fputc('\'', fp);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', fp);
		fputc(*s, fp);
	}
	fputc('\'', fp);
}

static int write_data(const char *path, const struct group *g)
{
	FILE *fp = fopen(path, "w");
	size_t i, k;

	if (!fp)
		return -1;
	for (i = 0; i < g->ncol; i++) {
		fprintf(fp, "# %s\n", g->col[i].name);
		/* value and a deterministic horizontal jitter in [-0.15, 0.15] */
		for (k = 0; k < g->col[i].n; k++)
			fprintf(fp, "%.17g %.3f\n", g->col[i].x[k],
				(double)((k * 7) % 13) / 12.0 * 0.3 - 0.15);
		fputs("\n\n", fp);
	}
	return fclose(fp);
}

static int write_script(const char *path, const char *name, const struct group *g)
{
	FILE *fp = fopen(path, "w");
	char title[512];
	size_t i;

	if (!fp)
		return -1;
	fputs("# gnuplot script written by schedcmp\n"
	      "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
	      "    set terminal pngcairo noenhanced size 900,540\n"
	      "} else {\n"
	      "    set terminal png noenhanced size 900,540\n"
	      "}\n", fp);
	fprintf(fp, "set output '%s.png'\n", name);
	snprintf(title, sizeof(title), "%s %s (%s, %s is better)", g->bench,
		 g->param, g->unit, direction_name(g->dir));
	fputs("set title ", fp);
	gp_string(fp, title);
	fputs("\nset ylabel ", fp);
	gp_string(fp, g->unit);
	fprintf(fp, "\nset xrange [0.5:%zu.5]\nset xtics (", g->ncol);
	for (i = 0; i < g->ncol; i++) {
		fputs(i ? ", " : "", fp);
		gp_string(fp, g->col[i].name);
		fprintf(fp, " %zu", i + 1);
	}
	fprintf(fp, ")\n"
		"set key off\n"
		"set grid ytics\n"
		"set style fill empty\n"
		"set style boxplot nooutliers\n"
		"set boxwidth 0.5\n"
		"n = %zu\n"
		"plot for [i=0:n-1] '%s.dat' index i using (i+1):1 with boxplot lc i+1, \\\n"
		"     for [i=0:n-1] '%s.dat' index i using (i+1+$2):1 with points pt 7 ps 0.7 lc i+1\n",
		g->ncol, name, name);
	return fclose(fp);
}

static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	while (path && *path) {
		size_t len = strcspn(path, ":");

		snprintf(buf, sizeof(buf), "%.*s/gnuplot", (int)len, path);
		if (len && access(buf, X_OK) == 0)
			return 1;
		path += len + (path[len] == ':');
	}
	return 0;
}

static int run_gnuplot(const char *dir, const char *script)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (chdir(dir) == 0)
			execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int plot_write(const char *dir, const struct report *r, char *err, size_t errlen)
{
	int gnuplot = have_gnuplot();
	char name[256], path[4096], script[300];
	size_t i;

	if (mkdir(dir, 0777) && errno != EEXIST) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	for (i = 0; i < r->ng; i++) {
		const struct group *g = &r->g[i];

		safe_name(name, sizeof(name), g);
		snprintf(path, sizeof(path), "%s/%s.dat", dir, name);
		if (write_data(path, g)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		snprintf(script, sizeof(script), "%s.gp", name);
		snprintf(path, sizeof(path), "%s/%s", dir, script);
		if (write_script(path, name, g)) {
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		if (gnuplot && run_gnuplot(dir, script)) {
			snprintf(err, errlen, "gnuplot failed on %s", path);
			return -1;
		}
	}
	if (!gnuplot)
		fprintf(stderr, "schedcmp: gnuplot not found: wrote the scripts to %s but no PNGs (install gnuplot-nox)\n",
			dir);
	return 0;
}
