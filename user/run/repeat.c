// SPDX-License-Identifier: GPL-2.0
/*
 * The run flow behind `iodig run`, once or --repeat=N times: probes are
 * loaded fresh for every repeat (their maps count from zero), the workers
 * are rebuilt, and each repeat's figures are kept.  Only the last repeat's
 * full report is printed; the others survive as figures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "workload/engine.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "run/repeat.h"
#include "base/ttest.h"
#include "report/units.h"

dev_t disk_devt(const char *disk)
{
	char path[256], buf[32];
	unsigned int maj, min;
	FILE *f;
	dev_t dev = 0;

	if (!disk || !disk[0])
		return 0;
	snprintf(path, sizeof(path), "/sys/block/%s/dev", disk);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2)
		dev = makedev(maj, min);
	fclose(f);
	return dev;
}

/* What the probes size their maps from (struct probe_env). */
static void job_figures(const struct job_list *jobs, struct probe_env *env)
{
	uint64_t threads = 0, inflight = 0, ns = 0;
	bool bounded = jobs->count > 0;

	for (size_t i = 0; i < jobs->count; i++) {
		const struct job *j = &jobs->jobs[i];

		threads += j->numjobs;
		inflight += (uint64_t)j->numjobs * j->iodepth;
		if (!j->runtime_ns)
			bounded = false;
		/* sum, not max: stonewalled groups run one after another */
		ns += j->startdelay_ns + j->ramp_time_ns + j->runtime_ns;
	}
	env->threads = threads > UINT_MAX ? UINT_MAX : (unsigned int)threads;
	env->inflight = inflight;
	env->runtime_s = bounded ? (unsigned int)((ns + 999999999ull) / 1000000000ull) : 0;
}

static void open_probes(struct run_ctx *ctx)
{
	struct probe_env env = { .runner_tgid = getpid(), .supervisor_tid = gettid() };
	struct errbuf err = { { 0 } };

	if (ctx->opts.no_probes)
		return;
	if (ctx->jobs.count && ctx->targets) {
		snprintf(env.target_disk, sizeof(env.target_disk), "%s",
			 ctx->targets[0].info.disk_name);
		env.target_dev = disk_devt(env.target_disk);
	}
	env.force_mechanism = ctx->opts.mechanism;
	probes_env_from_environment(&env);
	env.bpf_stats = ctx->opts.bpf_stats;
	env.detail = ctx->opts.detail;
	env.sample_hz = ctx->opts.sample_hz;
	env.block_time_stride = ctx->opts.block_sample;
	env.stacks = ctx->opts.stacks;
	job_figures(&ctx->jobs, &env);
	if (probes_open(&env, ctx->opts.probes, &ctx->probes, &err))
		fprintf(stderr, "iodig: kernel probes unavailable: %s\n", err.msg);
}

/* The workload's own figures, for the kernel section's per-I/O ratios. */
static void workload_figures(const struct run_ctx *ctx, struct probe_workload *wl)
{
	memset(wl, 0, sizeof(*wl));
	for (unsigned int i = 0; i < ctx->nr_workers; i++) {
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
		if (s->runtime_ns > wl->runtime_ns)
			wl->runtime_ns = s->runtime_ns;
		if (ctx->workers[i].job->engine->flags & ENGINE_SYNC)
			wl->sync_engine = true;
	}
}

/* run_execute maps fresh worker stats each time; release the last ones. */
static void reset_workers(struct run_ctx *ctx)
{
	free(ctx->workers);
	ctx->workers = NULL;
	if (ctx->shared)
		munmap(ctx->shared, ctx->shared_len);
	ctx->shared = NULL;
	ctx->nr_workers = 0;
}

/* Sleeps --repeat-delay, waking early for SIGINT/SIGTERM. */
static void repeat_pause(struct run_ctx *ctx, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	int sig;

	if (!ns)
		return;
	sig = sigtimedwait(&ctx->signals, NULL, &ts);
	if (sig > 0)
		ctx->stop_signal = sig;
}

