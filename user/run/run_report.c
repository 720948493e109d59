// SPDX-License-Identifier: GPL-2.0
/* Folds worker stats into report entries, groups and disk figures. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "base/mem.h"
#include "report/report_unified.h"
#include "report/units.h"
#include "run/run.h"
#include "target/describe.h"

static bool group_reports_merged(const struct run_ctx *ctx, int group)
{
	for (size_t j = 0; j < ctx->jobs.count; j++)
		if (ctx->jobs.jobs[j].group_id == group &&
		    ctx->jobs.jobs[j].group_reporting)
			return true;
	return false;
}

/* fio's per-priority figures of the entry, folded as its stat.c does;
 * dropped once every member is in when fio would not keep them. */
static int entry_add_prio(struct report_job *e, const struct worker *w)
{
	if (!e->prio)
		e->prio = calloc(1, sizeof(*e->prio));
	if (!e->prio)
		return -ENOMEM;
	return prio_stats_merge(e->prio, w->prio, w->stats, w->job);
}

/* A member's error as fio's __show_run_stats takes it: what ended it, else
 * under continue_on_error the first error it went on from. */
static int member_error(const struct worker *w)
{
	const struct worker_stats *s = w->stats;

	if (!s->error && w->job->continue_on_error)
		return s->first_io_error;
	return s->error;
}

/* fio's group: the error of the first member that has one, the last
 * member's continue_on_error (and first_error, worker_stats_merge). */
static int entry_add_worker(struct report_job *e, const struct worker *w)
{
	const struct worker_stats *s = w->stats;

	if (!e->nr_workers) {
		e->job = w->job;
		e->pid = s->pid;
		e->st = *s;
	} else {
		worker_stats_merge(&e->st, s);
	}
	if (!e->error) {
		e->error = member_error(w);
		if (e->error)
			snprintf(e->errmsg, sizeof(e->errmsg), "%s", s->errmsg);
	}
	e->continue_on_error = w->job->continue_on_error;
	e->nr_workers++;
	return entry_add_prio(e, w);
}

static void drop_unwanted_prio(struct report *rep)
{
	for (size_t i = 0; i < rep->nr_jobs; i++)
		if (rep->jobs[i].prio && !rep->jobs[i].prio->wanted)
			FREE_AND_NULL(rep->jobs[i].prio);
}

/* unified_rw_reporting's mixed copy of each entry that asks for one,
 * once every member is in. */
static int mix_entries(struct report *rep)
{
	for (size_t i = 0; i < rep->nr_jobs; i++) {
		struct report_job *e = &rep->jobs[i];

		if (report_unified(e) == UNIFIED_NONE)
			continue;
		e->mixed = report_job_mixed(e);
		if (!e->mixed)
			return -ENOMEM;
	}
	return 0;
}

static int build_entries(const struct run_ctx *ctx, struct report *rep,
			 struct errbuf *err)
{
	for (unsigned int i = 0; i < ctx->nr_workers; i++) {
		const struct worker *w = &ctx->workers[i];
		int group = w->job->group_id, ret;
		struct report_job *e;

		/* fio's stats=0: the job runs, its figures are not reported */
		if (!w->job->stats)
			continue;
		if (group_reports_merged(ctx, group) && rep->nr_jobs &&
		    rep->jobs[rep->nr_jobs - 1].job->group_id == group)
			e = &rep->jobs[rep->nr_jobs - 1];
		else
			e = &rep->jobs[rep->nr_jobs++];
		ret = entry_add_worker(e, w);
		if (ret == -ENOSPC)
			return err_set(err, ENOSPC, "job '%s': its report entry would "
				       "hold more than %d I/O priorities per "
				       "direction, iodig's most", w->job->name,
				       PRIO_STATS_MAX);
		if (ret)
			return err_set(err, -ret, "out of memory building the report");
		if (steady_check_window(&ctx->steady, w->index))
			e->steady = steady_check_window(&ctx->steady, w->index);
	}
	drop_unwanted_prio(rep);
	if (mix_entries(rep))
		return err_set(err, ENOMEM, "out of memory building the report");
	return 0;
}

static struct report_group *find_group(struct report *rep, int id)
{
	for (size_t i = 0; i < rep->nr_groups; i++)
		if (rep->groups[i].id == id)
			return &rep->groups[i];
	return NULL;
}

