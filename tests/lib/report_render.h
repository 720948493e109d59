/* SPDX-License-Identifier: GPL-2.0 */
/* The report tests' rendering of a report into memory (check.h first). */
#ifndef IODIG_TEST_REPORT_RENDER_H
#define IODIG_TEST_REPORT_RENDER_H

#include <stdio.h>

#include "report/report.h"

/* @fn's output for @r (report_text, report_json, report_terse), NULL when
 * no memory stream could be opened; a failing @fn is a failed check. */
static inline char *report_render(const struct report *r,
				  int (*fn)(const struct report *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	CHECK(fn(r, f) == 0);
	fclose(f);
	return buf;
}

#endif