static int repeat_figures(const struct report *r, struct figure_set *out);

static int one_repeat(struct run_ctx *ctx, struct repeat_result *res, bool last,
		      struct errbuf *err)
{
	int ret;

	ret = run_execute(ctx, err);
	if (ret)
		return ret;
	if (ctx->probes) {
		struct probe_workload wl;

		workload_figures(ctx, &wl);
		probes_collect(ctx->probes, &wl);
	}
	report_free(&res->rep);
	ret = run_build_report(ctx, &res->rep, err);
	if (ret)
		return ret;
	json_object_put(res->tree);
	ret = report_json_tree(&res->rep, &res->tree);
	if (!ret)
		ret = repeat_figures(&res->rep, &res->figures[res->done]);
	if (ret)
		return err_set(err, -ret, "building the figures of repeat %u failed: %s",
			       res->done + 1, strerror(-ret));
	res->done++;
	if (!last) {
		/* the next repeat loads its own probes */
		res->rep.probes = NULL;
		probes_destroy(ctx->probes);
		ctx->probes = NULL;
	}
	return 0;
}

int repeat_execute(struct run_ctx *ctx, const struct repeat_opts *o,
		   struct repeat_result *res, struct errbuf *err)
{
	unsigned int n = o->count ? o->count : 1;
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->asked = n;
	res->delay_ns = o->delay_ns;
	res->figures = calloc(n, sizeof(*res->figures));
	if (!res->figures)
		return err_set(err, ENOMEM, "out of memory for %u repeats", n);
	for (unsigned int i = 0; i < n; i++) {
		if (i) {
			repeat_pause(ctx, o->delay_ns);
			/* interrupted between repeats: keep the last one's report */
			if (ctx->stop_signal)
				break;
			reset_workers(ctx);
		}
		open_probes(ctx);
		if (run_signal_pending(ctx)) {
			res->nothing_run = i == 0;
			break;
		}
		ret = one_repeat(ctx, res, i + 1 == n, err);
		if (ret || ctx->stop_signal)
			break;
	}
	return ret;
}

void repeat_result_free(struct repeat_result *res)
{
	if (!res)
		return;
	report_free(&res->rep);
	json_object_put(res->tree);
	for (unsigned int i = 0; res->figures && i < res->asked; i++)
		figure_set_free(&res->figures[i]);
	free(res->figures);
	memset(res, 0, sizeof(*res));
}

/* ---- figures ---- */

/* One repeat's figures: the workload's from the report, each family's
 * from its own state. */
static int repeat_figures(const struct report *r, struct figure_set *out)
{
	int ret = report_figures(r, -1, out);

	if (!ret)
		probes_figures(r->probes, out);
	figure_set_sort(out, 0);
	return ret ? ret : out->err;
}

/* ---- summary ---- */

/* Values of @key over the repeats that have it. */
static size_t values_of(const struct repeat_result *res, const char *key, double *v)
{
	size_t n = 0;

	for (unsigned int i = 0; i < res->done; i++) {
		const struct figure *f = figure_find(&res->figures[i], key);

		if (f)
			v[n++] = f->value;
	}
	return n;
}

/* {key: value} in the set's order. */
static struct json_object *figures_json(const struct figure_set *s)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < s->n; i++)
		json_object_object_add(o, s->v[i].key, json_object_new_double(s->v[i].value));
	return o;
}

struct json_object *repeat_json(const struct repeat_result *res)
{
	struct json_object *o = json_object_new_object(), *runs, *sum;
	double *v = calloc(res->done ? res->done : 1, sizeof(double));

