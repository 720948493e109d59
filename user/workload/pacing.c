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

#include "base/clock.h"
#include "base/fine_sleep.h"
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
	if (job->thinktime_ns)
		p->granularity_ns = fine_sleep_granularity();
}

void pacing_start(struct pacing *p, uint64_t now)
{
	p->start_ns = now;
	p->cycle_ns = now;
	p->last_think_ns = now;
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

bool pacing_rated(const struct pacing *p)
{
	return p->bps[DDIR_READ] || p->bps[DDIR_WRITE];
}

enum ddir pacing_pick_ddir(struct pacing *p, enum ddir d, uint64_t now)
{
	enum ddir other = d == DDIR_READ ? DDIR_WRITE : DDIR_READ;
	uint64_t wait = pacing_delay(p, d, now);

	/* a direction without a rate is always due */
	return wait && pacing_delay(p, other, now) < wait ? other : d;
}

void pacing_issued(struct pacing *p, enum ddir d, uint32_t len)
{
	p->issued[d] += len;
	p->last_ddir = d;
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

void pacing_think_count(struct pacing *p, bool on_issue)
{
	if (on_issue == (p->job->thinktime_blocks_type == THINK_ON_ISSUE))
		p->think_count++;
}

/* fio 3.33's handle_thinktime: thinktime_iotime's time first, then
 * (unless thinktime_iotime is set and thinktime_blocks is not) the
 * blocks counted since the last think.  fio times a cycle of
 * thinktime_iotime + thinktime from the start of the last think (or of
 * the job), so the first run of I/O is that long and each later one
 * thinktime_iotime. */
bool pacing_think_due(struct pacing *p)
{
	const struct job *job = p->job;

	if (!job->thinktime_ns)
		return false;
	if (job->thinktime_iotime_ns) {
		if (now_ns() - p->last_think_ns >= job->thinktime_iotime_ns + job->thinktime_ns)
			goto due;
		if (!job->thinktime_blocks_given)
			return false;
	}
	if (p->think_count - p->think_last < job->thinktime_blocks)
		return false;
due:
	p->think_last = p->think_count;
	return true;
}

/* rate_ignore_thinktime: fio adds the bytes the rate would have issued
 * in the @think_us just spent, less a block when the pause was at least
 * one I/O's time at the rate, so the next I/O goes at once. */
static void skip_think_at_rate(struct pacing *p, uint64_t think_us)
{
	enum ddir d = p->last_ddir;
	uint64_t bps = p->bps[d], bs = p->job->bs_min[d], missed, us_per_io;

	if (!p->job->rate_ignore_thinktime || !think_us || !bps)
		return;
	missed = bps * think_us / 1000000;
	us_per_io = bs * 1000000 / bps;
	p->issued[d] += missed - (us_per_io <= think_us ? bs : 0);
	p->next_ns[d] += think_us * 1000; /* poisson's next arrival */
}

void pacing_think(struct pacing *p, bool (*stopped)(const void *arg), const void *arg)
{
	const struct job *job = p->job;
	uint64_t start = now_ns(), spun;

	p->last_think_ns = start;
	while (now_ns() - start < job->thinktime_spin_ns)
		;
	/* the rest counts from the spin as measured: none when the spin
	 * overran thinktime (docs/usage.md: fio 3.33's jobs with a
	 * thinktime_spin did not end here) */
	spun = now_ns() - start;
	if (spun < job->thinktime_ns)
		fine_sleep_until(start + job->thinktime_ns, p->granularity_ns, stopped, arg);
	skip_think_at_rate(p, (now_ns() - start) / 1000);
}
