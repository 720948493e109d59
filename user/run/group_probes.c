// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel probes per stonewall group.  The families keep totals since they
 * were loaded (maps, histograms, top-N lists, symbolized stacks) and have
 * no way to take one group's share out of them, so each group gets its own
 * load, as each repeat does; a job with one group loads them once, as a
 * run always did.  A group's probes are unloaded when it ends: a family
 * that cannot be detached (funcs) would otherwise keep running, and
 * costing, in the groups after it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "probes/probe.h"
#include "probes/probe_cache.h"
#include "run/group_probes.h"
#include "workload/engine.h"

/* What the probes size their maps from (struct probe_env). */
static void job_figures(const struct run_ctx *ctx, const struct run_group *g,
			struct probe_env *env)
{
	uint64_t threads = 0, inflight = 0, ns = 0;
	bool bounded = g->nr_jobs > 0;

	for (size_t i = g->first_job; i < g->first_job + g->nr_jobs; i++) {
		const struct job *j = &ctx->jobs.jobs[i];

		threads += j->numjobs;
		inflight += (uint64_t)j->numjobs * j->iodepth;
		if (!j->runtime_ns)
			bounded = false;
		/* sum, not max: an upper bound wherever the jobs run */
		ns += job_startdelay_max_ns(j) + j->ramp_time_ns + j->runtime_ns;
	}
	env->threads = threads > UINT_MAX ? UINT_MAX : (unsigned int)threads;
	env->inflight = inflight;
	env->runtime_s = bounded ? (unsigned int)((ns + 999999999ull) / 1000000000ull) : 0;
}

void group_probes_open(struct run_ctx *ctx, const struct run_group *g)
{
	struct probe_env env = { .runner_tgid = getpid(), .supervisor_tid = gettid() };
	struct probe_toggle *t = &ctx->toggle;
	struct errbuf err = { { 0 } };

	group_probes_settle(ctx);
	if (ctx->opts.no_probes)
		return;
	if (g->nr_jobs && ctx->targets) {
		snprintf(env.target_disk, sizeof(env.target_disk), "%s",
			 ctx->targets[g->first_job].info.disk_name);
		env.target_dev = disk_devt(env.target_disk);
	}
	/* Without a cache each family parses its own: slower, not wrong. */
	if (!ctx->probe_cache)
		probe_cache_new(&ctx->probe_cache);
	probe_cache_prefetch_ksyms(ctx->probe_cache);
	env.cache = ctx->probe_cache;
	env.phases = ctx->phases;
	env.force_mechanism = ctx->opts.mechanism;
	probes_env_from_environment(&env);
	env.bpf_stats = ctx->opts.bpf_stats;
	env.detail = ctx->opts.detail;
	env.sample_hz = ctx->opts.sample_hz;
	env.block_time_stride = ctx->opts.block_sample;
	env.stacks = ctx->opts.stacks;
	job_figures(ctx, g, &env);
	if (probes_open(&env, ctx->opts.probes, &ctx->probes, &err))
		fprintf(stderr, "iodig: kernel probes unavailable: %s\n", err.msg);
	/* --probe-toggle runs on across groups: new probes come attached,
	 * and must be detached when the phase under way is an untraced one */
	if (ctx->probes && t->begun && !toggle_traced(t->index))
		probes_set_attached(ctx->probes, false, t->fixed, sizeof(t->fixed));
}

/* The group's own figures, for the kernel section's per-I/O ratios. */
static void workload_figures(const struct run_ctx *ctx, const struct run_group *g,
			     struct probe_workload *wl)
{
	memset(wl, 0, sizeof(*wl));
	for (unsigned int i = g->first_worker; i < g->first_worker + g->nr_workers; i++) {
		const struct worker_stats *s = &ctx->shared->stats[i];

		for (int d = 0; d < DDIR_COUNT; d++) {
			const struct ddir_stats *ds = &s->dir[d];

			wl->ios += ds->ios;
			wl->slat_ns += (uint64_t)(ds->slat.mean * (double)ds->slat.n);
			wl->clat_ns += (uint64_t)(ds->clat.mean * (double)ds->clat.n);
		}
		wl->submit_calls += s->submit_calls;
		wl->reap_calls += s->complete_calls;
		wl->ctx_vol += s->ctx_vol;
		wl->ctx_invol += s->ctx_invol;
		wl->majf += s->majf;
		wl->minf += s->minf;
		counter_values_merge(&wl->counters, &s->counters);
		if (s->runtime_ns > wl->runtime_ns)
			wl->runtime_ns = s->runtime_ns;
		if (ctx->workers[i].job->engine->flags & ENGINE_SYNC)
			wl->sync_engine = true;
	}
}

/* The text section, heading left to the report. */
static int render_text(const struct probe_set *set, char **out)
{
	size_t len = 0;
	FILE *mem = open_memstream(out, &len);

	if (!mem)
		return -ENOMEM;
	probes_render_text_body(set, mem);
	return fclose(mem) ? -ENOMEM : 0;
}

int group_probes_collect(struct run_ctx *ctx, const struct run_group *g, struct errbuf *err)
{
	struct report_kernel *k;
	struct probe_workload wl;
	int ret;

	if (!ctx->probes)
		return 0;
	k = realloc(ctx->kernels, (ctx->nr_kernels + 1) * sizeof(*k));
	if (!k)
		return err_set(err, ENOMEM, "out of memory keeping the kernel figures of group %d",
			       g->id);
	ctx->kernels = k;
	k = &ctx->kernels[ctx->nr_kernels++];
	memset(k, 0, sizeof(*k));
	k->group_id = g->id;
	k->run_group = g->run_group;
	workload_figures(ctx, g, &wl);
	probes_collect(ctx->probes, &wl);
	ret = render_text(ctx->probes, &k->text);
	k->json = probes_json(ctx->probes);
	probes_figures(ctx->probes, &k->figures);
	phase_mark(ctx->phases, "probes", "rendered");
	if (!ret && (!k->json || k->figures.err))
		ret = -ENOMEM;
	/* The figures are taken: the teardown runs while the report is
	 * written; the next group's open, or run_ctx_cleanup(), waits. */
	group_probes_settle(ctx);
	ctx->teardown = probes_destroy_async(ctx->probes);
	ctx->probes = NULL;
	if (ret)
		return err_set(err, -ret, "keeping the kernel section of group %d failed: %s",
			       g->id, strerror(-ret));
	return 0;
}

void group_probes_settle(struct run_ctx *ctx)
{
	probes_teardown_wait(ctx->teardown);
	ctx->teardown = NULL;
}

void group_probes_free(struct run_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nr_kernels; i++) {
		free(ctx->kernels[i].text);
		json_object_put(ctx->kernels[i].json);
		figure_set_free(&ctx->kernels[i].figures);
	}
	free(ctx->kernels);
	ctx->kernels = NULL;
	ctx->nr_kernels = 0;
}
