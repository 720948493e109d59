/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which latency percentiles a job's report shows, and at which points:
 * fio's clat_percentiles / lat_percentiles / slat_percentiles and
 * percentile_list, shared by the text, JSON and terse renderers.
 */
#ifndef IODIG_PERCENTILES_H
#define IODIG_PERCENTILES_H

#include <stdbool.h>

#include "workload/job.h"
#include "workload/stats.h"

enum lat_kind { LAT_SLAT, LAT_CLAT, LAT_LAT, LAT_KINDS };

struct pct_list {
	const double *v;
	unsigned int n;
	unsigned int precision;   /* decimals in the text report */
};

/* The job's percentile_list, else fio's 17 (precision 2); @job may be
 * NULL. */
void pct_list_of(const struct job *job, struct pct_list *out);

/* Whether the report shows @kind's percentiles: its option is on (clat by
 * default) and it has samples. */
bool pct_wanted(const struct job *job, enum lat_kind kind, const struct hist *h);

#endif /* IODIG_PERCENTILES_H */
