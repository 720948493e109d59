// SPDX-License-Identifier: GPL-2.0
/*
 * Latency per I/O priority (fio's clat_prio): the lists of a worker's
 * priorities, and their folding into report entries after fio's stat.c
 * (sum_clat_prio_stats and init_per_prio_stats).
 */
#include <errno.h>
#include <string.h>

#include "workload/prio_stats.h"

void prio_stats_begin(struct prio_stats *ps, const struct job *job, enum ddir d)
{
	if ((unsigned int)d >= DDIR_COUNT || ps->nr[d])
		return;
	ps->total_lat = job->stat.lat_percentiles;
	ps->off = ps->total_lat ? job->stat.disable_lat : job->stat.disable_clat;
	ps->e[d][0].ioprio = job_ioprio(job);
	ps->nr[d] = 1;
}

static int find(const struct prio_stats *ps, enum ddir d, uint16_t ioprio)
{
	for (unsigned int i = 0; i < ps->nr[d]; i++)
		if (ps->e[d][i].ioprio == ioprio)
			return (int)i;
	return -1;
}

int prio_stats_index(struct prio_stats *ps, enum ddir d, uint16_t ioprio)
{
	int i = find(ps, d, ioprio);

	if (i >= 0)
		return i;
	if (ps->nr[d] == PRIO_STATS_MAX)
		return -ENOSPC;
	ps->e[d][ps->nr[d]].ioprio = ioprio;
	return ps->nr[d]++;
}

void prio_stats_reset(struct prio_stats *ps)
{
	if (!ps)
		return;
	for (unsigned int d = 0; d < DDIR_COUNT; d++) {
		for (unsigned int i = 0; i < ps->nr[d]; i++) {
			memset(&ps->e[d][i].acc, 0, sizeof(ps->e[d][i].acc));
			memset(&ps->e[d][i].h, 0, sizeof(ps->e[d][i].h));
		}
	}
}

unsigned int prio_stats_shown(const struct prio_stats *ps, enum ddir d)
{
	unsigned int n = 0;

	for (unsigned int i = 0; ps && i < ps->nr[d]; i++)
		n += ps->e[d][i].acc.n != 0;
	return n;
}

/* Adds @acc and @h under @ioprio; an empty one adds nothing. */
static int add_samples(struct prio_stats *dst, enum ddir d, uint16_t ioprio,
		       const struct lat_acc *acc, const struct hist *h)
{
	int i;

	if (!acc->n)
		return 0;
	i = prio_stats_index(dst, d, ioprio);
	if (i < 0)
		return i;
	lat_acc_merge(&dst->e[d][i].acc, acc);
	hist_merge(&dst->e[d][i].h, h);
	return 0;
}

/* One direction of a worker: its entries, kept in their order when
 * @dst has none yet (fio copies the array then, empty entries too). */
static int merge_dir(struct prio_stats *dst, const struct prio_stats *src,
		     const struct worker_stats *st, const struct job *job,
		     enum ddir d)
{
	const struct ddir_stats *ds = &st->dir[d];
	int ret = 0;

	if (!src || !src->nr[d]) {
		if (job->stat.lat_percentiles)
			return add_samples(dst, d, job_ioprio(job), &ds->lat, &ds->lat_h);
		return add_samples(dst, d, job_ioprio(job), &ds->clat, &ds->clat_h);
	}
	if (!dst->nr[d]) {
		memcpy(dst->e[d], src->e[d], src->nr[d] * sizeof(src->e[d][0]));
		dst->nr[d] = src->nr[d];
		return 0;
	}
	for (unsigned int i = 0; i < src->nr[d] && !ret; i++)
		ret = add_samples(dst, d, src->e[d][i].ioprio, &src->e[d][i].acc,
				  &src->e[d][i].h);
	return ret;
}

static bool has_entries(const struct prio_stats *ps)
{
	for (unsigned int d = 0; ps && d < DDIR_COUNT; d++)
		if (ps->nr[d])
			return true;
	return false;
}

int prio_stats_merge(struct prio_stats *dst, const struct prio_stats *src,
		     const struct worker_stats *st, const struct job *job)
{
	int ret = 0;

	if (!dst->members++)
		dst->first_ioprio = job_ioprio(job);
	else if (job_ioprio(job) != dst->first_ioprio)
		dst->wanted = true;
	if (has_entries(src))
		dst->wanted = true;
	for (unsigned int d = 0; d < DDIR_COUNT && !ret; d++)
		ret = merge_dir(dst, src, st, job, (enum ddir)d);
	return ret;
}

int prio_stats_mix(struct prio_stats *dst, const struct prio_stats *src)
{
	int ret = 0;

	memset(dst, 0, sizeof(*dst));
	dst->total_lat = src->total_lat;
	dst->off = src->off;
	dst->wanted = src->wanted;
	dst->members = src->members;
	dst->first_ioprio = src->first_ioprio;
	for (unsigned int d = 0; d < DDIR_COUNT && !ret; d++)
		for (unsigned int i = 0; i < src->nr[d] && !ret; i++)
			ret = add_samples(dst, DDIR_READ, src->e[d][i].ioprio,
					  &src->e[d][i].acc, &src->e[d][i].h);
	return ret;
}
