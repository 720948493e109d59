/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency per I/O priority, fio's clat_prio: a job whose I/Os carry more
 * than one priority (cmdprio_percentage, cmdprio_bssplit) keeps, per
 * direction, the completion latency of each priority apart (the total
 * latency under lat_percentiles, as fio does).  Entry 0 is the worker's
 * own priority (prio/prioclass, 0 when unset), the others the cmdprio
 * priorities in the order their options name them.  A worker's entries
 * live in the run's shared memory beside its worker_stats and are written
 * only by the worker; the reports fold them per entry as fio's
 * sum_clat_prio_stats does.
 */
#ifndef IODIG_PRIO_STATS_H
#define IODIG_PRIO_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/job.h"
#include "workload/stats.h"

/* Priorities kept per direction: the worker's own and cmdprio's. */
#define PRIO_STATS_MAX 8

struct prio_lat {
	uint16_t ioprio;          /* the kernel's value: class << 13 | level */
	struct lat_acc acc;
	struct hist h;
};

struct prio_stats {
	/* 0: the direction has one priority, and no entries */
	uint8_t nr[DDIR_COUNT];
	bool total_lat;           /* lat_percentiles: total latency, not clat */
	bool off;                 /* that latency is not measured (disable_*) */
	/* Report side: whether fio prints them for the entry (a member had
	 * several priorities, or the members' own priorities differ). */
	bool wanted;
	unsigned int members;
	uint16_t first_ioprio;    /* the first member's own priority */
	struct prio_lat e[DDIR_COUNT][PRIO_STATS_MAX];
};

/* The priority a job's workers run with, fio's td->ioprio: prioclass and
 * prio, a level alone being best effort; 0 when neither is given. */
static inline uint16_t job_ioprio(const struct job *job)
{
	if (!job->ioprio_set)
		return 0;
	return (uint16_t)((job->ioprio_class ? job->ioprio_class : 2) << 13 |
			  job->ioprio);
}

/* Starts direction @d's list with @job's own priority, once (a second
 * call, from another engine set-up of the same worker, keeps it). */
void prio_stats_begin(struct prio_stats *ps, const struct job *job, enum ddir d);
/* The index of @ioprio in @d's list, added when new; -ENOSPC when the
 * list is full. */
int prio_stats_index(struct prio_stats *ps, enum ddir d, uint16_t ioprio);

/* A completed I/O of direction @d and priority entry @idx; nothing when
 * the direction keeps no entries.  No lock and no allocation. */
static inline void prio_stats_io(struct prio_stats *ps, enum ddir d,
				 unsigned int idx, uint64_t clat_ns,
				 uint64_t lat_ns)
{
	struct prio_lat *p;

	if (!ps || (unsigned int)d >= DDIR_COUNT || idx >= ps->nr[d] || ps->off)
		return;
	p = &ps->e[d][idx];
	lat_acc_add(&p->acc, ps->total_lat ? lat_ns : clat_ns);
	hist_add(&p->h, ps->total_lat ? lat_ns : clat_ns);
}

/* Zeroes the samples and keeps the lists (fio's reset_io_stats). */
void prio_stats_reset(struct prio_stats *ps);

/* Entries of @d with samples: fio prints them when there are two or more. */
unsigned int prio_stats_shown(const struct prio_stats *ps, enum ddir d);

/* Folds one worker into a report entry's @dst, as fio's sum_thread_stats:
 * a worker with entries adds them by priority; one without adds its whole
 * clat (lat) under its own priority.  @src may be NULL.  -ENOSPC when the
 * entry would hold more than PRIO_STATS_MAX priorities. */
int prio_stats_merge(struct prio_stats *dst, const struct prio_stats *src,
		     const struct worker_stats *st, const struct job *job);

/* unified_rw_reporting's fold (fio's sum_clat_prio_stats into ddir 0):
 * every direction of @src by priority into @dst's reads.  -ENOSPC as
 * prio_stats_merge. */
int prio_stats_mix(struct prio_stats *dst, const struct prio_stats *src);

#endif /* IODIG_PRIO_STATS_H */
