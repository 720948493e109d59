// SPDX-License-Identifier: GPL-2.0
/*
 * Rate limits and thinktime (workload/pacing.h).  The linear rate is
 * fio's usec_for_io: the I/O of direction d may start once the bytes
 * issued so far, at the rate, would have taken that long; poisson draws
 * exponential gaps at the same mean (fio's -log(U) * 1/iops).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "workload/pacing.h"

#define NSEC_PER_SEC 1000000000ull

bool pacing_active(const struct job *job)
{
	for (int d = 0; d < DDIR_COUNT; d++)
		if (job->rate[d] || job->rate_iops[d] || job->rate_min[d] ||
		    job->rate_iops_min[d])
			return true;
	return job->thinktime_ns != 0;
}

void pacing_init(struct pacing *p, const struct job *job, struct frand_base seed_base,
		 unsigned int thread_number)
{
	memset(p, 0, sizeof(*p));
	p->job = job;
	for (int d = 0; d < DDIR_COUNT; d++) {
		p->bps[d] = job->rate[d] ? job->rate[d] :
			    job->rate_iops[d] * job->bs_min[d];
		frand_seed(&p->poisson[d], frand_job_seed(seed_base, thread_number,
							 FRAND_POISSON), false);
	}
}

void pacing_start(struct pacing *p, uint64_t now)
{
	p->start_ns = now;
	p->cycle_ns = now;
	for (int d = 0; d < DDIR_COUNT; d++)
		p->next_ns[d] = now;
}

uint64_t pacing_delay(struct pacing *p, enum ddir d, uint64_t now)
{
	uint64_t bps = p->bps[d], due;

	if (!bps)
		return 0;
	if (p->job->rate_process == RATE_POISSON) {
		due = p->next_ns[d];
	} else {
		uint64_t bytes = p->issued[d];

		due = p->start_ns + bytes / bps * NSEC_PER_SEC +
		      bytes % bps * NSEC_PER_SEC / bps;
	}
	return due > now ? due - now : 0;
}

void pacing_issued(struct pacing *p, enum ddir d, uint32_t len)
{
	p->issued[d] += len;
	if (p->job->rate_process == RATE_POISSON && p->bps[d]) {
		double iops = (double)p->bps[d] / p->job->bs_min[d];
		double u = (double)frand_next(&p->poisson[d]) / 4294967296.0;

		p->next_ns[d] += (uint64_t)(-log(1.0 - u) / iops * NSEC_PER_SEC);
	}
}

bool pacing_completed(struct pacing *p, enum ddir d, uint32_t len,
		      uint64_t now, char *why, size_t len_why)
{
	const struct job *job = p->job;
	uint64_t span = now - p->cycle_ns;

	p->cycle_bytes[d] += len;
	p->cycle_ios[d]++;
	if (!job->rate_cycle_ns || span < job->rate_cycle_ns)
		return true;
	for (int k = 0; k < DDIR_COUNT; k++) {
		uint64_t bps = p->cycle_bytes[k] * NSEC_PER_SEC / span;
		uint64_t iops = p->cycle_ios[k] * NSEC_PER_SEC / span;

		if ((job->rate_min[k] && bps < job->rate_min[k]) ||
		    (job->rate_iops_min[k] && iops < job->rate_iops_min[k])) {
			snprintf(why, len_why, "%s rate %llu B/s, %llu IOPS is below "
				 "rate_min/rate_iops_min (%llu B/s, %llu IOPS)",
				 k == DDIR_READ ? "read" : "write",
				 (unsigned long long)bps, (unsigned long long)iops,
				 (unsigned long long)job->rate_min[k],
				 (unsigned long long)job->rate_iops_min[k]);
			return false;
		}
		p->cycle_bytes[k] = p->cycle_ios[k] = 0;
	}
	p->cycle_ns = now;
	return true;
}

bool pacing_think_due(struct pacing *p, bool on_issue)
{
	const struct job *job = p->job;

	if (!job->thinktime_ns || on_issue != (job->thinktime_blocks_type == THINK_ON_ISSUE))
		return false;
	return ++p->think_count % job->thinktime_blocks == 0;
}

void pacing_think(const struct pacing *p)
{
	const struct job *job = p->job;
	uint64_t start = now_ns(), rest;
	struct timespec ts;

	while (now_ns() - start < job->thinktime_spin_ns)
		;
	rest = job->thinktime_ns - job->thinktime_spin_ns;
	ts.tv_sec = (time_t)(rest / NSEC_PER_SEC);
	ts.tv_nsec = (long)(rest % NSEC_PER_SEC);
	nanosleep(&ts, NULL);
}
