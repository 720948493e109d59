// SPDX-License-Identifier: GPL-2.0
/*
 * fio's process options (uid, gid, cpus_allowed, cpumask,
 * cpus_allowed_policy, nice, prio, prioclass, cgroup), which each worker
 * applies to itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workload/worker_process.h"

static int fail(char *why, size_t len, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *why, size_t len, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return ret;
}

/* linux/ioprio.h, which glibc does not wrap */
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_BE    2
#define IOPRIO_CLASS_SHIFT 13

/* cpus_allowed/cpumask, all of it (shared) or, with split, the n-th CPU
 * of the set for the n-th worker of the run, round robin (fio's
 * fio_cpus_split with thread_number - 1). */
static int apply_affinity(const struct worker *w, char *why, size_t len)
{
	const struct job *job = w->job;
	unsigned int count = 0, pick;
	cpu_set_t set;

	CPU_ZERO(&set);
	for (unsigned int c = 0; c < JOB_CPUS_MAX && c < CPU_SETSIZE; c++)
		count += job_cpus_has(&job->cpus, c);
	if (!count)
		return fail(why, len, -EINVAL, "cpus_allowed/cpumask name no CPU");
	pick = w->index % count;
	for (unsigned int c = 0; c < JOB_CPUS_MAX && c < CPU_SETSIZE; c++) {
		if (!job_cpus_has(&job->cpus, c))
			continue;
		if (job->cpus_policy == CPUS_SHARED) {
			CPU_SET(c, &set);
		} else if (pick-- == 0) {
			CPU_SET(c, &set);
			break;
		}
	}
	if (sched_setaffinity(0, sizeof(set), &set))
		return fail(why, len, -errno, "cannot restrict the worker to the CPUs of cpus_allowed/cpumask: %s",
				   strerror(errno));
	return 0;
}

/*
 * gid, then uid (a new group needs the privilege the uid drops), first, as
 * fio's job does.  The raw system calls change the calling thread alone
 * (glibc's wrappers change every thread): a thread=1 worker takes its
 * uid without the supervisor, which must stay root to put the disks back.
 * A credential change clears the parent-death signal; a process worker
 * asks for it again.
 */
static int apply_credentials(const struct worker *w, char *why, size_t len)
{
	const struct job *job = w->job;

	if (job->gid != JOB_ID_NONE && syscall(SYS_setgid, job->gid))
		return fail(why, len, -errno, "cannot set the group ID to %u (gid): %s",
			    job->gid, strerror(errno));
	if (job->uid != JOB_ID_NONE && syscall(SYS_setuid, job->uid))
		return fail(why, len, -errno, "cannot set the user ID to %u (uid): %s",
			    job->uid, strerror(errno));
	if ((job->gid != JOB_ID_NONE || job->uid != JOB_ID_NONE) && !job->thread)
		prctl(PR_SET_PDEATHSIG, SIGKILL);
	return 0;
}

/* Each worker sets its own user and group, CPUs, nice value and I/O
 * priority, and joins its cgroup; all are per thread on Linux, so thread=1
 * workers get their own too. */
int worker_apply_process_opts(const struct worker *w, char *why, size_t len)
{
	const struct job *job = w->job;
	unsigned int cls = job->ioprio_class ? job->ioprio_class : IOPRIO_CLASS_BE;
	int ret = apply_credentials(w, why, len);

	if (ret)
		return ret;

	if (job->cpus_set) {
		ret = apply_affinity(w, why, len);
		if (ret)
			return ret;
	}
	errno = 0;
	/* fio calls nice(2): the value is added to what iodig runs with */
	if (job->nice && nice(job->nice) == -1 && errno)
		return fail(why, len, -errno, "cannot change the nice value by %d: %s",
				   job->nice, strerror(errno));
	/* fio: a priority without a class is best effort */
	if (job->ioprio_set &&
	    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		    (int)(cls << IOPRIO_CLASS_SHIFT | job->ioprio)))
		return fail(why, len, -errno, "cannot set I/O priority class %u level %u (prioclass, prio): %s",
				   cls, job->ioprio, strerror(errno));
	/* its tid: a worker thread moves alone (cgroup v1's tasks) */
	if (w->cgroup)
		return cgroup_place_join(w->cgroup, gettid(), why, len);
	return 0;
}

