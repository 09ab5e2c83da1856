/* SPDX-License-Identifier: GPL-2.0 */
/* gnuplot scripts and PNGs of the per-setting distributions. */
#ifndef SCHEDCMP_PLOT_H
#define SCHEDCMP_PLOT_H

#include "compare.h"

/*
 * Write <dir>/<benchmark>-<parameter>.{dat,gp} for every group and, when
 * gnuplot is in PATH, run it to make the .png next to them.  Returns 0,
 * or -1 with a message in @err.
 */
int plot_write(const char *dir, const struct report *r, char *err, size_t errlen);

#endif
