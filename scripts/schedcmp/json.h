/* SPDX-License-Identifier: GPL-2.0 */
/* Machine-readable results. */
#ifndef SCHEDCMP_JSON_H
#define SCHEDCMP_JSON_H

#include <stdio.h>

#include "compare.h"

/* Write the sources, their metadata and every comparison as JSON. */
void json_write(FILE *fp, const struct dataset *ds, const struct report *r);

/* Write @s as a JSON string literal. */
void json_string(FILE *fp, const char *s);

#endif