	if (!o || !v) {
		free(v);
		json_object_put(o);
		return NULL;
	}
	json_object_object_add(o, "count", json_object_new_int((int)res->done));
	json_object_object_add(o, "asked", json_object_new_int((int)res->asked));
	json_object_object_add(o, "delay_s", json_object_new_double((double)res->delay_ns / 1e9));
	runs = json_object_new_array();
	for (unsigned int i = 0; i < res->done; i++) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "figures", figures_json(&res->figures[i]));
		json_object_array_add(runs, r);
	}
	json_object_object_add(o, "runs", runs);
	sum = json_object_new_object();
	for (size_t k = 0; res->done && k < res->figures[res->done - 1].n; k++) {
		const char *key = res->figures[res->done - 1].v[k].key;
		struct sample_summary s;
		struct json_object *e = json_object_new_object();
		size_t n = values_of(res, key, v);

		sample_summarize(v, n, &s);
		json_object_object_add(e, "n", json_object_new_int((int)s.n));
		json_object_object_add(e, "mean", json_object_new_double(s.mean));
		json_object_object_add(e, "stdev", json_object_new_double(s.stdev));
		json_object_object_add(e, "ci95_low", json_object_new_double(s.mean - s.ci95_half));
		json_object_object_add(e, "ci95_high", json_object_new_double(s.mean + s.ci95_half));
		json_object_object_add(sum, key, e);
	}
	json_object_object_add(o, "summary", sum);
	free(v);
	return o;
}

int repeat_render_json(const struct repeat_result *res, FILE *out)
{
	struct json_object *doc = NULL, *iodig = NULL;
	int ret = 0;

	if (!res->tree)
		return -EINVAL;
	if (res->done < 2)
		return report_json_print(res->tree, out);
	/* new root and "iodig" sharing the report's members */
	doc = json_object_new_object();
	iodig = json_object_new_object();
	if (!doc || !iodig) {
		json_object_put(iodig);
		ret = -ENOMEM;
		goto cleanup;
	}
	json_object_object_foreach(res->tree, key, val) {
		if (strcmp(key, "iodig")) {
			json_object_object_add(doc, key, json_object_get(val));
			continue;
		}
		json_object_object_foreach(val, ikey, ival)
			json_object_object_add(iodig, ikey, json_object_get(ival));
	}
	json_object_object_add(iodig, "repeats", repeat_json(res));
	json_object_object_add(doc, "iodig", iodig);
	ret = report_json_print(doc, out);
cleanup:
	json_object_put(doc);
	return ret;
}

/* The summary's rows: every labelled figure that is no function row, in
 * the order the repeats put them (first seen first). */
static bool summary_row(const struct repeat_result *res, unsigned int run, size_t k)
{
	const struct figure *f = &res->figures[run].v[k];

	if (!f->def->label || f->def->kind == FIGURE_FUNCTION)
		return false;
	for (unsigned int i = 0; i < run; i++)
		if (figure_find(&res->figures[i], f->key))
			return false;
	return true;
}

void repeat_render_text(const struct repeat_result *res, FILE *out)
{
	double *v;

	if (res->done < 2)
		return;
	v = calloc(res->done, sizeof(double));
	if (!v)
		return;
	fprintf(out, "\nRepeats: %u of %u (figures of the last one above); mean, stdev, 95%% CI (Student t, %u df):\n",
		res->done, res->asked, res->done - 1);
	for (unsigned int i = 0; i < res->done; i++) {
		for (size_t k = 0; k < res->figures[i].n; k++) {
			const struct figure *f = &res->figures[i].v[k];
			struct sample_summary s;
			size_t n;

			if (!summary_row(res, i, k))
				continue;
			n = values_of(res, f->key, v);
			if (n < 2)
				continue;
			sample_summarize(v, n, &s);
			fprintf(out, "  %-36s %14.4g  stdev %10.3g (%5.1f%%)  CI [%.4g, %.4g] %s\n",
				f->def->label, s.mean, s.stdev,
				s.mean ? 100.0 * s.stdev / fabs(s.mean) : 0.0,
				s.mean - s.ci95_half, s.mean + s.ci95_half, f->def->unit);
		}
	}
	free(v);
}
