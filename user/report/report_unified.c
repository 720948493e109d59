// SPDX-License-Identifier: GPL-2.0
/*
 * unified_rw_reporting's "mixed" entry and group line, folded as fio
 * 3.33's stat.c folds them (sum_thread_stats with UNIFIED_MIXED, and
 * show_mixed_group_stats).
 */
#include <stdlib.h>
#include <string.h>

#include "report/report_unified.h"

/* Direction @d of @st into its reads, as fio sums into ddir 0. */
static void fold_dir(struct worker_stats *st, enum ddir d)
{
	ddir_stats_merge(&st->dir[DDIR_READ], &st->dir[d]);
	st->issued[DDIR_READ] += st->issued[d];
	if (st->ddir_run_us[d] > st->ddir_run_us[DDIR_READ])
		st->ddir_run_us[DDIR_READ] = st->ddir_run_us[d];
	memset(&st->dir[d], 0, sizeof(st->dir[d]));
	st->issued[d] = 0;
	st->ddir_run_us[d] = 0;
}

struct report_job *report_job_mixed(const struct report_job *rj)
{
	struct report_job *m = malloc(sizeof(*m));

	if (!m)
		return NULL;
	*m = *rj;
	m->mixed = NULL;
	m->prio = NULL;
	for (int d = DDIR_READ + 1; d < DDIR_COUNT; d++)
		fold_dir(&m->st, (enum ddir)d);
	if (rj->prio) {
		m->prio = malloc(sizeof(*m->prio));
		if (!m->prio || prio_stats_mix(m->prio, rj->prio)) {
			report_job_mixed_free(m);
			return NULL;
		}
	}
	return m;
}

void report_job_mixed_free(struct report_job *m)
{
	if (!m)
		return;
	free(m->prio);
	free(m);
}

void report_group_mix(const struct report_group *g, struct report_group_mix *out)
{
	memset(out, 0, sizeof(*out));
	out->bw_min = out->runtime_min_ms = UINT64_MAX;
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!g->runtime_max_ms[d])
			continue;
		out->bytes += g->bytes[d];
		out->bw_agg += g->bw_agg[d];
		if (g->bw_min[d] < out->bw_min)
			out->bw_min = g->bw_min[d];
		if (g->bw_max[d] > out->bw_max)
			out->bw_max = g->bw_max[d];
		if (g->runtime_min_ms[d] < out->runtime_min_ms)
			out->runtime_min_ms = g->runtime_min_ms[d];
		if (g->runtime_max_ms[d] > out->runtime_max_ms)
			out->runtime_max_ms = g->runtime_max_ms[d];
	}
}