/* fio's "Run status group": bytes and runtimes over the group's entries. */
static void build_groups(struct report *rep)
{
	for (size_t i = 0; i < rep->nr_jobs; i++) {
		const struct report_job *e = &rep->jobs[i];
		const struct worker_stats *st = &report_job_shown(e)->st;
		struct report_group *g = find_group(rep, e->job->group_id);

		if (!g) {
			g = &rep->groups[rep->nr_groups++];
			g->id = e->job->group_id;
			g->kb_base = 1024;
			for (int d = 0; d < DDIR_COUNT; d++) {
				g->runtime_min_ms[d] = UINT64_MAX;
				g->bw_min[d] = UINT64_MAX;
			}
		}
		g->unified |= report_unified(e);
		g->sig_figs = e->job->stat.sig_figs;
		for (int d = 0; d < DDIR_COUNT; d++) {
			const struct ddir_stats *ds = &st->dir[d];
			uint64_t ms = stats_ddir_runtime_ms(st, (enum ddir)d), bw;

			/* fio leaves out a direction without runtime */
			if (!ms)
				continue;
			bw = ds->bytes * 1000 / ms;
			g->bytes[d] += ds->bytes;
			g->ios[d] += ds->ios;
			if (ms < g->runtime_min_ms[d])
				g->runtime_min_ms[d] = ms;
			if (ms > g->runtime_max_ms[d])
				g->runtime_max_ms[d] = ms;
			if (bw < g->bw_min[d])
				g->bw_min[d] = bw;
			if (bw > g->bw_max[d])
				g->bw_max[d] = bw;
		}
	}
	for (size_t i = 0; i < rep->nr_groups; i++) {
		struct report_group *g = &rep->groups[i];

		for (int d = 0; d < DDIR_COUNT; d++) {
			if (g->runtime_min_ms[d] == UINT64_MAX)
				g->runtime_min_ms[d] = 0;
			if (g->bw_min[d] == UINT64_MAX)
				g->bw_min[d] = 0;
			g->bw_agg[d] = g->runtime_max_ms[d] ?
				       g->bytes[d] * 1000 / g->runtime_max_ms[d] : 0;
		}
	}
}

static void build_disks(const struct run_ctx *ctx, struct report *rep)
{
	uint64_t span_ms = 0;

	/* Utilisation over the span the jobs ran, as fio does. */
	for (size_t j = 0; j < rep->nr_jobs; j++) {
		uint64_t ms = rep->jobs[j].st.runtime_ns / 1000000;

		if (ms > span_ms)
			span_ms = ms;
	}
	for (unsigned int i = 0; i < ctx->disks.nr; i++)
		report_disk_fill(&rep->disks[rep->nr_disks++], ctx->disks.name[i],
				 ctx->disks.master[i], &ctx->disk_before[i],
				 &ctx->disk_after[i], span_ms);
	report_disks_aggregate(rep->disks, rep->nr_disks);
}

static void build_targets(const struct run_ctx *ctx, struct report *rep)
{
	for (size_t j = 0; j < ctx->jobs.count && ctx->targets; j++) {
		const struct job_target *t = &ctx->targets[j];
		struct report_target *rt = &rep->targets[rep->nr_targets++];

		rt->job = ctx->jobs.jobs[j].name;
		rt->path = t->info.path;
		rt->device = t->info.is_blockdev ? t->info.path + (strncmp(t->info.path, "/dev/", 5) ? 0 : 5)
						 : t->info.disk_name;
		rt->filesystem = t->info.fs_type;
		rt->scratch = t->scratch;
		target_describe(&t->info, t->scratch, rt->text, sizeof(rt->text));
	}
}

/* calloc with room for one element at least, so that an empty run still
 * has its arrays. */
static void *calloc_some(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

/* Every array the report fills, at its largest: an entry (and a group)
 * per worker at most, a disk per disk watched, a target per job. */
static int alloc_arrays(const struct run_ctx *ctx, struct report *rep)
{
	rep->jobs = calloc_some(ctx->nr_workers, sizeof(*rep->jobs));
	rep->groups = calloc_some(ctx->nr_workers, sizeof(*rep->groups));
	rep->disks = calloc_some(ctx->disks.nr, sizeof(*rep->disks));
	rep->targets = calloc_some(ctx->jobs.count, sizeof(*rep->targets));
	return rep->jobs && rep->groups && rep->disks && rep->targets ? 0 : -ENOMEM;
}

int run_build_report(struct run_ctx *ctx, struct report *rep, struct errbuf *err)
{
	struct utsname u;
	struct timespec ts;
	int ret;

	memset(rep, 0, sizeof(*rep));
	clock_gettime(CLOCK_REALTIME, &ts);
	rep->timestamp = ts.tv_sec;
	rep->timestamp_ms = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
	rep->interrupted = ctx->stop_signal != 0;
	snprintf(rep->command, sizeof(rep->command), "%s", ctx->opts.command);
	if (!uname(&u))
		snprintf(rep->kernel_release, sizeof(rep->kernel_release), "%s", u.release);
	gethostname(rep->hostname, sizeof(rep->hostname) - 1);
	rep->kernels = ctx->kernels;
	rep->nr_kernels = ctx->nr_kernels;
	rep->toggle = ctx->opts.probe_toggle_ms && ctx->nr_kernels ? &ctx->toggle : NULL;
	rep->series = &ctx->series.set;
	rep->steady = ctx->opts.steady;
	rep->job_defs = ctx->jobs.jobs;
	rep->nr_job_defs = ctx->jobs.count;
	if (alloc_arrays(ctx, rep)) {
		report_free(rep);
		return err_set(err, ENOMEM, "out of memory building the report");
	}
	ret = build_entries(ctx, rep, err);
	if (ret) {
		report_free(rep);
		return ret;
	}
	build_groups(rep);
	build_disks(ctx, rep);
	build_targets(ctx, rep);
	return 0;
}

void report_free(struct report *rep)
{
	if (!rep)
		return;
	for (size_t i = 0; rep->jobs && i < rep->nr_jobs; i++) {
		FREE_AND_NULL(rep->jobs[i].prio);
		report_job_mixed_free(rep->jobs[i].mixed);
		rep->jobs[i].mixed = NULL;
	}
	FREE_AND_NULL(rep->jobs);
	FREE_AND_NULL(rep->groups);
	FREE_AND_NULL(rep->disks);
	FREE_AND_NULL(rep->targets);
}
