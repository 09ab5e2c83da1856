/* SPDX-License-Identifier: GPL-2.0 */
/* The mmtests-style comparison table on a stream. */
#ifndef SCHEDCMP_TABLE_H
#define SCHEDCMP_TABLE_H

#include <stdio.h>

#include "compare.h"

#define CV_WARN_PCT 5.0

/* Print the header (sources and their metadata) and one table per group. */
void table_print(FILE *fp, const struct dataset *ds, const struct report *r);

/* Format @v with 4 decimals, or in exponent form when very large or small. */
void fmt_num(char *buf, size_t len, double v);

#endif
