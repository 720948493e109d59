// SPDX-License-Identifier: GPL-2.0
/*
 * A parsed job list made whole (job_list_finalize): each job's engine
 * found, the options that depend on others resolved and every check
 * across options run, in one ordered table; then the checks across jobs
 * (wait_for, the run's worker count) and against this host.  Parsing is
 * jobfile.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/engine_opts.h"
#include "workload/file_sync.h"
#include "workload/pre_read.h"
#include "workload/verify_opts.h"
#include "workload/trim.h"
#include "job/dedupe_opts.h"
#include "job/fio_engines.h"
#include "job/file_opts.h"
#include "job/mem_opts.h"
#include "job/opendir_opt.h"
#include "job/options.h"
#include "job/process_opts.h"
#include "job/replay_opts.h"
#include "job/stat_opts.h"
#include "job/sprandom_opts.h"
#include "job/steady_opts.h"
#include "job/stream_options.h"
#include "job/zone_opts.h"

/* Workers of a whole run (numjobs summed over every job file and the
 * command line): fio's limit too.  Each worker has ~110 KiB of shared
 * stats, so this also bounds that mapping (~450 MiB at most). */
#define RUN_MAX_WORKERS   4096

#define DIRECT_ALIGN 512u /* O_DIRECT needs logical-block alignment */

#define WHERE_LEN (PATH_MAX + JOB_NAME_MAX + 64)

static void job_where(const struct job *job, char *buf, size_t len)
{
	if (job->source[0] && job->source_line > 0)
		snprintf(buf, len, "%s:%d: job '%s'", job->source,
			 job->source_line, job->name);
	else if (job->source[0])
		snprintf(buf, len, "%s: job '%s'", job->source, job->name);
	else
		snprintf(buf, len, "job '%s'", job->name);
}

static int check_bs(struct job *job, const char *where, struct errbuf *err)
{
	for (int d = 0; d < DDIR_COUNT; d++) {
		unsigned int bs = job->bs[d], lo = job->bs_min[d];
		unsigned int hi = job->bs_max[d];

		if (!rw_has_dir(job->rw, (enum ddir)d))
			continue;
		if (!bs || !lo)
			return err_set(err, EINVAL, "%s: bs must be larger "
				       "than 0", where);
		if (bs > JOB_BS_MAX || hi > JOB_BS_MAX)
			return err_set(err, EINVAL, "%s: bs %u is larger than "
				       "the maximum %llu (1 GiB)", where,
				       bs > hi ? bs : hi, JOB_BS_MAX);
		if (lo > hi || bs < lo || bs > hi)
			return err_set(err, EINVAL, "%s: bs %u does not fit "
				       "bsrange %u-%u", where, bs, lo, hi);
		/* No alignment check with direct=1: what O_DIRECT needs is
		 * the file system's or device's to say (tmpfs and FUSE take
		 * any size), so the I/O goes to the kernel and its EINVAL
		 * is the job's error, as in fio. */
		if (job->size && lo > job->size)
			return err_set(err, EINVAL, "%s: bs %u is larger than "
				       "size %llu", where, lo,
				       (unsigned long long)job->size);
	}
	return 0;
}

static int check_depth_and_counts(struct job *job, const char *where,
				  struct errbuf *err)
{
	if (job->iodepth < 1 || job->iodepth > 65536)
		return err_set(err, EINVAL, "%s: iodepth %u is out of range "
			       "1-65536", where, job->iodepth);
	/* fio clamps the submit batch to the depth ... */
	if (job->iodepth_batch_submit > job->iodepth)
		job->iodepth_batch_submit = job->iodepth;
	/* ... but waiting for more completions than can be in flight would
	 * never return. */
	if (job->iodepth_batch_complete_min > job->iodepth)
		return err_set(err, EINVAL, "%s: iodepth_batch_complete_min %u "
			       "is larger than iodepth %u", where,
			       job->iodepth_batch_complete_min, job->iodepth);
	if (job->numjobs < 1 || job->numjobs > 1024)
		return err_set(err, EINVAL, "%s: numjobs %u is out of range "
			       "1-1024", where, job->numjobs);
	if (job->rwmixread > 100)
		return err_set(err, EINVAL, "%s: rwmixread %u is out of range "
			       "0-100", where, job->rwmixread);
	if (job->size && job->offset > UINT64_MAX - job->size)
		return err_set(err, EINVAL, "%s: offset %llu + size %llu "
			       "overflows", where,
			       (unsigned long long)job->offset,
			       (unsigned long long)job->size);
	if (job->direct && job->offset % DIRECT_ALIGN)
		return err_set(err, EINVAL, "%s: offset %llu is not a multiple "
			       "of %u, which direct=1 (O_DIRECT) needs", where,
			       (unsigned long long)job->offset, DIRECT_ALIGN);
	return 0;
}

