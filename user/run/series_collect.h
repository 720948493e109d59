/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fills the interval series (workload/series.h) while a group runs: at
 * each interval's end the supervisor sums the job's workers' cumulative
 * counters and clat histograms and keeps the difference from the last
 * interval's sums.  Workers do nothing more per I/O, and the intervals
 * add up exactly to the job's totals, since the last one ends at the
 * workers' final figures.
 */
#ifndef IODIG_SERIES_COLLECT_H
#define IODIG_SERIES_COLLECT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/series.h"
#include "workload/stats.h"
#include "workload/worker.h"

/* A job's sums at the end of its last interval. */
struct series_sums {
	uint64_t ios, bytes;
	double lat_ns;             /* sum of every I/O's lat */
	uint64_t lat_n;
	struct hist clat;
};

struct series_job {
	uint64_t origin_ns;        /* its workers' start of measurement, 0 = not yet */
	uint64_t last_ns;          /* end of its last interval */
	uint64_t next_ns;          /* when the next one ends */
	bool closed;               /* its last interval is taken */
	uint64_t runtime_ns;       /* the job's runtime, 0 = none */
	struct series *dir[DDIR_COUNT]; /* NULL: the job does not do that direction */
	struct series_sums prev[DDIR_COUNT];
};

struct series_collector {
	uint64_t interval_ns;
	struct series_job *jobs;   /* one per job of the run */
	size_t nr_jobs;
	struct series_set set;     /* what the report shows */
	struct series_sums cur;    /* scratch */
	struct hist diff;          /* scratch */
};

/* Empties @c for a new run of @jobs (the jobs of ctx->jobs, @nr of them). */
int series_collect_begin(struct series_collector *c, const struct job *jobs, size_t nr,
			 unsigned int interval_ms, struct errbuf *err);
/* Closes the intervals of the group's workers (@w, @nr) that have ended
 * by @now; @final closes every job's last one at its workers' end.
 * 0 or -ENOMEM. */
int series_collect_tick(struct series_collector *c, const struct worker *w, unsigned int nr,
			uint64_t now, bool final);
/* When the supervisor of the group's workers (@w, @nr) should next look
 * (0: no need). */
uint64_t series_collect_due(const struct series_collector *c, const struct worker *w,
			    unsigned int nr, uint64_t now);
void series_collect_free(struct series_collector *c);

#endif /* IODIG_SERIES_COLLECT_H */
