/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's cgroup, cgroup_weight and cgroup_nodelete for the jobs of a run:
 * the supervisor makes each job's group (in the blkio hierarchy, else
 * cgroup2, the first /proc/mounts lists, as fio) as its workers start,
 * and removes the groups it made when the run ends, unless
 * cgroup_nodelete.  The workers move themselves in and out
 * (workload/cgroup_place.h).
 */
#ifndef IODIG_CGROUP_JOBS_H
#define IODIG_CGROUP_JOBS_H

#include <stdbool.h>

#include "workload/cgroup_place.h"

struct run_ctx;

struct cgroup_jobs {
	struct cgroup_place *places;  /* one per job; NULL until a job has cgroup= */
	bool *made;                   /* per job: its group made by this run */
	char mount[PATH_MAX];         /* the hierarchy; "" not looked for yet */
	bool v2;
};

/*
 * For workers @first..@first+@count-1 whose job has cgroup=: makes the
 * group (an existing one is used as it is), sets cgroup_weight, and
 * points each worker at it.  What fails fails the job's workers (their
 * stats' error, done, never started), as fio's job ends at its failed
 * cgroup_setup.
 */
void cgroup_jobs_setup(struct run_ctx *ctx, unsigned int first, unsigned int count);

/* Removes the groups this run made, but cgroup_nodelete's; a failure is
 * told on stderr.  Called as each run ends and at cleanup. */
void cgroup_jobs_remove(struct run_ctx *ctx);

void cgroup_jobs_free(struct cgroup_jobs *cg);

#endif /* IODIG_CGROUP_JOBS_H */
