// SPDX-License-Identifier: GPL-2.0
/*
 * fio's ioscheduler, run by the supervisor rather than in each worker as
 * fio does: the supervisor outlives every worker, so it alone can put the
 * old scheduler back whatever way the run ends.
 */
#include <stdio.h>
#include <string.h>

#include "run/io_sched_jobs.h"
#include "workload/engine.h"
#include "workload/io_loop.h"

void io_sched_jobs_switch(struct run_ctx *ctx, unsigned int first, unsigned int count)
{
	for (unsigned int i = first; i < first + count; i++) {
		struct worker *w = &ctx->workers[i];
		const struct job *job = w->job;
		const char *disk = ctx->targets[w->job_index].info.disk_name;
		struct errbuf err = { { 0 } };
		int ret;

		/* fio: nothing for a diskless engine or a file on no disk
		 * (tmpfs) */
		if (!job->ioscheduler[0] || (job->engine->flags & ENGINE_DISKLESS) || !disk[0])
			continue;
		ret = io_sched_switch(&ctx->io_sched, disk, job->ioscheduler, &err);
		if (ret == 1 && !w->clone_index)
			fprintf(stderr, "iodig: job '%s': option 'ioscheduler': %s; the job runs "
				"with the scheduler it has\n", job->name, err.msg);
		if (ret >= 0)
			continue;
		worker_fail(w, ret, "option 'ioscheduler': %s", err.msg);
		w->stats->done = true; /* never started */
	}
}

void io_sched_jobs_restore(struct run_ctx *ctx)
{
	struct errbuf err = { { 0 } };

	if (io_sched_restore(&ctx->io_sched, &err))
		fprintf(stderr, "iodig: %s\n", err.msg);
}
