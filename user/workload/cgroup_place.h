/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's cgroup: the control group a job's workers run in.  The supervisor
 * makes the group (run/cgroup_jobs.c); each worker moves itself in before
 * its I/O and back to the hierarchy's root when it ends, as fio's job
 * does.
 */
#ifndef IODIG_CGROUP_PLACE_H
#define IODIG_CGROUP_PLACE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct cgroup_place {
	char dir[PATH_MAX];   /* the job's group */
	char root[PATH_MAX];  /* the hierarchy's root, where a worker goes back */
	bool v2;              /* cgroup2: cgroup.procs; v1 blkio: tasks */
};

/* Moves task @id (a worker process's pid or a worker thread's tid) into
 * @p's group, as fio writes td->pid; -errno with the reason in @why. */
int cgroup_place_join(const struct cgroup_place *p, pid_t id, char *why, size_t len);

/* Moves task @id back to the root of @p's hierarchy, so the group can be
 * removed; best effort, as fio's cgroup_shutdown. */
void cgroup_place_leave(const struct cgroup_place *p, pid_t id);

#endif /* IODIG_CGROUP_PLACE_H */
