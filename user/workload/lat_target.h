/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's latency_target (io_u.c lat_target_*): the queue depth search for
 * the highest depth at which latency_percentile of the I/Os of each
 * latency_window complete within latency_target.  From depth 1 it
 * doubles while windows succeed, then bisects between the last good and
 * the first bad depth; once a depth repeats, one more window runs at it
 * with fresh statistics and the job ends (latency_run: it keeps
 * adjusting until the job's end instead).
 */
#ifndef IODIG_LAT_TARGET_H
#define IODIG_LAT_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/job.h"

struct lat_target {
	const struct job *job;
	unsigned int qd, qd_low, qd_high, stable;
	uint64_t window_start_ns;
	uint64_t ios, failed;        /* completions and misses this window */
	bool end_run;                /* the last window, at the found depth */
	bool quiesce_due;            /* ramped down: drain the deeper I/O */
};

enum lat_action {
	LAT_GO_ON,
	LAT_RESTART_STATS,   /* the final window begins: statistics anew */
	LAT_DONE,            /* the final window ended: the job is done */
};

/* Whether @job searches a depth (latency_target given). */
static inline bool lat_target_on(const struct job *job)
{
	return job->latency_target_ns != 0;
}

void lat_target_init(struct lat_target *t, const struct job *job, uint64_t now);
/* A completed I/O of total latency @lat_ns; true when it misses the
 * target at depth 1 with latency_percentile=100: fio fails the job. */
bool lat_target_sample(struct lat_target *t, uint64_t lat_ns, uint64_t now);
/* At the end of each window: up, down, or the end of the search. */
enum lat_action lat_target_check(struct lat_target *t, uint64_t now);

#endif /* IODIG_LAT_TARGET_H */
