/* SPDX-License-Identifier: GPL-2.0 */
/* fio's steady-state report: its text line and its JSON "steadystate". */
#ifndef IODIG_REPORT_STEADY_H
#define IODIG_REPORT_STEADY_H

#include <stdbool.h>
#include <stdio.h>

#include "workload/steady.h"

struct json_object;

/* "  steadystate  : attained=yes, bw=..., iops=..., iops slope=...%"
 * with sizes in @kb_base (1024 or 1000), bw and iops in @sig_figs
 * figures (significant_figures). */
void report_steady_text(FILE *out, const struct steady_state *s, unsigned int kb_base,
			int sig_figs);
/* {ss, duration, attained, criterion, max_deviation, slope, data: {bw_mean,
 * iops_mean, iops: [...], bw: [...]}}; NULL when out of memory. */
struct json_object *report_steady_json(const struct steady_state *s);

#endif /* IODIG_REPORT_STEADY_H */