/* A job's checks, and the resolutions of options that depend on others,
 * in order: each may rely on what those before it resolved. */
static int (*const job_steps[])(struct job *job, const char *where,
				struct errbuf *err) = {
	sprandom_opts_resolve,
	stream_opts_resolve,
	zone_opts_resolve,
	check_bs,
	check_depth_and_counts,
	engine_opts_resolve,
	verify_opts_resolve,
	opendir_resolve,
	job_check_file_opts,
	replay_opts_check,
	pre_read_resolve,
	stat_opts_resolve,
};

/* Then the checks that only read the job. */
static int (*const job_checks[])(const struct job *job, const char *where,
				 struct errbuf *err) = {
	trim_check_job,
	steady_opts_check,
	stat_opts_check,
	dedupe_opts_check,
	mem_opts_check,
	file_sync_check_job,
};

static int check_job(struct job *job, struct errbuf *err)
{
	char where[WHERE_LEN];
	int ret;

	job_where(job, where, sizeof(where));
	job->io_size_given = job->io_size || job->io_size_percent ||
			     job->zone_counts.io_size;
	job->engine = fio_engine_resolve(job->ioengine);
	if (!job->engine)
		return err_set(err, EINVAL, "%s: ioengine '%.64s' is unknown "
			       "(iodig has %s)", where, job->ioengine,
			       engine_names());
	for (size_t i = 0; i < sizeof(job_steps) / sizeof(job_steps[0]); i++) {
		ret = job_steps[i](job, where, err);
		if (ret)
			return ret;
	}
	for (size_t i = 0; i < sizeof(job_checks) / sizeof(job_checks[0]); i++) {
		ret = job_checks[i](job, where, err);
		if (ret)
			return ret;
	}
	/* fio's fixup_options: time_based without a runtime is dropped
	 * (fio says so on stderr and runs the job sized). */
	if (job->time_based && !job->runtime_ns)
		job->time_based = false;
	if (!job->io_size && !job->io_size_percent)
		job->io_size = job->size; /* still 0 = whole target, resolved
					   * once the target is open */
	return 0;
}

/* fio's wait_for: the job named must be defined before the waiting one
 * (its "waitee job X unknown" otherwise), and not be the job itself. */
static int check_wait_for(const struct job_list *list, struct errbuf *err)
{
	char where[WHERE_LEN];

	for (size_t i = 0; i < list->count; i++) {
		const struct job *job = &list->jobs[i];
		bool known = false;

		if (!job->wait_for[0])
			continue;
		job_where(job, where, sizeof(where));
		if (!strcmp(job->wait_for, job->name))
			return err_set(err, EINVAL, "%s: a job cannot wait for "
				       "itself (wait_for=%s)", where, job->wait_for);
		for (size_t k = 0; k < i && !known; k++)
			known = !strcmp(list->jobs[k].name, job->wait_for);
		if (!known)
			return err_set(err, EINVAL, "%s: wait_for=%s: no job of "
				       "that name before this one (fio: waitee "
				       "job unknown)", where, job->wait_for);
	}
	return 0;
}

int job_list_finalize(struct job_list *list, struct errbuf *err)
{
	size_t in_group = 0, workers = 0;
	int group = 0, run = 0;
	int ret;

	if (!list || !list->count)
		return err_set(err, EINVAL, "no jobs to run");
	for (size_t i = 0; i < list->count; i++) {
		ret = check_job(&list->jobs[i], err);
		if (ret)
			return ret;
		workers += list->jobs[i].numjobs;
	}
	ret = check_wait_for(list, err);
	if (ret)
		return ret;
	stat_opts_share_clocksource(list->jobs, list->count);
	if (workers > RUN_MAX_WORKERS)
		return err_set(err, E2BIG, "the jobs ask for %zu workers in all (numjobs summed over %zu jobs); iodig runs at most %d, as fio does",
			       workers, list->count, RUN_MAX_WORKERS);
	/* fio: stonewall makes a job wait for all before it; it and
	 * new_group open a new reporting group, unless the current group is
	 * still empty. */
	for (size_t i = 0; i < list->count; i++) {
		struct job *job = &list->jobs[i];

		if ((job->stonewall || job->new_group) && in_group) {
			group++;
			in_group = 0;
		}
		if (job->stonewall && i)
			run++;
		job->group_id = group;
		job->run_group = run;
		in_group++;
	}
	return steady_opts_check_groups(list->jobs, list->count, err);
}

int job_list_check_host(const struct job_list *list, struct errbuf *err)
{
	char where[WHERE_LEN];

	for (size_t i = 0; list && i < list->count; i++) {
		int ret;

		job_where(&list->jobs[i], where, sizeof(where));
		ret = job_check_host(&list->jobs[i], where, err);
		if (ret)
			return ret;
	}
	return 0;
}

