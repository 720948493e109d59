/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's unified_rw_reporting: an entry's directions summed as one,
 * "mixed" (fio's gen_mixed_ddir_stats_from_ts), which the reports show
 * instead of the directions (mixed) or after them (both).
 */
#ifndef IODIG_REPORT_UNIFIED_H
#define IODIG_REPORT_UNIFIED_H

#include "report/report.h"

/* The entry's unified_rw_reporting, UNIFIED_*: its first job's, as fio
 * takes the first member's for a group. */
static inline unsigned int report_unified(const struct report_job *rj)
{
	return rj->job ? rj->job->stat.unified_rw : UNIFIED_NONE;
}

/* A copy of @rj whose reads hold every direction: I/Os, bytes, short
 * I/Os, latencies and percentiles merged, bw/iops samples added up as
 * fio adds them, priorities folded, the longest direction's runtime.
 * NULL when out of memory or past PRIO_STATS_MAX priorities. */
struct report_job *report_job_mixed(const struct report_job *rj);
void report_job_mixed_free(struct report_job *m);

/* The entry whose blocks are shown: its mixed copy under
 * unified_rw_reporting=mixed, else itself. */
static inline const struct report_job *report_job_shown(const struct report_job *rj)
{
	return report_unified(rj) == UNIFIED_MIXED && rj->mixed ? rj->mixed : rj;
}

/* fio's "  MIXED:" line of a group under unified_rw_reporting=both,
 * from its directions' lines (show_mixed_group_stats): bytes and
 * aggregate bandwidth added, the lowest and highest bandwidth and
 * runtime over the directions. */
struct report_group_mix {
	uint64_t bytes, bw_agg, bw_min, bw_max, runtime_min_ms, runtime_max_ms;
};
void report_group_mix(const struct report_group *g, struct report_group_mix *out);

#endif /* IODIG_REPORT_UNIFIED_H */
